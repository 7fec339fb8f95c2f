"""The transposition table of the Lazy SMP search (``smp.py``) in memory that several processes
share: ``SharedTable`` has ``TranspositionTable``'s interface and replacement rule over 64-bit words,
and a move is stored as one integer (``encode_move``/``decode_move``).
"""
import mmap
from typing import Callable, Dict, Optional, Union

from ...core.moves import Move, MoveKind

ENTRY_WORDS = 3                 # check (key ^ data ^ move), data, move: a torn write fails the check
BUCKET_WORDS = 2 * ENTRY_WORDS
SCORE_OFFSET = 1 << 20          # scores are stored as score + SCORE_OFFSET in 21 bits
_KINDS = list(MoveKind) + [MoveKind.NORMAL] * (8 - len(MoveKind))


def encode_move(m: Move) -> int:
    """A move as one integer (never 0): every field of ``Move`` in 8 bits, the kind in 3."""
    return (1 | m.frm << 1 | m.to << 9 | m.placed << 17 | m.kind << 25 | m.square2 << 28 | m.to2 << 36
            | m.placed2 << 44)


def decode_move(code: int) -> Move:
    return Move(code >> 1 & 255, code >> 9 & 255, code >> 17 & 255, _KINDS[code >> 25 & 7],
                code >> 28 & 255, code >> 36 & 255, code >> 44 & 255)


def table_entries(megabytes: int) -> int:
    """Entries of a shared table of about ``megabytes`` MB: a power of two, at least 1024."""
    entries = max(1024, megabytes * 1_000_000 // (ENTRY_WORDS * 8))
    return 1 << (entries.bit_length() - 1)


class SharedTable:
    """``TranspositionTable``'s interface and replacement rule over 64-bit words in shared memory.

    A bucket is two entries of three words: ``key ^ data ^ move``, ``data`` (depth, flag, age and
    score) and the move's code.  An entry whose first word does not match is a miss: an empty slot
    (data 0), another key, or a slot another process was writing meanwhile."""

    def __init__(self, words: memoryview, base: int, entries: int, megabytes: int,
                 mapping: Union[mmap.mmap, memoryview, None] = None) -> None:
        self.words = words
        self.mapping = mapping                      # the same bytes (clears faster under PyPy): the
                                                    # mmap, or a byte view of named memory (smp.py)
        self.base = base
        self.size = entries
        self.mask = (entries >> 1) - 1
        self.megabytes = megabytes
        self.age = 0
        self._codes: Dict[Move, int] = {}
        self._moves: Dict[int, Move] = {}

    def _move(self, code: int) -> Optional[Move]:
        if not code:
            return None
        m = self._moves.get(code)
        if m is None:
            if len(self._moves) > 1 << 16:
                self._moves.clear()
            m = self._moves[code] = decode_move(code)
        return m

    def _code(self, m: Optional[Move]) -> int:
        if m is None:
            return 0
        code = self._codes.get(m)
        if code is None:
            if len(self._codes) > 1 << 16:
                self._codes.clear()
            code = self._codes[m] = encode_move(m)
        return code

    def probe(self, key: int) -> Optional[tuple]:
        w = self.words
        i = self.base + (key & self.mask) * BUCKET_WORDS
        data = w[i + 1]
        code = w[i + 2]
        if data and w[i] ^ data ^ code == key:
            return self._entry(key, data, code)
        data = w[i + 4]
        code = w[i + 5]
        if data and w[i + 3] ^ data ^ code == key:
            return self._entry(key, data, code)
        return None

    def _entry(self, key: int, data: int, code: int) -> tuple:
        """A stored entry as ``TranspositionTable`` holds it: (key, depth, score, flag, move, age)."""
        return (key, data & 255, (data >> 18) - SCORE_OFFSET, data >> 8 & 3, self._move(code), data >> 10 & 255)

    def store(self, key: int, depth: int, score: int, flag: int, move: Optional[Move]) -> None:
        w = self.words
        i = self.base + (key & self.mask) * BUCKET_WORDS
        age = self.age
        code = self._code(move)
        data = (depth if depth > 0 else 0) | flag << 8 | age << 10 | (score + SCORE_OFFSET) << 18
        data0 = w[i + 1]
        code0 = w[i + 2]
        key0 = w[i] ^ data0 ^ code0 if data0 else None
        if key0 is None or key0 == key or (data0 >> 10 & 255) != age or depth >= (data0 & 255):
            if key0 == key and not code:
                code = code0                      # keep the move of an earlier visit
            elif key0 is not None and key0 != key:
                w[i + 3] = w[i]                   # the displaced entry may still be useful
                w[i + 4] = data0
                w[i + 5] = code0
        else:
            i += ENTRY_WORDS
            if not code:
                data1 = w[i + 1]
                code1 = w[i + 2]
                if data1 and w[i] ^ data1 ^ code1 == key:
                    code = code1
        w[i + 1] = data
        w[i + 2] = code
        w[i] = key ^ data ^ code

    def clear(self, stopped: Callable[[], bool] = lambda: False) -> bool:
        """Zero every entry, a piece at a time; False if ``stopped()`` turned true on the way.

        Whole pages are handed back to the system (``MADV_REMOVE``: they read as zeros again and
        cost no memory until a search writes them; writing zeros would make every page of a
        gigabyte table resident, and freeing that makes the engine's exit take a quarter second).
        Named memory (``smp.py``, Windows' kind) comes as a byte view, without ``madvise``: zeros."""
        start = self.base * 8
        end = start + self.size * ENTRY_WORDS * 8
        mapping = self.mapping
        if mapping is not None and hasattr(mapping, "madvise") and hasattr(mmap, "MADV_REMOVE"):
            page = mmap.PAGESIZE
            first, last = -(-start // page) * page, end // page * page
            if first < last:
                self._zero(start, first)
                step = 64 << 20
                for at in range(first, last, step):
                    if stopped():
                        return False
                    try:
                        mapping.madvise(mmap.MADV_REMOVE, at, min(step, last - at))
                    except OSError:                 # not a shared-memory file: write the zeros
                        if not self._zero(at, last, stopped):
                            return False
                        break
                return self._zero(last, end, stopped)
        return self._zero(start, end, stopped)

    def _zero(self, start: int, end: int, stopped: Callable[[], bool] = lambda: False) -> bool:
        """Write zeros over bytes ``start:end``, a megabyte at a time."""
        step = 1 << 20
        zeros = bytes(min(step, max(0, end - start)))
        target = self.mapping if self.mapping is not None else self.words.cast("B")
        for at in range(start, end, step):
            if stopped():
                return False
            n = min(step, end - at)
            target[at:at + n] = zeros[:n]
        return True

    def hashfull(self) -> int:
        """Permille in use by the current search, from the first 1000 entries."""
        w, base, age = self.words, self.base, self.age
        used = sum(1 for k in range(1000) if w[base + 3 * k + 1] and (w[base + 3 * k + 1] >> 10 & 255) == age)
        return used

    def __len__(self) -> int:
        w, base = self.words, self.base
        return sum(1 for k in range(self.size) if w[base + 3 * k + 1])
