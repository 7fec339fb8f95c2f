"""Time controls, in one place: cutechess-cli's text (``40/300+3``, ``5:00+3``, ``st``, ``nodes``,
``depth``, ``inf``) as the tournament runner, the web app and the bot client read it, 8 Player
Chess's ``MINUTES+SECONDS``, what each protocol is told, how a clock is charged, and the bounds a
game on the web server may have."""
import math
import re
from typing import Any, Dict, List, Optional, NamedTuple, Tuple

_TC = re.compile(r"^(?:([0-9]+)/)?([0-9]+(?::[0-9]+(?:\.[0-9]+)?)?(?:\.[0-9]+)?)(?:\+([0-9]+(?:\.[0-9]+)?))?$")


class TimeControl(NamedTuple):
    """cutechess-cli's time controls: ``moves/base+inc`` (seconds; base may be ``m:ss``), ``st``
    seconds per move, ``nodes`` or ``depth`` limits, or ``inf``."""
    moves: int = 0
    base: float = 0.0
    inc: float = 0.0
    st: Optional[float] = None
    nodes: Optional[int] = None
    depth: Optional[int] = None
    infinite: bool = False
    margin: float = 0.2           # seconds an engine may overrun before it forfeits

    @classmethod
    def parse(cls, tc: Optional[str] = None, st: Optional[str] = None, nodes: Optional[str] = None,
              depth: Optional[str] = None, margin: Optional[str] = None) -> "TimeControl":
        """Raises ValueError with a message naming the bad value."""
        fields: Dict[str, object] = {}
        if tc is not None:
            if tc == "inf":
                fields["infinite"] = True
            else:
                m = _TC.match(tc)
                if not m:
                    raise ValueError(f"bad time control {tc!r} (want e.g. 40/60+0.5, 10+0.1, 0:30, inf)")
                base = m.group(2)
                if ":" in base:
                    minutes, seconds = base.split(":")
                    base_s = int(minutes) * 60 + float(seconds)
                else:
                    base_s = float(base)
                fields.update(moves=int(m.group(1) or 0), base=base_s, inc=float(m.group(3) or 0))
        try:
            if st is not None:
                fields["st"] = float(st)
                if fields["st"] <= 0:
                    raise ValueError
            if nodes is not None:
                fields["nodes"] = int(nodes)
            if depth is not None:
                fields["depth"] = int(depth)
            if margin is not None:
                fields["margin"] = float(margin)
        except ValueError:
            raise ValueError(f"bad time control value: st={st} nodes={nodes} depth={depth} "
                             f"timemargin={margin}") from None
        if tc is None and st is None and nodes is None and depth is None:
            raise ValueError("no time control: give tc=, st=, nodes= or depth=")
        return cls(**fields)  # type: ignore[arg-type]

    def pgn(self) -> str:
        if self.st is not None:
            return f"{self.st:g}/move"
        if self.infinite or (self.base == 0 and self.inc == 0):
            return "-"
        text = f"{self.base:g}" + (f"+{self.inc:g}" if self.inc else "")
        return f"{self.moves}/{text}" if self.moves else text

    @property
    def has_clock(self) -> bool:
        return self.st is None and not self.infinite and (self.base > 0 or self.inc > 0)

    @property
    def move_time(self) -> Optional[float]:
        """Seconds per move as XBoard engines are told them (whole seconds, at least 1)."""
        return None if self.st is None else float(max(1, math.ceil(self.st - 1e-9)))

    def xboard_commands(self) -> List[str]:
        if self.st is not None:
            out = [f"st {int(self.move_time)}"]
        elif not self.has_clock:
            out = ["level 0 9999 0"]
        else:
            whole = max(1, int(self.base))           # CECP's level takes whole seconds
            minutes, seconds = divmod(whole, 60)
            base = f"{minutes}:{seconds:02d}" if seconds else f"{minutes}"
            out = [f"level {self.moves} {base} {self.inc:g}"]
        if self.depth:
            out.append(f"sd {self.depth}")
        if self.nodes:
            # As cutechess-cli: CECP has no node limit, but with ``nps N`` an engine counts its clock
            # in nodes, so ``st 1`` is N nodes a move.  (``nps`` alone, with the clockless ``level``
            # above, let an engine think for 9999 minutes' worth of nodes.)
            out += ["st 1", f"nps {self.nodes}"]
        return out

    def charge(self, clock: float, elapsed: float, moves_done: int) -> float:
        """The clock after a move that took ``elapsed`` seconds, the mover's ``moves_done``-th:
        less the time, plus the increment, plus a new period's base when one is complete."""
        clock = clock - elapsed + self.inc
        if self.moves and moves_done % self.moves == 0:
            clock += self.base
        return clock

    def budget(self, remaining: float, uci: bool = False) -> float:
        """Seconds the engine may use for this move before it forfeits."""
        if self.st is not None:
            return (self.st if uci else self.move_time) + self.margin   # what the engine was told
        if not self.has_clock:
            return 3600.0
        return remaining + self.margin


# What a game's clock may be: at most 3 hours and 3 minutes a move, and enough time for a game
# (the base and 40 increments at least 30 seconds: "1+0" is no game); st and depth bound engines.
MAX_BASE, MAX_INCREMENT, MIN_GAME = 3 * 3600.0, 180.0, 30.0
MAX_MOVE_SECONDS, MAX_DEPTH = 60.0, 30


def parse_time_control(text: str) -> TimeControl:
    """The tournament runner's time controls: ``moves/base+inc`` in seconds (``300+3``, ``40/300``,
    ``5:00+3``), or without a clock: ``st=SECONDS`` an engine's move, ``depth=PLIES`` an engine's
    search depth (a weaker, quick opponent).  Raises ValueError with the reason, also for a clock
    out of range (see MAX_BASE, MAX_INCREMENT, MIN_GAME)."""
    text = text.strip()
    if text.startswith("st="):
        tc = TimeControl.parse(st=text[3:])
        if not tc.st or not 0.05 <= tc.st <= MAX_MOVE_SECONDS:
            raise ValueError(f"st={text[3:]}: an engine's seconds a move, 0.05 to {MAX_MOVE_SECONDS:g}")
        return tc
    if text.startswith("depth="):
        tc = TimeControl.parse(depth=text[6:])
        if not tc.depth or not 1 <= tc.depth <= MAX_DEPTH:
            raise ValueError(f"bad depth {text[6:]!r} (want 1 to {MAX_DEPTH})")
        return tc
    if text == "inf":
        raise ValueError("inf: give an engine st=SECONDS or depth=PLIES instead")
    tc = TimeControl.parse(tc=text)
    if tc.base > MAX_BASE or tc.inc > MAX_INCREMENT or tc.moves > 200:
        raise ValueError(f"{text}: at most {MAX_BASE / 3600:g} hours, {MAX_INCREMENT:g} s a move, 200 moves a session")
    if tc.base + 40 * tc.inc < MIN_GAME:
        raise ValueError(f"{text}: too short for a game (the base and 40 increments must make {MIN_GAME:g} s)")
    return tc


INCREMENTS_COUNTED = 40                 # a clock's length: its base and this many increments
MAX_CLOCK_SECONDS = MAX_BASE + INCREMENTS_COUNTED * MAX_INCREMENT     # the longest clock a game may have


def clock_seconds(tc: Any) -> Optional[float]:
    """A clock's length as seeks' and bots' rules count it, base + 40 increments in seconds; None
    for what is not a clock of seconds + increment (no clock, moves in a session, an engine's limits)."""
    if not isinstance(tc, str) or tc == "none" or tc.startswith(("st=", "depth=")) or "/" in tc:
        return None
    try:
        parsed = parse_time_control(tc)
    except ValueError:
        return None
    return parsed.base + INCREMENTS_COUNTED * parsed.inc if parsed.has_clock else None


_MINUTES_CLOCK = re.compile(r"([0-9]+(?:\.[0-9]+)?)(?:\+([0-9]+(?:\.[0-9]+)?))?")
MAX_MINUTES_BASE, MAX_MINUTES_INCREMENT = 24 * 3600.0, 3600.0


def parse_minutes_clock(text: str) -> Tuple[str, TimeControl]:
    """8 Player Chess's time controls as its pages write them: ``MINUTES+SECONDS`` added a move
    (``10+5``; ``10`` is ``10+0``), or ``none`` (also ``""`` and ``-``) for no clock.  The text as
    kept (lower case, ``none`` for no clock) and the time control (seconds; no clock: ``has_clock``
    false).  Raises ValueError with the reason."""
    text = text.strip().lower()
    if text in ("", "none", "-"):
        return "none", TimeControl()
    match = _MINUTES_CLOCK.fullmatch(text)
    if not match:
        raise ValueError(f"time control {text!r}: want MINUTES+SECONDS (e.g. 10+5) or none")
    base, inc = float(match.group(1)) * 60, float(match.group(2) or 0)
    if not 0 < base <= MAX_MINUTES_BASE or inc > MAX_MINUTES_INCREMENT:
        raise ValueError(f"time control {text!r} is out of range (up to 1440 minutes, 3600 s a move)")
    return text, TimeControl(base=base, inc=inc)
