"""The moves of one seat of a ``MultiPosition``: attacks and check (E3.5), the moves by the movement
rules (E3.2-E3.4) and the legal ones among them.  ``MultiPosition`` inherits these; they read its
board, units, kings, seat states, castling rights, en-passant chances and the ``hostile`` and
``capturable`` tables, and change nothing (``_legal`` tries a move on the board and puts it back).
"""
from typing import List, Optional

from ..core.attacks import ray_end
from ..core.moves import CASTLE, DOUBLE, EP, NORMAL, Move
from .rules import ACTIVE, EMPTY, GREY, KING, KNIGHT, OFF, PAWN, ZOMBIE, MultiVariant

new_move = tuple.__new__


class SeatMoves:
    """Move generation over the state a ``MultiPosition`` keeps (a mix-in: no state of its own)."""

    __slots__ = ()
    v: MultiVariant
    board: List[int]
    units: List[dict]
    kings: List[int]
    state: List[str]
    rights: int
    ep: tuple
    hostile: List[List[bool]]
    capturable: List[List[bool]]
    capture_the_king: bool
    promotion_kinds: tuple
    turn: int

    def attacked(self, sq: int, table: List[bool]) -> bool:
        """Whether a unit whose code ``table`` marks attacks square ``sq`` (``hostile[s]``: would a
        unit of seat s be in check there)."""
        B = self.board
        for o in self.v.knight:
            c = B[sq + o]
            if table[c] and c & 7 == KNIGHT:
                return True
        v = self.v
        for d in v.orthogonal:
            t = sq + d
            c = B[t]
            if c:
                if table[c] and c & 7 in (4, 5, 6, 7):      # rook, queen, king, point queen
                    return True
                continue
            t, c = ray_end(B, t + d, d)
            if table[c] and c & 7 in (4, 5, 7):
                return True
        pawn_reverse = v.pawn_reverse
        for d in v.diagonal:
            t = sq + d
            c = B[t]
            if c:
                if table[c]:
                    k = c & 7
                    if k in (3, 5, 6, 7) or (k == PAWN and d in pawn_reverse[c >> 3]):
                        return True
                continue
            t, c = ray_end(B, t + d, d)
            if table[c] and c & 7 in (3, 5, 7):
                return True
        return False

    def in_check(self, seat: Optional[int] = None) -> bool:
        """Whether ``seat``'s king (default: the seat to move) is attacked by an active enemy (E3.5)."""
        s = self.turn if seat is None else seat
        if self.state[s] not in (ACTIVE, ZOMBIE):
            return False
        return self.attacked(self.kings[s], self.hostile[s])

    def attacked_by_seat(self, sq: int, seat: int) -> bool:
        """Whether seat ``seat``'s active units attack ``sq``."""
        return self.attacked(sq, _own_table(self, seat))

    # ================================================================ moves
    def pseudo_moves(self, s: int) -> List[Move]:
        """Moves of seat ``s`` by the movement rules alone, castling fully checked (E3.2-E3.4)."""
        v = self.v
        B = self.board
        cap = self.capturable[s]
        moves: List[Move] = []
        add = moves.append
        king_only = self.state[s] == ZOMBIE
        for sq in self.units[s]:
            p = B[sq]
            kind = p & 7
            if king_only and kind != KING:
                continue
            if kind == PAWN:
                self._pawn_moves(s, sq, p, add)
            elif kind == KNIGHT or kind == KING:
                for o in (v.knight if kind == KNIGHT else v.all_steps):
                    t = B[sq + o]
                    if t == 0 or cap[t]:
                        add(new_move(Move, (sq, sq + o, p, NORMAL, 0, 0, 0)))
            else:
                for d in v.slides[kind]:
                    to = sq + d
                    t = B[to]
                    while t == 0:
                        add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
                        to += d
                        t = B[to]
                    if cap[t]:
                        add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
        if self.rights and not king_only:
            self._castles(s, add)
        return moves

    def _pawn_moves(self, s: int, sq: int, p: int, add) -> None:
        v = self.v
        B = self.board
        seat = v.seats[s]
        f = seat.forward
        promo = v.promotion_square[s]
        to = sq + f
        if B[to] == 0:
            if promo[to]:
                for k in self.promotion_kinds:
                    add(new_move(Move, (sq, to, s * 8 + k, NORMAL, 0, 0, 0)))
            else:
                add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
                if v.pawn_start[s][sq] and B[to + f] == 0:
                    add(new_move(Move, (sq, to + f, p, DOUBLE, to, 0, 0)))
        cap = self.capturable[s]
        for c in seat.captures:
            to = sq + c
            t = B[to]
            if t:
                if cap[t]:
                    if promo[to]:
                        for k in self.promotion_kinds:
                            add(new_move(Move, (sq, to, s * 8 + k, NORMAL, 0, 0, 0)))
                    else:
                        add(new_move(Move, (sq, to, p, NORMAL, 0, 0, 0)))
            elif self.ep:
                for owner, pawn_sq, passed in self.ep:
                    if passed == to and cap[B[pawn_sq]] and B[pawn_sq] == owner * 8 + PAWN:
                        for placed in ([s * 8 + k for k in self.promotion_kinds] if promo[to] else [p]):
                            add(new_move(Move, (sq, to, placed, EP, pawn_sq, 0, 0)))

    def _castles(self, s: int, add) -> None:
        B = self.board
        rights = self.rights
        ctk = self.capture_the_king
        hostile = self.hostile[s]
        for c in self.v.castles_of[s]:
            if not rights >> c.bit & 1:
                continue
            if any(B[x] for x in c.empty):
                continue
            if not ctk and any(self.attacked(x, hostile) for x in c.safe):
                continue
            add(new_move(Move, (c.king, c.king_to, B[c.king], CASTLE, c.rook, c.rook_to, B[c.rook])))

    def legal_moves(self, seat: Optional[int] = None) -> List[Move]:
        """Legal moves of ``seat`` (default: the seat to move): no move leaves its own king attacked
        by an active enemy (E3.5; none are removed under Capture The King).  Taking an enemy king the
        seat attacks is one of them (E4.4)."""
        s = self.turn if seat is None else seat
        if self.state[s] not in (ACTIVE, ZOMBIE):
            return []
        return self._legal(s, self.pseudo_moves(s), False)

    def _legal(self, s: int, moves: List[Move], first_only: bool) -> List[Move]:
        """The moves of ``moves`` that leave seat ``s``'s king safe (only the first when
        ``first_only``)."""
        if self.capture_the_king:
            return moves[:1] if first_only else moves
        king = self.kings[s]
        hostile = self.hostile[s]
        in_check = self.attacked(king, hostile)
        line = self.v.line[king]
        B = self.board
        legal = []
        for m in moves:
            frm = m[0]
            kind = m[3]
            if kind == CASTLE or (not in_check and frm != king and kind != EP and frm not in line):
                legal.append(m)
                if first_only:
                    break
                continue
            to = m[1]
            moved = B[frm]
            captured = B[to]
            B[frm] = EMPTY
            B[to] = m[2]
            if kind == EP:
                taken = B[m[4]]
                B[m[4]] = EMPTY
            if captured & 7 == KING and captured < GREY * 8:
                # E4.4: the owner of the king taken is out with the move; its units attack no more.
                table = list(hostile)
                for k in range(captured - KING, captured + 2):
                    table[k] = False
                safe = not self.attacked(to if frm == king else king, table)
            else:
                safe = not self.attacked(to if frm == king else king, hostile)
            if kind == EP:
                B[m[4]] = taken
            B[to] = captured
            B[frm] = moved
            if safe:
                legal.append(m)
                if first_only:
                    break
        return legal

    def has_legal_move(self, seat: int) -> bool:
        """Whether ``seat`` could move if it were its turn (stops at the first legal move)."""
        if self.state[seat] not in (ACTIVE, ZOMBIE):
            return False
        return bool(self._legal(seat, self.pseudo_moves(seat), True))

    def king_escapes(self, seat: int) -> List[int]:
        """The squares next to ``seat``'s king it could step to if nothing attacked them (the text's
        "would-be escaping squares", E4.2)."""
        B = self.board
        king = self.kings[seat]
        cap = self.capturable[seat]
        return [king + d for d in self.v.all_steps if B[king + d] == 0 or cap[B[king + d]]]


def _own_table(pos: SeatMoves, seat: int) -> List[bool]:
    """Codes of seat ``seat``'s units (a Zombie King's other units are already grey)."""
    table = [False] * (OFF + 1)
    for kind in range(1, 8):
        table[seat * 8 + kind] = True
    return table
