"""Numbers in command and position text: ASCII digits only.

Python's ``int()`` and ``float()`` also read other scripts' digits (``int("١٢") == 12``), underscores
and exponents; a protocol number is none of those."""
import re

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def parse_int(text: str) -> int:
    """A whole number written in ASCII digits (an optional sign); ValueError otherwise."""
    if not _WHOLE.fullmatch(text):
        raise ValueError(f"not a whole number: {text!r}")
    return int(text)


def parse_decimal(text: str) -> float:
    """A decimal number written in ASCII digits (``12``, ``-0.5``, ``.25``); ValueError otherwise."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"not a number: {text!r}")
    return float(text)
