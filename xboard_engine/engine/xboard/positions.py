"""Positions as XBoard reads and writes them: the ``setup`` line that hosts a variant, whether a
placement is a start array, the castling rights an XBoard FEN cannot write (restored on
``setboard``), and the file a position is offered in for XBoard's Load Position.
"""
import os
import re
from typing import List, Optional

from ...core.errors import RulesError
from ...core.position import Position
from ...core.variant import get_variant
from ...paths import cache_path


def write_position_file(fen: str) -> Optional[str]:
    """Write ``fen`` where the user can load it into XBoard (``position.fen`` in the cache directory
    the piece pictures use); its path (``~/...`` under the home directory: XBoard's file dialog reads
    that, and it keeps the message short), or None if it cannot be written."""
    path = cache_path("position.fen")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(fen + "\n")
    except OSError:
        return None
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if home != "~" and path.startswith(home + os.sep) else path


def setup_line(variant: str, parent: str, fen: str) -> str:
    """XBoard's `setup`: the variant's piece letters, board size, a parent variant and a position."""
    v = get_variant(variant)
    return f"setup ({v.xboard_pieces}) {v.files}x{v.ranks}+0_{parent} {fen}"


def is_start_array(variant: str, placement: str) -> bool:
    """Whether a FEN's ``placement`` is the variant's start array (for a random setup: a setup's,
    the pawns on their start ranks and nothing between them, whatever stands behind them)."""
    v = get_variant(variant)
    if v.setup == "fixed":
        return placement == v.start_fen.split()[0]
    rows = placement.split("/")
    return len(rows) == 8 and rows[1] == "p" * 8 and rows[6] == "P" * 8 and all(r == "8" for r in rows[2:6])


def restore_start_castling(pos: Position, fen: str) -> Position:
    """XBoard's FEN drops castling rights whose partner is not a rook (XBOARD.md), in the positions
    it sends at a game's start, after Edit Position and after pasting a position.  In the fixed
    setups, a right whose partner is not a rook is restored where king and partner stand on their
    start squares (an XBoard FEN cannot say whether it was lost); a random setup's start array (White
    to move, move 1, nothing moved) gets the full start rights."""
    v = pos.variant
    fields = fen.split()
    if v.setup == "fixed" and v.xboard_pieces:
        return _restore_unwritable_rights(pos, fields)
    if pos.stm != 0 or pos.fullmove != 1 or pos.fen().split()[2] == "KQkq" or pos.ply:
        return pos
    placement = fields[0]
    if not is_start_array(v.name, placement):
        return pos
    full_fen = " ".join([placement, "w", "KQkq"] + fields[3:6])
    try:
        return Position.from_fen(full_fen, v.name)
    except RulesError:
        return pos


def _restore_unwritable_rights(pos: Position, fields: List[str]) -> Position:
    """``restore_start_castling`` in a fixed setup: add the K/Q rights XBoard cannot write."""
    v = pos.variant
    given = fields[2] if len(fields) > 2 else "-"
    if not re.fullmatch(r"-|K?Q?k?q?", given):
        return pos
    start = Position(v.name)
    rights = set(given) - {"-"}
    for bit in range(4):
        if not start.castling & (1 << bit):
            continue
        color, side = divmod(bit, 2)
        partner = start.castle_partner[bit]
        code = start.board[partner]
        if v.kind_of[code].name == "rook" or pos.board[partner] != code \
                or pos.kings[color] != start.kings[color]:
            continue
        rights.add("KQ"[side] if color == 0 else "kq"[side])
    text = "".join(c for c in "KQkq" if c in rights) or "-"
    if text == given:
        return pos
    try:
        return Position.from_fen(" ".join(fields[:2] + [text] + fields[3:]), v.name)
    except RulesError:
        return pos
