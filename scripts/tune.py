#!/usr/bin/env python3
"""Fit one set of the evaluation's weights (``xboard_engine/search/weights.json``) to the results of games.

Texel's method, with the weights of one set fitted together.  Quiet positions are taken from finished
games of the set's variants (PGN files of ``scripts/selfplay.py`` or ``xboard-match -pgnout``): past
the opening, not in check, and resolved, i.e. a quiescence search from them finds no capture that
changes the score.  Each is labelled with its game's result, or where the game gives the search's
score of the position (``selfplay.py`` writes it as a comment after each move) with a mix of the two
(``--score-share``): the score turned into an expected result by the same curve.  The evaluation is linear in each weight
(but for rounding), so the effect of every weight on every position is measured once, by moving the
weight and evaluating again; then all the weights are fitted at once (Gauss-Newton steps) to the
squared error between the results and the evaluation's prediction ``1 / (1 + 10 ** (-K * score /
400))``, with a pull towards the starting values so that a weight the positions say little about stays
where it was.  A fifth of the games is held out: several pulls are tried (``--pull``) and the one with
the lowest error on the held-out games is kept.  The errors printed are the evaluation's own (not the
linear model's).

    pypy3 scripts/selfplay.py 8piece --openings 8piece.epd --games 4000 -o 8piece.pgn
    pypy3 scripts/tune.py --set 8piece 8piece.pgn --write

``--write`` stores the fitted set in ``xboard_engine/search/weights.json`` with this command, the seed and the
numbers of games and positions.  Check a new set with a match before keeping it.
"""
import argparse
import json
import math
import os
import random
import shlex
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position                                          # noqa: E402
from xboard_engine.search.alphabeta import AlphaBeta                               # noqa: E402
from xboard_engine.core.errors import RulesError                                 # noqa: E402
from xboard_engine.search import evaluation                                        # noqa: E402
from xboard_engine.search.evaluation import WEIGHTS, evaluate, set_weights, weights_for  # noqa: E402
from xboard_engine.match.pgn import read_games                              # noqa: E402
from xboard_engine.search.searcher import FEATURES                                   # noqa: E402
from xboard_engine.core.variant import get_variant, variant_names                # noqa: E402

RESULT_VALUE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
PROBE = 50                  # centipawns a weight is moved by to measure its effect
LN10 = math.log(10.0)


def set_variants(name: str) -> List[str]:
    """The variants whose evaluation uses the weight set ``name``."""
    return [v for v in variant_names() if get_variant(v).evaluation == name]


def read_positions(paths: Sequence[str], variants: Sequence[str], skip: int
                   ) -> Tuple[List[List[Tuple[str, str, float, Optional[int]]]], int, int]:
    """Per game of ``variants``: its candidate positions (variant, FEN, White's result, the search's
    score if the game gives it) past the first
    ``skip`` plies, not in check and not just after a capture; games that do not replay are counted
    and dropped, as are games of other variants."""
    games = []
    bad = other = 0
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for game in read_games(handle):
                result = RESULT_VALUE.get(game.result)
                if result is None:
                    continue
                variant = game.tags.get("Variant", "normal").lower()
                variant = "normal" if variant in ("chess", "standard") else variant
                if variant not in variants:
                    other += 1
                    continue
                fen = game.tags.get("FEN")
                try:
                    pos = Position.from_fen(fen, variant) if fen else Position(variant)
                    found = []
                    comments = game.comments or [""] * len(game.moves)
                    for ply, (san, comment) in enumerate(zip(game.moves, comments)):
                        move = pos.parse_san(san)
                        capture = pos.is_capture(move)
                        pos.push(move)
                        if ply >= skip and not capture and not pos.is_check() and pos.outcome() is None:
                            found.append((variant, pos.fen(), result, _score(comment)))
                except (RulesError, ValueError):
                    bad += 1
                    continue
                games.append(found)
    return games, bad, other


def _score(comment: str) -> Optional[int]:
    """The search score a move's comment gives (White's view, centipawns), if it gives one."""
    try:
        return int(comment)
    except ValueError:
        return None


class Sample:
    """A resolved position, what it is fitted to (its game's result for White, or a mix with the
    search's score), and the linear model's view of it."""
    __slots__ = ("pos", "result", "score", "base", "features")

    def __init__(self, pos: Position, result: float, score: Optional[int]) -> None:
        self.pos = pos
        self.result = result
        self.score = score
        self.base = 0.0                                     # White's evaluation with the start weights
        self.features: List[Tuple[int, float]] = []        # (weight index, centipawns per centipawn)


def white_eval(pos: Position) -> int:
    score = evaluate(pos)
    return -score if pos.stm else score


def resolved(games: List[List[Tuple[str, str, float, Optional[int]]]], count: int, seed: int) -> List[Sample]:
    """Up to ``count`` positions of ``games`` (shuffled) whose quiescence score is their static
    evaluation: no capture sequence changes what the evaluation says."""
    rng = random.Random(seed)
    flat = [p for game in games for p in game]
    rng.shuffle(flat)
    search = AlphaBeta({f: True for f in FEATURES}, 1)
    search._killers = [[None, None] for _ in range(200)]
    kept: List[Sample] = []
    for variant, fen, result, score in flat:
        if len(kept) >= count:
            break
        pos = Position.from_fen(fen, variant)
        static = evaluate(pos)
        if abs(static) > 2000:
            continue                                        # decided: nothing to learn from it
        if search._quiesce(pos, -10 ** 9, 10 ** 9, 0, 0) != static:
            continue
        kept.append(Sample(pos, result, score))
    return kept


def blend_labels(samples: List[Sample], k: float, share: float) -> int:
    """Fit each sample with a search score to ``share`` of that score's expected result (through the
    curve of scale ``k``) plus the rest of its game's result; the number of such samples."""
    mixed = 0
    for s in samples:
        if s.score is not None:
            expected = 1.0 / (1.0 + 10.0 ** (-k * s.score / 400.0))
            s.result = share * expected + (1.0 - share) * s.result
            mixed += 1
    return mixed


def rescore(samples: List[Sample]) -> None:
    """Recompute the core's running sums after the tables changed."""
    for s in samples:
        s.pos.score = s.pos.compute_score()


def measure(samples: List[Sample], weights: Dict[str, int], name: str, names: List[str]) -> None:
    """Each sample's evaluation under ``weights`` and its change per centipawn of each of ``names``."""
    set_weights(weights, name)
    rescore(samples)
    for s in samples:
        s.base = float(white_eval(s.pos))
        s.features = []
    for j, weight in enumerate(names):
        set_weights(dict(weights, **{weight: weights[weight] + PROBE}), name)
        rescore(samples)
        for s in samples:
            d = white_eval(s.pos) - s.base
            if d:
                s.features.append((j, d / PROBE))
    set_weights(weights, name)
    rescore(samples)


def error(samples: List[Sample], k: float) -> float:
    """Mean squared difference between the results and the evaluation's predictions."""
    total = 0.0
    for s in samples:
        total += (s.result - 1.0 / (1.0 + 10.0 ** (-k * white_eval(s.pos) / 400.0))) ** 2
    return total / max(1, len(samples))


def fit_k(samples: List[Sample]) -> float:
    """The logistic scale that best fits the current evaluation (golden-section search)."""
    lo, hi = 0.05, 3.0
    for _ in range(30):
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if error(samples, a) < error(samples, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def fit(samples: List[Sample], count: int, k: float, pull: float, steps: int) -> List[float]:
    """The changes to the ``count`` weights that minimise the linear model's squared error plus a pull
    towards no change (ridge): Gauss-Newton steps, each solving the normal equations.  The pull is
    ``pull`` times the mean curvature of the error, so it is the same for any number of positions; a
    weight no position depends on stays where it was."""
    delta = [0.0] * count
    scale = k * LN10 / 400.0
    ridge = None
    for _ in range(steps):
        a = [[0.0] * count for _ in range(count)]
        g = [0.0] * count
        for s in samples:
            features = s.features
            score = s.base
            for j, c in features:
                score += c * delta[j]
            p = 1.0 / (1.0 + math.exp(-scale * score))
            slope = p * (1.0 - p) * scale
            miss = p - s.result
            for j, c in features:
                jc = slope * c
                g[j] += jc * miss
                row = a[j]
                for i, c2 in features:
                    row[i] += jc * slope * c2
        if ridge is None:
            ridge = pull * max(1e-12, sum(a[j][j] for j in range(count)) / count)
        for j in range(count):
            a[j][j] += ridge
            g[j] += ridge * delta[j]
        step = solve(a, [-x for x in g])
        delta = [d + x for d, x in zip(delta, step)]
        if max(abs(x) for x in step) < 0.5:
            break
    return delta


def solve(a: List[List[float]], b: List[float]) -> List[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; ``a`` and ``b`` are overwritten)."""
    n = len(b)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        head = a[col][col]
        for r in range(col + 1, n):
            f = a[r][col] / head
            if f:
                row, top = a[r], a[col]
                for c in range(col, n):
                    row[c] -= f * top[c]
                b[r] -= f * b[col]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (b[r] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files of finished games (other variants are skipped)")
    parser.add_argument("--set", required=True, dest="name",
                        help="the weight set to fit (a variant's `evaluation =`: orthodox, 8piece, ...)")
    parser.add_argument("--positions", type=int, default=100000, help="training positions (default 100000)")
    parser.add_argument("--skip", type=int, default=8, help="opening plies left out (default 8)")
    parser.add_argument("--steps", type=int, default=10, help="Gauss-Newton steps at most (default 10)")
    parser.add_argument("--pull", type=float, nargs="+", default=[0.03, 0.1, 0.3, 1.0, 3.0, 10.0],
                        help="pulls towards the starting weights to try, as shares of the error's mean "
                             "curvature; the one with the lowest held-out error is kept "
                             "(default 0.03 0.1 0.3 1 3 10)")
    parser.add_argument("--only", nargs="*", help="fit only these weights")
    parser.add_argument("--score-share", type=float, default=0.5,
                        help="share of a position's label taken from the search score its game gives, "
                             "where it gives one (default 0.5; 0: the game's result alone)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="store the fitted set in weights.json")
    parser.add_argument("--games-made-by", default="",
                        help="how the games were made (the selfplay.py or xboard-match commands), stored "
                             "with the set by --write")
    parser.add_argument("--output", default=evaluation.WEIGHTS_FILE,
                        help="the weights file --write stores the set in (default: the package's)")
    args = parser.parse_args(list(argv) or None)
    variants = set_variants(args.name)
    if not variants:
        known = sorted({get_variant(v).evaluation for v in variant_names()})
        parser.error(f"no variant uses the weight set {args.name!r}; known sets: {', '.join(known)}")
    unknown = set(args.only or ()) - set(WEIGHTS)
    if unknown:
        parser.error(f"unknown weights: {', '.join(sorted(unknown))}")
    for path in args.pgn:
        if not os.path.isfile(path):
            parser.error(f"no such file: {path}")
    started = time.time()
    games, bad, other = read_positions(args.pgn, variants, args.skip)
    random.Random(args.seed).shuffle(games)
    held = max(1, len(games) // 5)
    test = resolved(games[:held], args.positions // 4, args.seed)
    train = resolved(games[held:], args.positions, args.seed)
    print(f"set {args.name} ({', '.join(variants)}): {len(games)} games ({bad} unreadable, {other} of other "
          f"variants), {len(train)} training and {len(test)} held-out resolved positions "
          f"({time.time() - started:.0f} s)", flush=True)
    if not train or not test:
        print("tune.py: too few positions to fit", file=sys.stderr)
        return 1
    start = weights_for(get_variant(variants[0]))
    names = sorted(args.only or start)
    measure(train, start, args.name, names)
    k = fit_k(train)
    mixed = blend_labels(train + test, k, args.score_share)
    if mixed:
        print(f"{mixed} positions labelled {args.score_share:g} by the search's score")
    before = (error(train, k), error(test, k))
    print(f"K {k:.3f}; error: train {before[0]:.6f} held-out {before[1]:.6f}; "
          f"{sum(len(s.features) for s in train) / len(train):.1f} weights act on a position "
          f"({time.time() - started:.0f} s)", flush=True)
    best = None
    for pull in sorted(args.pull):
        delta = fit(train, len(names), k, pull, args.steps)
        trial = dict(start)
        for j, weight in enumerate(names):
            trial[weight] = start[weight] + int(round(delta[j]))
        set_weights(trial, args.name)
        rescore(train + test)
        errors = (error(train, k), error(test, k))
        print(f"pull {pull:g}: train {errors[0]:.6f} held-out {errors[1]:.6f} ({time.time() - started:.0f} s)",
              flush=True)
        if best is None or errors[1] < best[1][1]:
            best = (trial, errors, pull)
    fitted, after, pull = best
    set_weights(fitted, args.name)
    rescore(train + test)
    print(f"kept pull {pull:g}: train {after[0]:.6f} held-out {after[1]:.6f}")
    changed = {w: (start[w], fitted[w]) for w in names if fitted[w] != start[w]}
    print("changed:", ", ".join(f"{w} {a}->{b}" for w, (a, b) in sorted(changed.items())) or "nothing")
    if args.write:
        if after[1] >= before[1]:
            print("tune.py: the held-out error did not fall; weights.json left as it was", file=sys.stderr)
            return 1
        write_set(args.output, args.name, fitted, {
            "command": "pypy3 scripts/tune.py " + " ".join(shlex.quote(a) for a in (list(argv) or sys.argv[1:])),
            "games made by": args.games_made_by, "seed": args.seed, "pull": pull,
            "score share": args.score_share, "games": len(games), "training positions": len(train),
            "held-out positions": len(test), "K": round(k, 4),
            "held-out error": [round(before[1], 6), round(after[1], 6)]})
        print(f"written to {args.output}")
    return 0


def write_set(path: str, name: str, weights: Dict[str, int], made_by: Dict[str, object]) -> None:
    """Store ``weights`` (those that differ from the hand-set values) as set ``name`` in ``path``."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        data = {"sets": {}}
    tables = data["sets"].get(name, {}).get("tables")       # distilled by fit_tables.py: kept
    data["sets"][name] = {"made by": made_by,
                          "weights": {w: x for w, x in sorted(weights.items()) if x != WEIGHTS[w]}}
    if tables:
        data["sets"][name]["tables"] = tables
    evaluation.write_fitted(path, data)


if __name__ == "__main__":
    sys.exit(main())
