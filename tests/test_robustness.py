"""Robustness: thousands of random, malformed and hostile lines.  The engine must stay alive, answer a
final ping, never print a traceback, and keep its position unchanged by rejected input."""
import random
from pathlib import Path

from engine_driver import run_then_quit
from xboard_engine import Position, RulesError, variant_names

ROOT = Path(__file__).resolve().parent.parent
QUIT_SECONDS = 0.1          # `quit` ends the process this soon, whatever came before it
FEN = "r3k2r/ppp2ppp/2n5/3pp3/4P3/2N5/PPPP1PPP/R3K2R w KQkq d6 0 5"
COMMAND_WORDS = ["level", "st", "sd", "nps", "time", "otim", "memory", "cores", "option", "perft",
                 "exclude", "include", "ping", "usermove", "setboard", "variant", "accepted",
                 "rejected", "name", "rating", "protover", "result", "draw", "bk", ".", "exit", "?",
                 "undo", "remove", "computer", "random", "post", "nopost", "easy", "xboard", "debug"]


def _junk_lines(rng: random.Random, count: int):
    pos = Position.from_fen(FEN)
    legal = pos.legal_texts()
    squares = [f + r for f in "abcdefghijklmz" for r in ("0", "1", "2", "7", "8", "9", "10")]
    tokens = ["-1", "0", "x", "1:2:3", "99999999999999999999", "nan", "inf", "=", "all", "@@@@",
              "O-O", "O-O-O", "e1g1,g1g1", "\t", "KQkq", "8/8/8", "w", "-", "e4", "Nf3"]
    lines = []
    while len(lines) < count:
        kind = rng.randrange(8)
        if kind == 0:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120)))
            line = line.replace(b"\n", b" ").replace(b"\r", b" ")
        elif kind == 1:
            move = rng.choice(squares) + rng.choice(squares) + rng.choice(["", "q", "c", "z", ",a1a1"])
            line = f"usermove {move}".encode()
            if move in legal:
                continue
        elif kind == 2:
            fields = [rng.choice(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8/8/8/8/8/8/8/8",
                                  "k7/8/8/8/8/8/8/7K", "rnbqkbnr/ppp/8", "jfsqkbnr", "K7/8/8/8/8/8/8/k6Q"]),
                      rng.choice(["w", "b", "x"]), rng.choice(["KQkq", "-", "Z", "KK"]),
                      rng.choice(["-", "e3", "z9"]), rng.choice(["0", "-5", "a"]), rng.choice(["1", "0", "b"])]
            text = " ".join(fields[: rng.randrange(1, 7)])
            try:
                Position.from_fen(text)
                continue            # a valid position would (rightly) change the board
            except RulesError:
                pass
            line = f"setboard {text}".encode()
        elif kind == 3:
            word = rng.choice(COMMAND_WORDS)
            args = " ".join(rng.choice(tokens + squares) for _ in range(rng.randrange(0, 4)))
            if word == "variant" and args.split()[:1] and args.split()[0] in variant_names():
                continue
            if word in ("usermove",) and args in legal:
                continue
            if word == "perft" and args.strip().isdigit():
                continue            # a real perft is allowed to take its time
            line = f"{word} {args}".encode()
        elif kind == 4:
            line = rng.choice([b"usermove e7e5", b"usermove e8g8", b"usermove d5e4,e4e4",
                               b"usermove e1j1,j1i1", b"usermove c1h5,h5h6", b"usermove a1a1"])
        elif kind == 5:
            line = "".join(chr(rng.randrange(0x80, 0x3000)) for _ in range(rng.randrange(1, 40))).encode()
        elif kind == 6:
            line = rng.choice([b"", b" ", b"\t\t", b"\x00\x00", b"\xff\xfe", b"usermove", b"setboard",
                               b"option", b"level 1", b"time", b"ping"])
        else:
            line = (rng.choice(COMMAND_WORDS) + rng.choice(["", " ", "  "]) * 3).encode() + \
                bytes(rng.randrange(32, 127) for _ in range(rng.randrange(0, 60)))
            if line.split()[:1] in ([b"variant"], [b"usermove"], [b"setboard"], [b"perft"]):
                continue
        lines.append(line)
    return lines


def test_hostile_input_leaves_engine_alive_and_position_unchanged():
    rng = random.Random(99)
    junk = _junk_lines(rng, 12000)
    junk.insert(100, b"x" * 300000)                      # a huge line
    junk.insert(200, bytes(rng.randrange(256) for _ in range(200000)).replace(b"\n", b""))
    script = [b"xboard", b"protover 2", b"new", b"force", f"setboard {FEN}".encode()] + junk + [b"d"]
    out, err, code, quit_seconds = run_then_quit(script, b"ping 424242", "pong 424242")
    assert code == 0 and quit_seconds < QUIT_SECONDS
    assert "Traceback" not in out and "Traceback" not in err
    assert "internal error" not in out
    assert "\nmove " not in out                          # force mode: the engine never moved
    assert f"fen {FEN}" in out
    assert out.rstrip().endswith("pong 424242")
    assert out.count("Illegal move:") > 1000
    assert out.count("tellusererror \\\\Illegal position") > 300
    assert "Error (command too long)" in out
