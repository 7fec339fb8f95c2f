"""Which Python runs the engine: PyPy, the fast path, wherever it is installed.

The engine (``xboard-engine`` or ``python -m xboard_engine`` without a subcommand) searches 1.8 to
3.3 times the nodes a second under PyPy (docs/ENGINE.md, "Which Python runs it").  So under CPython it replaces
itself (``os.execve``: the same process, the same standard input and output, so a GUI's pipes and
ping latency are unchanged) with ``pypy3`` from PATH running the same command line, as sunfish does.
The choice, from ``--interpreter`` or else the environment variable ``XBOARD_ENGINE_INTERPRETER``
(``--interpreter`` wins):

- ``auto`` (the default): ``pypy3`` if it is on PATH and works, else the interpreter that started
  the engine, without a word;
- ``pypy``: ``pypy3`` from PATH; where it is missing or does not work, an error on standard error
  and exit code 2 (the user asked for it: they should hear that they do not get it);
- ``current``: the interpreter that started the engine (no re-exec);
- anything else: an interpreter, by path or by name on PATH (``/opt/pypy/bin/pypy3``,
  ``python3.11``), errors as for ``pypy``.

"Works" is checked in two steps, so that a broken PyPy costs the engine nothing but the time to find
out.  Before the exec, the interpreter is started once with a one-line program (``PROBE``, about
20 ms for PyPy) that must print its implementation and a version of at least 3.9 within
``PROBE_TIMEOUT`` seconds: that catches a missing library, a wrong version, a script that fails.
After the exec, PyPy first imports the engine's modules (``BOOT``, run with ``-c``); if that fails
(a module PyPy cannot compile, a package it cannot find), it execs back into the interpreter that
started it (under ``auto``) or reports the error and exits with code 2.  The package reaches the new
interpreter through PYTHONPATH (its root first, as for the Lazy SMP helpers, smp.py); the original
PYTHONPATH is put back in the environment once the modules are imported, so that processes the
engine starts see what the user set.  (Installed by pip, the root is the installing Python's
site-packages, whose other modules PyPy then sees too, ahead of its own library; the engine imports
nothing but the standard library and itself.)

The re-exec'ed process carries ``REEXEC_MARK`` in its environment and never re-execs again (no
loop, even through a wrapper script whose ``sys.executable`` differs from its path); it removes the
mark before it serves.  Under PyPy already, ``auto`` and ``pypy`` stay.  On Windows ``os.execv``
starts a new process and ends the old one, which breaks a GUI's pipes: there the engine does not
re-exec (``auto`` stays; ``pypy`` or a path is an error: start it with that interpreter instead,
``pypy3 -m xboard_engine``).
"""
import os
import shutil
import subprocess
import sys
from typing import List, Optional

from ..paths import IMPORT_ROOT

ENV = "XBOARD_ENGINE_INTERPRETER"
REEXEC_MARK = "XBOARD_ENGINE_REEXEC_FROM"      # holds the interpreter that re-exec'ed the engine
KEYWORDS = ("auto", "pypy", "current")
PYPY_COMMAND = "pypy3"
MIN_VERSION = (3, 9)                            # pyproject.toml's requires-python
PROBE_TIMEOUT = 5.0                             # seconds; PyPy answers PROBE in about 0.02 s
PROBE = "import sys; v = sys.version_info; print(sys.implementation.name, v[0], v[1])"

# Run by the new interpreter: import the engine, else go back (or say why not).  It comes in the
# environment (BOOT_ENV), which START takes it from, so that the command line stays one line in `ps`.
# The first entry of sys.path, the working directory under -c, goes: the package comes from
# PYTHONPATH, and a file in the GUI's working directory must not stand in for a standard module.
BOOT_ENV = "XBOARD_ENGINE_BOOT"
START = f"import os; exec(os.environ.pop({BOOT_ENV!r}))"
BOOT = """import os, sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
python, pythonpath, fall_back = %r
if pythonpath is None:
    os.environ.pop("PYTHONPATH", None)
else:
    os.environ["PYTHONPATH"] = pythonpath
try:
    from xboard_engine import cli
    from xboard_engine.engine import uci
    from xboard_engine.engine.cecp import protocol
except Exception as error:
    if fall_back:
        try:
            os.execv(python, [python, "-m", "xboard_engine"] + sys.argv[1:])
        except OSError:
            pass
    sys.stderr.write("xboard-engine: %%s cannot run the engine: %%s: %%s\\n"
                     %% (sys.executable, type(error).__name__, error))
    sys.exit(2)
sys.exit(cli.main())
"""


class InterpreterError(Exception):
    """The interpreter asked for by name (not ``auto``) cannot run the engine."""


def choose(switch: Optional[str]) -> Optional[str]:
    """The interpreter to re-exec under, or None to stay in this one.  ``switch``: the value of
    --interpreter (None: not given).  Raises InterpreterError where an explicit choice fails."""
    if REEXEC_MARK in os.environ:                # re-exec'ed already (or come back): stay
        del os.environ[REEXEC_MARK]
        return None
    source = "--interpreter"
    choice = switch
    if not choice:
        source = ENV
        choice = os.environ.get(ENV, "").strip() or "auto"
    if choice.lower() in KEYWORDS:
        choice = choice.lower()
    if choice == "current" or not sys.executable:    # (an embedded Python: nothing to come back to)
        return None
    if choice in ("auto", "pypy"):
        if sys.implementation.name == "pypy":
            return None
        explicit = choice == "pypy"
        if os.name == "nt":
            if explicit:
                raise InterpreterError(f"{source} pypy: the engine does not restart itself on Windows; "
                                       f"start it with PyPy instead: pypy3 -m xboard_engine")
            return None
        path = shutil.which(PYPY_COMMAND)
        if path is None:
            if explicit:
                raise InterpreterError(f"{source} pypy: no {PYPY_COMMAND} on PATH")
            return None
        problem = check(path, want_pypy=True)
        if problem:
            if explicit:
                raise InterpreterError(f"{source} pypy: {problem}")
            return None
        return path
    path = shutil.which(choice)
    if path is None:
        raise InterpreterError(f"{source} {choice}: no such interpreter (give {', '.join(KEYWORDS)}, "
                               f"or an interpreter's path or name on PATH)")
    path = os.path.abspath(path)
    if os.path.realpath(path) == os.path.realpath(sys.executable):
        return None
    if os.name == "nt":
        raise InterpreterError(f"{source} {choice}: the engine does not restart itself on Windows; "
                               f"start it with that interpreter instead: {choice} -m xboard_engine")
    problem = check(path, want_pypy=False)
    if problem:
        raise InterpreterError(f"{source} {choice}: {problem}")
    return path


def check(path: str, want_pypy: bool) -> Optional[str]:
    """What keeps the interpreter at ``path`` from running the engine (None: nothing seen): it must
    start, be Python MIN_VERSION or later, and PyPy if ``want_pypy``."""
    try:
        done = subprocess.run([path, "-c", PROBE], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, timeout=PROBE_TIMEOUT, universal_newlines=True)
    except subprocess.TimeoutExpired:
        return f"{path} did not start within {PROBE_TIMEOUT:g} s"
    except (OSError, ValueError) as error:
        return f"{path} does not start: {error}"
    if done.returncode != 0:
        return f"{path} does not start (exit code {done.returncode})"
    words = done.stdout.split()
    if len(words) != 3 or not (words[1] + words[2]).isdigit():
        return f"{path} does not run Python code"
    name, version = words[0], (int(words[1]), int(words[2]))
    if want_pypy and name != "pypy":
        return f"{path} is not PyPy but {name}"
    if version < MIN_VERSION:
        return (f"{path} is Python {version[0]}.{version[1]}; the engine needs "
                f"{MIN_VERSION[0]}.{MIN_VERSION[1]} or later")
    return None


def reexec(path: str, argv: List[str], fall_back: bool) -> Optional[str]:
    """Replace this process by the engine under ``path`` with the arguments ``argv``.  Returns only
    if the exec fails, with the reason.  ``fall_back``: if the new interpreter cannot import the
    engine, it execs back into this one instead of failing."""
    package_root = IMPORT_ROOT
    env = dict(os.environ)
    pythonpath = env.get("PYTHONPATH")
    env["PYTHONPATH"] = package_root + (os.pathsep + pythonpath if pythonpath else "")
    env[REEXEC_MARK] = sys.executable
    env[BOOT_ENV] = BOOT % ((sys.executable, pythonpath, fall_back),)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(path, [path, "-c", START] + list(argv), env)
    except OSError as error:
        return f"{path} does not start: {error}"
    return None                                 # not reached


def run_under_chosen(switch: Optional[str], argv: List[str]) -> None:
    """Re-exec the engine (command-line arguments ``argv``) under the chosen interpreter, or return to
    run it in this one.  Raises InterpreterError where an explicit choice cannot be honoured."""
    path = choose(switch)
    if path is None:
        return
    explicit = (switch or os.environ.get(ENV, "").strip() or "auto").lower() != "auto"
    problem = reexec(path, argv, fall_back=not explicit)
    if problem and explicit:
        raise InterpreterError(problem)
