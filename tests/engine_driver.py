"""Drive the real engine process (``python -m xboard_engine``) through pexpect in the tests."""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import List, Optional, Tuple

import pexpect

ROOT = Path(__file__).resolve().parent.parent
CACHE = tempfile.mkdtemp(prefix="engine-tests-cache-")    # not the user's ~/.cache
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)  # each test process made one and left it


class EngineProcess:
    """A running engine with helpers to send lines and wait for answers."""

    def __init__(self, timeout: float = 15, args: Optional[List[str]] = None,
                 python: str = sys.executable, env: Optional[dict] = None) -> None:
        env = dict(env or os.environ, PYTHONPATH=str(ROOT))
        env.setdefault("XDG_CACHE_HOME", CACHE)     # the engine writes position.fen there
        self.child = pexpect.spawn(python, ["-m", "xboard_engine"] + (args or []),
                                   cwd=str(ROOT), env=env, encoding="utf-8", timeout=timeout,
                                   echo=False)
        self.child.delaybeforesend = None
        self._ping = 0

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def expect(self, pattern: str, timeout: Optional[float] = None) -> "re.Match":
        self.child.expect(pattern, timeout=timeout if timeout is not None else -1)
        return self.child.match

    def sync(self, timeout: Optional[float] = None) -> str:
        """Send a ping and return everything the engine wrote before the pong."""
        self._ping += 1
        self.send(f"ping {self._ping}")
        self.child.expect(rf"pong {self._ping}\r?\n", timeout=timeout if timeout is not None else -1)
        return self.child.before

    def lines(self, text: str) -> List[str]:
        return [line.strip() for line in text.splitlines() if line.strip()]

    def fen(self) -> str:
        self.send("d")
        return self.expect(r"fen ([^\r\n]+)\r?\nvariant [^\r\n]*\r?\n").group(1)

    def setup(self, variant: str = "normal", fen: Optional[str] = None) -> None:
        """new, variant, force mode, optional setboard."""
        self.send("new")
        if variant != "normal":
            self.send(f"variant {variant}")
        self.send("force")
        if fen:
            self.send(f"setboard {fen}")
        self.sync()

    def engine_move(self, timeout: float = 20) -> str:
        return self.expect(r"(?m)^move (\S+)\r?\n", timeout=timeout).group(1)

    def timed_move(self, timeout: float = 20) -> (str, float):
        start = time.monotonic()
        move = self.engine_move(timeout)
        return move, time.monotonic() - start

    def close(self) -> int:
        if self.child.isalive():
            self.send("quit")
            self.child.expect(pexpect.EOF, timeout=10)
        self.child.wait()
        self.child.close()
        return self.child.exitstatus


def run_then_quit(lines: List[bytes], sync: bytes, answer: str, wanted: int = 1, timeout: float = 600,
                  python: str = sys.executable) -> Tuple[str, str, int, float]:
    """Start the engine, write ``lines`` and then ``sync``, read its output until the line ``answer``
    has come ``wanted`` times, then send ``quit``.  Returns (everything written to standard output,
    standard error, exit code, seconds from writing ``quit`` to the process's end)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([python, "-m", "xboard_engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=str(ROOT), env=env)
    errors: List[bytes] = []
    drain = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    drain.start()
    writer = threading.Thread(target=lambda: (proc.stdin.write(b"".join(line + b"\n" for line in lines + [sync])),
                                              proc.stdin.flush()), daemon=True)
    writer.start()
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    out = []
    try:
        for raw in proc.stdout:
            out.append(raw)
            if raw.decode("utf-8", "replace").strip() == answer:
                wanted -= 1
                if not wanted:
                    break
        writer.join()
        sent = time.perf_counter()
        proc.stdin.write(b"quit\n")
        proc.stdin.flush()
        out.append(proc.stdout.read())
        code = proc.wait()
        seconds = time.perf_counter() - sent
    finally:
        killer.cancel()
        proc.kill()
    drain.join(5)
    return (b"".join(out).decode("utf-8", "replace"), b"".join(errors).decode("utf-8", "replace"), code,
            seconds)


def told(line: str) -> Optional[Tuple[str, str]]:
    """A `telluser` or `tellusererror` line as (command, text as XBoard 4.9.1 shows it, its lines
    joined by newlines): after a leading double backslash XBoard expands ``\\n`` and ``\\\\``
    (backend.c, EscapeExpand); None for any other line."""
    command, _, text = line.partition(" ")
    if command not in ("telluser", "tellusererror"):
        return None
    if text.startswith("\\\\"):
        text = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)), text[2:])
    return command, text
