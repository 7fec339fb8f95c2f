"""The referee: plays one game between two engine processes and certifies its result.

Every move is checked by the rules core; clocks are measured here.  An illegal move, a crash, a stall
or a time loss ends the game with the right result and a PGN ``Termination`` tag.
"""
import datetime
import time
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

from ..core.errors import RulesError
from ..core.moves import Move
from ..core.position import Position
from ..search.score import Score
from ..time_control import TimeControl
from .engines import EngineClient, EngineConfig, EngineFailure, Reply, UciClient, CecpClient, start_engine
from .keeper import EngineKeeper


class Adjudication(NamedTuple):
    """cutechess-cli's ``-draw`` and ``-resign`` rules and ``-maxmoves``."""
    draw_movenumber: Optional[int] = None
    draw_movecount: int = 0
    draw_score: int = 0
    resign_movecount: Optional[int] = None
    resign_score: int = 0
    resign_twosided: bool = False
    maxmoves: Optional[int] = None


class GameRecord(NamedTuple):
    white: str
    black: str
    variant: str
    start_fen: Optional[str]          # None: the variant's standard start
    moves: List[str]                  # coordinate texts
    sans: List[str]
    result: str                       # 1-0 0-1 1/2-1/2 *
    termination: str                  # PGN Termination tag value
    reason: str                       # human-readable, e.g. "White mates"
    time_control: str
    event: str = "?"
    round: str = "1"
    date: str = ""
    opening_plies: int = 0
    move_seconds: Tuple[float, ...] = ()
    engine_failure: Optional[str] = None      # "crash" / "stall" when an engine died: for -recover
    time_control_black: str = ""              # when Black's time control differs from White's
    depths: Tuple[Tuple[int, ...], Tuple[int, ...]] = ((), ())   # White's and Black's reported depths


def play_game(white: EngineConfig, black: EngineConfig, variant: str, tc: TimeControl,
              tc_black: Optional[TimeControl] = None, start_fen: Optional[str] = None,
              opening: Sequence[str] = (), adjudication: Adjudication = Adjudication(),
              event: str = "?", round_label: str = "1", keeper: Optional[EngineKeeper] = None) -> GameRecord:
    """Play one game and return its record; never raises for engine misbehaviour.  With a
    ``keeper`` the engines come from it and go back to it (``keeper.py``), else they are started for
    this game and quit at its end."""
    referee = _Game(white, black, variant, tc, tc_black or tc, start_fen, opening, adjudication, keeper)
    return referee.run(event, round_label)


# Terminations that say the loser's engine misbehaved: it is not kept for another game.
ENGINE_FAULTS = ("time forfeit", "rules infraction", "abandoned", "stalled connection")


class _Game:
    def __init__(self, white: EngineConfig, black: EngineConfig, variant: str, tc: TimeControl,
                 tc_black: TimeControl, start_fen: Optional[str], opening: Sequence[str],
                 adjudication: Adjudication, keeper: Optional[EngineKeeper] = None) -> None:
        self.configs = (white, black)
        self.keeper = keeper
        self.variant = variant
        self.tcs = (tc, tc_black)
        self.adjudication = adjudication
        self.pos = Position.from_fen(start_fen, variant) if start_fen else Position(variant)
        self.start_fen = start_fen
        self.moves: List[str] = []
        self.sans: List[str] = []
        for text in opening:
            move = self.pos.push_text(text)
            self.pos.pop()
            self.sans.append(self.pos.san(move))
            self.moves.append(self.pos.move_text(move))
            self.pos.push(move)
        self.opening_plies = len(self.moves)
        self.engines: List[Optional[EngineClient]] = [None, None]
        self.draw_count = 0
        self.losing = [0, 0]
        self.winning = [0, 0]
        self.seconds: List[float] = []
        self.depths: Tuple[List[int], List[int]] = ([], [])
        self.failure: Optional[str] = None

    def run(self, event: str, round_label: str) -> GameRecord:
        ended = False
        result, termination, reason = "*", "", ""
        try:
            result, termination, reason = self._play()
            ended = True
        finally:
            for side, engine in enumerate(self.engines):
                if engine is None:
                    continue
                if self.keeper is None:
                    engine.quit()
                    continue
                loser = {"1-0": 1, "0-1": 0}.get(result)
                failed = not ended or (side == loser and termination in ENGINE_FAULTS)
                self.keeper.release(engine, result, reason, failed)
        names = [c.name for c in self.configs]
        standard = self.start_fen is None and self.pos.variant.setup == "fixed"
        start = None if standard else (self.start_fen or self._start_position_fen())
        return GameRecord(names[0], names[1], self.variant, start, self.moves, self.sans, result,
                          termination, reason, self.tcs[0].pgn(), event, round_label,
                          datetime.date.today().strftime("%Y.%m.%d"), self.opening_plies,
                          tuple(self.seconds), self.failure,
                          self.tcs[1].pgn() if self.tcs[1] != self.tcs[0] else "",
                          (tuple(self.depths[0]), tuple(self.depths[1])))

    def _start_position_fen(self) -> str:
        return self.pos.root_fen()

    def _play(self) -> Tuple[str, str, str]:
        colours = ("White", "Black")
        start_fen = self._start_position_fen()
        level = self.tcs
        for side in (0, 1):
            try:
                fen = None if self._is_standard_start(start_fen) else start_fen
                self._start_game(side, fen, level[side].xboard_commands())
            except EngineFailure as failure:
                return self._forfeit(side, failure)
        clocks = [self.tcs[0].base, self.tcs[1].base]
        moves_played = [0, 0]
        last_move: Optional[str] = None
        while True:
            outcome = self.pos.outcome()
            if outcome is not None:
                return outcome.result, "normal", outcome_reason(outcome)
            adjudicated = self._adjudicate()
            if adjudicated:
                return adjudicated
            side = self.pos.stm
            engine = self.engines[side]
            assert engine is not None
            tc = self.tcs[side]
            uci = isinstance(engine, UciClient)
            budget = tc.budget(clocks[side], uci)
            if uci:         # the referee's own work, done before the engine's clock starts
                uci_moves = uci_tokens(self.variant, self._start_position_fen(), self.moves)
                uci_go = uci_go_line(self.tcs, side, clocks, moves_played)
            started = time.monotonic()
            try:
                if isinstance(engine, UciClient):
                    reply = engine.play_uci(uci_moves, uci_go, started + budget)
                elif tc.has_clock:
                    reply = engine.play(last_move, clocks[side], clocks[1 - side], started + budget)
                else:
                    reply = engine.play(last_move, None, None, started + budget)
            except EngineFailure as failure:
                if failure.kind == "stall":
                    return self._loss(side, "time forfeit", f"{colours[side]} loses on time")
                return self._forfeit(side, failure)
            elapsed = time.monotonic() - started
            self.seconds.append(round(elapsed, 3))
            if tc.has_clock:
                if clocks[side] - elapsed < -tc.margin:
                    return self._loss(side, "time forfeit", f"{colours[side]} loses on time")
                moves_played[side] += 1
                clocks[side] = tc.charge(clocks[side], elapsed, moves_played[side])
            elif tc.st is not None and elapsed > budget:
                return self._loss(side, "time forfeit", f"{colours[side]} loses on time")
            move = judge_reply(self.pos, reply, uci)
            if not isinstance(move, Move):
                return move
            self.sans.append(self.pos.san(move))
            text = self.pos.move_text(move)
            self.moves.append(text)
            irreversible = self.pos.is_zeroing(move)
            self.pos.push(move)
            if engine.last_depth is not None:
                self.depths[side].append(engine.last_depth)
            self._count_scores(side, engine.last_score, irreversible)
            last_move = text

    def _start_game(self, side: int, fen: Optional[str], level: List[str]) -> None:
        """Start (or take from the keeper) ``side``'s engine and set the game up in it.  A kept
        engine that fails at this is replaced by a new one before the game is forfeited."""
        config = self.configs[side]

        def set_up(engine: EngineClient) -> None:
            self.engines[side] = engine
            engine.new_game(self.variant, fen, self.moves if isinstance(engine, CecpClient) else [], level)

        kept = self.keeper is not None and self.keeper.has(config)
        engine = self.keeper.acquire(config) if self.keeper is not None else start_engine(config)
        try:
            set_up(engine)
        except EngineFailure:
            if not kept:
                raise
            engine.quit()
            self.engines[side] = None
            set_up(start_engine(config))

    def _is_standard_start(self, fen: str) -> bool:
        v = self.pos.variant
        return v.setup == "fixed" and fen == v.start_fen and not self.start_fen

    def _count_scores(self, side: int, score: Optional[Score], irreversible: bool) -> None:
        """cutechess-cli's counters: a move without a score, or a capture or pawn move (draw rule),
        resets them."""
        rules = self.adjudication
        if score is None or irreversible or score.beyond(rules.draw_score):
            self.draw_count = 0
        else:
            self.draw_count += 1
        if score is not None and score.at_most(-rules.resign_score):
            self.losing[side] += 1
        else:
            self.losing[side] = 0
        if score is not None and score.at_least(rules.resign_score):
            self.winning[side] += 1
        else:
            self.winning[side] = 0

    def _adjudicate(self) -> Optional[Tuple[str, str, str]]:
        rules = self.adjudication
        plies = len(self.moves)
        if rules.maxmoves is not None and plies >= 2 * rules.maxmoves:
            return "1/2-1/2", "adjudication", "Draw by maximum game length"
        if rules.draw_movenumber is not None and rules.draw_movecount > 0 \
                and self.pos.fullmove > rules.draw_movenumber and self.draw_count >= 2 * rules.draw_movecount:
            return "1/2-1/2", "adjudication", "Draw by adjudication"
        if rules.resign_movecount:
            for side, colour in ((0, "White"), (1, "Black")):
                losing = self.losing[side] >= rules.resign_movecount
                if losing and rules.resign_twosided:
                    losing = self.winning[1 - side] >= rules.resign_movecount
                if losing:
                    return self._loss(side, "adjudication", f"{colour} resigns (adjudication)")
        return None

    def _loss(self, side: int, termination: str, reason: str) -> Tuple[str, str, str]:
        return loss(side, termination, reason)

    def _forfeit(self, side: int, failure: EngineFailure) -> Tuple[str, str, str]:
        self.failure = failure.kind
        return failure_ending(side, failure)


def loss(side: int, termination: str, reason: str) -> Tuple[str, str, str]:
    """(result, PGN termination, reason) of a game lost by ``side`` (0 White, 1 Black)."""
    return ("0-1" if side == 0 else "1-0"), termination, reason


def judge_reply(pos: Position, reply: Reply, uci: bool) -> Union[Move, Tuple[str, str, str]]:
    """The legal move an engine's reply names in ``pos``, or the game's end it brings (result,
    PGN termination, reason): a resignation, a false claim, a protocol error, an illegal move."""
    side = pos.stm
    colour = ("White", "Black")[side]
    if reply.kind == "resign":
        return loss(side, "normal", f"{colour} resigns")
    if reply.kind == "claim":
        return loss(side, "rules infraction", f"{colour} makes an invalid result claim: {reply.text[:60]}")
    if reply.kind != "move":
        return loss(side, "rules infraction", f"{colour} protocol error: {reply.text[:60]}")
    try:
        return pos.parse_uci(reply.text) if uci else pos.parse_move(reply.text)
    except RulesError:
        return loss(side, "rules infraction", f"{colour} makes an illegal move: {reply.text[:40]}")


def failure_ending(side: int, failure: EngineFailure) -> Tuple[str, str, str]:
    """(result, PGN termination, reason) when ``side``'s engine crashed, stalled or broke the protocol."""
    colour = ("White", "Black")[side]
    if failure.kind == "crash":
        return loss(side, "abandoned", f"{colour} disconnects: {failure}")
    if failure.kind == "stall":
        return loss(side, "stalled connection", f"{colour}'s connection stalls: {failure}")
    return loss(side, "abandoned", f"{colour}: {failure}")


def uci_tokens(variant: str, start_fen: str, moves: Sequence[str]) -> List[str]:
    """The game's moves (coordinate texts from ``start_fen``) as UCI tokens (Chess960 castles as
    king takes rook)."""
    pos = Position.from_fen(start_fen, variant)
    out = []
    for text in moves:
        move = pos.parse_move(text)
        out.append(pos.uci_text(move))
        pos.push(move)
    return out


def uci_go_line(tcs: Sequence[TimeControl], side: int, clocks: Sequence[float],
                moves_played: Sequence[int]) -> str:
    """The ``go`` command for ``side`` under the time controls ``tcs`` (White's, Black's)."""
    tc = tcs[side]
    if tc.st is not None:
        return f"go movetime {int(tc.st * 1000)}"
    parts = ["go"]
    if tc.depth:
        parts.append(f"depth {tc.depth}")
    if tc.nodes:
        parts.append(f"nodes {tc.nodes}")
    if not tc.infinite and (tc.base or tc.inc):
        parts += [f"wtime {max(1, int(clocks[0] * 1000))}", f"btime {max(1, int(clocks[1] * 1000))}",
                  f"winc {int(tcs[0].inc * 1000)}", f"binc {int(tcs[1].inc * 1000)}"]
        if tc.moves:
            parts.append(f"movestogo {tc.moves - moves_played[side] % tc.moves}")
    elif len(parts) == 1:
        parts.append("infinite" if tc.infinite else "depth 1")
    return " ".join(parts)


def outcome_reason(outcome) -> str:
    """The words for a game end the rules core found (``Position.outcome()``)."""
    if outcome.termination == "checkmate":
        return f"{'White' if outcome.winner == 'w' else 'Black'} mates"
    return {"stalemate": "Draw by stalemate", "threefold_repetition": "Draw by 3-fold repetition",
            "fifty_moves": "Draw by fifty moves rule", "insufficient_material": "Draw by insufficient mating material"
            }[outcome.termination]
