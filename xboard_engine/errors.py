"""The exceptions of the rules core: every bad input raises a ``RulesError``."""


class RulesError(ValueError):
    """Base class of every error the rules core raises on bad input."""


class UnknownVariantError(RulesError):
    """The variant name is not one of :func:`xboard_engine.variant_names`."""


class InvalidFenError(RulesError):
    """A FEN string (or a setup number) does not describe a valid position of the variant."""


class IllegalMoveError(RulesError):
    """Move text that is malformed, ambiguous, or not a legal move in the position."""


class InvalidSquareError(RulesError):
    """A square name that is not on the variant's board (or a side that is not "w" or "b")."""


class EmptyHistoryError(RulesError, IndexError):
    """``pop()`` with no move to take back."""
