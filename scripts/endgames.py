#!/usr/bin/env python3
"""Basic mates against a lone king: from random legal positions the engine plays both sides (a fixed
number of search nodes per move) and must mate within the 50-move rule.

    pypy3 scripts/endgames.py                       # 50 positions per material, 20000 nodes a move
    python scripts/endgames.py --positions 5 --nodes 5000 --only KQ KR

Materials: K+Q and K+R (orthodox), K+L (Full Cavalry and 8-Piece), K+J (8-Piece, with the pass
rule), K+D (Chess80), K+B+N and K+B+S (8-Piece; bishop and sentry on squares of opposite colours, as
every setup has them, R10.1). Prints, per material, the successes and the longest
mate in moves; a failure is printed with its start FEN.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position, RulesError           # noqa: E402
from xboard_engine.core.board import OFF                        # noqa: E402
from xboard_engine.search.searcher import Limits, Searcher         # noqa: E402

# name -> (variant, the strong side's units besides its king; a lancer is "L", any facing)
MATERIALS = {
    "KQ": ("normal", "Q"),
    "KR": ("normal", "R"),
    "KL": ("fullcavalry", "L"),
    "KL-8piece": ("8piece", "L"),
    "KJ": ("8piece", "J"),
    "KD": ("chess80", "D"),
    "KBN": ("8piece", "BN"),
    "KBS": ("8piece", "BS"),
}
LANCER_LETTERS = "CDEFGHMO"        # facings N NE E SE S SW W NW (R3.6)


def random_position(variant: str, units: str, rng: random.Random) -> Position:
    """A random legal position: White has K plus ``units``, Black a lone king, either side to move (Black not able to
    take a unit at once)."""
    files = 10 if variant == "chess80" else 8
    while True:
        letters = ["K", "k"] + [rng.choice(LANCER_LETTERS) if u == "L" else u for u in units]
        squares = rng.sample(range(files * 8), len(letters))
        if "B" in units and "S" in units:
            bishop, sentry = (squares[letters.index(u)] for u in "BS")
            if (bishop // files + bishop % files) % 2 == (sentry // files + sentry % files) % 2:
                continue                    # on one colour both leave the other colour's squares to
                                            # the king: no forced mate, and no game has them so (R10.1)
        board = dict(zip(squares, letters))
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(files):
                letter = board.get(rank * files + file)
                if letter:
                    row += (str(empty) if empty else "") + letter
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        fen = "/".join(rows) + f" {rng.choice('wb')} - - 0 1"
        try:
            pos = Position.from_fen(fen, variant)
        except RulesError:
            continue
        v = pos.variant
        if any(v.facing_step[pos.board[sq]] and pos.board[sq + v.facing_step[pos.board[sq]]] == OFF
               for sq in pos.units[0]):
            continue                        # a lancer facing off the board: no game reaches it (R3.2)
        if pos.stm == 1 and any(pos.is_capture(m) for m in pos.legal_moves()):
            continue                        # the lone king could take a unit at once
        if pos.outcome() is None and pos.legal_moves():
            pos.push_null()                 # the side not to move must not be in check
            exposed = pos.is_check()
            pos.pop()
            if not exposed:
                return pos


def play_out(pos: Position, nodes: int, max_plies: int = 200) -> Position:
    """The engine plays both sides until the game ends (or ``max_plies``)."""
    searcher = Searcher(hash_mb=16)
    for _ in range(max_plies):
        if pos.outcome() is not None:
            break
        result = searcher.search(pos, Limits(nodes=nodes))
        pos.push(result.move)
    return pos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=50, help="random positions per material")
    parser.add_argument("--nodes", type=int, default=20000, help="search nodes per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", choices=sorted(MATERIALS), help="materials to run")
    args = parser.parse_args()
    all_ok = True
    for name, (variant, units) in MATERIALS.items():
        if args.only and name not in args.only:
            continue
        rng = random.Random(f"{args.seed}-{name}")
        wins = 0
        longest = 0
        began = time.perf_counter()
        for _ in range(args.positions):
            start = random_position(variant, units, rng)
            fen = start.fen()
            end = play_out(start.copy(), args.nodes)
            outcome = end.outcome()
            if outcome is not None and outcome.winner == "w" and outcome.termination == "checkmate":
                wins += 1
                longest = max(longest, (end.ply + 1) // 2)
            else:
                print(f"  {name}: no mate from {fen} ({outcome.termination if outcome else 'unfinished'})")
        all_ok = all_ok and wins == args.positions
        print(f"{name:10} {variant:12} mated {wins}/{args.positions}  longest {longest} moves  "
              f"({time.perf_counter() - began:.0f} s)", flush=True)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
