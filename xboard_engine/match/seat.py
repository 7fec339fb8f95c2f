"""An engine playing one seat of a game move by move, for whoever hosts the game: the web app's
boards (a CECP or UCI engine the server was started with, ``--engine``/``--uci-engine``) and the bot
client (an engine playing on a server through a bot account).  Driven by the tournament runner's
engine code in a worker thread: one engine process per seat, started at its first move and told the
game so far (so a restart loses nothing), quit when the game ends."""
import time
from typing import Callable, List, NamedTuple, Optional, Tuple, Union

from ..core.errors import RulesError
from ..core.moves import Move
from ..core.position import Position
from ..search.score import Score
from ..time_control import TimeControl
from .engines import EngineClient, EngineConfig, EngineFailure, UciClient, start_engine
from .referee import failure_ending, judge_reply, loss, uci_go_line, uci_tokens

Ending = Tuple[str, str, str]          # result, PGN termination, reason


class Turn(NamedTuple):
    """What an engine needs of the game to move, copied on the server's loop."""
    variant: str
    start_fen: str
    custom_start: bool
    moves: List[str]
    pos: Position
    side: int
    tc: TimeControl
    clocks: List[float]                 # seconds left, both sides (empty without a clock)
    moves_done: List[int]


class EngineSeat:
    """An outside engine playing one seat."""

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.engine: Optional[EngineClient] = None
        self.known = 0                      # plies a CECP engine has been told

    def move(self, turn: Turn, report: Optional[Callable[[int, Score, List[str], bool], None]] = None
             ) -> Union[str, Ending]:
        """The engine's move (coordinate text), or the end its reply or failure brings (blocking);
        ``report(depth, score, pv tokens, uci)`` hears each line it thinks aloud."""
        side = turn.side
        try:
            if self.engine is None:
                self.engine = start_engine(self.config)
                uci = isinstance(self.engine, UciClient)
                told = [] if uci else list(turn.moves)
                self.engine.new_game(turn.variant, turn.start_fen if turn.custom_start else None, told,
                                     turn.tc.xboard_commands())
                self.known = len(told)
            engine = self.engine
            uci = isinstance(engine, UciClient)
            engine.on_info = (lambda depth, score, pv: report(depth, score, pv, uci)) if report else None
            clocks = turn.clocks or [0.0, 0.0]
            started = time.monotonic()
            budget = turn.tc.budget(clocks[side], uci)
            if uci:
                reply = engine.play_uci(uci_tokens(turn.variant, turn.start_fen, turn.moves),
                                        uci_go_line((turn.tc, turn.tc), side, clocks, turn.moves_done),
                                        started + budget)
            else:
                last = turn.moves[-1] if len(turn.moves) > self.known else None
                mine, theirs = (clocks[side], clocks[1 - side]) if turn.clocks else (None, None)
                reply = engine.play(last, mine, theirs, started + budget)
        except EngineFailure as failure:
            self.close()
            if failure.kind == "stall":
                return loss(side, "time forfeit", f"{('White', 'Black')[side]} loses on time")
            return failure_ending(side, failure)
        finally:
            if self.engine is not None:
                self.engine.on_info = None
        judged = judge_reply(turn.pos, reply, uci)
        if not isinstance(judged, Move):
            self.close()
            return judged
        self.known = len(turn.moves) + 1
        return turn.pos.move_text(judged)

    def close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.quit()
            except Exception:
                pass


def line_words(pos: Position, side: int, depth: int, score: Score, pv: List[str], uci: bool
               ) -> Tuple[int, str, List[str]]:
    """An engine's line as the pages show it: depth, the score from White's side ("+0.35", or
    "#3" / "#-2" for a mate in moves) and the first dozen moves in SAN (from ``pos``, where the
    engine is to move).  ``score`` is from the engine's side, as the tournament runner reads it."""
    sans = []
    board = pos.copy()
    for token in pv[:12]:
        try:
            move = board.parse_uci(token) if uci else board.parse_text(token)
        except RulesError:
            break
        sans.append(board.san(move))
        board.push(move)
    return depth, score.for_white(side).page_text(), sans
