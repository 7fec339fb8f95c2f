"""Leapers and sliders (knight, bishop, rook, queen, king, duke): capture as they move."""
from typing import TYPE_CHECKING, List, Optional, Tuple

from ..board import OFF
from .base import AddMove, Behaviour, StepTable, path_clear, step_table

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant


class LeaperSlider(Behaviour):
    name = "leaper/slider"

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        self._steps(pos, sq, p, add, enemy_lo, enemy_hi, True)

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        self._steps(pos, sq, p, add, enemy_lo, enemy_hi, False)

    @staticmethod
    def _steps(pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int, quiet: bool) -> None:
        """Each leap and each slide up to the first unit: onto an enemy (a capture), or onto an empty
        square when ``quiet``."""
        B = pos.board
        jumps, rays = pos.v.move_table[p][sq]
        for to, m in jumps:
            t = B[to]
            if (quiet and t == 0) or enemy_lo < t < enemy_hi:
                add(m)
        for ray in rays:
            for to, m in ray:
                t = B[to]
                if t:
                    if enemy_lo < t < enemy_hi:
                        add(m)
                    break
                if quiet:
                    add(m)

    def move_table(self, v: "Variant", code: int) -> List[Optional[StepTable]]:
        return step_table(v, code, v.leaps[code], v.slides[code])

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
