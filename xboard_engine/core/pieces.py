"""Piece behaviours, described once and reused by every variant.

A piece kind is data: its FEN letter, leaps and slides as (file, rank) steps, and a behaviour that
selects the few special move rules that cannot be described that way (pawns, lancers, jailers and the
two kinds of sentry).
"""
from typing import Dict, NamedTuple, Tuple

Step = Tuple[int, int]

# Behaviours.
LEAPER_SLIDER = 0   # any mix of leaps and slides, captures as it moves
PAWN = 1
LANCER = 2          # R3: moves along its facing, jumps friendly units, turns after moving
JAILER = 3          # R4: rook moves to empty squares, never captures, holds adjacent enemies
SENTRY_PUSH = 4     # R8: bishop moves to empty squares, pushes enemy units
SENTRY_JUMP = 5     # R9: bishop moves to empty squares, captures by jumping (2019 rules)

ORTHOGONAL: Tuple[Step, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: Tuple[Step, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
# Lancer facings in FEN-letter order N NE E SE S SW W NW (R3.6).
FACINGS: Tuple[Step, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
FACING_LETTERS = "CDEFGHMO"
FACING_NAMES = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
KNIGHT_LEAPS: Tuple[Step, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_LEAPS: Tuple[Step, ...] = ORTHOGONAL + DIAGONAL
TWO_STEPS: Tuple[Step, ...] = ((0, 2), (2, 2), (2, 0), (2, -2), (0, -2), (-2, -2), (-2, 0), (-2, 2))


class PieceKind(NamedTuple):
    name: str
    letter: str                  # FEN letter (white, upper case); lancers use FACING_LETTERS
    behaviour: int
    leaps: Tuple[Step, ...] = ()
    slides: Tuple[Step, ...] = ()
    royal: bool = False
    value: int = 0               # centipawns, for move ordering and evaluation
    # XBoard's Betza notation of the moves, as far as it can describe them (told to XBoard with
    # `piece`); empty for the pieces XBoard knows and for the lancer (per facing: lancer_betza)
    betza: str = ""


PIECE_KINDS: Dict[str, PieceKind] = {p.name: p for p in (
    PieceKind("pawn", "P", PAWN, value=100),
    PieceKind("knight", "N", LEAPER_SLIDER, leaps=KNIGHT_LEAPS, value=300),
    PieceKind("bishop", "B", LEAPER_SLIDER, slides=DIAGONAL, value=320),
    PieceKind("rook", "R", LEAPER_SLIDER, slides=ORTHOGONAL, value=500),
    PieceKind("queen", "Q", LEAPER_SLIDER, slides=ORTHOGONAL + DIAGONAL, value=900),
    PieceKind("king", "K", LEAPER_SLIDER, leaps=KING_LEAPS, royal=True),
    # R6.1: Betza WFAD.
    PieceKind("duke", "D", LEAPER_SLIDER, leaps=KING_LEAPS + TWO_STEPS, value=650, betza="WFAD"),
    # Betza has no word for a hold (R4.2), a push (R8) or the 2019 jump capture (R9): these say
    # only the moves to empty squares.
    PieceKind("jailer", "J", JAILER, slides=ORTHOGONAL, value=370, betza="mR"),
    PieceKind("sentry", "S", SENTRY_PUSH, slides=DIAGONAL, value=280, betza="mB"),
    PieceKind("sentry2019", "S", SENTRY_JUMP, slides=DIAGONAL, value=230, betza="mB"),
    PieceKind("lancer", "L", LANCER, value=475),
)}

# Betza direction prefixes of the facings N NE E SE S SW W NW as White sees them (f = north).
_FACING_BETZA = ("fR", "frB", "rR", "brB", "bR", "blB", "lR", "flB")


def lancer_betza(facing: int, white: bool) -> str:
    """The Betza notation of a lancer facing ``facing`` (index into FACINGS): a slider along it.
    XBoard turns a black piece's directions round (f = south), so Black's are taken from the
    opposite facing.  Betza cannot say that a lancer jumps its own units (R3.1): XBoard is told a
    slider that stops at them."""
    return _FACING_BETZA[facing if white else (facing + 4) % 8]
