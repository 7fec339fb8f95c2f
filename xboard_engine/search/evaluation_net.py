"""The small net a weight set may carry: a correction to the evaluation learnt from a teacher.

One hidden layer over (unit, square) features: every unit on the board (its letter, colour and lancer
facing) adds its square's column of first-layer weights to ``HIDDEN`` sums, and the output is a weighted
sum of those sums clipped to [0, 1] (in White's view, centipawns).  The sums are kept incrementally for
nothing: each hidden sum is a 16-bit lane of one integer stored above the packed (middlegame, endgame,
phase) entry of the piece-square tables (``NET_SHIFT``), so ``Position.push`` and ``pop`` update them
with the same one addition; ``split`` reads the lanes as the sum's bytes.

The numbers are integers: first-layer weights and biases in 1/``ACTIVATION`` of a unit of activation
(a lane of ``ACTIVATION`` is the clip's top), output weights in 1/``OUTPUT_ONE`` centipawn per unit.
``scripts/fit_net.py`` trains them (numpy) and writes them with their provenance.
"""
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from ..core.board import OFF

if TYPE_CHECKING:
    from ..core.variant import Variant

NET_SHIFT = 64                       # the lanes start this many bits up in a piece-square entry
NET_HALF = 1 << (NET_SHIFT - 1)
LOW_MASK = (1 << NET_SHIFT) - 1
LANE_BITS = 16
ACTIVATION = 256                     # a lane's value for an activation of 1 (the clip's top)
OUTPUT_ONE = 16                      # output weights are in 1/16 centipawn per unit of activation
OUTPUT_SHIFT = 12                    # ACTIVATION * OUTPUT_ONE == 1 << OUTPUT_SHIFT


def unit_key(v: "Variant", code: int) -> str:
    """A unit's name in a net's first layer: its FEN letter (the case is its colour), then its lancer
    facing if any."""
    letter = v.letter[code]
    if v.facing[code] >= 0:
        letter += str(v.facing[code])
    return letter


class Net:
    """A net's integer weights, ready to evaluate (``output``) and to pack into the tables (``lanes``).

    ``first`` maps a unit key to its first-layer columns, one list of ``hidden`` weights per square
    (rank by rank from White's first, file by file); the sums are White's view of the board."""

    def __init__(self, data: Dict) -> None:
        self.hidden = int(data["hidden"])
        self.first: Dict[str, List[List[int]]] = data["first"]
        self.bias: List[int] = list(data["bias"])
        self.weights: List[int] = list(data["output"])
        self.output_bias = int(data["output bias"])
        n = self.hidden
        half = 1 << (LANE_BITS - 1)
        # Added to a packed sum, ``offset`` makes the low part (the packed middlegame, endgame and phase)
        # a 64-bit digit and every lane, its bias included, a 16-bit digit (plus 2**15): ``split``
        # reads the sum as bytes.
        self.offset = NET_HALF + sum((b + half) << (NET_SHIFT + LANE_BITS * i) for i, b in enumerate(self.bias))
        self.length = NET_SHIFT // 8 + 2 * n

    def lanes(self, v: "Variant", code: int, sq: int) -> int:
        """The packed first-layer column of one unit on one square."""
        column = self.first.get(unit_key(v, code))
        if column is None:
            return 0
        index = v.rank_of[sq] * v.files + v.file_of[sq]
        if index >= len(column):
            return 0
        return sum(w << (LANE_BITS * i) for i, w in enumerate(column[index]))

    def split(self, packed: int) -> Tuple[int, int]:
        """(the packed middlegame, endgame and phase, the net's correction in centipawns in White's
        view) of a packed sum."""
        x = packed + self.offset
        data = x.to_bytes(self.length, "little")
        total = 0
        i = NET_SHIFT // 8
        for w in self.weights:
            a = data[i] | (data[i + 1] << 8)
            i += 2
            if a > 32768:
                a -= 32768
                total += w * (a if a < ACTIVATION else ACTIVATION)
        # Rounded towards zero, so a mirrored position's output is exactly the negation.
        total = total >> OUTPUT_SHIFT if total >= 0 else -(-total >> OUTPUT_SHIFT)
        return (x & LOW_MASK) - NET_HALF, self.output_bias + total


def read_net(data: Optional[Dict]) -> Optional[Net]:
    """The net a weight set holds, or None."""
    return Net(data) if data else None


def net_entries(v: "Variant", net: Net) -> List[List[int]]:
    """Per code and square, the lanes to add above the piece-square entry (shifted by NET_SHIFT)."""
    out = [[0] * v.size for _ in range(OFF + 1)]
    for code in range(1, OFF):
        if v.kind_of[code] is None:
            continue
        for sq in v.squares:
            out[code][sq] = net.lanes(v, code, sq) << NET_SHIFT
    return out
