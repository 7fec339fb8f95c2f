"""The ceiling of one `xboard-engine serve` process (the web app, ``xboard_engine/web/``): more and
more concurrent two-player games at a fixed pace (a move every P seconds in each game, one watcher
per game by default) until the 99th percentile of the move round trip passes the target; each step
on a fresh server and database.

Each step is a run of scripts/live_load.py: every simulated person (two players a game, the
watchers) has its own cookie jar, unique name and X-Forwarded-For address, through a server started
with ``--public-url http://load.test --trusted-proxy 127.0.0.1 --first-move 0`` (the per-address
limits count each person apart; the games are all set up before the first move).

    python scripts/live_ceiling.py                                  # 50 100 200 400 800 1600 3200, 5 s
    python scripts/live_ceiling.py --steps 200 400 800 --pace 5 --duration 40
    python scripts/live_ceiling.py --server-python pypy3 --server-pythonpath /tmp/pypy-aiohttp

The load generator (scripts/live_load.py, one asyncio process) shares the machine with the
server: its CPU and event-loop lag are in the table, and an idle canary process shows the machine's
own stalls (other programs), so a step spoiled by them can be told apart.
"""
import argparse
import asyncio
import os
import sys
import tempfile
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import live_load  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, nargs="+", default=[50, 100, 200, 400, 800, 1600, 3200],
                   help="numbers of two-player games (default %(default)s)")
    p.add_argument("--pace", type=float, default=5.0, help="seconds between moves in a game (default %(default)s)")
    p.add_argument("--duration", type=float, default=40.0, help="seconds of play a step (default %(default)s)")
    p.add_argument("--watchers-per-game", type=float, default=1.0, help="default %(default)s")
    p.add_argument("--eight", type=int, default=0, help="8 Player games besides (default %(default)s)")
    p.add_argument("--target", type=float, default=100.0, help="p99 in ms (default %(default)s)")
    p.add_argument("--keep-going", action="store_true", help="run every step even past the target")
    p.add_argument("--server-python", default=sys.executable)
    p.add_argument("--server-pythonpath", default="")
    p.add_argument("--profile-server", action="store_true")
    args = p.parse_args()
    rows: List[Dict[str, Any]] = []
    ceiling = None
    print(f"server {args.server_python}, a move every {args.pace} s in each game, {args.duration} s a step, "
          f"{args.watchers_per_game} watcher(s) a game, {os.cpu_count()} cores shared with the load generator",
          flush=True)
    for games in args.steps:
        with tempfile.TemporaryDirectory(prefix="live-ceiling-") as data_dir:
            load = live_load.parser().parse_args([
                "--games", str(games), "--eight", str(args.eight),
                "--watchers", str(int(games * args.watchers_per_game)),
                "--pace", str(args.pace), "--duration", str(args.duration), "--data-dir", data_dir,
                "--setup-concurrency", "40"])
            server = live_load.Server(data_dir, args.server_python, [], profile=args.profile_server,
                                      pythonpath=args.server_pythonpath)
            server.start()
            try:
                result = asyncio.run(live_load.run_load(load, server, quiet=True))
            finally:
                server.stop()
            if args.profile_server and os.path.exists(os.path.join(data_dir, "profile.txt")):
                with open(os.path.join(data_dir, "profile.txt")) as f:
                    print(f.read())
        rows.append(result)
        r = result
        lost = r["records"]["lost"] + r["records"]["mismatched"]
        print(f"{games:6d} games {r['connections']:6d} WebSockets {r['moves'] / r['wall']:6.1f} moves/s  "
              f"p50 {r['p50']:7.1f}  p99 {r['p99']:7.1f}  max {r['max']:7.1f} ms  errors {r['errors']}  lost {lost}  "
              f"server CPU {r['cpu_pct']:4.0f}%  RSS {r['rss']:5.0f} MB  generator CPU {r['own_cpu_pct']:3.0f}% "
              f"lag p99 {r['lag_p99']:5.1f} ms  canary p99.9 {r['canary_p999']:5.1f} ms  load {r['load'][0]:.1f}",
              flush=True)
        if r["p99"] <= args.target and not r["errors"] and not lost:
            ceiling = games
        elif not args.keep_going:
            break
    print(f"ceiling at this pace: {ceiling} concurrent two-player games with p99 <= {args.target} ms"
          if ceiling else f"no step met p99 <= {args.target} ms")
    if ceiling == args.steps[-1]:
        print("(the last step still met the target: the ceiling is higher)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
