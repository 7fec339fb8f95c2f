"""The alpha-beta search below the root, the engine's hot path: principal-variation search with the
transposition table, mate-distance pruning, check extension, reverse futility, null move, late-move
reductions, futility and late-move pruning, then a quiescence search with MVV-LVA order, delta pruning and bad
captures skipped; and the move order (table move, good captures, killers, counter-move, history with
a malus, losing captures).

``search.Searcher`` drives it from the root (iterative deepening, aspiration windows, limits).
Scores are centipawns from the side to move's view; mates are +-(MATE - plies to mate), stored in
the table as the distance from the node (``_to_table``, ``_from_table``).
"""
import math
import time
from operator import itemgetter
from typing import Dict, List, Optional, Tuple

from ..core.errors import SearchStopped
from ..core.moves import NORMAL, PUSH, Move
from ..core.position import Position
from .evaluation import evaluate
from .ttable import ENTRY_DEPTH, ENTRY_FLAG, ENTRY_MOVE, ENTRY_SCORE, EXACT, LOWER, UPPER, TranspositionTable

MATE = 100000
MATE_BOUND = MATE - 1000            # scores beyond this are mates (MATE - plies to mate)
INFINITY = 10 ** 9
MAX_PLY = 128

NULL_MIN_DEPTH = 2
FUTILITY_MARGIN = (0, 120, 300)     # by remaining depth: a quiet move cannot gain more than this
REVERSE_FUTILITY = 90               # per ply of depth: a static score this far above beta stands
DELTA_MARGIN = 200                  # quiescence: a capture must be able to reach alpha with this
BAD_CAPTURE = 100                   # quiescence skips a capture by a unit worth this much more than
                                    # its victim onto a square the opponent attacks
LATE_MOVES = (0, 6, 10, 16)         # by remaining depth: quiet moves searched before the rest are pruned
LMR_MIN_DEPTH = 3
LMR_MIN_MOVE = 3                    # moves searched at full depth before reductions start

# Order keys: the transposition-table move, then captures (victim, then the cheapest taker), killers,
# the counter-move, quiet moves by history (which may be negative), then losing captures: a taker
# worth more than its victim onto a square the opponent attacks.  Keys above LOSING_TOP and below
# CAPTURE_KEY are quiet moves.
TT_KEY = 1 << 40
CAPTURE_KEY = 1 << 32                # plus the capture's ``capture_key``
KILLER_KEY = 1 << 30
COUNTER_KEY = (1 << 30) - 2
HISTORY_MAX = 1 << 20
LOSING_KEY = -(1 << 32)              # plus the capture's ``capture_key``
LOSING_TOP = -(1 << 31)

_first = itemgetter(0)
# Late-move reductions by depth and move number: about ln(depth) * ln(number) / 2.
LMR = [[0 if d < LMR_MIN_DEPTH or n < LMR_MIN_MOVE else max(1, int(0.5 + math.log(d) * math.log(n) / 2))
        for n in range(64)] for d in range(64)]


# A capture's order key holds the value of the unit taken (with a promotion's gain) above TAKER_BITS
# and, below them, the taker's value counted down from TAKER_LIMIT; every unit is worth less than
# TAKER_LIMIT (tests/test_search.py checks every variant).
TAKER_BITS = 12
TAKER_LIMIT = (1 << TAKER_BITS) - 1


def capture_key(victim: int, taker: int) -> int:
    """The order key of a capture that wins ``victim`` centipawns with a unit worth ``taker``: the
    most valuable victim first, then the cheapest taker (MVV-LVA).  ``key >> TAKER_BITS`` is
    ``victim``."""
    return victim << TAKER_BITS | (TAKER_LIMIT - taker)


def likely_loses(pos: Position, m: Move, victim: int, taker: int, margin: int) -> bool:
    """A two-ply guess that capture ``m`` loses material: its unit, worth more than ``margin`` above
    the victim, lands on a square the opponent attacks (push, en passant and the like are never
    counted).  Move order puts such captures last (margin 0); quiescence skips them (BAD_CAPTURE)."""
    return taker > victim + margin and m.kind == NORMAL and pos.square_attacked(m.to, 1 - pos.stm)


def _to_table(score: int, ply: int) -> int:
    """A mate score as distance from this node (the table is shared by nodes at every ply)."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


class AlphaBeta:
    """The search's state below the root (the table, node count and limits, move-order history)
    and the recursive search; ``Searcher`` sets the limits and searches the root moves."""

    def __init__(self, features: Dict[str, bool], hash_mb: int) -> None:
        self.features = features
        self.tt = TranspositionTable(hash_mb)
        self.stop_requested = False
        self.nodes = 0
        self.seldepth = 0
        self._deadline: Optional[float] = None
        self._node_limit: Optional[int] = None
        self._history: List[Dict[int, int]] = [{}, {}]
        self._counter: Dict[int, Move] = {}
        self._killers: List[List[Optional[Move]]] = []
        self._seen: set = set()

    def _search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int,
                previous: Optional[Move], null_allowed: bool = True) -> int:
        self.nodes += 1
        if self.stop_requested or (self._deadline is not None and time.perf_counter() > self._deadline) \
                or (self._node_limit is not None and self.nodes >= self._node_limit):
            raise SearchStopped        # a clock read costs well under 1% of a node: checked at every node
        key = pos.hash
        if key in self._seen or pos.halfmove >= 100:
            return 0
        # Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        if alpha < ply - MATE:
            alpha = ply - MATE
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        in_check = pos.is_check()
        if in_check:
            depth += 1                          # check extension
        if depth <= 0 or ply >= MAX_PLY:
            self.nodes -= 1                     # the quiescence search counts this position
            return self._quiesce(pos, alpha, beta, ply, 0)
        pv_node = beta - alpha > 1
        entry = self.tt.probe(key)
        tt_move = None
        if entry is not None:
            tt_move = entry[ENTRY_MOVE]
            if entry[ENTRY_DEPTH] >= depth and not pv_node:
                score = _from_table(entry[ENTRY_SCORE], ply)
                flag = entry[ENTRY_FLAG]
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return score
        static = None
        features = self.features
        if not in_check and not pv_node:
            static = evaluate(pos)
            # Reverse futility: far above beta near the leaves, the opponent will not catch up.
            if depth <= 3 and static - REVERSE_FUTILITY * depth >= beta and beta > -MATE_BOUND \
                    and beta < MATE_BOUND and features["futility"]:
                return static - REVERSE_FUTILITY * depth
            # Null move: if passing still holds beta, a real move will (not with only king and
            # pawns, where zugzwang is common, nor twice in a row).
            if null_allowed and depth >= NULL_MIN_DEPTH and static >= beta and beta < MATE_BOUND \
                    and features["nullmove"] and pos.has_pieces(pos.stm):
                reduction = 3 if depth >= 6 else 2
                pos.push_null()
                try:
                    score = -self._search(pos, depth - 1 - reduction, -beta, -beta + 1, ply + 1, None, False)
                finally:
                    pos.pop()
                if score >= beta:
                    return beta if score >= MATE_BOUND else score
        moves = pos.legal_moves()
        if not moves:
            return ply - MATE if in_check else 0
        futile = static is not None and depth < len(FUTILITY_MARGIN) and features["futility"] \
            and static + FUTILITY_MARGIN[depth] <= alpha
        # Late-move pruning: near the leaves, after this many moves the quiet ones left (ordered
        # last, by history) are not searched unless they give check.
        late = LATE_MOVES[depth] if static is not None and depth < len(LATE_MOVES) and features["lmp"] \
            else 1 << 30
        reduce = features["lmr"]
        killers = self._killers[ply]
        original_alpha = alpha
        best_score = -INFINITY
        best_move = None
        searched = 0
        tried: List[Move] = []                  # quiet moves searched (a cut-off's malus)
        stm = pos.stm
        self._seen.add(key)
        try:
            for order, m in self._scored(pos, moves, tt_move, ply, previous):
                quiet = (LOSING_TOP < order < CAPTURE_KEY
                         or (order == TT_KEY and pos.move_victim_value(m) == 0)) \
                    and m.kind != PUSH          # a push moves an enemy unit: never reduced or pruned
                pos.push(m)
                try:
                    gives_check = quiet and pos.is_check()
                    if quiet and searched and not gives_check and (futile or searched >= late):
                        continue            # cannot reach alpha (popped by the finally clause)
                    new_depth = depth - 1
                    if searched == 0:
                        score = -self._search(pos, new_depth, -beta, -alpha, ply + 1, m)
                    else:
                        reduction = 0
                        if reduce and quiet and not in_check and not gives_check and order < COUNTER_KEY:
                            reduction = LMR[depth if depth < 64 else 63][searched if searched < 64 else 63]
                            if pv_node and reduction:
                                reduction -= 1
                            if reduction >= new_depth:
                                reduction = new_depth - 1 if new_depth > 1 else 0
                        score = -self._search(pos, new_depth - reduction, -alpha - 1, -alpha, ply + 1, m)
                        if reduction and score > alpha:
                            score = -self._search(pos, new_depth, -alpha - 1, -alpha, ply + 1, m)
                        if alpha < score < beta:
                            score = -self._search(pos, new_depth, -beta, -alpha, ply + 1, m)
                finally:
                    pos.pop()
                searched += 1
                if score > best_score:
                    best_score = score
                    best_move = m
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if quiet:
                                self._reward(stm, m, depth, killers, previous, tried)
                            break
                if quiet:
                    tried.append(m)
        finally:
            self._seen.discard(key)
        if best_move is None:                   # every move was futile: a fail-low
            return alpha
        flag = EXACT if original_alpha < best_score < beta else (LOWER if best_score >= beta else UPPER)
        self.tt.store(key, depth, _to_table(best_score, ply), flag, best_move)
        return best_score

    def _reward(self, stm: int, m: Move, depth: int, killers: List[Optional[Move]],
                previous: Optional[Move], tried: List[Move]) -> None:
        """A quiet move that refuted: a killer at this ply, the counter to the previous move, and
        history credit; the quiet moves ``tried`` before it lose as much."""
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        if previous is not None:
            self._counter[previous.frm << 12 | previous.to] = m
        history = self._history[stm]
        bonus = depth * depth
        k = m.frm << 12 | m.to
        value = history.get(k, 0) + bonus
        history[k] = value
        lowest = 0
        for t in tried:
            k = t.frm << 12 | t.to
            malus = history.get(k, 0) - bonus
            history[k] = malus
            if malus < lowest:
                lowest = malus
        if value > HISTORY_MAX or lowest < -HISTORY_MAX:
            for k in history:
                history[k] = int(history[k] / 2)

    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int, qply: int) -> int:
        self.nodes += 1
        if self.stop_requested or (self._deadline is not None and time.perf_counter() > self._deadline) \
                or (self._node_limit is not None and self.nodes >= self._node_limit):
            raise SearchStopped
        if ply > self.seldepth:
            self.seldepth = ply
        in_check = qply < 2 and pos.is_check()
        stand = 0
        if in_check:
            moves = pos.legal_moves()
            if not moves:
                return ply - MATE
            best = -INFINITY
        else:
            stand = evaluate(pos)
            if stand >= beta:
                return stand
            if stand > alpha:
                alpha = stand
            if qply > 8 or ply >= MAX_PLY:
                return alpha
            moves = pos.legal_captures()
            best = alpha
        delta = self.features["delta"]
        victim = pos.move_victim_value
        taker = pos.mover_value
        scored = [(capture_key(victim(m), taker(m)), m) for m in moves]
        scored.sort(key=_first, reverse=True)
        prune_bad = self.features["badcaptures"] and not in_check
        for order, m in scored:
            gain = order >> TAKER_BITS
            if delta and not in_check and stand + gain + DELTA_MARGIN <= alpha:
                break                           # delta pruning: sorted by victim, the rest gain less
            if prune_bad and likely_loses(pos, m, gain, taker(m), BAD_CAPTURE):
                continue                        # likely loses the taker for less
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

    # ------------------------------------------------------------------ move order
    def _scored(self, pos: Position, moves: List[Move], tt_move: Optional[Move], ply: int,
                previous: Optional[Move]) -> List[Tuple[int, Move]]:
        """The moves with their order keys, best first."""
        killers = self._killers[ply] if ply < len(self._killers) else (None, None)
        k0, k1 = killers
        counter = self._counter.get(previous.frm << 12 | previous.to) if previous is not None else None
        history = self._history[pos.stm]
        victim = pos.move_victim_value
        taker = pos.mover_value
        scored = []
        for m in moves:
            if m == tt_move:
                scored.append((TT_KEY, m))
                continue
            v = victim(m)
            if v:
                t = taker(m)
                if likely_loses(pos, m, v, t, 0):
                    scored.append((LOSING_KEY + capture_key(v, t), m))
                else:
                    scored.append((CAPTURE_KEY + capture_key(v, t), m))
            elif m == k0:
                scored.append((KILLER_KEY, m))
            elif m == k1:
                scored.append((KILLER_KEY - 1, m))
            elif m == counter:
                scored.append((COUNTER_KEY, m))
            else:
                scored.append((history.get(m.frm << 12 | m.to, 0), m))
        scored.sort(key=_first, reverse=True)
        return scored
