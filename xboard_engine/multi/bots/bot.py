"""Bots for 8 Player Chess: Best-Reply Search, paranoid search and team alpha-beta within a time per
move, with an evaluation of points, material, king safety and threats (issue 13).

>>> from xboard_engine.multi.game import Game
>>> from xboard_engine.multi.bots.bot import Bot
>>> game = Game(mode="singles")
>>> bot = Bot(depth=1, movetime=None, seed=1)
>>> bot.choose(game) in game.legal_moves()
True

Algorithms (``Bot(algorithm=...)``):

* ``brs`` -- Best-Reply Search (Schadd & Winands 2011): a MAX layer of the bot's own moves and a MIN
  layer holding the single best reply among the moves of *all* enemy seats, alternately.  Partners
  (Pairs) and teammates (Teams) are not in the MIN layer; their units count as friends.
* ``paranoid`` -- the seats move in the game's turn order; the bot maximises its side's evaluation
  and every other seat (partners and teammates too) minimises it.
* ``team`` -- the same turn-order search where the bot's teammates maximise (in Singles it is the
  paranoid search; in Teams and Pairs the teammates help).
* ``random`` -- a uniformly chosen legal move (seedable).
* ``auto`` -- ``brs`` in Singles and Pairs, ``team`` in Teams.

The search runs on a copy of the game's position with ``push``/``pop``/``pass_turn``; a seat with no
legal move at a node is eliminated there (as the referee would at the start of its turn), with the
points of the mate or stalemate to the seat that moved last (a mate completed by the mated seat's
partner goes to an enemy that checks it: E4.5).  An enemy king the mover attacks may be taken (E4.4):
25 points and that enemy is out, so the searches find it like any capture (it is ordered first).
Best-Reply Search, where one enemy answers at a time, also counts the bot's king as lost when an
enemy's reply uncovers an attack on it by another enemy that moves before the bot (that enemy would
take it); the turn-order searches see such a capture as it is played.  A move that brings the game back to a
position for the third time ends it drawn there, scored as the referee would end it: outside Teams
everyone active gets 25 and the side ahead on points wins, so a bot ahead takes the draw and a bot
behind avoids it.  (Repetitions inside the searched line itself are not looked for.)  Scores are
centipawns from the bot's side's view.

Modules: ``bots`` (this one) the ``Bot`` with its settings and iterative deepening;
``bot_search`` the searches; ``bot_evaluation`` the static evaluation and quiescence;
``bot_ordering`` the move ordering; ``bot_state`` the searched position with make/unmake and the
clock; ``bot_values`` the score scale and the placement tables.
"""
import random
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ...core.moves import Move
from ..modes import Mode, mode_of
from ..position import ACTIVE, ZOMBIE
from .search import Search
from .state import SearchStopped
from .values import INFINITE, STALEMATED_CP

__all__ = ["Bot", "ALGORITHMS", "evaluate_position", "judge_move", "BotError"]

ALGORITHMS = ("auto", "brs", "paranoid", "team", "random")


class BotError(ValueError):
    """Bad bot settings or a game the bot cannot move in."""


# ---------------------------------------------------------------------------------- the bot
class Bot:
    """A search bot for 8 Player Chess (see the module docstring for the algorithms).

    ``depth``: the most plies to search (None: as deep as the time allows); ``movetime``: seconds per
    move (None: the depth alone decides); at least one must be set.
    """

    def __init__(self, depth: Optional[int] = None, movetime: Optional[float] = 1.0, algorithm: str = "auto",
                 seed: Optional[int] = None) -> None:
        if algorithm not in ALGORITHMS:
            raise BotError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        if depth is not None:
            if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
                raise BotError(f"depth is a whole number of plies, at least 1, not {depth!r}")
        if movetime is not None:
            if isinstance(movetime, bool) or not isinstance(movetime, (int, float)) or not movetime > 0:
                raise BotError(f"movetime is a positive number of seconds, not {movetime!r}")
        if depth is None and movetime is None and algorithm != "random":
            raise BotError("give a depth, a movetime or both")
        self.depth = depth
        self.movetime = movetime
        self.algorithm = algorithm
        self.seed = seed
        self.rng = random.Random(seed)
        limit = f"d{depth}" if depth is not None else f"{movetime:.1f}s"
        self.name = "random" if algorithm == "random" else f"{algorithm} {limit}"
        self.last: Dict[str, Any] = {}
        self._stop = threading.Event()

    def stop(self) -> None:
        """Make a running ``choose`` return its best move so far at once (thread-safe)."""
        self._stop.set()

    def algorithm_for(self, mode: Mode) -> str:
        """The search this bot runs in a game of ``mode``."""
        if self.algorithm == "auto":
            return mode.default_algorithm
        return self.algorithm

    def choose(self, game: Any, on_depth: Optional[Callable[[Dict[str, Any]], None]] = None) -> Move:
        """A legal move for ``game.turn`` (the game is not changed).  ``on_depth`` is called with
        the depth, score and line (as ``last``) after each completed depth."""
        started = time.perf_counter()
        self._stop.clear()
        if getattr(game, "over", False) or game.turn is None:
            raise BotError("the game is over: there is no move to choose")
        pos = game.position
        if pos.state[pos.turn] != ACTIVE:
            raise BotError(f"{pos.v.seats[pos.turn].colour} is not an active player")
        moves = game.legal_moves()
        if not moves:
            raise BotError(f"{pos.v.seats[pos.turn].colour} has no legal move")
        algorithm = self.algorithm_for(mode_of(game))
        if algorithm == "random" or len(moves) == 1:
            move = moves[self.rng.randrange(len(moves))]
            self.last = {"depth": 0, "nodes": 0, "seconds": time.perf_counter() - started, "score": 0,
                         "algorithm": algorithm, "pv": [f"{pos.v.seats[pos.turn].letter} {pos.move_text(move)}"]}
            return move
        movetime = self.movetime
        deadline = None
        if movetime is not None:
            # Leave room for unwinding and for the caller: stop a little before the time is up.
            deadline = started + max(0.01, movetime * 0.97 - 0.004)
        search = Search(game, algorithm, deadline, self._stop, self.rng)
        order = list(moves)
        self.rng.shuffle(order)          # variety among equal moves (the seed decides)
        order = [m for _, m in search.order([(pos.turn, m) for m in order], 0, True)]
        scores: Dict[Move, int] = {}
        best_move = order[0]             # if the time runs out before any move is searched
        best_score = 0
        best_pv: List[Tuple[int, Move]] = [(pos.turn, best_move)]
        reached = 0
        max_depth = self.depth if self.depth is not None else 64
        for depth in range(1, max_depth + 1):
            found: Dict[str, Any] = {}
            try:
                search.search_root(depth, order, scores, found)
            except SearchStopped:
                # The previous best is searched first: whatever this depth found is at least as
                # well informed.
                if "move" in found:
                    best_move, best_score, best_pv = found["move"], found["score"], found["pv"]
                break
            best_move, best_score, best_pv = found["move"], found["score"], found["pv"]
            reached = depth
            if on_depth is not None:
                on_depth({"depth": depth, "score": int(best_score), "pv": _pv_texts(game, best_pv)})
            # Next iteration: best first, then by this iteration's scores (stable: seeded order).
            order.sort(key=lambda m: scores.get(m, -INFINITE), reverse=True)
            order.remove(best_move)
            order.insert(0, best_move)
            if abs(best_score) >= STALEMATED_CP // 2:
                break                    # a forced elimination: deeper search will not change it
            if deadline is not None and time.perf_counter() > started + (deadline - started) * 0.6:
                break                    # the next depth would not get far: keep the time
        self.last = {"depth": reached, "nodes": search.nodes, "seconds": time.perf_counter() - started,
                     "score": int(best_score), "algorithm": algorithm, "pv": _pv_texts(game, best_pv)}
        return best_move


def _pv_texts(game: Any, pv: Sequence[Tuple[int, Move]]) -> List[str]:
    """The principal variation as colour letter and move text (``w Nf3``)."""
    pos = game.position.copy()
    texts = []
    for seat, m in pv:
        if pos.state[seat] not in (ACTIVE, ZOMBIE):
            break
        if pos.turn != seat:
            pos.pass_turn(seat)
        if m not in pos.legal_moves():
            break
        texts.append(f"{pos.v.seats[seat].letter} {pos.move_text(m)}")
        pos.push(m)
    return texts


def evaluate_position(game: Any) -> int:
    """The bots' static evaluation of ``game`` from the side of the seat to move, in centipawns."""
    search = Search(game, "brs", None, threading.Event(), random.Random(0))
    return search.evaluate(search.root)


def judge_move(game: Any, played: Move, seconds: float) -> Dict[str, Any]:
    """What the bots think of ``played``, the move made by the seat to move of ``game``: the best
    move found in ``seconds`` (``best``), its score (``score``) and the played move's score
    searched to the same depth (``played``), both in centipawns from the mover's side's view (an
    elimination is worth ``STALEMATED_CP`` or more)."""
    bot = Bot(movetime=seconds, algorithm="auto", seed=0)
    best = bot.choose(game)
    out: Dict[str, Any] = {"best": best, "score": bot.last["score"], "played": bot.last["score"],
           "depth": bot.last["depth"]}
    if best == played or played not in game.legal_moves():
        return out
    started = time.perf_counter()
    search = Search(game, bot.algorithm_for(mode_of(game)), started + seconds, threading.Event(), random.Random(0))
    for depth in range(1, max(1, bot.last["depth"]) + 1):
        found: Dict[str, Any] = {}
        try:
            search.search_root(depth, [played], {}, found)
        except SearchStopped:
            break
        out["played"] = int(found["score"])
    if out["played"] > out["score"]:            # a deeper look at it than the best had: no loss
        out["played"] = out["score"]
    return out

