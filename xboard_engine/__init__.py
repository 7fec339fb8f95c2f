"""A chess-variant rules core and XBoard/CECP engine.

>>> from xboard_engine import Position
>>> Position("8piece").perft(1)
20
"""
from .errors import IllegalMoveError, InvalidFenError, RulesError, UnknownVariantError
from .position import Move, Outcome, Position
from .variant import Variant, get_variant, variant_names

__version__ = "0.1.0"

__all__ = ["Position", "Move", "Outcome", "Variant", "get_variant", "variant_names", "RulesError",
           "UnknownVariantError", "InvalidFenError", "IllegalMoveError", "__version__"]
