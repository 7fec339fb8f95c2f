#!/usr/bin/env python3
"""Noise-free benchmark: CPU instructions per perft leaf and per search node, counted by valgrind.

Timings on a shared, loaded machine swing by 2x between runs; instruction counts do not.  Each
workload runs twice under ``valgrind --tool=callgrind`` (set-up only, then set-up plus the work) and
the difference is divided by the leaves or nodes.  Fewer instructions per leaf means faster, and the
ratios below track the timed ratios of ``scripts/bench.py`` on a quiet machine.

    python scripts/bench_instructions.py            # needs valgrind (apt-get install valgrind)
    python scripts/bench_instructions.py --quick    # perft only

Printed: instructions per leaf of our perft and python-chess's push/pop perft on the same positions
(and their ratio), then instructions per node of the searches of ``bench.py`` at their quick depths per variant
and each variant's speed relative to orthodox chess (the 8-Piece target is at least 0.50).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
from typing import Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

OURS = """
import sys
sys.path.insert(0, {root!r})
from xboard_engine import Position
pos = Position.from_fen({fen!r})
print(pos.perft({depth}) if {run} else 0)
"""
THEIRS = """
import sys
sys.path.insert(0, {here!r})
import chess
from bench import python_chess_perft
board = chess.Board({fen!r})
print(python_chess_perft(board, {depth}) if {run} else 0)
"""
SEARCH = """
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {here!r})
from xboard_engine.search.bench import SEARCH_CASES, bench_position
from xboard_engine.search.searcher import Limits, Searcher
total = 0
for label, variant, number, fen, moves, depth, quick in SEARCH_CASES:
    if variant == {variant!r}:
        pos = bench_position(variant, number, fen, moves)
        if {run}:
            total += Searcher().search(pos, Limits(depth=quick)).nodes
print(total)
"""


def instructions(python: str, code: str) -> Tuple[int, int]:
    """(instructions executed, the integer the program printed last) of ``python -c code``."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", code],
                          capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"bench_instructions: the workload failed:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def per_unit(python: str, template: str, **fields) -> Tuple[int, float]:
    """(leaves or nodes, instructions per leaf or node) of a workload, its set-up subtracted."""
    setup, _ = instructions(python, template.format(run=False, **fields))
    total, count = instructions(python, template.format(run=True, **fields))
    return count, (total - setup) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default=sys.executable, help="CPython interpreter to measure")
    parser.add_argument("--quick", action="store_true", help="perft only")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        print("bench_instructions: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    common = dict(root=ROOT, here=HERE)
    print(f"{'perft':22} {'leaves':>8} {'ours/leaf':>10} {'python-chess/leaf':>18} {'ratio':>6}")
    for label, fen, depth in (("start, depth 4", START, 4), ("kiwipete, depth 3", KIWIPETE, 3)):
        leaves, ours = per_unit(args.python, OURS, fen=fen, depth=depth, **common)
        theirs_leaves, theirs = per_unit(args.python, THEIRS, fen=fen, depth=depth, here=HERE)
        if theirs_leaves != leaves:
            print(f"MISMATCH {label}: python-chess {theirs_leaves}, ours {leaves}")
            return 1
        print(f"{label:22} {leaves:>8} {ours:>10.0f} {theirs:>18.0f} {theirs / ours:>6.2f}")
    if args.quick:
        return 0
    print(f"\n{'search':14} {'nodes':>8} {'instr/node':>11} {'speed /normal':>14}")
    normal = None
    for variant in ("normal", "fischerandom", "chess80", "fullcavalry", "8piece", "8piece-random", "8piece-2019"):
        nodes, cost = per_unit(args.python, SEARCH, variant=variant, **common)
        normal = normal or cost
        print(f"{variant:14} {nodes:>8} {cost:>11.0f} {normal / cost:>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
