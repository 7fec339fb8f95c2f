"""What units and outcomes are worth to the 8 Player Chess bots (``bots.py``): the score scale in
centipawns (material, points, eliminations, the king-safety and threat terms, the search window) and
the tables of a unit's worth on each square of a variant (material plus a small placement bonus).

No search state lives here; the other ``bot_*`` modules import these names.
"""
from typing import Dict, List

from ..rules import BISHOP, KING, KNIGHT, OFF, PAWN, ROOK, MultiVariant

# Material in centipawns per kind (index = kind, ``rules.PAWN`` .. ``rules.POINT_QUEEN``: the 1 Point
# Queen moves as a queen).
MATERIAL = (0, 100, 300, 325, 500, 900, 0, 900)
# Worth of a victim when ordering captures: an active enemy's king (E4.4) before anything else.
CAPTURE_ORDER = (0, 100, 300, 325, 500, 900, 5000, 900)
POINT_CP = 40            # one point of the game's score, in centipawns
ELIMINATED = 100000      # the bot's own side out of the game (checkmated)
STALEMATED_CP = 75000       # ... stalemated (Singles and Pairs: nobody gets the 25 points of a mate)
TEAM_MATE_CP = 3000      # Teams: each checkmated member of a team
TEAM_WIN = 90000         # Teams: a team has checkmated enough opponents
DRAW_RESULT_CP = 20000   # a repetition that ends the game: won (or lost) on points
INFINITE = 10 ** 9
KING_ZONE_CP = 12        # each square next to a friendly king attacked by an enemy
SHIELD_CP = 8            # each friendly pawn in front of a friendly king
IN_CHECK_CP = 30
HANGING_NEXT = 0.9       # share of the largest threatened loss counted when enemies move next
HANGING_SECOND = 0.5     # ... of the largest the mover of the bot's side cannot save when it moves next


# ---------------------------------------------------------------------------------- static tables
_TABLES: Dict[str, List[List[int]]] = {}


def lines_ahead(v: MultiVariant, seat: int, sq: int) -> int:
    """How many lines ``sq`` lies ahead of seat ``seat``'s back line."""
    info = v.seats[seat]
    back = info.back_line[0]
    df, dr = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}[info.direction]
    return (v.rank_of[sq] - v.rank_of[back]) * dr + (v.file_of[sq] - v.file_of[back]) * df


def unit_tables(v: MultiVariant) -> List[List[int]]:
    """``table[code][sq]``: the centipawn worth of unit ``code`` on ``sq`` (material plus a small
    placement bonus: minor pieces and queens toward the centre, pawns forward, the king at home).
    Grey units and empty squares are worth nothing."""
    if v.name in _TABLES:
        return _TABLES[v.name]
    middle_f = (v.files - 1) / 2.0
    middle_r = (v.ranks - 1) / 2.0
    tables = [[0] * v.size for _ in range(OFF + 1)]
    for seat in range(v.players):
        for kind in range(1, 8):
            table = tables[seat * 8 + kind]
            for sq in v.squares:
                far = max(abs(v.file_of[sq] - middle_f), abs(v.rank_of[sq] - middle_r))  # 0.5 .. 11.5
                ahead = lines_ahead(v, seat, sq)
                if kind == PAWN:
                    bonus = 3 * max(0, ahead - 1)
                elif kind == KING:
                    bonus = -6 * max(0, ahead - 1)
                elif kind == KNIGHT or kind == BISHOP:
                    bonus = int(24 - 2 * far)
                elif kind == ROOK:
                    bonus = 0
                else:
                    bonus = int(8 - far)
                table[sq] = MATERIAL[kind] + bonus
    _TABLES[v.name] = tables
    return tables
