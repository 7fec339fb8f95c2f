"""The engine's options as CECP announces them (``feature option=``): names, defaults and ranges,
and the name the GUI sends back matched to its option.
"""
from typing import Dict, List, Optional, Tuple

from .variant import get_variant, variant_names


def last_setup_number() -> int:
    """The highest setup number of any variant (the option applies to whichever is played)."""
    return max(get_variant(name).setup_count for name in variant_names()) - 1


# The engine's `feature option`s: name -> (default, minimum, maximum); a check box has no range.
OPTIONS: Dict[str, Tuple[int, Optional[int], Optional[int]]] = {
    "Setup number": (-1, -1, last_setup_number()),
    "Castle with lancer turn": (0, None, None),
    # The GUI is XBoard 4.9.1 with legality testing off: the engine keeps XBoard's picture of the
    # board (xboard_picture.py) and plays moves XBoard cannot show (pushes, 2019 edge captures, some
    # castles) only when nothing else is legal.
    "Avoid moves XBoard 4.9.1 misdraws": (0, None, None),
    "Hash": (64, 1, 2048),                   # transposition table, MB (XBoard's `memory` too)
    "Skill level": (20, 0, 20),              # 20 = full strength; lower: shallower, noisier choice
    "Nodes per move": (0, 0, 1_000_000_000), # 0 = think by the clock; else a fixed search size and
                                             # no random choice: the same moves every game
    "MultiPV": (1, 1, 256),                  # lines shown in analysis
}
CLEAR_HASH = "Clear Hash"                    # a button: clears the transposition table and history
MISDRAWS = "Avoid moves XBoard 4.9.1 misdraws"


def option_key(name: str, known=None) -> Optional[str]:
    """The option ``name`` refers to among ``known`` (default: ``OPTIONS`` and the Clear Hash
    button), or None.  Case and underscores for spaces do not matter: the CECP announcement writes
    ``Setup_number`` (python-chess takes an option's name to end at its first space), XBoard settings
    saved earlier say ``Setup number``."""
    wanted = " ".join(name.replace("_", " ").split()).lower()
    for key in (known if known is not None else list(OPTIONS) + [CLEAR_HASH]):
        if key.lower() == wanted:
            return key
    return None


def cecp_option_name(name: str) -> str:
    """An option's name as announced over CECP: without spaces (see ``option_key``)."""
    return name.replace(" ", "_")


def option_features() -> List[str]:
    """The `feature option=` lines announcing ``OPTIONS`` (and the Clear Hash button)."""
    lines = []
    for name, (default, low, high) in OPTIONS.items():
        if low is None:
            lines.append(f'feature option="{cecp_option_name(name)} -check {default}"')
        else:
            lines.append(f'feature option="{cecp_option_name(name)} -spin {default} {low} {high}"')
    lines.append(f'feature option="{cecp_option_name(CLEAR_HASH)} -button"')
    return lines
