"""Warming PyPy's JIT up before the first move.

PyPy runs the search as an interpreter until its JIT has traced and compiled the hot loops, which
takes the first seconds of searching.  A match tool that starts the engine and asks for a move at
once would get the first moves from the slow engine.  So the engine searches a few built-in
positions of every piece family while it starts (before UCI's `uciok` and CECP's `feature done=1`,
the moments both protocols give an engine to initialise), with the very searcher its games use:
PyPy's compiled code is specialised to the classes it ran on, and a warm-up on a searcher of
another class (the plain ``Searcher`` where the engine's is a ``ParallelSearcher``) left the game's
own search cold.  The searcher forgets everything the warm-up taught it afterwards (``clear``), so
the first search is what it would have been without the warm-up, only faster.

The warm-up ends by ``START_DEADLINE`` seconds after the process started (the interpreter's own
start and the imports count: XBoard waits 2 s for `done=1`), at most ``DEFAULT_SECONDS``.  Under
CPython there is no JIT to warm and nothing is done.  ``XBOARD_ENGINE_WARMUP`` sets the seconds
exactly (0: none).
"""
import os
import platform
import threading
import time
from typing import Optional

from ..core.position import Position
from .searcher import Limits, Searcher

DEFAULT_SECONDS = 2.0
START_DEADLINE = 1.75           # seconds after the process started: the default warm-up has ended
WARMUP_HASH_MB = 1              # the table of a warm-up that has no searcher of the engine's
END_SLACK = 0.01                # seconds: less is left than a search can use
_IMPORTED = time.time()         # when no process start time can be read

# (variant, FEN or "" for its start): the pieces and rules the search meets in every variant; the
# 8-Piece family twice, its code (jailers, lancers, pushes) being the slowest to warm up
POSITIONS = (
    ("normal", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("8piece", ""),
    ("chess80", ""),
    ("8piece", "jfsq1rk1/ppp2ppp/3bpn2/3p4/3P4/3BPN2/PPP2PPP/JDSQ1RK1 w - - 4 6"),
    ("fullcavalry", ""),
    ("normal", "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1"),
)


WARMUP_VARIABLE = "XBOARD_ENGINE_WARMUP"       # seconds of warm-up (0: none), read here only


def warmup_seconds() -> float:
    """The warm-up's length: ``XBOARD_ENGINE_WARMUP`` if set, else under PyPy DEFAULT_SECONDS or
    what is left until START_DEADLINE after the process started, whichever is less; else 0."""
    text = os.environ.get(WARMUP_VARIABLE)
    if text is not None:
        try:
            return max(0.0, float(text))
        except ValueError:
            return 0.0
    if platform.python_implementation() != "PyPy":
        return 0.0
    return max(0.0, min(DEFAULT_SECONDS, START_DEADLINE - process_age()))


def process_age() -> float:
    """Seconds since this process started (an exec, such as the move to PyPy, keeps the process):
    from /proc where there is one, else since this module was imported."""
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as handle:
            uptime = float(handle.read().split()[0])
        return max(0.0, uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return max(0.0, time.time() - _IMPORTED)


class WarmUp:
    """One warm-up, which another thread may cut short with ``stop()`` (the engine quits).  It runs
    once: a second ``run`` (a GUI that sends ``uci`` or ``protover`` again) returns at once."""

    def __init__(self, searcher: Optional[Searcher] = None) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._ran = False
        self._own = searcher                 # the engine's searcher (None: one made for each position)
        self._searcher: Optional[Searcher] = None

    def run(self, seconds: float) -> None:
        """Search the built-in positions in turn (each for a share of the time, again from the first
        while time is left) for ``seconds`` in all, less at most END_SLACK."""
        if self._ran or seconds <= 0:
            return
        self._ran = True
        try:
            self._search_all(seconds)
        finally:
            if self._own is not None:
                self._own.clear()            # nothing learnt here reaches the games

    def _search_all(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        share = seconds / len(POSITIONS)
        while True:
            for variant, fen in POSITIONS:
                left = end - time.perf_counter()
                with self._lock:
                    if self._stopped or left <= END_SLACK:
                        self._searcher = None
                        return
                    self._searcher = self._own or Searcher(WARMUP_HASH_MB)
                pos = Position.from_fen(fen, variant) if fen else Position(variant)
                budget = min(share, left)
                self._searcher.search(pos, Limits(soft_time=budget, hard_time=budget))

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._searcher is not None:
                self._searcher.stop()


TOPUP_SECONDS = 3.0             # the warm-up of a variant's own code when its first game begins
TOPUP_MODE = "warm-up"          # the driver's mode while it runs


def topup_seconds() -> float:
    """The length of a variant's top-up: TOPUP_SECONDS where the engine warms up at all (PyPy, or
    ``XBOARD_ENGINE_WARMUP`` above 0), at most that setting; else 0."""
    text = os.environ.get(WARMUP_VARIABLE)
    if text is not None:
        return min(TOPUP_SECONDS, warmup_seconds())
    return TOPUP_SECONDS if platform.python_implementation() == "PyPy" else 0.0


class TopUp:
    """The warm-up of the variant a game is about to be played in, once per variant and process.

    The start's warm-up knows no variant (the GUI names it later), so when a game of a variant not
    warmed yet begins (UCI ``ucinewgame``, CECP ``new``/``variant``), the driver's worker searches
    that game's start and the built-in positions of its variant for TOPUP_SECONDS, with the engine's
    searcher, which then forgets them.  A GUI that waits for ``isready``/``ping`` waits for it (its
    clock does not run: the UCI spec gives ``ucinewgame`` this time); any other command ends it at
    once (``interrupt``), so a GUI that sends ``position``/``go`` straight away loses nothing."""

    def __init__(self, driver) -> None:
        self.driver = driver                 # a driver.SearchDriver
        self.warmed: set = set()

    def running(self) -> bool:
        return self.driver.mode == TOPUP_MODE and self.driver.busy()

    def begin(self, start: Position) -> None:
        """Warm up ``start``'s variant, unless done before (or the engine does not warm up)."""
        name = start.variant.name
        seconds = topup_seconds()
        if name in self.warmed or seconds <= 0 or self.driver.busy():
            return
        positions = [start.copy()] + [Position.from_fen(fen, v) if fen else Position(v)
                                      for v, fen in POSITIONS if v == name]
        searcher = self.driver.searcher

        def work(job) -> None:
            end = time.perf_counter() + seconds
            share = seconds / len(positions)
            try:
                while not job.stopped and end - time.perf_counter() > END_SLACK:
                    for pos in positions:           # again from the first while time is left
                        left = end - time.perf_counter()
                        if job.stopped or left <= END_SLACK:
                            break
                        budget = min(share, left)
                        searcher.search(pos, Limits(soft_time=budget, hard_time=budget))
                if not job.stopped:
                    self.warmed.add(name)    # (one cut short is begun again by the next game)
            finally:
                searcher.clear()             # nothing learnt here reaches the game

        self.driver.start_job(TOPUP_MODE, work)

    def interrupt(self) -> None:
        """End a running top-up at once (a command that comes before a move came)."""
        if self.running():
            self.driver.stop(discard=True)

    def wait(self) -> None:
        """Wait for a running top-up to end by itself (``isready``/``ping``)."""
        if self.running():
            self.driver.wait()
