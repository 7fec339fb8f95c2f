"""The position: board state, legal moves, make/unmake, FEN, hashing and game outcome.

A move is a plain tuple (fast to create and compare); its first four fields are always
``(from, to, placed, flag)``: the unit leaving ``from``, the code ``placed`` arriving on ``to``
(differs from the mover for promotions and lancer turns) and a flag for the special kinds:

* ``DOUBLE`` ``(..., ep_square)``: pawn double step that opens an en-passant capture
* ``EP`` ``(..., captured_square)``
* ``CASTLE`` ``(king_from, king_to, king, CASTLE, partner_from, partner_to, partner_placed)``
* ``PUSH`` ``(sentry_from, pushed_from, sentry, PUSH, pushed_to, pushed_placed)`` (R8)
* ``JUMP`` ``(sentry_from, landing, sentry, JUMP, victim)`` (R9.1), ``EDGE`` ``(sentry_from, victim, 0, EDGE)``
  (R9.2: both leave the board)
* ``PASS`` ``(0, 0, 0, PASS)`` (R4.3)
"""
import random
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from .errors import InvalidFenError
from .pieces import JAILER, LANCER, LEAPER_SLIDER, PAWN, SENTRY_JUMP, SENTRY_PUSH
from .variant import BLACK, EMPTY, OFF, Variant, get_variant

Move = Tuple[int, ...]

NORMAL, DOUBLE, EP, CASTLE, PUSH, JUMP, EDGE, PASS = range(8)
PASS_MOVE: Move = (0, 0, 0, PASS)

# Castling-right bits: side * 2 + (0 towards the higher files, 1 towards file a).
KINGSIDE, QUEENSIDE = 0, 1


class Outcome(NamedTuple):
    result: str                 # "1-0", "0-1" or "1/2-1/2"
    winner: Optional[str]       # "w", "b" or None
    termination: str            # checkmate, stalemate, threefold_repetition, fifty_moves, insufficient_material


class _Zobrist:
    """Random keys per variant geometry, from a fixed seed so hashes are reproducible."""

    def __init__(self, size: int) -> None:
        rng = random.Random(0x8E1C5)
        bits = lambda: rng.getrandbits(64)
        self.piece = [[0] * size] + [[bits() for _ in range(size)] for _ in range(1, OFF)]
        self.side = bits()
        self.castling = [0] + [bits() for _ in range(15)]
        self.ep = [bits() for _ in range(size)]
        self.restrict_from = [bits() for _ in range(size)]
        self.restrict_to = [bits() for _ in range(size)]


_ZOBRIST: Dict[int, _Zobrist] = {}


def _zobrist_for(size: int) -> _Zobrist:
    if size not in _ZOBRIST:
        _ZOBRIST[size] = _Zobrist(size)
    return _ZOBRIST[size]


class Position:
    """A position of one variant, with the game history needed for repetitions and unmake.

    >>> pos = Position("chess80")
    >>> len(pos.legal_moves())
    28
    """

    def __init__(self, variant: str = "normal", number: Optional[int] = None,
                 rng: Optional[random.Random] = None) -> None:
        v = get_variant(variant)
        self._setup(v, v.start_fen_for(number, rng))

    @classmethod
    def from_fen(cls, fen: str, variant: str = "normal") -> "Position":
        pos = cls.__new__(cls)
        pos._setup(get_variant(variant), fen)
        return pos

    # ================================================================ setup / FEN
    def _setup(self, v: Variant, fen: str) -> None:
        self.v = v
        self.z = _zobrist_for(v.size)
        board = [OFF] * v.size
        for sq in v.squares:
            board[sq] = EMPTY
        self.board = board
        self.units: List[Set[int]] = [set(), set()]
        self.kings = [0, 0]
        self.castle_partner = [0, 0, 0, 0]
        self.castle_mask = [15] * v.size
        self._stack: List[tuple] = []
        self._hashes: List[int] = []
        if not isinstance(fen, str):
            raise InvalidFenError(f"FEN must be text, not {type(fen).__name__}")
        fields = fen.split()
        if not 1 <= len(fields) <= 7 or (len(fields) == 7 and not v.has_push):
            raise InvalidFenError(f"FEN needs 1..{7 if v.has_push else 6} fields: {fen!r}")
        fields += ["w", "-", "-", "0", "1", "-"][len(fields) - 1:]
        placement, side, castling, ep, half, full, restriction = fields[:7]
        self._parse_placement(placement, fen)
        if side not in ("w", "b"):
            raise InvalidFenError(f"side to move must be w or b, not {side!r} in {fen!r}")
        self.stm = 0 if side == "w" else 1
        for color in (0, 1):
            kings = [sq for sq in self.units[color] if v.is_king[board[sq]]]
            if len(kings) != 1:
                raise InvalidFenError(f"{'white' if color == 0 else 'black'} must have exactly one king: {fen!r}")
            self.kings[color] = kings[0]
        for sq in v.squares:
            if v.is_pawn[board[sq]] and v.rank_of[sq] in (0, v.ranks - 1) and not v.fifty_move_new_square:
                raise InvalidFenError(f"pawn on {v.names[sq]}, a first or last rank: {fen!r}")
        self.castling = self._parse_castling(castling, fen)
        self.ep = self._parse_ep(ep, fen)
        try:
            self.halfmove = int(half)
            self.fullmove = int(full)
        except ValueError:
            raise InvalidFenError(f"move counters must be numbers: {half!r} {full!r} in {fen!r}") from None
        if self.halfmove < 0 or self.fullmove < 1:
            raise InvalidFenError(f"move counters out of range: {half} {full} in {fen!r}")
        self.restriction = self._parse_restriction(restriction, fen)
        if self._attacked(self.kings[1 - self.stm], self.stm):
            raise InvalidFenError(f"the side not to move is in check: {fen!r}")
        self.pawn_history: Optional[Dict[int, FrozenSet[int]]] = None
        if v.fifty_move_new_square:
            self.pawn_history = {sq: frozenset((sq,)) for sq in v.squares if v.is_pawn[board[sq]]}
        self.hash = self.compute_hash()
        self._root_fen = self.fen()

    def _parse_placement(self, placement: str, fen: str) -> None:
        v = self.v
        rows = placement.split("/")
        if len(rows) != v.ranks:
            raise InvalidFenError(f"board needs {v.ranks} ranks, got {len(rows)}: {fen!r}")
        for i, row in enumerate(rows):
            rank = v.ranks - 1 - i
            file = 0
            j = 0
            while j < len(row):
                c = row[j]
                if c.isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    n = int(row[j:k])
                    if n == 0:
                        raise InvalidFenError(f"zero empty squares in rank {rank + 1}: {fen!r}")
                    file += n
                    j = k
                    if file > v.files:
                        raise InvalidFenError(f"rank {rank + 1} has more than {v.files} squares: {fen!r}")
                    continue
                code = v.code_of.get(c)
                if code is None:
                    raise InvalidFenError(f"unknown piece letter {c!r} for {v.name}: {fen!r}")
                if file >= v.files:
                    raise InvalidFenError(f"rank {rank + 1} has more than {v.files} squares: {fen!r}")
                sq = v.square(file, rank)
                self.board[sq] = code
                self.units[code >> 6].add(sq)
                file += 1
                j += 1
            if file != v.files:
                raise InvalidFenError(f"rank {rank + 1} does not have {v.files} squares: {fen!r}")

    def _parse_castling(self, text: str, fen: str) -> int:
        v = self.v
        if text == "-":
            return 0
        rights = 0
        for c in text:
            color = 0 if c.isupper() else 1
            back = 0 if color == 0 else v.ranks - 1
            king = self.kings[color]
            if v.rank_of[king] != back:
                raise InvalidFenError(f"castling right {c!r} but the king is not on its first rank: {fen!r}")
            kfile = v.file_of[king]
            partner_files = [f for f in range(v.files) if self._is_partner_at(v.square(f, back), color)]
            u = c.upper()
            if u == "K":
                side, candidates = KINGSIDE, [f for f in partner_files if f > kfile][-1:]
            elif u == "Q":
                side, candidates = QUEENSIDE, [f for f in partner_files if f < kfile][:1]
            elif "A" <= u <= "Z" and ord(u) - 65 < v.files and v.chess960_style:
                f = ord(u) - 65
                side, candidates = (KINGSIDE if f > kfile else QUEENSIDE), [f] if f in partner_files else []
            else:
                raise InvalidFenError(f"bad castling letter {c!r}: {fen!r}")
            if not candidates:
                raise InvalidFenError(f"castling right {c!r} has no partner piece: {fen!r}")
            pfile = candidates[0]
            if not v.chess960_style:
                start = get_variant(v.name).start_fen.split()[0].split("/")
                if not self._start_file_ok(start, color, kfile, pfile):
                    raise InvalidFenError(f"castling right {c!r} needs king and partner on their start squares: {fen!r}")
            bit = color * 2 + side
            if rights & (1 << bit):
                raise InvalidFenError(f"castling right {c!r} given twice: {fen!r}")
            rights |= 1 << bit
            psq = v.square(pfile, back)
            self.castle_partner[bit] = psq
            self.castle_mask[psq] &= ~(1 << bit)
            self.castle_mask[king] &= ~(3 << (color * 2))
        return rights

    def _start_file_ok(self, start_rows: List[str], color: int, kfile: int, pfile: int) -> bool:
        row = start_rows[-1] if color == 0 else start_rows[0]
        cells: List[str] = []
        num = ""
        for c in row:
            if c.isdigit():
                num += c
                continue
            if num:
                cells += [""] * int(num)
                num = ""
            cells.append(c)
        return cells[kfile].upper() == "K" and self.v.is_partner[self.v.code_of.get(cells[pfile], 0)]

    def _is_partner_at(self, sq: int, color: int) -> bool:
        p = self.board[sq]
        return p != EMPTY and (p >> 6) == color and self.v.is_partner[p]

    def _parse_ep(self, text: str, fen: str) -> int:
        if text == "-":
            return 0
        v = self.v
        sq = v.by_name.get(text)
        if sq is None:
            raise InvalidFenError(f"bad en-passant square {text!r}: {fen!r}")
        mover = 1 - self.stm     # the side that just made the double step
        pawn_sq = sq + v.pawn_forward[mover]
        if self.board[sq] != EMPTY or self.board[pawn_sq] != v.pawn_code[mover]:
            raise InvalidFenError(f"en-passant square {text} is not behind a pawn that just moved: {fen!r}")
        return sq

    def _parse_restriction(self, text: str, fen: str) -> Optional[Tuple[int, int]]:
        if text == "-":
            return None
        v = self.v
        a, b = v.by_name.get(text[:2]), v.by_name.get(text[2:])
        if len(text) not in (4, 5, 6) or a is None or b is None:
            # square names are 2 characters on boards up to 9 ranks
            raise InvalidFenError(f"bad push restriction {text!r} (want e.g. f4f5): {fen!r}")
        p = self.board[b]
        if p == EMPTY or (p >> 6) != self.stm or v.is_pawn[p] or self.board[a] == EMPTY:
            raise InvalidFenError(f"push restriction {text}: the pushed unit of the side to move must stand on {text[2:]} and the sentry on {text[:2]}: {fen!r}")
        return (a, b)

    def fen(self) -> str:
        v = self.v
        rows = []
        for rank in range(v.ranks - 1, -1, -1):
            row, empty = "", 0
            for file in range(v.files):
                p = self.board[v.square(file, rank)]
                if p == EMPTY:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += v.letter[p]
            rows.append(row + (str(empty) if empty else ""))
        fields = ["/".join(rows), "wb"[self.stm], self._castling_text(),
                  v.names[self.ep] if self.ep else "-", str(self.halfmove), str(self.fullmove)]
        if self.restriction:
            a, b = self.restriction
            fields.append(v.names[a] + v.names[b])
        return " ".join(fields)

    def _castling_text(self) -> str:
        v = self.v
        out = ""
        for bit in range(4):
            if not self.castling & (1 << bit):
                continue
            color, side = divmod(bit, 2)
            letter = "K" if side == KINGSIDE else "Q"
            psq = self.castle_partner[bit]
            if v.chess960_style:
                back = v.rank_of[psq]
                kfile = v.file_of[self.kings[color]]
                files = [f for f in range(v.files) if self._is_partner_at(v.square(f, back), color)]
                outer = [f for f in files if f > kfile][-1:] if side == KINGSIDE else [f for f in files if f < kfile][:1]
                if outer != [v.file_of[psq]]:
                    letter = "ABCDEFGHIJKLMNOP"[v.file_of[psq]]
            out += letter if color == 0 else letter.lower()
        return out or "-"

    def compute_hash(self) -> int:
        """The Zobrist hash computed from scratch (the incremental ``hash`` must always equal it)."""
        z = self.z
        h = 0
        for sq in self.v.squares:
            h ^= z.piece[self.board[sq]][sq]
        if self.stm:
            h ^= z.side
        h ^= z.castling[self.castling]
        if self.ep:
            h ^= z.ep[self.ep]
        if self.restriction:
            h ^= z.restrict_from[self.restriction[0]] ^ z.restrict_to[self.restriction[1]]
        return h

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.__dict__.update(self.__dict__)
        other.board = list(self.board)
        other.units = [set(self.units[0]), set(self.units[1])]
        other.kings = list(self.kings)
        other._stack = list(self._stack)
        other._hashes = list(self._hashes)
        if self.pawn_history is not None:
            other.pawn_history = dict(self.pawn_history)
        return other

    # ================================================================ queries
    @property
    def variant(self) -> Variant:
        """The variant's rules and tables."""
        return self.v

    @property
    def ply(self) -> int:
        """Number of moves made since the position was set up (what ``pop`` can take back)."""
        return len(self._stack)

    @property
    def move_stack(self) -> List[Move]:
        """The moves made since the position was set up, oldest first."""
        return [entry[0] for entry in self._stack]

    def root_fen(self) -> str:
        """FEN of the position this game was set up from (before ``move_stack``)."""
        return self._root_fen

    def is_castle(self, m: Move) -> bool:
        return m[3] == CASTLE

    def castle_turns_partner(self, m: Move) -> bool:
        """A castle whose lancer partner arrives with a new facing (Full Cavalry, R5.3)."""
        return m[3] == CASTLE and m[6] != self.board[m[4]]

    def is_capture(self, m: Move) -> bool:
        """Whether legal move ``m`` removes a unit from the board (a push whose pushed unit captures
        one of its own side counts, R8.2)."""
        kind = m[3]
        if kind == NORMAL:
            return self.board[m[1]] != EMPTY
        if kind == PUSH:
            return m[4] != m[0] and self.board[m[4]] != EMPTY
        return kind in (EP, JUMP, EDGE)

    def is_zeroing(self, m: Move) -> bool:
        """Whether legal move ``m`` resets the 50-move count (R2.3, R8.9)."""
        self.push(m)
        zeroing = self.halfmove == 0
        self.pop()
        return zeroing

    @property
    def turn(self) -> str:
        """The side to move, "w" or "b" (``stm`` is the same as 0 or 1)."""
        return "wb"[self.stm]

    def piece_at(self, square: str) -> Optional[str]:
        sq = self.v.by_name.get(square)
        if sq is None:
            raise InvalidFenError(f"no square {square!r} on the {self.v.name} board")
        p = self.board[sq]
        return self.v.letter[p] if p else None

    def is_check(self) -> bool:
        return self._attacked(self.kings[self.stm], 1 - self.stm)

    def is_attacked(self, square: str, by: str) -> bool:
        """Whether side ``by`` ("w"/"b") attacks the named square (R8.6, P3)."""
        return self._attacked(self.v.by_name[square], 0 if by == "w" else 1)

    # ================================================================ attacks
    def _held(self, sq: int, side: int) -> bool:
        """R4.2: the unit of ``side`` on ``sq`` is orthogonally next to an enemy jailer."""
        B = self.board
        jailers = self.v.jailer_codes[1 - side]
        s = self.v.stride
        return (B[sq + s] in jailers or B[sq - s] in jailers or B[sq + 1] in jailers
                or B[sq - 1] in jailers)

    def _attacked(self, x: int, by: int) -> bool:
        """Could side ``by`` capture a unit of the other side standing on square ``x``?"""
        v = self.v
        B = self.board
        holds = v.has_jailers
        for o, codes in v.leap_attack[by]:
            if B[x + o] in codes and not (holds and self._held(x + o, by)):
                return True
        lo, hi = (0, BLACK) if by == 0 else (BLACK, OFF)
        for d, sliders, lancer in v.ray_attack[by]:
            s = x + d
            t = B[s]
            while t == 0:
                s += d
                t = B[s]
            if not lo < t < hi:
                continue
            if t in sliders and not (holds and self._held(s, by)):
                return True
            if lancer:
                while True:
                    if t == lancer and not (holds and self._held(s, by)):
                        return True
                    s += d
                    t = B[s]
                    if t and not lo < t < hi:
                        break
        if v.has_push and self._push_attacks(x, by):
            return True
        if self.restriction and v.has_lancers and self._pushed_lancer_attacks(x, by):
            return True
        if v.has_jump:
            for d in v.diagonal_steps:
                s = x + d
                t = B[s]
                while t == 0:
                    s += d
                    t = B[s]
                if t in v.sentry_codes[by] and not (holds and self._held(s, by)):
                    beyond = B[x - d]
                    if beyond == EMPTY or beyond == OFF:
                        return True
        return False

    def _push_attacks(self, x: int, by: int) -> bool:
        """R8.6: a sentry of ``by`` could push some enemy unit U so that U captures on ``x``."""
        v = self.v
        B = self.board
        for s in self.units[by]:
            if v.behaviour[B[s]] != SENTRY_PUSH or (v.has_jailers and self._held(s, by)):
                continue
            for d in v.diagonal_steps:
                u = s + d
                t = B[u]
                while t == 0:
                    u += d
                    t = B[u]
                if t == OFF or (t >> 6) == by or u == x:
                    continue
                sentry = B[s]
                B[s] = EMPTY        # P1: the sentry has left its origin during the push
                reaches = self._pushed_unit_reaches(u, t, x, by)
                B[s] = sentry
                if reaches:
                    return True
        return False

    def _pushed_lancer_attacks(self, x: int, by: int) -> bool:
        """R8.8: a lancer of ``by`` pushed on the last move may turn first, so it threatens every
        square it could reach along any facing, except those R8.7 forbids."""
        v = self.v
        B = self.board
        origin, r = self.restriction  # type: ignore[misc]
        lancer = B[r]
        if v.behaviour[lancer] != LANCER or (lancer >> 6) != by or x == origin:
            return False
        if v.has_jailers and self._held(r, by):
            return False
        d = v.line[r].get(x)
        if not d or v.line[origin].get(r) == -d:
            return False        # not on a line, or back across the squares it was pushed through
        s = r + d
        while s != x:
            t = B[s]
            if t and (t >> 6) != by:
                return False
            s += d
        return True

    def _pushed_unit_reaches(self, u: int, unit: int, x: int, by: int) -> bool:
        """Could ``unit`` on ``u``, pushed by side ``by``, capture on ``x``?"""
        v = self.v
        B = self.board
        beh = v.behaviour[unit]
        diff = x - u
        if beh == PAWN:
            return diff in v.pawn_captures[by]
        if beh == LEAPER_SLIDER:
            if diff in v.leaps[unit]:
                return True
            d = v.line[u].get(x)
            if d and d in v.slides[unit]:
                s = u + d
                while s != x:
                    if B[s]:
                        return False
                    s += d
                return True
            return False
        if beh == LANCER:
            d = v.facing_steps[v.facing[unit]]
            if v.line[u].get(x) != d:
                return False
            s = u + d
            while s != x:
                t = B[s]
                if t and (t >> 6) != by:
                    return False        # a unit of U's own colour stops it
                s += d
            return True
        return False

    # ================================================================ move generation
    def legal_moves(self) -> List[Move]:
        """All legal moves of the side to move."""
        v = self.v
        us = self.stm
        them = 1 - us
        moves = self._pseudo_moves()
        king = self.kings[us]
        if not v.ray_legality:
            legal = [m for m in moves if self._is_safe_after(m)]
            if v.has_jailers and self._held(king, us) and not self._attacked(king, them):
                legal.append(PASS_MOVE)       # R4.3
            return legal
        if self._attacked(king, them):
            return [m for m in moves if self._is_safe_after(m)]
        pins = self._pins(king, us)
        B = self.board
        legal = []
        add = legal.append
        for m in moves:
            frm = m[0]
            if frm == king:
                if m[3] == CASTLE:
                    add(m)
                    continue
                p = B[king]
                B[king] = EMPTY
                bad = self._attacked(m[1], them)
                B[king] = p
                if not bad:
                    add(m)
            elif m[3] == EP:
                if self._is_safe_after(m):
                    add(m)
            elif frm in pins:
                if m[1] in pins[frm]:
                    add(m)
            else:
                add(m)
        return legal

    def _is_safe_after(self, m: Move) -> bool:
        us = self.stm
        self.push(m)
        safe = not self._attacked(self.kings[us], 1 - us)
        self.pop()
        return safe

    def _pins(self, king: int, us: int) -> Dict[int, Set[int]]:
        """Own units that alone shield the king from an enemy slider or lancer: square -> the
        squares it may still move to (the ray from the king up to and including the pinner).

        A lancer jumps its own side's units (R3.1), so on a lancer's ray enemy units are passed
        over: a single own unit between king and a lancer facing the king is pinned."""
        v = self.v
        B = self.board
        olo, ohi = (0, BLACK) if us == 0 else (BLACK, OFF)
        pins: Dict[int, Set[int]] = {}
        for d, sliders, lancer in v.ray_attack[1 - us]:
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
                            pins[pinned] = set(range(king + d, s + d, d))
                            break
                        if not lancer:
                            break
                        enemy_seen = True
                s += d
                t = B[s]
        return pins

    def _pseudo_moves(self) -> List[Move]:
        v = self.v
        B = self.board
        us = self.stm
        moves: List[Move] = []
        add = moves.append
        elo, ehi = (BLACK, OFF) if us == 0 else (0, BLACK)
        held: Set[int] = set()
        if v.has_jailers:
            for j in self.units[1 - us]:
                if v.is_jailer[B[j]]:
                    for d in v.orthogonal_steps:
                        t = B[j + d]
                        if t and t != OFF and (t >> 6) == us:
                            held.add(j + d)
        restricted = self.restriction[1] if self.restriction else 0
        unit_moves = self._unit_moves
        for sq in self.units[us]:
            if sq in held:
                continue
            if sq == restricted:
                self._restricted_moves(sq, moves, elo, ehi)
            else:
                unit_moves(sq, B[sq], add, elo, ehi)
        if self.castling & (3 << (us * 2)):
            self._castling_moves(add, held)
        return moves

    def _pawn_moves(self, sq: int, p: int, add, elo: int, ehi: int) -> None:
        v = self.v
        B = self.board
        us = self.stm
        f = v.pawn_forward[us]
        last = v.ranks - 1 if us == 0 else 0
        to = sq + f
        promo = v.rank_of[to] == last
        if B[to] == 0:
            if promo:
                self._promotions(sq, to, add)
            else:
                add((sq, to, p, NORMAL))
                rel = v.rank_of[sq] if us == 0 else v.ranks - 1 - v.rank_of[sq]
                if rel in v.double_step_ranks and B[to + f] == 0:
                    to2 = to + f
                    enemy_pawn = v.pawn_code[1 - us]
                    if B[to2 - 1] == enemy_pawn or B[to2 + 1] == enemy_pawn:
                        add((sq, to2, p, DOUBLE, to))
                    else:
                        add((sq, to2, p, NORMAL))
        for c in v.pawn_captures[us]:
            to = sq + c
            t = B[to]
            if elo < t < ehi:
                if promo:
                    self._promotions(sq, to, add)
                else:
                    add((sq, to, p, NORMAL))
            elif to == self.ep and t == 0:
                add((sq, to, p, EP, to - f))

    def _promotions(self, sq: int, to: int, add) -> None:
        """R2.4: one move per promotion piece; a lancer once per facing onto the board (R3.2)."""
        v = self.v
        B = self.board
        for code in v.promotion_codes[self.stm]:
            if v.behaviour[code] == LANCER and B[to + v.facing_steps[v.facing[code]]] == OFF:
                continue
            add((sq, to, code, NORMAL))

    def _lancer_landings(self, sq: int, d: int, side: int) -> List[int]:
        """Squares a lancer of ``side`` on ``sq`` reaches along step ``d`` (R3.1)."""
        B = self.board
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

    def _lancer_facings(self, to: int, side: int) -> List[int]:
        """Lancer codes of ``side`` that may stand on ``to``: facing a square on the board (R3.2)."""
        v = self.v
        B = self.board
        return [c for c, d in zip(v.lancer_codes[side], v.facing_steps) if B[to + d] != OFF]

    def _unit_moves(self, sq: int, p: int, add, elo: int, ehi: int) -> None:
        """Moves of unit ``p`` on ``sq`` (enemy codes lie strictly between ``elo`` and ``ehi``)."""
        v = self.v
        B = self.board
        beh = v.behaviour[p]
        if beh == LEAPER_SLIDER:
            for o in v.leaps[p]:
                t = B[sq + o]
                if t == 0 or elo < t < ehi:
                    add((sq, sq + o, p, NORMAL))
            for d in v.slides[p]:
                to = sq + d
                t = B[to]
                while t == 0:
                    add((sq, to, p, NORMAL))
                    to += d
                    t = B[to]
                if elo < t < ehi:
                    add((sq, to, p, NORMAL))
        elif beh == PAWN:
            self._pawn_moves(sq, p, add, elo, ehi)
        elif beh == LANCER:
            us = self.stm
            for to in self._lancer_landings(sq, v.facing_steps[v.facing[p]], us):
                for c in self._lancer_facings(to, us):
                    add((sq, to, c, NORMAL))
        else:       # jailer and sentries: slide to empty squares; sentries act on an enemy unit
            for d in v.slides[p]:
                to = sq + d
                t = B[to]
                while t == 0:
                    add((sq, to, p, NORMAL))
                    to += d
                    t = B[to]
                if not elo < t < ehi:
                    continue
                if beh == SENTRY_PUSH:
                    self._push_moves(sq, p, to, t, add)
                elif beh == SENTRY_JUMP:
                    beyond = B[to + d]
                    if beyond == EMPTY:
                        add((sq, to + d, p, JUMP, to))
                    elif beyond == OFF:
                        add((sq, to, EMPTY, EDGE))

    def _push_moves(self, s: int, sentry: int, u: int, unit: int, add) -> None:
        """R8.1-R8.5: the sentry on ``s`` lands on ``u`` and moves ``unit`` as if it were its own."""
        v = self.v
        B = self.board
        us = self.stm
        them = 1 - us
        beh = v.behaviour[unit]
        B[s] = EMPTY          # P1
        try:
            dests: List[Tuple[int, int]] = []
            if beh == PAWN:                                   # R8.3
                to = u + v.pawn_forward[us]
                if B[to] == 0:
                    dests.append((to, unit))
                for c in v.pawn_captures[us]:
                    t = B[u + c]
                    if t and t != OFF and (t >> 6) == them:
                        dests.append((u + c, unit))
            elif beh == LEAPER_SLIDER:                        # R8.2, R8.4 (king)
                for o in v.leaps[unit]:
                    t = B[u + o]
                    if t == 0 or (t != OFF and (t >> 6) == them):
                        dests.append((u + o, unit))
                for d in v.slides[unit]:
                    to = u + d
                    t = B[to]
                    while t == 0:
                        dests.append((to, unit))
                        to += d
                        t = B[to]
                    if t != OFF and (t >> 6) == them:
                        dests.append((to, unit))
            elif beh in (JAILER, SENTRY_PUSH, SENTRY_JUMP):   # R8.4
                for d in v.slides[unit]:
                    to = u + d
                    while B[to] == 0:
                        dests.append((to, unit))
                        to += d
            elif beh == LANCER:                               # R8.5
                facing = v.facing[unit]
                for to in self._lancer_landings(u, v.facing_steps[facing], us):
                    dests.append((to, unit))
                for k, d in enumerate(v.facing_steps):
                    if k != facing and B[u + d] == 0:
                        dests.append((u + d, v.lancer_codes[them][k]))
        finally:
            B[s] = sentry
        for to, placed in dests:
            add((s, u, sentry, PUSH, to, placed))

    def _restricted_moves(self, sq: int, moves: List[Move], elo: int, ehi: int) -> None:
        """R8.7/R8.8: moves of the unit pushed on the opponent's last move."""
        v = self.v
        B = self.board
        origin, dest = self.restriction  # type: ignore[misc]
        forbidden = {origin}
        d = v.line[origin].get(dest)
        if d:
            s = origin + d
            while s != dest:
                forbidden.add(s)
                s += d
        own: List[Move] = []
        p = B[sq]
        beh = v.behaviour[p]
        self._unit_moves(sq, p, own.append, elo, ehi)
        if beh == LANCER:                                     # R8.8, P6
            us = self.stm
            current = v.facing[p]
            for k, step in enumerate(v.facing_steps):
                code = v.lancer_codes[us][k]
                for to in self._lancer_landings(sq, step, us):
                    if k == current and B[to + step] != OFF:
                        continue
                    own.append((sq, to, code, NORMAL))
        moves.extend(m for m in own if m[1] not in forbidden)

    def _castling_moves(self, add, held: Set[int]) -> None:
        v = self.v
        B = self.board
        us = self.stm
        them = 1 - us
        king = self.kings[us]
        kcode = B[king]
        if king in held or self._attacked(king, them):
            return
        back = v.rank_of[king]
        for side in (KINGSIDE, QUEENSIDE):
            bit = us * 2 + side
            if not self.castling & (1 << bit):
                continue
            rsq = self.castle_partner[bit]
            if rsq in held:                                   # R4.4
                continue
            rcode = B[rsq]
            if v.castling == "flexible":
                self._flexible_castles(king, kcode, rsq, rcode, add)
                continue
            kto = v.square(v.files - 2 if side == KINGSIDE else 2, back)
            rto = v.square(v.files - 3 if side == KINGSIDE else 3, back)
            must_be_empty = set(_between(v, king, kto)) | {kto, rto}
            partner_path = set(_between(v, rsq, rto)) | {rto}
            if v.castling_partner_jumps:                      # R5.3: jumps friendly units
                if any(B[s] and (B[s] >> 6) == them for s in partner_path):
                    continue
            else:
                must_be_empty |= partner_path
            if any(B[s] != EMPTY and s != king and s != rsq for s in must_be_empty):
                continue
            path = list(_between(v, king, kto)) + ([kto] if kto != king else [])
            B[king] = B[rsq] = EMPTY
            try:
                attacked = any(self._attacked(s, them) for s in path)
            finally:
                B[rsq] = rcode
                B[king] = kcode
            if attacked:
                continue
            if v.behaviour[rcode] == LANCER:
                B[king] = B[rsq] = EMPTY
                B[kto] = kcode
                facings = self._lancer_facings(rto, us)
                B[kto] = EMPTY
                B[rsq] = rcode
                B[king] = kcode
                for c in facings:
                    add((king, kto, kcode, CASTLE, rsq, rto, c))
            else:
                add((king, kto, kcode, CASTLE, rsq, rto, rcode))

    def _flexible_castles(self, king: int, kcode: int, rsq: int, rcode: int, add) -> None:
        """R5.4 (chess80): the king moves 2+ squares toward the rook, the rook lands beside it."""
        v = self.v
        B = self.board
        them = 1 - self.stm
        step = 1 if rsq > king else -1
        if any(B[s] for s in _between(v, king, rsq)):
            return
        B[king] = EMPTY
        try:
            s = king + step
            while True:
                if self._attacked(s, them):
                    break
                if abs(s - king) >= 2:
                    add((king, s, kcode, CASTLE, rsq, s - step, rcode))
                if s == rsq:
                    break
                s += step
        finally:
            B[king] = kcode

    # ================================================================ make / unmake
    def push(self, m: Move) -> None:
        """Make move ``m`` (which must be legal; see ``legal_moves``)."""
        v = self.v
        B = self.board
        z = self.z
        zp = z.piece
        frm, to, placed, flag = m[0], m[1], m[2], m[3]
        us = self.stm
        them = 1 - us
        moved = B[frm]
        cap = B[to] if flag != PASS else EMPTY
        extra = 0
        h = self.hash ^ z.side
        self._hashes.append(self.hash)
        undo_castling, undo_ep, undo_restriction, undo_history = (self.castling, self.ep,
                                                                   self.restriction, self.pawn_history)
        if self.ep:
            h ^= z.ep[self.ep]
            self.ep = 0
        if self.restriction:
            h ^= z.restrict_from[self.restriction[0]] ^ z.restrict_to[self.restriction[1]]
            self.restriction = None
        castling = self.castling
        pawn_arrival = False
        if flag <= EP:
            B[frm] = EMPTY
            B[to] = placed
            h ^= zp[moved][frm] ^ zp[placed][to]
            own = self.units[us]
            own.discard(frm)
            own.add(to)
            captured_sq = to
            if cap:
                h ^= zp[cap][to]
                self.units[them].discard(to)
            if flag == DOUBLE:
                self.ep = m[4]
                h ^= z.ep[m[4]]
            elif flag == EP:
                captured_sq = m[4]
                cap = B[captured_sq]
                B[captured_sq] = EMPTY
                h ^= zp[cap][captured_sq]
                self.units[them].discard(captured_sq)
            if moved == v.king_code[us]:
                self.kings[us] = to
            if castling:
                castling &= self.castle_mask[frm] & self.castle_mask[to]
            if v.is_pawn[moved]:
                pawn_arrival = True
                if self.pawn_history is not None:
                    pawn_arrival = self._update_pawn_history(
                        frm, to, placed, captured_sq if v.is_pawn[cap] else 0)
            elif self.pawn_history is not None and v.is_pawn[cap]:
                self._update_pawn_history(0, 0, 0, to)
        elif flag == CASTLE:
            rfrm, rto, rplaced = m[4], m[5], m[6]
            extra = B[rfrm]
            B[frm] = EMPTY
            B[rfrm] = EMPTY
            B[to] = placed
            B[rto] = rplaced
            h ^= zp[moved][frm] ^ zp[extra][rfrm] ^ zp[placed][to] ^ zp[rplaced][rto]
            own = self.units[us]
            own.discard(frm)
            own.discard(rfrm)
            own.add(to)
            own.add(rto)
            self.kings[us] = to
            cap = EMPTY
            castling &= ~(3 << (us * 2))
        elif flag == PUSH:
            uto, uplaced = m[4], m[5]
            extra = cap                # the pushed unit stood where the sentry lands
            cap = B[uto] if uto != frm else EMPTY   # R8.2: only the pushed unit's own colour
            B[frm] = EMPTY
            B[to] = placed
            B[uto] = uplaced
            h ^= zp[moved][frm] ^ zp[extra][to] ^ zp[placed][to] ^ zp[cap][uto] ^ zp[uplaced][uto]
            own = self.units[us]
            own.discard(frm)
            own.add(to)
            opp = self.units[them]
            opp.discard(to)
            opp.add(uto)
            if extra == v.king_code[them]:
                self.kings[them] = uto
            if castling:
                castling &= self.castle_mask[frm] & self.castle_mask[to] & self.castle_mask[uto]
            if v.is_pawn[extra]:
                pawn_arrival = True
                if self.pawn_history is not None:
                    pawn_arrival = self._update_pawn_history(to, uto, uplaced,
                                                             uto if v.is_pawn[cap] else 0)
            else:
                self.restriction = (to, uto)          # R8.7
                h ^= z.restrict_from[to] ^ z.restrict_to[uto]
                if self.pawn_history is not None and v.is_pawn[cap]:
                    self._update_pawn_history(0, 0, 0, uto)
        elif flag == JUMP:
            extra = m[4]
            cap = B[extra]
            B[frm] = EMPTY
            B[extra] = EMPTY
            B[to] = placed
            h ^= zp[moved][frm] ^ zp[cap][extra] ^ zp[placed][to]
            own = self.units[us]
            own.discard(frm)
            own.add(to)
            self.units[them].discard(extra)
            if castling:
                castling &= self.castle_mask[frm] & self.castle_mask[extra]
        elif flag == EDGE:
            B[frm] = EMPTY
            B[to] = EMPTY
            h ^= zp[moved][frm] ^ zp[cap][to]
            self.units[us].discard(frm)
            self.units[them].discard(to)
            if castling:
                castling &= self.castle_mask[frm] & self.castle_mask[to]
        # PASS changes nothing on the board.
        self._stack.append((m, moved, cap, extra, undo_castling, undo_ep, self.halfmove,
                            undo_restriction, undo_history))
        if castling != self.castling:
            h ^= z.castling[self.castling] ^ z.castling[castling]
            self.castling = castling
        if cap or pawn_arrival:
            self.halfmove = 0
        else:
            self.halfmove += 1
        if us == 1:
            self.fullmove += 1
        self.stm = them
        self.hash = h

    def _update_pawn_history(self, frm: int, to: int, placed: int, captured_sq: int) -> bool:
        """R8.9 bookkeeping: histories move with their pawns; True if the pawn is new on ``to``."""
        hist = dict(self.pawn_history)  # type: ignore[arg-type]
        self.pawn_history = hist
        if captured_sq:
            hist.pop(captured_sq, None)
        if not frm:
            return False
        seen = hist.pop(frm, frozenset((frm,)))
        if self.v.is_pawn[placed]:
            hist[to] = seen | {to}
        return to not in seen

    def pop(self) -> Move:
        """Unmake the last move and return it."""
        (m, moved, cap, extra, self.castling, self.ep, self.halfmove, self.restriction,
         self.pawn_history) = self._stack.pop()
        self.hash = self._hashes.pop()
        B = self.board
        frm, to, flag = m[0], m[1], m[3]
        them = self.stm
        us = 1 - them
        self.stm = us
        if us == 1:
            self.fullmove -= 1
        if flag <= EP:
            B[frm] = moved
            own = self.units[us]
            own.discard(to)
            own.add(frm)
            if flag == EP:
                B[to] = EMPTY
                B[m[4]] = cap
                self.units[them].add(m[4])
            else:
                B[to] = cap
                if cap:
                    self.units[them].add(to)
            if moved == self.v.king_code[us]:
                self.kings[us] = frm
        elif flag == CASTLE:
            rfrm, rto = m[4], m[5]
            B[to] = EMPTY
            B[rto] = EMPTY
            B[frm] = moved
            B[rfrm] = extra
            own = self.units[us]
            own.discard(to)
            own.discard(rto)
            own.add(frm)
            own.add(rfrm)
            self.kings[us] = frm
        elif flag == PUSH:
            uto = m[4]
            B[uto] = cap
            B[to] = extra
            B[frm] = moved
            opp = self.units[them]
            if not cap:
                opp.discard(uto)
            opp.add(to)
            own = self.units[us]
            own.discard(to)
            own.add(frm)
            if extra == self.v.king_code[them]:
                self.kings[them] = to
        elif flag == JUMP:
            B[to] = EMPTY
            B[frm] = moved
            B[extra] = cap
            own = self.units[us]
            own.discard(to)
            own.add(frm)
            self.units[them].add(extra)
        elif flag == EDGE:
            B[frm] = moved
            B[to] = cap
            self.units[us].add(frm)
            self.units[them].add(to)
        return m

    # ================================================================ evaluation helpers (search)
    def game_hashes(self) -> List[int]:
        """Hashes of the positions before each move of the game so far (for repetitions)."""
        return self._hashes

    def material_and_placement(self) -> int:
        """Material plus the variant's placement table, White minus Black, in centipawns."""
        B = self.board
        table = self.v.piece_square
        score = 0
        for sq in self.units[0]:
            score += table[B[sq]][sq]
        for sq in self.units[1]:
            score -= table[B[sq]][sq]
        return score

    def move_victim_value(self, m: Move) -> int:
        """Material the move wins at once (captures, promotions, a push's self-capture)."""
        v = self.v
        B = self.board
        flag = m[3]
        if flag == NORMAL:
            gain = v.value[B[m[1]]]
            if m[2] != B[m[0]] and v.is_pawn[B[m[0]]]:
                gain += v.value[m[2]] - v.value[B[m[0]]]
            return gain
        if flag == EP:
            return v.value[B[m[4]]]
        if flag == PUSH:
            return v.value[B[m[4]]] if m[4] != m[0] else 0
        if flag == JUMP:
            return v.value[B[m[4]]]
        if flag == EDGE:
            return max(1, v.value[B[m[1]]] - v.value[B[m[0]]])
        return 0

    # ================================================================ move text
    def move_text(self, m: Move) -> str:
        """Coordinate (protocol) text of legal move ``m``, e.g. ``e2e4``, ``c1h5,h5h6``."""
        from . import notation
        return notation.move_text(self, m)

    def parse_move(self, text: str) -> Move:
        """The legal move named by coordinate ``text`` (raises IllegalMoveError)."""
        from . import notation
        return notation.parse_move(self, text)

    def san(self, m: Move) -> str:
        """SAN of legal move ``m`` (RULINGS R11.1)."""
        from . import notation
        return notation.san(self, m)

    def parse_san(self, text: str) -> Move:
        """The legal move named by SAN ``text`` (raises IllegalMoveError)."""
        from . import notation
        return notation.parse_san(self, text)

    def push_text(self, text: str) -> Move:
        """Parse coordinate text (or, failing that, SAN), make the move and return it."""
        from . import notation
        from .errors import IllegalMoveError
        legal = self.legal_moves()
        try:
            m = notation.parse_move(self, text, legal)
        except IllegalMoveError as coord_error:
            try:
                m = notation.parse_san(self, text, legal)
            except IllegalMoveError:
                raise coord_error from None
        self.push(m)
        return m

    def legal_texts(self) -> Set[str]:
        """Coordinate texts of all legal moves."""
        from . import notation
        return {notation.move_text(self, m) for m in self.legal_moves()}

    # ================================================================ perft and outcome
    def perft(self, depth: int) -> int:
        """Number of leaf positions ``depth`` plies deep (every leaf is made and unmade)."""
        if depth <= 0:
            return 1
        push, pop = self.push, self.pop
        moves = self.legal_moves()
        if depth == 1:
            for m in moves:
                push(m)
                pop()
            return len(moves)
        total = 0
        for m in moves:
            push(m)
            total += self.perft(depth - 1)
            pop()
        return total

    def repetitions(self) -> int:
        """How often the current position has occurred in this game (1 = first time)."""
        h = self.hash
        hashes = self._hashes
        return 1 + sum(1 for i in range(len(hashes) - 2, -1, -2) if hashes[i] == h)

    def outcome(self) -> Optional[Outcome]:
        """The game result if the game is over (R2.1, R2.2, R8.9), else None."""
        if not self.legal_moves():
            if self.is_check():
                winner = "wb"[1 - self.stm]
                return Outcome("1-0" if winner == "w" else "0-1", winner, "checkmate")
            return Outcome("1/2-1/2", None, "stalemate")
        if self.halfmove >= 100:
            return Outcome("1/2-1/2", None, "fifty_moves")
        if self.repetitions() >= 3:
            return Outcome("1/2-1/2", None, "threefold_repetition")
        if self.is_insufficient_material():
            return Outcome("1/2-1/2", None, "insufficient_material")
        return None

    def is_insufficient_material(self) -> bool:
        """R2.2: bare kings; orthodox and Chess960 also K+minor vs K and same-coloured bishops."""
        v = self.v
        B = self.board
        others = [sq for side in (0, 1) for sq in self.units[side] if not v.is_king[B[sq]]]
        if not others:
            return True
        if not v.orthodox_insufficient:
            return False
        letters = [v.letter[B[sq]].upper() for sq in others]
        if len(others) == 1:
            return letters[0] in ("B", "N")
        if all(c == "B" for c in letters) and len(others) == 2 and B[others[0]] >> 6 != B[others[1]] >> 6:
            colours = {(v.file_of[sq] + v.rank_of[sq]) % 2 for sq in others}
            return len(colours) == 1
        return False


def _between(v: Variant, a: int, b: int) -> List[int]:
    """Squares strictly between ``a`` and ``b`` on one rank (castling paths)."""
    step = 1 if b > a else -1
    return list(range(a + step, b, step)) if a != b else []
