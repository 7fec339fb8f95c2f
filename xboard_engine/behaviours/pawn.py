"""Pawns: orthodox pawns (R7.1) and the 8-Piece double step from the first two ranks (R7.2)."""
from typing import TYPE_CHECKING, List, Tuple

from ..board import OFF
from ..moves import DOUBLE, EP, NORMAL, Move
from .base import AddMove, Behaviour, new_move

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant


class Pawn(Behaviour):
    name = "pawn"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, elo: int, ehi: int) -> None:
        v = pos.v
        B = pos.board
        us = pos.stm
        f = v.pawn_forward[us]
        to = sq + f
        promo = v.rank_of[to] == v.promotion_rank[us]
        if B[to] == 0:
            if promo:
                self._promotions(pos, sq, to, add)
            else:
                add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
                if v.double_step_from[us][sq] and B[to + f] == 0:
                    to2 = to + f
                    enemy_pawn = v.pawn_code[1 - us]
                    if B[to2 - 1] == enemy_pawn or B[to2 + 1] == enemy_pawn:   # P4
                        add(new_move(Move, (sq, to2, p, DOUBLE, to, 0, 0)))
                    else:
                        add(new_move(Move, (sq, to2, p, NORMAL, 0, 0, 0)))
        self._captures(pos, sq, p, add, elo, ehi, promo)

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, elo: int, ehi: int) -> None:
        v = pos.v
        us = pos.stm
        to = sq + v.pawn_forward[us]
        promo = v.rank_of[to] == v.promotion_rank[us]
        if promo and pos.board[to] == 0:
            self._promotions(pos, sq, to, add)
        self._captures(pos, sq, p, add, elo, ehi, promo)

    @staticmethod
    def _captures(pos: "Position", sq: int, p: int, add: AddMove, elo: int, ehi: int, promo: bool) -> None:
        v = pos.v
        B = pos.board
        for c in v.pawn_captures[pos.stm]:
            to = sq + c
            t = B[to]
            if elo < t < ehi:
                if promo:
                    Pawn._promotions(pos, sq, to, add)
                else:
                    add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
            elif to == pos.ep and t == 0:
                add(new_move(Move, (sq, to, p, EP, to - v.pawn_forward[pos.stm], 0, 0)))

    @staticmethod
    def _promotions(pos: "Position", sq: int, to: int, add: AddMove) -> None:
        """R2.4: one move per promotion piece; a lancer once per facing onto the board (R3.2)."""
        B = pos.board
        for code, step in pos.v.promotion_moves[pos.stm]:
            if step and B[to + step] == OFF:
                continue
            add(new_move(Move, (sq, to, code, NORMAL, 0, 0, 0)))

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        # R8.3: one step in the pusher's forward direction, or a capture of its own colour that way.
        v = pos.v
        B = pos.board
        us = pos.stm
        to = u + v.pawn_forward[us]
        if B[to] == 0:
            dests.append((to, p))
        own = 1 - us
        for c in v.pawn_captures[us]:
            t = B[u + c]
            if t and t != OFF and (t >> 6) == own:
                dests.append((u + c, p))

    def pushed_reaches(self, pos: "Position", u: int, p: int, x: int, by: int) -> bool:
        return x - u in pos.v.pawn_captures[by]

    def attack_leaps(self, v: "Variant", code: int, side: int) -> Tuple[int, ...]:
        return v.pawn_captures[side]
