"""Board geometry: squares, their names, and the padded one-dimensional mailbox they live in.

A rank of ``files`` squares is stored in a row of ``files + 2`` cells, with two padding rows below
and three above the board, so every step of up to two squares from a board square lands on the
board or on an ``OFF`` cell (the 10x12 idea, for any width).  Only ``squares`` are on the board, so
a board with holes is a board whose ``squares`` leave them out.

Piece codes on the board: ``EMPTY`` (0), ``OFF`` (128) outside the board, white units ``1..63`` and
black units the same plus ``BLACK`` (64); ``code >> 6`` is the side (0 white, 1 black).
"""
from typing import Collection, Dict, List, Tuple

from .pieces import FACINGS

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
