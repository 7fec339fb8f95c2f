"""Alpha-beta search: iterative deepening, transposition table, quiescence, simple evaluation.

The search sees the rules core only through this interface of ``Position``: ``legal_moves()``,
``legal_captures()``, ``push()``, ``pop()``, ``is_check()``, ``hash``, ``stm``, ``halfmove``,
``game_hashes()`` and the evaluation helpers ``material_and_placement()`` (kept incrementally by
``push``/``pop``) and ``move_victim_value()``.
"""
import random
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .moves import Move
from .position import Position
from .timeman import next_iteration_fits

MATE = 100000
MATE_BOUND = MATE - 1000
INFINITY = 10 ** 9
EXACT, LOWER, UPPER = 0, 1, 2


class Limits(NamedTuple):
    """What bounds a search.  Times are seconds; ``None`` means no bound of that kind."""
    soft_time: Optional[float] = None     # do not start a new iteration after this
    hard_time: Optional[float] = None     # abort the search after this
    depth: Optional[int] = None
    nodes: Optional[int] = None
    exclude: Sequence[Move] = ()          # root moves not to consider (analyze mode)
    randomize: bool = False               # vary the choice among equally good moves
    start: Optional[float] = None         # time.perf_counter() the times count from (default: now)


class Info(NamedTuple):
    depth: int
    score: int          # centipawns from the side to move's view; mates as +-(MATE - plies)
    seconds: float
    nodes: int
    pv: List[Move]


class Result(NamedTuple):
    move: Optional[Move]
    score: int
    depth: int
    nodes: int
    pv: List[Move]


class _Abort(Exception):
    pass


class Searcher:
    """One engine's search state: the transposition table survives between moves."""

    def __init__(self, tt_entries: int = 1 << 20) -> None:
        self.tt: Dict[int, Tuple[int, int, int, Optional[Move]]] = {}
        self.tt_entries = tt_entries
        self.stop_requested = False
        self.nodes = 0
        self._deadline: Optional[float] = None
        self._node_limit: Optional[int] = None
        self._history: Dict[Move, int] = {}
        self._killers: List[List[Optional[Move]]] = []

    def stop(self) -> None:
        """Ask a running search to return as soon as possible (the flag is cleared by the caller
        before the next search)."""
        self.stop_requested = True

    def clear(self) -> None:
        self.tt.clear()
        self._history.clear()

    # ------------------------------------------------------------------ driver
    def search(self, pos: Position, limits: Limits,
               on_info: Optional[Callable[[Info], None]] = None) -> Result:
        """Search ``pos`` (left unchanged) and return the best move found within ``limits``."""
        start = limits.start if limits.start is not None else time.perf_counter()
        self.nodes = 0
        self._deadline = start + limits.hard_time if limits.hard_time is not None else None
        self._node_limit = limits.nodes
        self._killers = [[None, None] for _ in range(128)]
        self._seen = set(pos.game_hashes())
        if len(self.tt) > self.tt_entries:
            self.tt.clear()
        excluded = set(limits.exclude)
        root_moves = [m for m in pos.legal_moves() if m not in excluded]
        if limits.randomize:
            random.shuffle(root_moves)          # ties are broken by the (stable) move order
        if not root_moves:
            return Result(None, 0, 0, 0, [])
        best = Result(self._ordered(pos, root_moves, None, 0)[0], 0, 0, 0, [])
        if len(root_moves) == 1 and limits.depth is None and limits.soft_time is not None:
            return Result(root_moves[0], 0, 0, 0, [root_moves[0]])
        max_depth = limits.depth or 64
        durations: List[float] = []
        for depth in range(1, max_depth + 1):
            began = time.perf_counter()
            try:
                score, move = self._root(pos, root_moves, depth, best.move)
            except _Abort:
                break
            durations.append(time.perf_counter() - began)
            pv = self._pv(pos, move, depth)
            best = Result(move, score, depth, self.nodes, pv)
            if on_info:
                on_info(Info(depth, score, time.perf_counter() - start, self.nodes, pv))
            if abs(score) >= MATE_BOUND and depth >= MATE - abs(score):
                break
            elapsed = time.perf_counter() - start
            if limits.soft_time is not None and elapsed >= limits.soft_time:
                break
            if limits.hard_time is not None and not next_iteration_fits(
                    elapsed, durations, limits.soft_time, limits.hard_time):
                break
            if self.stop_requested:
                break
        return best._replace(nodes=self.nodes)

    def _pv(self, pos: Position, first: Move, depth: int) -> List[Move]:
        pv = [first]
        pos.push(first)
        seen = {pos.hash}
        while len(pv) < depth:
            entry = self.tt.get(pos.hash)
            if not entry or entry[3] is None or entry[3] not in pos.legal_moves():
                break
            pos.push(entry[3])
            pv.append(entry[3])
            if pos.hash in seen:
                break
            seen.add(pos.hash)
        for _ in pv:
            pos.pop()
        return pv

    def _root(self, pos: Position, moves: List[Move], depth: int, first: Optional[Move]) -> Tuple[int, Move]:
        alpha, beta = -INFINITY, INFINITY
        best_move = moves[0]
        for i, m in enumerate(self._ordered(pos, moves, first, 0)):
            pos.push(m)
            try:
                if i == 0:
                    score = -self._search(pos, depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._search(pos, depth - 1, -alpha - 1, -alpha, 1)
                    if alpha < score < beta:
                        score = -self._search(pos, depth - 1, -beta, -alpha, 1)
            finally:
                pos.pop()
            if score > alpha:
                alpha = score
                best_move = m
        self.tt[pos.hash] = (depth, alpha, EXACT, best_move)
        return alpha, best_move

    # ------------------------------------------------------------------ search
    def _check_limits(self) -> None:
        """Called at every node: a clock read costs well under 1% of a node (about 0.1 us against
        20 us and more), and one slow node cannot carry the search past its deadline."""
        if self.stop_requested:
            raise _Abort
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _Abort
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _Abort

    def _search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        self._check_limits()
        key = pos.hash
        if key in self._seen or pos.halfmove >= 100:
            return 0
        in_check = pos.is_check()
        if in_check:
            depth += 1
        if depth <= 0:
            return self._quiesce(pos, alpha, beta, ply, 0)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT or (e_flag == LOWER and e_score >= beta) or (e_flag == UPPER and e_score <= alpha):
                    return e_score
        moves = pos.legal_moves()
        if not moves:
            return -MATE + ply if in_check else 0
        original_alpha = alpha
        best_score = -INFINITY
        best_move = None
        self._seen.add(key)
        try:
            for i, m in enumerate(self._ordered(pos, moves, tt_move, ply)):
                pos.push(m)
                try:
                    if i == 0:
                        score = -self._search(pos, depth - 1, -beta, -alpha, ply + 1)
                    else:
                        score = -self._search(pos, depth - 1, -alpha - 1, -alpha, ply + 1)
                        if alpha < score < beta:
                            score = -self._search(pos, depth - 1, -beta, -alpha, ply + 1)
                finally:
                    pos.pop()
                if score > best_score:
                    best_score = score
                    best_move = m
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if pos.move_victim_value(m) == 0 and ply < len(self._killers):
                                killers = self._killers[ply]
                                if killers[0] != m:
                                    killers[1] = killers[0]
                                    killers[0] = m
                                self._history[m] = self._history.get(m, 0) + depth * depth
                            break
        finally:
            self._seen.discard(key)
        flag = EXACT if original_alpha < best_score < beta else (LOWER if best_score >= beta else UPPER)
        self.tt[key] = (depth, best_score, flag, best_move)
        return best_score

    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int, qply: int) -> int:
        self.nodes += 1
        self._check_limits()
        in_check = qply < 2 and pos.is_check()
        if in_check:
            moves = pos.legal_moves()
            if not moves:
                return -MATE + ply
        else:
            stand = self.evaluate(pos)
            if stand >= beta:
                return stand
            if stand > alpha:
                alpha = stand
            if qply > 8:
                return alpha
            moves = pos.legal_captures()
        best = alpha if not in_check else -INFINITY
        for m in self._ordered(pos, moves, None, ply):
            pos.push(m)
            try:
                score = -self._quiesce(pos, -beta, -alpha, ply + 1, qply + 1)
            finally:
                pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------------ helpers
    def _ordered(self, pos: Position, moves: List[Move], tt_move: Optional[Move], ply: int) -> List[Move]:
        killers = self._killers[ply] if ply < len(self._killers) else (None, None)
        history = self._history
        victim_value = pos.move_victim_value

        def key(m: Move) -> int:
            if m == tt_move:
                return -10 ** 9
            v = victim_value(m)
            if v:
                return -10 ** 6 - v
            if m == killers[0] or m == killers[1]:
                return -10 ** 5
            return -history.get(m, 0)

        return sorted(moves, key=key)

    @staticmethod
    def evaluate(pos: Position) -> int:
        """Material and placement from the side to move's view."""
        score = pos.material_and_placement()
        return score if pos.stm == 0 else -score


def format_score(score: int) -> int:
    """Scores as XBoard wants them: mates as 100000 + moves (positive) or -100000 - moves."""
    if score >= MATE_BOUND:
        return 100000 + (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -100000 - (MATE + score) // 2
    return score
