"""Board geometry: squares, their names, and the padded one-dimensional mailbox they live in.

A rank of ``files`` squares is stored in a row of ``files + 2`` cells, with two padding rows below
and three above the board, so every step of up to two squares from a board square lands on the
board or on an ``OFF`` cell (the 10x12 idea, for any width).  Only ``squares`` are on the board, so
a board with holes is a board whose ``squares`` leave them out.

Piece codes on the board: ``EMPTY`` (0), ``OFF`` (128) outside the board, white units ``1..63`` and
black units the same plus ``BLACK`` (64); ``code >> 6`` is the side (0 white, 1 black).

Zobrist keys (the positions' hashes): random 63-bit keys per board size, from a fixed seed so
hashes are reproducible.

63 bits, not 64: PyPy holds an integer below 2**63 in a machine word and a larger one as a big
integer, so with 64-bit keys half of all hashes were big integers, every XOR and table probe on them
allocated, and the JIT compiled each path twice (for both kinds) and kept compiling for seconds.
(``getrandbits(63)`` gives the same low 32 bits as ``getrandbits(64)`` from the same state, so
the table's indices, and with them the search, are unchanged.)"""
import random
from typing import TYPE_CHECKING, Collection, Dict, List, Tuple

from .pieces import FACINGS

if TYPE_CHECKING:
    from .position import Position

EMPTY = 0
BLACK = 64
OFF = 128
FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Board:
    """The squares of a ``files`` x ``ranks`` board and the tables that walk them."""

    def __init__(self, files: int, ranks: int, holes: Collection[Tuple[int, int]] = ()) -> None:
        """``holes``: the (file, rank) cells of the grid that are not squares (0-based)."""
        self.files = files
        self.ranks = ranks
        self.stride = s = files + 2
        self.size = (ranks + 5) * s
        holes = set(holes)
        self.squares: List[int] = [self.square(f, r) for r in range(ranks) for f in range(files)
                                   if (f, r) not in holes]
        self.file_of = [-1] * self.size
        self.rank_of = [-1] * self.size
        for r in range(ranks):
            for f in range(files):
                if (f, r) in holes:
                    continue
                sq = self.square(f, r)
                self.file_of[sq] = f
                self.rank_of[sq] = r
        self.names: Dict[int, str] = {sq: FILE_LETTERS[self.file_of[sq]] + str(self.rank_of[sq] + 1)
                                      for sq in self.squares}
        self.by_name: Dict[str, int] = {name: sq for sq, name in self.names.items()}
        # The eight compass steps in lancer-facing order N NE E SE S SW W NW.
        self.facing_steps = [self.step(df, dr) for df, dr in FACINGS]
        self.diagonal_steps = [self.step(1, 1), self.step(1, -1), self.step(-1, -1), self.step(-1, 1)]
        self.orthogonal_steps = [s, 1, -s, -1]
        # line[a][b]: the unit step from a towards b when they share a rank, file or diagonal.
        self.line: Dict[int, Dict[int, int]] = {}
        for a in self.squares:
            row: Dict[int, int] = {}
            for d in self.facing_steps:
                t = a + d
                while self.rank_of[t] >= 0:
                    row[t] = d
                    t += d
            self.line[a] = row

    def square(self, file: int, rank: int) -> int:
        return (rank + 2) * self.stride + file + 1

    def step(self, df: int, dr: int) -> int:
        return dr * self.stride + df

    def on_board(self, sq: int) -> bool:
        return 0 <= sq < self.size and self.rank_of[sq] >= 0

    def between(self, a: int, b: int) -> List[int]:
        """Squares strictly between ``a`` and ``b`` on a line (empty if they share none)."""
        d = self.line[a].get(b) if a in self.line else None
        if not d:
            return []
        return list(range(a + d, b, d))


KEY_BITS = 63


class Zobrist:
    """Random keys per board size, from a fixed seed so hashes are reproducible."""

    def __init__(self, size: int) -> None:
        rng = random.Random(0x8E1C5)
        bits = lambda: rng.getrandbits(KEY_BITS)
        self.piece = [[0] * size] + [[bits() for _ in range(size)] for _ in range(1, OFF)]
        self.side = bits()
        self.castling = [0] + [bits() for _ in range(15)]
        self.ep = [bits() for _ in range(size)]
        self.restrict_from = [bits() for _ in range(size)]
        self.restrict_to = [bits() for _ in range(size)]


_ZOBRIST: Dict[int, Zobrist] = {}


def zobrist_for(size: int) -> Zobrist:
    """The keys for boards of ``size`` cells (shared by every position of that size)."""
    if size not in _ZOBRIST:
        _ZOBRIST[size] = Zobrist(size)
    return _ZOBRIST[size]


def hash_from_scratch(pos: "Position") -> int:
    """A position's Zobrist hash computed from its board and state (the incremental one must equal it)."""
    z = pos.z
    h = 0
    for sq in pos.v.squares:
        h ^= z.piece[pos.board[sq]][sq]
    if pos.stm:
        h ^= z.side
    h ^= z.castling[pos.castling]
    if pos.ep:
        h ^= z.ep[pos.ep]
    if pos.restriction:
        h ^= z.restrict_from[pos.restriction[0]] ^ z.restrict_to[pos.restriction[1]]
    return h
