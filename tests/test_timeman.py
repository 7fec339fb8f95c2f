"""Time management: budgets for the time controls GUIs use, and the limits a clock imposes."""
import itertools
import time

import pytest

from xboard_engine import Position
from xboard_engine.search.searcher import Limits, Searcher
from xboard_engine.time_control import TimeControl
from xboard_engine.search.timeman import (MOVE_LAG, MOVE_OVERHEAD, Budget, LagEstimate, budget,
                                   moves_to_go, next_iteration_fits, safety_margin)


def test_forty_moves_in_five_minutes_first_move():
    soft, hard = budget(TimeControl(40, 300, 0), 300.0, 0)
    fair = 300 / 40
    assert 0.4 * fair < soft < fair
    assert soft <= hard <= 1.3 * fair


@pytest.mark.parametrize("base", [60.0, 300.0])
def test_hard_limit_on_every_move_keeps_time_for_the_control(base):
    """A search that runs into its hard limit on every move of a 40-move session (and a GUI that
    charges 0.2 s more per move) still has time for the last moves."""
    left = base
    for made in range(39):
        _, hard = budget(TimeControl(40, base, 0), left, made, lag=0.2)
        left -= hard + 0.2
    assert left > base / 100


def test_forty_moves_in_one_minute():
    soft, hard = budget(TimeControl(40, 60, 0), 60.0, 0)
    assert 0.4 * 1.5 < soft < 1.5
    assert hard <= 3.0
    # move 39 of the session with 4 s left: two moves to go, half the usable time at most
    soft, hard = budget(TimeControl(40, 60, 0), 4.0, 38)
    assert hard <= 0.5 * (4.0 - safety_margin(4.0))
    # the last move before the control keeps half the usable clock too
    soft, hard = budget(TimeControl(40, 60, 0), 4.0, 39)
    assert hard <= 0.5 * (4.0 - safety_margin(4.0))


def test_moves_to_go_counts_sessions():
    assert moves_to_go(40, 0) == 40
    assert moves_to_go(40, 39) == 1
    assert moves_to_go(40, 40) == 40
    assert moves_to_go(0, 12) is None


def test_one_second_plus_increment():
    soft, hard = budget(TimeControl(0, 1, 0.01), 1.0, 0)
    assert 0 < soft <= hard <= 0.15


def test_increment_only_clock():
    """0+x: the first move has nothing on the clock; later moves live on the increment."""
    assert budget(TimeControl(0, 0, 2), 0.0, 0) == Budget(0.0, 0.0)
    soft, hard = budget(TimeControl(0, 0, 2), 2.0, 1)
    assert 0.5 < soft <= hard < 2.0 - safety_margin(2.0) + 1e-9


def test_fixed_time_per_move():
    """A fixed time per move has no soft limit: it is spent in full, less the safety margin."""
    soft, hard = budget(TimeControl(st=1.0), 123.0, 5)
    assert hard == pytest.approx(1.0 - safety_margin(1.0) - MOVE_LAG)
    assert soft is None and hard < 1.0
    soft, hard = budget(TimeControl(st=0.001), 0.0, 0)
    assert soft is None and 0 <= hard < 0.001


def test_fixed_time_is_spent_in_full():
    """With only a hard limit (``st``, ``go movetime``) the search does not stop early because the
    next iteration looks too long: it runs until the limit (it stopped after 35-60% of it before)."""
    pos = Position("normal")
    start = time.perf_counter()
    result = Searcher().search(pos, Limits(hard_time=0.6, start=start))
    elapsed = time.perf_counter() - start
    assert 0.58 <= elapsed < 0.6 + 0.1
    assert result.move in pos.legal_moves()


@pytest.mark.parametrize("left", [0.0, 0.005, 0.05, 0.2, 0.5])
def test_low_clock_has_no_floor_above_what_is_left(left):
    for clock in (TimeControl(40, 300, 0), TimeControl(0, 60, 0), TimeControl(0, 1, 0.01), TimeControl(1, 1, 0)):
        soft, hard = budget(clock, left, 17)
        assert 0 <= soft <= hard <= max(0.0, left - safety_margin(left))
        assert hard < left or left == 0


def test_margin_is_never_spent():
    """Over a grid of clocks the hard limit keeps the margin, and the soft limit is within it."""
    for mps, base, inc, left, made in itertools.product(
            (0, 1, 5, 40), (0, 1, 60, 300), (0, 0.01, 1, 5), (0, 0.01, 0.3, 1, 7.5, 60, 300, 5000),
            (0, 1, 38, 39, 40, 100)):
        soft, hard = budget(TimeControl(mps, base, inc), left, made)
        margin = safety_margin(left)
        assert 0 <= soft <= hard <= left - margin + 1e-12
        assert margin <= 0.75 * left + 1e-12
        assert margin <= MOVE_OVERHEAD + 0.5 + 1e-12


@pytest.mark.parametrize("clock,start,moves", [(TimeControl(0, 1, 0.01), 1.0, 300), (TimeControl(40, 60, 0), 60.0, 300),
                                               (TimeControl(40, 5, 0), 5.0, 300), (TimeControl(0, 10, 0), 10.0, 80)])
def test_worst_case_game_keeps_a_positive_clock(clock, start, moves):
    """Spend the whole hard limit on every move plus the GUI's usual lag outside the engine: the clock
    never runs out (sudden death without increment: for 80 moves; a lag per move empties any such
    clock in the end)."""
    left = start
    for made in range(moves):
        _, hard = budget(clock, left, made)
        left -= hard + MOVE_LAG
        assert left > 0, f"flag falls at move {made + 1}"
        left += clock.inc
        if clock.moves and (made + 1) % clock.moves == 0:
            left += clock.base


def test_next_iteration_fits():
    assert next_iteration_fits(1.0, [0.5], None, 2.5)               # 1 + 3 * 0.5 <= 2.5
    assert not next_iteration_fits(1.0, [0.8], None, 3.0)
    assert not next_iteration_fits(1.0, [0.05, 0.5], None, 4.0)     # growth 8 (clamped from 10)
    assert next_iteration_fits(1.0, [0.05, 0.5], None, 5.0)
    assert not next_iteration_fits(1.0, [0.1, 0.6, 0.5], None, 3.5)  # the larger of 6 and 0.83
    assert not next_iteration_fits(1.0, [0.5], 1.2, 3.0)            # expected end 2.5 > 2 * 1.2
    assert next_iteration_fits(1.0, [0.5], 1.3, 3.0)


@pytest.mark.parametrize("variant", ["normal", "8piece"])
def test_search_respects_hard_limit_counted_from_start(variant):
    """A search whose time started 50 ms ago (the command's arrival) with an 80 ms hard limit returns
    within about 30 ms more, and always with a legal move."""
    pos = Position(variant)
    searcher = Searcher()
    start = time.perf_counter() - 0.05
    result = searcher.search(pos, Limits(soft_time=10, hard_time=0.08, start=start))
    assert time.perf_counter() - start < 0.08 + 0.04
    assert result.move in pos.legal_moves()


def test_search_with_no_time_left_still_moves():
    pos = Position("8piece")
    start = time.perf_counter()
    result = Searcher().search(pos, Limits(soft_time=0.0, hard_time=0.0))
    assert time.perf_counter() - start < 0.1
    assert result.move in pos.legal_moves()


def test_lag_estimate_learns_from_reports():
    lag = LagEstimate()
    assert lag.value == MOVE_LAG
    lag.update(predicted=10.0, reported=9.96)      # the GUI charged 40 ms more than the engine saw
    assert lag.value == pytest.approx(0.04)
    lag.update(predicted=9.0, reported=9.0)
    assert lag.value == pytest.approx(0.036)       # decays slowly
    lag.update(predicted=9.0, reported=5.0)         # not lag (the clock was changed): ignored
    lag.update(predicted=9.0, reported=9.5)         # the GUI gave time back
    assert MOVE_LAG <= lag.value < 0.036
    for _ in range(100):
        lag.update(9.0, 9.0)
    assert lag.value == MOVE_LAG


def test_lag_is_kept_back_for_this_and_later_moves():
    soft, hard = budget(TimeControl(0, 1, 0.01), 1.0, 0, lag=0.03)
    quiet = budget(TimeControl(0, 1, 0.01), 1.0, 0)
    assert hard < quiet.hard
    assert 0 < budget(TimeControl(40, 1, 0), 0.5, 38, lag=0.1).hard <= 0.5 - safety_margin(0.5) - 0.1 * 2
    assert budget(TimeControl(40, 1, 0), 0.5, 38, lag=0.3).hard == 0
    assert budget(TimeControl(st=1.0), 0, 0, lag=0.1).hard == pytest.approx(1.0 - safety_margin(1.0) - 0.1)


@pytest.mark.parametrize("lag", [0.005, 0.01, 0.015])
def test_one_second_game_survives_lag_it_knows(lag):
    """1+0.01 with a lag the engine has learnt, spending the whole hard limit every move: 60 moves."""
    left = 1.0
    for made in range(60):
        _, hard = budget(TimeControl(0, 1, 0.01), left, made, lag)
        left -= hard + lag
        assert left > 0, f"flag falls at move {made + 1}"
        left += 0.01


@pytest.mark.parametrize("tc,wtime,inc", [("1+0.01", 1.0, 0.01), ("10+0.1", 10.0, 0.1), ("60+0", 60.0, 0.0)])
def test_uci_clock_gets_the_same_budget_as_cecp(tc, wtime, inc):
    """A UCI `go wtime .. winc ..` on the first move gets the CECP budget of that clock with no lag
    learnt yet (the default Move Overhead, 10 ms, as Stockfish's).  With 30 ms the engine kept
    59 x 20 ms back at 1+0.01, more than the whole clock, and moved on the increment alone (seen
    under cutechess-cli: it lost 10 of 10 games to itself over CECP)."""
    from xboard_engine.engine.uci import UciEngine
    from xboard_engine.engine.uci_input import Go
    engine = UciEngine(channel=None)                        # only its clock arithmetic is used here
    limits = engine._limits(Go(wtime=wtime, btime=wtime, winc=inc, binc=inc), Position(), 0.0)
    cecp = budget(TimeControl(0, wtime, inc), wtime, 0, max(MOVE_LAG, 0.010))
    assert (limits.soft_time, limits.hard_time) == pytest.approx(cecp)
    assert limits.soft_time > 0.6 * (wtime / 40 + inc)     # a real share of the clock
