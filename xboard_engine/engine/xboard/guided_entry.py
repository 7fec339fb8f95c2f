"""XBoard's guided move entry: the ``highlight`` answering a ``lift`` (where the lifted unit can go,
and what a drop there means) and the ``choice`` answering a ``put``; a move of two legs (a push
whose pushed unit has several destinations, a 2019 jump) is entered as two drops.
"""
from typing import Dict, List, Optional

from ...core.board import BLACK, FILE_LETTERS
from ...core.moves import CASTLE, EDGE, EP, JUMP, NORMAL, PASS, PUSH, Move
from ...core.pieces import FACING_LETTERS


class GuidedEntry:
    """The guided move entry of a ``Session``: reads its ``pos`` and ``game_over``, and keeps the
    entry in progress in its ``_entry``."""

    def _landings(self, square: str) -> Dict[int, List[Move]]:
        """The legal moves of the unit on ``square`` (of the side to move) by the square it is
        dragged to in XBoard: the king's square for a castle (its partner's in Chess960-style
        castles), the pushed or edge unit's square for a sentry's push or edge capture, the jumped
        unit's square for a jump capture."""
        pos = self.pos
        v = pos.variant
        frm = v.by_name.get(square)
        landings: Dict[int, List[Move]] = {}
        if frm is None or self.game_over:
            return landings
        for m in pos.legal_moves():
            if m.frm != frm or m.kind == PASS:
                continue
            if m.kind == CASTLE and v.flexible_castling and m.to == m.square2:
                continue        # XBoard makes a drop on the rook the castle beside it (see lift)
            if m.kind == JUMP:
                landing = m.square2
            elif m.kind == CASTLE and v.chess960_style and v.castling != "flexible":
                landing = m.square2
            else:
                landing = m.to
            landings.setdefault(landing, []).append(m)
        return landings

    def _highlight(self, marks: Dict[int, str]) -> str:
        """A ``highlight`` line: XBoard's colour FEN of ``marks`` (square -> colour letter)."""
        v = self.pos.variant
        rows = []
        for rank in range(v.ranks - 1, -1, -1):
            row, empty = "", 0
            for file in range(v.files):
                mark = marks.get(v.by_name[f"{FILE_LETTERS[file]}{rank + 1}"])
                if mark is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += mark
            rows.append(row + (str(empty) if empty else ""))
        return "highlight " + "/".join(rows)

    def lift_note(self, square: str) -> Optional[str]:
        """Why the lifted unit of the side to move has no move, where nothing on the board shows
        it: a jailer holds it (R4.2)."""
        v = self.pos.variant
        sq = v.by_name.get(square)
        code = self.pos.board[sq] if sq is not None else 0
        holder = self.pos.holder_of(square) if code and (code < BLACK) == (self.pos.stm == 0) else None
        if holder is not None and not self._landings(square):
            return f"The jailer on {holder} holds this unit: it cannot move."
        return None

    def lift(self, square: str) -> str:
        """The ``highlight`` line answering XBoard's ``lift``: where the lifted unit can go.

        Yellow a move, red a capture (or a push with one destination for the pushed unit: a plain
        drag names it), magenta a square where a promotion piece or a lancer's facing is chosen
        (``put`` answers with the ``choice``), cyan a square where the move goes on: a push whose
        pushed unit has several destinations, a 2019 jump over the unit there.  XBoard then sends
        ``put`` and ``lift`` on that square, answered with the second leg's targets.  A Chess80
        castle onto the rook's square is not marked: XBoard (checking the moves itself) makes a drop
        there the castle with the king beside the rook, and no gesture enters it."""
        v = self.pos.variant
        pending = self._entry
        if pending is not None and pending[1] == square:
            moves = self._landings(pending[0]).get(v.by_name[square], [])
            return self._highlight({m.to2 if m.kind == PUSH else m.to: "Y" for m in moves
                                    if m.kind in (PUSH, JUMP)})
        self._entry = (square, None)
        marks: Dict[int, str] = {}
        for landing, moves in self._landings(square).items():
            if _goes_on(moves):
                marks[landing] = "C"
            elif len({m.placed for m in moves if m.kind == NORMAL}) > 1:
                marks[landing] = "M"
            elif any(m.kind in (EP, EDGE) or (m.kind in (NORMAL, PUSH) and self.pos.board[landing])
                     for m in moves):
                marks[landing] = "R"
            else:
                marks[landing] = "Y"
        return self._highlight(marks)

    def put(self, square: str) -> Optional[str]:
        """XBoard's ``put``: the ``choice`` line where the lifted unit's move needs a piece chosen
        (promotion, or a lancer's facing: the unit's own facing first, the default), else None.  A
        put on a cyan square leaves the move entry open for its second leg."""
        entry, self._entry = self._entry, None
        if entry is None or entry[1] is not None:
            return None
        lifted = entry[0]
        v = self.pos.variant
        landing = v.by_name.get(square)
        if landing is None:
            return None
        moves = self._landings(lifted).get(landing, [])
        if _goes_on(moves):
            self._entry = (lifted, square)
            return None
        placed = list(dict.fromkeys(m.placed for m in moves if m.kind == NORMAL))
        if len(placed) < 2:
            return None
        moved = self.pos.board[v.by_name[lifted]]
        placed.sort(key=lambda code: code != moved)
        letters = "".join(FACING_LETTERS[v.facing[code]] if v.facing[code] >= 0 else v.letter[code].upper()
                          for code in placed)
        return f"choice {letters}"


def _goes_on(moves: List[Move]) -> bool:
    """Whether moves dropped on one square need a second leg in XBoard: a 2019 jump over the unit
    there, or a push whose pushed unit has more than one destination."""
    return any(m.kind == JUMP for m in moves) or len({m.to2 for m in moves if m.kind == PUSH}) > 1
