"""Alpha-beta search: iterative deepening with aspiration windows, principal-variation search, a
bucketed transposition table, null-move pruning, late-move reductions, futility pruning, killer,
counter-move and history ordering, and a quiescence search with MVV-LVA order and delta pruning.

``Searcher`` here drives the search from the root (limits, iterative deepening, aspiration windows,
MultiPV, weakened play); the search below the root and the move order are ``alphabeta.py``'s, the
table ``ttable.py``'s.

The search sees the rules core only through this interface of ``Position``: ``legal_moves()``,
``legal_captures()``, ``push()``, ``push_null()``, ``pop()``, ``is_check()``, ``hash``, ``stm``,
``halfmove``, ``game_hashes()``, ``has_pieces()``, ``units``, ``kings``, ``variant`` (board size) and
the evaluation: ``score`` (material and placement, White minus Black, kept incrementally by
``push``/``pop``), ``move_victim_value()`` and ``mover_value()``.
"""
import os
import random
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..core.errors import SearchStopped
from ..core.moves import Move
from ..core.position import Position
from .alphabeta import INFINITY, MATE, MATE_BOUND, MAX_PLY, AlphaBeta, _to_table
from .evaluation import evaluate
from .timeman import next_iteration_fits
from .ttable import DEFAULT_HASH_MB, ENTRY_MOVE, EXACT, LOWER, UPPER

MATE_SEARCH_EXTRA = 6               # `go mate N` searches at most 2N + this many plies

ASPIRATION = 35                     # half-width of the first root window, centipawns
FULL_SKILL = 20
SKILL_NOISE = 15                    # centipawns of root noise per skill level below FULL_SKILL

# Features that can be switched off for ablation matches (each must show its gain in self-play):
# XBOARD_ENGINE_SEARCH_OFF=nullmove,lmr python -m xboard_engine
FEATURES = ("aspiration", "nullmove", "lmr", "futility", "lmp", "delta", "badcaptures")


class Limits(NamedTuple):
    """What bounds a search.  Times are seconds; ``None`` means no bound of that kind."""
    soft_time: Optional[float] = None     # do not start a new iteration after this (scaled by how
    hard_time: Optional[float] = None     # stable the best move is); abort the search after this
    depth: Optional[int] = None
    nodes: Optional[int] = None
    exclude: Sequence[Move] = ()          # root moves not to consider (analyze mode)
    randomize: bool = False               # vary the choice among equally good moves
    start: Optional[float] = None         # time.perf_counter() the times count from (default: now)
    skill: int = FULL_SKILL               # below FULL_SKILL: shallower, and each root move gets a
                                          # random bonus of up to SKILL_NOISE per level missing
    multipv: int = 1                      # best lines to find (each reported with its number)
    searchmoves: Sequence[Move] = ()      # if given, only these root moves are considered
    mate: Optional[int] = None            # stop once a mate in this many moves is found


class Info(NamedTuple):
    depth: int
    score: int          # centipawns from the side to move's view; mates as +-(MATE - plies)
    seconds: float
    nodes: int
    pv: List[Move]
    multipv: int = 1    # which of the best lines (1 = the best)
    seldepth: int = 0   # the deepest ply the search reached


# A search reports the root move it is on (UCI "currmove") once it has run this long, as Stockfish does.
CURRMOVE_AFTER = 3.0


class Result(NamedTuple):
    move: Optional[Move]
    score: int
    depth: int
    nodes: int
    pv: List[Move]


SEARCH_OFF_VARIABLE = "XBOARD_ENGINE_SEARCH_OFF"


def features_off(off: Optional[Sequence[str]] = None) -> List[str]:
    """The search features to switch off: ``off``, or else those ``XBOARD_ENGINE_SEARCH_OFF`` names
    (comma-separated); a ValueError names any unknown one."""
    if off is None:
        off = [f for f in os.environ.get(SEARCH_OFF_VARIABLE, "").split(",") if f]
    unknown = set(off) - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown search features {','.join(sorted(unknown))}; known: {', '.join(FEATURES)}")
    return list(off)


class Searcher(AlphaBeta):
    """One engine's search state: the transposition table and history survive between moves."""

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB, off: Optional[Sequence[str]] = None) -> None:
        off = features_off(off)
        super().__init__({f: f not in off for f in FEATURES}, hash_mb)
        self._start = 0.0
        self._soft: Optional[float] = None
        self._hard: Optional[float] = None
        self._root_partial: Optional[Move] = None
        self._root_bonus: Dict[Move, int] = {}
        self._on_currmove: Optional[Callable[[int, Move, int], None]] = None
        self._hash_mb = hash_mb
        self._clear_table = False
        self.first_depth = 1                # a helper process may start deeper (``smp.py``)

    def stop(self) -> None:
        """Ask a running search to return as soon as possible (the flag is cleared by the caller
        before the next search)."""
        self.stop_requested = True

    def clear(self) -> None:
        """Forget everything learnt (``ucinewgame``, ``new``, Clear Hash); the table is emptied when
        the next search starts, in the searching thread."""
        self._clear_table = True
        self._history = [{}, {}]
        self._counter.clear()

    def set_time(self, soft: Optional[float], hard: Optional[float], start: float) -> None:
        """Give a running search new time limits counted from ``start`` (a UCI ``ponderhit``: the
        pondering becomes thinking on the engine's own clock)."""
        self._start, self._soft, self._hard = start, soft, hard
        self._deadline = start + hard if hard is not None else None

    def hashfull(self) -> int:
        """Permille of the transposition table in use (from a sample of its first slots)."""
        return self.tt.hashfull()

    def set_hash_size(self, megabytes: int) -> None:
        """Resize the transposition table (the GUI's ``memory`` command) before the next search; a
        new size clears it."""
        self._hash_mb = megabytes

    def _prepare_table(self) -> bool:
        """Resize or clear the table as asked since the last search; False if stopped meanwhile
        (the work is then done by the next search)."""
        stopped = lambda: self.stop_requested   # noqa: E731
        if self._hash_mb != self.tt.megabytes:
            self.tt.resize(self._hash_mb)
            self._clear_table = False
        elif self._clear_table:
            if not self.tt.clear(stopped):
                return False
            self._clear_table = False
        return True

    # ------------------------------------------------------------------ driver
    def search(self, pos: Position, limits: Limits,
               on_info: Optional[Callable[[Info], None]] = None,
               on_currmove: Optional[Callable[[int, Move, int], None]] = None) -> Result:
        """Search ``pos`` (left unchanged) and return the best move found within ``limits``.
        ``on_info`` gets each finished line; ``on_currmove(depth, move, number)`` each root move as
        its search begins, once the search has run ``CURRMOVE_AFTER`` seconds."""
        start = limits.start if limits.start is not None else time.perf_counter()
        self._on_currmove = on_currmove
        self.nodes = 0
        self.seldepth = 0
        self.set_time(limits.soft_time, limits.hard_time, start)
        self._node_limit = limits.nodes
        self._killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self._seen = set(self._game_hashes(pos))
        self._seen.add(pos.hash)
        prepared = self._prepare_table()
        self.tt.age = (self.tt.age + 1) & 255
        for table in self._history:           # older searches count for less
            for k in table:
                table[k] >>= 2
        excluded = set(limits.exclude)
        root_moves = [m for m in pos.legal_moves() if m not in excluded]
        if limits.searchmoves:
            allowed = set(limits.searchmoves)
            root_moves = [m for m in root_moves if m in allowed]
        if limits.randomize:
            random.shuffle(root_moves)          # ties are broken by the (stable) move order
        if not root_moves:
            return Result(None, 0, 0, 0, [])
        root_moves = [m for _, m in self._scored(pos, root_moves, self.table_move(pos), 0, None)]
        best = Result(root_moves[0], 0, 0, 0, [root_moves[0]])
        if not prepared:                        # stopped before it began
            return best
        if len(root_moves) == 1 and limits.depth is None and limits.soft_time is not None:
            return best
        max_depth = min(limits.depth or MAX_PLY, MAX_PLY)
        if limits.mate:
            max_depth = min(max_depth, 2 * limits.mate + MATE_SEARCH_EXTRA)
        self._root_bonus: Dict[Move, int] = {}
        if limits.skill < FULL_SKILL:
            skill = max(0, limits.skill)
            max_depth = min(max_depth, 1 + skill // 2)
            noise = (FULL_SKILL - skill) * SKILL_NOISE
            self._root_bonus = {m: random.randrange(noise) for m in root_moves}
        self._helpers_begin(pos, limits)
        try:
            best = self._deepen(pos, root_moves, best, max_depth, limits, on_info)
        finally:
            self._helpers_end()
        return best._replace(nodes=self._all_nodes())

    def _deepen(self, pos: Position, root_moves: List[Move], best: Result, max_depth: int,
                limits: Limits, on_info: Optional[Callable[[Info], None]]) -> Result:
        """Iterative deepening from depth 1 to ``max_depth``, within the limits; the best result."""
        lines = max(1, min(limits.multipv, len(root_moves)))
        scores = [0] * lines                    # each line's last score (its aspiration guess)
        durations: List[float] = []
        soft = self._soft
        changes = 0.0                           # how often the best move changed lately
        for depth in range(min(self.first_depth, max_depth), max_depth + 1):
            began = time.perf_counter()
            try:
                found = self._lines(pos, root_moves, depth, scores, on_info)
            except SearchStopped as abort:
                first = abort.args[0] if abort.args else None
                partial = self._root_partial
                if first is not None:           # the best line of this depth was complete
                    best = Result(first[1], first[0], depth, self.nodes, first[2])
                elif partial is not None and partial != best.move:
                    best = best._replace(move=partial, pv=[partial])
                break
            durations.append(time.perf_counter() - began)
            score, move, pv = found[0]
            if best.move is not None and move != best.move and depth > 1:
                changes += 1.0
            changes *= 0.6
            last_score = best.score
            best = Result(move, score, depth, self.nodes, pv)
            self._completed(best)
            if abs(score) >= MATE_BOUND and depth >= MATE - abs(score):
                break
            if limits.mate and score >= MATE - 2 * limits.mate + 1:
                break
            if self.stop_requested:
                break
            elapsed = time.perf_counter() - self._start
            if self._soft is not None:
                # More time while the best move changes or the score falls; less while it is stable.
                factor = 0.8 + changes
                if depth > 4 and score < last_score - 30:
                    factor += 0.5
                soft = self._soft * min(2.0, factor)
                if elapsed >= soft:
                    break
            # A fixed time per move (no soft limit) is spent in full: the hard limit ends the search.
            if self._soft is not None and self._hard is not None \
                    and not next_iteration_fits(elapsed, durations, soft, self._hard):
                break
        return best

    # Hooks for a search on several processes (``smp.py``); one process needs none of them.
    def _game_hashes(self, pos: Position) -> List[int]:
        """The positions of the game before ``pos`` (a repetition of one scores as a draw)."""
        return pos.game_hashes()

    def _helpers_begin(self, pos: Position, limits: Limits) -> None:
        """Start the helper processes' search of ``pos``."""

    def _helpers_end(self) -> None:
        """Stop the helpers' search."""

    def _all_nodes(self) -> int:
        """The nodes searched by this search, helpers included."""
        return self.nodes

    def _root_order(self, moves: List[Move]) -> List[Move]:
        """The order the root moves are searched in this iteration (best first; a helper varies the
        rest so that the processes meet in the middle and share the halves through the table)."""
        return moves

    def _completed(self, result: Result) -> None:
        """An iteration of the search finished with ``result`` (a helper publishes it)."""

    def _lines(self, pos: Position, root_moves: List[Move], depth: int, scores: List[int],
               on_info: Optional[Callable[[Info], None]]) -> List[Tuple[int, Move, List[Move]]]:
        """The best ``len(scores)`` lines at ``depth`` as (score, move, pv): each searched without
        the first moves of the lines before it.  A search aborted after the first line raises
        ``SearchStopped((score, move, pv))`` with that line."""
        found: List[Tuple[int, Move, List[Move]]] = []
        for k in range(len(scores)):
            moves = root_moves if k == 0 else [m for m in root_moves if m not in {f[1] for f in found}]
            try:
                score, move = self._aspiration(pos, moves, depth, scores[k], store=k == 0)
            except SearchStopped:
                raise SearchStopped(found[0]) if found else SearchStopped()
            found.append((score, move, self._pv(pos, move, depth)))
            if on_info and len(scores) == 1:
                on_info(Info(depth, score, time.perf_counter() - self._start, self._all_nodes(), found[0][2],
                             1, self.seldepth))
        if len(scores) > 1:
            # Pruning makes a score depend a little on the window it was searched with, so a later
            # line may score above an earlier one: the lines are shown best first, as they stand.
            found.sort(key=lambda line: -line[0])
            for k, (score, _, pv) in enumerate(found):
                if on_info:
                    on_info(Info(depth, score, time.perf_counter() - self._start, self._all_nodes(), pv,
                                 k + 1, self.seldepth))
        for k, line in enumerate(found):
            scores[k] = line[0]
        return found

    def table_move(self, pos: Position) -> Optional[Move]:
        """The best move the transposition table holds for ``pos`` (None if it holds none)."""
        entry = self.tt.probe(pos.hash)
        return entry[ENTRY_MOVE] if entry is not None else None

    def _pv(self, pos: Position, first: Move, depth: int) -> List[Move]:
        pv = [first]
        pos.push(first)
        seen = {pos.hash}
        while len(pv) < depth:
            move = self.table_move(pos)
            if move is None or move not in pos.legal_moves():
                break
            pos.push(move)
            pv.append(move)
            if pos.hash in seen:
                break
            seen.add(pos.hash)
        for _ in pv:
            pos.pop()
        return pv

    def _aspiration(self, pos: Position, moves: List[Move], depth: int, guess: int,
                    store: bool = True) -> Tuple[int, Move]:
        """The root search at ``depth``, first in a narrow window around the last score, widened on
        each failure (``store``: keep the result in the table, not done for a line without the
        best move)."""
        if depth < 4 or abs(guess) >= MATE_BOUND or not self.features["aspiration"] or self._root_bonus:
            return self._root(pos, moves, depth, -INFINITY, INFINITY, store)
        delta = ASPIRATION
        alpha, beta = guess - delta, guess + delta
        while True:
            score, move = self._root(pos, moves, depth, alpha, beta, store)
            if score <= alpha:
                alpha = max(-INFINITY, score - delta)
            elif score >= beta:
                beta = min(INFINITY, score + delta)
            else:
                return score, move
            delta *= 4
            if delta > 1000:
                alpha, beta = -INFINITY, INFINITY

    def _root(self, pos: Position, moves: List[Move], depth: int, alpha: int, beta: int,
              store: bool = True) -> Tuple[int, Move]:
        """Search every root move; the best is moved to the front of ``moves`` for the next iteration.
        ``_root_partial`` holds the best move so far of this iteration (for an aborted search) when it
        beat the first."""
        best_score = -INFINITY
        best_move = moves[0]
        self._root_partial = None
        original_alpha = alpha
        bonus = self._root_bonus
        report = self._on_currmove
        for i, m in enumerate(self._root_order(moves)):
            if report is not None and time.perf_counter() - self._start >= CURRMOVE_AFTER:
                report(depth, m, i + 1)
            pos.push(m)
            try:
                if bonus:                   # weakened play: every move in its own shifted window
                    b = bonus[m]
                    score = -self._search(pos, depth - 1, b - beta, b - alpha, 1, m)
                    if abs(score) < MATE_BOUND:
                        score += b
                elif i == 0:
                    score = -self._search(pos, depth - 1, -beta, -alpha, 1, m)
                else:
                    score = -self._search(pos, depth - 1, -alpha - 1, -alpha, 1, m)
                    if alpha < score < beta:
                        score = -self._search(pos, depth - 1, -beta, -alpha, 1, m)
            finally:
                pos.pop()
            if score > best_score:
                best_score = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if i > 0:
                        self._root_partial = m
                    if score >= beta:
                        break
        moves.remove(best_move)
        moves.insert(0, best_move)
        if store:
            flag = EXACT if original_alpha < best_score < beta else (LOWER if best_score >= beta else UPPER)
            self.tt.store(pos.hash, depth, _to_table(best_score, 0), flag, best_move)
        if bonus and abs(best_score) < MATE_BOUND:
            return best_score - bonus[best_move], best_move     # the chosen move's own score
        return best_score, best_move

    @staticmethod
    def evaluate(pos: Position) -> int:
        """The evaluation from the side to move's view (``evaluation.evaluate``)."""
        return evaluate(pos)

