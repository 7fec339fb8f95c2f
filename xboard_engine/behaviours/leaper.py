"""Leapers and sliders (knight, bishop, rook, queen, king, duke): capture as they move."""
from typing import TYPE_CHECKING, List, Tuple

from ..board import OFF
from ..moves import NORMAL, Move
from .base import AddMove, Behaviour, new_move, path_clear

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant


class LeaperSlider(Behaviour):
    name = "leaper/slider"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, elo: int, ehi: int) -> None:
        B = pos.board
        v = pos.v
        for o in v.leaps[p]:
            t = B[sq + o]
            if t == 0 or elo < t < ehi:
                add(new_move(Move, (sq, sq + o, p, NORMAL, 0, 0, 0)))
        for d in v.slides[p]:
            to = sq + d
            t = B[to]
            while t == 0:
                add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
                to += d
                t = B[to]
            if elo < t < ehi:
                add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, elo: int, ehi: int) -> None:
        B = pos.board
        v = pos.v
        for o in v.leaps[p]:
            if elo < B[sq + o] < ehi:
                add(new_move(Move, (sq, sq + o, p, NORMAL, 0, 0, 0)))
        for d in v.slides[p]:
            to = sq + d
            t = B[to]
            while t == 0:
                to += d
                t = B[to]
            if elo < t < ehi:
                add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        # R8.2: moved as the pusher's unit, it may capture only units of its own colour.
        B = pos.board
        v = pos.v
        own = 1 - pos.stm
        for o in v.leaps[p]:
            t = B[u + o]
            if t == 0 or (t != OFF and (t >> 6) == own):
                dests.append((u + o, p))
        for d in v.slides[p]:
            to = u + d
            t = B[to]
            while t == 0:
                dests.append((to, p))
                to += d
                t = B[to]
            if t != OFF and (t >> 6) == own:
                dests.append((to, p))

    def pushed_reaches(self, pos: "Position", u: int, p: int, x: int, by: int) -> bool:
        v = pos.v
        if x - u in v.leaps[p]:
            return True
        d = v.line[u].get(x)
        return bool(d) and d in v.slides[p] and path_clear(pos.board, u, x, d)

    def attack_leaps(self, v: "Variant", code: int, side: int) -> Tuple[int, ...]:
        return v.leaps[code]

    def attack_slides(self, v: "Variant", code: int) -> Tuple[int, ...]:
        return v.slides[code]
