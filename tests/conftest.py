"""Every engine the tests start runs under the interpreter that runs the tests, as it did before the
engine learnt to move itself to PyPy (xboard_engine/engine/interpreter.py): a test started with
``sys.executable -m xboard_engine`` measures that interpreter, and CPython's start (0.2 s) is not
PyPy's (2.5 s with its JIT warm-up).  tests/test_interpreter.py sets its own environments.  The
fixture ``postgres_url`` is a new database on the tests' PostgreSQL; ``@needs(...)`` marks are checked
here (tests/needs.py)."""
import os

import pytest

os.environ["XBOARD_ENGINE_INTERPRETER"] = "current"


@pytest.fixture
def postgres_url():
    """A new empty database on the tests' PostgreSQL, dropped afterwards (skipped without one; a
    failure under CI: tests/postgres_helpers.py)."""
    import postgres_helpers
    postgres_helpers.need_postgres()
    url = postgres_helpers.new_database()
    yield url
    postgres_helpers.drop_database(url)


def pytest_configure(config):
    config.addinivalue_line("markers", "needs(*tools): the programs or modules a test needs (tests/needs.py)")


def pytest_runtest_setup(item):
    """``@needs(...)`` marks: skip the test without a tool, fail it under CI (tests/needs.py)."""
    from needs import need
    for mark in item.iter_markers("needs"):
        need(*mark.args)
