"""What a cutechess-cli match did to the engines' clocks, read from its `-debug all` output.

    cutechess-cli -engine ... -each proto=uci tc=1+0.01 -games 200 -debug all > match.log
    python scripts/cutechess_report.py match.log

Prints the games and their results, every game lost on time, per engine the lowest clock it was
sent with a `go` (UCI `wtime`/`btime` of its own side; CECP `time`) and the slowest answer to
`isready`/`ping` that cutechess measured (its log's millisecond stamps).
"""
import argparse
import re
import sys
from collections import Counter, defaultdict
from typing import Dict, Optional, TextIO

_LINE = re.compile(r"^(\d+) ([<>])(.+?)\((\d+)\): (.*)$")
_FINISHED = re.compile(r"^Finished game (\d+) \((.+) vs (.+)\): (\S+) \{(.*)\}")


def report(stream: TextIO) -> int:
    side: Dict[str, int] = {}                  # engine -> side to move in its last position (0 white)
    lowest: Dict[str, float] = defaultdict(lambda: float("inf"))
    asked: Dict[str, Optional[int]] = {}
    slowest: Dict[str, int] = defaultdict(int)
    answers: Dict[str, int] = defaultdict(int)
    results: Counter = Counter()
    on_time = []
    games = 0
    for raw in stream:
        line = raw.rstrip("\n")
        finished = _FINISHED.match(line)
        if finished:
            games += 1
            results[finished.group(4)] += 1
            if "on time" in finished.group(5):
                on_time.append(line)
            continue
        match = _LINE.match(line)
        if not match:
            continue
        stamp, direction, name, _, text = match.groups()
        words = text.split()
        if not words:
            continue
        if direction == ">":
            if words[0] == "position":
                moves = words[words.index("moves") + 1:] if "moves" in words else []
                start = 0
                if words[1] == "fen" and len(words) > 3 and words[3] == "b":
                    start = 1
                side[name] = (start + len(moves)) % 2
            elif words[0] == "go" and name in side:
                key = "wtime" if side[name] == 0 else "btime"
                if key in words:
                    lowest[name] = min(lowest[name], int(words[words.index(key) + 1]) / 1000.0)
            elif words[0] == "time":                      # CECP: centiseconds, sent before the move
                lowest[name] = min(lowest[name], int(words[1]) / 100.0)
            elif words[0] in ("isready", "ping"):
                asked[name] = int(stamp)
        elif words[0] in ("readyok", "pong") and asked.get(name) is not None:
            slowest[name] = max(slowest[name], int(stamp) - asked[name])
            answers[name] += 1
            asked[name] = None
    print(f"games: {games}; results: " + ", ".join(f"{r} x{n}" for r, n in sorted(results.items())))
    print(f"lost on time: {len(on_time)}")
    for line in on_time:
        print("  " + line)
    for name in sorted(set(lowest) | set(slowest)):
        low = lowest[name]
        print(f"{name}: lowest clock at a move {low:.3f} s; slowest isready/ping answer {slowest[name]} ms "
              f"over {answers[name]}")
    return 1 if on_time else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", nargs="?", help="cutechess-cli -debug all output (default: standard input)")
    args = parser.parse_args()
    if args.log:
        with open(args.log, encoding="utf-8", errors="replace") as stream:
            return report(stream)
    return report(sys.stdin)


if __name__ == "__main__":
    sys.exit(main())
