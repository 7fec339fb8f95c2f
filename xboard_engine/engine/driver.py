"""The worker thread both protocol layers think in: one search or long command (``perft``,
``bench``, ``hint``) at a time, so that the command loop answers ``ping``/``isready``, ``stop``,
``?`` and the rest while it works.

A protocol layer starts work with ``start`` (a search: ``search`` inside it) or ``start_job`` (a long
command), and ends it with ``stop``: ``stop(discard=True)`` also throws a finished search's result
away (the GUI changed the position), which ``deliver`` then does not hand on.  ``hold`` keeps a
finished search's answer back until ``release`` (UCI's ``go infinite`` and ``go ponder`` answer only
after ``stop`` or ``ponderhit``).  After ``halt`` (``quit`` read) every search and job stops at once.
"""
import threading
from typing import Any, Callable, Optional, TypeVar

from ..core.errors import SearchStopped
from ..core.moves import Move
from ..core.position import Position
from ..search.searcher import Info, Limits, Result
from ..search.parallel.smp import ParallelSearcher

T = TypeVar("T")


class Job:
    """The stop token of a long command (perft, bench) that the command loop may stop from its own
    thread: ``stop()`` sets ``stopped`` and stops the search the job is running, if any; ``check()``
    raises ``SearchStopped`` once it is stopped (``search.bench.StopToken``)."""

    def __init__(self) -> None:
        self.stopped = False
        self.searcher: Optional[Any] = None

    def stop(self) -> None:
        self.stopped = True
        searcher = self.searcher
        if searcher is not None:
            searcher.stop()

    def check(self) -> None:
        if self.stopped:
            raise SearchStopped


class SearchDriver:
    """Runs work in one worker thread; ``log_error`` records an internal error (with its traceback,
    called from within the ``except`` block)."""

    def __init__(self, log_error: Callable[[], None]) -> None:
        self.searcher = ParallelSearcher()
        self.log_error = log_error
        self.lock = threading.Lock()         # held while a result is delivered (``deliver``)
        self.mode = ""                       # what runs: "" or the name given to ``start``
        self.halted = False
        self._worker: Optional[threading.Thread] = None
        self._job: Optional[Job] = None      # the running long command
        self._discard = False
        self._held = threading.Condition()
        self._hold = False

    def busy(self) -> bool:
        worker = self._worker
        return worker is not None and worker.is_alive()

    # ------------------------------------------------------------------ starting
    def start(self, mode: str, work: Callable[[], None], hold: bool = False, job: Optional[Job] = None) -> None:
        """End what runs (discarding it), then run ``work()`` in the worker thread (``job``: the long
        command it is, stopped through it)."""
        self.stop(discard=True)
        self._discard = False
        self.searcher.stop_requested = self.halted
        with self._held:
            self._hold = hold and not self.halted
        self.mode = mode
        self._job = job
        if job is not None and self.halted:
            job.stop()
        self._worker = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._worker.start()

    def start_job(self, name: str, run: Callable[[Job], None]) -> None:
        """Run a long command ``run(job)``; ``stop`` and ``interrupt`` end it through ``job``."""
        job = Job()
        job.searcher = self.searcher
        self.start(name, lambda: run(job), job=job)

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception:
            self.log_error()

    # ------------------------------------------------------------------ inside the worker
    def search(self, pos: Position, limits: Limits, on_info: Optional[Callable[[Info], None]] = None,
               on_currmove: Optional[Callable[[int, Move, int], None]] = None) -> Result:
        """Search ``pos`` (worker thread).  A search that fails is logged and answered with the first
        legal move: the engine must still move, and legally."""
        try:
            return self.searcher.search(pos, limits, on_info=on_info, on_currmove=on_currmove)
        except Exception:
            self.log_error()
            legal = pos.legal_moves()
            return Result(legal[0] if legal else None, 0, 0, 0, [])

    def deliver(self, hand_on: Callable[[], T]) -> Optional[T]:
        """Worker thread, after a search: wait while it is held, then ``hand_on()`` under ``lock``
        unless the result was discarded meanwhile (None then)."""
        with self._held:
            while self._hold:
                self._held.wait()
        with self.lock:
            if self._discard:
                return None
            return hand_on()

    # ------------------------------------------------------------------ control (command loop)
    def stop(self, discard: bool = True) -> None:
        """End what runs and wait for the worker; with ``discard`` its result is not delivered."""
        worker = self._worker
        if worker is None:
            return
        with self.lock:
            if discard:
                self._discard = True
        self.interrupt()
        worker.join()
        self._worker = None
        self._job = None
        self.mode = ""

    def wait(self) -> None:
        """Wait for what runs to end by itself."""
        worker = self._worker
        if worker is not None:
            worker.join()

    def interrupt(self) -> None:
        """Ask what runs to end soon and release a held answer (any thread; does not wait)."""
        job = self._job
        if job is not None:
            job.stop()
        self.searcher.stop()
        self.release()

    def release(self) -> None:
        """Let a held search answer (``ponderhit``, ``stop``)."""
        with self._held:
            self._hold = False
            self._held.notify_all()

    def halt(self) -> None:
        """``quit`` was read (reader thread): stop what runs, and whatever starts from now on."""
        self.halted = True
        self.interrupt()

    def running_job(self) -> bool:
        """Whether a long command (not a search) runs."""
        return self._job is not None and self.busy()
