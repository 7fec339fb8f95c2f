"""The state of one 8 Player Chess bot search (``bots.py``): a copy of the game's position, the
sides, points and checkmates counted along the searched line, the node count and the clock, and the
moves that change them: ``make``/``unmake`` (a capture scores its points; a king taken puts its owner
out, E4.4) and ``eliminate_stuck`` (a seat without a legal move goes out with the referee's points).

``SearchState`` is the base of the evaluation (``bot_evaluation``), the move ordering
(``bot_ordering``) and the searches (``bot_search``).
"""
import random
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from ...core.errors import SearchStopped
from ...core.moves import CASTLE, EP, Move
from ..modes import Mode, mode_of
from ..position import MultiPosition
from ..rules import CHECKMATED, GREY, KING, KING_CAPTURED, OFF, STALEMATED
from .values import unit_tables


class SearchState:
    """The position and the counts of one search from one game position for the seat to move (the
    root), with the clock and make/unmake (see ``Search`` in ``bot_search`` for the searches)."""

    def __init__(self, game: Any, algorithm: str, deadline: Optional[float], stop_flag: threading.Event,
                 rng: random.Random) -> None:
        self.game = game
        self.pos: MultiPosition = game.position.copy()
        pos = self.pos
        self.v = v = pos.v
        self.root = root = pos.turn
        self.algorithm = algorithm
        self.deadline = deadline
        self.stop_flag = stop_flag
        self.rng = rng
        self.values = list(getattr(game, "values", v.values))
        self.mode: Mode = mode_of(game)
        # Points decide (Singles, Pairs), or the teams' checkmates (Teams): read at every leaf.
        self.points_decide = self.mode.points_decide
        self.side = list(getattr(game, "teams", pos.teams))         # side key per seat
        self.my_key = self.side[root]
        self.mine = [s for s in range(v.players) if self.side[s] == self.my_key]
        self.enemy_keys = sorted({self.side[s] for s in range(v.players) if self.side[s] != self.my_key})
        self.groups = {key: [s for s in range(v.players) if self.side[s] == key] for key in set(self.side)}
        self.points = list(getattr(game, "scores", [0] * v.players))
        # Positions the game has seen at the start of a turn: a third time ends it drawn.
        self.seen: Dict[int, int] = getattr(game, "seen", {})
        # Checkmated members per side (Teams counts them; resignations count there too).
        self.mated = {key: 0 for key in self.groups}
        if not self.points_decide:
            for t, members in enumerate(v.teams):
                self.mated[self.side[members[0]]] = game.team_mates[t]
        self.needed = getattr(game, "needed", v.team_checkmates)
        # Friends: units that defend the bot's side (own and partners'/teammates').
        self.friend_table = [False] * (OFF + 1)
        for s in self.mine:
            for kind in range(1, 8):
                self.friend_table[s * 8 + kind] = True
        # Each seat's own units (which seat attacks a square).
        self.own_tables = []
        for s in range(v.players):
            table = [False] * (OFF + 1)
            for kind in range(1, 8):
                table[s * 8 + kind] = True
            self.own_tables.append(table)
        self.tables = unit_tables(v)
        self.knight_steps = frozenset(v.knight)
        self.diagonal_steps = frozenset(v.diagonal)
        self.orthogonal_steps = frozenset(v.orthogonal)
        self.nodes = 0
        self.undo: List[Tuple[int, int, int, Optional[Tuple[Any, ...]]]] = []
        self.killers: List[List[Optional[Move]]] = [[None, None] for _ in range(128)]
        self.history: Dict[Tuple[int, int], int] = {}
        self.pv: List[List[Tuple[int, Move]]] = [[] for _ in range(130)]

    # ------------------------------------------------------------------ clock
    def tick(self) -> None:
        """Count a node and look at the clock and the stop flag (both cheap next to a node)."""
        self.nodes += 1
        if self.stop_flag.is_set() or (self.deadline is not None and time.perf_counter() >= self.deadline):
            raise SearchStopped()

    # ------------------------------------------------------------------ make / unmake
    def make(self, m: Move) -> None:
        """Push ``m`` for the seat to move, scoring a capture (a king taken puts its owner out: E4.4,
        done by ``push`` itself)."""
        pos = self.pos
        B = pos.board
        mover = pos.turn
        kind = m[3]
        victim = B[m[4]] if kind == EP else (0 if kind == CASTLE else B[m[1]])
        pos.push(m)
        gained = 0
        extra = None
        if victim and victim >> 3 != GREY:
            gained = self.values[victim & 7]
            self.points[mover] += gained
            if victim & 7 == KING:
                owner = victim >> 3
                self.mated[self.side[owner]] += 1
                extra = (KING_CAPTURED, owner)
        self.undo.append((1, mover, gained, extra))

    def unmake(self) -> None:
        pops, mover, gained, extra = self.undo.pop()
        pos = self.pos
        self.points[mover] -= gained
        if extra is not None:
            self._undo_extra(extra)
        for _ in range(pops):
            pos.pop()

    def _undo_extra(self, extra: Tuple[Any, ...]) -> None:
        if extra[0] == KING_CAPTURED:
            self.mated[self.side[extra[1]]] -= 1
        else:
            _, seat, how, awards = extra
            if how == CHECKMATED:
                self.mated[self.side[seat]] -= 1
            for s, p in awards:
                self.points[s] -= p

    def eliminate_stuck(self, seat: int, credit: Optional[int]) -> None:
        """Seat ``seat`` has no legal move: out (checkmated if in check, else stalemated), with the
        points the referee would give (credit to ``credit``, the seat that moved last)."""
        pos = self.pos
        how = CHECKMATED if pos.in_check(seat) and not pos.capture_the_king else STALEMATED
        side = self.side
        if how == CHECKMATED and credit is not None and side[credit] == side[seat]:
            # E4.5: a mate a partner completes is the checking enemy's.
            king = pos.kings[seat]
            credit = next((e for e in pos.active_seats()
                           if side[e] != side[seat] and pos.attacked(king, self.own_tables[e])), None)
        pos.eliminate(seat, how)
        awards: List[Tuple[int, int]] = []
        if how == CHECKMATED:
            self.mated[side[seat]] += 1
            if self.points_decide and credit is not None and credit != seat:
                awards.append((credit, self.v.checkmate_points))
        elif self.points_decide:
            others = [s for s in pos.active_seats() if side[s] != side[seat]]
            shares = self.mode.stalemate_shares(self.v)
            if self.mode.stalemate_is_own(self.v, seat, credit):
                awards.append((credit, self.v.self_stalemate_points))   # by itself or its partner
            elif others:
                each = shares[min(len(others), len(shares)) - 1]
                awards.extend((s, each) for s in others)
        for s, p in awards:
            self.points[s] += p
        self.undo.append((1, seat, 0, ("e", seat, how, tuple(awards))))
