"""Moves: a named, hashable value per move, and the kinds of move.

>>> Move(12, 28, 1)
Move(frm=12, to=28, placed=1, kind=<MoveKind.NORMAL: 0>, square2=0, to2=0, placed2=0)
>>> Move(12, 28, 1).kind is MoveKind.NORMAL
True
"""
from enum import IntEnum
from typing import NamedTuple


class MoveKind(IntEnum):
    """What a move does beyond moving one unit from ``frm`` to ``to``."""
    NORMAL = 0   # one unit moves (captures, promotions and lancer turns included)
    DOUBLE = 1   # pawn double step that opens an en-passant capture; square2 = the en-passant square
    EP = 2       # en-passant capture; square2 = the captured pawn's square
    CASTLE = 3   # the king goes frm -> to; its partner square2 -> to2, arriving as placed2
    PUSH = 4     # R8: the sentry goes frm -> to (the pushed unit's square); the pushed unit goes
    #              to -> to2, arriving as placed2
    JUMP = 5     # R9.1: the 2019 sentry goes frm -> to, capturing the unit it jumps on square2
    EDGE = 6     # R9.2: the 2019 sentry on frm captures the edge unit on to; both leave the board
    PASS = 7     # R4.3: a player whose king is held passes


NORMAL, DOUBLE, EP, CASTLE, PUSH, JUMP, EDGE, PASS = MoveKind


class Move(NamedTuple):
    """A move: squares are the variant's board indices, units its piece codes (``Variant``).

    ``placed`` is the code that arrives on ``to``: it differs from the mover for a promotion or a
    lancer's new facing.  The three last fields describe a second square or unit (see ``MoveKind``).
    """
    frm: int
    to: int
    placed: int
    kind: MoveKind = NORMAL
    square2: int = 0
    to2: int = 0
    placed2: int = 0


PASS_MOVE = Move(0, 0, 0, PASS)
