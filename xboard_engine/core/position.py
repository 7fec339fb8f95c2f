"""The position: the state of a game of one variant, make/unmake, and the questions callers ask.

The rules live in their own rooms: ``movegen`` (legal moves), ``attacks`` (attacks, holds, pins),
``behaviours`` (what each kind of unit does), ``fen`` (position text), ``outcome`` (game end) and
``notation`` (move text).  A move is a ``Move`` (``moves``).  ``push`` makes the common move (one
unit moves, perhaps capturing) itself and hands every other kind to ``make``, which turns it into one
list of square changes from which the board, piece lists, Zobrist hash and evaluation accumulator are
updated; ``pop`` undoes either.
"""
import random
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

from . import notation
from .attacks import attacked
from .board import BLACK, EMPTY, OFF
from .errors import EmptyHistoryError, IllegalMoveError, InvalidFenError, InvalidSquareError
from .fen import read_fen, write_fen
from .make import push_changes, update_pawn_history
from .movegen import legal_captures, legal_moves, perft
from .moves import CASTLE, EDGE, EP, JUMP, NORMAL, PASS_MOVE, PUSH, Move, MoveKind
from .outcome import Outcome, is_insufficient_material, outcome
from .pieces import PAWN
from .variant import Variant, get_variant, placement_of
from .board import hash_from_scratch, zobrist_for

__all__ = ["Position", "Move", "MoveKind", "Outcome"]

# The undo entry ``push`` records and ``pop`` unpacks: (move, moved, captured, castling, ep, halfmove,
# restriction, pawn_history, hash, score, in_check), the state before the move.  These fields are also
# read one at a time.
UNDO_MOVE = 0
UNDO_HASH = 8


class Position:
    """A position of one variant, with the game history needed for repetitions and unmake.

    >>> pos = Position("chess80")
    >>> len(pos.legal_moves())
    30
    >>> m = pos.parse_move("e2e4")
    >>> m.kind, pos.san(m), pos.is_capture(m)
    (<MoveKind.NORMAL: 0>, 'e4', False)
    >>> pos.push(m)
    >>> pos.fen()
    'rnbdkqdbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBDKQDBNR b KQkq - 0 1'

    Every call of docs/API.md has an example there or here, run by tests/test_docstrings.py.
    """

    # Slots: attribute access on the make/unmake path is a fixed offset, not a dictionary lookup.
    __slots__ = ("v", "z", "_zpiece", "_zside", "_pst", "_is_king", "_is_pawn", "board", "units", "kings",
                 "castle_partner", "castle_mask", "_stack", "stm", "castling", "ep", "halfmove",
                 "_fullmove_base", "_root_stm", "restriction", "_in_check", "pawn_history", "hash", "score",
                 "_root_fen")

    def __init__(self, variant: str = "normal", number: Optional[int] = None,
                 rng: Optional[random.Random] = None) -> None:
        v = get_variant(variant)
        self._setup(v, v.start_fen_for(number, rng))

    @classmethod
    def from_fen(cls, fen: str, variant: str = "normal") -> "Position":
        """The position described by ``fen`` (raises InvalidFenError)."""
        pos = cls.__new__(cls)
        pos._setup(get_variant(variant), fen)
        return pos

    def _setup(self, v: Variant, fen: str) -> None:
        self.v = v
        self.z = z = zobrist_for(v.size)
        # Tables the make/unmake fast path reads, one attribute lookup away.
        self._zpiece = z.piece
        self._zside = z.side
        self._pst = v.signed_piece_square
        self._is_king = v.is_king
        self._is_pawn = v.is_pawn
        board = [OFF] * v.size
        for sq in v.squares:
            board[sq] = EMPTY
        self.board = board
        # Each side's occupied squares, as insertion-ordered dicts (keys only): generation walks them,
        # so the move order is the same on every interpreter.
        self.units: List[Dict[int, None]] = [{}, {}]
        self.kings = [0, 0]
        self.castle_partner = [0, 0, 0, 0]
        self.castle_mask = [15] * v.size
        self._stack: List[tuple] = []
        self.stm = 0
        self.castling = 0
        self.ep = 0
        self.halfmove = 0
        self._fullmove_base = 1      # the move number at the root (see ``fullmove``)
        self._root_stm = 0
        self.restriction: Optional[Tuple[int, int]] = None
        self._in_check: Optional[bool] = None
        read_fen(self, v, fen)
        if attacked(self, self.kings[1 - self.stm], self.stm):
            raise InvalidFenError(f"the side not to move is in check: {fen!r}")
        self.pawn_history: Optional[Dict[int, FrozenSet[int]]] = None
        if v.fifty_move_new_square:
            self.pawn_history = {sq: frozenset((sq,)) for sq in v.squares if v.is_pawn[board[sq]]}
        self.hash = self.compute_hash()
        self.score = self.compute_score()
        self._root_fen = self.fen()

    def copy(self) -> "Position":
        """An independent copy with the same history."""
        other = Position.__new__(Position)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.board = list(self.board)
        other.units = [dict(self.units[0]), dict(self.units[1])]
        other.kings = list(self.kings)
        other._stack = list(self._stack)
        return other

    # ================================================================ text
    def fen(self) -> str:
        """FEN of the position (8-Piece variants add a 7th field while a push restriction holds)."""
        return write_fen(self)

    def root_fen(self) -> str:
        """FEN of the position this game was set up from (before ``move_stack``)."""
        return self._root_fen

    def push_forbidden_squares(self) -> List[str]:
        """R8.7: the squares the unit pushed on the last move may not move to now (the sentry's
        square and those the unit passed), sorted; empty when no push restriction holds or the
        pushed unit is a pawn."""
        if not self.restriction:
            return []
        v = self.v
        origin, dest = self.restriction
        if v.kind_of[self.board[dest]].behaviour == PAWN:
            return []
        return sorted(v.names[sq] for sq in [origin] + v.between(origin, dest))

    def holder_of(self, square: str) -> Optional[str]:
        """R4.2: the square of an enemy jailer holding the unit on ``square``, or None (also for an
        empty square or one not on the board)."""
        v = self.v
        sq = v.by_name.get(square)
        code = self.board[sq] if sq is not None else 0
        if not code or not v.has_jailers:
            return None
        side = 0 if code < BLACK else 1
        jailers = v.jailer_codes[1 - side]
        for step in v.orthogonal_steps:
            if self.board[sq + step] in jailers:
                return v.names[sq + step]
        return None

    def move_text(self, m: Move) -> str:
        """Coordinate (protocol) text of legal move ``m``, e.g. ``e2e4``, ``c1h5,h5h6``."""
        _check_move(m, "move_text")
        return notation.move_text(self, m)

    def parse_move(self, text: str) -> Move:
        """The legal move named by coordinate ``text`` (raises IllegalMoveError)."""
        return notation.parse_move(self, text)

    def uci_text(self, m: Move) -> str:
        """UCI token of legal move ``m``: the coordinate text, a Chess960 castle as king takes rook."""
        _check_move(m, "uci_text")
        return notation.uci_text(self, m)

    def parse_uci(self, text: str) -> Move:
        """The legal move named by UCI token ``text`` (``0000`` is a pass; raises IllegalMoveError)."""
        return notation.parse_uci(self, text)

    def san(self, m: Move) -> str:
        """SAN of legal move ``m`` (R11.1)."""
        _check_move(m, "san")
        return notation.san(self, m)

    def parse_san(self, text: str) -> Move:
        """The legal move named by SAN ``text`` (raises IllegalMoveError)."""
        return notation.parse_san(self, text)

    def parse_text(self, text: str) -> Move:
        """The legal move of coordinate text (or, failing that, SAN); raises IllegalMoveError."""
        legal = self.legal_moves()
        try:
            return notation.parse_move(self, text, legal)
        except IllegalMoveError as coord_error:
            try:
                return notation.parse_san(self, text, legal)
            except IllegalMoveError:
                raise coord_error from None

    def push_text(self, text: str) -> Move:
        """Parse coordinate text (or, failing that, SAN), make the move and return it."""
        m = self.parse_text(text)
        self.push(m)
        return m

    def legal_texts(self) -> Set[str]:
        """Coordinate texts of all legal moves."""
        return {notation.move_text(self, m) for m in self.legal_moves()}

    # ================================================================ questions
    @property
    def variant(self) -> Variant:
        """The variant's rules and tables."""
        return self.v

    @property
    def turn(self) -> str:
        """The side to move, "w" or "b" (``stm`` is the same as 0 or 1)."""
        return "wb"[self.stm]

    @property
    def fullmove(self) -> int:
        """The move number (FEN's sixth field): it grows after each Black move."""
        return self._fullmove_base + (len(self._stack) + self._root_stm) // 2

    @fullmove.setter
    def fullmove(self, number: int) -> None:
        """Set at the root (FEN reading), where the side to move is already known."""
        self._root_stm = self.stm
        self._fullmove_base = number - (len(self._stack) + self.stm) // 2

    @property
    def ply(self) -> int:
        """Number of moves made since the position was set up (what ``pop`` can take back)."""
        return len(self._stack)

    @property
    def move_stack(self) -> List[Move]:
        """The moves made since the position was set up, oldest first."""
        return [entry[UNDO_MOVE] for entry in self._stack]

    def legal_moves(self) -> List[Move]:
        """All legal moves of the side to move."""
        return legal_moves(self)

    def legal_captures(self) -> List[Move]:
        """The legal captures and promotions (quiescence search); a push whose pushed unit captures
        one of its own side counts (R8.2)."""
        return legal_captures(self)

    def piece_at(self, square: str) -> Optional[str]:
        """FEN letter of the unit on the named square, or None."""
        p = self.board[self._square(square)]
        return self.v.letter[p] if p else None

    def is_check(self) -> bool:
        """Whether the side to move is in check (computed once per position reached)."""
        if self._in_check is None:
            self._in_check = attacked(self, self.kings[self.stm], 1 - self.stm)
        return self._in_check

    def is_attacked(self, square: str, by: str) -> bool:
        """Whether side ``by`` ("w"/"b") attacks the named square (R8.6, P3)."""
        if by not in ("w", "b"):
            raise InvalidSquareError(f"side must be 'w' or 'b', not {by!r}")
        return attacked(self, self._square(square), 0 if by == "w" else 1)

    def _square(self, name: str) -> int:
        sq = self.v.by_name.get(name) if isinstance(name, str) else None
        if sq is None:
            raise InvalidSquareError(f"no square {name!r} on the {self.v.name} board")
        return sq

    def is_castle(self, m: Move) -> bool:
        return m.kind == CASTLE

    def castle_turns_partner(self, m: Move) -> bool:
        """A castle whose lancer partner arrives with a new facing (Full Cavalry, R5.3)."""
        return m.kind == CASTLE and m.placed2 != self.board[m.square2]

    def is_capture(self, m: Move) -> bool:
        """Whether legal move ``m`` removes a unit from the board (a push whose pushed unit captures
        one of its own side counts, R8.2)."""
        kind = m.kind
        if kind == NORMAL:
            return self.board[m.to] != EMPTY
        if kind == PUSH:
            return m.to2 != m.frm and self.board[m.to2] != EMPTY
        return kind in (EP, JUMP, EDGE)

    def is_zeroing(self, m: Move) -> bool:
        """Whether legal move ``m`` resets the 50-move count (R2.3, R8.9)."""
        self.push(m)
        zeroing = self.halfmove == 0
        self.pop()
        return zeroing

    def is_safe_after(self, m: Move) -> bool:
        """Whether pseudo-legal move ``m`` leaves the mover's king unattacked (by making it)."""
        us = self.stm
        self.push(m)
        safe = not attacked(self, self.kings[us], 1 - us)
        self.pop()
        return safe

    def outcome(self) -> Optional[Outcome]:
        """The game result if the game is over (R2.1, R2.2, R8.9), else None."""
        return outcome(self)

    def is_insufficient_material(self) -> bool:
        return is_insufficient_material(self)

    def repetitions(self) -> int:
        """How often the current position has occurred in this game (1 = first time)."""
        h = self.hash
        stack = self._stack
        return 1 + sum(1 for i in range(len(stack) - 2, -1, -2) if stack[i][UNDO_HASH] == h)

    def game_hashes(self) -> List[int]:
        """Hashes of the positions before each move of the game so far (for repetitions)."""
        return [entry[UNDO_HASH] for entry in self._stack]

    # ================================================================ hash and evaluation
    def compute_hash(self) -> int:
        """The Zobrist hash computed from scratch (the incremental ``hash`` must always equal it)."""
        return hash_from_scratch(self)

    def compute_score(self) -> int:
        """Material plus placement, White minus Black, from scratch (``score`` is kept incrementally)."""
        table = self.v.signed_piece_square
        B = self.board
        return sum(table[B[sq]][sq] for sq in self.v.squares)

    def material_and_placement(self) -> int:
        """Material plus placement (the piece-square tables, tapered by the material left), White
        minus Black, in centipawns."""
        return placement_of(self)

    def move_victim_value(self, m: Move) -> int:
        """Material the move wins at once (captures, promotions, a push's self-capture)."""
        v = self.v
        B = self.board
        frm, to, placed, kind, square2, to2, _ = m
        if kind == NORMAL:
            gain = v.value[B[to]]
            if placed != B[frm] and v.is_pawn[B[frm]]:
                gain += v.value[placed] - v.value[B[frm]]
            return gain
        if kind == EP or kind == JUMP:
            return v.value[B[square2]]
        if kind == PUSH:
            return v.value[B[to2]] if to2 != frm else 0
        if kind == EDGE:
            return max(1, v.value[B[to]] - v.value[B[frm]])
        return 0

    def mover_value(self, m: Move) -> int:
        """Value of the unit that makes move ``m`` (the search orders captures by the cheapest taker)."""
        return self.v.value[self.board[m.frm]]

    def square_attacked(self, sq: int, by: int) -> bool:
        """Whether side ``by`` (0 White, 1 Black) could capture a unit of the other side on square
        index ``sq`` (``is_attacked`` by square number, for the search)."""
        return attacked(self, sq, by)

    def has_pieces(self, side: int) -> bool:
        """Whether ``side`` (0 White, 1 Black) has a unit besides its king and pawns (the search's
        guard against zugzwang when it tries a null move)."""
        B = self.board
        is_pawn = self._is_pawn
        is_king = self._is_king
        for sq in self.units[side]:
            if not is_pawn[B[sq]] and not is_king[B[sq]]:
                return True
        return False

    # ================================================================ make / unmake
    def push(self, m: Move) -> None:
        """Make move ``m``, which must come from ``legal_moves()`` of this position."""
        if m.__class__ is not Move:
            _check_move(m, "push")
        frm, to, placed, kind, square2, to2, placed2 = m
        B = self.board
        if kind == NORMAL:
            moved = B[frm]
            captured = B[to]
        else:
            moved = 0
            captured = []          # push_changes fills in the (square, unit before) changes
        # The undo entry (UNDO_MOVE...), made here alone for every kind of move.
        self._stack.append((m, moved, captured, self.castling, self.ep, self.halfmove, self.restriction,
                            self.pawn_history, self.hash, self.score, self._in_check))
        if kind == NORMAL:
            # The common case written out: one unit moves, perhaps capturing.
            zp = self._zpiece
            pst = self._pst
            us = self.stm
            own = self.units[us]
            del own[frm]
            own[to] = None
            h = self.hash
            h ^= self._zside ^ zp[moved][frm] ^ zp[placed][to]
            score = self.score - pst[moved][frm] + pst[placed][to]
            if captured:
                del self.units[1 - us][to]
                h ^= zp[captured][to]
                score -= pst[captured][to]
            B[frm] = EMPTY
            B[to] = placed
            if self._is_king[moved]:
                self.kings[us] = to
            castling = self.castling
            ep = self.ep
            restriction = self.restriction
            if castling:
                mask = self.castle_mask
                castling &= mask[frm] & mask[to]
                if castling != self.castling:
                    zc = self.z.castling
                    h ^= zc[self.castling] ^ zc[castling]
                    self.castling = castling
            if ep:
                h ^= self.z.ep[ep]
                self.ep = 0
            if restriction:
                h ^= self.z.restrict_from[restriction[0]] ^ self.z.restrict_to[restriction[1]]
                self.restriction = None
            is_pawn = self._is_pawn
            if self.pawn_history is not None and (is_pawn[moved] or is_pawn[captured]):
                # R8.9: a pawn move resets the count only on a square new to that pawn.
                arrival = update_pawn_history(self, frm, to, placed, to if is_pawn[captured] else 0) \
                    if is_pawn[moved] else update_pawn_history(self, 0, 0, 0, to)
                self.halfmove = 0 if captured or arrival else self.halfmove + 1
            elif captured or is_pawn[moved]:
                self.halfmove = 0
            else:
                self.halfmove += 1
            self.stm = 1 - us
            self.hash = h
            self.score = score
            self._in_check = None
            return
        push_changes(self, captured, frm, to, placed, kind, square2, to2, placed2)

    def push_null(self) -> None:
        """Pass the turn without moving, legal or not (the search's null move); ``pop`` undoes it."""
        self.push(PASS_MOVE)

    def pop(self) -> Move:
        """Unmake the last move and return it."""
        if not self._stack:
            raise EmptyHistoryError("no move to take back")
        (m, moved, captured, self.castling, self.ep, self.halfmove, self.restriction, self.pawn_history,
         self.hash, self.score, self._in_check) = self._stack.pop()          # the entry push made
        B = self.board
        units = self.units
        self.stm = us = 1 - self.stm
        if moved:                        # the fast path of push: captured is the unit taken on ``to``
            frm = m.frm
            to = m.to
            own = units[us]
            del own[to]
            own[frm] = None
            B[frm] = moved
            B[to] = captured
            if captured:
                units[1 - us][to] = None
            if self._is_king[moved]:
                self.kings[us] = frm
        else:                            # captured is the list of (square, unit before) changes
            is_king = self.v.is_king
            for sq, before in reversed(captured):
                after = B[sq]
                if after:
                    del units[after >> 6][sq]
                if before:
                    units[before >> 6][sq] = None
                    if is_king[before]:
                        self.kings[before >> 6] = sq
                B[sq] = before
        return m

    # ================================================================ perft
    def perft(self, depth: int) -> int:
        """Number of leaf positions ``depth`` plies deep (every leaf is made and unmade)."""
        return perft(self, depth)


def _check_move(m: object, what: str) -> None:
    if m.__class__ is not Move:
        hint = " (use push_text for move text)" if isinstance(m, str) and what == "push" else ""
        raise IllegalMoveError(f"{what} takes a Move from legal_moves(), not {m!r}{hint}")
