"""Games through the real engine process: every special move kind sent to the engine and received
from it, and full engine-vs-engine games relayed the way a GUI relays them."""
import random

import pytest

from engine_driver import EngineProcess
from xboard_engine import Position, variant_names
from xboard_engine.core.moves import CASTLE, EDGE, EP, JUMP, PASS, PUSH

# (variant, FEN, text the GUI sends, text the rules core writes for that move)
USER_MOVES = [
    ("normal", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1g1"),
    ("normal", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "e8c8"),
    ("normal", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "e5d6"),
    ("normal", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b7b8n"),
    ("fischerandom", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", "O-O", "O-O"),
    ("fischerandom", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", "e1b1", "O-O-O"),
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1", "e1j1,j1j1", "e1j1,j1j1"),
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1", "e1j1,j1i1", "e1j1,j1j1"),
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1", "e1j1", "e1i1"),   # as XBoard
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R b KQkq - 0 1", "e8a8", "e8c8"),   # shows them
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R b KQkq - 0 1", "e8a8,a8b8", "e8a8,a8a8"),
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1", "e1h1", "e1h1"),
    ("chess80", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1", "b7b8d", "b7b8d"),
    ("fullcavalry", "4k3/8/8/8/8/8/8/C3K3 w - - 0 1", "a1a7e", "a1a7e"),
    ("fullcavalry", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8g", "a7a8g"),
    ("fullcavalry", "4k3/8/8/8/8/8/8/4K2M w K - 0 1", "h1f1c,e1g1", "h1f1c,e1g1"),
    ("fullcavalry", "4k3/8/8/8/8/8/8/4K2M w K - 0 1", "e1g1", "e1g1"),
    ("8piece", "kJ6/8/8/8/8/8/8/7K b - - 0 1", "@@@@", "@@@@"),
    ("8piece", "4k3/6n1/7p/8/8/8/8/K1S5 w - - 0 1", "c1g7,g7h6", "c1g7,g7h6"),
    ("8piece", "k7/8/8/8/8/8/8/2s4K b - - 0 1", "c1h6", "c1h6"),
    ("8piece", "k7/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "e1g1"),
    ("8piece-random", Position("8piece-random", number=0).fen(), "e1e3", "e1e3"),
    ("8piece-random", "4k3/8/8/8/8/8/8/1J3KR1 w KQ - 0 1", "O-O", "f1g1"),
    ("8piece-random", "4k3/8/8/8/8/8/8/1J3KR1 w KQ - 0 1", "f1b1", "f1b1"),
    ("8piece-2019", "4k3/8/8/8/5n2/8/8/2S1K3 w - - 0 1", "c1f4,f4g5", "c1f4,f4g5"),
    ("8piece-2019", "4k3/8/n7/8/8/3S4/8/4K3 w - - 0 1", "d3a6", "d3a6"),
]


@pytest.fixture(scope="module")
def engine():
    proc = EngineProcess()
    yield proc
    proc.close()


@pytest.mark.parametrize("variant,fen,sent,canonical", USER_MOVES)
def test_special_moves_from_the_gui(engine, variant, fen, sent, canonical):
    engine.setup(variant, fen)
    engine.send(f"usermove {sent}")
    pos = Position.from_fen(fen, variant)
    move = pos.parse_move(sent)
    assert pos.move_text(move) == canonical
    pos.push(move)
    assert engine.fen() == pos.fen()


def _mates_in_one(variant, fen):
    pos = Position.from_fen(fen, variant)
    mates = []
    for m in pos.legal_moves():
        pos.push(m)
        if pos.outcome() is not None and pos.outcome().termination == "checkmate":
            mates.append(m)
        pos.pop()
    return pos, mates


@pytest.mark.parametrize("variant,fen,expected", [
    ("8piece", "8/8/8/3S4/8/p1K5/k7/7R w - - 0 1", "d5a1,a1a2 d5b1,b1a2"),  # the text's push mates
    ("8piece", "k7/8/8/8/8/8/8/6jK w - - 0 1", "@@@@"),              # held king: pass only
    ("normal", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8"),
])
def test_special_moves_from_the_engine(engine, variant, fen, expected):
    pos, mates = _mates_in_one(variant, fen)
    legal = pos.legal_texts()
    best = set(expected.split())
    assert len(legal) == 1 and legal == best or {pos.move_text(m) for m in mates} == best
    engine.setup(variant, fen)
    engine.send("sd 2")
    engine.send("go")
    assert engine.engine_move() in best
    engine.send("force")


def _kind(pos, m):
    if m.kind in (CASTLE, PUSH, PASS, JUMP, EDGE, EP):
        return {CASTLE: "castle", PUSH: "push", PASS: "pass", JUMP: "jump", EDGE: "edge", EP: "ep"}[m.kind]
    if m.placed != pos.board[m.frm]:
        return "promotion" if pos.v.is_pawn[pos.board[m.frm]] else "turn"
    return "plain"


def _relay_game(white, black, variant, rng, opening_plies, max_plies):
    """Play one game between two engine processes as a GUI would; every move checked by the core."""
    pos = Position(variant, number=rng.randrange(960)) if variant in ("fischerandom", "8piece-random") \
        else Position(variant)
    start = pos.fen()
    kinds = set()
    for proc in (white, black):
        proc.setup(variant, start)
        proc.send("sd 1")
    for _ in range(opening_plies):
        legal = pos.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        text = pos.move_text(m)
        for proc in (white, black):
            proc.send(f"usermove {text}")
        kinds.add(_kind(pos, m))
        pos.push(m)
    if pos.outcome() is not None:
        return pos, kinds
    engines = [white, black]
    mover = engines[pos.stm]
    mover.send("go")
    engines[1 - pos.stm].send("playother")
    for ply in range(max_plies):
        text = mover.engine_move(timeout=30)
        m = pos.parse_move(text)                 # the engine's move must be legal
        assert pos.move_text(m) == text
        kinds.add(_kind(pos, m))
        pos.push(m)
        other = engines[pos.stm]
        if ply == max_plies - 1:
            other.send("force")                 # adjourn: no further move wanted
        other.send(f"usermove {text}")          # the other engine thinks at once (not in force)
        if pos.outcome() is not None:
            result = pos.outcome().result
            mover.expect(rf"{result} \{{")
            other.expect(rf"{result} \{{")
            break
        mover = other
    for proc in (white, black):
        proc.send("force")
        proc.sync()
        assert proc.fen() == pos.fen()
    return pos, kinds


@pytest.mark.parametrize("variant", variant_names())
def test_engine_vs_engine_games(variant):
    white, black = EngineProcess(), EngineProcess()
    try:
        for proc in (white, black):
            proc.send("new")
        black.send("force")
        rng = random.Random(11)
        kinds = set()
        for _ in range(3):
            _, seen = _relay_game(white, black, variant, rng, opening_plies=6, max_plies=50)
            kinds |= seen
        assert "plain" in kinds
    finally:
        white.close()
        black.close()
