"""Pawns: orthodox pawns (R7.1) and the 8-Piece double step from the first two ranks (R7.2)."""
from typing import TYPE_CHECKING, List, Optional, Tuple

from ..board import OFF
from ..moves import DOUBLE, EP, Move
from .base import AddMove, Behaviour

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant


class Pawn(Behaviour):
    name = "pawn"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        step_to, steps, double_to, double, double_ep, enemy_pawn, captures = pos.v.move_table[p][sq]
        if step_to and B[step_to] == 0:
            for m in steps:
                add(m)
            if double_to and B[double_to] == 0:
                if B[double_to - 1] == enemy_pawn or B[double_to + 1] == enemy_pawn:   # P4
                    add(double_ep)
                else:
                    add(double)
        _add_captures(B, captures, pos.ep, add, enemy_lo, enemy_hi)

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        B = pos.board
        step_to, steps, _, _, _, _, captures = pos.v.move_table[p][sq]
        if step_to and steps and steps[0].placed != p and B[step_to] == 0:    # promotions count (quiescence)
            for m in steps:
                add(m)
        _add_captures(B, captures, pos.ep, add, enemy_lo, enemy_hi)

    def move_table(self, v: "Variant", code: int) -> List[Optional[tuple]]:
        """Per square: (step target or 0, its moves, double-step target or 0, the double step as a
        NORMAL and as a DOUBLE move, the enemy pawn code, ((capture target, its moves, en passant
        there), ...)).  A move onto the promotion rank is one move per promotion piece (R2.4), a
        lancer once per facing that points onto the board (R3.2)."""
        side = code >> 6
        f = v.pawn_forward[side]
        table: List[Optional[tuple]] = [None] * v.size
        on = v.rank_of

        def arrivals(sq: int, to: int) -> Tuple[Move, ...]:
            if on[to] != v.promotion_rank[side]:
                return (Move(sq, to, code),)
            return tuple(Move(sq, to, c) for c, step in v.promotion_moves[side]
                         if not step or on[to + step] >= 0)

        for sq in v.squares:
            to = sq + f
            if on[to] < 0:
                table[sq] = (0, (), 0, None, None, 0, ())
                continue
            two = to + f
            double = v.double_step_from[side][sq] and on[two] >= 0
            captures = tuple((sq + c, arrivals(sq, sq + c), Move(sq, sq + c, code, EP, sq + c - f))
                             for c in v.pawn_captures[side] if on[sq + c] >= 0)
            table[sq] = (to, arrivals(sq, to), two if double else 0,
                         Move(sq, two, code) if double else None,
                         Move(sq, two, code, DOUBLE, to) if double else None,
                         v.pawn_code[1 - side], captures)
        return table

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


def _add_captures(B: List[int], captures, ep_square: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
    """The captures (promotions included) and the en-passant capture of one pawn's table entry."""
    for to, moves, ep in captures:
        t = B[to]
        if enemy_lo < t < enemy_hi:
            for m in moves:
                add(m)
        elif to == ep_square and t == 0:
            add(ep)
