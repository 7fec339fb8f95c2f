"""What a test needs from the machine, said once: ``@needs("xboard", "xvfb-run")`` on a test (or in a
module's ``pytestmark``), ``need("fairymax")`` inside one, ``need_module("aiohttp")`` at the top of a
module for a Python package.

Without a tool the test is skipped, except under CI (the ``CI`` variable set, as the project's CI
runs ``.ci/run``), where it is a failure naming the Debian or PyPI package to install: a CI whose
install step broke must not turn green with the XBoard, browser and engine tests unrun.
(``postgres_helpers.need_postgres`` does the same for the tests' PostgreSQL.)"""
import importlib
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Optional

import pytest

UNDER_CI = bool(os.environ.get("CI"))

# A program, and the Debian package that brings it.
DEBIAN: Dict[str, str] = {
    "pypy3": "pypy3", "xboard": "xboard", "xvfb-run": "xvfb", "xdotool": "xdotool", "xclip": "xclip",
    "fairymax": "fairymax", "import": "imagemagick", "convert": "imagemagick",
    "rsvg-convert": "librsvg2-bin", "chromium": "chromium", "chromedriver": "chromium-driver",
    "stockfish": "stockfish", "nginx": "nginx",
}
# A Python module, and the package (pip) that brings it.
PYPI: Dict[str, str] = {
    "aiohttp": "aiohttp", "selenium": "selenium", "chess": "chess", "sunfish": "sunfish --no-deps",
    "dask.distributed": "dask[distributed]", "openskill": "openskill", "psycopg": "psycopg[binary]",
}
# Names that stand for several.
GROUPS: Dict[str, List[str]] = {"browser": ["selenium", "chromium", "chromedriver"]}


def find_program(name: str) -> Optional[str]:
    """The program's path: on PATH, or where Debian puts games and daemons (``/usr/games``,
    ``/usr/sbin``), which a user's PATH may lack."""
    found = shutil.which(name)
    if found:
        return found
    for folder in ("/usr/games", "/usr/local/games", "/usr/sbin"):
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


def _present(name: str) -> bool:
    if name in PYPI:
        try:
            importlib.import_module(name)
        except ImportError:
            return False
        return True
    if name in DEBIAN:
        return find_program(name) is not None
    raise ValueError(f"needs: unknown tool {name!r}; known: {', '.join(sorted(DEBIAN) + sorted(PYPI))}")


def missing(*names: str) -> List[str]:
    """The tools among ``names`` (groups expanded) this machine lacks."""
    wanted: List[str] = []
    for name in names:
        wanted.extend(GROUPS.get(name, [name]))
    return [name for name in wanted if not _present(name)]


def _explain(lacking: List[str]) -> str:
    debian = sorted({DEBIAN[n] for n in lacking if n in DEBIAN})
    pypi = sorted({PYPI[n] for n in lacking if n in PYPI})
    parts = []
    if debian:
        parts.append("apt-get install " + " ".join(debian))
    if pypi:
        parts.append("pip install " + " ".join(pypi))
    return f"needs {', '.join(lacking)} ({'; '.join(parts)})"


def need(*names: str, module_level: bool = False) -> None:
    """Go on only with every tool named: skip the test without one (fail it under CI)."""
    lacking = missing(*names)
    if not lacking:
        return
    if UNDER_CI:
        pytest.fail(f"CI must run this test: {_explain(lacking)}", pytrace=False)
    pytest.skip(_explain(lacking), allow_module_level=module_level)


def need_module(name: str) -> ModuleType:
    """``importorskip`` that fails under CI: the module, imported."""
    need(name, module_level=True)
    return importlib.import_module(name)


def needs(*names: str) -> pytest.MarkDecorator:
    """A mark: the test runs only with every tool named (checked as it starts, by conftest.py)."""
    missing(*names)                     # an unknown name is an error at once, not at run time
    return pytest.mark.needs(*names)
