"""What a UCI GUI sends, read apart from the engine's state: the options (``option name`` lines
and the values ``setoption`` may give them) and the arguments of ``go``.
"""
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from .cecp_options import last_setup_number
from .digits import parse_int
from .errors import RulesError
from .moves import Move
from .position import Position
from .search import FULL_SKILL
from .smp import MAX_THREADS
from .variant import variant_names

# UCI_Variant's choices are our variant names and "chess" (python-chess sends that for orthodox chess
# and Chess960, as Fairy-Stockfish names it); other names read as one of them:
VARIANT_ALIASES = {"standard": "normal", "chess960": "fischerandom"}

# UCI_Elo: the strength limit is the "Skill Level" (search depth and root noise, search.py); level L
# is announced as ELO_MIN + L * ELO_PER_LEVEL (see the README for what was measured).
ELO_MIN = 800
ELO_PER_LEVEL = 60
ELO_MAX = ELO_MIN + (FULL_SKILL - 1) * ELO_PER_LEVEL     # the strongest limited level


class Option(NamedTuple):
    """A UCI option: ``kind`` check, spin, combo, button or string."""
    name: str
    kind: str
    default: str = ""
    low: int = 0
    high: int = 0
    choices: Tuple[str, ...] = ()

    def line(self) -> str:
        text = f"option name {self.name} type {self.kind}"
        if self.kind == "button":
            return text
        text += f" default {self.default}"
        if self.kind == "spin":
            text += f" min {self.low} max {self.high}"
        for choice in self.choices:
            text += f" var {choice}"
        return text

    def parse(self, value: str) -> Optional[str]:
        """The option's value for the text ``value``, or None if it is not one."""
        if self.kind == "check":
            return value.lower() if value.lower() in ("true", "false") else None
        if self.kind == "spin":
            try:
                number = parse_int(value)
            except ValueError:
                return None
            return str(number) if self.low <= number <= self.high else None
        if self.kind == "combo":
            name = VARIANT_ALIASES.get(value.lower(), value) if self.name == "UCI_Variant" else value
            for choice in self.choices:
                if choice.lower() == name.lower():
                    return choice
            return None
        return value


def uci_options() -> List[Option]:
    return [
        Option("Hash", "spin", "64", 1, 2048),
        Option("Threads", "spin", "1", 1, MAX_THREADS),  # search processes (smp.py)
        Option("Ponder", "check", "false"),
        Option("MultiPV", "spin", "1", 1, 256),
        Option("UCI_Chess960", "check", "false"),
        Option("UCI_Variant", "combo", "normal", choices=tuple(["normal", "chess"] + variant_names()[1:])),
        Option("UCI_LimitStrength", "check", "false"),
        Option("UCI_Elo", "spin", str(ELO_MAX), ELO_MIN, ELO_MAX),
        Option("Skill Level", "spin", str(FULL_SKILL), 0, FULL_SKILL),
        Option("Move Overhead", "spin", "10", 0, 5000),
        Option("Clear Hash", "button"),
        Option("Setup Number", "spin", "-1", -1, last_setup_number()),
        Option("Castle With Lancer Turn", "check", "true"),
    ]


class Go(NamedTuple):
    """The arguments of one ``go`` (times in seconds)."""
    wtime: Optional[float] = None
    btime: Optional[float] = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: Optional[int] = None
    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: Tuple[Move, ...] = ()
    perft: Optional[int] = None


def parse_go(arg: str, pos: Position, error: Callable[[str], None]) -> Go:
    """The ``go`` arguments (moves read in ``pos``); a bad one is reported to ``error`` and left out."""
    words = arg.split()
    fields: Dict[str, object] = {}
    seconds = {"wtime", "btime", "winc", "binc", "movetime"}
    whole = {"movestogo", "depth", "nodes", "mate", "perft"}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("infinite", "ponder"):
            fields[word] = True
        elif word == "searchmoves":
            chosen = []
            while i + 1 < len(words) and words[i + 1] not in seconds | whole | {"infinite", "ponder"}:
                i += 1
                try:
                    chosen.append(pos.parse_uci(words[i]))
                except RulesError as problem:
                    error(f"searchmoves: {str(problem)[:120]}; left out")
            fields["searchmoves"] = tuple(chosen)
        elif word in seconds or word in whole:
            i += 1
            value = words[i] if i < len(words) else ""
            try:
                number = parse_int(value)
                if word not in ("wtime", "btime") and number < 0:
                    raise ValueError
            except ValueError:
                error(f"go {word}: not a number: {value[:40]!r}; left out")
            else:
                fields[word] = number / 1000.0 if word in seconds else number
        else:
            error(f"go: unknown word {word[:40]!r}; left out")
        i += 1
    return Go(**fields)  # type: ignore[arg-type]
