#!/usr/bin/env python3
"""Tune the evaluation's weights (``xboard_engine.evaluation.WEIGHTS``) to the results of our games.

Texel's method: take quiet positions from finished games (PGN files written by ``xboard-match
-pgnout``, any variants mixed), predict each game's result from the evaluation of its positions through
a logistic curve, and adjust the weights one at a time (a step up or down, kept when the prediction
error falls) until no step helps. A fifth of the games is held out: the error on those games, before and
after, says whether the tuning generalises rather than memorises. The tuned weights are printed as a
Python dictionary to paste into ``evaluation.py``; check them with a match before keeping them.

    python scripts/tune.py games/*.pgn --positions 20000 --passes 4
    pypy3 scripts/tune.py ...        # the same, faster
"""
import argparse
import os
import random
import sys
import time
from typing import Dict, List, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position                                      # noqa: E402
from xboard_engine.errors import RulesError                             # noqa: E402
from xboard_engine.evaluation import WEIGHTS, evaluate, set_weights     # noqa: E402
from xboard_engine.match.pgn import read_games                          # noqa: E402

RESULT_VALUE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
Sample = Tuple[Position, float]          # a position and the game's result for White


def game_positions(paths: Sequence[str], skip: int, seed: int) -> Tuple[List[List[Tuple[str, str, float]]], int]:
    """Quiet positions (not in check, not just after a capture, past the first ``skip`` plies) per
    game, as (variant, FEN, White's result); games that do not replay are counted and dropped."""
    games = []
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for game in read_games(handle):
                result = RESULT_VALUE.get(game.result)
                if result is None:
                    continue
                variant = game.tags.get("Variant", "normal").lower()
                variant = "normal" if variant in ("chess", "standard") else variant
                fen = game.tags.get("FEN")
                try:
                    pos = Position.from_fen(fen, variant) if fen else Position(variant)
                    found = []
                    for ply, san in enumerate(game.moves):
                        move = pos.parse_san(san)
                        capture = pos.is_capture(move)
                        pos.push(move)
                        if ply >= skip and not capture and not pos.is_check() and pos.outcome() is None:
                            found.append((variant, pos.fen(), result))
                except (RulesError, ValueError):
                    bad += 1
                    continue
                games.append(found)
    random.Random(seed).shuffle(games)
    return games, bad


def sample(games: List[List[Tuple[str, str, float]]], count: int, seed: int) -> List[Sample]:
    rng = random.Random(seed)
    flat = [p for game in games for p in game]
    rng.shuffle(flat)
    return [(Position.from_fen(fen, variant), result) for variant, fen, result in flat[:count]]


def error(samples: List[Sample], k: float) -> float:
    """Mean squared difference between the results and the evaluation's predictions."""
    total = 0.0
    for pos, result in samples:
        score = evaluate(pos)
        if pos.stm:
            score = -score
        total += (result - 1.0 / (1.0 + 10.0 ** (-k * score / 400.0))) ** 2
    return total / max(1, len(samples))


def refresh(samples: List[Sample]) -> None:
    """Recompute the core's running sums after the tables changed."""
    for pos, _ in samples:
        pos.score = pos.compute_score()


def apply(weights: Dict[str, int], samples: List[Sample]) -> None:
    set_weights(weights)
    refresh(samples)


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


def tune(train: List[Sample], test: List[Sample], passes: int, step: int, names: Sequence[str]) -> Dict[str, int]:
    weights = dict(WEIGHTS)
    apply(weights, train + test)
    k = fit_k(train)
    best = error(train, k)
    print(f"K {k:.3f}; error: train {best:.6f} held-out {error(test, k):.6f}", flush=True)
    for number in range(1, passes + 1):
        improved = 0
        started = time.time()
        for name in names:
            for delta in (step, -step):
                trial = dict(weights)
                trial[name] = weights[name] + delta
                apply(trial, train)
                e = error(train, k)
                if e < best:                 # one step per weight and pass: no runaway on noise
                    best, weights = e, trial
                    improved += 1
                    break
            apply(weights, train)
        apply(weights, train + test)
        print(f"pass {number}: {improved} weights moved; train {best:.6f} held-out {error(test, k):.6f} "
              f"({time.time() - started:.0f} s)", flush=True)
        if not improved:
            break
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files of finished games (any variants)")
    parser.add_argument("--positions", type=int, default=20000, help="training positions (default 20000)")
    parser.add_argument("--passes", type=int, default=4, help="passes over the weights (default 4)")
    parser.add_argument("--step", type=int, default=2, help="centipawns per step (default 2)")
    parser.add_argument("--skip", type=int, default=8, help="opening plies left out (default 8)")
    parser.add_argument("--only", nargs="*", help="tune only these weights")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    unknown = set(args.only or ()) - set(WEIGHTS)
    if unknown:
        parser.error(f"unknown weights: {', '.join(sorted(unknown))}")
    games, bad = game_positions(args.pgn, args.skip, args.seed)
    held = max(1, len(games) // 5)
    test = sample(games[:held], args.positions // 4, args.seed)
    train = sample(games[held:], args.positions, args.seed)
    print(f"{len(games)} games ({bad} unreadable), {len(train)} training and {len(test)} held-out positions",
          flush=True)
    weights = tune(train, test, args.passes, args.step, args.only or sorted(WEIGHTS))
    changed = {name: (WEIGHTS_BEFORE[name], value) for name, value in weights.items()
               if value != WEIGHTS_BEFORE[name]}
    print("changed:", ", ".join(f"{n} {a}->{b}" for n, (a, b) in sorted(changed.items())) or "nothing")
    print("WEIGHTS = {")
    for name, value in weights.items():
        print(f'    "{name}": {value},')
    print("}")


WEIGHTS_BEFORE = dict(WEIGHTS)

if __name__ == "__main__":
    main()
