"""What exists only because of how XBoard behaves: the session's game is the true one, this keeps
what XBoard shows of it and works around what XBoard 4.9.1 gets wrong.

* The random setup announced with `setup` is kept while no move is made: XBoard sends `new` and
  `variant` more than once before a game and keeps the first setup it got.
* A position loaded mid-session needs two `setup` lines before XBoard 4.9.1 shows it
  (``redraw_lines``).
* With option "Avoid moves XBoard 4.9.1 misdraws", in a variant XBoard hosts without legality
  testing, XBoard's picture of the board (``xboard_picture.py``) is kept: moves it would draw wrong
  are avoided while there are others, and the user is told how to get the true position back.
* The FEN offered to the user comes back whole from a `setboard`, though XBoard drops what it
  cannot write (a push restriction); a lancer dragged with XBoard's default promotion piece appended
  is explained (``refusal_hint``).
"""
import re
from typing import List, Optional, Set, Tuple

from ...core.errors import RulesError
from ...core.moves import Move
from ...core.position import Position
from ...core.variant import get_variant
from .picture import XBoardPicture
from .positions import restore_start_castling, setup_line, write_position_file

_DRAG_WITH_QUEEN = re.compile(r"^([a-z][0-9]{1,2})[a-z][0-9]{1,2}q$")

NO_BREAK = "\u00a0"                          # joins words a message must not break apart (a FEN)
POPUP_WIDTH = 56        # characters per line of a message in XBoard's popup


class XBoardView:
    """XBoard's view of one session's game."""

    def __init__(self) -> None:
        # The random setup last announced with `setup`, kept while no move has been made
        self._announced: Optional[Tuple[str, str]] = None
        self._moved_since_setup = True
        # XBoard 4.9.1's picture of the board (None unless kept), and the pictures before each move
        self.picture: Optional[XBoardPicture] = None
        self._pictures: List[Optional[XBoardPicture]] = []
        self._offered: Optional[str] = None       # the FEN last offered to the user (offer_fen)

    # ------------------------------------------------------------------ setups
    def announced_start(self, variant: str) -> Optional[str]:
        """The FEN of the random setup XBoard was last told of for ``variant``, while no move has
        been made since (a new game then starts from it again), else None."""
        if self._announced and self._announced[0] == variant and not self._moved_since_setup:
            return self._announced[1]
        return None

    def setup_lines(self, pos: Position) -> List[str]:
        """The `setup` and `piece` lines that tell XBoard how to host ``pos``'s variant (none for the
        variants XBoard knows); a random setup announced here is kept until a move is made."""
        v = pos.variant
        if not v.xboard_pieces:
            return []
        fen = pos.fen()
        self._announced = (v.name, fen)
        self._moved_since_setup = False
        return [setup_line(v.name, v.xboard_parent, fen)] + list(v.xboard_piece_lines)

    def redraw_lines(self, variant: str, pos: Position) -> List[str]:
        """XBoard 4.9.1, loading a position (or a game without moves) mid-session in a variant it
        hosts by `setup`, resets the game and sends `new`, `variant` and then `setboard` at once;
        the engine's answer to `variant`, a `setup` with the start array, arrives after XBoard has
        drawn the loaded position and makes it draw the start array instead (backend.c: the parent
        variant changes, so the board is re-initialised), while the engine plays on from the
        loaded one.  A `setup` of another parent and then the true one, both with the loaded
        position, make it re-initialise twice and keep that position.  Sent for a ``setboard``
        that follows a `setup` before any move, with White to move (XBoard ignores a `setup` once
        it has a move, which a position with Black to move counts as) and a different placement;
        XBoard ignores `setup` from the second engine and, in its development version, keeps the
        position it shows."""
        v = get_variant(variant)
        if not v.xboard_pieces or self._announced is None or self._moved_since_setup \
                or self._announced[0] != variant or pos.stm != 0:
            return []
        fen = pos.fen()
        if fen.split()[0] == self._announced[1].split()[0]:
            return []
        other = "lion" if v.xboard_parent != "lion" else "fairy"
        return [setup_line(v.name, other, fen), setup_line(v.name, v.xboard_parent, fen)]

    def position_from_fen(self, fen: str, variant: str) -> Position:
        """The position of a ``setboard``; raises RulesError for a FEN the variant does not accept.
        The position last offered to the user (``offer_fen``) comes back whole: XBoard drops what it
        cannot write (a push restriction, castling with a jailer or a lancer)."""
        offered = self._offered
        if offered is not None and fen.split()[:2] == offered.split()[:2]:
            return Position.from_fen(offered, variant)
        return restore_start_castling(Position.from_fen(fen, variant), fen)

    # ------------------------------------------------------------------ the picture
    def reset(self, pos: Position, keep_picture: bool) -> None:
        """XBoard shows ``pos`` as it is (a new game, a loaded position); its picture is kept when
        ``keep_picture`` (the option) and XBoard does not test legality in this variant."""
        on = keep_picture and not pos.variant.xboard_checks_legality
        self.picture = XBoardPicture(pos) if on else None
        self._pictures = []

    def draw(self, text: str) -> None:
        """XBoard draws the move ``text`` (before the position makes it)."""
        self._moved_since_setup = True
        self._pictures.append(self.picture)
        if self.picture is not None:
            self.picture = self.picture.copy()
            self.picture.draw(text)

    def take_back(self) -> None:
        """One move was taken back."""
        if self._pictures:
            self.picture = self._pictures.pop()

    def wrong_squares(self, pos: Position) -> Set[str]:
        """The squares XBoard shows wrong for ``pos`` (none without a picture)."""
        return self.picture.differences(pos) if self.picture is not None else set()

    def showable(self, pos: Position, legal: List[Move]) -> Tuple[List[Move], List[Move]]:
        """Of ``legal``, the moves XBoard's picture shows right (no square it shows wrong that it
        showed right before) and the moves it takes at all (the engine's unit is there)."""
        picture = self.picture
        assert picture is not None
        before = picture.differences(pos)
        white = pos.stm == 0
        shown, taken = [], []
        for m in legal:
            text = pos.move_text(m)
            if not picture.accepts(text, white):
                continue
            taken.append(m)
            after = picture.copy()
            after.draw(text)
            pos.push(m)
            if after.differences(pos) <= before:
                shown.append(m)
            pos.pop()
        return shown, taken

    def preferred(self, pos: Position, legal: List[Move], avoided: Set[Move]) -> Set[Move]:
        """The moves to avoid with the picture kept: all but those XBoard shows right (else those it
        takes at all), and of those the ones in ``avoided`` if others remain."""
        shown, taken = self.showable(pos, legal)
        best = shown or taken
        chosen = [m for m in best if m not in avoided] or best
        return set(legal) - set(chosen)

    # ------------------------------------------------------------------ telling the user
    def stuck_notice(self, pos: Position) -> Optional[str]:
        """When XBoard's picture has lost every unit the engine could move (XBoard would drop any
        move it sends, and the game would stand still with the engine's clock running): what the
        user can do instead.  None when the engine can move (or no picture is kept)."""
        if self.picture is None:
            return None
        legal = pos.legal_moves()
        if not legal or self.showable(pos, legal)[1]:
            return None
        return ("XBoard's board no longer shows this game, and it would ignore any move I make. "
                "Resign (Action > Resign), or to play on, " + self.position_note(pos))

    def misdrawn_notice(self, pos: Position, before: Set[str]) -> Optional[str]:
        """The `telluser` text when XBoard 4.9.1 drew the GUI's move wrong (squares it shows wrong
        now that were not in ``before``): the true position, once per game that goes wrong."""
        after = self.wrong_squares(pos)
        if after <= before:
            return None
        wrong = ", ".join(sorted(after - before))
        if before:
            return f"XBoard now also shows {wrong} wrong."
        return (f"XBoard cannot show this move: its board is now wrong on {wrong}. I will play "
                "only moves it can show. To see the true position, " + self.position_note(pos))

    def position_note(self, pos: Position) -> str:
        """How the user gets the true position into XBoard 4.9.1: its FEN as XBoard reads it
        (``offer_fen``), also written to a file when that can be done (a popup's text cannot be
        copied).  A mid-game Load Position with Black to move fails in 4.9.1 unless File > New
        Game comes first, and after it XBoard is in Edit Game mode."""
        fen = self.offer_fen(pos)
        path = write_position_file(fen)
        where = f"the file {path}" if path else "a file holding the position below"
        side = "White" if pos.stm == 0 else "Black"
        return (f"choose File > New Game, then File > Load Position with {where}, then Mode > "
                f"Machine {side}. The position: " + fen.replace(" ", NO_BREAK))

    def offer_fen(self, pos: Position) -> str:
        """The position's FEN without the push restriction's 7th field, which XBoard cannot read;
        a ``setboard`` of it restores the field (``position_from_fen``)."""
        full = pos.fen()
        self._offered = full
        return " ".join(full.split()[:6])


def refusal_hint(pos: Position, text: str) -> Optional[str]:
    """Why XBoard sent an illegal move, where the GUI and not the player is to blame: XBoard
    4.9.1 (with its default -sweepPromotions) appends its default promotion piece ``q`` to a
    lancer dragged onto a square marked for choosing the facing (see ``lift``)."""
    drag = _DRAG_WITH_QUEEN.match(text)
    v = pos.variant
    frm = v.by_name.get(drag.group(1)) if drag else None
    if frm is None or v.facing[pos.board[frm]] < 0:
        return None
    try:
        pos.parse_move(text[:-1])
    except RulesError:
        return None
    return ("A lancer cannot be dragged in XBoard. Click it, then press on its destination and "
            "pull up or down until it faces the way you want, and release. Or type the move with "
            f"its facing, e.g. {text[:-1]}c (facing north).")


def tell_line(text: str, error: bool = False) -> str:
    """A `telluser` (or `tellusererror`) line showing ``text`` in lines of at most ``POPUP_WIDTH``
    characters (a longer word on a line of its own; a no-break space joins words, as in a FEN):
    XBoard sizes its popup to the longest line.  XBoard reads ``\\n`` as a line break after a
    leading ``\\\\``."""
    lines: List[str] = []
    for word in text.replace("\\", "\\\\").replace("\n", " ").split(" "):
        if not word:
            continue
        word = word.replace(NO_BREAK, " ")
        if lines and len(lines[-1]) + 1 + len(word) <= POPUP_WIDTH:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return ("tellusererror " if error else "telluser ") + "\\\\" + "\\n".join(lines)
