"""One evaluation score everywhere outside the search: centipawns, or a mate in some moves, from one
side's view.

The search keeps plain integers on its hot path (``alphabeta``: centipawns, mates as
+-(MATE - plies)); ``from_search`` turns them into a ``Score`` at its output.  The protocols' texts
are made and read only here:

* CECP thinking output: centipawns, and (the protocol's words) 'Mate scores should be indicated as
  100000 + N for "mate in N moves", and -100000 - N for "mated in N moves"'.
* UCI ``info ... score cp N`` / ``score mate N`` (N in moves, negative when the engine is mated;
  ``mate 0``: it is mated on the board), maybe followed by ``lowerbound`` or ``upperbound``.
* The web pages: "+0.35", "#3" (the viewer mates in 3), "#-2" (the viewer is mated in 2).
"""
from typing import NamedTuple, Optional, Sequence, Tuple

from .alphabeta import MATE, MATE_BOUND

CECP_MATE = 100000                  # CECP: mate in N moves is CECP_MATE + N, mated in N is -CECP_MATE - N
MAX_CENTIPAWNS = CECP_MATE - 1      # larger centipawn scores read from an engine are clamped to this
MAX_MATE_MOVES = 999                # mates read from an engine are clamped to this many moves
MAX_INTEGER_DIGITS = 9              # a score word longer than this is not read at all


class Score(NamedTuple):
    """An evaluation from one side's view.  Build it with ``centipawns``, ``mate_in`` or ``mated_in``;
    compare scores with ``order``, ``at_least``, ``at_most`` (not ``<``: that compares the fields)."""
    cp: int = 0                         # centipawns, when it is not a mate
    mate_moves: Optional[int] = None    # a mate: full moves until it (0: it is on the board); None: centipawns
    mating: bool = False                # a mate: True if the side whose view this is gives it

    @property
    def is_mate(self) -> bool:
        return self.mate_moves is not None

    def flipped(self) -> "Score":
        """The same score from the other side's view."""
        if self.mate_moves is None:
            return Score(cp=-self.cp)
        return Score(mate_moves=self.mate_moves, mating=not self.mating)

    def for_white(self, side: int) -> "Score":
        """This score, given from ``side``'s view (0 White, 1 Black), from White's view."""
        return self if side == 0 else self.flipped()

    def order(self) -> Tuple[int, int]:
        """A key that sorts scores from worst to best for the viewer: being mated sooner is worst,
        mating sooner best, centipawns between."""
        if self.mate_moves is None:
            return 0, self.cp
        return (1, -self.mate_moves) if self.mating else (-1, self.mate_moves)

    def at_least(self, centipawns: int) -> bool:
        """At least this good for the viewer (a mate it gives beats any centipawns)."""
        return self.order() >= (0, centipawns)

    def at_most(self, centipawns: int) -> bool:
        """At most this good for the viewer (a mate it suffers is below any centipawns)."""
        return self.order() <= (0, centipawns)

    def beyond(self, centipawns: int) -> bool:
        """Farther from equality than ``centipawns`` either way (every mate is)."""
        return self.is_mate or abs(self.cp) > centipawns

    def cecp(self) -> int:
        """The score as CECP thinking output writes it."""
        if self.mate_moves is None:
            return self.cp
        return CECP_MATE + self.mate_moves if self.mating else -CECP_MATE - self.mate_moves

    def uci(self) -> str:
        """The score as UCI ``info ... score`` writes it: ``cp N`` or ``mate N``."""
        if self.mate_moves is None:
            return f"cp {self.cp}"
        if self.mating:
            if self.mate_moves == 0:
                raise ValueError("a mate on the board is the side to move's loss: UCI has no text for it")
            return f"mate {self.mate_moves}"
        return f"mate -{self.mate_moves}" if self.mate_moves else "mate 0"

    def page_text(self) -> str:
        """The score as the web pages show it: "+0.35", "-1.20", "#3", "#-2"."""
        if self.mate_moves is None:
            return f"{self.cp / 100:+.2f}"
        return f"#{'' if self.mating else '-'}{self.mate_moves}"


def centipawns(value: int) -> Score:
    """A centipawn score, clamped to +-MAX_CENTIPAWNS."""
    return Score(cp=max(-MAX_CENTIPAWNS, min(MAX_CENTIPAWNS, value)))


def mate_in(moves: int) -> Score:
    """The viewer mates in ``moves`` full moves (clamped to 0..MAX_MATE_MOVES)."""
    return Score(mate_moves=max(0, min(MAX_MATE_MOVES, moves)), mating=True)


def mated_in(moves: int) -> Score:
    """The viewer is mated in ``moves`` full moves (0: it is mated on the board)."""
    return Score(mate_moves=max(0, min(MAX_MATE_MOVES, moves)), mating=False)


def from_search(value: int) -> Score:
    """The search's integer (centipawns from the side to move's view, mates as +-(MATE - plies))."""
    if value >= MATE_BOUND:
        return mate_in((MATE - value + 1) // 2)        # the mating side makes the odd plies
    if value <= -MATE_BOUND:
        return mated_in((MATE + value) // 2)
    return Score(cp=value)


def _integer(word: str) -> Optional[int]:
    """``word`` as an integer if it is one written in ASCII digits (not '²', not 10**1000)."""
    digits = word[1:] if word.startswith("-") else word
    if not digits or len(digits) > MAX_INTEGER_DIGITS or not all("0" <= c <= "9" for c in digits):
        return None
    return int(word)


def parse_cecp(word: str) -> Optional[Score]:
    """The score word of a CECP thinking line (``depth score time nodes pv``), None if it is not an
    integer."""
    value = _integer(word)
    if value is None:
        return None
    if value >= CECP_MATE:
        return mate_in(value - CECP_MATE)
    if value <= -CECP_MATE:
        return mated_in(-CECP_MATE - value)
    return Score(cp=value)


def parse_uci(words: Sequence[str]) -> Optional[Score]:
    """The score of a UCI ``info`` line, split into words (``score cp N`` or ``score mate N``, a
    ``lowerbound``/``upperbound`` after it changes nothing); None if it has none that reads."""
    try:
        at = list(words).index("score")
    except ValueError:
        return None
    if at + 2 >= len(words):
        return None
    kind, value = words[at + 1], _integer(words[at + 2])
    if value is None:
        return None
    if kind == "cp":
        return centipawns(value)
    if kind == "mate":
        return mate_in(value) if value > 0 else mated_in(-value)
    return None

