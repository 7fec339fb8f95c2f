"""A game session as the GUI describes it: the position, who plays which side, result claims, the
clocks as the GUI reports them, undo, setboard and the announcement of random setups.

Nothing here reads or writes protocol text except the few lines the GUI must receive verbatim
(``setup``/``piece`` announcements, result claims), which are returned, not sent.  XBoard's guided
move entry (``lift``, ``put``) is ``guided_entry.py``'s, the engine's options ``engine_options.py``'s,
and FEN and ``setup`` in XBoard's terms ``xboard_fen.py``'s.
"""
import re
from typing import Dict, List, Optional, Set, Tuple

from .engine_options import CECP, LANCER_TURN_CASTLES, MISDRAWS, SETUP_NUMBER, OptionValue, default_values
from .errors import RulesError
from .guided_entry import GuidedEntry
from .moves import Move
from .position import Position
from .timeman import Budget, Clock, LagEstimate, budget
from .variant import get_variant
from .xboard_fen import restore_start_castling, setup_line, write_position_file
from .xboard_picture import XBoardPicture

_DRAG_WITH_QUEEN = re.compile(r"^([a-z][0-9]{1,2})[a-z][0-9]{1,2}q$")

TERMINATION_TEXT = {
    "checkmate": "{} mates",
    "stalemate": "Stalemate",
    "threefold_repetition": "Draw by repetition",
    "fifty_moves": "Draw by fifty-move rule",
    "insufficient_material": "Insufficient material",
}

NO_BREAK = "\u00a0"                          # joins words a message must not break apart (a FEN)


class Session(GuidedEntry):
    """The game being played; the thinker reads it and, under its lock, plays the engine's moves."""

    def __init__(self) -> None:
        self.options: Dict[str, OptionValue] = default_values(CECP)
        # The random setup last announced with `setup`, kept while no move has been made: XBoard
        # sends `new`/`variant` more than once before a game and keeps the first setup it got.
        self._announced: Optional[Tuple[str, str]] = None
        self._moved_since_setup = True
        self.lag = LagEstimate()                  # the GUI's clock beyond the engine's own measure
        self._clock_read: Optional[float] = None  # arrival of the last `time` not yet used
        # XBoard's move entry in progress: the lifted square, and the first leg's square once a
        # `put` on a cyan square has left the move open
        self._entry: Optional[Tuple[str, Optional[str]]] = None
        # XBoard 4.9.1's picture of the board (with option "Avoid moves XBoard 4.9.1 misdraws" in a
        # variant it hosts without legality testing), and the pictures before each move since
        self.picture: Optional[XBoardPicture] = None
        self._pictures: List[Optional[XBoardPicture]] = []
        self._offered: Optional[str] = None       # the FEN last offered to the user (offer_fen)
        self.reset("normal")

    def set_option(self, name: str, value: OptionValue) -> None:
        """Set one of ``options`` (by its name in ``engine_options.py``) to a value it has parsed."""
        self.options[name] = value
        if name == MISDRAWS:
            self._reset_picture()

    # ------------------------------------------------------------------ game
    def reset(self, variant: str) -> None:
        """A new game of ``variant`` (``new``, ``variant``); the clock goes back to 40 moves in 5 min."""
        self.variant = variant
        number = int(self.options[SETUP_NUMBER])
        v = get_variant(variant)
        if v.setup != "fixed" and 0 <= number < v.setup_count:
            self.pos = Position(variant, number=number)
        elif v.setup != "fixed" and self._announced and self._announced[0] == variant \
                and not self._moved_since_setup:
            self.pos = Position.from_fen(self._announced[1], variant)
        else:
            self.pos = Position(variant)
        self.force = False
        self.engine_side = 1
        self.game_over = False
        self.mps, self.base, self.inc = 40, 300.0, 0.0
        self.st: Optional[float] = None
        self.sd: Optional[int] = None
        self.nps: Optional[int] = None
        self.time_left = 300.0
        self.opp_time = 300.0
        self._predicted: Optional[float] = None   # the next `time` report the engine expects
        self.exclude: List[Move] = []
        self._reset_picture()

    def _reset_picture(self) -> None:
        """XBoard shows the position as it is (a new game, a loaded position)."""
        on = self.options[MISDRAWS] and not self.pos.variant.xboard_checks_legality
        self.picture = XBoardPicture(self.pos) if on else None
        self._pictures = []

    def _draw(self, text: str) -> None:
        """XBoard draws the move ``text`` (before the position makes it)."""
        self._pictures.append(self.picture)
        if self.picture is not None:
            self.picture = self.picture.copy()
            self.picture.draw(text)

    def setup_lines(self) -> List[str]:
        """The `setup` and `piece` lines that tell XBoard how to host this variant (none for the
        variants XBoard knows); a random setup announced here is kept until a move is made."""
        v = get_variant(self.variant)
        if not v.xboard_pieces:
            return []
        fen = self.pos.fen()
        self._announced = (self.variant, fen)
        self._moved_since_setup = False
        return [setup_line(v.name, v.xboard_parent, fen)] + list(v.xboard_piece_lines)

    def board_from_fen(self, fen: str) -> Position:
        """The position of a ``setboard``; raises RulesError for a FEN the variant does not accept.
        The position the engine last offered the user (``offer_fen``) comes back whole: XBoard
        drops what it cannot write (a push restriction, castling with a jailer or a lancer)."""
        offered = self._offered
        if offered is not None and fen.split()[:2] == offered.split()[:2]:
            return Position.from_fen(offered, self.variant)
        return restore_start_castling(Position.from_fen(fen, self.variant), fen)

    def setboard(self, pos: Position) -> List[str]:
        """``setboard``; returns the `setup` lines that make XBoard 4.9.1 show this position (see
        ``_redraw_lines``)."""
        lines = self._redraw_lines(pos)
        self.pos = pos
        self.game_over = False
        self.exclude = []
        self._reset_picture()
        return lines

    def _redraw_lines(self, pos: Position) -> List[str]:
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
        v = get_variant(self.variant)
        if not v.xboard_pieces or self._announced is None or self._moved_since_setup \
                or self._announced[0] != self.variant or pos.stm != 0:
            return []
        fen = pos.fen()
        if fen.split()[0] == self._announced[1].split()[0]:
            return []
        other = "lion" if v.xboard_parent != "lion" else "fairy"
        return [setup_line(v.name, other, fen), setup_line(v.name, v.xboard_parent, fen)]

    def set_side_to_move(self, side: int) -> bool:
        """Legacy ``white``/``black``: ``side`` moves, the engine plays the other side.  False when
        the position cannot have that side to move."""
        self.force = False
        self.engine_side = 1 - side
        if self.pos.stm != side:
            fields = self.pos.fen().split()
            fields[1] = "wb"[side]
            fields[3] = "-"
            try:
                self.pos = Position.from_fen(" ".join(fields[:6]), self.variant)
            except RulesError:
                return False
            self._reset_picture()
        return True

    def push_user_move(self, text: str) -> Optional[str]:
        """Raises RulesError for an illegal move (the position stays).  Returns the notice for a
        move XBoard 4.9.1 draws wrong (``misdrawn_notice``), if any."""
        move = self.pos.parse_text(text)
        before = self.picture.differences(self.pos) if self.picture is not None else set()
        self._draw(text)
        self.pos.push(move)
        self._moved_since_setup = True
        self.exclude = []
        if self.picture is None:
            return None
        return self.misdrawn_notice(before, self.picture.differences(self.pos))

    def refusal_hint(self, text: str) -> Optional[str]:
        """Why XBoard sent an illegal move, where the GUI and not the player is to blame: XBoard
        4.9.1 (with its default -sweepPromotions) appends its default promotion piece ``q`` to a
        lancer dragged onto a square marked for choosing the facing (see ``lift``)."""
        drag = _DRAG_WITH_QUEEN.match(text)
        v = self.pos.variant
        frm = v.by_name.get(drag.group(1)) if drag else None
        if frm is None or v.facing[self.pos.board[frm]] < 0:
            return None
        try:
            self.pos.parse_move(text[:-1])
        except RulesError:
            return None
        return ("A lancer cannot be dragged in XBoard. Click it, then press on its destination and "
                "pull up or down until it faces the way you want, and release. Or type the move with "
                f"its facing, e.g. {text[:-1]}c (facing north).")

    def play_engine_move(self, move: Move, start: float, now: float, clock_reported: bool) -> str:
        """Play the engine's move; its clock is charged from ``start`` to ``now`` (perf_counter)
        until the GUI's next ``time`` report says better.  Returns the move's text."""
        text = self.pos.move_text(move)
        made = self.pos.fullmove            # the engine's moves including this one
        self._draw(text)
        self.pos.push(move)
        self._moved_since_setup = True
        if self.st is None and self.nps is None:
            self.time_left += self.inc - (now - start)
            if self.mps and made % self.mps == 0:
                self.time_left += self.base
            self._predicted = self.time_left if clock_reported else None
        return text

    def go(self) -> Optional[str]:
        """``go``: the engine plays the side to move.  The result line if the game is already over
        (then there is nothing to think about)."""
        self.force = False
        self.engine_side = self.pos.stm
        if self.pos.outcome() is not None:
            return self.claim()
        self.game_over = False
        return None

    def playother(self) -> None:
        self.force = False
        self.engine_side = 1 - self.pos.stm

    def set_exclusion(self, moves: List[Move], exclude: bool) -> None:
        """``exclude``/``include``: root moves analysis leaves out."""
        if exclude:
            self.exclude = list(dict.fromkeys(self.exclude + moves))
        else:
            self.exclude = [m for m in self.exclude if m not in moves]

    def take_back(self, plies: int) -> bool:
        """``undo`` (1) or ``remove`` (2); False when fewer moves were made."""
        if self.pos.ply < plies:
            return False
        for _ in range(plies):
            self.pos.pop()
            if self._pictures:
                self.picture = self._pictures.pop()
        self.game_over = False
        self.exclude = []
        return True

    def claim(self) -> Optional[str]:
        """The result line to send when the game is over (not in force mode); marks it over."""
        if self.force:
            return None
        outcome = self.pos.outcome()
        if outcome is None:
            return None
        self.game_over = True
        text = TERMINATION_TEXT[outcome.termination]
        if outcome.termination == "checkmate":
            text = text.format("White" if outcome.winner == "w" else "Black")
        return f"{outcome.result} {{{text}}}"

    def engine_to_move(self) -> bool:
        return not self.force and not self.game_over and self.pos.stm == self.engine_side

    def avoided_moves(self) -> Tuple[Move, ...]:
        """Legal moves the engine does not play while it has others: castles that turn the lancer
        (XBoard relays them without the turn, XBOARD.md) unless option "Castle With Lancer Turn"
        allows them, and with XBoard 4.9.1's picture (``picture``) the moves it cannot show: those it
        would draw wrong, and first of all those it would not take (a move of a unit it lost)."""
        turns = not self.options[LANCER_TURN_CASTLES] and self.pos.variant.has_lancers
        pos = self.pos
        legal = pos.legal_moves()
        avoided = {m for m in legal if pos.castle_turns_partner(m)} if turns else set()
        if self.picture is not None:
            shown, taken = self._showable(legal)
            best = shown or taken                   # what XBoard shows right, else what it takes
            preferred = [m for m in best if m not in avoided] or best   # and no lancer turn if it can
            avoided = set(legal) - set(preferred)
        return tuple(m for m in legal if m in avoided) if len(avoided) < len(legal) else ()

    def _showable(self, legal: List[Move]) -> Tuple[List[Move], List[Move]]:
        """Of ``legal``, the moves XBoard's picture shows right (no square it shows wrong that it
        showed right before) and the moves it takes at all (the engine's unit is there)."""
        pos, picture = self.pos, self.picture
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

    def stuck_notice(self) -> Optional[str]:
        """When XBoard's picture has lost every unit the engine could move (XBoard would drop any
        move it sends, and the game would stand still with the engine's clock running): what the
        user can do instead.  None when the engine can move."""
        if self.picture is None or not self.engine_to_move():
            return None
        legal = self.pos.legal_moves()
        if not legal or self._showable(legal)[1]:
            return None
        return ("XBoard's board no longer shows this game, and it would ignore any move I make. "
                "Resign (Action > Resign), or to play on, " + self.position_note())

    def misdrawn_notice(self, before: Set[str], after: Set[str]) -> Optional[str]:
        """The `telluser` text when XBoard 4.9.1 drew the GUI's move wrong (squares in ``after``
        that were not in ``before``): the true position, once per game that goes wrong."""
        if after <= before:
            return None
        wrong = ", ".join(sorted(after - before))
        if before:
            return f"XBoard now also shows {wrong} wrong."
        return (f"XBoard cannot show this move: its board is now wrong on {wrong}. I will play "
                "only moves it can show. To see the true position, " + self.position_note())

    def position_note(self) -> str:
        """How the user gets the true position into XBoard 4.9.1: its FEN as XBoard reads it
        (``offer_fen``), also written to a file when that can be done (a popup's text cannot be
        copied).  A mid-game Load Position with Black to move fails in 4.9.1 unless File > New
        Game comes first, and after it XBoard is in Edit Game mode."""
        fen = self.offer_fen()
        path = write_position_file(fen)
        where = f"the file {path}" if path else "a file holding the position below"
        side = "White" if self.pos.stm == 0 else "Black"
        return (f"choose File > New Game, then File > Load Position with {where}, then Mode > "
                f"Machine {side}. The position: " + fen.replace(" ", NO_BREAK))

    def offer_fen(self) -> str:
        """The position's FEN without the push restriction's 7th field, which XBoard cannot read;
        a ``setboard`` of it restores the field (``board_from_fen``)."""
        full = self.pos.fen()
        self._offered = full
        return " ".join(full.split()[:6])

    # ------------------------------------------------------------------ clocks
    def set_level(self, mps: int, base: float, inc: float) -> None:
        self.mps, self.base, self.inc = mps, base, inc
        self.st = None
        self.time_left = self.opp_time = base
        self._predicted = None

    def set_time(self, centiseconds: int, arrived: float) -> None:
        """The GUI's ``time``: the engine's clock, read at ``arrived`` (perf_counter)."""
        self.time_left = max(0, centiseconds) / 100.0
        self._clock_read = arrived
        if self._predicted is not None:
            self.lag.update(self._predicted, self.time_left)
            self._predicted = None

    def think_start(self, arrived: float) -> Tuple[float, bool]:
        """When the clock of a search started by a command that arrived at ``arrived`` began: at the
        `time` report sent before it if there was one (the GUI's clock was already running).  Also
        whether the clock came from such a report."""
        if self._clock_read is None:
            return arrived, False
        start = min(arrived, self._clock_read)
        self._clock_read = None
        return start, True

    def budget(self) -> Budget:
        """Soft and hard limits of the next move (timeman)."""
        clock = Clock(self.mps, self.base, self.inc, self.st)
        return budget(clock, self.time_left, self.pos.fullmove - 1, self.lag.value)




def board_lines(pos: Position) -> List[str]:
    """A plain-text board for people using the engine in a terminal."""
    v = pos.variant
    files = "abcdefghijklmnopqrstuvwxyz"[:v.files]
    lines = []
    for rank in range(v.ranks, 0, -1):
        cells = [pos.piece_at(f"{f}{rank}") or "." for f in files]
        lines.append(f"{rank:>2} " + " ".join(cells))
    lines.append("   " + " ".join(files))
    lines.append(f"fen {pos.fen()}")
    lines.append(f"variant {v.name}, {'white' if pos.stm == 0 else 'black'} to move")
    return lines
