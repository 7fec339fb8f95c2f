"""Attacks, holds and pins: which squares a side attacks, read off the position.

An attack on ``x`` by side ``by`` means ``by`` could capture a unit of the other side standing on
``x`` (P3): leapers, pawns and sliders through the variant's reverse tables, lancers along their
facing (jumping their own units, R3.1), a pushed lancer after its push (R8.8), and the sentries
(R8.6, R9.3) by asking their behaviour.  Held units attack nothing (R4.2).
"""
from typing import TYPE_CHECKING, Dict, List, Set, Tuple

from .board import BLACK, OFF

if TYPE_CHECKING:
    from .position import Position


def held(pos: "Position", sq: int, side: int) -> bool:
    """R4.2: the unit of ``side`` on ``sq`` is orthogonally next to an enemy jailer."""
    B = pos.board
    jailers = pos.v.jailer_codes[1 - side]
    s = pos.v.stride
    return B[sq + s] in jailers or B[sq - s] in jailers or B[sq + 1] in jailers or B[sq - 1] in jailers


def ray_end(B: List[int], s: int, d: int) -> Tuple[int, int]:
    """The first cell from ``s`` on (``s`` included, stepping ``d``) that is not empty: its square and
    code (``OFF`` past the board's edge).  (Small enough for PyPy's JIT to inline, tuple and all.)"""
    t = B[s]
    while t == 0:
        s += d
        t = B[s]
    return s, t


def attacked(pos: "Position", x: int, by: int) -> bool:
    """Could side ``by`` capture a unit of the other side standing on square ``x``?"""
    v = pos.v
    B = pos.board
    holds = v.has_jailers
    for s, codes in v.leap_attackers[by][x]:
        if B[s] in codes and not (holds and held(pos, s, by)):
            return True
    lo, hi = (0, BLACK) if by == 0 else (BLACK, OFF)
    for d, sliders, lancer in v.ray_attackers[by][x]:
        s = x + d
        t = B[s]
        while t == 0:              # ray_end(), written out: this is the search's hottest loop
            s += d
            t = B[s]
        if not lo < t < hi:
            continue
        if t in sliders and not (holds and held(pos, s, by)):
            return True
        if lancer:
            while True:
                if t == lancer and not (holds and held(pos, s, by)):
                    return True
                s += d
                t = B[s]
                if t and not lo < t < hi:
                    break
    if v.has_special_attackers:
        special = v.special_attackers[by]
        behaviour_of = v.behaviour_of
        for s in pos.units[by]:
            p = B[s]
            if p in special and not (holds and held(pos, s, by)) and behaviour_of[p].threatens(pos, s, p, x, by):
                return True
    restriction = pos.restriction
    if restriction and v.has_lancers:
        r = restriction[1]
        p = B[r]
        if v.facing_step[p] and (p >> 6) == by and not (holds and held(pos, r, by)):
            return v.behaviour_of[p].threatens_after_push(pos, r, x, by)  # type: ignore[attr-defined]
    return False


def evasion_squares(pos: "Position", x: int, by: int) -> Set[int]:
    """For a king on ``x`` in check from side ``by``, in a variant whose attacks are all leaps and
    rays (``ray_legality``): the squares a move of another unit must land on to end the check (the
    checker's square and, for a ray, the squares between).  For a double check, the squares that end
    both: none, except where a lancer checks by jumping its own side's unit (R3.1, R3.4) and that unit
    is the other checker, whose capture also blocks the lancer."""
    v = pos.v
    B = pos.board
    found: Set[int] = set()
    count = 0
    for s, codes in v.leap_attackers[by][x]:
        if B[s] in codes:
            count += 1
            found = {s} if count == 1 else found & {s}
    lo, hi = (0, BLACK) if by == 0 else (BLACK, OFF)
    for d, sliders, lancer in v.ray_attackers[by][x]:
        s, t = ray_end(B, x + d, d)
        if not lo < t < hi:
            continue
        if t not in sliders and lancer:
            while t != lancer:          # a lancer jumps its own side's units (R3.1)
                s += d
                t = B[s]
                if t and not lo < t < hi:
                    break
        if t in sliders or (lancer and t == lancer):
            count += 1
            line = set(range(x + d, s + d, d))
            found = line if count == 1 else found & line
    return found


def pins(pos: "Position", king: int, us: int) -> Dict[int, Set[int]]:
    """Own units that alone shield the king from an enemy slider or lancer: square -> the squares it
    may still move to (the ray from the king up to and including the pinner).

    A lancer jumps its own side's units (R3.1), so on a lancer's ray enemy units are passed over: a
    single own unit between king and a lancer facing the king is pinned.  Holds are ignored (a held
    pinner still counts), which only ever makes a callers' test more careful."""
    B = pos.board
    olo, ohi = (0, BLACK) if us == 0 else (BLACK, OFF)
    found: Dict[int, Set[int]] = {}
    for d, sliders, lancer in pos.v.ray_attackers[1 - us][king]:
        pinned = 0
        enemy_seen = False
        s = king + d
        t = B[s]
        while t != OFF:
            if t:
                if olo < t < ohi:
                    if pinned:
                        break
                    pinned = s
                else:
                    if pinned and (t == lancer or (not enemy_seen and t in sliders)):
                        found[pinned] = set(range(king + d, s + d, d))
                        break
                    if not lancer:
                        break
                    enemy_seen = True
            s += d
            t = B[s]
    return found
