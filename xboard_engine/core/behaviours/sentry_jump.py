"""The sentry of the 2019 rules (R9): a bishop to empty squares that captures by jumping."""
from typing import TYPE_CHECKING, List, Tuple

from ..board import EMPTY, OFF
from ..moves import EDGE, JUMP, Move
from .base import AddMove, Behaviour, empty_landings, new_move, path_clear, slide_to_empty

if TYPE_CHECKING:
    from ..position import Position


class JumpSentry(Behaviour):
    name = "jump sentry"
    special_attacker = True

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        for d in pos.v.slides[p]:
            u = slide_to_empty(B, sq, d, p, add)
            if enemy_lo < B[u] < enemy_hi:
                self._capture(B, sq, p, u, d, add)

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        for d in pos.v.slides[p]:
            u = sq + d
            while B[u] == 0:
                u += d
            if enemy_lo < B[u] < enemy_hi:
                self._capture(B, sq, p, u, d, add)

    @staticmethod
    def _capture(B: List[int], sq: int, p: int, victim: int, d: int, add: AddMove) -> None:
        beyond = B[victim + d]
        if beyond == EMPTY:                                   # R9.1
            add(new_move(Move, (sq, victim + d, p, JUMP, victim, 0, 0)))
        elif beyond == OFF:                                   # R9.2
            add(new_move(Move, (sq, victim, EMPTY, EDGE, 0, 0, 0)))

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        empty_landings(pos.board, u, pos.v.slides[p], dests, p)

    def threatens(self, pos: "Position", s: int, p: int, x: int, by: int) -> bool:
        """R9.3, P3: the diagonal from the sentry reaches ``x`` and the square beyond is free."""
        v = pos.v
        d = v.line[s].get(x)
        if not d or d not in v.slides[p] or not path_clear(pos.board, s, x, d):
            return False
        beyond = pos.board[x + d]
        return beyond == EMPTY or beyond == OFF
