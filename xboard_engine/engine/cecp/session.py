"""A game session as the GUI describes it: the position, who plays which side, result claims, the
clocks as the GUI reports them, undo, setboard and the announcement of random setups.

Nothing here reads or writes protocol text except the few lines the GUI must receive verbatim
(``setup``/``piece`` announcements, result claims), which are returned, not sent.  XBoard's guided
move entry (``lift``, ``put``) is ``guided_entry.py``'s, the engine's options ``engine_options.py``'s,
FEN and ``setup`` in XBoard's terms ``xboard_fen.py``'s, and what exists only because of how XBoard
behaves (the random setup kept for it, its picture of the board, its FEN round trips)
``xboard_view.py``'s.
"""
from typing import Dict, List, Optional, Tuple

from ...core.errors import RulesError
from ...core.moves import Move
from ...core.position import Position
from ...core.variant import get_variant
from ...search.timeman import Budget, LagEstimate, budget
from ...time_control import TimeControl
from ..options import CECP, LANCER_TURN_CASTLES, MISDRAWS, SETUP_NUMBER, OptionValue, default_values
from ..xboard.guided_entry import GuidedEntry
from ..xboard.view import XBoardView, refusal_hint

TERMINATION_TEXT = {
    "checkmate": "{} mates",
    "stalemate": "Stalemate",
    "threefold_repetition": "Draw by repetition",
    "fifty_moves": "Draw by fifty-move rule",
    "insufficient_material": "Insufficient material",
}


class Session(GuidedEntry):
    """The game being played; the thinker reads it and, under its lock, plays the engine's moves."""

    def __init__(self) -> None:
        self.options: Dict[str, OptionValue] = default_values(CECP)
        self.xboard = XBoardView()                # what XBoard shows of the game
        self.lag = LagEstimate()                  # the GUI's clock beyond the engine's own measure
        self._clock_read: Optional[float] = None  # arrival of the last `time` not yet used
        # XBoard's move entry in progress: the lifted square, and the first leg's square once a
        # `put` on a cyan square has left the move open
        self._entry: Optional[Tuple[str, Optional[str]]] = None
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
        elif v.setup != "fixed" and self.xboard.announced_start(variant) is not None:
            self.pos = Position.from_fen(str(self.xboard.announced_start(variant)), variant)
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
        self.xboard.reset(self.pos, bool(self.options[MISDRAWS]))

    def setup_lines(self) -> List[str]:
        """The `setup` and `piece` lines that tell XBoard how to host this variant (``xboard_view``)."""
        return self.xboard.setup_lines(self.pos)

    def board_from_fen(self, fen: str) -> Position:
        """The position of a ``setboard``; raises RulesError for a FEN the variant does not accept."""
        return self.xboard.position_from_fen(fen, self.variant)

    def setboard(self, pos: Position) -> List[str]:
        """``setboard``; returns the `setup` lines that make XBoard 4.9.1 show this position."""
        lines = self.xboard.redraw_lines(self.variant, pos)
        self.pos = pos
        self.game_over = False
        self.exclude = []
        self._reset_picture()
        return lines

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
        before = self.xboard.wrong_squares(self.pos)
        self.xboard.draw(text)
        self.pos.push(move)
        self.exclude = []
        return self.xboard.misdrawn_notice(self.pos, before)

    def refusal_hint(self, text: str) -> Optional[str]:
        """Why XBoard sent an illegal move, where the GUI is to blame (``xboard_view``)."""
        return refusal_hint(self.pos, text)

    def play_engine_move(self, move: Move, start: float, now: float, clock_reported: bool) -> str:
        """Play the engine's move; its clock is charged from ``start`` to ``now`` (perf_counter)
        until the GUI's next ``time`` report says better.  Returns the move's text."""
        text = self.pos.move_text(move)
        made = self.pos.fullmove            # the engine's moves including this one
        self.xboard.draw(text)
        self.pos.push(move)
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
            self.xboard.take_back()
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
        if self.xboard.picture is not None:
            avoided = self.xboard.preferred(pos, legal, avoided)
        return tuple(m for m in legal if m in avoided) if len(avoided) < len(legal) else ()

    def stuck_notice(self) -> Optional[str]:
        """When XBoard's picture has lost every unit the engine could move: what the user can do
        instead (``xboard_view``).  None when the engine can move."""
        if not self.engine_to_move():
            return None
        return self.xboard.stuck_notice(self.pos)

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
        clock = TimeControl(moves=self.mps, base=self.base, inc=self.inc, st=self.st)
        return budget(clock, self.time_left, self.pos.fullmove - 1, self.lag.value)
