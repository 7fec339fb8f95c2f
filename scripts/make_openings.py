#!/usr/bin/env python3
"""Write an opening book of balanced start positions for engine matches (EPD or PGN).

Each opening is the variant's start position (for 8piece-random and fischerandom a random setup)
followed by 2 to 4 random legal plies, kept when a short search of the engine scores it within
``--balance`` centipawns for the side to move and it differs from every opening kept so far. The
book is the same for the same arguments (``--seed``), so a match can be reproduced:

    python scripts/make_openings.py 8piece -n 40 -o /tmp/8piece.epd
    xboard-match ... -variant 8piece -openings file=/tmp/8piece.epd order=random -repeat

EPD (one FEN per line) needs engines that accept ``setboard``. ``--format pgn`` writes each opening as
its moves from the start (with a FEN tag only for random setups), for engines such as Fairy-Max that
announce ``setboard=0``: ``-openings file=book.pgn format=pgn``.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position                      # noqa: E402
from xboard_engine.search.searcher import Limits, Searcher        # noqa: E402
from xboard_engine.core.variant import get_variant, variant_names  # noqa: E402


def openings(variant: str, count: int, seed: int, balance: int, depth: int):
    """Yield ``count`` distinct balanced openings as (start FEN, SAN moves, FEN reached)."""
    rng = random.Random(seed)
    v = get_variant(variant)
    seen = set()
    tries = 0
    while len(seen) < count:
        tries += 1
        if tries > 50 * count:
            raise SystemExit(f"only {len(seen)} balanced openings found in {tries} tries")
        start = v.start_fen_for(None, rng) if v.setup != "fixed" else v.start_fen
        pos = Position.from_fen(start, variant)
        sans = []
        for _ in range(rng.randint(2, 4)):
            moves = pos.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            sans.append(pos.san(move))
            pos.push(move)
        if pos.outcome() is not None or not pos.legal_moves():
            continue
        fen = pos.fen()
        if fen in seen:
            continue
        score = Searcher(hash_mb=4).search(pos, Limits(depth=depth)).score
        if abs(score) <= balance:
            seen.add(fen)
            yield start, sans, fen


def pgn_game(variant: str, start: str, sans, fixed_start: bool) -> str:
    """One opening as a PGN game (result ``*``): the FEN tag only when the start is not the variant's."""
    tags = [("Event", "opening"), ("Variant", variant), ("Result", "*")]
    if not fixed_start:
        tags += [("SetUp", "1"), ("FEN", start)]
    words = []
    for ply, text in enumerate(sans):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(text)
    header = "".join(f'[{key} "{value}"]\n' for key, value in tags)
    return header + "\n" + " ".join(words + ["*"]) + "\n\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=variant_names())
    parser.add_argument("-n", "--count", type=int, default=40, help="openings to write (default 40)")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    parser.add_argument("--format", choices=("epd", "pgn"), default="epd",
                        help="epd: one FEN per line (default); pgn: the moves from the start")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--balance", type=int, default=60,
                        help="largest |score| in centipawns of a kept opening (default 60)")
    parser.add_argument("--depth", type=int, default=3, help="depth of the balance search (default 3)")
    args = parser.parse_args()
    fixed = get_variant(args.variant).setup == "fixed"
    lines = [fen + "\n" if args.format == "epd" else pgn_game(args.variant, start, sans, fixed)
             for start, sans, fen in openings(args.variant, args.count, args.seed, args.balance, args.depth)]
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.writelines(lines)
    else:
        sys.stdout.writelines(lines)


if __name__ == "__main__":
    main()
