"""The jailer (R4): moves like a rook to empty squares, never captures, holds adjacent enemies.

Holding is a property of the position (``attacks.held``); the jailer's own moves are quiet.
"""
from typing import TYPE_CHECKING, List, Optional, Tuple

from .base import AddMove, Behaviour, StepTable, empty_landings, step_table

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant


class Jailer(Behaviour):
    name = "jailer"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        for ray in pos.v.move_table[p][sq][1]:
            for to, m in ray:
                if B[to]:
                    break
                add(m)

    def move_table(self, v: "Variant", code: int) -> List[Optional[StepTable]]:
        return step_table(v, code, (), v.slides[code])

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        empty_landings(pos.board, u, pos.v.slides[p], dests, p)        # R8.4
