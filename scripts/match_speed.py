#!/usr/bin/env python3
"""Tournament-runner throughput: games per minute at a fast time control and the referee's own
time per move (wall time of a game minus engine start-up minus the engines' measured move times).

    python scripts/match_speed.py [--variant chess80] [--games 8] [--concurrency 2] [--tc 2+0.02]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine.match import Adjudication, EngineConfig, TimeControl, play_game, run_match  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="chess80")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--tc", default="2+0.02")
    # The engine under this script's interpreter, as the figures were measured (without --interpreter
    # it would move itself to PyPy where installed).
    parser.add_argument("--engine", default=f"{sys.executable} -m xboard_engine --interpreter current")
    args = parser.parse_args()
    ours = EngineConfig("a", args.engine)
    tc = TimeControl.parse(args.tc)
    adjudication = Adjudication(maxmoves=150)

    start = time.monotonic()
    result = run_match([ours, ours._replace(name="b")], args.variant, tc, games=args.games, repeat=True,
                       concurrency=args.concurrency, adjudication=adjudication, out=open(os.devnull, "w"))
    minutes = (time.monotonic() - start) / 60
    plies = sum(len(g.moves) for g in result.games)
    print(f"{args.variant} tc {args.tc}: {len(result.games)} games, {plies} plies in {minutes * 60:.1f} s "
          f"with concurrency {args.concurrency}: {len(result.games) / minutes:.1f} games/minute")

    # Referee overhead, measured on one game without concurrency.
    t0 = time.monotonic()
    game = play_game(ours, ours._replace(name="b"), args.variant, tc, adjudication=adjudication)
    wall = time.monotonic() - t0
    t0 = time.monotonic()
    from xboard_engine.match.engines import start_engine
    for _ in range(2):
        start_engine(ours).quit()
    startup = time.monotonic() - t0
    engine_time = sum(game.move_seconds)
    moves = max(1, len(game.move_seconds))
    print(f"one game: {moves} moves, wall {wall:.2f} s, engine start-up {startup:.2f} s, engines thinking "
          f"{engine_time:.2f} s: referee overhead {1000 * (wall - startup - engine_time) / moves:.2f} ms/move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
