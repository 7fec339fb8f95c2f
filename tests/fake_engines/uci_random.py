"""A minimal UCI engine: plays seeded random legal moves (orthodox chess and Chess960).

Answers ``uci`` (advertising UCI_Chess960), ``isready``, ``ucinewgame``, ``position startpos|fen ...
moves ...`` and ``go ...`` (with an ``info ... score cp`` line before ``bestmove``).  Castling is sent
as the king's two-square move, or as king-takes-rook when UCI_Chess960 is on.
--seed S     seed of the random choice
--castle     castle whenever castling is legal
"""
import os
import random
import sys

try:
    import xboard_engine  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from xboard_engine import Position  # noqa: E402
from xboard_engine.core.moves import CASTLE  # noqa: E402


def main() -> None:
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rng = random.Random(seed)
    chess960 = False
    pos = Position("normal")

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "quit":
            return
        if cmd == "uci":
            send("id name uci_random")
            send("option name UCI_Chess960 type check default false")
            send("uciok")
        elif cmd == "isready":
            send("readyok")
        elif cmd == "setoption" and "UCI_Chess960" in words:
            chess960 = words[-1] == "true"
        elif cmd == "position":
            variant = "fischerandom" if chess960 else "normal"
            if words[1] == "startpos":
                pos, rest = Position(variant), words[2:]
            else:
                end = words.index("moves") if "moves" in words else len(words)
                pos, rest = Position.from_fen(" ".join(words[2:end]), variant), words[end:]
            for text in rest[1:]:
                pos.push_text(text)
        elif cmd == "go":
            moves = sorted(pos.legal_moves())
            if not moves:
                send("bestmove (none)")
                continue
            castles = [m for m in moves if m.kind == CASTLE]
            move = castles[0] if castles and "--castle" in sys.argv else rng.choice(moves)
            v = pos.v
            if move.kind == CASTLE:
                text = v.names[move.frm] + v.names[move.square2 if chess960 else move.to]
            else:
                text = pos.move_text(move)
            send(f"info depth 1 score cp {rng.randint(-30, 30)} nodes 1 pv {text}")
            send(f"bestmove {text}")


if __name__ == "__main__":
    main()
