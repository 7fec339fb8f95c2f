"""Make for every kind of move: the move as one list of square changes.

``Position.push`` writes out the common case (one unit moves, perhaps capturing) itself; every other
kind (castles, pushes, en passant, the 2019 jump and edge captures, a pass) is described here as the
list of (square, unit afterwards) changes it makes, from which the board, piece lists, kings, Zobrist
hash and evaluation accumulator are updated; ``Position.pop`` undoes the same list.
"""
from typing import TYPE_CHECKING, List, Tuple

from .board import EMPTY
from .moves import CASTLE, DOUBLE, EDGE, EP, JUMP, PUSH

if TYPE_CHECKING:
    from .position import Position


def push_changes(pos: "Position", undo: List[Tuple[int, int]], frm: int, to: int, placed: int, kind: int,
                 square2: int, to2: int, placed2: int) -> None:
    """``push`` for every kind of move: the move as one list of square changes, each recorded in
    ``undo`` (the list in the undo entry ``push`` made) as (square, unit before)."""
    v = pos.v
    B = pos.board
    z = pos.z
    us = pos.stm
    # 1. The move as square changes (square, unit afterwards), applied in order.
    captured = EMPTY
    if kind <= DOUBLE:
        captured = B[to]
        changes: Tuple[Tuple[int, int], ...] = ((frm, EMPTY), (to, placed))
    elif kind == CASTLE:
        changes = ((frm, EMPTY), (square2, EMPTY), (to, placed), (to2, placed2))
    elif kind == PUSH:
        if to2 != frm:
            captured = B[to2]
        changes = ((frm, EMPTY), (to, placed), (to2, placed2))
    elif kind == EP or kind == JUMP:
        captured = B[square2]
        changes = ((frm, EMPTY), (square2, EMPTY), (to, placed))
    elif kind == EDGE:
        captured = B[to]
        changes = ((frm, EMPTY), (to, EMPTY))
    else:                                                      # PASS
        changes = ()
    # 2. The board, piece lists, kings, hash and evaluation, from the changes.
    zp = z.piece
    pst = v.signed_piece_square
    units = pos.units
    is_king = v.is_king
    h = pos.hash ^ z.side
    score = pos.score
    for sq, after in changes:
        before = B[sq]
        undo.append((sq, before))
        if before:
            del units[before >> 6][sq]
            h ^= zp[before][sq]
            score -= pst[before][sq]
        if after:
            units[after >> 6][sq] = None
            h ^= zp[after][sq]
            score += pst[after][sq]
            if is_king[after]:
                pos.kings[after >> 6] = sq
        B[sq] = after
    castling = pos.castling
    if castling:           # every changed square is one of these four (0 when unused: no right)
        mask = pos.castle_mask
        castling &= mask[frm] & mask[to] & mask[square2] & mask[to2]
    # 3. The rest of the state.
    if castling != pos.castling:
        h ^= z.castling[pos.castling] ^ z.castling[castling]
        pos.castling = castling
    if pos.ep:
        h ^= z.ep[pos.ep]
        pos.ep = 0
    if pos.restriction:
        h ^= z.restrict_from[pos.restriction[0]] ^ z.restrict_to[pos.restriction[1]]
        pos.restriction = None
    pawn_arrival = False
    if kind <= EP:
        if kind == DOUBLE:
            pos.ep = square2
            h ^= z.ep[square2]
        mover = undo[0][1]
        if v.is_pawn[mover]:
            pawn_arrival = True
            if pos.pawn_history is not None:
                captured_sq = square2 if kind == EP else to
                pawn_arrival = update_pawn_history(pos, frm, to, placed,
                                                         captured_sq if v.is_pawn[captured] else 0)
        elif pos.pawn_history is not None and v.is_pawn[captured]:
            update_pawn_history(pos, 0, 0, 0, to)
    elif kind == PUSH:
        pushed = undo[1][1]
        if v.is_pawn[pushed]:
            pawn_arrival = True
            if pos.pawn_history is not None:
                pawn_arrival = update_pawn_history(pos, to, to2, placed2, to2 if v.is_pawn[captured] else 0)
        else:
            pos.restriction = (to, to2)                       # R8.7
            h ^= z.restrict_from[to] ^ z.restrict_to[to2]
            if pos.pawn_history is not None and v.is_pawn[captured]:
                update_pawn_history(pos, 0, 0, 0, to2)
    if captured or pawn_arrival:
        pos.halfmove = 0
    else:
        pos.halfmove += 1
    pos.stm = 1 - us
    pos.hash = h
    pos.score = score
    pos._in_check = None


def update_pawn_history(pos: "Position", frm: int, to: int, placed: int, captured_sq: int) -> bool:
    """R8.9 bookkeeping: histories move with their pawns; True if the pawn is new on ``to``."""
    hist = dict(pos.pawn_history)  # type: ignore[arg-type]
    pos.pawn_history = hist
    if captured_sq:
        hist.pop(captured_sq, None)
    if not frm:
        return False
    seen = hist.pop(frm, frozenset((frm,)))
    if pos.v.is_pawn[placed]:
        hist[to] = seen | {to}
    return to not in seen
