"""Text of a many-player game: the position text and the text's move notation, both ways (E6).

Position text, fields separated by spaces:

1. the board, rank 24 first, ranks separated by ``/``; each rank lists its squares from file a, holes
   left out: a number is a run of empty squares, a unit is its seat's colour letter and its kind
   (``wK``, ``rP``; ``x`` for a grey unit, ``xQ``; kind ``D`` is a 1 Point Queen);
2. the seat to move (colour letter);
3. each seat's state in seat order: ``a`` active, ``z`` Zombie King, ``m`` checkmated, ``s``
   stalemated, ``r`` resigned, ``t`` timed out, ``k`` king captured, ``c`` left by a claim;
4. the rook squares that can still castle, comma-separated, or ``-``;
5. the open en-passant chances as ``pawn square:passed square``, comma-separated, or ``-``;
6. moves since the last capture or pawn move; 7. moves made.

Moves are written as the text does: ``h3``, ``Nf3``, ``ed5`` (a pawn's file when two pawns could go
there), ``O-O``, ``O-O-O``, ``e11=Q``; a capture may carry ``:`` (``N:f3``, never ``x``: x is a
file).  A record line is ``1 w. h3`` (or ``1 i. h3`` with Roman numerals).
"""
import re
from typing import TYPE_CHECKING, List, Optional

from ..core.errors import IllegalMoveError, InvalidFenError
from ..core.moves import CASTLE, Move
from .rules import ACTIVE, EMPTY, GREY, KIND_LETTERS, KING, PAWN, POINT_QUEEN, SEAT_STATES, ZOMBIE, MultiVariant

if TYPE_CHECKING:
    from .position import MultiPosition

STATE_LETTERS = "".join(SEAT_STATES)


def unit_text(v: MultiVariant, code: int) -> str:
    seat = code >> 3
    return ("x" if seat == GREY else v.seats[seat].letter) + KIND_LETTERS[code & 7]


def write_position(pos: "MultiPosition") -> str:
    v = pos.v
    B = pos.board
    rows = []
    for r in range(v.ranks - 1, -1, -1):
        row = ""
        run = 0
        for f in range(v.files):
            sq = v.square(f, r)
            if v.rank_of[sq] < 0:
                continue
            if B[sq] == EMPTY:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += unit_text(v, B[sq])
        if run:
            row += str(run)
        rows.append(row)
    castling = ",".join(v.names[c.rook] for c in v.castles if pos.rights >> c.bit & 1) or "-"
    ep = ",".join(f"{v.names[p]}:{v.names[x]}" for _, p, x in pos.ep) or "-"
    return " ".join(["/".join(rows), v.seats[pos.turn].letter, "".join(pos.state), castling, ep,
                     str(pos.clock), str(pos.moves_made)])


_UNIT = re.compile(r"(\d+)|([a-z])([PNBRQKD])")


def read_position(pos: "MultiPosition", text: str) -> None:
    """Fill ``pos`` (configured, empty board) from position text; raises InvalidFenError."""
    v = pos.v
    if not isinstance(text, str):
        raise InvalidFenError(f"a position text is a string, not {text!r}")
    fields = text.split()
    if len(fields) != 7:
        raise InvalidFenError(f"a position text has 7 fields, not {len(fields)}: {text!r}")
    rows = fields[0].split("/")
    if len(rows) != v.ranks:
        raise InvalidFenError(f"the board has {v.ranks} ranks, the text gives {len(rows)}")
    letters = {seat.letter: seat.index for seat in v.seats}
    letters["x"] = GREY
    kings = [0] * v.players
    for i, row in enumerate(rows):
        r = v.ranks - 1 - i
        squares = [v.square(f, r) for f in range(v.files) if v.rank_of[v.square(f, r)] >= 0]
        at = 0
        pos_in_row = 0
        while at < len(row):
            m = _UNIT.match(row, at)
            if not m:
                raise InvalidFenError(f"rank {r + 1}: cannot read {row[at:]!r}")
            at = m.end()
            if m.group(1):
                pos_in_row += int(m.group(1))
                continue
            if m.group(2) not in letters:
                raise InvalidFenError(f"rank {r + 1}: no seat has the colour letter {m.group(2)!r}")
            if pos_in_row >= len(squares):
                break
            seat = letters[m.group(2)]
            kind = KIND_LETTERS.index(m.group(3))
            sq = squares[pos_in_row]
            pos.board[sq] = seat * 8 + kind
            if kind == KING and seat < GREY:
                kings[seat] += 1
            pos_in_row += 1
        if pos_in_row != len(squares):
            raise InvalidFenError(f"rank {r + 1} has {len(squares)} squares, the text gives {pos_in_row}")
    turn = letters.get(fields[1])
    if turn is None or turn == GREY:
        raise InvalidFenError(f"no seat has the colour letter {fields[1]!r}")
    pos.turn = turn
    states = fields[2]
    if len(states) != v.players or any(c not in STATE_LETTERS for c in states):
        raise InvalidFenError(f"the seat states are {v.players} of {STATE_LETTERS!r}, not {states!r}")
    pos.state = list(states)
    for s in range(v.players):
        alive = states[s] in (ACTIVE, ZOMBIE)
        if alive and kings[s] != 1:
            raise InvalidFenError(f"{v.seats[s].colour} is in the game with {kings[s]} kings")
        if not alive and any(pos.board[sq] >> 3 == s for sq in v.squares if pos.board[sq]):
            raise InvalidFenError(f"{v.seats[s].colour} is out of the game but has units that are not grey")
        if states[s] == ZOMBIE and any(pos.board[sq] >> 3 == s and pos.board[sq] & 7 != KING
                                    for sq in v.squares if pos.board[sq]):
            raise InvalidFenError(f"{v.seats[s].colour} is a Zombie King but has units besides its king")
    if states[turn] not in (ACTIVE, ZOMBIE):
        raise InvalidFenError(f"{v.seats[turn].colour} is to move but out of the game")
    rights = 0
    if fields[3] != "-":
        by_rook = {v.names[c.rook]: c for c in v.castles}
        for name in fields[3].split(","):
            c = by_rook.get(name)
            if c is None:
                raise InvalidFenError(f"no castling starts from {name!r}")
            if pos.board[c.rook] != c.seat * 8 + 4 or pos.board[c.king] != c.seat * 8 + KING:
                raise InvalidFenError(f"castling with the rook on {name} needs the king and rook at home")
            rights |= 1 << c.bit
    pos.rights = rights
    ep = []
    if fields[4] != "-":
        for item in fields[4].split(","):
            try:
                a, b = (v.by_name[x] for x in item.split(":"))
            except (KeyError, ValueError):
                raise InvalidFenError(f"cannot read the en-passant chance {item!r}") from None
            code = pos.board[a]
            if not code or code & 7 != PAWN or code >> 3 >= GREY or pos.board[b] != EMPTY or \
                    a - b != v.seats[code >> 3].forward:
                raise InvalidFenError(f"no pawn passed {v.names[b]} to {v.names[a]}: {item!r}")
            ep.append((code >> 3, a, b))
    pos.ep = tuple(ep)
    try:
        pos.clock = int(fields[5])
        pos.moves_made = int(fields[6])
    except ValueError:
        raise InvalidFenError(f"the clock and move count are numbers: {fields[5]!r} {fields[6]!r}") from None
    if pos.clock < 0 or pos.moves_made < 0:
        raise InvalidFenError("the clock and move count are not negative")


def _letter(code: int) -> str:
    kind = code & 7
    return "Q" if kind == POINT_QUEEN else KIND_LETTERS[kind]


def move_text(pos: "MultiPosition", m: Move, colon: bool = False, legal: Optional[List[Move]] = None) -> str:
    v = pos.v
    B = pos.board
    frm, to, placed, kind = m[0], m[1], m[2], m[3]
    if kind == CASTLE:
        castle = next(c for c in v.castles if c.king == frm and c.rook == m[4])
        return "O-O-O" if castle.long else "O-O"
    moved = B[frm]
    letter = _letter(moved)
    if legal is None:
        legal = pos.legal_moves()
    rivals = [o for o in legal if o[1] == to and o[0] != frm and o[3] != CASTLE and
              _letter(B[o[0]]) == letter and (o[2] & 7) == (placed & 7)]
    origin = ""
    if rivals:
        name = v.names[frm]
        if all(v.file_of[o[0]] != v.file_of[frm] for o in rivals):
            origin = name[0]
        elif all(v.rank_of[o[0]] != v.rank_of[frm] for o in rivals):
            origin = name[1:]
        else:
            origin = name
    text = ("" if letter == "P" else letter) + origin
    if colon and pos.is_capture(m):
        text += ":"
    text += v.names[to]
    if placed != moved:
        text += "=" + _letter(placed)
    return text


_MOVE = re.compile(r"^([NBRQK])?([a-x])?(\d{1,2})?([:-]?)([a-x])(\d{1,2})(?:=?([NBRQnbrq]))?[+#!?]*$")


def parse_move(pos: "MultiPosition", text: str, legal: Optional[List[Move]] = None) -> Move:
    v = pos.v
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move is text, not {text!r}")
    seat = v.seats[pos.turn]
    tokens = text.split()
    if not tokens:
        raise IllegalMoveError("no move given")
    for i, token in enumerate(tokens[:-1]):
        t = token.rstrip(".")
        if t.isdigit():
            continue
        if token in ("N", "B", "R", "Q", "K") and i == len(tokens) - 2:
            # "N d3": a piece letter cut off from its square, not Black's (n) or Blue's (b) move.
            raise IllegalMoveError(f"cannot read {text!r}: {token} is a piece letter; write it with its square "
                                   f"({token}{tokens[-1]}); players are named by lower-case colour letters "
                                   f"or Roman numerals (1 n. {token}{tokens[-1]})")
        named = v.seat_by_text(t)
        if named is None:
            raise IllegalMoveError(f"cannot read {token!r} in {text!r} (a move number, colour letter or "
                                   f"Roman numeral)")
        if named != pos.turn:
            raise IllegalMoveError(f"{text!r} is a move of {v.seats[named].colour}, but {seat.colour} "
                                   f"is to move")
    word = tokens[-1]
    if "." in word:
        head, word = word.rsplit(".", 1)
        if not word:
            raise IllegalMoveError(f"no move after {head!r}")
    if legal is None:
        legal = pos.legal_moves()
    if word.replace("0", "O") in ("O-O", "O-O-O"):
        want_long = word.replace("0", "O") == "O-O-O"
        for m in legal:
            if m[3] == CASTLE and next(c for c in v.castles if c.king == m[0] and c.rook == m[4]).long == want_long:
                return m
        raise IllegalMoveError(f"{seat.colour} cannot castle {word} now")
    match = _MOVE.match(word)
    if not match:
        raise IllegalMoveError(f"cannot read the move {word!r} (e.g. h3, Nf3, ed5, O-O, e11=Q, h2h3)")
    piece, ffile, frank, sign, tfile, trank, promo = match.groups()
    to = v.by_name.get(tfile + trank)
    if to is None:
        raise IllegalMoveError(f"no square {tfile + trank!r} on the board")
    B = pos.board
    found = []
    for m in legal:
        if m[1] != to:
            continue
        frm_name = v.names[m[0]]
        if ffile and frm_name[0] != ffile or frank and frm_name[1:] != frank:
            continue
        letter = _letter(B[m[0]])
        if piece and letter != piece:
            continue
        if not piece and letter != "P" and not (ffile and frank):
            continue
        if promo and _letter(m[2]) != promo.upper():
            continue
        if not promo and m[2] != B[m[0]] and m[3] != CASTLE and len(pos.promotion_kinds) > 1:
            continue
        found.append(m)
    if sign == ":":
        # E6: the colon marks a capture; a move that captures nothing is not written with one.
        quiet = [m for m in found if not pos.is_capture(m)]
        if quiet and len(quiet) == len(found):
            raise IllegalMoveError(f"{word!r} marks a capture with ':', but {v.names[to]} holds nothing to "
                                   f"capture (write {move_text(pos, quiet[0], legal=legal)})")
        found = [m for m in found if pos.is_capture(m)]
    if len(found) == 1:
        return found[0]
    if not found:
        if not promo and any(m[1] == to and m[2] != B[m[0]] and m[3] != CASTLE for m in legal):
            raise IllegalMoveError(f"{word!r} promotes: add =Q, =R, =B or =N")
        raise IllegalMoveError(f"{word!r} is not a legal move of {seat.colour} here")
    raise IllegalMoveError(f"{word!r} is ambiguous: " +
                           ", ".join(move_text(pos, m, legal=legal) for m in found))
