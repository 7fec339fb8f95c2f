#!/usr/bin/env python3
"""Play fast games of the engine against itself in one process and write them as PGN, for
``scripts/tune.py`` (the positions to fit the evaluation's weights on).

Each game starts from an opening of an EPD file (``scripts/make_openings.py``) chosen at random and
is played with a fixed number of nodes per move, varied by up to a quarter from move to move so that
no two games are alike.  A game ends by the rules, or is adjudicated: a win once both sides' searches
have agreed for 4 plies in a row that one side is ahead by more than ``--resign`` centipawns, a draw
after move 50 once 10 plies in a row scored within 10 centipawns, and a draw at ``--max-plies``.
Nothing is kept between games (no table, no history), so games do not depend on those before them.
After each move a comment gives the search's score of the position it reached, in centipawns from
White's view (mates as +-2000), which ``tune.py`` may learn from besides the result.

    pypy3 scripts/selfplay.py 8piece --openings 8piece.epd --games 2000 --nodes 1500 --seed 1 -o 8piece.pgn

Run it under PyPy: the same games take about 3 times longer under CPython.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position                          # noqa: E402
from xboard_engine.search.searcher import Limits, Searcher           # noqa: E402
from xboard_engine.core.variant import variant_names             # noqa: E402

RESIGN_PLIES = 4
DRAW_AFTER_PLY = 100
DRAW_PLIES = 10
DRAW_SCORE = 10
MATE_SCORE = 2000           # mate scores are written as this many centipawns


def play(variant: str, fen: str, nodes: int, rng: random.Random, resign: int, max_plies: int):
    """One game from ``fen``: (SAN moves, result, how it ended)."""
    pos = Position.from_fen(fen, variant)
    searcher = Searcher(hash_mb=16)
    sans = []
    scores = []
    ahead = 0                   # plies in a row White's score was beyond the resign margin (sign: who)
    level = 0                   # plies in a row the score was within DRAW_SCORE
    while True:
        ending = pos.outcome()
        if ending is not None:
            return sans, scores, ending.result, ending.termination
        if len(sans) >= max_plies:
            return sans, scores, "1/2-1/2", "adjudicated: move limit"
        result = searcher.search(pos, Limits(nodes=int(nodes * rng.uniform(0.75, 1.25))))
        white = result.score if pos.stm == 0 else -result.score
        if abs(white) > resign:
            sign = 1 if white > 0 else -1
            ahead = ahead + sign if ahead * sign > 0 else sign
        else:
            ahead = 0
        level = level + 1 if abs(white) <= DRAW_SCORE else 0
        sans.append(pos.san(result.move))
        scores.append(max(-MATE_SCORE, min(MATE_SCORE, white)))
        pos.push(result.move)
        if abs(ahead) >= RESIGN_PLIES:
            return sans, scores, "1-0" if ahead > 0 else "0-1", "adjudicated: resign"
        if len(sans) >= DRAW_AFTER_PLY and level >= DRAW_PLIES:
            return sans, scores, "1/2-1/2", "adjudicated: draw"


def pgn(variant: str, fen: str, sans, scores, result: str, termination: str, number: int) -> str:
    moves = []
    white_first = fen.split()[1] == "w"
    for i, (san, score) in enumerate(zip(sans, scores)):
        san = f"{san} {{{score}}}"
        if white_first and i % 2 == 0:
            moves.append(f"{i // 2 + 1}. {san}")
        elif not white_first and i == 0:
            moves.append(f"1... {san}")
        elif not white_first and i % 2 == 1:
            moves.append(f"{i // 2 + 2}. {san}")
        else:
            moves.append(san)
    return (f'[Event "selfplay"]\n[Round "{number}"]\n[Result "{result}"]\n[Variant "{variant}"]\n'
            f'[FEN "{fen}"]\n[SetUp "1"]\n[Termination "{termination}"]\n\n{" ".join(moves)} {result}\n\n')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=variant_names())
    parser.add_argument("--openings", required=True, help="EPD file of start positions (one FEN a line)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=1500, help="nodes per move on average (default 1500)")
    parser.add_argument("--resign", type=int, default=800, help="adjudication margin, centipawns (default 800)")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", required=True, help="PGN file the games are appended to")
    args = parser.parse_args()
    try:
        with open(args.openings, encoding="utf-8") as handle:
            openings = [" ".join(line.split()[:4]) + " 0 1" if len(line.split()) == 4 else line.strip()
                        for line in handle if line.strip()]
    except OSError as error:
        parser.error(f"cannot read the openings: {error}")
    if not openings:
        parser.error(f"no openings in {args.openings}")
    rng = random.Random(args.seed)
    started = time.time()
    with open(args.output, "a", encoding="utf-8") as out:
        for number in range(1, args.games + 1):
            fen = rng.choice(openings)
            sans, scores, result, termination = play(args.variant, fen, args.nodes, rng, args.resign,
                                                     args.max_plies)
            out.write(pgn(args.variant, fen, sans, scores, result, termination, number))
            out.flush()
            if number % 50 == 0:
                print(f"{number} games, {time.time() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
