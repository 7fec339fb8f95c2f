"""Move ordering for the 8 Player Chess bots' searches (``bots.py``): captures by MVV/LVA (an
active enemy's king first, E4.4) and promotions, then direct checks, killer moves and the history of
quiet moves that caused a cut-off.
"""
from typing import List, Tuple

from ...core.moves import CASTLE, EP, Move
from ..position import ACTIVE
from ..rules import BISHOP, GREY, KING, KNIGHT, PAWN, ROOK
from .state import SearchState
from .values import CAPTURE_ORDER, MATERIAL


class MoveOrdering(SearchState):
    """The move-ordering half of a search: which moves are tried first, and what cut-offs teach."""

    def gives_check(self, m: Move, kings: List[int]) -> bool:
        """Whether the unit moved by ``m`` attacks one of ``kings`` from its new square (direct
        checks only; a cheap test for move ordering)."""
        B = self.pos.board
        v = self.v
        to = m[1]
        kind = m[2] & 7
        line = v.line[to]
        for king in kings:
            diff = king - to
            if kind == KNIGHT:
                if diff in self.knight_steps:
                    return True
            elif kind == PAWN:
                if diff in v.seats[m[2] >> 3].captures:
                    return True
            elif kind != KING:
                d = line.get(king)
                if d and ((kind != ROOK and d in self.diagonal_steps) or (kind != BISHOP and d in self.orthogonal_steps)):
                    t = to + d
                    while t != king and (B[t] == 0 or t == m[0]):
                        t += d
                    if t == king:
                        return True
        return False

    def order(self, moves: List[Tuple[int, Move]], ply: int, checks: bool = False) -> List[Tuple[int, Move]]:
        """Captures by MVV/LVA and promotions first, then (with ``checks``, for the bot's side)
        checks, then killers, then by history."""
        B = self.pos.board
        killers = self.killers[ply] if ply < len(self.killers) else [None, None]
        history = self.history
        scored = []
        kings: List[int] = []
        if checks and moves:
            pos = self.pos
            mover_side = self.side[moves[0][0]]
            kings = [pos.kings[e] for e in range(self.v.players)
                     if pos.state[e] == ACTIVE and self.side[e] != mover_side]
        for seat, m in moves:
            victim = B[m[1]]
            if victim and m[3] != CASTLE:
                if victim >> 3 == GREY:
                    key = 500000 + MATERIAL[victim & 7] * 16 - MATERIAL[B[m[0]] & 7] // 10
                else:
                    key = 1000000 + CAPTURE_ORDER[victim & 7] * 16 - MATERIAL[B[m[0]] & 7] // 10
            elif m[3] == EP:
                key = 1000000 + 1600
            elif m[2] != B[m[0]]:
                key = 900000 + MATERIAL[m[2] & 7]
            elif kings and self.gives_check(m, kings):
                key = 850000
            elif m == killers[0]:
                key = 800000
            elif m == killers[1]:
                key = 799999
            else:
                key = history.get((m[0], m[1]), 0)
            scored.append((key, seat, m))
        scored.sort(key=lambda x: x[0], reverse=True)
        return [(seat, m) for _, seat, m in scored]

    def good_quiet(self, m: Move, ply: int, depth: int) -> None:
        """Remember a quiet move that caused a cut-off."""
        if self.pos.board[m[1]] or m[3] == EP:
            return
        killers = self.killers[ply]
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        key = (m[0], m[1])
        self.history[key] = self.history.get(key, 0) + depth * depth
