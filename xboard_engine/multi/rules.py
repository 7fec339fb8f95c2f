"""The data of a game of more than two players (``variants/8player.ini``) turned into tables.

Geometry is the shared ``board.Board`` (holes are cells that are not squares).  Piece codes:
``EMPTY`` 0, ``OFF`` 128 outside the board, seat ``s`` (0..7) owns ``s * 8 + kind`` and grey units
(pieces of eliminated players, E4.3) are seat ``GREY`` (8): ``code >> 3`` is the seat, ``code & 7``
the kind.  Each seat's forward step, pawn lines, castling squares and promotion line are per-seat
tables, so nothing in the move generator branches on a seat.
"""
import configparser
import os
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..core.board import EMPTY, FILE_LETTERS, OFF, Board
from ..core.errors import UnknownVariantError

__all__ = ["MultiVariant", "Seat", "Castle", "get_multi_variant", "EMPTY", "OFF", "GREY",
           "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING", "POINT_QUEEN", "KIND_LETTERS",
           "ACTIVE", "ZOMBIE", "CHECKMATED", "STALEMATED", "RESIGNED", "TIMED_OUT", "KING_CAPTURED", "CLAIMED",
           "OUT_STATES", "SEAT_STATES"]

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, POINT_QUEEN = 1, 2, 3, 4, 5, 6, 7
# POINT_QUEEN: a queen from the 1 Point Queen promotion option (moves as a queen, worth 1 point).
KIND_LETTERS = " PNBRQKD"
GREY = 8
# A seat's state (``MultiPosition.state``): active, zombie (Zombie King: only the king moves), or how it
# left the game (the elimination kinds).  Each is the letter the position text writes.
ACTIVE = "a"
ZOMBIE = "z"
CHECKMATED = "m"
STALEMATED = "s"
RESIGNED = "r"
TIMED_OUT = "t"
KING_CAPTURED = "k"
CLAIMED = "c"
OUT_STATES = {CHECKMATED: "checkmated", STALEMATED: "stalemated", RESIGNED: "resigned", TIMED_OUT: "timed out",
              KING_CAPTURED: "king captured", CLAIMED: "claimed"}
# Every state, in the order the hash keys of the states are drawn (do not reorder: the keys follow it).
SEAT_STATES = (ACTIVE, ZOMBIE) + tuple(OUT_STATES)
DIRECTIONS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KNIGHT_LEAPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class Castle(NamedTuple):
    """One castling of one seat: the king goes ``king`` -> ``king_to``, the rook ``rook`` ->
    ``rook_to``; ``empty`` must be empty and ``safe`` unattacked (E3.4)."""
    seat: int
    bit: int
    king: int
    king_to: int
    rook: int
    rook_to: int
    empty: Tuple[int, ...]
    safe: Tuple[int, ...]
    long: bool


class Seat(NamedTuple):
    """A player's army: colour, letters, where it starts and which way it goes (E2)."""
    index: int
    colour: str
    letter: str
    numeral: str
    back_line: Tuple[int, ...]      # from the owner's left
    forward: int                     # the pawns' step
    captures: Tuple[int, int]        # the pawns' capture steps
    direction: str


def _parse_square_range(board: Board, text: str) -> List[int]:
    a, b = text.split("-")
    fa, ra = FILE_LETTERS.index(a[0]), int(a[1:]) - 1
    fb, rb = FILE_LETTERS.index(b[0]), int(b[1:]) - 1
    df = (fb > fa) - (fb < fa)
    dr = (rb > ra) - (rb < ra)
    n = max(abs(fb - fa), abs(rb - ra)) + 1
    return [board.square(fa + i * df, ra + i * dr) for i in range(n)]


def _holes(text: str) -> List[Tuple[int, int]]:
    cells = []
    for block in text.split():
        a, b = block.split("-")
        fa, ra = FILE_LETTERS.index(a[0]), int(a[1:]) - 1
        fb, rb = FILE_LETTERS.index(b[0]), int(b[1:]) - 1
        cells += [(f, r) for f in range(fa, fb + 1) for r in range(ra, rb + 1)]
    return cells


def _numbers(text: str) -> Tuple[int, ...]:
    return tuple(int(x) for x in text.split())


class MultiVariant(Board):
    """A game of N seats on an irregular board: geometry, armies, points tables."""

    def __init__(self, name: str, spec: Dict[str, str]) -> None:
        Board.__init__(self, int(spec["files"]), int(spec["ranks"]), _holes(spec.get("holes", "")))
        self.name = name
        self.players = n = int(spec["players"])
        s = self.stride
        step = lambda df, dr: dr * s + df
        self.orthogonal = tuple(step(*d) for d in ORTHOGONAL)
        self.diagonal = tuple(step(*d) for d in DIAGONAL)
        self.all_steps = self.orthogonal + self.diagonal
        self.knight = tuple(step(*d) for d in KNIGHT_LEAPS)
        # Slide directions per kind (knights and kings are leapers, pawns are per seat).
        self.slides: List[Tuple[int, ...]] = [()] * 8
        self.slides[BISHOP] = self.diagonal
        self.slides[ROOK] = self.orthogonal
        self.slides[QUEEN] = self.slides[POINT_QUEEN] = self.all_steps
        army = spec["army"].split()
        kind_of_letter = {KIND_LETTERS[k]: k for k in range(1, 8)}
        self.army = tuple(kind_of_letter[a] for a in army)
        self.seats: List[Seat] = []
        promotion_line = int(spec["promotion_line"])
        self.promotion_square = [bytearray(self.size) for _ in range(n)]
        self.pawn_start = [bytearray(self.size) for _ in range(n)]
        self.castles: List[Castle] = []
        self.start_units: Dict[int, int] = {}
        for i in range(n):
            colour, letter, numeral, line, direction = spec[f"seat{i + 1}"].split()
            df, dr = DIRECTIONS[direction]
            forward = step(df, dr)
            side = step(dr, -df)          # a quarter turn: the capture steps are forward +- side
            back = tuple(_parse_square_range(self, line))
            seat = Seat(i, colour, letter, numeral, back, forward, (forward + side, forward - side), direction)
            self.seats.append(seat)
            for sq, kind in zip(back, self.army):
                self.start_units[sq] = i * 8 + kind
                self.start_units[sq + forward] = i * 8 + PAWN
            # The pawns' start line and the promotion line are whole lines across the board.
            f0, r0 = self.file_of[back[0]], self.rank_of[back[0]]
            for sq in self.squares:
                along = (self.rank_of[sq] - r0) * dr + (self.file_of[sq] - f0) * df   # lines ahead
                if along == 1:
                    self.pawn_start[i][sq] = 1
                if along == promotion_line - 1:
                    self.promotion_square[i][sq] = 1
            king_index = self.army.index(KING)
            king = back[king_index]
            for rook_index in (j for j, k in enumerate(self.army) if k == ROOK):
                rook = back[rook_index]
                toward = 1 if rook_index > king_index else -1
                d = back[king_index + toward] - king
                between = tuple(back[j] for j in range(min(rook_index, king_index) + 1,
                                                       max(rook_index, king_index)))
                self.castles.append(Castle(i, len(self.castles), king, king + 2 * d, rook, king + d, between,
                                           (king, king + d, king + 2 * d),
                                           abs(rook_index - king_index) > 3))
        self.letters = "".join(seat.letter for seat in self.seats)
        # Castling rights: a bit per castle; moving from or onto a square clears the bits it guards.
        self.all_rights = (1 << len(self.castles)) - 1
        self.rights_kept = [self.all_rights] * self.size
        for c in self.castles:
            self.rights_kept[c.rook] &= ~(1 << c.bit)
            self.rights_kept[c.king] &= ~(1 << c.bit)
        self.castles_of: List[Tuple[Castle, ...]] = [tuple(c for c in self.castles if c.seat == i)
                                                      for i in range(n)]
        # Pawns that attack a square from square + d: the steps d per seat (the reverse of captures).
        self.pawn_reverse = [tuple(-c for c in seat.captures) for seat in self.seats]
        self.promotion_kinds = tuple(kind_of_letter[x] for x in spec["promotion"].split())
        values = dict((item[0], int(item[1:])) for item in spec["values"].split())
        self.values = [0] * 8
        for letter, value in values.items():
            self.values[kind_of_letter[letter]] = value
        self.values[POINT_QUEEN] = 1
        self.checkmate_points = int(spec["checkmate_points"])
        self.self_stalemate_points = int(spec["self_stalemate_points"])
        self.stalemate_shares = _numbers(spec["stalemate_shares"])
        self.pairs_stalemate_shares = _numbers(spec["pairs_stalemate_shares"])
        self.pairs_resign_shares = _numbers(spec["pairs_resign_shares"])
        self.checkpoints = _numbers(spec["checkpoints"])
        self.partner = [-1] * n
        for pair in spec["pairs"].split():
            a, b = (int(x) - 1 for x in pair.split("-"))
            self.partner[a], self.partner[b] = b, a
        self.teams = [tuple(int(x) - 1 for x in team.split()) for team in spec["teams"].split("|")]
        self.team_names = [t.strip() for t in spec["team_names"].split("|")]
        self.team_of = [0] * n
        for t, members in enumerate(self.teams):
            for m in members:
                self.team_of[m] = t
        self.team_checkmates = int(spec["team_checkmates"])
        self.fifty_sets = int(spec["fifty_sets"])
        self.square_names = [self.names.get(sq, "") for sq in range(self.size)]

    def seat_by_text(self, text: str) -> Optional[int]:
        """The seat named by a colour letter, Roman numeral, colour name or number 1..8."""
        t = text.strip().lower().rstrip(".")
        for seat in self.seats:
            if t in (seat.letter, seat.numeral, seat.colour.lower(), str(seat.index + 1)):
                return seat.index
        return None


_CACHE: Dict[str, MultiVariant] = {}


def _read(name: str) -> Dict[str, str]:
    from ..core.variant import _variants_dir
    parser = configparser.ConfigParser(inline_comment_prefixes=(";",))
    directory = _variants_dir()
    for filename in sorted(os.listdir(directory)):
        if filename.endswith(".ini"):
            parser.read(os.path.join(directory, filename), encoding="utf-8")
    if name not in parser or "players" not in parser[name]:
        known = [s for s in parser.sections() if "players" in parser[s]]
        raise UnknownVariantError(f"unknown game {name!r}; known: {', '.join(known)}")
    return dict(parser[name])


def get_multi_variant(name: str = "8player") -> MultiVariant:
    """The game called ``name`` (raises UnknownVariantError)."""
    if name not in _CACHE:
        _CACHE[name] = MultiVariant(name, _read(name))
    return _CACHE[name]

