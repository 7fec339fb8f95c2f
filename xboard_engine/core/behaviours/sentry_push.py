"""The sentry of the current 8-Piece rules (R8): a bishop to empty squares that pushes enemies."""
from typing import TYPE_CHECKING, List, Tuple

from ..board import EMPTY, OFF
from ..moves import PUSH, Move
from .base import AddMove, Behaviour, empty_landings, new_move, slide_to_empty

if TYPE_CHECKING:
    from ..position import Position


class PushSentry(Behaviour):
    name = "push sentry"
    special_attacker = True

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        for d in pos.v.slides[p]:
            u = slide_to_empty(B, sq, d, p, add)
            t = B[u]
            if enemy_lo < t < enemy_hi:
                self._pushes(pos, sq, p, u, t, add, False)

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        for d in pos.v.slides[p]:
            u = sq + d
            t = B[u]
            while t == 0:
                u += d
                t = B[u]
            if enemy_lo < t < enemy_hi:
                self._pushes(pos, sq, p, u, t, add, True)

    @staticmethod
    def _pushes(pos: "Position", s: int, sentry: int, u: int, unit: int, add: AddMove,
                captures_only: bool) -> None:
        """R8.1-R8.5: the sentry on ``s`` lands on ``u`` and moves ``unit`` as if it were its own."""
        B = pos.board
        dests: List[Tuple[int, int]] = []
        B[s] = EMPTY          # P1: the sentry has left its square during the push
        try:
            pos.v.behaviour_of[unit].pushed_moves(pos, u, unit, dests)
        finally:
            B[s] = sentry
        for to, placed in dests:
            if captures_only and (to == s or B[to] == EMPTY):
                continue
            add(new_move(Move, (s, u, sentry, PUSH, 0, to, placed)))

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        empty_landings(pos.board, u, pos.v.slides[p], dests, p)        # R8.4: no push while pushed

    def threatens(self, pos: "Position", s: int, p: int, x: int, by: int) -> bool:
        """R8.6: the sentry could push some enemy unit U so that U captures on ``x``."""
        v = pos.v
        B = pos.board
        for d in v.slides[p]:
            u = s + d
            t = B[u]
            while t == 0:
                u += d
                t = B[u]
            if t == OFF or (t >> 6) == by or u == x:
                continue
            B[s] = EMPTY        # P1
            reaches = v.behaviour_of[t].pushed_reaches(pos, u, t, x, by)
            B[s] = p
            if reaches:
                return True
        return False
