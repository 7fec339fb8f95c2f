#!/usr/bin/env python3
"""How long engines take to start: from process start to `uciok`, and the CPU time of the whole run.

Each engine is started, sent `uci`, timed to its `uciok`, then sent `quit`; the CPU time counts the
process and everything it waited for (the interpreter check of xboard_engine/engine/interpreter.py too).
The engines take turns, run after run, so that a change in the machine's load falls on all alike.

    python scripts/startup_time.py --runs 10 \\
        --engine "python -m xboard_engine --interpreter current" \\
        --engine "python -m xboard_engine" --engine "pypy3 -m xboard_engine"
    python scripts/startup_time.py --runs 10 --warmup 0 --engine ...    # without PyPy's warm-up

Engines run in the checkout (PYTHONPATH) with XBOARD_ENGINE_INTERPRETER unset, unless --engine's
command sets otherwise.  Prints the median, lowest and highest time to `uciok` and the median CPU
time of each, and the engine's `id name`.
"""
import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent


def start_once(command: List[str], env: Dict[str, str]) -> Tuple[float, float, Optional[str]]:
    """(seconds to `uciok`, CPU seconds of the whole run, the `id name`)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                            universal_newlines=True)
    proc.stdin.write("uci\n")
    proc.stdin.flush()
    name = None
    for line in proc.stdout:
        if line.startswith("id name "):
            name = line[8:].strip()
        if line.strip() == "uciok":
            break
    else:
        raise SystemExit(f"{' '.join(command)}: no uciok")
    took = perf_counter() - began
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return took, cpu, name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", required=True, metavar="COMMAND",
                        help="an engine's command line (repeatable)")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", metavar="SECONDS", help="XBOARD_ENGINE_WARMUP for every engine")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    env.pop("XBOARD_ENGINE_INTERPRETER", None)
    if args.warmup is not None:
        env["XBOARD_ENGINE_WARMUP"] = args.warmup
    commands = [shlex.split(engine) for engine in args.engine]
    times: List[List[float]] = [[] for _ in commands]
    cpus: List[List[float]] = [[] for _ in commands]
    names: List[Optional[str]] = [None for _ in commands]
    loads = []
    for _ in range(args.runs):
        for i, command in enumerate(commands):
            loads.append(os.getloadavg()[0])
            took, cpu, names[i] = start_once(command, env)
            times[i].append(took)
            cpus[i].append(cpu)
    print(f"{args.runs} runs each, in turn; XBOARD_ENGINE_WARMUP={args.warmup or 'unset'}; "
          f"1-minute load {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores")
    for engine, took, cpu, name in zip(args.engine, times, cpus, names):
        print(f"  {engine}: to uciok median {statistics.median(took):.2f} s (lowest {min(took):.2f}, "
              f"highest {max(took):.2f}), CPU median {statistics.median(cpu):.2f} s  [{name}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
