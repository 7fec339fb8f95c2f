"""The line channel both protocol layers (CECP ``cecp.py``, UCI ``uci.py``) talk through.

A reader thread takes standard input line by line and stamps each line with its arrival time (the
clock of a search counts from it).  Three kinds of line never wait behind other work:

- ``quit`` ends the process within ``QUIT_GRACE`` seconds (of the command loop's start, for a
  script piped in at once): the reader thread stops the running search or long command at once
  (``on_quit``), the command loop executes what was read before ``quit`` as far as that time allows
  (starting no long work: a search stops at once with the move it has, a perft or bench is
  stopped) and then exits, and if it has not exited by then the reader thread ends the process;
- the synchronisation command (UCI ``isready``, CECP ``ping``) is answered by the reader thread as
  soon as it is read when every command read before it has been executed, as both protocols define
  it (the GUI waits for the answer to know its earlier commands are done, and reads their output
  before it); otherwise it waits its turn behind them (and also while the search's helper
  processes, just started, are still warming up: the command loop answers once they are);
- everything else is queued for the command loop, which executes commands in order and hands long
  work (searches, perft, bench, clearing the hash table) to a worker thread, so that no command
  keeps it busy for more than a few milliseconds and the answer never waits for a search.

Output lines are written whole under a lock and flushed at once; with a log file the whole dialogue
is recorded with timestamps.
"""
import os
import queue
import sys
import threading
import time
import traceback
from typing import IO, Callable, List, Optional, Tuple

MAX_LINE = 1 << 16
OVERLONG = "\x00overlong"          # stands for an input line longer than MAX_LINE (dropped)
QUIT_GRACE = 0.04                  # seconds the command loop gets to finish after `quit`
STARTUP_WAIT = 10.0                # seconds `quit` waits for the command loop to start

Line = Optional[Tuple[str, float]]  # (text, perf_counter at arrival); None: end of input


class Channel:
    """Standard input and output of one engine process.

    ``sync_word``/``sync_answer``: the command the reader thread answers itself and its answer
    (``"isready"``, ``lambda arg: "readyok"``); ``on_quit``: called in the reader thread at ``quit``
    (it should stop the worker).
    """

    def __init__(self, out: IO[str] = sys.stdout, log: Optional[IO[str]] = None) -> None:
        self.out = out
        self.log_file = log
        self.lock = threading.Lock()
        self._lines: "queue.Queue[Line]" = queue.Queue()
        self._ahead: list = []              # lines taken from the queue by peek() and not yet read
        self._reader: Optional[threading.Thread] = None
        self.sync_word: Optional[str] = None
        self.sync_answer: Callable[[str], str] = lambda arg: ""
        # False while the command loop must answer the synchronisation command itself (it waits
        # for the search's helper processes to warm up first)
        self.sync_ready: Callable[[], bool] = lambda: True
        self.on_quit: Callable[[], None] = lambda: None   # called in the reader thread at `quit`
        self.quitting = threading.Event()
        self._serving = threading.Event()   # the command loop has started
        self._count_lock = threading.Lock()
        self._pending = 0                   # lines queued and not yet fully executed

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        self.send_lines([line])

    def send_lines(self, lines: List[str]) -> None:
        """Write ``lines`` in one piece: no other thread's output comes between them."""
        with self.lock:
            try:
                self.out.write("".join(line + "\n" for line in lines))
                self.out.flush()
            except (OSError, ValueError):      # the GUI closed its end: nobody is listening
                self.log("!", "standard output is closed; exiting")
                os._exit(0)
            for line in lines:
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
        """The next input line and its arrival time; None at end of input or at ``quit`` (and ever
        after)."""
        item = self._ahead.pop(0) if self._ahead else self._lines.get()
        if item is None:
            self._ahead.insert(0, None)
            return None
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
        """Call ``handle(line, arrival)`` for each input line until it returns False, input ends or
        ``quit`` is read.  An exception in a handler is logged and answered with
        ``error_line(line)`` (no traceback on standard output, no exit)."""
        self._serving.set()
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
            finally:
                with self._count_lock:
                    self._pending -= 1
            time.sleep(0)       # let the reader thread in: PyPy gives a thread that releases and
                                # retakes the interpreter (to write a line) no reason to wait

    def exit_now(self) -> None:
        """Leave the process at once, after the line being written (if any) is complete."""
        if self.lock.acquire(timeout=0.02):
            try:
                self.out.flush()
            except (OSError, ValueError):
                pass
        os._exit(0)

    def _read(self, stream) -> None:
        try:
            while True:
                raw = stream.readline(MAX_LINE)
                if not raw:
                    break
                arrived = time.perf_counter()
                if len(raw) >= MAX_LINE and not raw.endswith(b"\n"):
                    while True:                       # drop the rest of an over-long line
                        more = stream.readline(MAX_LINE)
                        if not more or more.endswith(b"\n"):
                            break
                    self._queue(OVERLONG, arrived)
                    continue
                text = raw.decode("utf-8", "replace").replace("\x00", "").strip()
                word = _first_word(text)
                if word == "quit":
                    self.log("<", text)
                    self._quit()
                    return
                if word == self.sync_word and self._answer_sync(text):
                    continue
                self._queue(text, arrived)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _queue(self, text: str, arrived: float) -> None:
        with self._count_lock:
            self._pending += 1
        self._lines.put((text, arrived))

    def _answer_sync(self, text: str) -> bool:
        """Answer the synchronisation command here if every command before it has been executed."""
        with self._count_lock:               # only this thread adds lines: none can appear
            if self._pending:
                return False
        if not self.sync_ready():
            return False
        self.log("<", text)
        self.send(self.sync_answer(text.partition(" ")[2].strip()))
        return True

    def _quit(self) -> None:
        self.quitting.set()
        self._lines.put(None)               # the command loop stops there
        try:
            self.on_quit()
        except Exception:
            self.internal_error()
        self._serving.wait(STARTUP_WAIT)    # a script piped in at once: the engine is still starting
        time.sleep(QUIT_GRACE)              # the command loop normally exits the process first
        self.log("!", "quit: the command loop did not finish in time; exiting")
        self.exit_now()


def _first_word(text: str) -> str:
    return text.split(None, 1)[0] if text else ""
