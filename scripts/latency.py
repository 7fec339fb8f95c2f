"""How long the engine takes to answer `isready` (UCI) or `ping` (CECP) while it works.

The engine plays a game against itself at a fast clock, as a GUI drives it (UCI: `position ...`,
`isready`, `go wtime ...`, the way cutechess-cli does; CECP: `time`, `otim`, `usermove`/`go`), and
between those commands the script sends `isready`/`ping` at random moments, most of them while the
engine is searching, and times each answer from the moment the line was written to the moment its
answer was read.  `--busy` keeps the machine's other core busy with a second process meanwhile.

    python scripts/latency.py --protocol uci --tries 1000 --busy
    pypy3 scripts/latency.py --protocol xboard --tries 1000 --busy --variant 8piece
    python scripts/latency.py --protocol uci --tries 1000 --busy --engine "pypy3 -m xboard_engine"

The engine runs under the script's interpreter (``--interpreter current``: the engine does not move to
PyPy by itself here) unless ``--engine`` names it; the times include the
script's own pauses (under PyPy its JIT and collector add a few milliseconds now and then), so the
last form measures the PyPy engine alone.

Prints the median, 99th percentile and worst answer, and how many tries came during a search.
"""
import argparse
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parent.parent


class Engine:
    def __init__(self, command: List[str]) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=str(ROOT),
                                     env=env, bufsize=0)
        self.buffer = b""
        self.skipped: List[str] = []

    def send(self, line: str) -> float:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def line(self, timeout: float = 30.0) -> Optional[str]:
        """The next output line, or None if none came within ``timeout`` seconds."""
        deadline = time.perf_counter() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit("the engine exited")
            self.buffer += chunk
        text, _, self.buffer = self.buffer.partition(b"\n")
        return text.decode().strip()

    def until(self, predicate, timeout: float = 30.0) -> str:
        """The first line ``predicate`` accepts; lines passed over are kept in ``skipped``."""
        while True:
            text = self.line(timeout)
            if text is None:
                raise SystemExit(f"the engine did not answer in {timeout} s")
            if predicate(text):
                return text
            self.skipped.append(text)

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def measure(args: argparse.Namespace) -> List[float]:
    rng = random.Random(args.seed)
    engine = Engine(args.engine.split() if args.engine
                    else [sys.executable, "-m", "xboard_engine", "--interpreter", "current"])
    uci = args.protocol == "uci"
    waits: List[float] = []
    during = 0

    def probe(searching: bool) -> None:
        nonlocal during
        if uci:
            sent = engine.send("isready")
            engine.until(lambda t: t == "readyok")
        else:
            sent = engine.send(f"ping {len(waits)}")
            engine.until(lambda t: t == f"pong {len(waits)}")
        waits.append(time.perf_counter() - sent)
        during += searching

    if uci:
        engine.send("uci")
        engine.until(lambda t: t == "uciok")
        engine.send(f"setoption name UCI_Variant value {args.variant}")
    else:
        engine.send("xboard")
        engine.send("protover 2")
        engine.until(lambda t: t == "feature done=1")
        engine.send("new")
        if args.variant != "normal":
            engine.send(f"variant {args.variant}")
        engine.send("post")
    while len(waits) < args.tries:
        # a new game at the clock, played to its end or 120 plies
        clocks = [args.base, args.base]
        moves: List[str] = []
        if uci:
            engine.send("ucinewgame")
        else:
            engine.send("new")
            if args.variant != "normal":
                engine.send(f"variant {args.variant}")
            engine.send(f"level 0 0:{args.base:g} {args.inc:g}")
            engine.send("force")
        probe(False)
        for ply in range(120):
            side = ply % 2
            started = time.perf_counter()
            if uci:
                engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
                probe(False)                            # as cutechess: position, isready, go
                engine.send(f"go wtime {int(clocks[0] * 1000)} btime {int(clocks[1] * 1000)} "
                            f"winc {int(args.inc * 1000)} binc {int(args.inc * 1000)}")
            else:
                engine.send(f"time {int(clocks[side] * 100)}")
                engine.send(f"otim {int(clocks[1 - side] * 100)}")
                engine.send("go")
            move = None
            engine.skipped = []
            while move is None and len(waits) < args.tries:
                time.sleep(rng.uniform(0.0, args.gap))
                probe(True)
                while move is None:
                    text = engine.skipped.pop(0) if engine.skipped else engine.line(0)
                    if text is None:
                        break
                    words = text.split()
                    if uci and words[:1] == ["bestmove"]:
                        move = words[1]
                    elif not uci and words[:1] == ["move"]:
                        move = words[1]
                    elif not uci and (words[:1] in (["1-0"], ["0-1"], ["1/2-1/2"])):
                        move = "(none)"
            if move is None:                              # enough tries: let the search end
                ended = lambda t: t.split()[:1] in (["bestmove"], ["move"], ["1-0"], ["0-1"], ["1/2-1/2"])  # noqa
                done = [t for t in engine.skipped if ended(t)]
                text = done[0] if done else engine.until(ended)
                move = text.split()[1] if text.split()[:1] in (["bestmove"], ["move"]) else "(none)"
            clocks[side] += args.inc - (time.perf_counter() - started)
            if move == "(none)" or len(waits) >= args.tries:
                break
            moves.append(move)
            if not uci:
                engine.send("force")
        if not uci:
            engine.send("force")
    engine.close()
    print(f"{len(waits)} tries, {during} of them during a search")
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--protocol", choices=("uci", "xboard"), default="uci")
    parser.add_argument("--tries", type=int, default=1000)
    parser.add_argument("--variant", default="normal")
    parser.add_argument("--base", type=float, default=10.0, help="clock seconds per game and side")
    parser.add_argument("--inc", type=float, default=0.1, help="increment seconds")
    parser.add_argument("--gap", type=float, default=0.05, help="most seconds between two tries")
    parser.add_argument("--busy", action="store_true", help="keep the other core busy meanwhile")
    parser.add_argument("--engine", help="engine command (default: this Python, -m xboard_engine)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        waits = sorted(measure(args))
    finally:
        if busy:
            busy.kill()
    ms = [w * 1000 for w in waits]
    print(f"answer time: median {ms[len(ms) // 2]:.2f} ms, 99th percentile {ms[int(len(ms) * 0.99) - 1]:.2f} ms, "
          f"worst {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
