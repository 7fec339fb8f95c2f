"""The lancer (R3): moves along its facing, jumping its own side's units, and turns on arrival."""
from typing import TYPE_CHECKING, List, Tuple

from ..board import OFF
from ..moves import NORMAL, Move
from .base import AddMove, Behaviour, new_move

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant


def landings(B: List[int], sq: int, d: int, side: int) -> List[int]:
    """Squares a lancer of ``side`` on ``sq`` reaches along step ``d`` (R3.1)."""
    out = []
    to = sq + d
    t = B[to]
    while t != OFF:
        if t == 0:
            out.append(to)
        elif (t >> 6) != side:
            out.append(to)
            break
        to += d
        t = B[to]
    return out


class Lancer(Behaviour):
    name = "lancer"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        v = pos.v
        B = pos.board
        us = pos.stm
        facings = v.lancer_facings[us]
        for to in landings(B, sq, v.facing_step[p], us):
            for c, d in facings:                                   # R3.2
                if B[to + d] != OFF:
                    add(new_move(Move, (sq, to, c, NORMAL, 0, 0, 0)))

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        v = pos.v
        B = pos.board
        d = v.facing_step[p]
        to = sq + d
        t = B[to]
        while t == 0 or (t != OFF and not enemy_lo < t < enemy_hi):
            to += d
            t = B[to]
        if enemy_lo < t < enemy_hi:
            for c, step in v.lancer_facings[pos.stm]:
                if B[to + step] != OFF:
                    add(new_move(Move, (sq, to, c, NORMAL, 0, 0, 0)))

    def moves_after_push(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int,
                         enemy_hi: int) -> None:
        """R8.8: besides its ordinary moves, the lancer may first turn to one of the other seven
        facings and move along it, keeping that facing even when it points off the board."""
        self.moves(pos, sq, p, add, enemy_lo, enemy_hi)
        v = pos.v
        B = pos.board
        us = pos.stm
        current = v.facing_step[p]
        for c, d in v.lancer_facings[us]:
            if d == current:
                continue
            for to in landings(B, sq, d, us):
                add(new_move(Move, (sq, to, c, NORMAL, 0, 0, 0)))

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        # R8.5: (a) along its facing as the pusher's unit, facing kept; (b) a nudge of one square
        # onto an empty square, after which it faces the nudge (P5: the nudge along the facing is (a)).
        v = pos.v
        B = pos.board
        us = pos.stm
        facing = v.facing_step[p]
        for to in landings(B, u, facing, us):
            dests.append((to, p))
        for c, d in v.lancer_facings[1 - us]:
            if d != facing and B[u + d] == 0:
                dests.append((u + d, c))

    def pushed_reaches(self, pos: "Position", u: int, p: int, x: int, by: int) -> bool:
        v = pos.v
        d = v.facing_step[p]
        if v.line[u].get(x) != d:
            return False
        B = pos.board
        s = u + d
        while s != x:
            t = B[s]
            if t and (t >> 6) != by:
                return False        # a unit of the lancer's own colour stops it
            s += d
        return True

    def threatens_after_push(self, pos: "Position", r: int, x: int, by: int) -> bool:
        """R8.8: a lancer of ``by`` pushed to ``r`` on the last move may turn first, so it threatens
        every square it could reach along any facing, except those R8.7 forbids."""
        origin = pos.restriction[0]  # type: ignore[index]
        v = pos.v
        if x == origin:
            return False
        d = v.line[r].get(x)
        if not d or v.line[origin].get(r) == -d:
            return False        # not on a line, or back across the squares it was pushed through
        B = pos.board
        s = r + d
        while s != x:
            t = B[s]
            if t and (t >> 6) != by:
                return False
            s += d
        return True

    def attack_facing(self, v: "Variant", code: int) -> int:
        return v.facing_step[code]
