"""Zobrist keys: random 64-bit keys per board size, from a fixed seed so hashes are reproducible."""
import random
from typing import Dict

from .board import OFF


class Zobrist:
    """Random keys per board size, from a fixed seed so hashes are reproducible."""

    def __init__(self, size: int) -> None:
        rng = random.Random(0x8E1C5)
        bits = lambda: rng.getrandbits(64)
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
