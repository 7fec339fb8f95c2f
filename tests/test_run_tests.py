"""scripts/run_tests.py: the suite's two halves side by side (the tests in XBoard, the rest), one status."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import run_tests  # noqa: E402


def test_test_paths_or_node_ids_make_it_plain_pytest():
    assert run_tests.names_tests(["-q", "tests/test_uci.py"])
    assert run_tests.names_tests(["test_uci.py::test_x"])
    assert not run_tests.names_tests(["-q", "-ra", "--durations=25", "-k", "layers", "-m", "not slow"])


def test_the_status_is_a_failure_of_either_half_and_an_empty_half_counts_as_passed():
    assert [run_tests.combined_status(r, g) for r, g in [(0, 0), (0, 1), (1, 0), (2, 1), (5, 0), (0, 5), (5, 1), (5, 5)]] \
        == [0, 1, 1, 2, 0, 0, 1, 5]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "run_tests.py"), "-q", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_both_halves_run_and_a_half_with_nothing_to_run_does_not_fail():
    """-k picks tests of the XBoard half only (the rules-core check of its episodes): the rest collects
    nothing, which is no failure; the XBoard half's output follows."""
    done = run("-k", "episodes_are_legal_in_the_rules_core")
    assert done.returncode == 0, done.stdout[-3000:]
    xboard_half = done.stdout.split("===== the tests in XBoard", 1)
    assert len(xboard_half) == 2 and "5 passed" in xboard_half[1], done.stdout[-3000:]
    assert "the XBoard tests exited 0, the rest 5" in done.stdout


def test_a_failure_in_either_half_fails_the_run():
    """An option pytest refuses makes both halves fail (status 4): so does the run."""
    done = run("--no-such-option")
    assert done.returncode == 4, done.stdout[-3000:] + done.stderr[-3000:]
    assert "the XBoard tests exited 4, the rest 4" in done.stdout
