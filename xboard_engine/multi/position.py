"""A position of a game of more than two players: the board, whose turn it is, make/unmake, legal
moves for any seat, attacks and check (E3), and elimination as a reversible change (E4.3).

Scoring, credits and the end of the game are the referee's (``game.Game``); the search uses this
class alone.  Which seats are enemies is fixed by the mode: ``hostile[s][code]`` says whether a unit
checks seat ``s``'s king, ``capturable[s][code]`` whether seat ``s`` may capture it (enemies' units,
their kings included, and grey units; never a teammate's).

An enemy king is captured like any unit (E4.4): a king that stands attacked when another enemy's turn
comes may be taken by that enemy.  ``push`` of such a move also eliminates the king's owner ("king
captured": its units turn grey, its castling rights and en-passant chances go) in the same undo step,
so ``pop`` restores both.  Legality stays E3.5: a move may not leave the mover's own king attacked by
an active enemy, and the units of a king the move captures are no longer active.
"""
import random
from typing import Dict, List, Optional, Sequence, Tuple

from ..core.errors import EmptyHistoryError, IllegalMoveError
from ..core.moves import CASTLE, DOUBLE, EP, Move
from .rules import (ACTIVE, EMPTY, GREY, KING, KING_CAPTURED, OFF, OUT_STATES, PAWN, POINT_QUEEN, SEAT_STATES,
                    ZOMBIE, MultiVariant, get_multi_variant)
from ..core.errors import InvalidSquareError
from .notation import move_text, parse_move, read_position, unit_text, write_position
from .seat_moves import SeatMoves

__all__ = ["MultiPosition", "ACTIVE", "ZOMBIE", "OUT_STATES", "Move"]


class _Keys:
    """Zobrist keys for a board of ``size`` cells and ``seats`` seats (fixed seed: reproducible)."""

    def __init__(self, size: int, seats: int, castles: int) -> None:
        rng = random.Random(0x8C8E55)
        bits = lambda: rng.getrandbits(63)   # below 2**63: a machine word in PyPy (core/board.py)
        self.piece = [[0] * size] + [[bits() for _ in range(size)] for _ in range(1, OFF + 1)]
        self.turn = [bits() for _ in range(seats)]
        self.right = [bits() for _ in range(castles)]
        self.ep = [bits() for _ in range(size)]
        self.state = [{st: bits() for st in SEAT_STATES} for _ in range(seats)]


_KEYS: Dict[str, _Keys] = {}


class MultiPosition(SeatMoves):
    """The state of an N-seat game between moves.

    ``turn`` is the seat to move; ``state[s]`` is a seat's state letter (``ACTIVE``, ``ZOMBIE`` or one
    of ``OUT_STATES``); ``ep`` holds the en-passant chances still open as ``(owner, pawn square,
    passed square)`` (E3.3: each lasts until its owner's next turn, so every other player gets one);
    ``clock`` counts moves since the last capture or pawn move (the 50-set rule).

    The calls of docs/EIGHT_PLAYER_API.md (tests/test_docstrings.py checks that each has an example):

    >>> pos = MultiPosition()
    >>> pos.turn, "".join(pos.state), len(pos.legal_moves()), len(pos.legal_moves(1)), pos.perft(2)
    (0, 'aaaaaaaa', 20, 20, 395)
    >>> g3 = pos.v.by_name["g3"]
    >>> pos.attacked_by_seat(g3, 0), pos.attacked_by_seat(g3, 1), pos.in_check(0)
    (True, False, False)
    >>> m = pos.parse_move("h3")
    >>> pos.push(m)
    >>> pos.turn, pos.move_text(pos.legal_moves()[0]), pos.hash == pos.compute_hash()
    (1, 'c4', True)
    >>> pos.text().split()[1:3], MultiPosition.from_text(pos.text()).text() == pos.text()
    (['r', 'aaaaaaaa'], True)
    >>> pos.pass_turn(5)                    # Orange to move instead; pop() undoes it
    >>> pos.turn, pos.pop(), pos.turn
    (5, None, 1)
    >>> pos.eliminate(1, "r")               # Red resigns: its units turn grey, the turn passes on
    >>> pos.turn, "".join(pos.state)
    (2, 'araaaaaa')
    >>> pos.pop(), pos.pop() == m, pos.turn
    (None, True, 0)
    """

    __slots__ = ("v", "board", "units", "kings", "turn", "state", "rights", "ep", "clock", "moves_made",
                 "hash", "_stack", "hostile", "capturable", "capture_the_king", "teams", "keys", "promotion_kinds",
                 "_root")

    def __init__(self, game: str = "8player", teams: Optional[Sequence[int]] = None,
                 capture_the_king: bool = False, one_point_queen: bool = False) -> None:
        """The start position.  ``teams[s]`` is seat ``s``'s team (seats of one team never capture
        or check each other; default: every seat alone, as in Singles)."""
        v = get_multi_variant(game)
        self._configure(v, teams, capture_the_king, one_point_queen)
        for sq, code in v.start_units.items():
            self.board[sq] = code
        self.turn = 0
        self.state = [ACTIVE] * v.players
        self.rights = v.all_rights
        self._finish_setup()

    def _configure(self, v: MultiVariant, teams: Optional[Sequence[int]], capture_the_king: bool,
                   one_point_queen: bool) -> None:
        self.v = v
        n = v.players
        self.teams = list(teams) if teams is not None else list(range(n))
        self.capture_the_king = capture_the_king
        self.promotion_kinds = (POINT_QUEEN,) if one_point_queen else v.promotion_kinds
        if v.name not in _KEYS:
            _KEYS[v.name] = _Keys(v.size, n, len(v.castles))
        self.keys = _KEYS[v.name]
        board = [OFF] * v.size
        for sq in v.squares:
            board[sq] = EMPTY
        self.board = board
        # hostile[s][code]: the unit can check seat s (an active enemy's); capturable[s][code]: s may
        # take it (enemies' units, their kings too (E4.4), and grey units).
        self.hostile = []
        self.capturable = []
        for s in range(n):
            hostile = [False] * (OFF + 1)
            capturable = [False] * (OFF + 1)
            for t in range(n):
                if self.teams[t] != self.teams[s]:
                    for kind in range(1, 8):
                        hostile[t * 8 + kind] = True
                        capturable[t * 8 + kind] = True
            for kind in range(1, 8):
                capturable[GREY * 8 + kind] = True
            self.hostile.append(hostile)
            self.capturable.append(capturable)
        self.ep: Tuple[Tuple[int, int, int], ...] = ()
        self.clock = 0
        self.moves_made = 0
        self._stack: List[tuple] = []

    def _finish_setup(self) -> None:
        v = self.v
        self.units = [dict() for _ in range(GREY + 1)]
        self.kings = [0] * v.players
        for sq in v.squares:
            code = self.board[sq]
            if code:
                self.units[code >> 3][sq] = None
                if code & 7 == KING and code >> 3 < GREY:
                    self.kings[code >> 3] = sq
        self.hash = self.compute_hash()
        self._root = self.text()

    @classmethod
    def from_text(cls, text: str, game: str = "8player", teams: Optional[Sequence[int]] = None,
                  capture_the_king: bool = False, one_point_queen: bool = False) -> "MultiPosition":
        """The position of a position text (``text()``; raises InvalidFenError)."""
        pos = cls.__new__(cls)
        pos._configure(get_multi_variant(game), teams, capture_the_king, one_point_queen)
        read_position(pos, text)
        pos._finish_setup()
        return pos

    def copy(self) -> "MultiPosition":
        other = MultiPosition.__new__(MultiPosition)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.board = list(self.board)
        other.units = [dict(u) for u in self.units]
        other.kings = list(self.kings)
        other.state = list(self.state)
        other._stack = list(self._stack)
        return other

    # ================================================================ text
    def text(self) -> str:
        """The position text (docs/EIGHT_PLAYER_API.md): rows from the top rank, turn, seat states,
        castling rook squares, en-passant chances, clock, moves made."""
        return write_position(self)

    def root_text(self) -> str:
        return self._root

    def move_text(self, m: Move, colon: bool = False) -> str:
        """The text's notation of legal move ``m`` for the seat to move (``h3``, ``Nf3``, ``O-O``,
        ``e11=Q``; captures with ``:`` when ``colon``)."""
        return move_text(self, m, colon)

    def parse_move(self, text: str) -> Move:
        """The legal move of the seat to move named by ``text`` (the text's notation or squares such
        as ``h2h3``; raises IllegalMoveError)."""
        return parse_move(self, text)

    def square(self, name: str) -> int:
        sq = self.v.by_name.get(name)
        if sq is None:
            raise InvalidSquareError(f"no square {name!r} on the {self.v.name} board")
        return sq

    def piece_at(self, name: str) -> Optional[str]:
        """``wK``-style text of the unit on a square (``x`` for grey), or None."""
        code = self.board[self.square(name)]
        if not code:
            return None
        return unit_text(self.v, code)

    # ================================================================ questions (attacks, check and
    # the legal moves of a seat are SeatMoves's, seat_moves.py)
    def is_active(self, seat: int) -> bool:
        """Whether the seat still takes turns (active, or a Zombie King)."""
        return self.state[seat] in (ACTIVE, ZOMBIE)

    def active_seats(self) -> List[int]:
        return [s for s in range(self.v.players) if self.state[s] in (ACTIVE, ZOMBIE)]

    def next_seat(self, after: int) -> int:
        """The next seat clockwise after ``after`` still taking turns (``after`` itself if alone)."""
        n = self.v.players
        for i in range(1, n + 1):
            s = (after + i) % n
            if self.state[s] in (ACTIVE, ZOMBIE):
                return s
        return after

    def is_capture(self, m: Move) -> bool:
        return m[3] == EP or (m[3] != CASTLE and self.board[m[1]] != EMPTY)

    # ================================================================ make / unmake
    def push(self, m: Move) -> None:
        """Make legal move ``m`` of the seat to move; the turn passes to the next active seat.  A move
        that takes an enemy king also puts the king's owner out of the game, state ``KING_CAPTURED`` (E4.4)."""
        if m.__class__ is not Move:
            raise IllegalMoveError(f"push takes a Move from legal_moves(), not {m!r}")
        frm, to, placed, kind, sq2, to2, placed2 = m
        B = self.board
        mover = self.turn
        keys = self.keys
        zp = keys.piece
        h = self.hash
        changes = [(frm, B[frm]), (to, B[to])]
        captured = B[to]
        if kind == CASTLE:
            changes = [(frm, B[frm]), (sq2, B[sq2]), (to, B[to]), (to2, B[to2])]
            news = ((frm, EMPTY), (sq2, EMPTY), (to, placed), (to2, placed2))
        elif kind == EP:
            captured = B[sq2]
            changes.append((sq2, captured))
            news = ((frm, EMPTY), (sq2, EMPTY), (to, placed))
        else:
            news = ((frm, EMPTY), (to, placed))
        units = self.units
        kings = self.kings
        for sq, code in news:
            old = B[sq]
            if old:
                del units[old >> 3][sq]
                h ^= zp[old][sq]
            if code:
                units[code >> 3][sq] = None
                h ^= zp[code][sq]
                if code & 7 == KING and code >> 3 < GREY:
                    kings[code >> 3] = sq
            B[sq] = code
        states = None
        if captured & 7 == KING and captured < GREY * 8:
            # E4.4: the king's owner is out; its units turn grey (undone with the move by pop).
            victim = captured >> 3
            grey = units[GREY]
            for sq in list(units[victim]):
                code = B[sq]
                changes.append((sq, code))
                grey[sq] = None
                h ^= zp[code][sq] ^ zp[code + (GREY - victim) * 8][sq]
                B[sq] = code + (GREY - victim) * 8
            units[victim].clear()
            states = self.state
            self.state = list(states)
            h ^= keys.state[victim][states[victim]] ^ keys.state[victim][KING_CAPTURED]
            self.state[victim] = KING_CAPTURED
        self._stack.append((m, changes, mover, self.rights, self.ep, self.clock, self.hash, states))
        rights = self.rights
        if rights:
            kept = self.v.rights_kept
            new_rights = rights & kept[frm] & kept[to]
            if kind == CASTLE:
                new_rights &= kept[sq2]
            if new_rights != rights:
                for c in self.v.castles:
                    if (rights ^ new_rights) >> c.bit & 1:
                        h ^= keys.right[c.bit]
                self.rights = new_rights
        nxt = self.next_seat(mover)
        ep = self.ep
        if ep or kind == DOUBLE:
            for e in ep:
                h ^= keys.ep[e[2]]
            # E3.3: a chance lasts until its owner's next turn; the mover's own is now spent.
            ep = tuple(e for e in ep if e[0] != nxt and e[0] != mover and B[e[1]] == e[0] * 8 + PAWN)
            if kind == DOUBLE:
                ep += ((mover, to, sq2),)
            for e in ep:
                h ^= keys.ep[e[2]]
            self.ep = ep
        self.clock = 0 if captured or changes[0][1] & 7 == PAWN else self.clock + 1
        h ^= keys.turn[mover] ^ keys.turn[nxt]
        self.turn = nxt
        self.moves_made += 1
        self.hash = h

    def pop(self) -> Optional[Move]:
        """Undo the last ``push`` or ``eliminate``; returns the move (None for an elimination)."""
        if not self._stack:
            raise EmptyHistoryError("no move to take back")
        m, changes, self.turn, self.rights, self.ep, self.clock, self.hash, states = self._stack.pop()
        B = self.board
        units = self.units
        kings = self.kings
        for sq, before in reversed(changes):
            after = B[sq]
            if after:
                del units[after >> 3][sq]
            if before:
                units[before >> 3][sq] = None
                if before & 7 == KING and before >> 3 < GREY:
                    kings[before >> 3] = sq
            B[sq] = before
        if states is not None:
            self.state = states
        if m is not None:
            self.moves_made -= 1
        return m

    def pass_turn(self, seat: Optional[int] = None) -> None:
        """Give the turn to ``seat`` (default: the next active seat after the seat to move) without
        moving: the search's tool for reply orders other than the game's; ``pop`` undoes it."""
        s = self.next_seat(self.turn) if seat is None else seat
        self._stack.append((None, [], self.turn, self.rights, self.ep, self.clock, self.hash,
                            list(self.state)))
        self.hash ^= self.keys.turn[self.turn] ^ self.keys.turn[s]
        self.turn = s

    def eliminate(self, seat: int, how: str, keep_king: bool = False) -> None:
        """Seat ``seat`` leaves the game (``how``: an ``OUT_STATES`` letter, or ``ZOMBIE``): its units
        turn grey (E4.3), all but the king when ``keep_king`` (Zombie King).  Its castling rights and
        en-passant chances go; if it was to move, the turn passes on.  ``pop`` undoes it."""
        B = self.board
        keys = self.keys
        zp = keys.piece
        h = self.hash
        changes = []
        units = self.units
        for sq in list(units[seat]):
            code = B[sq]
            if keep_king and code & 7 == KING:
                continue
            grey = GREY * 8 + (code & 7)
            changes.append((sq, code))
            del units[seat][sq]
            units[GREY][sq] = None
            h ^= zp[code][sq] ^ zp[grey][sq]
            B[sq] = grey
        self._stack.append((None, changes, self.turn, self.rights, self.ep, self.clock, self.hash,
                            list(self.state)))
        for c in self.v.castles_of[seat]:
            if self.rights >> c.bit & 1:
                h ^= keys.right[c.bit]
                self.rights &= ~(1 << c.bit)
        if any(e[0] == seat for e in self.ep):
            for e in self.ep:
                h ^= keys.ep[e[2]]
            self.ep = tuple(e for e in self.ep if e[0] != seat)
            for e in self.ep:
                h ^= keys.ep[e[2]]
        h ^= keys.state[seat][self.state[seat]] ^ keys.state[seat][how]
        self.state = list(self.state)
        self.state[seat] = how
        if self.turn == seat and how != ZOMBIE:
            nxt = self.next_seat(seat)
            h ^= keys.turn[seat] ^ keys.turn[nxt]
            self.turn = nxt
        self.hash = h

    @property
    def ply(self) -> int:
        return len(self._stack)

    def compute_hash(self) -> int:
        """The Zobrist hash from scratch (the incremental ``hash`` must equal it)."""
        keys = self.keys
        h = keys.turn[self.turn]
        for sq in self.v.squares:
            h ^= keys.piece[self.board[sq]][sq]
        for c in self.v.castles:
            if self.rights >> c.bit & 1:
                h ^= keys.right[c.bit]
        for e in self.ep:
            h ^= keys.ep[e[2]]
        for s, st in enumerate(self.state):
            h ^= keys.state[s][st]
        return h

    def perft(self, depth: int) -> int:
        """Leaf count ``depth`` moves deep in turn order.  A king taken on the way puts its owner out
        (E4.4, part of ``push``); mates and stalemates are not judged (a seat without a move ends
        the line)."""
        moves = self.legal_moves()
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        total = 0
        for m in moves:
            self.push(m)
            total += self.perft(depth - 1)
            self.pop()
        return total
