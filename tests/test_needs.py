"""tests/needs.py: a test whose tool is missing is skipped on a developer's machine and fails under
CI, naming the package to install; a test whose tools are there runs.  Checked on a real pytest run
of a small test file (with this project's conftest.py), once without ``CI`` and once with it."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from needs import missing, needs

TESTS = Path(__file__).resolve().parent

SAMPLE = '''
import needs
from needs import need, needs as needs_mark

needs.DEBIAN["no-such-program-here"] = "no-such-package"
needs.DEBIAN["python3"] = "python3"


@needs_mark("no-such-program-here")
def test_marked():
    pass


def test_called():
    need("no-such-program-here")


@needs_mark("python3")
def test_present():
    assert True
'''


def run_sample(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    env["PYTHONPATH"] = str(TESTS)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_a_missing_tool_skips_the_test_outside_ci(tmp_path):
    out = run_sample(tmp_path, ci=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed, 2 skipped" in out.stdout
    assert "needs no-such-program-here (apt-get install no-such-package)" in out.stdout


def test_a_missing_tool_fails_the_test_under_ci_naming_the_package(tmp_path):
    out = run_sample(tmp_path, ci=True)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "1 failed, 1 passed, 1 error" in out.stdout       # the mark fails the setup: an error
    assert out.stdout.count("CI must run this test: needs no-such-program-here "
                            "(apt-get install no-such-package)") >= 2


def test_groups_expand_and_unknown_names_are_refused():
    assert set(missing("browser")) <= {"selenium", "chromium", "chromedriver"}
    with pytest.raises(ValueError, match="unknown tool 'xbaord'"):
        needs("xbaord")
