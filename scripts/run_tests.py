#!/usr/bin/env python3
"""The whole test suite in two pytest processes at once, for a machine of two cores or more.

The tests in a real XBoard under Xvfb (``GUI_TESTS``) are half of the suite's time and mostly wait on
XBoard (a move dragged, a dialog drawn, a game saved); everything else mostly computes.  So the two
halves run side by side, the XBoard half with cache and data folders of its own (``paths.py``: the
piece pictures and position file ``xboard-engine play`` writes), and this exits with the first
failure's status, after printing the XBoard half's output below the rest's.

    python scripts/run_tests.py [pytest options]     e.g. -q -ra --durations=25

With test paths or node ids among the arguments, or ``XBOARD_ENGINE_TESTS_SERIAL=1``, it is plain
``python -m pytest`` with them.  Plain ``python -m pytest`` runs the same tests one after another."""
import os
import signal
import subprocess
import sys
import tempfile
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NO_TESTS = 5                # pytest's exit status when it collected nothing
GUI_TESTS = ["tests/test_xboard_e2e.py", "tests/test_xboard_play.py", "tests/test_xboard_sessions.py"]


def names_tests(args: List[str]) -> bool:
    """Whether the arguments choose tests themselves (a path or a node id)."""
    return any(not a.startswith("-") and (a.startswith("tests") or ".py" in a or "::" in a) for a in args)


def main(args: List[str]) -> int:
    pytest = [sys.executable, "-m", "pytest"]
    if names_tests(args) or os.environ.get("XBOARD_ENGINE_TESTS_SERIAL") == "1":
        return subprocess.call(pytest + args, cwd=ROOT)
    with tempfile.TemporaryDirectory(prefix="xboard-engine-tests-") as scratch:
        gui_env = dict(os.environ, XDG_CACHE_HOME=os.path.join(scratch, "cache"),
                       XDG_DATA_HOME=os.path.join(scratch, "data"))
        gui_log_path = os.path.join(scratch, "xboard-tests.log")
        with open(gui_log_path, "w") as gui_log:
            # -p no:cacheprovider: the two processes would both write .pytest_cache
            gui = subprocess.Popen(pytest + args + ["-p", "no:cacheprovider"] + GUI_TESTS, cwd=ROOT,
                                   env=gui_env, stdout=gui_log, stderr=subprocess.STDOUT)
            try:
                rest = subprocess.call(pytest + args + [f"--ignore={path}" for path in GUI_TESTS], cwd=ROOT)
                gui_status = gui.wait()
            except KeyboardInterrupt:
                gui.send_signal(signal.SIGINT)
                gui.wait()
                raise
        print(f"\n===== the tests in XBoard ({', '.join(GUI_TESTS)}), run alongside =====", flush=True)
        with open(gui_log_path) as gui_log:
            sys.stdout.write(gui_log.read())
        sys.stdout.flush()
    print(f"run_tests.py: the XBoard tests exited {gui_status}, the rest {rest}", flush=True)
    return combined_status(rest, gui_status)


def combined_status(rest: int, xboard_half: int) -> int:
    """The run's status: a failure of either half; a half with no test to run (``NO_TESTS``: options
    such as ``-m "not slow"`` or ``-k`` can empty one) counts as passed, unless both are empty."""
    statuses = [s for s in (rest, xboard_half) if s != NO_TESTS]
    return max(statuses, default=NO_TESTS)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
