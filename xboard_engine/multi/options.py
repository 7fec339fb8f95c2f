"""The modes of an 8 Player Chess game and its options, the text's rule-changing variations (E5):
their names and the modes each applies to, and ``Options.make``, which reads them from a dict
(values may be text, as from a command line) and raises ``RulesOptionError`` for a bad one.
"""
import operator
import re
from typing import Dict, Mapping, NamedTuple, Optional, Tuple

from ..core.errors import RulesError
from .modes import MODES

# name -> (help, modes it is allowed in)
OPTION_NAMES: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "immediate_checkmate": ("a player in an inescapable checkmate is out at once, whoever is to move", MODES),
    "capture_the_king": ("no check at all; a player is out when its king is captured", MODES),
    "last_king_standing": ("the winner is the last player left", MODES),
    "only_king_points": ("only the king is worth points", ("singles", "pairs")),
    "custom_points": ("capture values, e.g. P1,N3,B3,R5,Q9,K25", MODES),
    "one_point_queen": ("pawns promote to a queen worth 1 point", ("singles", "pairs")),
    "checkpoints": ("points for checking several kings with one move (7 kings wins)", ("singles", "pairs")),
    "partner_knockout": ("a checkmated player's partner is checkmated too", ("pairs",)),
    "checkmates_needed": ("checkmates a team needs to win: 1, 2, 3 or 4", ("teams",)),
    "zombie_king": ("a player who resigns or times out keeps a king that moves at random",
                    ("singles", "pairs")),
}


class RulesOptionError(RulesError):
    """An option that does not exist, has a bad value, or does not apply to the mode (also a bad
    seed, the Zombie King's random moves' number)."""


_ON = ("1", "true", "yes", "on")
_OFF = ("0", "false", "no", "off")


class Options(NamedTuple):
    """The text's rule-changing variations, as options of one game (E5)."""
    immediate_checkmate: bool = False
    capture_the_king: bool = False
    last_king_standing: bool = False
    only_king_points: bool = False
    custom_points: Optional[Tuple[Tuple[str, int], ...]] = None
    one_point_queen: bool = False
    checkpoints: bool = False
    partner_knockout: bool = False
    checkmates_needed: Optional[int] = None
    zombie_king: bool = False

    @classmethod
    def make(cls, mode: str, given: Optional[Dict[str, object]] = None) -> "Options":
        """Options from a dict (values may be text, as from a command line); raises RulesOptionError."""
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise RulesOptionError(f"options are a dict of option names and values, not {given!r}")
        values: Dict[str, object] = {}
        for name, value in given.items():
            if not isinstance(name, str):
                raise RulesOptionError(f"an option name is text, not {name!r}")
            key = name.replace("-", "_")
            if key not in OPTION_NAMES:
                raise RulesOptionError(f"unknown option {name!r}; known: {', '.join(OPTION_NAMES)}")
            if mode not in OPTION_NAMES[key][1]:
                raise RulesOptionError(f"option {name!r} is for {' and '.join(OPTION_NAMES[key][1])}, "
                                       f"not {mode}")
            if key == "custom_points":
                values[key] = _points(value)
            elif key == "checkmates_needed":
                # A whole number (or its digits, as from a command line); not True, not 2.7.
                n = whole_number(value)
                if n not in (1, 2, 3, 4):
                    raise RulesOptionError(f"checkmates_needed is 1, 2, 3 or 4, not {value!r}")
                values[key] = n
            else:
                if isinstance(value, str) and value.strip().lower() in _ON + _OFF:
                    value = value.strip().lower() in _ON
                elif value is None or (not isinstance(value, bool) and whole_number(value) == 0):
                    value = False
                elif not isinstance(value, bool) and whole_number(value) == 1:
                    value = True
                if not isinstance(value, bool):
                    raise RulesOptionError(f"option {name!r} is on or off, not {value!r}")
                values[key] = value
        return cls(**values)  # type: ignore[arg-type]

    def as_dict(self) -> Dict[str, object]:
        """The options that differ from the standard game (JSON and records)."""
        out: Dict[str, object] = {}
        for name, value in self._asdict().items():
            if value not in (False, None):
                out[name] = ",".join(f"{k}{v}" for k, v in value) if name == "custom_points" else value
        return out


def whole_number(value: object) -> Optional[int]:
    """``value`` as a whole number if it is one (an int, not a bool; or text of digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return int(value.strip()) if re.fullmatch(r"\s*[0-9]+\s*", value) else None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _points(value: object) -> Tuple[Tuple[str, int], ...]:
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, str):
        items = []
        for part in value.replace(" ", ",").split(","):
            if part:
                items.append((part[:1], part[1:]))
    else:
        raise RulesOptionError(f"custom_points are text such as P1,N3,B3,R5,Q9,K25, not {value!r}")
    if not items:
        raise RulesOptionError(f"custom_points: no values in {value!r} (e.g. P1,N3,B3,R5,Q9,K25)")
    out = []
    for letter, number in items:
        letter = str(letter).upper()
        if letter not in "PNBRQK" or len(letter) != 1:
            raise RulesOptionError(f"custom_points: {letter!r} is not one of P N B R Q K")
        if any(given == letter for given, _ in out):
            raise RulesOptionError(f"custom_points: {letter} is given twice in {value!r}")
        points = whole_number(number)
        if points is None or points < 0:
            raise RulesOptionError(f"custom_points: the value of {letter} is a whole number of points, 0 or more, "
                                   f"not {number!r}")
        out.append((letter, points))
    return tuple(out)
