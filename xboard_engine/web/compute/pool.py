"""The bot seats' thinking, off the server's loop: a bounded pool of worker processes (or a Dask
cluster's workers) that each take a position and give back a move.  The jobs are plain functions
of plain data, so a worker needs nothing of the server.  A local worker tells the server the
lines it thinks through a queue (the pages show them to those who may see them), and ends itself
when the server is gone, however the server ended."""
import asyncio
import concurrent.futures
import multiprocessing
import os
import queue
import random
import threading
import time
from typing import Any, Callable, Dict, List, Optional

WORKER_HASH_MB = 16
WATCH_PERIOD = 0.5          # seconds between a worker's looks at whether the server is still there
_searcher = None            # one per worker process, kept between moves
_lines: Any = None          # the queue a worker's lines go to the server through
_games: Dict[Any, Any] = {}  # the 8 Player games a worker saw last, by key (oldest first)
GAMES_KEPT = 64


def _worker_start(lines: Any, parent: int) -> None:
    """A worker's first act: keep the lines queue, and end with the server (a SIGKILL of the
    server reparents the worker; it then exits within WATCH_PERIOD)."""
    global _lines
    _lines = lines

    def watch() -> None:
        while True:
            time.sleep(WATCH_PERIOD)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _searcher_here() -> Any:
    """This worker's searcher (its table kept between moves)."""
    global _searcher
    from ...search.searcher import Searcher
    if _searcher is None:
        _searcher = Searcher(hash_mb=WORKER_HASH_MB)
    return _searcher


def _position(variant: str, start_fen: str, moves: List[str]) -> Any:
    from ...core.position import Position
    pos = Position.from_fen(start_fen, variant)
    for text in moves:
        pos.push(pos.parse_move(text))
    return pos


def _reporter(pos: Any, job: Any) -> Any:
    """What a search calls with each line: the line (score from White's side, the moves in SAN) to
    the server as ``(job, depth, score, pv)``, when a job names who wants it."""
    from ...search.score import from_search
    side = pos.stm

    def report(info: Any) -> None:
        if _lines is None or job is None:
            return
        shown = from_search(info.score).for_white(side).page_text()
        board, sans = pos.copy(), []
        for move in info.pv[:12]:
            sans.append(board.san(move))
            board.push(move)
        try:
            _lines.put_nowait((job, info.depth, shown, sans))
        except Exception:                        # a full or closed queue: the line is not needed
            pass
    return report


def two_player_move(variant: str, start_fen: str, moves: List[str], seconds: float, skill: int,
                    seed: int, depth: Optional[int] = None, job: Any = None) -> str:
    """Our engine's move (coordinate text) after ``moves`` from ``start_fen``, within ``seconds``
    (or to ``depth``).  Each line it finds goes to the server as ``(job, depth, score, pv)``."""
    from ...search.searcher import FULL_SKILL, Limits
    pos = _position(variant, start_fen, moves)
    legal = pos.legal_moves()
    if len(legal) == 1:
        return pos.move_text(legal[0])
    random.seed(seed)
    limits = Limits(soft_time=seconds * 0.5, hard_time=seconds, depth=depth, skill=min(skill, FULL_SKILL),
                    randomize=skill < FULL_SKILL)
    result = _searcher_here().search(pos, limits, on_info=_reporter(pos, job))
    move = result.move if result.move in legal else random.Random(seed).choice(legal)
    return pos.move_text(move)


def analyse_position(variant: str, start_fen: str, moves: List[str], seconds: float,
                     job: Any = None) -> Dict[str, Any]:
    """Our engine's judgement of the position after ``moves``: its best move (coordinate text and
    SAN) and the score from White's view (``cp``, or ``mate``: full moves, negative when Black
    mates), searched for ``seconds`` at full strength.  Lines go to the server as for a bot's move
    when ``job`` names who wants them.  A position with no legal move gives no move."""
    from ...search.score import from_search
    from ...search.searcher import FULL_SKILL, Limits
    pos = _position(variant, start_fen, moves)
    if not pos.legal_moves():
        return {"best": None, "san": None, "cp": None, "mate": None}
    side = pos.stm
    limits = Limits(soft_time=seconds, hard_time=seconds, skill=FULL_SKILL)
    result = _searcher_here().search(pos, limits, on_info=_reporter(pos, job))
    score = from_search(result.score).for_white(side)
    mate = None if not score.is_mate else (score.mate_moves if score.mating else -score.mate_moves)
    return {"best": pos.move_text(result.move), "san": pos.san(result.move),
            "cp": None if score.is_mate else score.cp, "mate": mate}


def eight_player_move(game: Dict[str, Any], level: Optional[Dict[str, Any]], seconds: float, seed: int,
                      key: Any = None) -> str:
    """An 8 Player Chess bot's move (the text's notation) for the seat to move of ``game``
    (``Game.to_dict``); ``level`` is the bot's settings, None for a random mover.  ``key`` names the
    game: a worker keeps the games it saw last and plays on from there (replaying a long game from
    its start took half a second at 2,000 actions)."""
    from ...multi.bots.bot import Bot
    from ...multi.notation import move_text
    g = _game_now(game, key)
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


def analyse_eight_action(game: Dict[str, Any], index: int, seconds: float, key: Any = None) -> Dict[str, Any]:
    """Our 8 Player bots' look at action ``index`` of ``game`` (``Game.to_dict``): for a move by an
    active seat, the best move found in ``seconds`` (``best``, the text's notation), its score
    (``score``) and the played move's (``played``), in centipawns from the mover's side's view; for
    anything else (a resignation, a Zombie King's move) only the seat and the kind."""
    from ...multi.bots.bot import judge_move
    from ...multi.notation import move_text
    from ...multi.position import ACTIVE
    seat, kind, text = game["actions"][index]
    g = _game_now(dict(game, actions=game["actions"][:index]), key)
    if kind != "move" or g.over or g.turn != seat or g.position.state[seat] != ACTIVE:
        return {"seat": seat, "kind": kind}
    legal = g.legal_moves()
    judged = judge_move(g, g.parse_move(text), seconds)
    return {"seat": seat, "kind": kind, "best": move_text(g.position, judged["best"], legal=legal),
            "score": judged["score"], "played": judged["played"], "depth": judged["depth"]}


def eight_lines(game: Dict[str, Any], count: int, seconds: float, job: Any = None) -> Dict[str, Any]:
    """Our 8 Player bot's lines on the position after the first ``count`` actions of ``game``, for
    the seat to move there: each completed depth goes to the server as ``(job, depth, score, pv)``
    (the score in pawns from the mover's side's view); the answer is the best move and its score."""
    from ...multi.bots.bot import Bot
    from ...multi.notation import move_text
    g = _game_now(dict(game, actions=game["actions"][:count]), None)
    if g.over or g.turn is None:
        return {"best": None, "score": None, "seat": None}
    seat = g.turn

    def report(found: Dict[str, Any]) -> None:
        if _lines is None or job is None:
            return
        try:
            _lines.put_nowait((job, found["depth"], f"{found['score'] / 100:+.2f}", found["pv"][:12]))
        except Exception:                        # a full or closed queue: the line is not needed
            pass
    legal = g.legal_moves()
    bot = Bot(movetime=seconds, algorithm="auto", seed=0)
    move = bot.choose(g, on_depth=report)
    return {"best": move_text(g.position, move, legal=legal), "score": bot.last["score"], "seat": seat}


def _game_now(data: Dict[str, Any], key: Any) -> Any:
    """The 8 Player game ``data`` describes: this worker's copy of it brought up to date if it has
    one (8 Player actions are only ever added to), else read from the start."""
    from ...multi.game import Game
    actions = data["actions"]
    cached = _games.pop(key, None) if key is not None else None
    if cached is not None:
        done = len(cached.actions)
        if done <= len(actions) and (not done or list(cached.actions[-1]) == list(actions[done - 1])):
            cached.replay(actions[done:])
        else:
            cached = None
    game = cached if cached is not None else Game.from_dict(data)
    if key is not None:
        _games[key] = game
        while len(_games) > GAMES_KEPT:
            _games.pop(next(iter(_games)))
    return game


class BotPool:
    """``workers`` processes thinking for at most ``max_games`` games with bots at once.
    ``on_thinking(job, depth, score, pv)`` is called on the server's loop for each line a worker
    thinks (local workers only)."""

    def __init__(self, workers: int, max_games: int, cluster: Optional[str] = None) -> None:
        self.workers = max(1, workers)
        self.max_games = max_games
        self.cluster = cluster
        self.on_thinking: Optional[Callable[..., None]] = None
        self._executor: Optional[concurrent.futures.Executor] = None
        self._client: Any = None
        self._lines: Any = None
        self._reader: Optional[threading.Thread] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.cluster:
                from distributed import Client
                self._client = Client(self.cluster)
                self._executor = self._client.get_executor()
            else:
                context = multiprocessing.get_context("spawn")
                if self._lines is None:
                    self._lines = context.Queue(1000)
                    self._reader = threading.Thread(target=self._read_lines, daemon=True, name="bot-lines")
                    self._reader.start()
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context, initializer=_worker_start,
                    initargs=(self._lines, os.getpid()))
        return self._executor

    def _read_lines(self) -> None:
        while True:
            try:
                item = self._lines.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            loop, callback = self._loop, self.on_thinking
            if loop is not None and callback is not None and not loop.is_closed():
                try:
                    loop.call_soon_threadsafe(callback, *item)
                except RuntimeError:                 # the loop closed meanwhile
                    return

    async def run(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` in a worker; a broken pool is made again once."""
        loop = asyncio.get_event_loop()
        self._loop = loop
        if self.cluster and function is two_player_move:
            args = args[:7] + (None,)                # a cluster's workers have no lines queue
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
        if self._lines is not None:
            try:
                self._lines.put_nowait(None)
            except (queue.Full, ValueError, OSError):
                pass
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
