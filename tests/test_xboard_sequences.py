"""XBoard's own command sequences around positions, through the real engine process.  Each
transcript is what XBoard sent in a live session (recorded with `--log`, XBoard under Xvfb driven by
xdotool); tests/test_xboard_e2e.py plays the same sessions in the real XBoard 4.9.1.

- File > Load Position in the middle of a session (XBoard 4.9.1 and its development version, here
  after 1.d4 d5 in 8-Piece): XBoard resets the game, sending `new` and `variant` again, and at once
  `force` and `setboard`.  The engine's `setup` answer to `variant` reaches XBoard after it has drawn
  the loaded position; 4.9.1 then draws the start array instead (backend.c re-initialises the board
  when a `setup` changes the parent variant) while the engine plays on from the loaded position.
- A game that starts from a `setboard` (a position loaded when XBoard starts, `-lpf`; Chess960 when
  XBoard shuffles) gets the human's first move followed at once by `go` (backend.c,
  setboardSpoiledMachineBlack); when the engine refuses that move, the `go` still follows.
"""
import pytest

from engine_driver import EngineProcess
from xboard_engine import Position
from xboard_engine.core.variant import get_variant

EIGHT_PIECE_TABLE = "PNBRQCDEFGHMOSJKpnbrqcdefghmosjk"
LOADED = "jfsqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/JDSQKB1R w KQkq - 2 1"


@pytest.fixture
def engine():
    proc = EngineProcess()
    yield proc
    proc.close()


def send_all(engine, lines):
    for line in lines.strip().splitlines():
        engine.send(line.strip())
    return engine.lines(engine.sync())


def start_8piece_game(engine):
    out = send_all(engine, """
        new
        random
        variant 8piece
        level 40 5 0
        post
        hard
        force
        usermove d2d4
        usermove d7d5
    """)
    assert out[0].startswith(f"setup ({EIGHT_PIECE_TABLE}) 8x8+0_lion jfsqkbnr/pppppppp/")


# The sequence XBoard 4.9.1 sent for File > Load Position after 1.d4 d5 (engine playing Black).
LOAD_POSITION = """
    force
    memory 68
    cores 1
    new
    random
    variant 8piece
    level 40 5 0
    post
    hard
    force
    setboard {fen}
"""


def test_load_position_mid_session_makes_xboard_show_the_loaded_position(engine):
    """After the start-array `setup` that answers `variant`, the engine re-announces the loaded
    position with another parent and then the true one, so that 4.9.1 re-initialises its board
    twice and ends on the loaded position (seen in 4.9.1: without them it drew the start array)."""
    start_8piece_game(engine)
    out = send_all(engine, LOAD_POSITION.format(fen="jfsqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/JDSQKB1R w Kk - 2 1"))
    head = f"setup ({EIGHT_PIECE_TABLE}) 8x8+0_"
    assert out[1:19] == get_variant("8piece").xboard_piece_lines     # only after the first
    assert out[:1] + out[19:] == [f"{head}lion jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w KQkq - 0 1",
                   f"{head}fairy {LOADED}", f"{head}lion {LOADED}"]
    assert engine.fen() == LOADED            # the rights XBoard's FEN cut (Kk) are back
    # the human plays on from the loaded position and hands the engine Black (Mode > Machine Black)
    out = send_all(engine, "usermove f3e5\ntime 30000\notim 30000\ngo")
    engine.expect(r"(?m)^move (\S+)\r?\n", timeout=30)
    pos = Position.from_fen(LOADED, "8piece")
    pos.push_text("f3e5")
    pos.parse_move(engine.child.match.group(1))       # a legal Black move of the loaded game


@pytest.mark.parametrize("variant,fen,parent,other", [
    ("chess80", "rnbdkqdbnr/pppp1ppppp/10/4p5/4P5/10/PPPP1PPPPP/RNBDKQDBNR w KQkq - 0 2", "fairy", "lion"),
    ("fullcavalry", "enbqkbnm/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/ENBQKBNM w KQkq - 0 2", "fairy", "lion"),
    ("8piece-2019", "jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR w KQkq - 0 2", "lion", "fairy"),
])
def test_load_position_re_announced_in_every_hosted_variant(engine, variant, fen, parent, other):
    out = send_all(engine, f"new\nvariant {variant}\nforce\nsetboard {fen}")
    table = [line for line in out if line.startswith("setup (")][0].split(")")[0] + ")"
    size = "10x8" if variant == "chess80" else "8x8"
    assert out[-2:] == [f"{table} {size}+0_{other} {fen}", f"{table} {size}+0_{parent} {fen}"]


@pytest.mark.parametrize("case,commands", [
    # Black to move: XBoard counts that as a move made and ignores `setup`, so it keeps the position
    ("black to move", "force\nsetboard jfsqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/JDSQKBNR b KQkq d3 0 2"),
    # the start array again (a second engine gets it at every game start)
    ("start array", "force\nsetboard jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w Kk - 0 1"),
    # Edit Position after moves were made: no `variant` was sent, so no stale `setup` is on its way
    ("after a move", "usermove e2e4\nforce\nsetboard jfsqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/JDSQKBNR w Kk - 0 2"),
    # the orthodox variants have no `setup` at all
    ("normal chess", "new\nforce\nsetboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
])
def test_setboard_re_announces_nothing_when_xboard_keeps_the_position(engine, case, commands):
    send_all(engine, "new\nvariant 8piece")
    assert [line for line in send_all(engine, commands) if line.startswith("setup")] == []


# XBoard 4.9.1 (and its development version) started with `-lpf` on a position, White to move, the
# human typing an illegal move first: the move and `go` arrive together.
LOADED_AT_START = """
    new
    random
    level 40 5 0
    post
    hard
    force
    setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1
    time 30000
    otim 30000
    usermove e4e6
    go
"""


def test_go_right_after_a_refused_move_leaves_the_move_to_the_human(engine):
    """Taken literally the `go` makes the engine play White's move; XBoard, which has taken the
    refused move back and waits for the engine to play Black, then reads it as impossible and the
    engine ponders for ever on its running clock (seen in XBoard's development version: "Impossible
    move g1f3").  The engine takes Black and waits for the human's next move."""
    out = [line for line in send_all(engine, LOADED_AT_START) if not line[0].isdigit()]
    assert out == ["Illegal move: e4e6"]                  # and no move for White (thinking lines:
                                                          # the engine ponders on White's move)
    assert engine.fen().split()[1] == "w"
    out = send_all(engine, "time 29992\notim 29651\nusermove g1f3")
    engine.expect(r"(?m)^move (\S+)\r?\n", timeout=30)
    pos = Position.from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 1")
    pos.parse_move(engine.child.match.group(1))           # Black's reply


def test_go_after_anything_else_plays_the_side_to_move(engine):
    """Only the `go` that comes at once after the refusal is read so: with the clock report between
    them (as XBoard sends when the human picks Machine White) the engine plays White."""
    send_all(engine, LOADED_AT_START.replace("    go\n", ""))
    engine.send("time 29000")
    engine.send("otim 29000")
    engine.send("go")
    move = engine.expect(r"(?m)^move (\S+)\r?\n", timeout=30).group(1)
    Position.from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1").parse_move(move)


def test_the_board_display_comes_in_one_piece_while_the_engine_thinks(engine):
    """`d` while the engine ponders or analyses: the search's lines never come between the board's
    (a thinking line between `fen` and `variant` made a test waiting for both time out)."""
    send_all(engine, "new\npost\nanalyze")
    for _ in range(150):
        engine.send("d")
        block = engine.expect(r"(?:[ \d]\d [^\r\n]*\r?\n)+ +a b c d e f g h\r?\nfen [^\r\n]+\r?\n([^\r\n]*)\r?\n")
        assert block.group(1) == "variant normal, white to move", block.group(0)
    send_all(engine, "exit")
