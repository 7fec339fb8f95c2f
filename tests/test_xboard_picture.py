"""XBoard 4.9.1's picture of the board (xboard_engine/engine/xboard/picture.py) and what the engine does with
it (issue 24, "never a frozen game"): XBoard 4.9.1 without legality testing loses the unit a human's
push pushes; when the engine later moved that unit, XBoard dropped the move and the game stood still
with the engine's clock running.  With option "Avoid moves XBoard 4.9.1 misdraws" the engine keeps
XBoard's picture beside the true board and, while they differ, plays only moves the picture can show;
when it has none, it says what the user can do instead of sending a move XBoard would drop.

The tests drive the real engine process; the picture is checked against the tests' own model of
XBoard's drawing (xboard_records.xboard_pieces, checked against XBoard's screenshots)."""
import os
import random

import pytest

from engine_driver import EngineProcess, told
from xboard_engine import Position
from xboard_engine.engine.xboard.view import POPUP_WIDTH
from xboard_engine.engine.xboard.picture import XBoardPicture
from xboard_records import pieces, xboard_lost_the_unit, xboard_pieces

OPTION = "option Avoid_moves_XBoard_4.9.1_misdraws=1"
# White's sentry c1 pushes the black queen h6 down to h3, where the g2 pawn attacks it
QUEEN_PUSHED = "4k3/8/7q/8/8/8/6P1/2S1K3 w - - 0 1"
# White's sentry c1 pushes the lone black king e3 to d4: Black has no other unit
KING_PUSHED = "8/8/8/8/8/4k3/8/2S1K3 w - - 0 1"


def started(e: EngineProcess) -> EngineProcess:
    e.send("xboard")
    e.send("protover 2")
    e.expect("feature done=1")
    return e


@pytest.fixture
def engine():
    e = started(EngineProcess(timeout=30))
    yield e
    e.close()


def notes(lines):
    return [told(line)[1] for line in lines if told(line)]


def play_black_after(engine, fen, human, option):
    """Set up ``fen`` in 8-Piece Chess, the human (White) plays ``human``, the engine plays Black at a
    fixed depth; returns the engine's output up to its move (or a sync if it does not move)."""
    engine.setup("8piece", fen)
    if option:
        engine.send(OPTION)
    engine.send("sd 3")
    engine.send("white")                          # White to move, the engine plays Black
    engine.send(f"usermove {human}")


def test_picture_draws_like_the_tests_model_of_xboard_in_random_games():
    """The engine's picture and the tests' model of XBoard 4.9.1 (written separately, checked against
    XBoard's screenshots) agree after every move of random games full of pushes, captures, castles
    and promotions, in every variant XBoard hosts without legality testing."""
    rng = random.Random(24)
    for variant in ("8piece", "8piece-2019", "8piece-random", "fullcavalry"):
        for _ in range(12):
            start = Position(variant, number=rng.randrange(960)) if variant == "8piece-random" else Position(variant)
            pos, picture, texts = start.copy(), XBoardPicture(start), []
            for _ in range(120):
                legal = pos.legal_moves()
                if not legal or pos.outcome() is not None:
                    break
                move = rng.choice(legal)
                text = pos.move_text(move)
                texts.append(text)
                picture.draw(text)
                pos.push(move)
                model, _ = xboard_pieces(start, texts)
                assert picture.shown == model, (variant, start.fen(), texts)


def test_picture_follows_the_truth_where_xboard_draws_right():
    """Moves XBoard draws right leave no difference: the picture of the orthodox game equals the
    true board after every move (castles, en passant and promotions included)."""
    pos = Position("8piece")
    picture = XBoardPicture(pos)
    for text in ["e2e4", "a7a5", "e4e5", "d7d5", "e5d6", "e8d7", "d6c7", "g8f6", "c7b8q", "f6e4",
                 "g1f3", "h8g8", "f1e2", "g8h8", "e1g1"]:
        picture.draw(text)
        pos.push_text(text)
        assert picture.differences(pos) == set(), text


def test_a_human_push_loses_the_unit_and_the_engine_does_not_move_it(engine):
    """The human's push ``c1h6,h6h3`` (as XBoard relays it) takes the black queen to h3, where XBoard
    4.9.1 shows the white sentry instead.  Without the option the engine saves its queen (a move
    XBoard would drop: the game would freeze); with it, it says once that XBoard's board is wrong,
    gives the true position, and plays a move XBoard shows."""
    play_black_after(engine, QUEEN_PUSHED, "c1h6,h6h3", option=False)
    saved = engine.engine_move()
    assert saved.startswith("h3")
    assert xboard_lost_the_unit(Position.from_fen(QUEEN_PUSHED, "8piece"), ["c1h6,h6h3", saved])

    play_black_after(engine, QUEEN_PUSHED, "c1h6,h6h3", option=True)
    move = engine.engine_move()
    before = engine.child.before
    start = Position.from_fen(QUEEN_PUSHED, "8piece")
    assert not xboard_lost_the_unit(start, ["c1h6,h6h3", move]) and move.startswith("e8"), move
    true = start.copy()
    true.push_text("c1h6,h6h3")
    said = notes(engine.lines(before))
    six = " ".join(true.fen().split()[:6])
    assert len(said) == 1 and all(len(line) <= POPUP_WIDTH or line == six or " " not in line
                                  for line in said[0].split("\n"))
    text = " ".join(said[0].split())
    assert text.startswith("XBoard cannot show this move: its board is now wrong on h3, h6. I will "
                           "play only moves it can show.")
    assert text.endswith("The position: " + six)
    assert "(R" not in text


def test_the_engine_keeps_to_moves_xboard_shows_for_the_rest_of_the_game(engine):
    """After the push the engine and the human play on (the human's moves random): every engine move
    is one XBoard 4.9.1 shows (its unit is where XBoard shows it), until the game ends."""
    rng = random.Random(7)
    start = Position.from_fen("r3k3/pppp4/7q/8/8/8/PP4P1/2S1K2R w K - 0 1", "8piece")
    engine.setup("8piece", start.fen())
    engine.send(OPTION)
    engine.send("sd 2")
    engine.send("white")
    texts = ["c1h6,h6h3"]
    pos = start.copy()
    pos.push_text(texts[0])
    engine.send(f"usermove {texts[0]}")
    while pos.outcome() is None and len(texts) < 60:
        answer = engine.engine_move()
        assert not xboard_lost_the_unit(start, texts + [answer]), texts + [answer]
        pos.push_text(answer)
        texts.append(answer)
        if pos.outcome() is not None:
            break
        shown, _ = xboard_pieces(start, texts)
        # the human can only move units XBoard shows where they are
        human = [m for m in pos.legal_moves() if shown.get(pos.variant.names[m.frm]) == pieces(pos)[pos.variant.names[m.frm]]
                 and "," not in pos.move_text(m)]
        move = rng.choice(human)
        texts.append(pos.move_text(move))
        pos.push(move)
        engine.send(f"usermove {texts[-1]}")
    assert len(texts) > 10


def test_with_no_move_xboard_can_show_the_engine_says_what_to_do_and_waits(tmp_path):
    """The human pushes Black's lone king: XBoard shows the sentry on the king's square and no king.
    Every move the engine has would be dropped: it sends none, and says to resign or load the true
    position (written to a file; with File > New Game first, as XBoard 4.9.1 needs for Black to
    move).  The FEN it gives is one XBoard reads (six fields); a setboard of it, as XBoard sends it
    back, restores the whole position, push restriction included, and the engine plays on."""
    engine = started(EngineProcess(timeout=30, env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path))))
    play_black_after(engine, KING_PUSHED, "c1e3,e3d4", option=True)
    said = notes(engine.lines(engine.sync()))
    true = Position.from_fen(KING_PUSHED, "8piece")
    true.push_text("c1e3,e3d4")
    fen6 = " ".join(true.fen().split()[:6])
    assert len(true.fen().split()) == 7                  # the push restriction's field
    assert len(said) == 2, said
    stuck = " ".join(said[1].split())
    path = tmp_path / "xboard-engine" / "position.fen"
    assert stuck.startswith("XBoard's board no longer shows this game, and it would ignore any move I make. "
                            "Resign (Action > Resign), or to play on, choose File > New Game")
    assert f"choose File > New Game, then File > Load Position with the file {path}, then Mode > Machine Black" in stuck
    assert path.read_text() == fen6 + "\n"
    # no move comes meanwhile
    assert not [line for line in engine.lines(engine.sync()) if line.startswith("move ")]
    # XBoard reads the file back: New Game, Load Position (its FEN drops the castling it cannot
    # write), Machine Black
    engine.send("new")
    engine.send("variant 8piece")
    engine.send("force")
    engine.send(f"setboard {' '.join(fen6.split()[:2])} - - 0 1")
    assert engine.fen() == true.fen()
    engine.send("sd 2")
    engine.send("go")
    assert engine.engine_move().startswith("d4")
    engine.close()


def test_the_offered_position_is_restored_only_for_its_own_placement(engine):
    """A setboard of another position is read as given (no field of the offered one added)."""
    play_black_after(engine, KING_PUSHED, "c1e3,e3d4", option=True)
    engine.sync()
    engine.setup("8piece", "8/8/8/8/3k4/8/8/4K3 b - - 0 1")
    assert engine.fen() == "8/8/8/8/3k4/8/8/4K3 b - - 0 1"
