"""The line channel both protocol layers (CECP ``cecp.py``, UCI ``uci.py``) talk through.

A thread reads standard input into a queue, stamping each line with its arrival time (the clock of
a search counts from it), so that the command loop can answer ``ping``/``isready`` while a search runs
in another thread.  Output lines are written whole under a lock and flushed at once; with a log file
the whole dialogue is recorded with timestamps.
"""
import queue
import sys
import threading
import time
import traceback
from typing import IO, Callable, Optional, Tuple

MAX_LINE = 1 << 16
OVERLONG = "\x00overlong"          # stands for an input line longer than MAX_LINE (dropped)

Line = Optional[Tuple[str, float]]  # (text, perf_counter at arrival); None: end of input


class Channel:
    """Standard input and output of one engine process."""

    def __init__(self, out: IO[str] = sys.stdout, log: Optional[IO[str]] = None) -> None:
        self.out = out
        self.log_file = log
        self.lock = threading.Lock()
        self._lines: "queue.Queue[Line]" = queue.Queue()
        self._ahead: "list[Line]" = []      # lines taken from the queue by peek() and not yet read
        self._reader: Optional[threading.Thread] = None

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()
            self.log(">", line)

    def log(self, direction: str, line: str) -> None:
        """Record a line in the log file (``<`` in, ``>`` out, ``!`` an internal event)."""
        if self.log_file:
            now = time.time()
            stamp = time.strftime("%H:%M:%S", time.localtime(now))
            self.log_file.write(f"{stamp}.{int(now * 1000) % 1000:03d} {direction} {line}\n")
            self.log_file.flush()

    def internal_error(self) -> None:
        """Record the exception being handled (log file and standard error; never standard output)."""
        self.log("!", traceback.format_exc().replace("\n", " | "))
        sys.stderr.write(traceback.format_exc())

    # ------------------------------------------------------------------ input
    def start(self, stdin=None) -> None:
        self._reader = threading.Thread(target=self._read, args=(stdin or sys.stdin.buffer,), daemon=True)
        self._reader.start()

    def next_line(self) -> Line:
        """The next input line and its arrival time; None at end of input (and ever after)."""
        item = self._ahead.pop(0) if self._ahead else self._lines.get()
        if item is None:
            self._ahead.insert(0, None)
        else:
            self.log("<", item[0])
        return item

    def peek(self, wait: float) -> Optional[str]:
        """The next input line's text if one arrives within ``wait`` seconds (it stays unread)."""
        if not self._ahead:
            try:
                self._ahead.append(self._lines.get(timeout=wait))
            except queue.Empty:
                return None
        item = self._ahead[0]
        return None if item is None else item[0]

    def serve(self, handle: Callable[[str, float], bool], error_line: Callable[[str], str]) -> None:
        """Call ``handle(line, arrival)`` for each input line until it returns False or input ends.
        An exception in a handler is logged and answered with ``error_line(line)`` (no traceback on
        standard output, no exit)."""
        while True:
            item = self.next_line()
            if item is None:
                return
            try:
                if not handle(*item):
                    return
            except Exception:
                self.internal_error()
                self.send(error_line(item[0]))

    def _read(self, stream) -> None:
        lines = self._lines
        try:
            while True:
                raw = stream.readline(MAX_LINE)
                if not raw:
                    break
                if len(raw) >= MAX_LINE and not raw.endswith(b"\n"):
                    while True:                       # drop the rest of an over-long line
                        more = stream.readline(MAX_LINE)
                        if not more or more.endswith(b"\n"):
                            break
                    lines.put((OVERLONG, time.perf_counter()))
                    continue
                lines.put((raw.decode("utf-8", "replace").replace("\x00", "").strip(), time.perf_counter()))
        except (OSError, ValueError):
            pass
        lines.put(None)
