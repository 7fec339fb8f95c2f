"""Warming PyPy's JIT up before the first move.

PyPy runs the search as an interpreter until its JIT has traced and compiled the hot loops, which
takes the first seconds of searching: a fresh engine searches about 7,000 nodes a second in its
first second and 50,000 a few seconds later (8-Piece Chess, PyPy 7.3).  A match tool that starts
the engine for every game and asks for a move at once would get the first moves of every game from
the slow engine.  So the engine searches a few built-in positions of every piece family for a
moment while it starts (before UCI's `uciok` and CECP's `feature done=1`, the moments both
protocols give an engine to initialise), on a table of its own that is dropped afterwards.

Under CPython there is no JIT to warm and nothing is done.  ``XBOARD_ENGINE_WARMUP`` sets the
seconds (0: none).
"""
import os
import platform
import threading
import time
from typing import Optional

from .position import Position
from .search import Limits, Searcher

DEFAULT_SECONDS = 2.0
WARMUP_HASH_MB = 1
END_SLACK = 0.01                # seconds: less is left than a search can use

# (variant, FEN or "" for its start): the pieces and rules the search meets in every variant
POSITIONS = (
    ("normal", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("8piece", ""),
    ("chess80", ""),
    ("fullcavalry", ""),
    ("normal", "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1"),
)


def warmup_seconds() -> float:
    """The warm-up's length: ``XBOARD_ENGINE_WARMUP`` if set, else DEFAULT_SECONDS under PyPy, else 0."""
    text = os.environ.get("XBOARD_ENGINE_WARMUP")
    if text is not None:
        try:
            return max(0.0, float(text))
        except ValueError:
            return 0.0
    return DEFAULT_SECONDS if platform.python_implementation() == "PyPy" else 0.0


class WarmUp:
    """One warm-up, which another thread may cut short with ``stop()`` (the engine quits).  It runs
    once: a second ``run`` (a GUI that sends ``uci`` or ``protover`` again) returns at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._ran = False
        self._searcher: Optional[Searcher] = None

    def run(self, seconds: float) -> None:
        """Search the built-in positions in turn (each for a share of the time, again from the first
        while time is left) for ``seconds`` in all, less at most END_SLACK."""
        if self._ran or seconds <= 0:
            return
        self._ran = True
        end = time.perf_counter() + seconds
        share = seconds / len(POSITIONS)
        while True:
            for variant, fen in POSITIONS:
                left = end - time.perf_counter()
                with self._lock:
                    if self._stopped or left <= END_SLACK:
                        self._searcher = None
                        return
                    self._searcher = Searcher(WARMUP_HASH_MB)
                pos = Position.from_fen(fen, variant) if fen else Position(variant)
                budget = min(share, left)
                self._searcher.search(pos, Limits(soft_time=budget, hard_time=budget))

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._searcher is not None:
                self._searcher.stop()
