#!/usr/bin/env python3
"""How fast a fresh engine searches its first moves: the cold-JIT table.

For each variant, a fresh engine process is started, timed to ``uciok`` (UCI) and, in another fresh
process, to ``feature done=1`` (CECP; XBoard waits 2 s for it by default), then given the variant
and a middlegame position and sent ``go movetime MS`` five times (``--searches``) on that position,
each after ``ucinewgame`` (an empty table: every search does the same work, so only the JIT's warmth
differs).  Each search's nodes/s is the engine's last ``info nodes ... time`` line before its
``bestmove`` (the whole search); the table shows every search, its depth and the ratio of the first
to the last (the target: the first at least 80% of the fifth).

    python scripts/first_moves.py                     # the engine as users start it (PyPy if installed)
    python scripts/first_moves.py --engine "python -m xboard_engine --interpreter current"
    python scripts/first_moves.py --variants 8piece --runs 3 --movetime 1000

With ``--runs N`` each variant is measured N times (fresh processes each time) and the medians are
printed.  The engine runs from this checkout (PYTHONPATH).
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent

# A middlegame of each family, reached by moves from its start (UCI coordinates).
POSITIONS: Dict[str, str] = {
    "normal": "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8",
    "8piece": "e2e4 e7e5 g1f3 g8f6 d2d4 e5d4 f3d4 d7d5 e4d5 f6d5 f1c4 c7c6 e1g1 f8e7 b1d3c e8g8",
    "chess80": "e2e4 e7e5 i1h3 b8c6 f2f4 e5f4 h3f4 i8h6 c2c3 d7d6 d2d4 h6g4 b1d2 c8d7 g1e3 g4e3",
    "fullcavalry": "e2e4 e7e5 g1f3 g8f6 d2d4 e5d4 f3d4 f8c5 c2c3 b8c6 c1e3 e8g8 f1d3 d7d6 e1g1 c8g4",
}


class Engine:
    def __init__(self, command: List[str], env: Dict[str, str]) -> None:
        self.began = time.perf_counter()
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                     stderr=subprocess.DEVNULL, universal_newlines=True, bufsize=1)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, predicate) -> List[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            line = line.strip()
            lines.append(line)
            if predicate(line):
                return lines
        raise SystemExit(f"the engine exited: {lines[-5:]}")

    def close(self) -> None:
        try:
            self.send("quit")
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _nodes_per_second(lines: List[str]) -> Tuple[float, int]:
    """(nodes/s, depth): the nodes and time of the last info line that has both, the depth of the
    last that has one."""
    nps, depth = 0.0, 0
    for line in lines:
        words = line.split()
        if words[:1] != ["info"] or "currmove" in words:
            continue
        if "depth" in words:
            depth = int(words[words.index("depth") + 1])
        if "nodes" in words and "time" in words:
            nodes = int(words[words.index("nodes") + 1])
            ms = int(words[words.index("time") + 1])
            if ms > 0:
                nps = nodes * 1000.0 / ms
    return nps, depth


def measure_uci(command: List[str], env: Dict[str, str], variant: str, searches: int,
                movetime: int) -> Tuple[float, List[Tuple[float, int]]]:
    """(seconds to uciok, [(nodes/s, depth)] of each search)."""
    engine = Engine(command, env)
    try:
        engine.send("uci")
        engine.until(lambda line: line == "uciok")
        startup = time.perf_counter() - engine.began
        if variant != "normal":
            engine.send(f"setoption name UCI_Variant value {variant}")
        out = []
        for _ in range(searches):
            engine.send("ucinewgame")
            engine.send("isready")
            engine.until(lambda line: line == "readyok")
            engine.send(f"position startpos moves {POSITIONS[variant]}")
            engine.send(f"go movetime {movetime}")
            out.append(_nodes_per_second(engine.until(lambda line: line.startswith("bestmove"))))
        return startup, out
    finally:
        engine.close()


def measure_cecp_startup(command: List[str], env: Dict[str, str]) -> float:
    engine = Engine(command, env)
    try:
        engine.send("xboard")
        engine.send("protover 2")
        engine.until(lambda line: line.startswith("feature") and "done=1" in line)
        return time.perf_counter() - engine.began
    finally:
        engine.close()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=f"{shlex.quote(sys.executable)} -m xboard_engine",
                        help="the engine command (default: this Python -m xboard_engine, which moves "
                             "itself to PyPy where installed)")
    parser.add_argument("--variants", default=",".join(POSITIONS), help="comma-separated (default: %(default)s)")
    parser.add_argument("--searches", type=int, default=5)
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds per search")
    parser.add_argument("--runs", type=int, default=1, help="fresh processes per variant (medians shown)")
    args = parser.parse_args(argv)
    command = shlex.split(args.engine)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in POSITIONS:
            parser.error(f"no position for {v!r}; known: {', '.join(POSITIONS)}")
    header = " | ".join(f"go {i + 1:<9}" for i in range(args.searches))
    print(f"engine: {args.engine}; go movetime {args.movetime}, {args.runs} run(s), medians")
    print(f"{'variant':<12} | uciok s | done=1 s | {header} | first/last")
    failed = False
    for v in variants:
        startups, cecp, rows = [], [], []
        for _ in range(args.runs):
            startup, searches = measure_uci(command, env, v, args.searches, args.movetime)
            startups.append(startup)
            rows.append(searches)
            cecp.append(measure_cecp_startup(command, env))
        nps = [statistics.median(r[i][0] for r in rows) for i in range(args.searches)]
        depth = [statistics.median(r[i][1] for r in rows) for i in range(args.searches)]
        ratio = nps[0] / nps[-1] if nps[-1] else 0.0
        cells = " | ".join(f"{n / 1000:5.1f}k d{d:<3g}" for n, d in zip(nps, depth))
        print(f"{v:<12} | {statistics.median(startups):7.2f} | {statistics.median(cecp):8.2f} | {cells} | "
              f"{ratio:9.0%}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
