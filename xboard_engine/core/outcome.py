"""The end of a game: mate, stalemate and the automatic draws (R2.1, R2.2, R8.9)."""
from typing import TYPE_CHECKING, NamedTuple, Optional

if TYPE_CHECKING:
    from .position import Position


class Outcome(NamedTuple):
    result: str                 # "1-0", "0-1" or "1/2-1/2"
    winner: Optional[str]       # "w", "b" or None
    termination: str            # checkmate, stalemate, threefold_repetition, fifty_moves, insufficient_material


def outcome(pos: "Position") -> Optional[Outcome]:
    """The game result if the game is over, else None."""
    if not pos.legal_moves():
        if pos.is_check():
            winner = "wb"[1 - pos.stm]
            return Outcome("1-0" if winner == "w" else "0-1", winner, "checkmate")
        return Outcome("1/2-1/2", None, "stalemate")
    if pos.halfmove >= 100:
        return Outcome("1/2-1/2", None, "fifty_moves")
    if pos.repetitions() >= 3:
        return Outcome("1/2-1/2", None, "threefold_repetition")
    if is_insufficient_material(pos):
        return Outcome("1/2-1/2", None, "insufficient_material")
    return None


def is_insufficient_material(pos: "Position") -> bool:
    """R2.2: bare kings; orthodox and Chess960 also K+minor vs K and same-coloured bishops."""
    v = pos.v
    B = pos.board
    others = [sq for side in (0, 1) for sq in pos.units[side] if not v.is_king[B[sq]]]
    if not others:
        return True
    if not v.orthodox_insufficient:
        return False
    letters = [v.letter[B[sq]].upper() for sq in others]
    if len(others) == 1:
        return letters[0] in ("B", "N")
    if all(c == "B" for c in letters) and len(others) == 2 and B[others[0]] >> 6 != B[others[1]] >> 6:
        colours = {(v.file_of[sq] + v.rank_of[sq]) % 2 for sq in others}
        return len(colours) == 1
    return False
