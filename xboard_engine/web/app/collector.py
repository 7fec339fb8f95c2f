"""Python's cyclic garbage collector kept out of the games' way.

A full pass of the collector looks at every object the server holds, and with a thousand games
going that took a quarter of a second, a pause in every game at once (``scripts/live_profile.py``).
So what has lived for a second is frozen (``gc.freeze``: the collector's passes no longer look at
it; objects still go as soon as nothing refers to them): the passes look only at what is newer.
Young garbage is collected (generations 0 and 1, a short pass) just before each freeze.  What ends
up as a cycle of garbage after it was frozen (a game's objects, once it is over and gone) is freed
by one full pass every ``FULL_EVERY`` seconds, the only long pause left.

Under an interpreter without ``gc.freeze`` (PyPy) this does nothing: its collector works otherwise.
"""
import gc
import time
from typing import Callable

FULL_EVERY = 600.0
PERIOD = 1.0               # seconds between ticks


class Collector:
    """Freezes what survived, on each ``tick`` (every ``period`` seconds); thaws and collects it all
    once every ``full_every`` seconds."""

    def __init__(self, full_every: float = FULL_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.full_every = full_every
        self.period = PERIOD
        self.clock = clock
        self.works = hasattr(gc, "freeze")
        self.last_full = clock()
        self.full_passes = 0

    def start(self) -> None:
        """Everything loaded so far (modules, rule tables, resumed games): collected once, frozen."""
        if self.works:
            gc.collect()
            gc.freeze()
            self.last_full = self.clock()

    def tick(self) -> None:
        if not self.works:
            return
        if self.clock() - self.last_full >= self.full_every:
            gc.unfreeze()
            gc.collect()
            self.last_full = self.clock()
            self.full_passes += 1
        else:
            gc.collect(1)
        gc.freeze()
