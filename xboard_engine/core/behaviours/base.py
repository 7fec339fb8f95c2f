"""The behaviour interface and what most behaviours share."""
from typing import TYPE_CHECKING, Callable, List, Optional, Tuple

from ..moves import NORMAL, Move

if TYPE_CHECKING:
    from ..position import Position
    from ..variant import Variant

AddMove = Callable[[Move], None]
new_move = tuple.__new__      # Move(...) without NamedTuple's Python-level __new__ (hot paths)
# A unit's moves from one square on an empty board: its leaps, then one tuple per slide direction
# in order of distance, each target as (square, the Move there).  Generators walk these instead of
# building a Move per target (a move is one shared value per unit, origin and target).
Targets = Tuple[Tuple[int, Move], ...]
StepTable = Tuple[Targets, Tuple[Targets, ...]]


class Behaviour:
    """Default answers: no moves, no captures, attacks nothing."""

    name = "none"
    # True when the reverse tables cannot describe its attacks and ``threatens`` must be asked.
    special_attacker = False

    def moves(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        """Pseudo-legal moves of unit ``p`` on ``sq``.  ``enemy_lo < code < enemy_hi`` holds exactly for
        the codes of the other side's units (the range of enemy piece codes, bounds excluded)."""

    def captures(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int, enemy_hi: int) -> None:
        """The captures and promotions among ``moves``."""

    def moves_after_push(self, pos: "Position", sq: int, p: int, add: AddMove, enemy_lo: int,
                         enemy_hi: int) -> None:
        """Moves of a unit pushed on the opponent's last move (R8.7 filters them afterwards)."""
        self.moves(pos, sq, p, add, enemy_lo, enemy_hi)

    def pushed_moves(self, pos: "Position", u: int, p: int, dests: List[Tuple[int, int]]) -> None:
        """R8: destinations ``(to, placed)`` of enemy unit ``p`` on ``u`` pushed by the side to move
        (the sentry has already left its square, P1)."""

    def pushed_reaches(self, pos: "Position", u: int, p: int, x: int, by: int) -> bool:
        """R8.6: could ``p`` on ``u``, pushed by side ``by``, capture on ``x``?"""
        return False

    def threatens(self, pos: "Position", s: int, p: int, x: int, by: int) -> bool:
        """For special attackers: could unit ``p`` of side ``by`` on ``s`` capture on ``x``?"""
        return False

    def move_table(self, v: "Variant", code: int) -> Optional[List[Optional[tuple]]]:
        """Per square, the precomputed moves its generator reads (e.g. a ``step_table``), or None."""
        return None

    def attack_leaps(self, v: "Variant", code: int, side: int) -> Tuple[int, ...]:
        """Offsets it captures by leaping (for the reverse attack tables)."""
        return ()

    def attack_slides(self, v: "Variant", code: int) -> Tuple[int, ...]:
        """Steps it captures along as a slider."""
        return ()

    def attack_facing(self, v: "Variant", code: int) -> int:
        """The step a lancer-like unit captures along, jumping its own side's units (0: none)."""
        return 0


def step_table(v: "Variant", code: int, leaps: Tuple[int, ...], slides: Tuple[int, ...]
               ) -> List[Optional[StepTable]]:
    """Per square (None off the board), the NORMAL moves of ``code`` leaping and sliding on an empty
    board, targets in the order the generators have always produced them."""
    table: List[Optional[StepTable]] = [None] * v.size
    on = v.rank_of
    for sq in v.squares:
        jumps = tuple((sq + o, Move(sq, sq + o, code)) for o in leaps if on[sq + o] >= 0)
        rays = []
        for d in slides:
            ray = []
            to = sq + d
            while on[to] >= 0:
                ray.append((to, Move(sq, to, code)))
                to += d
            if ray:
                rays.append(tuple(ray))
        table[sq] = (jumps, tuple(rays))
    return table


def slide_to_empty(B: List[int], sq: int, d: int, p: int, add: AddMove) -> int:
    """Add the quiet moves of a slide from ``sq`` along ``d``; return the first occupied square."""
    to = sq + d
    while B[to] == 0:
        add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
        to += d
    return to


def empty_landings(B: List[int], u: int, steps, dests: List[Tuple[int, int]], placed: int) -> None:
    """Destinations of a pushed jailer or sentry: slides onto empty squares only (R8.4)."""
    for d in steps:
        to = u + d
        while B[to] == 0:
            dests.append((to, placed))
            to += d


def path_clear(B: List[int], a: int, x: int, d: int) -> bool:
    """Whether every square strictly between ``a`` and ``x`` along step ``d`` is empty."""
    s = a + d
    while s != x:
        if B[s]:
            return False
        s += d
    return True
