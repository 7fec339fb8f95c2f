"""The XBoard/CECP v2 protocol: translates text lines into calls on the rules core and the search.

Threads: one reads standard input into a queue; the main thread executes commands in order; a search
runs in a worker thread so that ``ping``, ``?``, ``.`` and the rest are answered while it thinks.
"""
import math
import queue
import re
import sys
import threading
import time
import traceback
from typing import IO, Callable, Dict, List, Optional, Tuple

from . import __version__
from .errors import RulesError
from .position import CASTLE, Move, Position
from .search import Info, Limits, Searcher, format_score
from .timeman import Clock, LagEstimate, budget
from .variant import get_variant, variant_names

ENGINE_NAME = f"xboard-variant-engine {__version__}"
MAX_LINE = 1 << 16

TERMINATION_TEXT = {
    "checkmate": "{} mates",
    "stalemate": "Stalemate",
    "threefold_repetition": "Draw by repetition",
    "fifty_moves": "Draw by fifty-move rule",
    "insufficient_material": "Insufficient material",
}
_MOVE_LIKE = re.compile(r"^([a-z]\d{1,2}[a-z]\d{1,2}[a-z]?(,[a-z]\d{1,2}[a-z]\d{1,2}[a-z]?)?|@@@@|O-O(-O)?)$")


class Engine:
    """The CECP engine. ``run()`` serves until ``quit`` or end of input."""

    def __init__(self, out: IO[str] = sys.stdout, log: Optional[IO[str]] = None) -> None:
        self.out = out
        self.log = log
        self.out_lock = threading.Lock()
        self.state_lock = threading.Lock()
        self.searcher = Searcher()
        self.options: Dict[str, str] = {"Setup number": "-1", "Castle with lancer turn": "0"}
        # The random setup last announced with `setup`, kept while no move has been made: XBoard
        # sends `new`/`variant` more than once before a game and keeps the first setup it got.
        self._announced: Optional[Tuple[str, str]] = None
        self._moved_since_setup = True
        self.post = False
        self.ponder = False
        self.random = False
        self.last_score = 0
        self._worker: Optional[threading.Thread] = None
        self._discard = False
        self._mode = ""                     # "", "think", "ponder", "analyze"
        self.analyzing = False
        self.exclude: List[Move] = []
        self.cores = 1
        self._analysis: Tuple[int, int, Optional[Move], float] = (0, 0, None, 0.0)
        self._arrived = time.perf_counter()  # when the command being executed was read
        self._think_start = self._arrived
        self._clock_read: Optional[float] = None  # arrival of the last `time` not yet used
        self._gui_clock = False                   # this search's clock came from a `time` report
        self.lag = LagEstimate()                  # the GUI's clock beyond the engine's own measure
        self._predicted: Optional[float] = None   # the next `time` report the engine expects
        self._reset("normal")

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        with self.out_lock:
            self.out.write(line + "\n")
            self.out.flush()
            self._log(">", line)

    def _log(self, direction: str, line: str) -> None:
        if self.log:
            now = time.time()
            stamp = time.strftime("%H:%M:%S", time.localtime(now))
            self.log.write(f"{stamp}.{int(now * 1000) % 1000:03d} {direction} {line}\n")
            self.log.flush()

    # ------------------------------------------------------------------ game state
    def _reset(self, variant: str) -> None:
        self.variant = variant
        number = int(self.options.get("Setup number", "-1"))
        v = get_variant(variant)
        if v.setup != "fixed" and 0 <= number < v.setup_count:
            self.pos = Position(variant, number=number)
        elif v.setup != "fixed" and self._announced and self._announced[0] == variant \
                and not self._moved_since_setup:
            self.pos = Position.from_fen(self._announced[1], variant)
        else:
            self.pos = Position(variant)
        self.force = False
        self.engine_side = 1
        self.game_over = False
        self.mps, self.base, self.inc = 40, 300.0, 0.0
        self.st: Optional[float] = None
        self.sd: Optional[int] = None
        self.nps: Optional[int] = None
        self.time_left = 300.0
        self.opp_time = 300.0
        self._predicted = None
        self.exclude = []

    def _send_setup(self) -> None:
        v = get_variant(self.variant)
        if not v.xboard_pieces:
            return
        self._announced = (self.variant, self.pos.fen())
        self._moved_since_setup = False
        self.send(f"setup ({v.xboard_pieces}) {v.files}x{v.ranks}+0_{v.xboard_parent} {self.pos.fen()}")
        for line in v.xboard_piece_lines:
            self.send(line)

    # ------------------------------------------------------------------ main loop
    def run(self, stdin=None) -> None:
        lines: "queue.Queue[Optional[Tuple[str, float]]]" = queue.Queue()
        reader = threading.Thread(target=self._read, args=(stdin or sys.stdin.buffer, lines), daemon=True)
        reader.start()
        while True:
            item = lines.get()
            if item is None:
                break
            line, self._arrived = item
            self._log("<", line)
            try:
                if not self.handle(line):
                    break
            except Exception:                # never a traceback on stdout; never an exit
                self._log("!", traceback.format_exc().replace("\n", " | "))
                sys.stderr.write(traceback.format_exc())
                self.send(f"Error (internal error): {line[:80]}")
        self._stop_search(discard=True)

    @staticmethod
    def _read(stream, lines: "queue.Queue[Optional[Tuple[str, float]]]") -> None:
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
                    lines.put(("\x00overlong", time.perf_counter()))
                    continue
                lines.put((raw.decode("utf-8", "replace").replace("\x00", "").strip(), time.perf_counter()))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def handle(self, line: str) -> bool:
        """Execute one command line; False means quit."""
        if not line:
            return True
        if line == "\x00overlong":
            self.send("Error (command too long): line dropped")
            return True
        parts = line.split(None, 1)
        cmd, arg = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        if cmd == "quit":
            return False
        handler = self.COMMANDS.get(cmd)
        if handler is not None:
            handler(self, arg)
        elif _MOVE_LIKE.match(cmd) and not arg:
            self.cmd_usermove(cmd)
        else:
            self.send(f"Error (unknown command): {cmd[:80]}")
        return True

    # ------------------------------------------------------------------ search thread
    def _stop_search(self, discard: bool) -> None:
        worker = self._worker
        if worker is None:
            return
        with self.state_lock:
            if discard:
                self._discard = True
        self.searcher.stop()
        worker.join()
        self._worker = None
        self._mode = ""

    def _start(self, mode: str) -> None:
        self._stop_search(discard=True)
        self._discard = False
        self.searcher.stop_requested = False
        self._mode = mode
        pos = self.pos.copy()
        # The clock runs from the command's arrival, or from the `time` command sent before it (the
        # GUI's clock was already running then).
        self._think_start = self._arrived
        self._gui_clock = mode == "think" and self._clock_read is not None
        if self._gui_clock:
            self._think_start = min(self._arrived, self._clock_read)
            self._clock_read = None
        self._worker = threading.Thread(target=self._think, args=(mode, pos), daemon=True)
        self._worker.start()

    def _avoided_moves(self) -> Tuple[Move, ...]:
        """Castles that turn the lancer: XBoard relays them without the turn (XBOARD.md), so the
        engine does not play them unless the option allows it."""
        if self.options["Castle with lancer turn"] == "1" or not self.pos.v.has_lancers:
            return ()
        board = self.pos.board
        legal = self.pos.legal_moves()
        avoided = tuple(m for m in legal if m[3] == CASTLE and m[6] != board[m[4]])
        return avoided if len(avoided) < len(legal) else ()

    def _limits(self, mode: str) -> Limits:
        if mode != "think":
            return Limits(exclude=tuple(self.exclude) if mode == "analyze" else ())
        clock = Clock(self.mps, self.base, self.inc, self.st)
        soft, hard = budget(clock, self.time_left, self.pos.fullmove - 1, self.lag.value)
        nodes = None
        if self.nps:
            nodes = max(1, int(self.nps * hard))
            soft = hard = None
        return Limits(soft_time=soft, hard_time=hard, depth=self.sd, nodes=nodes,
                      exclude=self._avoided_moves(), randomize=self.random, start=self._think_start)

    def _think(self, mode: str, pos: Position) -> None:
        """Worker thread: search; in "think" mode play the move, then ponder if asked to."""
        start = self._think_start
        clock_reported = self._gui_clock
        move = self._run_search(mode, pos)
        if mode != "think":
            return
        with self.state_lock:
            if self._discard:
                return
            if move is None:
                self._claim_result()
                return
            text = self.pos.move_text(move)
            made = self.pos.fullmove            # the engine's moves including this one
            self.pos.push(move)
            self._moved_since_setup = True
            if self.st is None and self.nps is None:     # until the GUI's next `time` says better
                self.time_left += self.inc - (time.perf_counter() - start)
                if self.mps and made % self.mps == 0:
                    self.time_left += self.base
                self._predicted = self.time_left if clock_reported else None
            self.send(f"move {text}")
            self._claim_result()
            if not (self.ponder and not self.game_over and not self.force):
                return
            self.searcher.stop_requested = False
            self._mode = "ponder"
            pos = self.pos.copy()
        self._run_search("ponder", pos)

    def _run_search(self, mode: str, pos: Position) -> Optional[Move]:
        def info(i: Info) -> None:
            self.last_score = i.score
            self._analysis = (i.depth, i.nodes, i.pv[0] if i.pv else None, i.seconds)
            if self.post or mode == "analyze":
                self.send(f"{i.depth} {format_score(i.score)} {int(i.seconds * 100)} {i.nodes} "
                          f"{self._pv_text(pos, i.pv)}")

        self._analysis = (0, 0, None, 0.0)
        try:
            return self.searcher.search(pos, self._limits(mode), on_info=info).move
        except Exception:                       # the engine must still move, and legally
            self._log("!", traceback.format_exc().replace("\n", " | "))
            sys.stderr.write(traceback.format_exc())
            legal = pos.legal_moves()
            return legal[0] if legal else None

    @staticmethod
    def _pv_text(pos: Position, pv: List[Move]) -> str:
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

    def _claim_result(self) -> None:
        if self.force:
            return
        outcome = self.pos.outcome()
        if outcome is None:
            return
        self.game_over = True
        text = TERMINATION_TEXT[outcome.termination]
        if outcome.termination == "checkmate":
            text = text.format("White" if outcome.winner == "w" else "Black")
        self.send(f"{outcome.result} {{{text}}}")

    def _engine_to_move(self) -> bool:
        return not self.force and not self.game_over and self.pos.stm == self.engine_side

    def _maybe_think(self) -> None:
        if self.analyzing:
            self._start("analyze")
        elif self._engine_to_move():
            self._start("think")
        elif self.ponder and not self.force and not self.game_over:
            self._start("ponder")

    # ------------------------------------------------------------------ commands
    def cmd_xboard(self, arg: str) -> None:
        self.send("")

    def cmd_protover(self, arg: str) -> None:
        names = ",".join(variant_names())
        self.send("feature done=0")
        self.send(f'feature myname="{ENGINE_NAME}" ping=1 setboard=1 usermove=1 san=0 sigint=0 sigterm=0 '
                  f'time=1 draw=1 reuse=1 colors=0 playother=1 analyze=1 debug=1 memory=1 smp=1 '
                  f'exclude=1 variants="{names}"')
        self.send(f'feature option="Setup number -spin -1 -1 {_last_setup_number()}"')
        self.send('feature option="Castle with lancer turn -check 0"')
        self.send('feature option="Clear Hash -button"')
        self.send("feature done=1")

    def cmd_ignore(self, arg: str) -> None:
        pass

    def cmd_new(self, arg: str) -> None:
        self._stop_search(discard=True)
        self.analyzing = False
        self._reset("normal")
        self.searcher.clear()

    def cmd_variant(self, arg: str) -> None:
        name = arg.split()[0] if arg else ""
        if name not in variant_names():
            self.send(f"Error (unsupported variant): {name[:80]}")
            return
        self._stop_search(discard=True)
        analyzing = self.analyzing
        self._reset(name)
        self._send_setup()
        if analyzing:
            self._start("analyze")

    def cmd_setboard(self, arg: str) -> None:
        try:
            pos = Position.from_fen(arg, self.variant)
        except RulesError:
            self.send("tellusererror Illegal position")
            return
        self._stop_search(discard=True)
        _restore_start_castling(pos, arg)
        self.pos = pos
        self.game_over = False
        self.exclude = []
        if self.analyzing:
            self._start("analyze")

    def cmd_usermove(self, arg: str) -> None:
        if self._mode in ("think",):
            # a move while the engine thinks: the GUI has switched sides; stop, keep the position
            self._stop_search(discard=True)
        elif self._mode:
            self._stop_search(discard=True)
        try:
            self.pos.push_text(arg)
            self._moved_since_setup = True
        except RulesError:
            self.send(f"Illegal move: {arg[:80]}")
            if self.analyzing:
                self._start("analyze")
            return
        self.exclude = []
        if not self.analyzing:
            self._claim_result()
        self._maybe_think()

    def cmd_go(self, arg: str) -> None:
        self._stop_search(discard=True)
        self.force = False
        self.engine_side = self.pos.stm
        if self.pos.outcome() is not None:
            self._claim_result()
            return
        self.game_over = False
        self._start("think")

    def cmd_force(self, arg: str) -> None:
        self._stop_search(discard=True)
        self.force = True

    def cmd_playother(self, arg: str) -> None:
        self._stop_search(discard=True)
        self.force = False
        self.engine_side = 1 - self.pos.stm
        if self.ponder and not self.game_over:
            self._start("ponder")

    def cmd_white(self, arg: str) -> None:
        """Legacy: White to move, the engine plays Black."""
        self._set_side_to_move(0)

    def cmd_black(self, arg: str) -> None:
        """Legacy: Black to move, the engine plays White."""
        self._set_side_to_move(1)

    def _set_side_to_move(self, side: int) -> None:
        self._stop_search(discard=True)
        self.force = False
        self.engine_side = 1 - side
        if self.pos.stm != side:
            fields = self.pos.fen().split()
            fields[1] = "wb"[side]
            fields[3] = "-"
            try:
                self.pos = Position.from_fen(" ".join(fields[:6]), self.variant)
            except RulesError:
                self.send("Error (side to move cannot change here): " + "wb"[side])

    def cmd_level(self, arg: str) -> None:
        parts = arg.split()
        try:
            if len(parts) != 3:
                raise ValueError
            mps = int(parts[0])
            if ":" in parts[1]:
                minutes, seconds = parts[1].split(":")
                base = int(minutes) * 60 + float(seconds)
            else:
                base = float(parts[1]) * 60
            inc = float(parts[2])
            if mps < 0 or base < 0 or inc < 0:
                raise ValueError
        except ValueError:
            self.send(f"Error (bad level): {arg[:80]}")
            return
        self.mps, self.base, self.inc = mps, base, inc
        self.st = None
        self.time_left = self.opp_time = base
        self._predicted = None

    def _number(self, arg: str, command: str, minimum: float, whole: bool = True) -> Optional[float]:
        """The command's numeric argument, or None after an error line (also for nan/inf)."""
        try:
            value = float(arg)
            if not math.isfinite(value) or value < minimum or (whole and value != int(value)):
                raise ValueError
        except ValueError:
            self.send(f"Error (bad {command}): {arg[:80]}")
            return None
        return value

    def cmd_st(self, arg: str) -> None:
        value = self._number(arg, "st", 0.001, whole=False)
        if value is not None:
            self.st = value

    def cmd_sd(self, arg: str) -> None:
        value = self._number(arg, "sd", 1)
        if value is not None:
            self.sd = int(value)

    def cmd_nps(self, arg: str) -> None:
        value = self._number(arg, "nps", 0)
        if value is not None:
            self.nps = int(value) or None

    def cmd_time(self, arg: str) -> None:
        value = self._number(arg, "time", -1e12, whole=False)
        if value is not None:
            self.time_left = max(0, int(value)) / 100.0
            self._clock_read = self._arrived
            if self._predicted is not None:
                self.lag.update(self._predicted, self.time_left)
                self._predicted = None

    def cmd_otim(self, arg: str) -> None:
        value = self._number(arg, "otim", -1e12, whole=False)
        if value is not None:
            self.opp_time = max(0, int(value)) / 100.0

    def cmd_movenow(self, arg: str) -> None:
        if self._mode == "think":
            self.searcher.stop()

    def cmd_ping(self, arg: str) -> None:
        self.send(f"pong {arg}".rstrip())

    def cmd_draw(self, arg: str) -> None:
        if not self.game_over and self.last_score <= -200:
            self.send("offer draw")

    def cmd_result(self, arg: str) -> None:
        self._stop_search(discard=True)
        self.game_over = True
        self.analyzing = False

    def _take_back(self, plies: int) -> None:
        self._stop_search(discard=True)
        if len(self.pos._stack) < plies:
            self.send(f"Error (nothing to undo): {'undo' if plies == 1 else 'remove'}")
            return
        for _ in range(plies):
            self.pos.pop()
        self.game_over = False
        self.exclude = []
        if self.analyzing:
            self._start("analyze")
        elif plies == 2:
            self._maybe_think()

    def cmd_undo(self, arg: str) -> None:
        self._take_back(1)

    def cmd_remove(self, arg: str) -> None:
        self._take_back(2)

    def cmd_hint(self, arg: str) -> None:
        if self._mode:
            return
        self.searcher.stop_requested = False
        result = self.searcher.search(self.pos.copy(), Limits(soft_time=0.3, hard_time=1.0))
        if result.move is not None:
            self.send(f"Hint: {self.pos.move_text(result.move)}")

    def cmd_bk(self, arg: str) -> None:
        self.send("\tNo book moves")
        self.send("")

    def cmd_hard(self, arg: str) -> None:
        self.ponder = True

    def cmd_easy(self, arg: str) -> None:
        self.ponder = False
        if self._mode == "ponder":
            self._stop_search(discard=True)

    def cmd_post(self, arg: str) -> None:
        self.post = True

    def cmd_nopost(self, arg: str) -> None:
        self.post = False

    def cmd_analyze(self, arg: str) -> None:
        self.analyzing = True
        self._start("analyze")

    def cmd_exit(self, arg: str) -> None:
        if self.analyzing:
            self._stop_search(discard=True)
            self.analyzing = False

    def cmd_status(self, arg: str) -> None:
        if not self.analyzing:
            return
        depth, nodes, move, seconds = self._analysis
        legal = [m for m in self.pos.legal_moves() if m not in self.exclude]
        elapsed = int(seconds * 100)
        name = self.pos.move_text(move) if move is not None and move in legal else "(none)"
        self.send(f"stat01: {elapsed} {nodes} {depth} 0 {len(legal)} {name}")

    def cmd_exclude(self, arg: str) -> None:
        self._set_exclusion(arg, True)

    def cmd_include(self, arg: str) -> None:
        self._set_exclusion(arg, False)

    def _set_exclusion(self, arg: str, exclude: bool) -> None:
        if arg == "all":
            moves = self.pos.legal_moves()
        else:
            try:
                moves = [self.pos.parse_move(arg)]
            except RulesError:
                self.send(f"Illegal move: {arg[:80]}")
                return
        if exclude:
            self.exclude = list(dict.fromkeys(self.exclude + moves))
        else:
            self.exclude = [m for m in self.exclude if m not in moves]
        if self.analyzing:
            self._start("analyze")

    def cmd_memory(self, arg: str) -> None:
        try:
            megabytes = max(1, int(arg))
        except ValueError:
            self.send(f"Error (bad memory): {arg[:80]}")
            return
        self.searcher.tt_entries = megabytes * 4000      # about 250 bytes per entry

    def cmd_cores(self, arg: str) -> None:
        try:
            self.cores = max(1, int(arg))
        except ValueError:
            self.send(f"Error (bad cores): {arg[:80]}")

    def cmd_random(self, arg: str) -> None:
        self.random = not self.random

    def cmd_option(self, arg: str) -> None:
        name, _, value = arg.partition("=")
        name = name.strip()
        if name == "Clear Hash":
            self.searcher.clear()
        elif name == "Setup number":
            try:
                number = int(value)
                if not -1 <= number <= _last_setup_number():
                    raise ValueError
            except ValueError:
                self.send(f"Error (bad option value): {arg[:80]}")
                return
            self.options[name] = str(number)
        elif name == "Castle with lancer turn":
            if value not in ("0", "1"):
                self.send(f"Error (bad option value): {arg[:80]}")
                return
            self.options[name] = value
        else:
            self.send(f"Error (unknown option): {name[:80]}")

    def cmd_perft(self, arg: str) -> None:
        try:
            depth = int(arg)
            if not 0 <= depth <= 8:
                raise ValueError
        except ValueError:
            self.send(f"Error (bad perft depth): {arg[:80]}")
            return
        self._stop_search(discard=True)
        start = time.perf_counter()
        nodes = self.pos.copy().perft(depth)
        self.send(f"perft {depth} nodes {nodes} time {time.perf_counter() - start:.2f}")

    def cmd_display(self, arg: str) -> None:
        for line in board_lines(self.pos):
            self.send(line)

    COMMANDS: Dict[str, Callable[["Engine", str], None]] = {}


Engine.COMMANDS = {
    "xboard": Engine.cmd_xboard, "protover": Engine.cmd_protover,
    "accepted": Engine.cmd_ignore, "rejected": Engine.cmd_ignore,
    "new": Engine.cmd_new, "variant": Engine.cmd_variant, "setboard": Engine.cmd_setboard,
    "usermove": Engine.cmd_usermove, "go": Engine.cmd_go, "force": Engine.cmd_force,
    "playother": Engine.cmd_playother, "white": Engine.cmd_white, "black": Engine.cmd_black,
    "level": Engine.cmd_level, "st": Engine.cmd_st, "sd": Engine.cmd_sd, "nps": Engine.cmd_nps,
    "time": Engine.cmd_time, "otim": Engine.cmd_otim, "?": Engine.cmd_movenow,
    "ping": Engine.cmd_ping, "draw": Engine.cmd_draw, "result": Engine.cmd_result,
    "undo": Engine.cmd_undo, "remove": Engine.cmd_remove, "hint": Engine.cmd_hint,
    "bk": Engine.cmd_bk, "hard": Engine.cmd_hard, "easy": Engine.cmd_easy,
    "post": Engine.cmd_post, "nopost": Engine.cmd_nopost, "analyze": Engine.cmd_analyze,
    "exit": Engine.cmd_exit, ".": Engine.cmd_status, "exclude": Engine.cmd_exclude,
    "include": Engine.cmd_include, "name": Engine.cmd_ignore, "rating": Engine.cmd_ignore,
    "computer": Engine.cmd_ignore, "ics": Engine.cmd_ignore, "memory": Engine.cmd_memory,
    "cores": Engine.cmd_cores, "random": Engine.cmd_random, "option": Engine.cmd_option,
    "perft": Engine.cmd_perft, "d": Engine.cmd_display, "board": Engine.cmd_display,
    "debug": Engine.cmd_ignore, "otherside": Engine.cmd_ignore,
}


def _last_setup_number() -> int:
    """The highest setup number of any variant (the option applies to whichever is played)."""
    return max(get_variant(name).setup_count for name in variant_names()) - 1


def _restore_start_castling(pos: Position, fen: str) -> None:
    """XBoard's FEN drops castling rights whose partner is not a rook (XBOARD.md).  A setboard of a
    start array (White to move, move 1, nothing moved) gets the variant's full start rights."""
    v = pos.v
    if pos.stm != 0 or pos.fullmove != 1 or pos.castling == 15 or pos._stack:
        return
    placement = fen.split()[0]
    if v.setup == "fixed":
        if placement != v.start_fen.split()[0]:
            return
    else:
        rows = placement.split("/")
        if len(rows) != 8 or rows[1] != "p" * 8 or rows[6] != "P" * 8 or any(r != "8" for r in rows[2:6]):
            return
    full_fen = " ".join([placement, "w", "KQkq"] + fen.split()[3:6])
    try:
        restored = Position.from_fen(full_fen, v.name)
    except RulesError:
        return
    pos.__dict__.update(restored.__dict__)


def board_lines(pos: Position) -> List[str]:
    """A plain-text board for people using the engine in a terminal."""
    v = pos.v
    lines = []
    for rank in range(v.ranks - 1, -1, -1):
        cells = [v.letter[pos.board[v.square(f, rank)]] or "." for f in range(v.files)]
        lines.append(f"{rank + 1:>2} " + " ".join(cells))
    lines.append("   " + " ".join("abcdefghijklmnop"[:v.files]))
    lines.append(f"fen {pos.fen()}")
    lines.append(f"variant {v.name}, {'white' if pos.stm == 0 else 'black'} to move")
    return lines
