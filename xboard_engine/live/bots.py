"""The bot seats' thinking, off the server's loop: a bounded pool of worker processes (or a Dask
cluster's workers) that each take a position and give back a move.  The jobs are plain functions
of plain data, so a worker needs nothing of the server."""
import asyncio
import concurrent.futures
import multiprocessing
import random
import time
from typing import Any, Dict, List, Optional

WORKER_HASH_MB = 16
_searcher = None            # one per worker process, kept between moves


def two_player_move(variant: str, start_fen: str, moves: List[str], seconds: float, skill: int,
                    seed: int) -> str:
    """Our engine's move (coordinate text) after ``moves`` from ``start_fen``, within ``seconds``."""
    global _searcher
    from ..position import Position
    from ..search import FULL_SKILL, Limits, Searcher
    if _searcher is None:
        _searcher = Searcher(hash_mb=WORKER_HASH_MB)
    pos = Position.from_fen(start_fen, variant)
    for text in moves:
        pos.push(pos.parse_move(text))
    legal = pos.legal_moves()
    if len(legal) == 1:
        return pos.move_text(legal[0])
    random.seed(seed)
    result = _searcher.search(pos, Limits(soft_time=seconds * 0.5, hard_time=seconds,
                                          skill=min(skill, FULL_SKILL), randomize=skill < FULL_SKILL))
    move = result.move if result.move in legal else random.Random(seed).choice(legal)
    return pos.move_text(move)


def eight_player_move(game: Dict[str, Any], level: Optional[Dict[str, Any]], seconds: float, seed: int) -> str:
    """An 8 Player Chess bot's move (the text's notation) for the seat to move of ``game``
    (``Game.to_dict``); ``level`` is the bot's settings, None for a random mover."""
    from ..multi.bots import Bot
    from ..multi.game import Game
    from ..multi.notation import move_text
    g = Game.from_dict(game)
    legal = g.legal_moves()
    if level is None:
        move = random.Random(seed).choice(legal)
    else:
        settings = dict(level)
        if settings.get("movetime") is not None:
            settings["movetime"] = max(0.05, min(float(settings["movetime"]), seconds))
        move = Bot(seed=seed, **settings).choose(g)
        if move not in legal:
            move = random.Random(seed).choice(legal)
    return move_text(g.position, move, legal=legal)


class AtCapacity(Exception):
    """No room for another game with bots now."""


class BotPool:
    """``workers`` processes thinking for at most ``max_games`` games with bots at once."""

    def __init__(self, workers: int, max_games: int, cluster: Optional[str] = None) -> None:
        self.workers = max(1, workers)
        self.max_games = max_games
        self.cluster = cluster
        self._executor: Optional[concurrent.futures.Executor] = None
        self._client: Any = None

    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.cluster:
                from distributed import Client
                self._client = Client(self.cluster)
                self._executor = self._client.get_executor()
            else:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def run(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` in a worker; a broken pool is made again once."""
        loop = asyncio.get_event_loop()
        try:
            return await loop.run_in_executor(self.executor(), function, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self._executor = None
            return await loop.run_in_executor(self.executor(), function, *args)

    def shutdown(self) -> None:
        if self._executor is not None:
            processes = list((getattr(self._executor, "_processes", None) or {}).values())
            try:
                self._executor.shutdown(wait=False, cancel_futures=True)
            except TypeError:                      # Python 3.8's and Dask's executors
                self._executor.shutdown(wait=False)
            for process in processes:
                process.kill()                     # a search in progress must not hold the stop
            self._executor = None
        if self._client is not None:
            self._client.close()
            self._client = None


def budget(clock_left: Optional[float], increment: float, level_seconds: float) -> float:
    """Seconds a bot may think: its level's time, less when its clock is low."""
    if clock_left is None:
        return level_seconds
    return max(0.05, min(level_seconds, clock_left / 30 + increment * 0.8))


def seed_now() -> int:
    return int(time.time() * 1000) & 0x7FFFFFFF
