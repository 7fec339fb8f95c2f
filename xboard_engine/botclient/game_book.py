"""What the bot knows of one game from the server's messages."""
import asyncio
from typing import Any, Dict, List, Optional

from ..core.errors import RulesError
from ..core.moves import Move
from ..core.position import Position
from ..core.variant import get_variant
from ..match.seat import Turn
from ..time_control import parse_time_control



class GameBook:
    """What the bot knows of one game from the server's messages: its settings, and the moves so
    far replayed on the rules core (the ``state`` messages give SANs and FENs)."""

    def __init__(self, hello: Dict[str, Any], seat: int) -> None:
        config = hello.get("config") or {}
        self.seat = seat
        self.variant = str(config.get("variant", "normal"))
        tc_text = str(config.get("tc", "none"))
        self.has_clock = tc_text != "none" and not tc_text.startswith(("st=", "depth="))
        self.tc = parse_time_control(tc_text if tc_text != "none" else "st=1")   # as the server's table
        self.custom_start = bool(config.get("fen")) or get_variant(self.variant).setup != "fixed"
        self.first_move_limit = float(hello.get("firstMove") or 0.0)
        self.start_fen = ""
        self.pos: Optional[Position] = None
        self.moves: List[str] = []
        self.sans: List[str] = []
        self.thinking: Optional["asyncio.Future[Any]"] = None
        self.moved_at = -1                  # the ply the bot last thought at
        self.answered_draw_at = -1
        self.answered_takeback_at = -1

    def follow(self, fens: List[str], sans: List[str]) -> None:
        """The game's moves as coordinates, from the state's FENs and SANs (raises RulesError)."""
        if not fens:
            raise RulesError("the state has no position")
        if fens[0] != self.start_fen or sans[:len(self.sans)] != self.sans or self.pos is None:
            self.start_fen = fens[0]
            self.pos = Position.from_fen(fens[0], self.variant)
            self.moves, self.sans = [], []
        for ply in range(len(self.sans), len(sans)):
            move = self._find(sans[ply], fens[ply + 1] if ply + 1 < len(fens) else None)
            self.moves.append(self.pos.move_text(move))
            self.pos.push(move)
            self.sans.append(sans[ply])

    def _find(self, san: str, fen_after: Optional[str]) -> Move:
        assert self.pos is not None
        pos = self.pos
        try:
            move: Optional[Move] = pos.parse_san(san)
        except RulesError:
            move = None
        candidates = ([move] if move is not None else []) + list(pos.legal_moves())
        for m in candidates:
            if fen_after is None:
                return m
            pos.push(m)
            fen = pos.fen()
            pos.pop()
            if fen == fen_after:
                return m
        raise RulesError(f"the move {san!r} does not follow from the position")

    def turn(self, state: Dict[str, Any]) -> Any:
        """The engine's ``Turn`` now: the game so far, and the clocks as the state gives them."""
        assert self.pos is not None
        start_side = Position.from_fen(self.start_fen, self.variant).stm
        done = [0, 0]
        for ply in range(len(self.moves)):
            done[(start_side + ply) % 2] += 1
        clocks: List[float] = []
        if self.has_clock:
            clocks = [float(c) for c in (state.get("clocks") or [0.0, 0.0])[:2]]
            if self.first_move_limit and not done[self.seat]:
                # The server aborts a game whose first move is late: the engine sees a clock it
                # spends well inside that limit.
                clocks[self.seat] = min(clocks[self.seat], self.first_move_limit * 10)
        return Turn(self.variant, self.start_fen, self.custom_start, list(self.moves), self.pos.copy(),
                    self.seat, self.tc, clocks, done)
