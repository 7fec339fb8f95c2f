"""The engine's options: one table, rendered by each protocol (CECP's ``feature option=`` lines,
UCI's ``option name`` lines) and read back from what the GUI sends (``option NAME=VALUE``,
``setoption name NAME value VALUE``).

Values are kept typed: a check box is a bool, a spin an int, a combo or string a str, a button None.
A GUI may write a name in any case and with underscores for spaces: CECP announces names with
underscores (python-chess takes an option's name to end at its first space), and settings saved by
older versions spell some names in lower case.
"""
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

from ..core.digits import parse_int
from ..core.variant import VARIANT_ALIASES, setup_count, variant_names
from ..search.searcher import FULL_SKILL
from ..search.parallel.smp import MAX_THREADS

CECP = "cecp"
UCI = "uci"

OptionValue = Union[bool, int, str, None]

# UCI_Variant's choices are our variant names and "chess" (python-chess sends that for orthodox chess
# and Chess960, as Fairy-Stockfish names it); the other names of variant.VARIANT_ALIASES read as one
# of them.

# UCI_Elo: the strength limit is the "Skill Level" (search depth and root noise, search.py); level L
# is announced as ELO_MIN + L * ELO_PER_LEVEL (docs/ENGINE.md, "Options", and docs/STRENGTH.md for what was measured).
ELO_MIN = 800
ELO_PER_LEVEL = 60
ELO_MAX = ELO_MIN + (FULL_SKILL - 1) * ELO_PER_LEVEL     # the strongest limited level

# Names the protocol layers act on.  An option both protocols offer has one name, in UCI's style;
# the names only CECP offers keep the spelling XBoard users have saved (XBoard sends a saved setting
# only under the exact name the engine announces).
HASH = "Hash"
THREADS = "Threads"
PONDER = "Ponder"
MULTIPV = "MultiPV"
CHESS960 = "UCI_Chess960"
VARIANT = "UCI_Variant"
LIMIT_STRENGTH = "UCI_LimitStrength"
ELO = "UCI_Elo"
SKILL = "Skill Level"
MOVE_OVERHEAD = "Move Overhead"
NODES_PER_MOVE = "Nodes per move"
CLEAR_HASH = "Clear Hash"
SETUP_NUMBER = "Setup Number"
LANCER_TURN_CASTLES = "Castle With Lancer Turn"
MISDRAWS = "Avoid moves XBoard 4.9.1 misdraws"


class EngineOption(NamedTuple):
    """One option: ``kind`` is check, spin, combo, button or string."""
    name: str
    kind: str
    default: OptionValue = None
    low: int = 0
    high: int = 0
    choices: Tuple[str, ...] = ()
    protocols: Tuple[str, ...] = (CECP, UCI)
    # the default over CECP where XBoard needs another one than other GUIs (None: ``default``)
    xboard_default: OptionValue = None

    def default_for(self, protocol: str) -> OptionValue:
        if protocol == CECP and self.xboard_default is not None:
            return self.xboard_default
        return self.default

    def parse(self, text: str) -> Tuple[bool, OptionValue]:
        """(True, the value) for the text a GUI sent, or (False, None) if it is not one."""
        text = text.strip()
        if self.kind == "check":
            word = text.lower()
            if word in ("true", "1"):
                return True, True
            if word in ("false", "0"):
                return True, False
            return False, None
        if self.kind == "spin":
            try:
                number = parse_int(text)
            except ValueError:
                return False, None
            return (True, number) if self.low <= number <= self.high else (False, None)
        if self.kind == "combo":
            wanted = VARIANT_ALIASES.get(text.lower(), text).lower() if self.name == VARIANT else text.lower()
            for choice in self.choices:
                if choice.lower() == wanted:
                    return True, choice
            return False, None
        if self.kind == "button":
            return True, None
        return True, text

    def uci_line(self) -> str:
        """The option as ``uci`` lists it."""
        text = f"option name {self.name} type {self.kind}"
        if self.kind == "button":
            return text
        default = self.default
        text += f" default {str(default).lower() if isinstance(default, bool) else default}"
        if self.kind == "spin":
            text += f" min {self.low} max {self.high}"
        for choice in self.choices:
            text += f" var {choice}"
        return text

    def cecp_feature(self) -> str:
        """The option as CECP announces it (``feature option="..."``)."""
        name = self.name.replace(" ", "_")
        default = self.default_for(CECP)
        if self.kind == "button":
            return f'feature option="{name} -button"'
        if self.kind == "check":
            return f'feature option="{name} -check {int(bool(default))}"'
        if self.kind == "spin":
            return f'feature option="{name} -spin {default} {self.low} {self.high}"'
        if self.kind == "combo":
            return f'feature option="{name} -combo ' + " /// ".join(
                ("*" if c == default else "") + c for c in self.choices) + '"'
        return f'feature option="{name} -string {default}"'


def last_setup_number() -> int:
    """The highest setup number of any variant (the option applies to whichever is played)."""
    return max(setup_count(name) for name in variant_names()) - 1


def _table() -> List[EngineOption]:
    return [
        EngineOption(HASH, "spin", 64, 1, 2048),              # transposition table, MB (CECP `memory` too)
        EngineOption(THREADS, "spin", 1, 1, MAX_THREADS, protocols=(UCI,)),   # CECP: `cores`
        EngineOption(PONDER, "check", False, protocols=(UCI,)),                # CECP: `hard`/`easy`
        EngineOption(MULTIPV, "spin", 1, 1, 256),             # lines shown in analysis
        EngineOption(CHESS960, "check", False, protocols=(UCI,)),              # CECP: `variant`
        EngineOption(VARIANT, "combo", "normal", choices=tuple(["normal", "chess"] + variant_names()[1:]),
                     protocols=(UCI,)),
        EngineOption(LIMIT_STRENGTH, "check", False, protocols=(UCI,)),
        EngineOption(ELO, "spin", ELO_MAX, ELO_MIN, ELO_MAX, protocols=(UCI,)),
        EngineOption(SKILL, "spin", FULL_SKILL, 0, FULL_SKILL),   # lower: shallower, noisier choice
        EngineOption(MOVE_OVERHEAD, "spin", 10, 0, 5000, protocols=(UCI,)),    # ms; CECP learns the lag
        # 0 = think by the clock; else a fixed search size and no random choice: the same moves every game
        EngineOption(NODES_PER_MOVE, "spin", 0, 0, 1_000_000_000, protocols=(CECP,)),  # UCI: `go nodes`
        EngineOption(CLEAR_HASH, "button"),
        EngineOption(SETUP_NUMBER, "spin", -1, -1, last_setup_number()),
        # XBoard relays a castle with a lancer turn without the turn (its move list has no room for
        # it), so over CECP the engine avoids such castles unless this is set; other GUIs send the
        # move text as written.
        EngineOption(LANCER_TURN_CASTLES, "check", True, xboard_default=False),
        # XBoard 4.9.1 with legality testing off: the engine keeps XBoard's picture of the board
        # (xboard_picture.py) and plays moves XBoard cannot show (pushes, 2019 edge captures, some
        # castles) only when nothing else is legal.
        EngineOption(MISDRAWS, "check", False, protocols=(CECP,)),
    ]


_OPTIONS: List[EngineOption] = []


def engine_options(protocol: str) -> List[EngineOption]:
    """The options offered over ``protocol`` (CECP or UCI), in the order they are announced."""
    if not _OPTIONS:
        _OPTIONS.extend(_table())
    return [o for o in _OPTIONS if protocol in o.protocols]


def default_values(protocol: str) -> Dict[str, OptionValue]:
    """Every option of ``protocol`` at its default, by name (buttons left out)."""
    return {o.name: o.default_for(protocol) for o in engine_options(protocol) if o.kind != "button"}


def find_option(name: str, protocol: str) -> Optional[EngineOption]:
    """The option ``name`` means over ``protocol``, or None.  Case, underscores for spaces and runs
    of spaces do not matter."""
    wanted = " ".join(name.replace("_", " ").split()).lower()
    for option in engine_options(protocol):
        if option.name.replace("_", " ").lower() == wanted:
            return option
    return None
