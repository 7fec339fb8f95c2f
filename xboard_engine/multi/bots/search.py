"""The searches of the 8 Player Chess bots (``bots.py``; the module docstring there describes them):
Best-Reply Search (``brs``), the turn-order alpha-beta in which the bot's side maximises (paranoid:
the bot alone; team: the bot and its teammates), and one iteration over the root moves.

``Search`` joins the state (``bot_state``), the evaluation (``bot_evaluation``) and the move ordering
(``bot_ordering``); ``Bot`` in ``bots`` deepens it iteratively.
"""
from typing import Any, Dict, List, Optional, Tuple

from ...core.moves import Move
from ..position import ACTIVE, ZOMBIE
from ..rules import GREY, KING
from .evaluation import Evaluation
from .ordering import MoveOrdering
from .values import ELIMINATED, INFINITE


class Search(Evaluation, MoveOrdering):
    """One search from one game position for the seat to move (the root)."""

    # ------------------------------------------------------------------ Best-Reply Search
    def enemy_seats(self) -> List[int]:
        state = self.pos.state
        return [s for s in range(self.v.players) if state[s] == ACTIVE and self.side[s] != self.my_key]

    def king_lost(self, replier: int) -> bool:
        """After enemy ``replier``'s move: whether an enemy whose turn comes before the bot's (in the
        game's order from ``replier``) attacks the bot's king, so that it takes the king (E4.4) before
        the bot can answer (a discovered attack: the reply itself is answered in time)."""
        pos = self.pos
        root = self.root
        king = pos.kings[root]
        if not pos.attacked(king, pos.hostile[root]):
            return False
        n = self.v.players
        state = pos.state
        side = self.side
        s = (replier + 1) % n
        while s != root:
            if state[s] == ACTIVE and side[s] != self.my_key and pos.attacked(king, self.own_tables[s]):
                return True
            s = (s + 1) % n
        return False

    def brs(self, depth: int, alpha: int, beta: int, is_max: bool, ply: int, replier: int = -1) -> int:
        self.tick()
        self.pv[ply] = []
        pos = self.pos
        root = self.root
        if replier >= 0 and self.king_lost(replier):
            return -ELIMINATED + ply + self.points_term() // 4        # as root_out_score: the king is lost
        if depth <= 0:
            return self.quiesce(alpha, beta, False) if is_max else self.evaluate(None)
        if is_max:
            moves = pos.legal_moves(root)
            if not moves:
                self.eliminate_stuck(root, None)
                value = self.root_out_score(ply)
                self.unmake()
                return value
            # An enemy king the bot attacks here has had its turn to answer in the real game (all
            # enemies move between two moves of the bot; BRS plays one of them): not taken.
            B = pos.board
            moves = [m for m in moves if B[m[1]] & 7 != KING or B[m[1]] >= GREY * 8] or moves
            best = -INFINITE
            for seat, m in self.order([(root, m) for m in moves], ply, True):
                self.make(m)
                value = self.brs(depth - 1, alpha, beta, False, ply + 1)
                self.unmake()
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        self.pv[ply] = [(root, m)] + self.pv[ply + 1]
                        if alpha >= beta:
                            self.good_quiet(m, ply, depth)
                            break
            return best
        # MIN layer: eliminations of stuck enemies first (credit to the bot: it moved last).
        eliminated = 0
        replies: List[Tuple[int, Move]] = []
        for e in self.enemy_seats():
            moves = pos.legal_moves(e)
            if not moves:
                self.eliminate_stuck(e, root)
                eliminated += 1
                continue
            replies.extend((e, m) for m in moves)
        try:
            if not replies:
                return self.evaluate(root)           # no enemy can move: nothing more to answer
            best = INFINITE
            for e, m in self.order(replies, ply):
                pos.pass_turn(e)
                self.make(m)
                pos.pass_turn(root)
                value = self.brs(depth - 1, alpha, beta, True, ply + 1, e)
                pos.pop()
                self.unmake()
                pos.pop()
                if value < best:
                    best = value
                    if value < beta:
                        beta = value
                        self.pv[ply] = [(e, m)] + self.pv[ply + 1]
                        if alpha >= beta:
                            self.good_quiet(m, ply, depth)
                            break
            return best
        finally:
            for _ in range(eliminated):
                self.unmake()

    # ------------------------------------------------------------------ turn-order search
    def ordered(self, depth: int, alpha: int, beta: int, ply: int, last: Optional[int]) -> int:
        """Paranoid / team alpha-beta: seats move in turn order; the bot's side maximises."""
        self.tick()
        self.pv[ply] = []
        pos = self.pos
        state = pos.state
        if state[self.root] != ACTIVE:
            return self.root_out_score(ply)
        s = pos.turn
        maximise = s == self.root if self.algorithm == "paranoid" else self.side[s] == self.my_key
        if len({self.side[x] for x in pos.active_seats()}) <= 1 or ply >= 120:
            return self.evaluate(s if self.side[s] == self.my_key else None)
        if depth <= 0:
            return self.quiesce(alpha, beta) if self.side[s] == self.my_key else self.evaluate(None)
        if state[s] == ZOMBIE:
            pos.pass_turn()
            try:
                return self.ordered(depth - 1, alpha, beta, ply + 1, last)
            finally:
                pos.pop()
        moves = pos.legal_moves(s)
        if not moves:
            self.eliminate_stuck(s, last)
            try:
                if s == self.root:
                    return self.root_out_score(ply)
                return self.ordered(depth, alpha, beta, ply + 1, last)
            finally:
                self.unmake()
        best = -INFINITE if maximise else INFINITE
        for seat, m in self.order([(s, m) for m in moves], ply, maximise):
            self.make(m)
            if self.repeats():
                value = self.draw_value(ply + 1)
            else:
                value = self.ordered(depth - 1, alpha, beta, ply + 1, s)
            self.unmake()
            if maximise:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        self.pv[ply] = [(s, m)] + self.pv[ply + 1]
            elif value < best:
                best = value
                if value < beta:
                    beta = value
                    self.pv[ply] = [(s, m)] + self.pv[ply + 1]
            if alpha >= beta:
                self.good_quiet(m, ply, depth)
                break
        return best

    # ------------------------------------------------------------------ root
    def search_root(self, depth: int, moves: List[Move], scores: Dict[Move, int],
                    found: Dict[str, Any]) -> None:
        """One iteration over the root moves (best first); ``found`` keeps the best move of this
        depth as soon as one is searched, so a stopped iteration can still be used."""
        alpha = -INFINITE
        for m in moves:
            self.make(m)
            try:
                if self.repeats():
                    value = self.draw_value(1)
                elif self.algorithm == "brs":
                    value = self.brs(depth - 1, alpha, INFINITE, False, 1)
                else:
                    value = self.ordered(depth - 1, alpha, INFINITE, 1, self.root)
            finally:
                self.unmake()
            scores[m] = value
            if value > alpha:
                alpha = value
                found["move"] = m
                found["score"] = value
                found["pv"] = [(self.root, m)] + self.pv[1]
