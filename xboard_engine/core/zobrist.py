"""Zobrist keys: random 63-bit keys per board size, from a fixed seed so hashes are reproducible.

63 bits, not 64: PyPy holds an integer below 2**63 in a machine word and a larger one as a big
integer, so with 64-bit keys half of all hashes were big integers, every XOR and table probe on them
allocated, and the JIT compiled each path twice (for both kinds) and kept compiling for seconds.
(``getrandbits(63)`` gives the same low 32 bits as ``getrandbits(64)`` from the same state, so
the table's indices, and with them the search, are unchanged.)"""
import random
from typing import TYPE_CHECKING, Dict

from .board import OFF

if TYPE_CHECKING:
    from .position import Position

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
