"""Our engine, counted: appends its process id to FILE, then becomes ``python -m xboard_engine`` with
the remaining arguments (the same process, so the referee talks to the real engine).

    counted.py FILE [ENGINE ARGUMENTS...]
"""
import os
import sys

if __name__ == "__main__":
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        log.write(f"{os.getpid()}\n")
    os.execv(sys.executable, [sys.executable, "-m", "xboard_engine"] + sys.argv[2:])
