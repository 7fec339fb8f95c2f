"""The engine's counting commands, ``bench`` (like Stockfish's) and ``perft``, and the benchmark's
positions.

``bench`` searches every position to a fixed depth with a fresh ``Searcher``; the total node count
is the search signature, which changes only when the search (or the move order of the rules core)
does.  ``scripts/bench.py`` times the same positions and compares variants.  Both commands run in
the engine's worker thread as the driver's ``Job`` (a ``StopToken`` here) that the command loop can stop (``stop``, ``new``, ``?``).
"""
import time
from typing import Any, Callable, Iterator, Optional, Protocol, Tuple

from ..core.errors import SearchStopped
from ..core.position import Position
from .searcher import Limits, Searcher

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Search positions: (label, variant, setup number or None, fen or None, moves from the start, depth,
# quick depth). Depths are chosen so that the section takes about a minute on CPython with the default
# --repeat 2 (the 8-Piece variants are searched less deep: they are several times slower per node).
SEARCH_CASES = [
    ("start", "normal", None, None, "", 7, 5),
    ("ruy lopez", "normal", None, None,
     "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8", 6, 4),
    ("kiwipete", "normal", None, KIWIPETE, "", 6, 4),
    ("#0 start", "fischerandom", 0, None, "", 7, 5),
    ("#0 middlegame", "fischerandom", 0, None,
     "e2e4 e7e5 d1c3 d8c6 e1d3 e8d6 f2f4 e5f4 d3f4 f7f5 e4f5 c6d4 c3e4 d6f5 b2b3 b7b6", 6, 4),
    ("start", "chess80", None, None, "", 6, 4),
    ("middlegame", "chess80", None, None,
     "e2e4 e7e5 i1h3 b8c6 f2f4 e5f4 h3f4 i8h6 c2c3 d7d6 d2d4 h6g4 b1d2 c8d7 g1e3 g4e3", 6, 4),
    ("start", "fullcavalry", None, None, "", 7, 5),
    ("middlegame", "fullcavalry", None, None,
     "e2e4 e7e5 g1f3 g8f6 d2d4 e5d4 f3d4 f8c5 c2c3 b8c6 c1e3 e8g8 f1d3 d7d6 e1g1 c8g4", 5, 3),
    ("start", "8piece", None, None, "", 5, 3),
    ("middlegame", "8piece", None, None,
     "e2e4 e7e5 g1f3 g8f6 d2d4 e5d4 f3d4 d7d5 e4d5 f6d5 f1c4 c7c6 e1g1 f8e7 b1d3c e8g8", 4, 2),
    # a sentry pushes the e2 pawn to capture its own bishop on f1 (R8), leaving a push restriction
    ("sentry push", "8piece", None, None,
     "b1e4o d7d5 f2f3 f7f5 d2d3 f5e4 f3e4 c8g4 d1d2 g8f6 d2e3 d5d4 e3g5 g4f1,f1e2", 5, 3),
    ("#0 start", "8piece-random", 0, None, "", 5, 3),
    ("#0 middlegame", "8piece-random", 0, None,
     "e2e4 e7e5 d1e3 d8e6 g2g3 g7g6 b2b3 b7b6 c1b2 c8b7 d2d3 d7d6 c2c3 c7c6 a2a4 a7a5", 5, 3),
    ("start", "8piece-2019", None, None, "", 5, 3),
    ("middlegame", "8piece-2019", None, None,
     "e2e4 e7e5 g1f3 g8f6 d2d4 e5d4 f3d4 d7d5 e4d5 f6d5 f1c4 c7c6 e1g1 f8e7 b1d3c e8g8", 4, 2),
]


def bench_position(variant: str, number: Optional[int], fen: Optional[str], moves: str) -> Position:
    """The position of a search case: a FEN, or the (numbered) start followed by ``moves``."""
    pos = Position.from_fen(fen, variant) if fen else Position(variant, number=number)
    for text in moves.split():
        pos.push_text(text)
    return pos


class StopToken(Protocol):
    """What the counting commands need of the driver's ``Job`` (engine/driver.py), the stop token of
    a long command: ``check()`` raises ``SearchStopped`` once the job is stopped, and ``searcher`` is
    the search it runs now (stopped with it)."""
    searcher: Any

    def check(self) -> None: ...


class _Unstopped:
    """The token of a bench nobody stops (``bench()`` without a job)."""

    def __init__(self) -> None:
        self.searcher: Any = None

    def check(self) -> None:
        pass


def bench(quick: bool = False, job: Optional[StopToken] = None) -> Iterator[Tuple[str, str, int, int, float]]:
    """Search every case; yields (variant, label, depth, nodes, seconds).  Raises ``SearchStopped`` when
    ``job`` is stopped."""
    job = job or _Unstopped()
    for label, variant, number, fen, moves, depth, quick_depth in SEARCH_CASES:
        depth = quick_depth if quick else depth
        pos = bench_position(variant, number, fen, moves)
        start = time.perf_counter()
        job.searcher = Searcher()
        job.check()
        nodes = job.searcher.search(pos, Limits(depth=depth)).nodes
        job.check()                     # a stopped search's count is not the case's
        yield variant, label, depth, nodes, time.perf_counter() - start


def run_bench(send: Callable[[str], None], quick: bool = False, job: Optional[StopToken] = None) -> Optional[int]:
    """The ``bench`` command: one line per position, then the signature; returns the signature
    (None, after a line saying so, when ``job`` was stopped)."""
    total = 0
    seconds = 0.0
    began = time.perf_counter()
    try:
        for variant, label, depth, nodes, elapsed in bench(quick, job):
            total += nodes
            seconds += elapsed
            send(f"# bench {variant} {label}: depth {depth} nodes {nodes} time {elapsed:.2f}s")
    except SearchStopped:
        send(f"# bench stopped after {time.perf_counter() - began:.2f}s")
        return None
    send(f"# bench signature {total} nodes {total} time {seconds:.2f}s nps {int(total / max(seconds, 1e-9))}")
    return total


MAX_PERFT_DEPTH = 8


def perft(pos: Position, depth: int, job: StopToken) -> int:
    """``pos.perft(depth)`` that raises ``SearchStopped`` soon after ``job`` is stopped (``pos`` is left
    as it was either way)."""
    if depth <= 1:
        return pos.perft(depth)
    job.check()
    total = 0
    for m in pos.legal_moves():
        pos.push(m)
        try:
            total += perft(pos, depth - 1, job)
        finally:
            pos.pop()
    return total


def run_perft(send: Callable[[str], None], prefix: str, pos: Position, depth: int, job: StopToken) -> None:
    """The ``perft`` command: ``PREFIX DEPTH nodes N time S``, or ``PREFIX DEPTH stopped after S``."""
    start = time.perf_counter()
    try:
        nodes = perft(pos, depth, job)
    except SearchStopped:
        send(f"{prefix} {depth} stopped after {time.perf_counter() - start:.2f}s")
        return
    send(f"{prefix} {depth} nodes {nodes} time {time.perf_counter() - start:.2f}")
