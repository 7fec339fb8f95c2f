"""CECP's thinking: the engine's move, pondering, analysing and ``hint``, run in the worker
thread of ``driver.py`` (which UCI uses too) on the game ``session.py`` keeps.

The worker plays a move into the session only under the driver's lock and only if the search was
not discarded meanwhile (``stop(discard=True)``: the GUI changed the position).
"""
import time
from typing import Callable, List, Optional, Tuple

from ...core.errors import RulesError
from ...core.moves import Move
from ...core.position import Position
from ...search.score import from_search
from ...search.searcher import Info, Limits
from ..driver import Job, SearchDriver
from ..options import MULTIPV, NODES_PER_MOVE, SKILL
from .session import Session


class Thinker:
    """Runs the engine's searches on ``session``; ``send`` writes a protocol line, ``log_error``
    records the exception being handled."""

    def __init__(self, session: Session, send: Callable[[str], None], log_error: Callable[[], None]) -> None:
        self.session = session
        self.send = send
        self.driver = SearchDriver(log_error)
        self.searcher = self.driver.searcher
        self.lock = self.driver.lock        # guards the session against the worker's move
        self.post = False
        self.ponder = False
        self.random = False
        self.analyzing = False
        self.last_score = 0
        self._start_time = 0.0              # perf_counter the thinking time counts from
        self._clock_reported = False
        self._analysis: Tuple[int, int, Optional[Move], float] = (0, 0, None, 0.0)

    @property
    def mode(self) -> str:
        """"", "think", "ponder", "analyze", or a long command's name."""
        return self.driver.mode

    # ------------------------------------------------------------------ control
    def stop(self, discard: bool = True) -> None:
        """End the running search (if any) and wait for its thread."""
        self.driver.stop(discard)

    def wait(self) -> None:
        """Wait for the running search or job to end by itself."""
        self.driver.wait()

    def halt(self) -> None:
        """``quit`` was read (reader thread): stop what runs, and whatever starts from now on."""
        self.driver.halt()

    def start_job(self, name: str, run: Callable[[Job], None]) -> None:
        """Run ``run(job)`` in the worker thread (a long command: perft, bench, hint), stopped like
        a search by ``stop`` and ``move_now``."""
        self.driver.start_job(name, run)

    def start(self, mode: str, arrived: float) -> None:
        """Start a search in ``mode``; its time counts from ``arrived`` (when the command that
        started it was read) or from the `time` report before it."""
        self.stop(discard=True)
        pos = self.session.pos.copy()
        if mode == "think":
            self._start_time, self._clock_reported = self.session.think_start(arrived)
        else:
            self._start_time, self._clock_reported = arrived, False
        self.driver.start(mode, lambda: self._think(mode, pos))

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
        if self.mode == "think" or self.driver.running_job():
            self.driver.interrupt()

    def clear(self) -> None:
        self.searcher.clear()

    # ------------------------------------------------------------------ worker
    def _limits(self, mode: str) -> Limits:
        session = self.session
        if mode != "think":
            if mode == "analyze":
                return Limits(exclude=tuple(session.exclude), multipv=int(session.options[MULTIPV]))
            return Limits()
        soft, hard = session.budget()
        nodes = None
        randomize = self.random
        if session.nps:
            nodes = max(1, int(session.nps * hard))
            soft = hard = None
        fixed = int(session.options[NODES_PER_MOVE])
        if fixed:
            nodes = fixed if nodes is None else min(nodes, fixed)
            soft = None                   # the clock's hard limit still applies
            randomize = False
        return Limits(soft_time=soft, hard_time=hard, depth=session.sd, nodes=nodes,
                      exclude=session.avoided_moves(), randomize=randomize, start=self._start_time,
                      skill=int(session.options[SKILL]))

    def _think(self, mode: str, pos: Position) -> None:
        """Worker thread: search; in "think" mode play the move, then ponder if asked to."""
        start, clock_reported = self._start_time, self._clock_reported
        move = self._run_search(mode, pos)
        if mode != "think":
            return
        ponder_from = self.driver.deliver(lambda: self._play(move, start, clock_reported))
        if ponder_from is not None:
            self._run_search("ponder", ponder_from)

    def _play(self, move: Optional[Move], start: float, clock_reported: bool) -> Optional[Position]:
        """Under the driver's lock: play the search's move into the session; the position to ponder
        on next, if pondering."""
        session = self.session
        if move is None:
            self._claim()
            return None
        text = session.play_engine_move(move, start, time.perf_counter(), clock_reported)
        self.send(f"move {text}")
        self._claim()
        if not (self.ponder and not session.game_over and not session.force):
            return None
        self.searcher.stop_requested = self.driver.halted
        self.driver.mode = "ponder"
        return session.pos.copy()

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
        return self.driver.search(pos, self._limits(mode), on_info=info).move

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
        if self.driver.busy():
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
