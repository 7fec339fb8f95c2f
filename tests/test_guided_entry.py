"""XBoard's guided move entry (feature highlight=1): `lift` answered with `highlight`, `put` with
`choice`, through the real engine process.  The command sequences are the ones Debian's XBoard 4.9.1
sent in live sessions (drags and clicks by xdotool under Xvfb, recorded with `--log`):

- lancer, click then press-and-pull on the destination: `lift b1`, `hover e4`, `put e4`, `put e3`,
  `usermove b1e4f` (the pull chose the facing among the `choice` letters);
- lancer dragged: `lift b1`, `hover e4`, `put e4`, `usermove b1e4q` (XBoard's default promotion
  piece appended: refused, with a `telluser` saying how to move a lancer);
- pawn pulled backwards before the drop (sweep promotion): `lift h7`, `hover g8`, `put g8`,
  `usermove h7g8e`;
- sentry push in two steps (drop on the unit, click its destination): `lift c1`, `put h6`, `lift h6`,
  `put g7`, `usermove c1h6,h6g7`.
"""
import pytest

from engine_driver import EngineProcess, told
from xboard_engine import Position

EMPTY = "highlight 8/8/8/8/8/8/8/8"


@pytest.fixture
def engine():
    proc = EngineProcess()
    yield proc
    proc.close()


def start(engine, variant="normal", fen=None, moves=""):
    engine.setup(variant, fen)
    for move in moves.split():
        engine.send(f"usermove {move}")
    out = engine.lines(engine.sync())
    assert not [line for line in out if line.startswith(("Illegal", "Error", "tellusererror"))], out


def answers(engine, *commands):
    for command in commands:
        engine.send(command)
    return [line for line in engine.lines(engine.sync()) if not line.startswith("setup")]


def test_handshake_asks_for_lift_and_put(engine):
    engine.send("protover 2")
    engine.expect(r"feature done=1")
    assert " highlight=1 " in engine.child.before


def test_lift_marks_moves_yellow_and_captures_red(engine):
    start(engine, moves="e2e4 d7d5")
    assert answers(engine, "lift e4") == ["highlight 8/8/8/3RY3/8/8/8/8"]
    assert answers(engine, "put e5") == []                  # an ordinary move needs no choice
    engine.send("usermove e4d5")
    assert engine.fen().startswith("rnbqkbnr/ppp1pppp/8/3P4/")


@pytest.mark.parametrize("square", ["d5", "e3", "z9", "", "e44"])
def test_lift_of_nothing_to_move_marks_nothing(engine, square):
    """An enemy unit, an empty square or a bad square name: no target, so XBoard refuses the drop."""
    start(engine, moves="e2e4 d7d5")
    assert answers(engine, f"lift {square}".strip()) == [EMPTY]
    assert answers(engine, "put e5", "put") == []


def test_R3_lancer_destinations_magenta_and_put_offers_the_facings_own_first(engine):
    """R3: a lancer chooses its facing after moving; XBoard offers the facings as a promotion
    choice, the lancer's own facing (keep) first."""
    start(engine, "8piece")
    assert answers(engine, "lift b1", "hover e4") == ["highlight 8/7M/6M1/5M2/4M3/3M4/8/8"]
    assert answers(engine, "put e4", "put e3") == ["choice DCEFGHMO"]
    engine.send("usermove b1e4f")
    assert engine.fen().split()[0] == "jfsqkbnr/pppppppp/8/8/4F3/8/PPPPPPPP/J1SQKBNR"


def test_lancer_dragged_in_xboard_is_refused_with_how_to_move_it(engine):
    start(engine, "8piece")
    before = engine.fen()
    assert answers(engine, "lift b1", "hover e4", "put e4") == ["highlight 8/7M/6M1/5M2/4M3/3M4/8/8",
                                                                "choice DCEFGHMO"]
    out = answers(engine, "usermove b1e4q")
    assert " ".join(told(out[0])[1].split()) == (
        "A lancer cannot be dragged in XBoard. Click it, then press on its destination and pull up or "
        "down until it faces the way you want, and release. Or type the move with its facing, e.g. "
        "b1e4c (facing north).")
    assert out[1:] == ["Illegal move: b1e4q"]
    assert engine.fen() == before


def test_q_suffix_of_a_pawn_is_a_queen_not_a_hint(engine):
    start(engine, moves="e2e4 d7d5")
    assert answers(engine, "usermove e4e5q") == ["Illegal move: e4e5q"]


def test_R7_promotion_choice_lists_every_legal_piece_and_lancer_facing(engine):
    """Promotion (8-Piece): the queen first, then every legal piece; lancers by facing letter."""
    start(engine, "8piece", moves="h2h4 g7g5 h4g5 a7a6 g5g6 a6a5 g6h7 a5a4")
    assert answers(engine, "lift h7", "hover g8") == ["highlight 6M1/8/8/8/8/8/8/8"]
    assert answers(engine, "put g8") == ["choice QRBNJEFGHMS"]
    pos = Position("8piece")
    for move in "h2h4 g7g5 h4g5 a7a6 g5g6 a6a5 g6h7 a5a4".split():
        pos.push_text(move)
    promotions = sorted(pos.move_text(m)[-1] for m in pos.legal_moves() if pos.move_text(m).startswith("h7g8"))
    assert promotions == sorted("qrbnjefghms")
    engine.send("usermove h7g8e")
    assert engine.fen().split()[0].startswith("jfsqkbEr/")


def test_R8_push_entered_in_two_steps(engine):
    """R8: the sentry is dropped on the enemy unit (cyan: the move goes on), then the unit's
    destination is clicked among the squares the second `lift` marks."""
    start(engine, "8piece", moves="d2d4 h7h6")
    assert answers(engine, "lift c1") == ["highlight 8/8/7C/6Y1/5Y2/4Y3/3Y4/8"]
    assert answers(engine, "put h6", "lift h6") == ["highlight 8/6YY/8/8/8/8/8/8"]
    assert answers(engine, "put g7") == []
    engine.send("usermove c1h6,h6g7")
    assert engine.fen().split()[0] == "jfsqkbnr/ppppppp1/7S/8/3P4/8/PPP1PPPP/JD1QKBNR"


def test_R8_push_with_one_destination_is_a_plain_drag(engine):
    """A unit that can be pushed to one square only: the sentry's square is red and a plain drag
    names the push."""
    fen = "4k3/8/8/8/8/8/6p1/4K2S w - - 0 1"
    start(engine, "8piece", fen)
    pos = Position.from_fen(fen, "8piece")
    pushes = [pos.move_text(m) for m in pos.legal_moves() if m.kind == 4]
    assert len(pushes) == 1
    marks = answers(engine, "lift h1")[0]
    assert marks.split("/")[6] == "6R1"
    engine.send("usermove h1g2")
    assert engine.fen().split()[0].split("/")[6] == "6S1"


def test_R9_jump_capture_entered_in_two_steps(engine):
    """R9.1 (2019 rules): the sentry is dropped on the unit it jumps (cyan), then the landing square
    beyond is clicked."""
    start(engine, "8piece-2019", "4k3/8/8/8/5p2/8/8/2S1K3 w - - 0 1")
    assert answers(engine, "lift c1") == ["highlight 8/8/8/8/5C2/Y3Y3/1Y1Y4/8"]
    assert answers(engine, "put f4", "lift f4") == ["highlight 8/8/8/6Y1/8/8/8/8"]
    engine.send("usermove c1f4,f4g5")
    assert engine.fen().split()[0] == "4k3/8/8/6S1/8/8/8/4K3"


def test_R5_4_chess80_king_marks_every_castle_landing_xboard_can_enter(engine):
    """R5.4: flexible castling lands the king on b1-d1 or f1-j1 (j1 and a1 are onto the rook).
    XBoard 4.9.1 (checking Chess80's moves itself) makes a drop on the rook's square the castle
    with the king beside the rook, and a typed ``e1j1,j1j1`` reaches the engine as ``e1j1``: no
    gesture enters the castle onto the rook's square, so its square is not marked (issue 24: it
    was, promising a move the drop does not make)."""
    start(engine, "chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1")
    assert answers(engine, "lift e1") == ["highlight 10/10/10/10/10/10/10/1YYY1YYYY1"]


def test_chess960_castle_lands_on_the_partner(engine):
    """Chess960: XBoard's castle gesture is the king dropped on its rook."""
    start(engine, "fischerandom", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1")
    # b1 and g1: the two castles (king onto its rook); c1 and e1: king steps
    assert answers(engine, "lift d1") == ["highlight 8/8/8/8/8/8/8/1YY1Y1Y1"]


def test_R4_2_lifting_a_held_unit_says_which_jailer_holds_it(engine):
    """R4.2: a held unit cannot move; XBoard shows nothing of the hold, so the engine says why no
    square is marked (R4.3: the held king's side may pass, typed @@@@)."""
    start(engine, "8piece", "4k3/8/8/8/3j4/3K4/8/8 w - - 0 1")
    assert answers(engine, "lift d3") == [EMPTY, "telluser \\\\The jailer on d4 holds this unit: it cannot move."]
    assert answers(engine, "lift d4") == [EMPTY]           # the enemy's jailer: not the mover's unit
    engine.send("usermove @@@@")
    assert engine.fen().split()[1] == "b"


def test_an_unheld_unit_without_moves_gets_no_message(engine):
    start(engine, "8piece")
    assert answers(engine, "lift a1") == [EMPTY]           # the jailer is boxed in, not held
