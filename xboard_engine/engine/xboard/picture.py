"""What XBoard 4.9.1 shows on its board in a variant it hosts with legality testing off.

Without legality testing XBoard draws a move from its text alone (backend.c: HandleMachineMove and
ApplyMove of release 4.9.1), so some legal moves of these variants are drawn wrong: a push
``c1h5,h5h6`` loses the pushed unit (the first leg's square is a "kill" square, the sentry lands on
the second leg's destination), a 2019 edge capture leaves the sentry on the victim's square, a king
that takes its own jailer or lancer (an 8piece-random castle) is drawn as a capture.  From then on
XBoard's board differs from the game, and XBoard drops a move of a unit it does not show (the
engine's move is then lost and the game stands still).  ``XBoardPicture`` replays XBoard's drawing
of every move, so that the engine can tell which of its moves XBoard can show.

The picture is a map of square names to FEN letters (XBoard's piece letters in the hosted variants).
"""
import re
from typing import Dict, Optional, Set, Tuple

from ...core.board import FILE_LETTERS
from ...core.position import Position

_LEG = re.compile(r"^([a-z])(\d+)([a-z])(\d+)([a-z]?)$")

Square = Tuple[int, int]            # (file, rank), both from 0


class XBoardPicture:
    """XBoard 4.9.1's board: ``shown`` maps a square name to the FEN letter of the unit it shows."""

    def __init__(self, pos: Position) -> None:
        v = pos.variant
        self.files, self.ranks = v.files, v.ranks
        self.shown: Dict[str, str] = {}
        for rank in range(v.ranks):
            for file in range(v.files):
                name = f"{FILE_LETTERS[file]}{rank + 1}"
                letter = pos.piece_at(name)
                if letter:
                    self.shown[name] = letter
        self.ep_file: Optional[int] = None     # the file of the last double step XBoard drew

    def copy(self) -> "XBoardPicture":
        other = XBoardPicture.__new__(XBoardPicture)
        other.files, other.ranks, other.ep_file = self.files, self.ranks, self.ep_file
        other.shown = dict(self.shown)
        return other

    def differences(self, pos: Position) -> Set[str]:
        """The squares where the picture differs from ``pos``."""
        truth = XBoardPicture(pos).shown
        return {sq for sq in set(truth) | set(self.shown) if truth.get(sq) != self.shown.get(sq)}

    def accepts(self, text: str, white: bool) -> bool:
        """Whether XBoard takes the move ``text`` of the side ``white``: it names a unit of that
        side on its first square (XBoard drops any other move of an engine, and a human cannot
        make one)."""
        legs = self._legs(text)
        if legs is None:
            return text == "@@@@"
        frm, to, kill, _ = legs
        unit = self.shown.get(self._name(frm))
        return unit is not None and unit.isupper() == white and (frm != to or kill is not None)

    def draw(self, text: str) -> None:
        """Draw the move ``text`` (as XBoard sent or received it) as XBoard 4.9.1 draws it."""
        legs = self._legs(text)
        old_ep, self.ep_file = self.ep_file, None
        if legs is None:
            return                                     # a pass, or text XBoard would not take
        (fx, fy), (tx, ty), kill, promotion = legs
        board = self.shown
        if board.get(self._name((fx, fy))) is None:
            return                                     # XBoard refuses it
        if kill is not None:
            board.pop(self._name(kill), None)
        piece = board.get(self._name((fx, fy)))
        if piece is None:                              # the kill square was the origin: XBoard
            self._put((tx, ty), None)                  # moves the empty square
            return
        white = piece.isupper()
        if piece.upper() == "P" and (ty - fy if white else fy - ty) >= 2:
            self.ep_file = (fx + tx) // 2
        if (fx, fy) == (tx, ty) and kill is None:
            return
        target = board.get(self._name((tx, ty)))
        king, rook = ("K", "R") if white else ("k", "r")
        home = 0 if white else self.ranks - 1
        if {piece, target} == {king, rook}:            # king takes own rook: a Chess960 castle
            self._put((fx, fy), None)
            self._put((tx, ty), None)
            right = (tx > fx) != (piece == rook)
            self._put((self.files - 2 if right else 2, home), king)
            self._put((self.files - 3 if right else 3, home), rook)
        elif piece == king and 0 < fx < self.files - 1 and ty == fy and abs(tx - fx) > 1:
            step = 1 if tx > fx else -1                # castles with the nearest unit that way
            x = fx + step
            while board.get(self._name((x, fy))) is None and 0 < x < self.files - 1:
                x += step
            self._put((tx - step, fy), board.get(self._name((x, fy))))
            self._put((x, fy), None)
            self._put((fx, fy), None)
            self._put((tx, ty), king)
        elif piece.upper() == "P" and promotion and ty == (self.ranks - 1 if white else 0):
            self._put((fx, fy), None)
            self._put((tx, ty), promotion.upper() if white else promotion)
        elif piece.upper() == "P" and tx != fx and target is None \
                and ((fy >= self.ranks // 2) if white else (fy < self.ranks // 2)) \
                and (old_ep == tx or abs(tx - fx) > 4):
            self._put((fx, fy), None)                  # en passant
            self._put((tx, ty), piece)
            self._put((tx, ty - 1 if white else ty + 1), None)
        else:
            self._put((fx, fy), None)
            self._put((tx, ty), piece)
        if promotion:                                  # believed for any unit (a lancer's facing)
            self._put((tx, ty), promotion.upper() if white else promotion)

    # ------------------------------------------------------------------ text
    def _legs(self, text: str) -> Optional[Tuple[Square, Square, Optional[Square], str]]:
        """From, to, kill square and promotion letter of a move text as XBoard reads an engine's
        move: of two legs ``AB,CD`` the first leg's destination B is the kill square when it is on
        the file of the second leg's origin C (XBoard compares the file letters) and the move goes
        from A to D; otherwise it goes from A to B and C is the kill square."""
        parts = text.split(",")
        if not 1 <= len(parts) <= 2:
            return None
        legs = [_LEG.match(part) for part in parts]
        if None in legs:
            return None
        first = legs[0]
        frm = self._square(first.group(1), first.group(2))
        to = self._square(first.group(3), first.group(4))
        promotion = first.group(5)
        kill = None
        if len(legs) == 2:
            second = legs[1]
            kill = self._square(second.group(1), second.group(2))
            if first.group(3) == second.group(1):
                to = self._square(second.group(3), second.group(4))
                promotion = second.group(5)
        if None in (frm, to) or (len(legs) == 2 and kill is None):
            return None
        return frm, to, kill, promotion

    def _square(self, file: str, rank: str) -> Optional[Square]:
        x, y = FILE_LETTERS.find(file), int(rank) - 1
        return (x, y) if 0 <= x < self.files and 0 <= y < self.ranks else None

    @staticmethod
    def _name(square: Square) -> str:
        return f"{FILE_LETTERS[square[0]]}{square[1] + 1}"

    def _put(self, square: Square, letter: Optional[str]) -> None:
        if not (0 <= square[0] < self.files and 0 <= square[1] < self.ranks):
            return
        if letter is None:
            self.shown.pop(self._name(square), None)
        else:
            self.shown[self._name(square)] = letter
