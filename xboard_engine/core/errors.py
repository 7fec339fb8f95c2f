"""The exceptions of the rules core: every bad input raises a ``RulesError``; a stopped search
raises ``SearchStopped``."""


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


class SearchStopped(Exception):
    """A search, count or benchmark asked to stop (its time is up, or ``stop()`` was called) unwinds
    with this: the one "stopped" of the search, the engine's counting commands and the 8 Player bots.
    It may carry what was found before the stop (``args[0]``)."""


class EmptyHistoryError(RulesError, IndexError):
    """``pop()`` with no move to take back."""
