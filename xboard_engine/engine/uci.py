"""The UCI text layer: the same engine as ``cecp.py`` for the tools that drive engines over UCI.

Variants as Fairy-Stockfish offers them: ``setoption name UCI_Variant value 8piece`` answers with an
``info string variant 8piece files 8 ranks 8 pocket 0 template fairy startpos FEN`` line, and
``position startpos`` is then that variant's standard array (8piece-random, fischerandom: the setup
chosen by "Setup Number", else the variant's ``standard_setup``; GUIs send other setups as
``position fen``).  Moves are one token each, the coordinate form of docs/RULES.md (pushes and
two-leg castles with a comma, a pass ``@@@@``; ``0000`` is read as a pass too); Chess960 castles are
king takes own rook (``e1h1``), as UCI GUIs send them.

Threads: the channel (``textio.py``) reads standard input, answers ``isready`` there (when every
command before it is done) and ends the process at ``quit``; the main thread executes commands in
order; one search (or ``go perft``, ``bench``) at a time runs in the worker thread of ``driver.py``
(CECP's too), so ``stop`` and ``ponderhit`` are answered while it thinks.  Every ``go`` but ``go perft`` is answered by exactly one ``bestmove``; after ``go infinite``
or ``go ponder`` only once ``stop`` or ``ponderhit`` came.  A search's clock counts from the arrival
of the ``position`` it searches (the GUI's clock runs from there: cutechess starts it when it sends
``position`` and ``isready``).  Bad input gets an ``info string error`` line and changes nothing.
The options and the words of ``go`` are read in ``uci_input.py``.
"""
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..core.errors import RulesError
from ..core.moves import Move
from ..core.notation import board_lines
from ..core.position import Position
from ..search.bench import MAX_PERFT_DEPTH, run_bench, run_perft
from ..search.runtime import engine_name
from ..search.score import from_search
from ..search.searcher import FULL_SKILL, Info, Limits
from ..search.parallel.smp import usable_threads
from ..search.timeman import LagEstimate, MOVE_LAG, budget
from ..time_control import TimeControl
from .driver import SearchDriver
from .textio import OVERLONG, Channel
from .options import (CHESS960, CLEAR_HASH, ELO, ELO_MIN, ELO_PER_LEVEL, HASH, LANCER_TURN_CASTLES, LIMIT_STRENGTH,
                      MOVE_OVERHEAD, MULTIPV, SETUP_NUMBER, SKILL, THREADS, UCI, VARIANT, OptionValue,
                      default_values, engine_options, find_option)
from ..core.variant import get_variant
from ..search.warmup import TopUp, WarmUp, warmup_seconds
from .uci_input import Go, parse_go

ENGINE_NAME = engine_name()          # with the interpreter: "... (PyPy 7.3.11)"
AUTHOR = "the xboard-variant-engine authors"
# A search's clock counts from its `position`'s arrival, but from at most this long before its `go`
# (a person typing at a terminal may take their time between the two).
POSITION_TO_GO = 1.0
# Commands that let a new game's warm-up go on (the GUI sets the game up); any other ends it.
KEEP_TOPUP = ("isready", "setoption", "ucinewgame", "debug", "register", "uci")


class UciEngine:
    """The UCI engine; ``run()`` serves until ``quit`` or end of input."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.driver = SearchDriver(channel.internal_error if channel is not None else (lambda: None))
        self.searcher = self.driver.searcher
        self.options: Dict[str, OptionValue] = default_values(UCI)
        self.lag = LagEstimate()
        self._expected: Optional[Tuple[int, float]] = None  # (ply, clock) the next `go` should report
        self._go: Go = Go()
        self._arrived = time.perf_counter()
        self._position_arrived: Optional[float] = None   # the `position` the next `go` searches
        # the last `position`: ((rules, start), its move texts, the position they lead to), so that
        # the next one, which usually repeats them and adds a move or two, replays only those
        self._position_cache: Optional[Tuple[Tuple[str, str], List[str], Position]] = None
        self._start_fen = ""
        # run at the first `uci`, before `uciok`, on the searcher the games use (warmup.py)
        self._warmup = WarmUp(self.searcher)
        self._topup = TopUp(self.driver)    # the variant's own warm-up at ucinewgame (warmup.py)
        self._new_start()
        self.pos = Position.from_fen(self._start_fen, self.rules_variant)
        if channel is not None:
            channel.sync_word = "isready"
            channel.sync_answer = lambda arg: "readyok"
            channel.sync_ready = lambda: self.searcher.helpers_warmed_up() and not self._topup.running()
            channel.on_quit = self._halt

    # ------------------------------------------------------------------ loop
    def send(self, line: str) -> None:
        self.channel.send(line)

    def error(self, text: str) -> None:
        self.send(f"info string error: {text[:200]}")

    def run(self) -> None:
        self.channel.serve(self._execute, lambda line: f"info string error: internal error on {line[:80]}")
        if self.driver.running_job() and not self.channel.quitting.is_set():
            self.driver.wait()              # end of input: a script's perft or bench runs to its end
        self._stop_search()

    def _execute(self, line: str, arrived: float) -> bool:
        self._arrived = arrived
        if not line:
            return True
        if line == OVERLONG:
            self.error("command too long: line dropped")
            return True
        command, _, arg = line.partition(" ")
        arg = arg.strip()
        if command == "quit":
            return False
        if command not in KEEP_TOPUP:
            self._topup.interrupt()
        handler = self.COMMANDS.get(command)
        if handler is None:
            self.error(f"unknown command: {command[:80]}")
        else:
            handler(self, arg)
        return True

    # ------------------------------------------------------------------ variant and position
    @property
    def variant(self) -> str:
        name = str(self.options[VARIANT])
        return "normal" if name == "chess" else name

    @property
    def rules_variant(self) -> str:
        """The rules in force: orthodox chess with UCI_Chess960 is played as Chess960."""
        if self.variant == "normal" and self.options[CHESS960]:
            return "fischerandom"
        return self.variant

    def _new_start(self) -> None:
        """Choose the start of ``position startpos``: the variant's standard array, or in a
        randomized variant the setup "Setup Number" names (orthodox chess with UCI_Chess960 keeps
        the orthodox start)."""
        v = get_variant(self.variant)
        number = int(self.options[SETUP_NUMBER])
        if v.setup != "fixed" and 0 <= number < v.setup_count:
            start = Position(self.variant, number=number)
        else:
            start = Position.from_fen(v.standard_fen, self.rules_variant)
        self._start_fen = start.fen()

    def _announce_variant(self) -> None:
        v = get_variant(self.variant)
        self.send(f"info string variant {self.options[VARIANT]} files {v.files} ranks {v.ranks} pocket 0 "
                  f"template fairy startpos {self._start_fen}")

    def cmd_position(self, arg: str) -> None:
        words = arg.split()
        if not words or words[0] not in ("startpos", "fen"):
            self.error(f"position needs startpos or fen: {arg[:80]}")
            return
        if "moves" in words:
            moves = words[words.index("moves") + 1:]
            words = words[:words.index("moves")]
        else:
            moves = []
        if words[0] == "startpos" and len(words) > 1:
            self.error(f"illegal position (unexpected words after startpos: {' '.join(words[1:])[:80]}); "
                       f"the position is unchanged")
            return
        key = (self.rules_variant, self._start_fen if words[0] == "startpos" else " ".join(words[1:]))
        cache = self._position_cache
        if cache is not None and cache[0] == key and moves[:len(cache[1])] == cache[1]:
            pos, done = cache[2].copy(), len(cache[1])
        else:
            try:
                pos, done = Position.from_fen(key[1], self.rules_variant), 0
            except RulesError as problem:
                self.error(f"illegal position ({str(problem)[:120]}); the position is unchanged")
                return
        for i in range(done, len(moves)):
            try:
                pos.push(pos.parse_uci(moves[i]))
            except RulesError as problem:
                self.error(f"move {i + 1} of position: {str(problem)[:120]}; the position is unchanged")
                return
        self.pos = pos                      # never changed in place: searches take copies
        self._position_cache = (key, moves, pos)
        self._position_arrived = self._arrived

    def cmd_ucinewgame(self, arg: str) -> None:
        self._stop_search()
        self.searcher.clear()
        self._expected = None
        self.lag = LagEstimate()
        self.pos = Position.from_fen(self._start_fen, self.rules_variant)
        self._position_arrived = None
        self._topup.begin(self.pos)

    # ------------------------------------------------------------------ options
    def cmd_uci(self, arg: str) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {AUTHOR}")
        for option in engine_options(UCI):
            self.send(option.uci_line())
        self._warmup.run(warmup_seconds())
        self.send("uciok")

    def cmd_setoption(self, arg: str) -> None:
        words = arg.split()
        if not words or words[0] != "name" or len(words) < 2:
            self.error(f"setoption needs: name NAME [value VALUE]: {arg[:80]}")
            return
        if "value" in words[1:]:
            at = words.index("value", 1)
            name, value = " ".join(words[1:at]), " ".join(words[at + 1:])
        else:
            name, value = " ".join(words[1:]), ""
        spec = find_option(name, UCI)
        if spec is None:
            self.error(f"unknown option: {name[:80]}")
            return
        if spec.name == CLEAR_HASH:
            self._stop_search()
            self.searcher.clear()
            return
        ok, parsed = spec.parse(value)
        if not ok:
            self.error(f"bad value for {spec.name}: {value[:80]!r}")
            return
        if self._searching() and spec.name in (VARIANT, CHESS960, HASH, SETUP_NUMBER):
            self._stop_search()
        self.options[spec.name] = parsed
        if spec.name in (HASH, THREADS):
            if spec.name == HASH:
                self.searcher.set_hash_size(int(parsed))
            else:
                threads = usable_threads(int(parsed))
                if threads < int(parsed):
                    self.send(f"info string Threads {parsed}: this machine has {threads} cores, "
                              f"the search uses {threads} processes")
                self.searcher.set_threads(threads)
            if not self._searching():
                self.searcher.start_helpers()   # ready and warmed up when the next search begins
        elif spec.name in (VARIANT, CHESS960, SETUP_NUMBER):
            self._new_start()
            self.pos = Position.from_fen(self._start_fen, self.rules_variant)
            if spec.name == VARIANT or get_variant(self.variant).setup != "fixed":
                self._announce_variant()

    def _skill(self) -> int:
        if self.options[LIMIT_STRENGTH]:
            return min(FULL_SKILL - 1, (int(self.options[ELO]) - ELO_MIN) // ELO_PER_LEVEL)
        return int(self.options[SKILL])

    # ------------------------------------------------------------------ search
    def cmd_isready(self, arg: str) -> None:
        self._topup.wait()                      # the new game's warm-up: the GUI waits for it
        if not self._searching():
            self.searcher.wait_for_helpers()    # a game begun meanwhile would share a core with them
        self.send("readyok")

    def cmd_go(self, arg: str) -> None:
        go = parse_go(arg, self.pos, self.error)
        self._stop_search()
        if go.perft is not None:
            self._perft(go.perft)
            return
        # the clock runs from the arrival of the position being searched, if it came just before
        start = self._arrived
        if self._position_arrived is not None:
            start = max(self._position_arrived, self._arrived - POSITION_TO_GO)
            self._position_arrived = None
        pos = self.pos.copy()
        limits = self._limits(go, pos, start, timed=not (go.ponder or go.infinite))
        self._go = go
        self.driver.start("search", lambda: self._think(pos, limits, go, start), hold=go.infinite or go.ponder)

    def _limits(self, go: Go, pos: Position, start: float, timed: bool = True) -> Limits:
        """The search limits of a ``go`` (without a time limit unless ``timed``); its clock counts
        from ``start``."""
        overhead = int(self.options[MOVE_OVERHEAD]) / 1000.0
        soft = hard = None
        left = go.wtime if pos.stm == 0 else go.btime
        if not timed:
            pass
        elif go.movetime is not None:
            hard = max(0.001, go.movetime - overhead - MOVE_LAG)
        elif left is not None:
            soft, hard = self._clock_budget(go, pos, left)
        avoid: Sequence[Move] = ()
        if not self.options[LANCER_TURN_CASTLES] and pos.variant.has_lancers:
            legal = pos.legal_moves()
            turning = tuple(m for m in legal if pos.castle_turns_partner(m))
            avoid = turning if len(turning) < len(legal) else ()
        return Limits(soft_time=soft, hard_time=hard, depth=go.depth, nodes=go.nodes, exclude=avoid,
                      start=start, skill=self._skill(), multipv=int(self.options[MULTIPV]),
                      searchmoves=go.searchmoves, mate=go.mate)

    def _clock_budget(self, go: Go, pos: Position, left: float) -> Tuple[float, float]:
        white = pos.stm == 0
        inc = go.winc if white else go.binc
        if self._expected is not None and self._expected[0] + 2 == pos.ply:
            self.lag.update(self._expected[1], left)      # learn the GUI's lag as in CECP
        self._expected = None
        lag = max(self.lag.value, int(self.options[MOVE_OVERHEAD]) / 1000.0)
        clock = TimeControl(moves=go.movestogo or 0, base=0.0, inc=inc)
        made = 0 if go.movestogo else pos.fullmove - 1
        soft, hard = budget(clock, left, made, lag)
        return soft or 0.0, hard or 0.0

    def _think(self, pos: Position, limits: Limits, go: Go, start: float) -> None:
        """Worker thread: search, wait for stop/ponderhit if the search must not end by itself,
        then answer with ``bestmove``."""
        def info(i: Info) -> None:
            seconds = max(i.seconds, 1e-6)
            self.send(f"info depth {i.depth} seldepth {max(i.seldepth, i.depth)} multipv {i.multipv} "
                      f"score {from_search(i.score).uci()} nodes {i.nodes} nps {int(i.nodes / seconds)} "
                      f"hashfull {self.searcher.hashfull()} time {int(i.seconds * 1000)} "
                      f"pv {pv_tokens(pos, i.pv)}")

        def currmove(depth: int, move: Move, number: int) -> None:     # called with pos at the root
            self.send(f"info depth {depth} currmove {pos.uci_text(move)} currmovenumber {number}")

        began = time.perf_counter()
        result = self.driver.search(pos, limits, on_info=info, on_currmove=currmove)
        seconds = max(time.perf_counter() - began, 1e-6)

        def answer() -> None:
            # the whole search's count, its unfinished last iteration too, as Stockfish ends a search
            self.send(f"info nodes {result.nodes} nps {int(result.nodes / seconds)} "
                      f"hashfull {self.searcher.hashfull()} time {int(seconds * 1000)}")
            self._answer(pos, result.move, result.pv, go, start)

        self.driver.deliver(answer)

    def _answer(self, pos: Position, move: Optional[Move], pv: List[Move], go: Go, start: float) -> None:
        """Answer a search with ``bestmove`` (and the move to ponder on)."""
        if move is None:
            self.send("bestmove (none)")
            return
        text = pos.uci_text(move)
        line = f"bestmove {text}"
        if len(pv) < 2 or pv[0] != move:            # a line cut short: the table's reply, else any
            pos.push(move)
            try:
                reply = self.searcher.table_move(pos)
                replies = pos.legal_moves()
                if reply not in replies:
                    reply = replies[0] if replies else None
            finally:
                pos.pop()
            pv = [move, reply] if reply is not None else [move]
        if len(pv) > 1:
            ponder = pv_tokens(pos, pv[:2]).split()
            if len(ponder) == 2:
                line += f" ponder {ponder[1]}"
        if not go.ponder and not go.infinite:
            left = go.wtime if pos.stm == 0 else go.btime
            if left is not None and go.movetime is None:
                spent = time.perf_counter() - start
                inc = go.winc if pos.stm == 0 else go.binc
                self._expected = (pos.ply, left - spent + inc)
        self.send(line)

    def _searching(self) -> bool:
        return self.driver.busy()

    def _halt(self) -> None:
        """``quit`` was read (reader thread): stop what runs, and whatever starts from now on."""
        self._warmup.stop()
        self.driver.halt()

    def _stop_search(self) -> None:
        """End the running search (or job); a search answers with its bestmove before this returns."""
        self.driver.stop(discard=False)

    def cmd_stop(self, arg: str) -> None:
        self._stop_search()

    def cmd_ponderhit(self, arg: str) -> None:
        """The expected move was played: the pondering search goes on as thinking on the clock of
        the ``go ponder`` (counted from now)."""
        go = self._go
        if not self._searching() or not go.ponder:
            return
        self._go = go._replace(ponder=False)
        if not go.infinite:
            pos = self.pos
            limits = self._limits(go._replace(ponder=False), pos, self._arrived)
            if limits.hard_time is not None:
                self.searcher.set_time(limits.soft_time, limits.hard_time, self._arrived)
            elif limits.depth is None and limits.nodes is None and limits.mate is None:
                self.searcher.stop()             # nothing bounds it: answer now
            self.driver.release()

    # ------------------------------------------------------------------ extras
    def cmd_ignore(self, arg: str) -> None:
        pass

    def cmd_display(self, arg: str) -> None:
        self.channel.send_lines([f"info string {line.lstrip('# ')}" for line in board_lines(self.pos)])

    def _perft(self, depth: int) -> None:
        if not 0 <= depth <= MAX_PERFT_DEPTH:
            self.error(f"perft depth must be 0..{MAX_PERFT_DEPTH}: {depth}")
            return
        pos = self.pos.copy()
        self.driver.start_job("perft", lambda job: run_perft(self.send, "info string perft", pos, depth, job))

    def cmd_bench(self, arg: str) -> None:
        if arg not in ("", "quick"):
            self.error(f"bad bench argument, expected nothing or quick: {arg[:80]}")
            return
        self._stop_search()                 # a search still answers with its bestmove
        write = lambda line: self.send(f"info string {line.lstrip('# ')}")      # noqa: E731
        self.driver.start_job("bench", lambda job: run_bench(write, arg == "quick", job))

    COMMANDS: Dict[str, Callable[["UciEngine", str], None]] = {}


UciEngine.COMMANDS = {
    "uci": UciEngine.cmd_uci, "isready": UciEngine.cmd_isready, "setoption": UciEngine.cmd_setoption,
    "ucinewgame": UciEngine.cmd_ucinewgame, "position": UciEngine.cmd_position, "go": UciEngine.cmd_go,
    "stop": UciEngine.cmd_stop, "ponderhit": UciEngine.cmd_ponderhit, "debug": UciEngine.cmd_ignore,
    "register": UciEngine.cmd_ignore, "d": UciEngine.cmd_display, "bench": UciEngine.cmd_bench,
}


def pv_tokens(pos: Position, pv: List[Move]) -> str:
    """The principal variation as UCI tokens, as far as it is legal (``pos`` is left unchanged)."""
    out = []
    pushed = 0
    for m in pv:
        if m not in pos.legal_moves():
            break
        out.append(pos.uci_text(m))
        pos.push(m)
        pushed += 1
    for _ in range(pushed):
        pos.pop()
    return " ".join(out)
