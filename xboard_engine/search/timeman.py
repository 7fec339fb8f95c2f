"""Time management: how long the engine may think about one move.

The GUI describes the clock with CECP commands: ``level MPS BASE INC`` (MPS moves in BASE, INC added
after each move; MPS 0 = the whole game), ``st SECONDS`` (a fixed time per move), ``sd DEPTH``,
``nps NODES`` (time counted in nodes), and before each move ``time`` / ``otim`` (centiseconds left).

Two limits come out of a clock:

- ``soft``: do not start a new iteration after this, nor one that is not expected to end within twice
  this (so a move takes about a fair share on average: spending the hard limit on many moves in a
  row would empty the clock before the time control); none for a fixed time per move (``st``), which
  is spent in full;
- ``hard``: abort the search.  It never exceeds the remaining time minus a safety margin (pipe
  latency to and from the GUI, the GUI's own work, thread switches, garbage collection pauses), and
  when the clock is nearly empty it shrinks with it: there is no minimum above what is left.

The GUI's clock also runs while a move travels through the pipes and waits for the CPU (a busy
machine: tens of milliseconds).  ``LagEstimate`` learns that lag by comparing each ``time`` report
with what the engine's own measure predicted, and ``budget`` keeps it back for this move and for the
moves still to come (as far as the increment does not pay for it).

Times are seconds, measured from the moment the command that started the thinking arrived.
"""
from typing import NamedTuple, Optional, Sequence

from ..time_control import TimeControl

MOVE_OVERHEAD = 0.03        # seconds the GUI's clock may run on one move while the engine cannot see it
MOVE_LAG = 0.005            # seconds per move a GUI usually charges beyond the engine's own measure
MARGIN_FRACTION = 0.05      # plus this share of the remaining time ...
MAX_MARGIN = 0.5            # ... up to this many seconds
SUDDEN_DEATH_MOVES = 25     # a clock without a move count is shared over this many moves
GAME_MOVES = 60             # sudden death: lag is kept back for the moves up to this one
SOFT_SHARE = 0.9            # soft limit as a share of a move's fair share of the clock
HARD_SHARES = 1.25          # hard limit: at most this many fair shares (a search that hits it on
                            # every move still leaves 1/40 of the clock for the last two moves of 40;
                            # with 2 shares it would leave 1/800) ...
HARD_FRACTION = 0.5         # ... and at most this part of the usable clock (also on the last move
                            # before a time control: XBoard's lag spikes reach 0.3 s on a busy machine)
ITERATION_STRETCH = 2.0     # a new iteration must be expected to end within this many soft limits


class Budget(NamedTuple):
    soft: Optional[float]
    hard: Optional[float]


def safety_margin(left: float) -> float:
    """Seconds of ``left`` the engine keeps back; never more than three quarters of what is left."""
    left = max(0.0, left)
    return min(0.75 * left, MOVE_OVERHEAD + min(MAX_MARGIN, MARGIN_FRACTION * left))


def moves_to_go(mps: int, moves_made: int) -> Optional[int]:
    """Moves to play before the next time control (including this one); None in sudden death."""
    if mps <= 0:
        return None
    return mps - moves_made % mps


def budget(clock: TimeControl, left: float, moves_made: int, lag: float = MOVE_LAG) -> Budget:
    """Soft and hard limits for the next move.

    ``left`` is the engine's remaining time (seconds, as the GUI last reported it), ``moves_made``
    how many moves the engine's side has made in this game, ``lag`` the seconds per move the GUI's
    clock runs beyond the engine's own measure.
    """
    if clock.st is not None:
        hard = max(0.0, clock.st - safety_margin(clock.st) - lag)
        return Budget(None, hard)              # a fixed time per move is spent in full
    left = max(0.0, left)
    to_go = moves_to_go(clock.moves, moves_made)
    horizon = to_go if to_go is not None else SUDDEN_DEATH_MOVES
    coming = to_go - 1 if to_go is not None else max(SUDDEN_DEATH_MOVES, GAME_MOVES - moves_made) - 1
    later = max(0.0, lag - clock.inc) * coming              # kept for the moves to come
    usable = max(0.0, left - safety_margin(left) - lag - later)
    share = usable / horizon + clock.inc
    hard = min(HARD_FRACTION * usable, HARD_SHARES * share)
    soft = min(hard, SOFT_SHARE * share)
    return Budget(soft, hard)


def next_iteration_fits(elapsed: float, durations: Sequence[float],
                        soft: Optional[float], hard: float) -> bool:
    """Whether an iteration started now is expected to end within ``ITERATION_STRETCH`` soft limits
    and before ``hard``.  Its cost is guessed from the iterations so far (``durations``, oldest
    first): the larger of the last two growth factors, clamped to 3..8 (odd and even depths grow
    differently)."""
    last = durations[-1]
    tail = durations[-3:]
    ratios = [b / a for a, b in zip(tail, tail[1:]) if a > 0]
    growth = min(8.0, max([3.0] + ratios))
    limit = hard if soft is None else min(hard, ITERATION_STRETCH * soft)
    return elapsed + growth * last <= limit


class LagEstimate:
    """Seconds per move the GUI charges beyond the engine's own measure, learnt from its reports.

    After a move the engine predicts its next ``time`` report (its clock minus its own measure of the
    move, plus the increment); the shortfall of the actual report is one sample.  The estimate jumps
    up to a larger sample at once and decays slowly (a busy spell is likely to last); it never goes
    below ``MOVE_LAG``.  Reports in centiseconds make a sample up to 10 ms too large: the safe side.
    """

    DECAY = 0.9
    MAX_SAMPLE = 1.0            # a larger shortfall is not lag (a paused GUI, a changed clock)

    def __init__(self) -> None:
        self.value = MOVE_LAG

    def update(self, predicted: float, reported: float) -> None:
        sample = predicted - reported
        if not 0 <= sample <= self.MAX_SAMPLE:
            sample = 0.0 if sample < 0 else MOVE_LAG
        self.value = max(MOVE_LAG, sample, self.DECAY * self.value)
