"""The search's transposition table: two-entry buckets indexed by the low bits of the Zobrist key,
held in chunks that are made when first stored into and freed one at a time.

An entry is ``(key, depth, score, flag, move, age)``: ``flag`` says what the score is (``EXACT``; a
lower bound, ``LOWER``, from a cut-off; an upper bound, ``UPPER``, when no move reached alpha), ``age``
which search stored it.  ``smp.py`` keeps the same interface in shared memory.
"""
import time
from typing import Callable, List, Optional

from ..core.moves import Move

EXACT, LOWER, UPPER = 0, 1, 2           # an entry's flag
# An entry's fields: entry[ENTRY_MOVE] is its move.
ENTRY_KEY, ENTRY_DEPTH, ENTRY_SCORE, ENTRY_FLAG, ENTRY_MOVE, ENTRY_AGE = range(6)
DEFAULT_HASH_MB = 64
ENTRY_BYTES = 160                       # a table entry (tuple, key, move) as CPython stores it, roughly

class TranspositionTable:
    """A fixed number of two-entry buckets indexed by the low bits of the Zobrist key.

    The first entry of a bucket keeps the deepest result of the current search (an entry from an
    earlier search or one at least as shallow is replaced); the second always takes the newest.  An
    entry is ``(key, depth, score, flag, move, age)``; mate scores are stored relative to the node.
    """

    def __init__(self, megabytes: int = DEFAULT_HASH_MB) -> None:
        self.age = 0
        self.chunks: List[List[Optional[tuple]]] = []
        self.unmade: List[Optional[tuple]] = []   # the chunk every chunk not yet stored into is
        self.size = 0
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        """Make room for about ``megabytes`` MB of entries (a power of two, at least 1024); clears.

        The entries live in chunks of ``TABLE_CHUNK``, each made when the search first stores into
        it (until then it is the one shared empty chunk ``unmade``, which probes read as misses) and
        freed one at a time, so that no other thread waits for the table: making or freeing one list
        of millions of entries holds the interpreter for a long while (docs/ENGINE.md, "Runtime settings")."""
        entries = max(1024, int(megabytes * 1_000_000 // ENTRY_BYTES))
        size = 1 << (entries.bit_length() - 1)
        old, old_unmade = self.chunks, self.unmade
        self.unmade = [None] * min(size, TABLE_CHUNK)
        self.chunks = [self.unmade] * max(1, size >> CHUNK_BITS)
        self.size = size
        self.mask = (size >> 1) - 1
        self.megabytes = megabytes
        _drop_chunks(old, old_unmade)

    def clear(self, stopped: Callable[[], bool] = lambda: False) -> bool:
        """Empty every entry, a chunk at a time (see ``resize``); False if ``stopped()`` turned true
        on the way (the table is then partly cleared, still sound)."""
        return _drop_chunks(self.chunks, self.unmade, stopped)

    def __len__(self) -> int:
        return sum(1 for chunk in self.chunks for e in chunk if e is not None)

    def hashfull(self) -> int:
        """Permille in use by the current search, from the first 1000 slots."""
        sample = self.chunks[0][:1000]
        return sum(1 for e in sample if e is not None and e[ENTRY_AGE] == self.age) * 1000 // max(1, len(sample))

    def probe(self, key: int) -> Optional[tuple]:
        i = (key & self.mask) << 1
        slots = self.chunks[i >> CHUNK_BITS]
        i &= CHUNK_MASK
        e = slots[i]
        if e is not None and e[ENTRY_KEY] == key:
            return e
        e = slots[i + 1]
        if e is not None and e[ENTRY_KEY] == key:
            return e
        return None

    def store(self, key: int, depth: int, score: int, flag: int, move: Optional[Move]) -> None:
        i = (key & self.mask) << 1
        slots = self.chunks[i >> CHUNK_BITS]
        if slots is self.unmade:
            slots = self.chunks[i >> CHUNK_BITS] = [None] * len(slots)
        i &= CHUNK_MASK
        e = slots[i]
        if e is None or e[ENTRY_KEY] == key or e[ENTRY_AGE] != self.age or depth >= e[ENTRY_DEPTH]:
            if e is not None and e[ENTRY_KEY] == key and move is None:
                move = e[ENTRY_MOVE]              # keep the move of an earlier visit
            elif e is not None and e[ENTRY_KEY] != key:
                slots[i + 1] = e                  # the displaced entry may still be useful
        else:                                     # the second entry takes the newest
            i += 1
            e = slots[i]
            if move is None and e is not None and e[ENTRY_KEY] == key:
                move = e[ENTRY_MOVE]
        slots[i] = (key, depth, score, flag, move, self.age)


CHUNK_BITS = 16
TABLE_CHUNK = 1 << CHUNK_BITS         # entries per chunk of the table (a bucket's two never split)
CHUNK_MASK = TABLE_CHUNK - 1


def _drop_chunks(chunks: List[List[Optional[tuple]]], unmade: List[Optional[tuple]],
                 stopped: Callable[[], bool] = lambda: False) -> bool:
    """Free a table's chunks one at a time, putting ``unmade`` in their place (under CPython a
    chunk's entries are freed at once, a few milliseconds), letting other threads run in between;
    False if ``stopped()`` turned true on the way."""
    for k, chunk in enumerate(chunks):
        if chunk is not unmade:
            if stopped():
                return False
            chunks[k] = unmade
            del chunk
            time.sleep(0)                   # PyPy switches threads by bytecodes, not time
    return True
