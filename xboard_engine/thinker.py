"""The worker thread: thinking on the engine's move, pondering, analysing, and the long commands
(``perft``, ``bench``, ``hint``).

One job runs at a time, in a worker thread, so that the command loop answers ``ping``, ``?``, ``.``
and the rest while it works.  ``stop(discard=True)`` ends a job and throws a search's move away (the
GUI changed the position); the worker plays a move into the session only under ``lock`` and only if
it was not discarded meanwhile.
"""
import sys
import threading
import time
import traceback
from typing import Callable, List, Optional, Tuple

from .bench import Job
from .errors import RulesError
from .moves import Move
from .position import Position
from .score import from_search
from .search import Info, Limits
from .smp import ParallelSearcher
from .session import Session


class Thinker:
    """Runs the engine's searches on ``session``; ``send`` writes a protocol line, ``log`` records
    an internal error."""

    def __init__(self, session: Session, send: Callable[[str], None],
                 log: Callable[[str], None]) -> None:
        self.session = session
        self.send = send
        self.log = log
        self.lock = threading.Lock()        # guards the session against the worker's move
        self.searcher = ParallelSearcher()
        self.post = False
        self.ponder = False
        self.random = False
        self.analyzing = False
        self.last_score = 0
        self.mode = ""                      # "", "think", "ponder", "analyze", or a job's name
        self._worker: Optional[threading.Thread] = None
        self._job: Optional[Job] = None     # the running long command (perft, bench, hint)
        self.halted = False                 # after `quit`: every search and job stops at once
        self._discard = False
        self._start_time = 0.0              # perf_counter the thinking time counts from
        self._clock_reported = False
        self._analysis: Tuple[int, int, Optional[Move], float] = (0, 0, None, 0.0)

    # ------------------------------------------------------------------ control
    def stop(self, discard: bool = True) -> None:
        """End the running search (if any) and wait for its thread."""
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
        """Wait for the running search or job to end by itself."""
        worker = self._worker
        if worker is not None:
            worker.join()

    def halt(self) -> None:
        """``quit`` was read (reader thread): stop what runs, and whatever starts from now on."""
        self.halted = True
        self.interrupt()

    def interrupt(self) -> None:
        """Ask the running search or job to end soon (any thread; does not wait)."""
        job = self._job
        if job is not None:
            job.stop()
        self.searcher.stop()

    def start_job(self, name: str, run: Callable[[Job], None]) -> None:
        """Run ``run(job)`` in the worker thread (a long command: perft, bench, hint), stopped like
        a search by ``stop`` and ``move_now``."""
        self.stop(discard=True)
        job = Job()
        job.searcher = self.searcher
        self.searcher.stop_requested = self.halted
        self._job = job
        if self.halted:
            job.stop()
        self.mode = name
        self._worker = threading.Thread(target=self._run_job, args=(run, job), daemon=True)
        self._worker.start()

    def _run_job(self, run: Callable[[Job], None], job: Job) -> None:
        try:
            run(job)
        except Exception:
            self.log(traceback.format_exc().replace("\n", " | "))
            sys.stderr.write(traceback.format_exc())

    def start(self, mode: str, arrived: float) -> None:
        """Start a search in ``mode``; its time counts from ``arrived`` (when the command that
        started it was read) or from the `time` report before it."""
        self.stop(discard=True)
        self._discard = False
        self.searcher.stop_requested = self.halted
        self.mode = mode
        pos = self.session.pos.copy()
        if mode == "think":
            self._start_time, self._clock_reported = self.session.think_start(arrived)
        else:
            self._start_time, self._clock_reported = arrived, False
        self._worker = threading.Thread(target=self._think, args=(mode, pos), daemon=True)
        self._worker.start()

    def maybe_think(self, arrived: float) -> None:
        """After the position changed: analyse, think if it is the engine's move, else ponder."""
        session = self.session
        if self.analyzing:
            self.start("analyze", arrived)
        elif session.engine_to_move():
            self.start("think", arrived)
        elif self.ponder and not session.force and not session.game_over:
            self.start("ponder", arrived)

    def move_now(self) -> None:
        """``?``: play the move found so far; also ends a long command."""
        if self.mode == "think" or self._job is not None:
            self.interrupt()

    def clear(self) -> None:
        self.searcher.clear()

    # ------------------------------------------------------------------ worker
    def _limits(self, mode: str) -> Limits:
        session = self.session
        if mode != "think":
            if mode == "analyze":
                return Limits(exclude=tuple(session.exclude), multipv=int(session.options["MultiPV"]))
            return Limits()
        soft, hard = session.budget()
        nodes = None
        randomize = self.random
        if session.nps:
            nodes = max(1, int(session.nps * hard))
            soft = hard = None
        fixed = int(session.options["Nodes per move"])
        if fixed:
            nodes = fixed if nodes is None else min(nodes, fixed)
            soft = None                   # the clock's hard limit still applies
            randomize = False
        return Limits(soft_time=soft, hard_time=hard, depth=session.sd, nodes=nodes,
                      exclude=session.avoided_moves(), randomize=randomize, start=self._start_time,
                      skill=int(session.options["Skill level"]))

    def _think(self, mode: str, pos: Position) -> None:
        """Worker thread: search; in "think" mode play the move, then ponder if asked to."""
        start, clock_reported = self._start_time, self._clock_reported
        move = self._run_search(mode, pos)
        if mode != "think":
            return
        session = self.session
        with self.lock:
            if self._discard:
                return
            if move is None:
                self._claim()
                return
            text = session.play_engine_move(move, start, time.perf_counter(), clock_reported)
            self.send(f"move {text}")
            self._claim()
            if not (self.ponder and not session.game_over and not session.force):
                return
            self.searcher.stop_requested = self.halted
            self.mode = "ponder"
            pos = session.pos.copy()
        self._run_search("ponder", pos)

    def _claim(self) -> None:
        line = self.session.claim()
        if line:
            self.send(line)

    def _run_search(self, mode: str, pos: Position) -> Optional[Move]:
        def info(i: Info) -> None:
            if i.multipv == 1:
                self.last_score = i.score
                self._analysis = (i.depth, i.nodes, i.pv[0] if i.pv else None, i.seconds)
            if self.post or mode == "analyze":
                self.send(f"{i.depth} {from_search(i.score).cecp()} {int(i.seconds * 100)} {i.nodes} "
                          f"{pv_text(pos, i.pv)}")

        self._analysis = (0, 0, None, 0.0)
        try:
            return self.searcher.search(pos, self._limits(mode), on_info=info).move
        except Exception:                       # the engine must still move, and legally
            self.log(traceback.format_exc().replace("\n", " | "))
            sys.stderr.write(traceback.format_exc())
            legal = pos.legal_moves()
            return legal[0] if legal else None

    # ------------------------------------------------------------------ reports
    def status_line(self) -> Optional[str]:
        """The answer to ``.`` in analyze mode (None outside it)."""
        if not self.analyzing:
            return None
        pos = self.session.pos
        depth, nodes, move, seconds = self._analysis
        legal = [m for m in pos.legal_moves() if m not in self.session.exclude]
        elapsed = int(seconds * 100)
        name = pos.move_text(move) if move is not None and move in legal else "(none)"
        return f"stat01: {elapsed} {nodes} {depth} 0 {len(legal)} {name}"

    def hint(self) -> None:
        """``hint``: a quick search in the worker, answered with ``Hint: MOVE`` (nothing while a
        search runs or without a legal move)."""
        if self._worker is not None and self._worker.is_alive():
            return
        pos = self.session.pos.copy()

        def run(job: Job) -> None:
            result = self.searcher.search(pos.copy(), Limits(soft_time=0.3, hard_time=1.0))
            if result.move is not None and not job.stopped:
                self.send(f"Hint: {pos.move_text(result.move)}")
        self.start_job("hint", run)


def pv_text(pos: Position, pv: List[Move]) -> str:
    """The principal variation in SAN, as far as it is legal (``pos`` is left unchanged)."""
    out = []
    pushed = 0
    try:
        for m in pv:
            out.append(pos.san(m))
            pos.push(m)
            pushed += 1
    except RulesError:
        pass
    for _ in range(pushed):
        pos.pop()
    return " ".join(out)
