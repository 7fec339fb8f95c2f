"""The jailer (R4): moves like a rook to empty squares, never captures, holds adjacent enemies.

Holding is a property of the position (``attacks.held``); the jailer's own moves are quiet.
"""
from typing import TYPE_CHECKING, List, Tuple

from .base import AddMove, Behaviour, empty_landings, slide_to_empty

if TYPE_CHECKING:
    from ..position import Position


class Jailer(Behaviour):
    name = "jailer"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, elo: int, ehi: int) -> None:
        B = pos.board
        for d in pos.v.slides[p]:
            slide_to_empty(B, sq, d, p, add)

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        empty_landings(pos.board, u, pos.v.slides[p], dests, p)        # R8.4
