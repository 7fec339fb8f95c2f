"""A chess-variant rules core and XBoard/CECP engine.

>>> from xboard_engine import Position
>>> Position("8piece").perft(1)
55
"""
from .errors import (EmptyHistoryError, IllegalMoveError, InvalidFenError, InvalidSquareError, RulesError,
                     UnknownVariantError)
from .moves import Move, MoveKind
from .outcome import Outcome
from .position import Position
from .variant import Variant, get_variant, variant_names
from . import evaluation as _evaluation  # noqa: F401  (installs the running sums' tables: variant.install_evaluation)

__version__ = "0.1.0"

__all__ = ["Position", "Move", "MoveKind", "Outcome", "Variant", "get_variant", "variant_names", "RulesError",
           "UnknownVariantError", "InvalidFenError", "InvalidSquareError", "IllegalMoveError", "EmptyHistoryError",
           "__version__"]
