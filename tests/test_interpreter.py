"""The engine moves itself to PyPy where it is installed (xboard_engine/engine/interpreter.py): the real
engine process, started as users start it, with PATH, the switch and the environment variable set
as a user would, and fake interpreters (scripts first on PATH) where PyPy must be missing or broken.

The engines here run without the JIT warm-up (XBOARD_ENGINE_WARMUP=0), which the choice of the
interpreter does not touch, and outside the checkout (the package comes from PYTHONPATH)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from needs import needs

from xboard_engine import __version__
from xboard_engine.engine.interpreter import ENV, REEXEC_MARK
from xboard_engine.search.runtime import interpreter_name

ROOT = Path(__file__).resolve().parent.parent
PYPY = shutil.which("pypy3")
needs_pypy = needs("pypy3")
pytestmark = [pytest.mark.skipif(os.name != "posix", reason="the engine re-execs itself on POSIX only"),
              pytest.mark.skipif(sys.implementation.name == "pypy",
                                 reason="the tests run under PyPy: the engine stays there, there is "
                                        "no other interpreter to tell it from")]
HERE = interpreter_name()                       # e.g. "CPython 3.11.7": the tests' own interpreter
PYPY_NAME = r"PyPy \d+\.\d+\.\d+"
UCI_NAME = r"(?m)^id name xboard-variant-engine " + re.escape(__version__) + r" \((.+)\)$"
CECP_NAME = r'feature myname="xboard-variant-engine ' + re.escape(__version__) + r' \((.+?)\)"'


def environment(tmp_path: Path, path: Optional[str] = None, **settings: str) -> Dict[str, str]:
    """The tests' environment without tests/conftest.py's pin, plus ``settings``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), XBOARD_ENGINE_WARMUP="0", XDG_CACHE_HOME=str(tmp_path))
    env.pop(ENV, None)
    env.pop(REEXEC_MARK, None)
    if path is not None:
        env["PATH"] = path
    env.update(settings)
    return env


def run(tmp_path: Path, args: List[str] = (), env: Optional[Dict[str, str]] = None,
        commands: str = "uci\nquit\n", program: Optional[List[str]] = None) -> Tuple[str, str, int]:
    """Run the engine to the end of ``commands``: (standard output, standard error, exit code)."""
    done = subprocess.run((program or [sys.executable, "-m", "xboard_engine"]) + list(args), input=commands,
                          capture_output=True, text=True, timeout=120, cwd=str(tmp_path),
                          env=env if env is not None else environment(tmp_path))
    return done.stdout, done.stderr, done.returncode


def uci_name(out: str) -> str:
    found = re.search(UCI_NAME, out)
    assert found, out
    return found.group(1)


def fake(directory: Path, name: str, script: str) -> Path:
    """An executable shell script ``directory/name``."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)
    return path


def counting(directory: Path, name: str, real: str) -> Tuple[Path, Path]:
    """A wrapper ``directory/name`` that notes each start in a file, then execs ``real``:
    (the wrapper, the file)."""
    starts = directory / f"{name}.starts"
    return fake(directory, name, f'echo started >> "{starts}"\nexec "{real}" "$@"'), starts


def started(starts: Path) -> int:
    return len(starts.read_text().split()) if starts.exists() else 0


# ---------------------------------------------------------------------- auto: PyPy where installed
@needs_pypy
def test_auto_runs_the_engine_under_pypy_in_the_same_process(tmp_path):
    """`python -m xboard_engine` becomes PyPy: the same process (exec, so the GUI's pipes stay the
    engine's), named so in UCI; `quit` ends it with exit code 0."""
    env = environment(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "xboard_engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(tmp_path),
                            env=env)
    try:
        proc.stdin.write("uci\n")
        proc.stdin.flush()
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.strip() == "uciok":
                break
        assert re.fullmatch(PYPY_NAME, uci_name("".join(lines)))
        if os.path.exists(f"/proc/{proc.pid}/exe"):
            assert os.path.realpath(f"/proc/{proc.pid}/exe") == os.path.realpath(PYPY)
        proc.stdin.write("isready\nquit\n")
        proc.stdin.flush()
        assert proc.stdout.read().split() == ["readyok"]
        assert proc.wait(timeout=30) == 0
        assert proc.stderr.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@needs_pypy
def test_auto_names_pypy_in_cecp_and_in_the_version(tmp_path):
    out, err, code = run(tmp_path, commands="xboard\nprotover 2\nquit\n")
    assert re.fullmatch(PYPY_NAME, re.search(CECP_NAME, out).group(1)), out
    assert (err, code) == ("", 0)
    out, err, code = run(tmp_path, ["--version"], commands="")
    assert re.match(rf"xboard-engine {re.escape(__version__)} under {PYPY_NAME} \(variants: ", out), out
    assert (err, code) == ("", 0)


@needs_pypy
def test_the_installed_command_from_another_directory_runs_under_pypy(tmp_path):
    """As the console script `xboard-engine` starts it (a script outside the package), in a working
    directory holding a file named as a standard module: PyPy takes the package from PYTHONPATH and
    the module from its library, not from the working directory."""
    script = tmp_path / "bin" / "xboard-engine"
    script.parent.mkdir()
    script.write_text("import sys\nfrom xboard_engine.cli import main\nsys.exit(main())\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "random.py").write_text("raise SystemExit('the working directory shadowed the library')\n")
    done = subprocess.run([sys.executable, str(script)], input="uci\nquit\n", capture_output=True, text=True,
                          timeout=120, cwd=str(work), env=environment(tmp_path))
    assert re.fullmatch(PYPY_NAME, uci_name(done.stdout))
    assert (done.stderr, done.returncode) == ("", 0)


# ---------------------------------------------------------------------- choosing
@pytest.mark.parametrize("args,setting", [
    (["--interpreter", "current"], None),
    ([], "current"),
    (["--interpreter", "current"], "pypy"),                 # the switch wins over the variable
    (["--interpreter", sys.executable], None),              # the current one by its path
    ([], "Current"),                                        # the words in any case
])
def test_switch_and_environment_keep_the_current_interpreter(tmp_path, args, setting):
    env = environment(tmp_path, **({ENV: setting} if setting else {}))
    out, err, code = run(tmp_path, args, env)
    assert uci_name(out) == HERE
    assert (err, code) == ("", 0)


@needs_pypy
@pytest.mark.parametrize("args,setting", [
    ([], "pypy"),
    (["--interpreter", "pypy"], "current"),                 # the switch wins over the variable
    ([], PYPY),                                             # a path
    (["--interpreter", "pypy3"], None),                     # a name on PATH
])
def test_switch_and_environment_choose_pypy(tmp_path, args, setting):
    env = environment(tmp_path, **({ENV: setting} if setting else {}))
    out, err, code = run(tmp_path, args, env)
    assert re.fullmatch(PYPY_NAME, uci_name(out))
    assert (err, code) == ("", 0)


def test_another_interpreter_by_path_runs_the_engine(tmp_path):
    """A path that is not this interpreter's (a wrapper script around it): the engine re-execs under
    it, once, and the re-exec'ed engine does not re-exec again although the wrapper's path is not
    its sys.executable (REEXEC_MARK); the wrapper starts twice: the check, then the engine."""
    wrapper, starts = counting(tmp_path / "bin", "python-wrapper", sys.executable)
    out, err, code = run(tmp_path, ["--interpreter", str(wrapper)])
    assert uci_name(out) == HERE
    assert (err, code) == ("", 0)
    assert started(starts) == 2


# ---------------------------------------------------------------------- PyPy missing or broken
def test_auto_without_pypy_stays_silently(tmp_path):
    out, err, code = run(tmp_path, env=environment(tmp_path, path=str(tmp_path / "empty")))
    assert uci_name(out) == HERE
    assert (err, code) == ("", 0)


BROKEN = {
    "exits 1": "exit 1",
    "prints nothing": "exit 0",
    "is too old": 'echo "pypy 3 8"',
    "is not PyPy": f'exec "{sys.executable}" "$@"',
}


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_auto_with_a_broken_pypy_falls_back_silently(tmp_path, how):
    """A `pypy3` first on PATH that does not work: the engine runs where it started, says nothing
    about it, and answers both protocols."""
    fake(tmp_path / "bin", "pypy3", BROKEN[how])
    env = environment(tmp_path, path=f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    out, err, code = run(tmp_path, env=env)
    assert uci_name(out) == HERE
    assert (err, code) == ("", 0)
    out, err, code = run(tmp_path, env=env, commands="xboard\nprotover 2\nping 7\nquit\n")
    assert re.search(CECP_NAME, out).group(1) == HERE
    assert out.split("\n")[-2:] == ["pong 7", ""]
    assert (err, code) == ("", 0)


@needs_pypy
def test_auto_with_a_pypy_that_cannot_import_the_engine_goes_back(tmp_path):
    """PyPy starts and passes the check but cannot import the package (-I: PYTHONPATH ignored):
    after the exec it execs back into the interpreter that started the engine, silently."""
    fake(tmp_path / "bin", "pypy3", f'exec "{PYPY}" -I "$@"')
    env = environment(tmp_path, path=f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    out, err, code = run(tmp_path, env=env)
    assert uci_name(out) == HERE
    assert (err, code) == ("", 0)
    out, err, code = run(tmp_path, ["--interpreter", "pypy"], env=env)
    assert (out, code) == ("", 2)
    assert re.fullmatch(r"xboard-engine: .*pypy3 cannot run the engine: "
                        r"ModuleNotFoundError: .*xboard_engine.*\n", err)


@pytest.mark.parametrize("how", ["missing"] + sorted(BROKEN))
@pytest.mark.parametrize("by", ["switch", "environment"])
def test_asking_for_pypy_where_it_does_not_work_is_an_error(tmp_path, how, by):
    """Asked for by name, PyPy must run the engine: where it cannot, the engine says why on standard
    error and exits with code 2 without answering."""
    if how == "missing":
        path = str(tmp_path / "empty")
    else:
        fake(tmp_path / "bin", "pypy3", BROKEN[how])
        path = f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"
    args = ["--interpreter", "pypy"] if by == "switch" else []
    env = environment(tmp_path, path=path, **({ENV: "pypy"} if by == "environment" else {}))
    out, err, code = run(tmp_path, args, env)
    assert (out, code) == ("", 2)
    source = "--interpreter" if by == "switch" else ENV
    reason = {"missing": "no pypy3 on PATH", "exits 1": r"\S+ does not start \(exit code 1\)",
              "prints nothing": r"\S+ does not run Python code",
              "is too old": r"\S+ is Python 3\.8; the engine needs 3\.9 or later",
              "is not PyPy": r"\S+ is not PyPy but cpython"}[how]
    assert re.fullmatch(rf"xboard-engine: {re.escape(source)} pypy: {reason}\n", err), err


def test_an_unknown_interpreter_is_an_error(tmp_path):
    out, err, code = run(tmp_path, ["--interpreter", "no-such-python"])
    assert (out, code) == ("", 2)
    assert err.startswith("xboard-engine: --interpreter no-such-python: no such interpreter")


# ---------------------------------------------------------------------- when it stays
@needs_pypy
def test_under_pypy_already_nothing_is_started(tmp_path):
    """`pypy3 -m xboard_engine` (as match runners start it) neither checks nor re-execs: a
    counting `pypy3` first on PATH is never started."""
    wrapper, starts = counting(tmp_path / "bin", "pypy3", PYPY)
    env = environment(tmp_path, path=f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    out, err, code = run(tmp_path, env=env, program=[PYPY, "-m", "xboard_engine"])
    assert re.fullmatch(PYPY_NAME, uci_name(out))
    assert (err, code) == ("", 0)
    assert started(starts) == 0


def test_subcommands_keep_their_interpreter(tmp_path):
    """`play` (here --print) runs where it started, with a counting `pypy3` first on PATH never
    started; the engine command it gives XBoard is this interpreter's, which then chooses, and
    carries play's --interpreter."""
    wrapper, starts = counting(tmp_path / "bin", "pypy3", PYPY or sys.executable)
    env = environment(tmp_path, path=f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    command = f"{sys.executable} -m xboard_engine"
    for extra, engine in (([], command),
                          (["--interpreter", "current"], f"{command} --interpreter current")):
        out, err, code = run(tmp_path, ["play", "8piece", "--print", "--xboard", "/opt/xb"] + extra, env,
                             commands="")
        assert (err, code) == ("", 0)
        words = shlex.split(out)
        assert words[words.index("-fcp") + 1] == engine
    assert started(starts) == 0


def test_the_suite_pins_the_engines_to_its_interpreter():
    """tests/conftest.py: the other tests' engines run where the tests run (they measure it)."""
    assert os.environ.get(ENV) == "current"
