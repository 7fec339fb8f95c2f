#!/usr/bin/env python3
"""Engine benchmark in four sections: perft throughput, fixed-depth search, threads, and warm-up.

PERFT section: leaves per second with a full make/unmake of every leaf. Runs each variant's start
position and Kiwipete. When python-chess is importable (here, or in the ``--reference-python``
interpreter, default ``python3``, e.g. when this runs under PyPy), its push/pop perft runs on the same
orthodox positions in the same run and the ratio is printed.

SEARCH section (like Stockfish's ``bench``): a fixed list of start and middlegame positions of every
variant, each searched to a fixed depth by a fresh ``Searcher()`` (no time limit, no randomizing).
Per position it prints nodes, seconds and nodes/s; then per variant the nodes/s and its ratio to the
orthodox (``normal``) nodes/s measured in the same run. The project's target is 8-Piece nodes/s at
least half of orthodox. Middlegame positions are reached by fixed legal moves from the start.

    python scripts/bench.py                 # CPython, both sections
    pypy3 scripts/bench.py                  # PyPy, python-chess measured under python3
    python scripts/bench.py --quick         # shallower depths
    python scripts/bench.py --perft-only    # or --search-only, --threads-only, --warmup-only

WARM-UP section: what the engine's warm-up at start (``xboard_engine/search/warmup.py``) is worth: fresh
processes of this interpreter each search a start position to a fixed depth, as a game's first move
would be, half of them after the warm-up and half without, alternately; per variant the median seconds
of each and their ratio.  (Under CPython the warm-up does nothing: there is no JIT.)

THREADS section: time to a fixed depth and nodes/s of one process and of two (``Threads``/``cores``
2: the engine's search and a helper process sharing the transposition table), alternately in the same
run (see ``run_threads``).

The last lines are the signatures, which must not change unless the rules (perft) or the search do:
``signature N`` is the total perft leaf count, ``search signature N`` the total number of search
nodes over all search positions. Every position runs ``--repeat`` times (the fastest counts; the first
run also warms up PyPy's JIT); repeated searches must visit the same number of nodes, else the script
reports the position as nondeterministic and fails.

Moves are generated in the order of ``Position.units`` (insertion-ordered dicts), so the search
signature is the same on CPython and PyPy; each search starts from a freshly built Position, since the
order also follows a Position's push/pop history.
"""
import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine.search.runtime import tune_jit  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# (label, variant, fen or None, setup number or None, depth, quick depth).  Every case makes
# millions of leaves at full depth: shorter runs measure PyPy's JIT warming up, not its speed.
CASES = [
    ("normal start", "normal", START, None, 5, 3),
    ("normal kiwipete", "normal", KIWIPETE, None, 4, 2),
    ("fischerandom #0", "fischerandom", None, 0, 5, 3),
    ("chess80 start", "chess80", None, None, 4, 2),
    ("fullcavalry start", "fullcavalry", None, None, 5, 3),
    ("8piece start", "8piece", None, None, 4, 2),
    ("8piece-random #0", "8piece-random", None, 0, 4, 2),
    ("8piece-2019 start", "8piece-2019", None, None, 4, 2),
]
REFERENCE = [("normal start", START), ("normal kiwipete", KIWIPETE)]

def python_chess_perft(board, depth: int) -> int:
    """python-chess's perft with a push/pop per leaf (the reference our perft is compared with)."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def reference_perft(depths: Dict[str, int]) -> Dict[str, Tuple[int, float]]:
    """python-chess push/pop perft on the orthodox cases: label -> (leaves, seconds)."""
    import chess

    out = {}
    for label, fen in REFERENCE:
        board = chess.Board(fen)
        out[label] = best_of(REPEAT, lambda: python_chess_perft(board, depths[label]))
    return out


REPEAT = 2


def best_of(repeat: int, run) -> Tuple[int, float]:
    """(result, fastest seconds) of ``repeat`` runs; the first run also warms up PyPy's JIT."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return result, best


def run_perft(args) -> Optional[int]:
    """The perft section; returns the signature (total leaves), or None on a python-chess mismatch."""
    from xboard_engine import Position

    depths = {label: (quick if args.quick else depth) for label, _, _, _, depth, quick in CASES}
    print(f"{'position':20} {'depth':>5} {'leaves':>10} {'seconds':>8} {'leaves/s':>10}")
    ours: Dict[str, Tuple[int, float]] = {}
    signature = 0
    for label, variant, fen, number, _, _ in CASES:
        pos = Position.from_fen(fen, variant) if fen else Position(variant, number=number)
        leaves, elapsed = best_of(REPEAT, lambda: pos.perft(depths[label]))
        ours[label] = (leaves, elapsed)
        signature += leaves
        print(f"{label:20} {depths[label]:>5} {leaves:>10} {elapsed:>8.2f} {leaves / elapsed:>10.0f}")

    reference = None
    try:
        reference = reference_perft(depths)
        where = "python-chess (same interpreter)"
    except ImportError:
        try:
            done = subprocess.run([args.reference_python, os.path.abspath(__file__), "--repeat", str(REPEAT),
                                   "--reference-only",
                                   json.dumps(depths)], capture_output=True, text=True, timeout=600)
            if done.returncode == 0:
                reference = {k: tuple(v) for k, v in json.loads(done.stdout).items()}
                where = f"python-chess under {args.reference_python}"
        except (OSError, ValueError, subprocess.TimeoutExpired):
            reference = None
    if reference:
        print(f"\nreference: {where}")
        ratios = []
        for label, (leaves, seconds) in reference.items():
            if leaves != ours[label][0]:
                print(f"MISMATCH {label}: python-chess {leaves}, ours {ours[label][0]}")
                return None
            ratio = (ours[label][0] / ours[label][1]) / (leaves / seconds)
            ratios.append(ratio)
            print(f"{label:20} python-chess {leaves / seconds:>10.0f} leaves/s   ratio ours/theirs {ratio:.2f}")
        print(f"ratio (geometric mean) {(ratios[0] * ratios[1]) ** 0.5:.2f}")
    else:
        print("\nreference: python-chess not available, no ratio")
    return signature


def run_search(args) -> Optional[int]:
    """The search section; returns the search signature (total nodes), or None when a repeated search
    of a position visited a different number of nodes (the search must be deterministic)."""
    from xboard_engine.search.bench import SEARCH_CASES, bench_position
    from xboard_engine.search.searcher import Limits, Searcher

    print(f"{'variant':14} {'position':16} {'depth':>5} {'nodes':>9} {'seconds':>8} {'nodes/s':>8}")
    per_variant: Dict[str, List[float]] = {}       # variant -> [nodes, seconds]
    signature = 0
    for label, variant, number, fen, moves, depth, quick in SEARCH_CASES:
        depth = quick if args.quick else depth
        counts = []

        def run() -> int:
            # A fresh position too: the order in which moves are generated (and so the node count)
            # depends on the push/pop history of the Position object (see the docstring).
            pos = bench_position(variant, number, fen, moves)
            counts.append(Searcher().search(pos, Limits(depth=depth)).nodes)
            return counts[-1]

        nodes, elapsed = best_of(REPEAT, run)
        if len(set(counts)) != 1:
            print(f"NONDETERMINISTIC {variant} {label}: node counts {counts}")
            return None
        totals = per_variant.setdefault(variant, [0, 0.0])
        totals[0] += nodes
        totals[1] += elapsed
        signature += nodes
        print(f"{variant:14} {label:16} {depth:>5} {nodes:>9} {elapsed:>8.2f} {nodes / elapsed:>8.0f}")

    orthodox = per_variant["normal"][0] / per_variant["normal"][1]
    print(f"\n{'variant':14} {'nodes':>9} {'seconds':>8} {'nodes/s':>8} {'/normal':>8}")
    for variant, (nodes, seconds) in per_variant.items():
        print(f"{variant:14} {nodes:>9} {seconds:>8.2f} {nodes / seconds:>8.0f} {nodes / seconds / orthodox:>8.2f}")
    eight = [v for v in per_variant if v.startswith("8piece")]
    met = all(per_variant[v][0] / per_variant[v][1] >= 0.5 * orthodox for v in eight)
    print(f"target 8-Piece nodes/s >= 0.50 x normal: {'met' if met else 'not met'}")
    return signature


THREAD_CASES = [("normal", "ruy lopez"), ("normal", "kiwipete"), ("chess80", "middlegame"),
                ("fullcavalry", "middlegame"), ("8piece", "middlegame"), ("8piece-2019", "start")]


def run_threads(args) -> None:
    """The threads section: each of ``THREAD_CASES`` searched to its depth by one process and by two
    (the engine's search and one helper sharing the table, ``xboard_engine/search/parallel/smp.py``), alternately, in
    the same run; per position the time to the depth and the nodes/s of each, then their geometric
    means.  The table is cleared before every search; the helper is started and warmed up first.
    Two processes are not deterministic: the times are the median of ``--repeat`` runs (at least 3)."""
    from xboard_engine.search.bench import SEARCH_CASES, bench_position
    from xboard_engine.search.searcher import Limits
    from xboard_engine.search.parallel.smp import ParallelSearcher

    cases = [c for c in SEARCH_CASES if (c[1], c[0]) in THREAD_CASES]
    searchers = {}
    for threads in (1, 2):
        searchers[threads] = ParallelSearcher()
        searchers[threads].set_threads(threads)
        searchers[threads].search(bench_position("normal", None, None, ""), Limits(depth=4))
    repeat = max(3, REPEAT)
    print(f"{'variant':14} {'position':12} {'depth':>5} {'s (1)':>7} {'s (2)':>7} {'speedup':>7} "
          f"{'nodes/s (1)':>11} {'nodes/s (2)':>11} {'ratio':>6}")
    speedups, nps_ratios = [], []
    try:
        for label, variant, number, fen, moves, depth, quick in cases:
            depth = quick if args.quick else depth
            runs: Dict[int, List[Tuple[float, int]]] = {1: [], 2: []}
            for _ in range(repeat):
                for threads in (1, 2):
                    searcher = searchers[threads]
                    searcher.clear()
                    pos = bench_position(variant, number, fen, moves)
                    start = time.perf_counter()
                    nodes = searcher.search(pos, Limits(depth=depth)).nodes
                    runs[threads].append((time.perf_counter() - start, nodes))
            seconds = {t: sorted(r)[len(r) // 2][0] for t, r in runs.items()}
            nps = {t: sum(n for _, n in r) / sum(s for s, _ in r) for t, r in runs.items()}
            speedups.append(seconds[1] / seconds[2])
            nps_ratios.append(nps[2] / nps[1])
            print(f"{variant:14} {label:12} {depth:>5} {seconds[1]:>7.2f} {seconds[2]:>7.2f} "
                  f"{speedups[-1]:>7.2f} {nps[1]:>11.0f} {nps[2]:>11.0f} {nps_ratios[-1]:>6.2f}", flush=True)
    finally:
        for searcher in searchers.values():
            searcher.close()
    mean = lambda values: math.exp(sum(math.log(v) for v in values) / len(values))  # noqa: E731
    print(f"2 processes against 1: time to depth {mean(speedups):.2f}x faster, "
          f"nodes/s {mean(nps_ratios):.2f}x (geometric means)")


WARMUP_CASES = [("normal", 5, 4), ("8piece", 5, 4), ("chess80", 5, 4)]   # variant, depth, quick depth


def warmup_probe(variant: str, depth: int, seconds: float) -> None:
    """In a fresh process: warm up for ``seconds``, then print the seconds a search of ``variant``'s
    start position to ``depth`` takes."""
    from xboard_engine.core.position import Position
    from xboard_engine.search.searcher import Limits, Searcher
    from xboard_engine.search.warmup import WarmUp

    WarmUp().run(seconds)
    start = time.perf_counter()
    Searcher().search(Position(variant), Limits(depth=depth))
    print(json.dumps(time.perf_counter() - start))


def run_warmup(args) -> None:
    """The warm-up section (see the module's docstring)."""
    from xboard_engine.search.warmup import warmup_seconds

    seconds = warmup_seconds()
    if not seconds:
        print(f"warm-up: none under {platform.python_implementation()} (no JIT to warm; "
              f"XBOARD_ENGINE_WARMUP sets one)")
        return
    print(f"first search of a fresh process, without and with a {seconds:g} s warm-up "
          f"(median of {max(3, REPEAT)} processes each)")
    print(f"{'variant':14} {'depth':>5} {'s (cold)':>9} {'s (warm)':>9} {'ratio':>6}")
    for variant, depth, quick in WARMUP_CASES:
        depth = quick if args.quick else depth
        runs: Dict[float, List[float]] = {0.0: [], seconds: []}
        for _ in range(max(3, REPEAT)):
            for warm in runs:
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "--warmup-probe",
                                      json.dumps([variant, depth, warm])],
                                     check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout
                runs[warm].append(json.loads(out.split()[-1]))
        cold, warm = (sorted(r)[len(r) // 2] for r in runs.values())
        print(f"{variant:14} {depth:>5} {cold:>9.2f} {warm:>9.2f} {cold / warm:>6.2f}", flush=True)


def main() -> int:
    tune_jit()                      # as the engine runs (xboard_engine/search/runtime.py)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shallower depths")
    parser.add_argument("--reference-python", default="python3",
                        help="interpreter that runs python-chess when it is not importable here")
    parser.add_argument("--repeat", type=int, default=2, help="runs per position, the fastest counts")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--perft-only", action="store_true", help="run only the perft section")
    only.add_argument("--search-only", action="store_true", help="run only the search section")
    only.add_argument("--threads-only", action="store_true", help="run only the threads section")
    only.add_argument("--warmup-only", action="store_true", help="run only the warm-up section")
    parser.add_argument("--reference-only", help=argparse.SUPPRESS)
    parser.add_argument("--warmup-probe", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    if args.reference_only:
        print(json.dumps(reference_perft(json.loads(args.reference_only))))
        return 0
    if args.warmup_probe:
        warmup_probe(*json.loads(args.warmup_probe))
        return 0

    print(f"{platform.python_implementation()} {platform.python_version()}")
    perft_signature = search_signature = None
    if args.threads_only:
        run_threads(args)
        return 0
    if args.warmup_only:
        run_warmup(args)
        return 0
    if not args.search_only:
        perft_signature = run_perft(args)
        if perft_signature is None:
            return 1
    if not args.perft_only:
        if not args.search_only:
            print()
        search_signature = run_search(args)
        if search_signature is None:
            return 1
    if not (args.perft_only or args.search_only):
        print()
        run_threads(args)
        print()
        run_warmup(args)
    if perft_signature is not None:
        print(f"signature {perft_signature}")
    if search_signature is not None:
        print(f"search signature {search_signature}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
