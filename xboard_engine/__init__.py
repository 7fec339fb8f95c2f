"""A chess-variant rules core and XBoard/CECP engine.

>>> from xboard_engine import Position
>>> Position("8piece").perft(1)
55
"""
from .core.errors import (EmptyHistoryError, IllegalMoveError, InvalidFenError, InvalidSquareError, RulesError,
                          UnknownVariantError)
from .core.moves import Move, MoveKind
from .core.outcome import Outcome
from .core.position import Position
from .core.variant import Variant, get_variant, variant_names
from .search import evaluation as _evaluation  # noqa: F401  (installs the running sums' tables: variant.install_evaluation)

__version__ = "0.1.0"

__all__ = ["Position", "Move", "MoveKind", "Outcome", "Variant", "get_variant", "variant_names", "RulesError",
           "UnknownVariantError", "InvalidFenError", "InvalidSquareError", "IllegalMoveError", "EmptyHistoryError",
           "__version__"]
