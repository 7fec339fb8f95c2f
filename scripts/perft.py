#!/usr/bin/env python3
"""Perft: count the leaf positions of a variant's move tree.

    scripts/perft.py --variant 8piece --depth 3 [--fen FEN | --number N] [--divide]

With --divide one line per root move (``MOVE COUNT``); the last line is always ``nodes N``.
Bad input prints one error line and exits with status 2.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position, RulesError  # noqa: E402


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2
        sys.stderr.write(f"perft: error: {message}\n")
        sys.exit(2)


def main() -> int:
    parser = _Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="normal")
    parser.add_argument("--fen", help="start from this position instead of the variant's start")
    parser.add_argument("--number", type=int, help="setup number of a randomized variant")
    parser.add_argument("--depth", required=True, type=int)
    parser.add_argument("--divide", action="store_true", help="one line per root move")
    parser.add_argument("--time", action="store_true", help="also print seconds and leaves/s")
    args = parser.parse_args()
    if args.depth < 0 or args.depth > 20:
        parser.error(f"depth must be between 0 and 20, got {args.depth}")
    try:
        if args.fen is not None:
            pos = Position.from_fen(args.fen, args.variant)
        else:
            pos = Position(args.variant, number=args.number)
    except RulesError as error:
        parser.error(str(error))
    start = time.perf_counter()
    if args.divide and args.depth > 0:
        total = 0
        lines = []
        for m in pos.legal_moves():
            text = pos.move_text(m)
            pos.push(m)
            count = pos.perft(args.depth - 1)
            pos.pop()
            lines.append((text, count))
            total += count
        for text, count in sorted(lines):
            print(f"{text} {count}")
    else:
        total = pos.perft(args.depth)
    elapsed = time.perf_counter() - start
    if args.time:
        print(f"time {elapsed:.3f}s  {total / max(elapsed, 1e-9):.0f} leaves/s")
    print(f"nodes {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
