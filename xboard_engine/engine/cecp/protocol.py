"""The XBoard/CECP v2 text layer: reads command lines, parses their arguments, calls the session
(``session.py``) and the worker thread (``thinker.py``), and writes the answers.

Threads: the channel (``textio.py``) reads standard input in its own thread, answers ``ping`` there
when every command before it has been executed, and ends the process at ``quit``; the main thread
executes commands in order; searches, ``perft``, ``bench`` and ``hint`` run in the thinker's worker
thread, so that ``ping``, ``?``, ``.`` and the rest are answered while it works.
"""
import re
import sys
import time
from typing import IO, Callable, Dict, Optional

from ...core.digits import parse_decimal, parse_int
from ...core.errors import RulesError
from ...core.position import Position
from ...core.variant import get_variant, variant_names
from ...search.runtime import engine_name
from ...search.warmup import TopUp, WarmUp, warmup_seconds
from ..options import CECP, engine_options
from ..textio import OVERLONG, Channel
from ..xboard.positions import is_start_array
from ..xboard.view import tell_line
from .session import Session
from .thinker import Thinker
from .tools import ToolCommands

ENGINE_NAME = engine_name()          # with the interpreter: "... (PyPy 7.3.11)"
STATUS_GRACE = 0.05     # seconds `.` waits to see whether `exit` follows
RESET_BURST = 1.0       # seconds: commands XBoard sends together in one reset arrive within this
# Commands that let a new game's warm-up go on (XBoard sets the game up after `new`/`variant`);
# any other (a move, `go`, `time`, a position...) ends it at once.
KEEP_TOPUP = ("ping", "new", "variant", "level", "st", "sd", "post", "nopost", "hard", "easy", "random",
              "computer", "name", "rating", "accepted", "rejected", "option",
              "egtpath", "ics", "xboard", "protover", "force", "white", "black", "nps")
_MOVE_LIKE = re.compile(r"^([a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?(,[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?)?|@@@@|O-O(-O)?)$")


class CecpEngine(ToolCommands):
    """The CECP engine. ``run()`` serves until ``quit`` or end of input."""

    def __init__(self, out: IO[str] = sys.stdout, log: Optional[IO[str]] = None,
                 channel: Optional[Channel] = None) -> None:
        self.channel = channel or Channel(out, log)
        # `ping` means "done with everything I sent": the reader answers it only when every
        # command read before it has been executed (while the engine thinks, at once)
        self.channel.sync_word = "ping"
        self.channel.sync_answer = lambda arg: f"pong {arg}".rstrip()
        self.channel.on_quit = self._halt
        self.session = Session()
        self.thinker = Thinker(self.session, self.send, self.channel.internal_error)
        # run at the first `protover`, before `done=1`, on the searcher the games use (warmup.py)
        self._warmup = WarmUp(self.thinker.searcher)
        self._topup = TopUp(self.thinker.driver)    # the variant's own warm-up at new/variant
        self.channel.sync_ready = lambda: self.thinker.searcher.helpers_warmed_up() and not self._topup.running()
        self.cores = 1
        self._arrived = time.perf_counter()     # when the command being executed was read
        # whether the command before this one was a `usermove` the engine refused (see cmd_go)
        self._refused, self._after_refusal = False, False
        self._setup_sent: Optional[float] = None   # when the last `variant` was answered with `setup`
        self._told_mode = False                    # the note after a loaded position was given
        self._xboard = False                       # the GUI accepted `feature highlight` (XBoard)

    def send(self, line: str) -> None:
        self.channel.send(line)

    def _halt(self) -> None:
        """``quit`` was read (reader thread): stop the warm-up or the search."""
        self._warmup.stop()
        self.thinker.halt()

    def tell(self, text: str, error: bool = False) -> None:
        """Show ``text`` to the user in a popup (`telluser`, or `tellusererror`)."""
        self.send(tell_line(text, error))

    def _log(self, direction: str, line: str) -> None:
        self.channel.log(direction, line)

    def run(self, stdin=None, started: bool = False) -> None:
        """Serve commands until ``quit`` or end of input (``started``: the channel already reads)."""
        if not started:
            self.channel.start(stdin)
        self.channel.serve(self._execute, lambda line: f"Error (internal error): {line[:80]}")
        if self.thinker.mode in ("perft", "bench") and not self.channel.quitting.is_set():
            self.thinker.wait()             # end of input: a script's perft or bench runs to its end
        self.thinker.stop(discard=True)

    def _execute(self, line: str, arrived: float) -> bool:
        self._arrived = arrived
        return self.handle(line)

    def handle(self, line: str) -> bool:
        """Execute one command line; False means quit."""
        if not line:
            return True
        if line == OVERLONG:
            self.send("Error (command too long): line dropped")
            return True
        parts = line.split(None, 1)
        cmd, arg = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        self._after_refusal, self._refused = self._refused, False
        if cmd == "quit":
            return False
        if cmd not in KEEP_TOPUP:
            self._topup.interrupt()
        handler = self.COMMANDS.get(cmd)
        if handler is not None:
            handler(self, arg)
        elif _MOVE_LIKE.match(cmd) and not arg:
            self.cmd_usermove(cmd)
        else:
            self.send(f"Error (unknown command): {cmd[:80]}")
        return True

    # ------------------------------------------------------------------ helpers
    def _stop(self) -> None:
        self.thinker.stop(discard=True)

    def _analyze_again(self) -> None:
        if self.thinker.analyzing:
            self.thinker.start("analyze", self._arrived)

    def _claim(self) -> None:
        line = self.session.claim()
        if line:
            self.send(line)

    def _number(self, arg: str, command: str, minimum: float, whole: bool = True) -> Optional[float]:
        """The command's numeric argument, or None after an error line (also for nan/inf)."""
        try:
            value = parse_decimal(arg)
            if value < minimum or (whole and value != int(value)):
                raise ValueError
        except ValueError:
            self.send(f"Error (bad {command}): {arg[:80]}")
            return None
        return value

    # ------------------------------------------------------------------ game commands
    def cmd_xboard(self, arg: str) -> None:
        self.send("")

    def cmd_protover(self, arg: str) -> None:
        names = ",".join(variant_names())
        self.send("feature done=0")
        self._warmup.run(warmup_seconds())
        self.send(f'feature myname="{ENGINE_NAME}" ping=1 setboard=1 usermove=1 san=0 sigint=0 sigterm=1 '
                  f'time=1 nps=1 draw=1 reuse=1 colors=0 playother=1 analyze=1 debug=1 memory=1 smp=1 '
                  f'exclude=1 highlight=1 variants="{names}"')
        for option in engine_options(CECP):
            self.send(option.cecp_feature())
        self.send("feature done=1")

    def cmd_ignore(self, arg: str) -> None:
        pass

    def cmd_accepted(self, arg: str) -> None:
        if arg == "highlight":
            self._xboard = True

    def cmd_new(self, arg: str) -> None:
        self._stop()
        self.thinker.analyzing = False
        self.session.reset("normal")
        self.thinker.clear()
        self._topup.begin(self.session.pos)

    def cmd_variant(self, arg: str) -> None:
        name = arg.split()[0] if arg else ""
        if name not in variant_names():
            self.send(f"Error (unsupported variant): {name[:80]}")
            return
        self._stop()
        self.session.reset(name)
        lines = self.session.setup_lines()
        for line in lines:
            self.send(line)
        self._setup_sent = self._arrived if lines else None
        if not self.thinker.analyzing:
            self._topup.begin(self.session.pos)
        self._analyze_again()

    def cmd_setboard(self, arg: str) -> None:
        try:
            pos = self.session.board_from_fen(arg)
        except RulesError as error:
            reason = str(error).split(":")[0][:80]
            self.tell(f"Illegal position ({reason}); the engine keeps its position.", error=True)
            return
        self._stop()
        for line in self.session.setboard(pos):
            self.send(line)
        self._loaded_note(pos)
        self._analyze_again()

    def _loaded_note(self, pos: Position) -> None:
        """After XBoard's Load Position or Paste Position in a variant the engine describes to
        XBoard (a ``setboard`` in force mode of a position other than a start array, which XBoard
        also sends a second engine), XBoard is in Edit Game mode, where the engine does not play:
        say so, once.  A position with Black to move loaded in the middle of a session (its
        ``setboard`` comes at once after the reset's ``variant``) fails in XBoard 4.9.1: it ignores
        the `setup` sent then, says "Engine did not send setup for non-standard variant" and falls
        back to orthodox chess: say how to load it.  Only to XBoard (a GUI that takes `feature
        highlight`, where a human moves the pieces)."""
        if not (self._xboard and self.session.force and get_variant(self.session.variant).xboard_pieces):
            return
        just_reset = self._setup_sent is not None and self._arrived - self._setup_sent < RESET_BURST
        if pos.stm == 1 and just_reset:
            self.tell("XBoard cannot load a position with Black to move in the middle of a session "
                      "in this variant: it falls back to orthodox chess. Restart XBoard; then choose "
                      "File > New Game before File > Load Position, or use Edit > Paste Position.")
        elif not self._told_mode and not is_start_array(self.session.variant, pos.fen().split()[0]):
            self._told_mode = True
            self.tell("Position loaded. Choose Mode > Machine White or Machine Black, and I will "
                      "play that side.")

    def cmd_usermove(self, arg: str) -> None:
        self._stop()           # a move while the engine thinks: the GUI has switched sides
        try:
            notice = self.session.push_user_move(arg)
        except RulesError:
            hint = self.session.refusal_hint(arg)
            if hint:
                self.tell(hint)
            self.send(f"Illegal move: {arg[:80]}")
            self._refused = True
            self._analyze_again()
            return
        if notice:
            self.tell(notice)
        if not self.thinker.analyzing:
            self._claim()
        if not self._stuck():
            self.thinker.maybe_think(self._arrived)

    def _stuck(self) -> bool:
        """Whether the engine is to move but XBoard 4.9.1 would drop any move it sends (its board
        lost every unit the engine can move); then it says what the user can do, and waits."""
        notice = self.session.stuck_notice()
        if notice:
            self.tell(notice)
        return notice is not None

    def cmd_go(self, arg: str) -> None:
        """Play the side to move.  Except right after a refused ``usermove``: XBoard sends the
        first move of a game that began with ``setboard`` (a loaded position, Chess960) followed
        at once by ``go``, before it reads the refusal, meaning "now play the other side".  Taken
        literally, the engine would move for the human while XBoard waits for its reply: so the
        engine takes the side the refused move would have handed the move to, and waits."""
        if self._after_refusal:
            self._log("!", "go right after a refused move: the engine plays the side not to move")
            self.cmd_playother(arg)
            return
        self._stop()
        over = self.session.go()
        if over:
            self.send(over)
        elif not self._stuck():
            self.thinker.start("think", self._arrived)

    def cmd_force(self, arg: str) -> None:
        self._stop()
        self.session.force = True

    def cmd_playother(self, arg: str) -> None:
        self._stop()
        self.session.playother()
        if self.thinker.ponder and not self.session.game_over:
            self.thinker.start("ponder", self._arrived)

    def cmd_white(self, arg: str) -> None:
        """Legacy: White to move, the engine plays Black."""
        self._set_side_to_move(0)

    def cmd_black(self, arg: str) -> None:
        """Legacy: Black to move, the engine plays White."""
        self._set_side_to_move(1)

    def _set_side_to_move(self, side: int) -> None:
        self._stop()
        if not self.session.set_side_to_move(side):
            self.send("Error (side to move cannot change here): " + "wb"[side])

    def cmd_result(self, arg: str) -> None:
        self._stop()
        self.session.game_over = True
        self.thinker.analyzing = False

    def _take_back(self, plies: int) -> None:
        self._stop()
        if not self.session.take_back(plies):
            self.send(f"Error (nothing to undo): {'undo' if plies == 1 else 'remove'}")
            return
        if self.thinker.analyzing:
            self._analyze_again()
        elif plies == 2:
            self.thinker.maybe_think(self._arrived)

    def cmd_undo(self, arg: str) -> None:
        self._take_back(1)

    def cmd_remove(self, arg: str) -> None:
        self._take_back(2)

    def cmd_draw(self, arg: str) -> None:
        if not self.session.game_over and self.thinker.last_score <= -200:
            self.send("offer draw")

    # ------------------------------------------------------------------ clock commands
    def cmd_level(self, arg: str) -> None:
        parts = arg.split()
        try:
            if len(parts) != 3:
                raise ValueError
            mps = parse_int(parts[0])
            if ":" in parts[1]:
                minutes, seconds = parts[1].split(":")
                base = parse_int(minutes) * 60 + parse_decimal(seconds)
            else:
                base = parse_decimal(parts[1]) * 60
            inc = parse_decimal(parts[2])
            if mps < 0 or base < 0 or inc < 0:
                raise ValueError
        except ValueError:
            self.send(f"Error (bad level): {arg[:80]}")
            return
        self.session.set_level(mps, base, inc)

    def cmd_st(self, arg: str) -> None:
        value = self._number(arg, "st", 0.001, whole=False)
        if value is not None:
            self.session.st = value

    def cmd_sd(self, arg: str) -> None:
        value = self._number(arg, "sd", 1)
        if value is not None:
            self.session.sd = int(value)

    def cmd_nps(self, arg: str) -> None:
        value = self._number(arg, "nps", 0)
        if value is not None:
            self.session.nps = int(value) or None

    def cmd_time(self, arg: str) -> None:
        value = self._number(arg, "time", -1e12, whole=False)
        if value is not None:
            self.session.set_time(int(value), self._arrived)

    def cmd_otim(self, arg: str) -> None:
        value = self._number(arg, "otim", -1e12, whole=False)
        if value is not None:
            self.session.opp_time = max(0, int(value)) / 100.0

    # ------------------------------------------------------------------ search commands
    def cmd_movenow(self, arg: str) -> None:
        self.thinker.move_now()

    def cmd_ping(self, arg: str) -> None:
        self._topup.wait()                              # the new game's warm-up: the GUI waits for it
        if not self.thinker.mode:
            self.thinker.searcher.wait_for_helpers()    # a game begun meanwhile would share a core
        self.send(f"pong {arg}".rstrip())

    def cmd_hint(self, arg: str) -> None:
        self.thinker.hint()

    def cmd_bk(self, arg: str) -> None:
        self.send("\tNo book moves")
        self.send("")

    def cmd_hard(self, arg: str) -> None:
        self.thinker.ponder = True

    def cmd_easy(self, arg: str) -> None:
        self.thinker.ponder = False
        if self.thinker.mode == "ponder":
            self._stop()

    def cmd_post(self, arg: str) -> None:
        self.thinker.post = True

    def cmd_nopost(self, arg: str) -> None:
        self.thinker.post = False

    def cmd_analyze(self, arg: str) -> None:
        self.thinker.analyzing = True
        self.thinker.start("analyze", self._arrived)

    def cmd_exit(self, arg: str) -> None:
        if self.thinker.analyzing:
            self._stop()
            self.thinker.analyzing = False

    def cmd_status(self, arg: str) -> None:
        """``.``: a `stat01` line in analyze mode.  Not when ``exit`` follows at once (python-chess
        ends its analysis with ``.`` and ``exit`` and takes the answer for unexpected output; the
        analysis being asked about is over anyway)."""
        line = self.thinker.status_line()
        if line and (self.channel.peek(STATUS_GRACE) or "").split()[:1] != ["exit"]:
            self.send(line)

    def cmd_exclude(self, arg: str) -> None:
        self._set_exclusion(arg, True)

    def cmd_include(self, arg: str) -> None:
        self._set_exclusion(arg, False)

    def _set_exclusion(self, arg: str, exclude: bool) -> None:
        pos = self.session.pos
        try:
            moves = pos.legal_moves() if arg == "all" else [pos.parse_move(arg)]
        except RulesError:
            self.send(f"Illegal move: {arg[:80]}")
            return
        self.session.set_exclusion(moves, exclude)
        self._analyze_again()

    COMMANDS: Dict[str, Callable[["CecpEngine", str], None]] = {}




CecpEngine.COMMANDS = {
    "xboard": CecpEngine.cmd_xboard, "protover": CecpEngine.cmd_protover,
    "accepted": CecpEngine.cmd_accepted, "rejected": CecpEngine.cmd_ignore,
    "new": CecpEngine.cmd_new, "variant": CecpEngine.cmd_variant, "setboard": CecpEngine.cmd_setboard,
    "usermove": CecpEngine.cmd_usermove, "go": CecpEngine.cmd_go, "force": CecpEngine.cmd_force,
    "playother": CecpEngine.cmd_playother, "white": CecpEngine.cmd_white, "black": CecpEngine.cmd_black,
    "level": CecpEngine.cmd_level, "st": CecpEngine.cmd_st, "sd": CecpEngine.cmd_sd, "nps": CecpEngine.cmd_nps,
    "time": CecpEngine.cmd_time, "otim": CecpEngine.cmd_otim, "?": CecpEngine.cmd_movenow,
    "ping": CecpEngine.cmd_ping, "draw": CecpEngine.cmd_draw, "result": CecpEngine.cmd_result,
    "undo": CecpEngine.cmd_undo, "remove": CecpEngine.cmd_remove, "hint": CecpEngine.cmd_hint,
    "bk": CecpEngine.cmd_bk, "hard": CecpEngine.cmd_hard, "easy": CecpEngine.cmd_easy,
    "post": CecpEngine.cmd_post, "nopost": CecpEngine.cmd_nopost, "analyze": CecpEngine.cmd_analyze,
    "exit": CecpEngine.cmd_exit, ".": CecpEngine.cmd_status, "exclude": CecpEngine.cmd_exclude,
    "include": CecpEngine.cmd_include, "name": CecpEngine.cmd_ignore, "rating": CecpEngine.cmd_ignore,
    "computer": CecpEngine.cmd_ignore, "ics": CecpEngine.cmd_ignore, "memory": CecpEngine.cmd_memory,
    "cores": CecpEngine.cmd_cores, "random": CecpEngine.cmd_random, "option": CecpEngine.cmd_option,
    "perft": CecpEngine.cmd_perft, "bench": CecpEngine.cmd_bench, "d": CecpEngine.cmd_display, "board": CecpEngine.cmd_display,
    "debug": CecpEngine.cmd_ignore, "otherside": CecpEngine.cmd_ignore,
    "lift": CecpEngine.cmd_lift, "put": CecpEngine.cmd_put, "hover": CecpEngine.cmd_ignore,
}
