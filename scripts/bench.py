#!/usr/bin/env python3
"""Perft throughput benchmark: leaves per second with a full make/unmake of every leaf.

Runs each variant's start position and Kiwipete. When python-chess is importable (here, or in the
``--reference-python`` interpreter, default ``python3``, e.g. when this runs under PyPy), its
push/pop perft runs on the same orthodox positions in the same run and the ratio is printed.

    python scripts/bench.py            # CPython
    pypy3 scripts/bench.py             # PyPy, python-chess measured under python3
    python scripts/bench.py --quick    # shallower depths

The last line is the signature: the total leaf count, which must not change unless the rules do.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from typing import Dict, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# (label, variant, fen or None, setup number or None, depth, quick depth)
CASES = [
    ("normal start", "normal", START, None, 5, 3),
    ("normal kiwipete", "normal", KIWIPETE, None, 4, 2),
    ("fischerandom #0", "fischerandom", None, 0, 4, 3),
    ("chess80 start", "chess80", None, None, 3, 2),
    ("fullcavalry start", "fullcavalry", None, None, 4, 3),
    ("8piece start", "8piece", None, None, 3, 2),
    ("8piece-random #0", "8piece-random", None, 0, 3, 2),
    ("8piece-2019 start", "8piece-2019", None, None, 3, 2),
]
REFERENCE = [("normal start", START), ("normal kiwipete", KIWIPETE)]


def reference_perft(depths: Dict[str, int]) -> Dict[str, Tuple[int, float]]:
    """python-chess push/pop perft on the orthodox cases: label -> (leaves, seconds)."""
    import chess

    def perft(board: "chess.Board", depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    out = {}
    for label, fen in REFERENCE:
        board = chess.Board(fen)
        out[label] = best_of(REPEAT, lambda: perft(board, depths[label]))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shallower depths")
    parser.add_argument("--reference-python", default="python3",
                        help="interpreter that runs python-chess when it is not importable here")
    parser.add_argument("--repeat", type=int, default=2, help="runs per position, the fastest counts")
    parser.add_argument("--reference-only", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    if args.reference_only:
        print(json.dumps(reference_perft(json.loads(args.reference_only))))
        return 0

    from xboard_engine import Position

    depths = {label: (quick if args.quick else depth) for label, _, _, _, depth, quick in CASES}
    print(f"{platform.python_implementation()} {platform.python_version()}")
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
                return 1
            ratio = (ours[label][0] / ours[label][1]) / (leaves / seconds)
            ratios.append(ratio)
            print(f"{label:20} python-chess {leaves / seconds:>10.0f} leaves/s   ratio ours/theirs {ratio:.2f}")
        print(f"ratio (geometric mean) {(ratios[0] * ratios[1]) ** 0.5:.2f}")
    else:
        print("\nreference: python-chess not available, no ratio")
    print(f"signature {signature}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
