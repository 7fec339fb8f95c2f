"""Legal move generation: one loop over the units asking each one's behaviour, then legality.

Legality without making every move: in variants whose attacks are all rays and leaps (orthodox,
Chess960, Chess80, Full Cavalry) pins decide; in the jailer and sentry variants the generator first
finds the few squares where a move could expose the king (pinned units, the squares the enemy
sentries see, the paths of units they could push into the king, the king's diagonal neighbours
for the 2019 sentry) and makes and tests only the moves that touch them, the king's moves and the
rare kinds (castles, pushes, en passant, jumps).  ``tests/test_invariants.py`` checks the result
against making and testing every move.
"""
from typing import TYPE_CHECKING, List, Set

from .attacks import attacked, evasion_squares, held, pins
from .board import BLACK, EMPTY, OFF
from .moves import CASTLE, DOUBLE, EP, NORMAL, PASS_MOVE, Move

if TYPE_CHECKING:
    from .position import Position

new_move = tuple.__new__
KINGSIDE, QUEENSIDE = 0, 1


def legal_moves(pos: "Position") -> List[Move]:
    """All legal moves of the side to move."""
    return _legal(pos, _pseudo_moves(pos, False), True)


def legal_captures(pos: "Position") -> List[Move]:
    """The legal captures and promotions (a push whose pushed unit captures counts, R8.2)."""
    return _legal(pos, _pseudo_moves(pos, True), False)


def _pseudo_moves(pos: "Position", captures_only: bool) -> List[Move]:
    v = pos.v
    B = pos.board
    us = pos.stm
    moves: List[Move] = []
    add = moves.append
    # The other side's unit codes lie strictly between these (``Behaviour.moves``).
    enemy_lo, enemy_hi = (BLACK, OFF) if us == 0 else (0, BLACK)
    held_units: Set[int] = set()
    if v.has_jailers:
        is_jailer = v.is_jailer
        for j in pos.units[1 - us]:
            if is_jailer[B[j]]:
                for d in v.orthogonal_steps:
                    t = B[j + d]
                    if t and t != OFF and (t >> 6) == us:
                        held_units.add(j + d)
    restricted = pos.restriction[1] if pos.restriction else 0
    gen = v.capture_gen if captures_only else v.move_gen
    for sq in pos.units[us]:
        if sq in held_units:
            continue
        p = B[sq]
        if sq == restricted:
            _restricted_moves(pos, sq, p, moves, enemy_lo, enemy_hi, captures_only)
        else:
            gen[p](pos, sq, p, add, enemy_lo, enemy_hi)
    if not captures_only and pos.castling & (3 << (us * 2)):
        _castling_moves(pos, add, held_units)
    return moves


def _restricted_moves(pos: "Position", sq: int, p: int, moves: List[Move], enemy_lo: int, enemy_hi: int,
                      captures_only: bool) -> None:
    """R8.7/R8.8: moves of the unit pushed on the opponent's last move."""
    v = pos.v
    origin, dest = pos.restriction  # type: ignore[misc]
    forbidden = {origin}
    forbidden.update(v.between(origin, dest))
    own: List[Move] = []
    v.behaviour_of[p].moves_after_push(pos, sq, p, own.append, enemy_lo, enemy_hi)
    B = pos.board
    for m in own:
        if m.to not in forbidden and (not captures_only or B[m.to] != EMPTY):
            moves.append(m)


def _legal(pos: "Position", moves: List[Move], with_pass: bool) -> List[Move]:
    v = pos.v
    us = pos.stm
    them = 1 - us
    king = pos.kings[us]
    if pos.is_check():
        if v.ray_legality:
            # Only the king, en passant, or a move onto the checker or its ray can end the check.
            targets = evasion_squares(pos, king, them)
            return [m for m in moves if (m.frm == king or m.to in targets or m.kind == EP)
                    and pos.is_safe_after(m)]
        return [m for m in moves if pos.is_safe_after(m)]
    if v.ray_legality:
        return _legal_by_pins(pos, moves, king, us, them)
    risky_from, risky_to = _risky_squares(pos, king, us)
    B = pos.board
    is_jailer = v.is_jailer if v.has_jailers else None
    legal = []
    add = legal.append
    safe_after = pos.is_safe_after
    for m in moves:
        frm = m.frm
        if (m.kind <= DOUBLE and frm != king and frm not in risky_from and m.to not in risky_to
                and not (is_jailer and is_jailer[B[frm]] and _jailer_releases(pos, frm, them))):
            add(m)
        elif safe_after(m):
            add(m)
    if with_pass and v.has_jailers and held(pos, king, us):
        legal.append(PASS_MOVE)       # R4.3 (not in check here)
    return legal


def _legal_by_pins(pos: "Position", moves: List[Move], king: int, us: int, them: int) -> List[Move]:
    pinned = pins(pos, king, us)
    if pinned:
        return [m for m in moves
                if (m.frm not in pinned or m.to in pinned[m.frm]) and (m.frm != king and m.kind != EP
                                                                      or _king_or_ep_legal(pos, m, king, them))]
    return [m for m in moves if m.frm != king and m.kind != EP or _king_or_ep_legal(pos, m, king, them)]


def _king_or_ep_legal(pos: "Position", m: Move, king: int, them: int) -> bool:
    """Legality of a king move (castles included) or an en-passant capture, the moves pins miss."""
    if m.kind == EP:
        return pos.is_safe_after(m)
    B = pos.board
    if m.kind == CASTLE:
        # The path test lifted the king; only the partner leaving its square can still expose the
        # king's destination, along the rank, if a board square lies beyond it.
        rsq = m.square2
        kto = m.to
        return rsq == kto or B[rsq + (1 if rsq > kto else -1)] == OFF or pos.is_safe_after(m)
    p = B[king]
    B[king] = EMPTY
    bad = attacked(pos, m.to, them)
    B[king] = p
    return not bad


def _risky_squares(pos: "Position", king: int, us: int):
    """Squares where vacating (``risky_from``) or arriving (``risky_to``) might expose the king of
    ``us``, who is not in check, in the jailer and sentry variants.  A superset: every move that
    touches one is made and tested."""
    v = pos.v
    B = pos.board
    them = 1 - us
    risky_from: Set[int] = set(pins(pos, king, us))
    risky_to: Set[int] = set()
    if v.has_special_attackers:
        special = v.special_attackers[them]
        for s in pos.units[them]:
            p = B[s]
            if p not in special:
                continue
            # Squares the sentry sees, up to and including the first unit on each diagonal: a unit
            # arriving there may be pushed (or jumped); one leaving may uncover the next.
            for d in v.slides[p]:
                u = s + d
                t = B[u]
                while t == 0:
                    risky_to.add(u)
                    u += d
                    t = B[u]
                if t == OFF:
                    continue
                risky_to.add(u)
                if (t >> 6) == us:
                    # A unit it could push: vacating a square on its way to the king may open it.
                    risky_from.update(v.between(u, king))
                    # The 2019 sentry: the unit it would jump may be a shield of the king.
                    if v.line[u].get(king) == d:
                        risky_from.update(v.between(s, king))
        if v.has_jump:
            for d in v.diagonal_steps:
                risky_from.add(king + d)      # the square beyond the king for a jump (R9.3)
        risky_from |= risky_to
    return risky_from, risky_to


def _jailer_releases(pos: "Position", frm: int, them: int) -> bool:
    """Whether the jailer on ``frm`` stands next to an enemy unit (which moving it may release)."""
    B = pos.board
    for d in pos.v.orthogonal_steps:
        t = B[frm + d]
        if t and t != OFF and (t >> 6) == them:
            return True
    return False


# ---------------------------------------------------------------------------------------- castling
def _castling_moves(pos: "Position", add, held_units: Set[int]) -> None:
    """R5: castles whose path is free and unattacked (R5.6); the after-move test is the caller's."""
    v = pos.v
    B = pos.board
    us = pos.stm
    them = 1 - us
    king = pos.kings[us]
    if king in held_units:
        return
    kcode = B[king]
    for side in (KINGSIDE, QUEENSIDE):
        bit = us * 2 + side
        if not pos.castling & (1 << bit):
            continue
        rsq = pos.castle_partner[bit]
        if rsq in held_units:                                 # R4.4
            continue
        rcode = B[rsq]
        if v.flexible_castling:
            if not pos.is_check():
                _flexible_castles(pos, king, kcode, rsq, rcode, add)
            continue
        key = (king * v.size + rsq) * 2 + side
        paths = v.castle_geometry.get(key)
        if paths is None:
            paths = v.castle_geometry[key] = _castle_paths(v, king, rsq, side)
        kto, rto, king_path, must_be_empty, partner_path = paths
        if v.castling_partner_jumps:                          # R5.3: jumps friendly units
            if _any_of_side(B, partner_path, them):
                continue
        for s in must_be_empty:
            if B[s]:
                break
        else:
            if not pos.is_check() and not _path_attacked(pos, king, kcode, king_path, them):
                _add_castles(pos, king, kto, kcode, rsq, rto, rcode, add)


def _add_castles(pos: "Position", king: int, kto: int, kcode: int, rsq: int, rto: int, rcode: int,
                 add) -> None:
    v = pos.v
    if v.facing_step[rcode]:                                  # R5.3: the lancer turns (R3.2)
        B = pos.board
        for c, d in v.lancer_facings[pos.stm]:
            if B[rto + d] != OFF:
                add(new_move(Move, (king, kto, kcode, CASTLE, rsq, rto, c)))
    else:
        add(new_move(Move, (king, kto, kcode, CASTLE, rsq, rto, rcode)))


def _any_of_side(B: List[int], squares, side: int) -> bool:
    for s in squares:
        t = B[s]
        if t and (t >> 6) == side:
            return True
    return False


def _castle_paths(v, king: int, rsq: int, side: int):
    """The fixed geometry of an orthodox-style castle (R5.1-R5.3): the king's and partner's
    destinations, the squares the king crosses (its destination included), the squares that must be
    empty (the king and partner themselves excepted) and the partner's path."""
    back = v.rank_of[king]
    kto = v.square(v.files - 2 if side == KINGSIDE else 2, back)
    rto = v.square(v.files - 3 if side == KINGSIDE else 3, back)
    king_path = _between(v, king, kto) + ([kto] if kto != king else [])
    partner_path = _between(v, rsq, rto) + [rto]
    must_be_empty = set(king_path) | {rto}
    if not v.castling_partner_jumps:
        must_be_empty.update(partner_path)
    must_be_empty -= {king, rsq}
    return kto, rto, king_path, tuple(sorted(must_be_empty)), tuple(partner_path)


def _flexible_castles(pos: "Position", king: int, kcode: int, rsq: int, rcode: int, add) -> None:
    """R5.4 (chess80): the king moves 2+ squares toward the rook, the rook lands beside it."""
    v = pos.v
    B = pos.board
    them = 1 - pos.stm
    step = 1 if rsq > king else -1
    if any(B[s] for s in _between(v, king, rsq)):
        return
    s = king + step
    while True:
        if _path_attacked(pos, king, kcode, [s], them):
            break
        if abs(s - king) >= 2:
            add(new_move(Move, (king, s, kcode, CASTLE, rsq, s - step, rcode)))
        if s == rsq:
            break
        s += step


def _path_attacked(pos: "Position", king: int, kcode: int, path: List[int], them: int) -> bool:
    """Whether ``them`` attacks a square of the king's castling path.  The king is lifted from its
    square (a sentry aiming at the king threatens no path square, P2); every other unit stays where
    it stands, so a unit the castling jailer holds stays held (R5.6)."""
    B = pos.board
    B[king] = EMPTY
    for s in path:
        if attacked(pos, s, them):
            B[king] = kcode
            return True
    B[king] = kcode
    return False


def _between(v, a: int, b: int) -> List[int]:
    """Squares strictly between ``a`` and ``b`` on one rank (castling paths)."""
    step = 1 if b > a else -1
    return list(range(a + step, b, step)) if a != b else []


__all__ = ["legal_moves", "legal_captures", "NORMAL"]


def perft(pos: "Position", depth: int) -> int:
    """Number of leaf positions ``depth`` plies deep from ``pos`` (every leaf is made and unmade)."""
    if depth <= 0:
        return 1
    push, pop = pos.push, pos.pop
    moves = legal_moves(pos)
    if depth == 1:
        for m in moves:
            push(m)
            pop()
        return len(moves)
    total = 0
    for m in moves:
        push(m)
        total += perft(pos, depth - 1)
        pop()
    return total
