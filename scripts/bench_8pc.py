#!/usr/bin/env python3
"""Measure the 8 Player Chess bots (xboard_engine/multi/bots/bot.py).

SPEED: nodes per second and the depth reached at a fixed time per move, for each search
(brs, paranoid, team) on the start position and on a middlegame position (reached by a fixed,
seeded sequence of depth-1 bot moves, so it is the same on every run and interpreter).

TIMES: the distribution of the wall time of ``choose()`` at a fixed movetime over a bot game (every
seat a bot), with the largest overshoot of the movetime.

    python scripts/bench_8pc.py                     # CPython
    pypy3 scripts/bench_8pc.py                      # PyPy (20 s of searching first warm the JIT up)
    python scripts/bench_8pc.py --movetime 1 --times-movetime 0.5 --times-moves 40
"""
import argparse
import os
import platform
import statistics
import sys
import time
from typing import List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine.search.runtime import tune_jit  # noqa: E402

from xboard_engine.multi.bots.bot import Bot  # noqa: E402
from xboard_engine.multi.game import Game  # noqa: E402

SEARCHES = (("singles", "brs"), ("singles", "paranoid"), ("teams", "team"))


def middlegame(mode: str, moves: int) -> Game:
    """The game after ``moves`` moves of seeded depth-1 bots (the same every run)."""
    game = Game(mode=mode, seed=1)
    bots = [Bot(depth=1, movetime=None, seed=100 + seat) for seat in range(8)]
    while len(game.actions) < moves and not game.over:
        game.play(bots[game.turn].choose(game))
    return game


def warm_up(seconds: float, middle_moves: int) -> None:
    """Search for ``seconds`` before measuring (PyPy's JIT compiles the hot loops meanwhile)."""
    end = time.perf_counter() + seconds
    games = [Game(mode="singles", seed=1), middlegame("teams", middle_moves)]
    i = 0
    while time.perf_counter() < end:
        mode_game = games[i % 2]
        Bot(movetime=min(1.0, max(0.05, end - time.perf_counter())), algorithm=("brs", "team", "paranoid")[i % 3],
            seed=i).choose(mode_game)
        i += 1


def speed(movetime: float, middle_moves: int, repeat: int) -> None:
    print(f"SPEED  movetime {movetime:.2f} s, best of {repeat}")
    print(f"{'position':<14} {'mode':<8} {'search':<9} {'depth':>5} {'nodes':>8} {'seconds':>8} {'nodes/s':>8}  move")
    for label in ("start", f"middle ({middle_moves})"):
        for mode, algorithm in SEARCHES:
            game = Game(mode=mode, seed=1) if label == "start" else middlegame(mode, middle_moves)
            best = None
            for _ in range(repeat):
                bot = Bot(movetime=movetime, algorithm=algorithm, seed=1)
                move = bot.choose(game)
                last = dict(bot.last)
                last["move"] = game.move_text(move)
                if best is None or last["nodes"] / last["seconds"] > best["nodes"] / best["seconds"]:
                    best = last
            assert best is not None
            print(f"{label:<14} {mode:<8} {algorithm:<9} {best['depth']:>5} {best['nodes']:>8} "
                  f"{best['seconds']:>8.3f} {best['nodes'] / best['seconds']:>8.0f}  {best['move']}")


def times(movetime: float, moves: int, mode: str) -> None:
    print(f"\nTIMES  movetime {movetime:.2f} s, {moves} moves of a {mode} bot game (auto search)")
    game = Game(mode=mode, seed=3)
    bots = [Bot(movetime=movetime, seed=seat) for seat in range(8)]
    walls: List[float] = []
    depths: List[int] = []
    while len(walls) < moves and not game.over:
        bot = bots[game.turn]
        started = time.perf_counter()
        move = bot.choose(game)
        walls.append(time.perf_counter() - started)
        depths.append(bot.last["depth"])
        game.play(move)
    walls.sort()
    n = len(walls)
    overshoot = max(w - movetime for w in walls)
    print(f"moves {n}  min {walls[0]:.3f}  median {statistics.median(walls):.3f}  "
          f"p90 {walls[min(n - 1, int(n * 0.9))]:.3f}  max {walls[-1]:.3f} s")
    print(f"max overshoot {overshoot * 1000:+.1f} ms (allowed {movetime * 50 + 20:.0f} ms: 5% + 20 ms); "
          f"depth min {min(depths)} mean {statistics.mean(depths):.2f} max {max(depths)}")
    if overshoot > movetime * 0.05 + 0.02:
        print("OVERSHOOT TOO LARGE")
        sys.exit(1)


def main() -> None:
    tune_jit()                      # as the engine runs (xboard_engine/search/runtime.py)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per move for SPEED (default 1)")
    parser.add_argument("--middle", type=int, default=64, help="moves played to reach the middlegame (64)")
    parser.add_argument("--repeat", type=int, default=2, help="searches per SPEED row, the fastest counts (2)")
    parser.add_argument("--times-movetime", type=float, default=0.5, help="seconds per move for TIMES (0.5)")
    parser.add_argument("--times-moves", type=int, default=40, help="moves measured in TIMES (40)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of searching before measuring (default: 20 under PyPy, 0 under CPython)")
    parser.add_argument("--mode", default="singles", choices=("singles", "pairs", "teams"), help="TIMES game mode")
    args = parser.parse_args()
    if args.movetime <= 0 or args.times_movetime <= 0 or args.middle < 0 or args.repeat < 1 or args.times_moves < 1:
        parser.error("times are positive; --middle, --repeat and --times-moves are counts")
    print(f"{platform.python_implementation()} {platform.python_version()}")
    warmup = args.warmup if args.warmup is not None else (20.0 if platform.python_implementation() == "PyPy" else 0.0)
    if warmup > 0:
        print(f"warm-up: {warmup:.0f} s of searching")
        warm_up(warmup, args.middle)
    speed(args.movetime, args.middle, args.repeat)
    times(args.times_movetime, args.times_moves, args.mode)


if __name__ == "__main__":
    main()
