"""FEN: reading a position's text into its state (with the checks that keep it possible) and back.

The 8-Piece variants may carry a 7th field, the push restriction R8.7 (``f4f5``), see docs/RULES.md R3.6.
"""
from typing import TYPE_CHECKING, List, Optional, Tuple

from .board import EMPTY, FILE_LETTERS
from .digits import parse_int
from .errors import InvalidFenError

if TYPE_CHECKING:
    from .position import Position
    from .variant import Variant

KINGSIDE, QUEENSIDE = 0, 1
DIGITS = "0123456789"


def read_fen(pos: "Position", v: "Variant", fen: str) -> None:
    """Fill ``pos`` (board, units, kings, side, castling, en passant, counters, restriction)."""
    if not isinstance(fen, str):
        raise InvalidFenError(f"FEN must be text, not {type(fen).__name__}")
    fields = fen.split()
    if not 1 <= len(fields) <= 7 or (len(fields) == 7 and not v.has_push):
        raise InvalidFenError(f"FEN needs 1..{7 if v.has_push else 6} fields: {fen!r}")
    fields += ["w", "-", "-", "0", "1", "-"][len(fields) - 1:]
    placement, side, castling, ep, half, full, restriction = fields[:7]
    _read_placement(pos, v, placement, fen)
    if side not in ("w", "b"):
        raise InvalidFenError(f"side to move must be w or b, not {side!r} in {fen!r}")
    pos.stm = 0 if side == "w" else 1
    board = pos.board
    for color in (0, 1):
        kings = [sq for sq in pos.units[color] if v.is_king[board[sq]]]
        if len(kings) != 1:
            raise InvalidFenError(f"{'white' if color == 0 else 'black'} must have exactly one king: {fen!r}")
        pos.kings[color] = kings[0]
    for sq in v.squares:
        p = board[sq]
        if v.is_pawn[p]:
            side_of = p >> 6
            rank = v.rank_of[sq]
            if rank == v.promotion_rank[side_of] or (rank == v.back_rank[side_of] and not v.pawn_back_rank_allowed):
                raise InvalidFenError(f"pawn on {v.names[sq]}, a rank no {'white' if side_of == 0 else 'black'} "
                                      f"pawn can stand on: {fen!r}")
    pos.castling = _read_castling(pos, v, castling, fen)
    pos.ep = _read_ep(pos, v, ep, fen)
    try:
        pos.halfmove = parse_int(half)
        pos.fullmove = parse_int(full)
    except ValueError:
        raise InvalidFenError(f"move counters must be numbers: {half!r} {full!r} in {fen!r}") from None
    if pos.halfmove < 0 or pos.fullmove < 1:
        raise InvalidFenError(f"move counters out of range: {half} {full} in {fen!r}")
    pos.restriction = _read_restriction(pos, v, restriction, fen)


def _read_placement(pos: "Position", v: "Variant", placement: str, fen: str) -> None:
    rows = placement.split("/")
    if len(rows) != v.ranks:
        raise InvalidFenError(f"board needs {v.ranks} ranks, got {len(rows)}: {fen!r}")
    for i, row in enumerate(rows):
        rank = v.ranks - 1 - i
        file = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c in DIGITS:
                k = j
                while k < len(row) and row[k] in DIGITS:
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
            pos.board[sq] = code
            pos.units[code >> 6][sq] = None
            file += 1
            j += 1
        if file != v.files:
            raise InvalidFenError(f"rank {rank + 1} does not have {v.files} squares: {fen!r}")


def _is_partner_at(pos: "Position", v: "Variant", sq: int, color: int) -> bool:
    p = pos.board[sq]
    return p != EMPTY and (p >> 6) == color and v.is_partner[p]


def _read_castling(pos: "Position", v: "Variant", text: str, fen: str) -> int:
    if text == "-":
        return 0
    rights = 0
    for c in text:
        color = 0 if c.isupper() else 1
        back = v.back_rank[color]
        king = pos.kings[color]
        if v.rank_of[king] != back:
            raise InvalidFenError(f"castling right {c!r} but the king is not on its first rank: {fen!r}")
        kfile = v.file_of[king]
        partner_files = [f for f in range(v.files) if _is_partner_at(pos, v, v.square(f, back), color)]
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
        if not v.chess960_style and not _on_start_squares(v, color, kfile, pfile):
            raise InvalidFenError(f"castling right {c!r} needs king and partner on their start squares: {fen!r}")
        bit = color * 2 + side
        if rights & (1 << bit):
            raise InvalidFenError(f"castling right {c!r} given twice: {fen!r}")
        rights |= 1 << bit
        psq = v.square(pfile, back)
        pos.castle_partner[bit] = psq
        pos.castle_mask[psq] &= ~(1 << bit)
        pos.castle_mask[king] &= ~(3 << (color * 2))
    return rights


def _on_start_squares(v: "Variant", color: int, kfile: int, pfile: int) -> bool:
    rows = v.start_fen.split()[0].split("/")
    row = rows[-1] if color == 0 else rows[0]
    cells: List[str] = []
    num = ""
    for c in row:
        if c in DIGITS:
            num += c
            continue
        if num:
            cells += [""] * int(num)
            num = ""
        cells.append(c)
    return cells[kfile].upper() == "K" and v.is_partner[v.code_of.get(cells[pfile], 0)]


def _read_ep(pos: "Position", v: "Variant", text: str, fen: str) -> int:
    """The en-passant square must be one a double step of the side that just moved passed over:
    empty, the pawn that made it one square beyond, the square it came from empty (P4)."""
    if text == "-":
        return 0
    sq = v.by_name.get(text)
    if sq is None:
        raise InvalidFenError(f"bad en-passant square {text!r}: {fen!r}")
    mover = 1 - pos.stm
    forward = v.pawn_forward[mover]
    origin = sq - forward
    B = pos.board
    if (not v.on_board(origin) or not v.double_step_from[mover][origin] or B[sq] != EMPTY
            or B[origin] != EMPTY or B[sq + forward] != v.pawn_code[mover]):
        raise InvalidFenError(f"en-passant square {text} is not one a double step of the side that just "
                              f"moved passed over: {fen!r}")
    return sq


def _read_restriction(pos: "Position", v: "Variant", text: str, fen: str) -> Optional[Tuple[int, int]]:
    if text == "-":
        return None
    a, b = v.by_name.get(text[:2]), v.by_name.get(text[2:])
    if len(text) not in (4, 5, 6) or a is None or b is None:
        raise InvalidFenError(f"bad push restriction {text!r} (want e.g. f4f5): {fen!r}")
    p = pos.board[b]
    if p == EMPTY or (p >> 6) != pos.stm or v.is_pawn[p] or pos.board[a] == EMPTY:
        raise InvalidFenError(f"push restriction {text}: the pushed unit of the side to move must stand on "
                              f"{text[2:]} and the sentry on {text[:2]}: {fen!r}")
    return (a, b)


def write_fen(pos: "Position") -> str:
    v = pos.v
    rows = []
    for rank in range(v.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(v.files):
            p = pos.board[v.square(file, rank)]
            if p == EMPTY:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += v.letter[p]
        rows.append(row + (str(empty) if empty else ""))
    fields = ["/".join(rows), "wb"[pos.stm], _castling_text(pos, v),
              v.names[pos.ep] if pos.ep else "-", str(pos.halfmove), str(pos.fullmove)]
    if pos.restriction:
        a, b = pos.restriction
        fields.append(v.names[a] + v.names[b])
    return " ".join(fields)


def _castling_text(pos: "Position", v: "Variant") -> str:
    out = ""
    for bit in range(4):
        if not pos.castling & (1 << bit):
            continue
        color, side = divmod(bit, 2)
        letter = "K" if side == KINGSIDE else "Q"
        psq = pos.castle_partner[bit]
        if v.chess960_style:
            back = v.rank_of[psq]
            kfile = v.file_of[pos.kings[color]]
            files = [f for f in range(v.files) if _is_partner_at(pos, v, v.square(f, back), color)]
            outer = [f for f in files if f > kfile][-1:] if side == KINGSIDE else [f for f in files if f < kfile][:1]
            if outer != [v.file_of[psq]]:
                letter = FILE_LETTERS[v.file_of[psq]].upper()
        out += letter if color == 0 else letter.lower()
    return out or "-"
