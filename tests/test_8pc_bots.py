"""The 8 Player Chess bots (xboard_engine/multi/bots/bot.py): legal moves in every mode and algorithm,
simple tactics (a free queen, a hanging queen, mate in one), the time per move, stop(), seeds, and
that a bot leaves the game it is shown alone."""
import threading
import time
from typing import Dict, List

import pytest

from xboard_engine.core.moves import Move
from xboard_engine.multi.bots.bot import ALGORITHMS, Bot, BotError, evaluate_position
from xboard_engine.multi.game import MODES, Game
from xboard_engine.multi.position import MultiPosition
from xboard_engine.multi.rules import KIND_LETTERS

HOME_KINGS = {"h1": "wK", "a7": "rK", "a17": "bK", "g24": "yK", "q24": "pK", "x18": "oK", "x8": "gK", "r1": "nK"}
SEARCHES = ("brs", "paranoid", "team", "auto")


def position_text(units: Dict[str, str], turn: str = "w", kings: Dict[str, str] = HOME_KINGS) -> str:
    """A position text with only ``units`` (square name -> ``wQ``-style unit) and the eight kings
    at home, no castling, ``turn`` to move."""
    pos = MultiPosition()
    v = pos.v
    for sq in v.squares:
        pos.board[sq] = 0
    letters = {seat.letter: seat.index for seat in v.seats}
    for name, unit in list(kings.items()) + list(units.items()):
        pos.board[v.by_name[name]] = letters[unit[0]] * 8 + KIND_LETTERS.index(unit[1])
    pos.rights = 0
    fields = pos.text().split()
    fields[1] = turn
    fields[3] = "-"
    return " ".join(fields)


def snapshot(game: Game) -> tuple:
    return (game.position.text(), game.position.hash, len(game.position._stack), list(game.scores),
            list(game.actions), dict(game.credit), game.turn)


def play_out(game: Game, bots: Dict[int, Bot], moves: int) -> None:
    for _ in range(moves):
        if game.over:
            break
        seat = game.turn
        before = snapshot(game)
        m = bots[seat].choose(game)
        assert snapshot(game) == before, "the bot changed the game"
        assert m in game.legal_moves(), f"{m} is not legal for seat {seat}"
        game.play(m)


# ------------------------------------------------------------------ legal moves everywhere
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_plays_legal_moves_in_every_mode(mode: str, algorithm: str) -> None:
    game = Game(mode=mode, seed=5)
    bots = {seat: Bot(depth=2, movetime=0.2, algorithm=algorithm, seed=seat) for seat in range(8)}
    play_out(game, bots, 12)
    assert len(game.actions) >= 12
    for seat in range(8):
        last = bots[seat].last
        assert set(last) == {"depth", "nodes", "seconds", "score", "algorithm", "pv"}
        if algorithm != "random":
            assert last["depth"] >= 1 and last["nodes"] > 0 and last["pv"]


def test_bots_play_legal_moves_after_eliminations_and_options() -> None:
    """A game with two players out and Capture The King: the bots still move legally."""
    units = {"j10": "wQ", "b4": "wR", "e2": "wP", "f2": "wP", "d12": "rQ", "w9": "gN", "q10": "nB"}
    kings = {k: v for k, v in HOME_KINGS.items() if v[0] not in "by"}
    text = position_text(units, kings=kings).split()
    text[2] = "aamsaaaa"
    game = Game(mode="singles", options={"capture_the_king": True}, position=" ".join(text))
    bots = {seat: Bot(depth=2, movetime=0.3, seed=seat) for seat in range(8)}
    play_out(game, bots, 10)
    assert game.status(2) == "checkmated" and game.status(3) == "stalemated"


# ------------------------------------------------------------------ tactics
FREE_QUEEN = {"d5": "wR", "e2": "wP", "f2": "wP", "g2": "wP", "d12": "rQ", "c8": "rP"}
# The white queen on j10 is attacked by Black's knight on l11 and cannot be defended in time.
HANGING_QUEEN = {"j10": "wQ", "e2": "wP", "f2": "wP", "g2": "wP", "i2": "wP", "l11": "nN", "s2": "nP"}
# Qf10-a10 or Qf10-a5 mates Red (the rook on b4 holds the b-file).
MATE_IN_ONE = {"f10": "wQ", "b4": "wR", "e2": "wP", "f2": "wP", "d20": "bP"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("algorithm", SEARCHES)
def test_takes_a_free_queen(mode: str, algorithm: str) -> None:
    game = Game(mode=mode, position=position_text(FREE_QUEEN))
    move = Bot(depth=2, movetime=None, algorithm=algorithm, seed=1).choose(game)
    assert game.move_text(move) == "Rd12"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("algorithm", SEARCHES)
def test_saves_its_attacked_queen(mode: str, algorithm: str) -> None:
    game = Game(mode=mode, position=position_text(HANGING_QUEEN))
    queen = game.v.by_name["j10"]
    move = Bot(depth=2, movetime=None, algorithm=algorithm, seed=1).choose(game)
    assert move.frm == queen, f"left the queen en prise: {game.move_text(move)}"
    game.play(move)
    assert not game.position.attacked(move.to, game.position.hostile[0]), \
        f"the queen went to an attacked square: {game.v.names[move.to]}"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("algorithm", SEARCHES)
def test_mates_in_one(mode: str, algorithm: str) -> None:
    game = Game(mode=mode, position=position_text(MATE_IN_ONE))
    move = Bot(depth=2, movetime=None, algorithm=algorithm, seed=1).choose(game)
    game.play(move)
    assert game.status(1) == "checkmated", f"{game.move_text(move)} does not mate"


# E4.4: Red's rook a20 attacks Blue's king a17 on Red's turn (White's knight has just left a19 for
# c20); Red's knight j11 could take White's queen k13 instead.
KING_EN_PRISE = {"a20": "rR", "c20": "wN", "j11": "rN", "k13": "wQ"}
# Blue (king a17) to move, White, Red and Blue in the game: Kb18 takes White's knight, but White's
# bishop f18 then steps off rank 18 and uncovers Red's rook k18, which takes the king before Blue moves.
KING_BAIT = {"k18": "rR", "f18": "wB", "b18": "wN"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("algorithm", SEARCHES)
def test_E4_4_takes_a_king_it_attacks(mode: str, algorithm: str) -> None:
    game = Game(mode=mode, position=position_text(KING_EN_PRISE, turn="r"))
    move = Bot(depth=2, movetime=None, algorithm=algorithm, seed=1).choose(game)
    assert game.move_text(move) == "Ra17"
    game.play(move)
    assert game.status(2) == "king captured"


@pytest.mark.parametrize("algorithm,depth", [("brs", 2), ("brs", 3), ("paranoid", 3), ("team", 3)])
def test_E4_4_does_not_walk_into_a_king_capture(algorithm: str, depth: int) -> None:
    """Best-Reply Search sees it from depth 2 (an enemy reply that uncovers another enemy's attack on
    the bot's king loses the king); the turn-order searches once White and Red have moved (depth 3)."""
    from eightplayer_helpers import make_game
    game = make_game(KING_BAIT, active="wrb", turn="b")
    bot = Bot(depth=depth, movetime=None, algorithm=algorithm, seed=1)
    move = bot.choose(game)
    assert game.move_text(move) != "Kb18", bot.last
    game.play(move)
    game.play_text("Be17")                        # uncovers the rook k18 on rank 18
    assert all(m.to != game.position.kings[2] for m in game.legal_moves()), "Red can take Blue's king"


def test_mate_in_one_found_with_time_only() -> None:
    game = Game(position=position_text(MATE_IN_ONE))
    bot = Bot(movetime=0.5, seed=3)
    game.play(bot.choose(game))
    assert game.status(1) == "checkmated"
    assert bot.last["score"] > 500


def test_evaluation_counts_material_from_the_movers_side() -> None:
    up = Game(position=position_text({"d5": "wQ"}))
    down = Game(position=position_text({"d5": "rQ"}))
    assert evaluate_position(up) > evaluate_position(down) + 500


def red_to_repeat(scores: List[int]) -> Game:
    """White and Red left (a pawn each, so the material suffices); the kings have walked
    h1-h2-h1-h2-h1 and a7-b7-a7-b7, so Red's Ka7 brings the position back a third time: a draw
    that gives both 25 and ends the game.  ``scores``: White's and Red's points before it."""
    from eightplayer_helpers import make_game
    game = make_game({"o2": "wP", "b15": "rP"}, active="wr")
    for text in ("Kh2", "Kb7", "Kh1", "Ka7", "Kh2", "Kb7", "Kh1"):
        game.play_text(text)
    game.scores[:2] = scores
    return game


@pytest.mark.parametrize("algorithm", ("brs", "paranoid"))
def test_ahead_on_points_it_ends_the_game_by_repetition(algorithm: str) -> None:
    game = red_to_repeat([0, 10])
    bot = Bot(depth=3, movetime=None, algorithm=algorithm, seed=1)
    assert game.position.move_text(bot.choose(game)) == "Ka7"
    game.play_text("Ka7")
    assert game.over and "repetition" in game.result.reason and game.result.winners == (1,)


@pytest.mark.parametrize("algorithm", ("brs", "paranoid"))
def test_behind_on_points_it_avoids_the_repetition(algorithm: str) -> None:
    game = red_to_repeat([10, 0])
    bot = Bot(depth=3, movetime=None, algorithm=algorithm, seed=1)
    assert game.position.move_text(bot.choose(game)) != "Ka7"


# ------------------------------------------------------------------ time, stop, seeds, no side effects
def test_respects_movetime() -> None:
    game = Game(seed=2)
    bot = Bot(movetime=0.3, seed=1)
    for _ in range(3):
        started = time.perf_counter()
        move = bot.choose(game)
        elapsed = time.perf_counter() - started
        assert elapsed < 0.45, f"took {elapsed:.3f} s for movetime 0.3"
        assert bot.last["seconds"] <= 0.3 * 1.05 + 0.02
        game.play(move)


def test_a_tiny_movetime_still_gives_a_legal_move() -> None:
    game = Game(seed=6)
    bot = Bot(movetime=0.02, seed=1)
    started = time.perf_counter()
    move = bot.choose(game)
    assert time.perf_counter() - started < 0.06
    assert move in game.legal_moves()


def test_stop_from_another_thread_returns_at_once() -> None:
    game = Game(seed=4)
    bot = Bot(movetime=30.0, seed=1)
    result: List[Move] = []
    worker = threading.Thread(target=lambda: result.append(bot.choose(game)))
    worker.start()
    time.sleep(0.4)
    stopped = time.perf_counter()
    bot.stop()
    worker.join(5.0)
    assert not worker.is_alive()
    assert time.perf_counter() - stopped < 0.2
    assert result and result[0] in game.legal_moves()
    assert bot.last["seconds"] < 2.0


def test_random_is_seedable_and_uniformish() -> None:
    game = Game(seed=9)
    picks_a = [Bot(algorithm="random", seed=7).choose(game) for _ in range(5)]
    picks_b = [Bot(algorithm="random", seed=7).choose(game) for _ in range(5)]
    assert picks_a == picks_b
    bot = Bot(algorithm="random", seed=1)
    chosen = {bot.choose(game) for _ in range(200)}
    assert len(chosen) >= 15 and all(m in game.legal_moves() for m in chosen)


def test_depth_limited_search_is_deterministic_for_a_seed() -> None:
    game = Game(seed=1)
    for text in ("1 w. h3", "1 r. c7", "1 b. c17", "1 y. g22"):
        game.play_text(text)
    first = Bot(depth=2, movetime=None, seed=11)
    second = Bot(depth=2, movetime=None, seed=11)
    assert first.choose(game) == second.choose(game)
    assert first.last["nodes"] == second.last["nodes"] and first.last["score"] == second.last["score"]


def test_a_single_legal_move_is_returned_at_once() -> None:
    # White's king on h1 is checked by a red rook on h12; its rooks and pawn box it in: only Ki2.
    units = {"h12": "rR", "g1": "wR", "i1": "wR", "g2": "wP"}
    game = Game(position=position_text(units))
    moves = game.legal_moves()
    assert [game.move_text(m) for m in moves] == ["Ki2"]
    bot = Bot(movetime=5.0, seed=1)
    started = time.perf_counter()
    assert bot.choose(game) == moves[0]
    assert time.perf_counter() - started < 0.1 and bot.last["depth"] == 0


def test_bad_settings_and_finished_games_are_clear_errors() -> None:
    with pytest.raises(BotError, match="algorithm"):
        Bot(algorithm="minimax")
    with pytest.raises(BotError, match="depth"):
        Bot(depth=0)
    with pytest.raises(BotError, match="movetime"):
        Bot(movetime=-1)
    with pytest.raises(BotError, match="depth, a movetime"):
        Bot(depth=None, movetime=None)
    game = Game(seed=1)
    game.resign(), game.resign(), game.resign(), game.resign(), game.resign(), game.resign(), game.resign()
    assert game.over
    with pytest.raises(BotError, match="over"):
        Bot(depth=1).choose(game)


def test_names() -> None:
    assert Bot(depth=3, algorithm="brs").name == "brs d3"
    assert Bot(movetime=1.0, algorithm="team").name == "team 1.0s"
