"""Lazy SMP: the search on several processes sharing one transposition table in shared memory.

With ``threads`` above 1 the engine's own search runs in its process as before, and ``threads - 1``
helper processes (``python -m xboard_engine.search.parallel.smp``, started once and kept between moves) search the
same position at the same time, with no clock, until the engine's search ends.  They share nothing
but the table: what one learns, the others find there, as in Stockfish's Lazy SMP.  Processes, not
threads, because Python threads take turns on one interpreter lock.

The shared memory is of one of two kinds (``memory_kind``).  On POSIX systems it is an anonymous
file (``memfd`` on Linux, an unlinked temporary file elsewhere) handed to the helpers as a file
descriptor, so nothing is left behind whatever way the engine ends.  Elsewhere (Windows, which has no
descriptor passing) it is named shared memory (``multiprocessing.shared_memory``) that the helpers
open by its name; ``XBOARD_ENGINE_SHARED_MEMORY=named`` (or ``fd``) chooses the kind, so that the
named one is tested on Linux too.  On POSIX named memory is a file in /dev/shm until unlinked: the
engine unlinks it once every helper has mapped it, and a helper unlinks it when it ends, in case the
engine was killed before (on Windows it is gone when no process has it open).  The memory holds a
header of words (the active search's generation, each helper's node count) and the table
(``shared_table.py``).  A helper ends when its standard input closes (the engine closed it, or ended
however it did: a reader thread sees it even while the helper searches) or, on POSIX, when its parent
process changes (the engine was killed).

Helpers run only for searches bounded by time or by nothing (``go infinite``, analysis, pondering):
a search bounded by nodes ("Nodes per move", ``go nodes``) or weakened by a skill level stays on one
process, so that it plays the same moves every time.
"""
import json
import os
import queue
import subprocess
import sys
import threading
import time
from typing import Callable, List, Optional, Sequence, Tuple

from ...core.moves import Move
from ...core.position import Position
from ...paths import IMPORT_ROOT
from ..alphabeta import MAX_PLY
from ..runtime import tune_jit
from ..searcher import Info, Limits, Result, Searcher
from .shared_memory import attach, shared_mapping, unlink
from .shared_table import ENTRY_WORDS, SCORE_OFFSET, SharedTable, decode_move, encode_move, table_entries
from ..ttable import DEFAULT_HASH_MB, TranspositionTable
from ..warmup import WarmUp, warmup_seconds

MAX_THREADS = 512
NODE_BITS = 20                  # a helper's report: nodes << NODE_BITS | generation
GENERATION_MASK = (1 << NODE_BITS) - 1
HELPER_NICENESS = 5
HELPER_START = 5.0               # seconds a helper may take to start, more than its warm-up
WATCH_PERIOD = 0.004            # seconds between a helper's looks at the header
CHECK_PARENT = os.name == "posix"   # (on Windows a process's parent pid stays when the parent ends)


def usable_threads(requested: int) -> int:
    """The processes worth starting for ``requested`` threads: no more than the CPUs this process may
    run on (a Python process per core at most: more only share the cores and each costs memory)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(requested, cpus, MAX_THREADS))


REPORT_WORDS = 3                # per helper: nodes, deepest finished iteration (depth and score), its move


def _header_words(helpers: int) -> int:
    return (1 + REPORT_WORDS * helpers + 7) // 8 * 8


def _report_at(index: int) -> int:
    return 1 + REPORT_WORDS * index


class Team:
    """The helper processes and the table they share with the engine's own search."""

    def __init__(self, helpers: int, megabytes: int) -> None:
        self.helpers = helpers
        self.megabytes = megabytes
        self.header = _header_words(helpers)
        entries = table_entries(megabytes)
        self.memory = shared_mapping((self.header + entries * ENTRY_WORDS) * 8)
        self.words = self.memory.words
        self.table = SharedTable(self.words, self.header, entries, megabytes, self.memory.bytes)
        self.generation = 0
        self._final_nodes = 0
        package_root = IMPORT_ROOT
        env = dict(os.environ)
        env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
        self.processes: List[subprocess.Popen] = []
        self._readers: List[threading.Thread] = []
        self._news = threading.Condition()                  # the helpers' lines, counted:
        self._attached = 0                                  # helpers that mapped the memory (or ended)
        self._ready = 0                                     # helpers that warmed up (or ended)
        # Helpers of named memory start in a session of their own (POSIX; Windows ignores it): the
        # hangup that a terminal's end sends the engine's process group would end a helper before it
        # could take the name away (it ends with the engine anyway: its input closes).
        try:
            for k in range(helpers):
                process = subprocess.Popen(
                    [sys.executable, "-m", "xboard_engine.search.parallel.smp", self.memory.argument, str(self.memory.size),
                     str(self.header), str(entries), str(k), str(os.getpid())],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=self.memory.pass_fds,
                    env=env, universal_newlines=True, start_new_session=self.memory.kind == "named")
                self.processes.append(process)
                reader = threading.Thread(target=self._listen, args=(process,), daemon=True)
                reader.start()
                self._readers.append(reader)
        except (OSError, ValueError, RuntimeError):
            self.close()                            # the helpers already started end too
            raise
        if not helpers:
            self.memory.attached()

    def pids(self) -> List[int]:
        return [p.pid for p in self.processes]

    def _listen(self, process: subprocess.Popen) -> None:
        """Read a helper's lines (a thread each: ``select`` does not take pipes on Windows):
        ``attached`` once it has mapped the memory, ``ready`` once it has warmed up; a helper that
        ended counts as both."""
        attached = ready = False
        try:
            for line in process.stdout:
                word = line.strip()
                if word == "attached" and not attached:
                    attached = True
                    self._heard(1, 0)
                elif word == "ready" and not ready:
                    ready = True
                    self._heard(0, 1)
        except (OSError, ValueError):
            pass
        finally:
            self._heard(0 if attached else 1, 0 if ready else 1)
            try:
                process.stdout.close()
            except OSError:
                pass

    def _heard(self, attached: int, ready: int) -> None:
        with self._news:
            self._attached += attached
            self._ready += ready
            everyone = attached and self._attached == self.helpers
            self._news.notify_all()
        if everyone:
            self.memory.attached()                  # named memory loses its name

    def warmed_up(self, wait: float = 0.0) -> bool:
        """Whether every helper has finished its warm-up (it writes a line then; a helper that ended
        counts as done), waiting up to ``wait`` seconds for it."""
        with self._news:
            return self._news.wait_for(lambda: self._ready >= self.helpers, max(0.0, wait))

    def begin(self, pos: Position, limits: Limits) -> None:
        """Start every helper on ``pos`` (the table's age is the search's)."""
        self.generation = self.generation % GENERATION_MASK + 1
        self._final_nodes = 0
        self.words[0] = self.generation
        line = json.dumps({
            "go": self.generation, "variant": pos.variant.name, "fen": pos.fen(), "hash": pos.hash,
            "seen": pos.game_hashes(), "age": self.table.age,
            "exclude": [encode_move(m) for m in limits.exclude],
            "searchmoves": [encode_move(m) for m in limits.searchmoves]}) + "\n"
        for p in self.processes:
            try:
                p.stdin.write(line)
                p.stdin.flush()
            except (OSError, ValueError):
                pass                                # a helper that died adds nothing

    def end(self) -> None:
        """Stop the helpers' search (they abort within a few milliseconds); their node count is
        the one at this moment (a helper counts on until it sees the stop)."""
        if self.words[0]:
            self._final_nodes = self._count_nodes()
            self.words[0] = 0

    def nodes(self) -> int:
        """The nodes the helpers searched in the current search so far (until ``end``)."""
        if not self.words[0]:
            return self._final_nodes
        return self._count_nodes()

    def _count_nodes(self) -> int:
        total = 0
        generation = self.generation
        for k in range(self.helpers):
            report = self.words[_report_at(k)]
            if report & GENERATION_MASK == generation:
                total += report >> NODE_BITS
        return total

    def deepest(self) -> Optional[Tuple[int, int, Move]]:
        """(depth, score, move) of the deepest iteration a helper finished in the current search."""
        found = None
        w, generation = self.words, self.generation
        for k in range(self.helpers):
            at = _report_at(k) + 1
            report = w[at]
            code = w[at + 1]
            if report & GENERATION_MASK != generation or w[at] != report or not code:
                continue
            depth = report >> NODE_BITS & 255
            if found is None or depth > found[0]:
                found = (depth, (report >> (NODE_BITS + 8)) - SCORE_OFFSET, decode_move(code))
        return found

    def close(self) -> None:
        """End every helper process and free the memory."""
        self.words[0] = 0
        for p in self.processes:
            try:
                p.stdin.close()                     # the helper ends (its reader thread ends then)
            except OSError:
                pass
        deadline = time.monotonic() + 0.5           # an idle helper ends at once, a busy one in ms
        for p in self.processes:
            try:
                p.wait(max(0.01, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        deadline = time.monotonic() + 0.5
        for reader in self._readers:                # at the end of the helper's output
            reader.join(max(0.01, deadline - time.monotonic()))
        self.memory.close()


class ParallelSearcher(Searcher):
    """A ``Searcher`` whose searches use ``set_threads(n)`` processes (1 by default: none started)."""

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB, off: Optional[Sequence[str]] = None) -> None:
        super().__init__(hash_mb, off)
        self.threads = 1
        self.team: Optional[Team] = None
        self._helping = False

    def set_threads(self, threads: int) -> None:
        """Use ``threads`` processes from the next search on."""
        self.threads = max(1, min(MAX_THREADS, threads))

    def stop(self) -> None:
        super().stop()
        team = self.team                            # (another thread may be replacing it)
        if self._helping and team is not None:
            team.end()

    def close(self) -> None:
        """End the helper processes (the engine quits)."""
        if self.team is not None:
            self.team.close()
            self.team = None

    def start_helpers(self) -> None:
        """Start (or, after a new number or table size, restart) the helper processes now rather than
        at the next search, so that they have warmed up (``warmup.py``) when it begins.  Only while
        no search runs (the protocol's command thread, after the setting)."""
        self._ensure_team()

    def helpers_warmed_up(self, wait: float = 0.0) -> bool:
        """Whether the helpers (if any) have finished warming up, waiting up to ``wait`` seconds.
        The protocols answer ``isready``/``ping`` only then while no search runs: a helper warming
        up takes a core for ``warmup_seconds()``, which a game just begun would lose to it (on a
        2-core machine with other work, moves of 1+0.01 took 0.1-0.26 s instead of 0.06)."""
        team = self.team
        return team is None or team.warmed_up(wait)

    def wait_for_helpers(self) -> None:
        """Wait until the helpers have warmed up: at most their warm-up and ``HELPER_START`` seconds."""
        self.helpers_warmed_up(warmup_seconds() + HELPER_START)

    def _ensure_team(self) -> None:
        """The helpers and the table as ``threads`` and the hash size ask (one process: a table of
        this process's own)."""
        helpers = self.threads - 1
        team = self.team
        if team is not None and (team.helpers != helpers or team.megabytes != self._hash_mb):
            team.close()
            self.team = team = None
            self.tt = TranspositionTable(1)
        if helpers and team is None:
            old = self.tt
            try:
                self.team = Team(helpers, self._hash_mb)
            except (OSError, ValueError, RuntimeError) as error:   # no shared memory, process or thread
                sys.stderr.write(f"xboard-engine: cannot start helper processes ({error}); "
                                 f"searching with one\n")
                self.threads = 1
                if not isinstance(old, TranspositionTable):
                    self.tt = TranspositionTable(self._hash_mb)
                return
            self.tt = self.team.table
            self._clear_table = False
            if isinstance(old, TranspositionTable):
                old.clear()
        elif not helpers and not isinstance(self.tt, TranspositionTable):
            self.tt = TranspositionTable(self._hash_mb)

    def _prepare_table(self) -> bool:
        self._helping = False
        self._ensure_team()
        return super()._prepare_table()

    def search(self, pos: Position, limits: Limits,
               on_info: Optional[Callable[[Info], None]] = None,
               on_currmove: Optional[Callable[[int, Move, int], None]] = None) -> Result:
        """As ``Searcher.search``; with helpers, the deepest iteration finished by any process gives
        the move (Lazy SMP's usual rule: a helper a ply ahead has seen more)."""
        result = super().search(pos, limits, on_info, on_currmove)
        if not self._helping or limits.multipv > 1 or result.move is None:
            return result
        deepest = self.team.deepest()
        if deepest is None or deepest[0] <= result.depth:
            return result
        depth, score, move = deepest
        allowed = [m for m in pos.legal_moves() if m not in set(limits.exclude)
                   and (not limits.searchmoves or m in set(limits.searchmoves))]
        if move not in allowed:
            return result
        pv = self._pv(pos, move, depth)
        if on_info is not None:
            on_info(Info(depth, score, time.perf_counter() - self._start, result.nodes, pv, 1, self.seldepth))
        return Result(move, score, depth, result.nodes, pv)

    def _helpers_begin(self, pos: Position, limits: Limits) -> None:
        self._helping = self.team is not None and limits.nodes is None and limits.skill >= 20
        if self._helping:
            self.team.begin(pos, limits)

    def _helpers_end(self) -> None:
        if self._helping:
            self.team.end()

    def _all_nodes(self) -> int:
        if self._helping:
            return self.nodes + self.team.nodes()
        return self.nodes


class _HelperSearcher(Searcher):
    """A helper process's search: the table is the engine's, the game's earlier positions given."""

    def __init__(self, table: SharedTable, index: int) -> None:
        super().__init__(hash_mb=1)
        self.tt = table
        self.words = table.words
        self.index = index
        self.generation = 0                         # of the search running
        self.seen: List[int] = []

    def _prepare_table(self) -> bool:
        return True                                 # the engine sizes and clears the table

    def _game_hashes(self, pos: Position) -> List[int]:
        return self.seen

    def _root_order(self, moves: List[Move]) -> List[Move]:
        """Half the helpers (those a ply ahead) take the root moves after the first from the last, so
        that they search other moves than the main process first (the gain: docs/ENGINE.md, "Threads")."""
        if self.index % 2 == 0:
            return moves[:1] + moves[:0:-1]
        return moves

    def _completed(self, result: Result) -> None:
        if result.move is not None and self.generation:
            at = _report_at(self.index) + 1
            self.words[at + 1] = encode_move(result.move)
            self.words[at] = (self.generation | (result.depth & 255) << NODE_BITS
                              | (result.score + SCORE_OFFSET) << (NODE_BITS + 8))


def helper_main(argv: Sequence[str]) -> int:
    """A helper process: ``MEMORY SIZE HEADER ENTRIES INDEX PARENT_PID`` (``attach`` reads MEMORY; the
    parent's pid is given, not read, since the engine may be gone before the helper starts).  Writes
    ``attached`` once it has mapped the memory and ``ready`` once it has warmed up; searches each
    ``go`` read on standard input until the header's generation changes; ends at the end of its input
    or, on POSIX, when its parent changes (the engine was killed)."""
    size, header, entries, index, parent = (int(a) for a in argv[1:])
    tune_jit()
    try:
        os.nice(HELPER_NICENESS)                    # on a busy machine the engine's own search,
    except (AttributeError, OSError):               # which keeps the clock, comes first (no nice:
        pass                                        # Windows)
    try:
        words, named = attach(argv[0], size)
    except FileNotFoundError:                       # the name is gone: the engine closed the memory
        return 0                                    # or ended, and a helper that ended took it away

    def leave() -> None:
        """End now (the engine is gone or closed our input); named memory loses its name, in case the
        engine was killed before every helper had mapped it (a file left in /dev/shm otherwise)."""
        if named is not None:
            unlink(named)
        os._exit(0)

    try:
        sys.stdout.write("attached\n")              # the engine may take the memory's name away
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    if os.getppid() != parent:
        leave()                                     # the engine died while this process started
    table = SharedTable(words, header, entries, 0)
    searcher = _HelperSearcher(table, index)
    searcher.first_depth = 2 - index % 2            # half the helpers a ply ahead of the engine
    running = [0]                                   # the generation being searched, 0 when idle
    orders: "queue.Queue[Optional[str]]" = queue.Queue()
    ended = threading.Event()

    def read() -> None:
        """Standard input, a line at a time, into ``orders`` (in a thread, so that its end is seen
        while the helper searches: on Windows it is how the helper learns the engine was killed)."""
        try:
            for line in sys.stdin:
                orders.put(line)
        except (OSError, ValueError):
            pass
        ended.set()
        orders.put(None)

    def watch() -> None:
        while True:
            time.sleep(WATCH_PERIOD)
            if ended.is_set() or (CHECK_PARENT and os.getppid() != parent):
                leave()                             # the engine closed our input, or was killed
            generation = running[0]
            if generation:
                words[_report_at(index)] = searcher.nodes << NODE_BITS | generation
                if words[0] != generation:
                    searcher.stop_requested = True

    threading.Thread(target=read, daemon=True).start()
    threading.Thread(target=watch, daemon=True).start()
    WarmUp().run(warmup_seconds())                  # orders that come meanwhile wait (stale ones are skipped)
    try:
        sys.stdout.write("ready\n")                 # the engine's `isready`/`ping` waits for this
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    warned = False
    while True:
        line = orders.get()
        if line is None:
            leave()
        try:
            order = json.loads(line)
            generation = order["go"]
            if words[0] != generation:
                continue                            # already over
            pos = Position.from_fen(order["fen"], order["variant"])
            if pos.hash != order["hash"]:
                if not warned:
                    sys.stderr.write(f"xboard-engine helper: cannot rebuild {order['fen']}; idle\n")
                    warned = True
                continue
            searcher.seen = order["seen"]
            table.age = (order["age"] - 1) & 255     # the search adds one
            searcher.stop_requested = False
            running[0] = searcher.generation = generation
            searcher.search(pos, Limits(depth=MAX_PLY,
                                        exclude=[decode_move(c) for c in order["exclude"]],
                                        searchmoves=[decode_move(c) for c in order["searchmoves"]]))
        except Exception as error:                  # a helper must never take the engine down
            sys.stderr.write(f"xboard-engine helper: {type(error).__name__}: {error}\n")
        finally:
            if running[0]:
                words[_report_at(index)] = searcher.nodes << NODE_BITS | running[0]
            running[0] = searcher.generation = 0


if __name__ == "__main__":
    sys.exit(helper_main(sys.argv[1:]))
