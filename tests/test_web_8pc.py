"""8 Player Chess as the pages see it (no server): every legal move is a click path, castling is the
king to its destination, the marks of check and the last move, the armies' pictures, the clock.
The pages in Chromium: test_web_browser.py."""
import random
import time

import pytest

from xboard_engine.multi.game import Game
from xboard_engine.multi.notation import move_text
from xboard_engine.time_control import TimeControl, parse_minutes_clock
from xboard_engine.web.games.eight_player import EightGame, click_targets, piece_picture

ALL_HUMAN = ["human"] * 8


# ---------------------------------------------------------------- pure parts
def test_clicks_cover_every_legal_move_once_with_a_chooser_for_promotions():
    rng = random.Random(5)
    game = Game(seed=5)
    promotions = 0
    for step in range(1400):
        if game.over:
            break
        legal = game.legal_moves()
        promoting = any(m.kind != 3 and m.placed != game.position.board[m.frm] for m in legal)
        if step % 20 and not promoting:
            game.play(rng.choice(legal))
            continue
        targets = click_targets(game)
        paths = [tuple(t["path"]) for t in targets]
        assert len(paths) == len(set(paths))
        texts = sorted(o["text"] for t in targets for o in t["options"])
        assert texts == sorted(move_text(game.position, m) for m in legal)
        for t in targets:
            if len(t["options"]) > 1:
                assert sorted(o["promotion"] for o in t["options"]) == ["B", "N", "Q", "R"]
                promotions += 1
        game.play(rng.choice(legal))
    assert promotions > 0


def test_castling_is_clicked_as_the_king_to_its_destination():
    game = Game(seed=11)
    rng = random.Random(11)
    for _ in range(3000):
        castles = [t for t in click_targets(game) if any(o["text"].startswith("O-O") for o in t["options"])]
        if castles:
            t = castles[0]
            assert len(t["options"]) == 1
            frm, to = (game.v.by_name[name] for name in t["path"])
            assert game.position.board[frm] & 7 == 6                       # the king is clicked
            assert max(abs(game.v.file_of[frm] - game.v.file_of[to]), abs(game.v.rank_of[frm] - game.v.rank_of[to])) == 2
            return
        game.play(rng.choice(game.legal_moves()))
    pytest.fail("no castle came up")


def test_the_state_marks_kings_in_check_and_the_last_move():
    from xboard_engine.web.games.eight_player import EightGame
    game = EightGame(players=ALL_HUMAN, seed=3)
    rng = random.Random(3)
    for _ in range(2000):
        move = rng.choice(game.game.legal_moves())
        frm, to = game.game.v.names[move.frm], game.game.v.names[move.to]
        game.play(move)
        state = game.snapshot()
        pos = game.game.position
        if state["lastMove"] == [frm, to]:
            checked = sorted(game.game.v.names[pos.kings[s]] for s in pos.active_seats() if pos.in_check(s))
            assert sorted(state["check"]) == checked
            if checked:
                assert all(state["pieces"][sq][1] == 6 for sq in checked)
                return
    pytest.fail("no check came up")


def test_piece_pictures_are_recoloured_per_army_and_the_one_point_queen_shows_a_1():
    red_king = piece_picture(1, 6)
    assert "#e0302a" in red_king and "#ffffcc" not in red_king
    assert "#9a9a9a" in piece_picture(8, 2)
    assert piece_picture(7, 1) != piece_picture(0, 1)
    assert ">1</text>" in piece_picture(3, 7) and ">1</text>" not in piece_picture(3, 5)
    with pytest.raises(KeyError):
        piece_picture(9, 1)


def test_clock_text():
    assert parse_minutes_clock("10+5") == ("10+5", TimeControl(base=600.0, inc=5.0))
    assert parse_minutes_clock(" 3 ")[1].base == 180.0 and parse_minutes_clock(" 3 ")[1].inc == 0.0
    for none in ("none", "", "-", "NONE"):
        text, tc = parse_minutes_clock(none)
        assert text == "none" and not tc.has_clock
    for bad in ["ten", "10+", "-1", "0", "1441", "10+3601"]:
        with pytest.raises(ValueError):
            parse_minutes_clock(bad)
    assert EightGame(tc="1+2").tc_text == "1+2" and EightGame(tc="1+2").clocks == [60.0] * 8


def test_a_move_charges_the_movers_clock_from_its_second_move():
    # The game passes the turn on before the clock is charged: the mover's thinking time still
    # comes off its clock (it was lost, every clock stayed full however long a seat thought).  A
    # seat's first move is not timed (the game may be aborted before it, as lichess does).
    game = EightGame("singles", {}, ["human"] * 8, "10+5", pace=0)
    for seat in range(8):
        time.sleep(0.05)
        assert game.running() is None
        game.play(game.game.parse_move(click_targets(game.game)[0]["options"][0]["text"]))
        assert game.clock_left(seat) == 600.0
    for seat in range(3):
        assert game.running() == seat
        time.sleep(0.2)
        game.play(game.game.parse_move(click_targets(game.game)[0]["options"][0]["text"]))
        assert 600 + 5 - 0.35 < game.clock_left(seat) < 600 + 5 - 0.19
    assert game.clock_left(4) == 600.0


def test_a_bot_worker_plays_on_from_the_game_it_kept():
    """An 8 Player bot in the server's worker pool was given the whole game each move and replayed it
    from its start (half a second a move at 2,000 actions); a worker keeps the game and plays only
    the new actions, giving the same moves as a worker that reads the game afresh."""
    from xboard_engine.web.compute import pool as bots
    bots._games.clear()
    game = Game("pairs", {}, seed=9)
    for number in range(300):
        if game.over:
            break
        kept = bots.eight_player_move(game.to_dict(), None, 1.0, number, key="g1")
        fresh = bots.eight_player_move(game.to_dict(), None, 1.0, number)
        assert kept == fresh
        game.play_text(kept)
    assert list(bots._games["g1"].actions) == list(game.actions[:len(bots._games["g1"].actions)])
    other = Game("teams", {}, seed=10)                   # another game under that name: read afresh
    bots.eight_player_move(other.to_dict(), None, 1.0, 1, key="g1")
    assert bots._games["g1"].mode == "teams" and not bots._games["g1"].actions
    bots._games.clear()
