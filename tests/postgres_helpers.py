"""A real PostgreSQL server for the tests: ``XBOARD_ENGINE_TEST_POSTGRES`` names a database an
administrator may use to make and drop others (.ci/run starts Debian's PostgreSQL and sets it, e.g.
``postgresql://xb:xb@localhost/postgres``).  Each test gets a new empty database of its own.

Without the variable the PostgreSQL tests are skipped, except under CI (``CI`` set), where a
missing PostgreSQL is a failure: the server's tests must have run against both stores."""
import os
import secrets
from urllib.parse import urlsplit, urlunsplit

import pytest

ADMIN = os.environ.get("XBOARD_ENGINE_TEST_POSTGRES", "")


def need_postgres() -> str:
    """The administrator's address, or the test skipped (failed under CI)."""
    if not ADMIN:
        if os.environ.get("CI"):
            pytest.fail("CI must run the store and server tests against PostgreSQL: "
                        "set XBOARD_ENGINE_TEST_POSTGRES (.ci/run does)")
        pytest.skip("no PostgreSQL for the tests (set XBOARD_ENGINE_TEST_POSTGRES)")
    return ADMIN


def _admin():
    import psycopg
    return psycopg.connect(need_postgres(), autocommit=True)


def new_database() -> str:
    """A new empty database; its address (the administrator's, with another database name)."""
    name = "xbtest_" + secrets.token_hex(6)
    with _admin() as db:
        db.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(ADMIN)
    return urlunsplit(parts._replace(path="/" + name))


def drop_database(url: str) -> None:
    """The database dropped, its connections ended.  PostgreSQL's autovacuum may be working in a
    new database just then (its worker is no role's, and a role without pg_signal_backend may not
    end it): tried again for up to 10 s."""
    import time
    import psycopg
    name = urlsplit(url).path.lstrip("/")
    deadline = time.monotonic() + 10
    while True:
        try:
            with _admin() as db:
                db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except psycopg.errors.InsufficientPrivilege:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
