#!/usr/bin/env python3
"""The tactics suite at a fixed time per position: how many forced mates (checked by brute force over
the rules core) and material wins the engine finds.

    python scripts/tactics.py                 # 1 second per position
    pypy3 scripts/tactics.py --seconds 0.2
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from tactics_suite import MATES, WINS, played_mate       # noqa: E402
from xboard_engine import Position                        # noqa: E402
from xboard_engine.search.searcher import Limits, Searcher         # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="thinking time per position")
    args = parser.parse_args()
    limits = Limits(soft_time=args.seconds, hard_time=args.seconds)
    passed = total = 0
    for variant, fen, moves, what in MATES:
        pos = Position.from_fen(fen, variant)
        result = Searcher(hash_mb=16).search(pos, limits)
        ok = played_mate(pos, result.move, moves)
        passed += ok
        total += 1
        print(f"{'pass' if ok else 'FAIL'}  {variant:14} mate in {moves}: {what} "
              f"({pos.move_text(result.move)}, depth {result.depth})")
    for variant, fen, best, what in WINS:
        if best is None:
            continue
        pos = Position.from_fen(fen, variant)
        result = Searcher(hash_mb=16).search(pos, limits)
        ok = pos.move_text(result.move) == best
        passed += ok
        total += 1
        print(f"{'pass' if ok else 'FAIL'}  {variant:14} {what} ({pos.move_text(result.move)}, "
              f"expected {best}, depth {result.depth})")
    print(f"passed {passed} of {total} at {args.seconds:g} s per position")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
