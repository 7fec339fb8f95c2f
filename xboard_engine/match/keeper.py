"""Engines kept between games, as cutechess-cli keeps them (its ``restart`` engine option).

A tournament worker plays its games one after another; starting both engines again for every game
costs a second of handshake each and, for an engine with a JIT (this project's under PyPy), plays
every game's first moves with a cold engine.  So a worker keeps its engines: at a game's end the
referee hands each engine back with ``release``, the keeper tells it the result and checks that it
answers, and the next game that needs the same engine (the same ``EngineConfig``) gets it from
``acquire`` and starts it with ``ucinewgame``/``new`` as any game does.

Each engine's ``restart`` key decides:

- ``auto`` (the default): keep a UCI engine, and a CECP engine unless it said ``feature reuse=0``;
- ``off``: keep it whatever it said;
- ``on``: quit it after every game and start it again for the next.

An engine that failed in the game (crashed, stalled, lost on time, sent an illegal move or broke
the protocol) or does not answer the check is never kept: the next game starts it again.  The
keeper quits every engine it holds at ``close``, which a worker process runs as it exits.
"""
import threading
from typing import Dict, List, Optional

from .engines import CecpClient, EngineClient, EngineConfig, EngineFailure, start_engine

RESTART_CHOICES = ("auto", "on", "off")
CHECK_TIMEOUT = 5.0          # seconds a kept engine has to answer ping/isready after its game


def keeps(client: EngineClient) -> bool:
    """Whether ``client``'s engine may be kept for another game, by its ``restart`` key."""
    restart = client.config.restart
    if restart == "on":
        return False
    if restart == "off":
        return True
    return not (isinstance(client, CecpClient) and client.features.get("reuse") == "0")


class EngineKeeper:
    """The engines one worker keeps between its games, by configuration."""

    def __init__(self) -> None:
        self._idle: Dict[EngineConfig, List[EngineClient]] = {}
        self._lock = threading.Lock()
        self.started = 0                     # engines started through ``acquire`` (for reports, tests)

    def has(self, config: EngineConfig) -> bool:
        """Whether an engine of ``config`` is kept (``acquire`` would not start one unless it died)."""
        with self._lock:
            return bool(self._idle.get(config))

    def acquire(self, config: EngineConfig) -> EngineClient:
        """A kept engine of ``config`` whose process still runs, else a new one (EngineFailure if it
        cannot start)."""
        while True:
            with self._lock:
                idle = self._idle.get(config)
                client = idle.pop() if idle else None
            if client is None:
                break
            if client.process.proc.poll() is None:
                return client
            client.close()                   # died while it waited: start another
        self.started += 1
        return start_engine(config)

    def release(self, client: EngineClient, result: str, reason: str, failed: bool) -> None:
        """The game of ``client`` has ended with ``result`` ("1-0", ... or "*"): keep the engine for
        the next game if its ``restart`` key allows and it did not fail, else quit it."""
        if failed or not keeps(client):
            client.quit()
            return
        try:
            client.end_game(result, reason)
            client.sync(CHECK_TIMEOUT)
        except EngineFailure:
            client.quit()
            return
        with self._lock:
            self._idle.setdefault(client.config, []).append(client)

    def close(self) -> None:
        """Quit every kept engine."""
        with self._lock:
            clients = [c for idle in self._idle.values() for c in idle]
            self._idle.clear()
        for client in clients:
            client.quit()


_WORKER_KEEPER: Optional[EngineKeeper] = None


def worker_keeper() -> EngineKeeper:
    """This process's keeper (a tournament worker's), made at the first call; its engines are quit
    when the process exits (a multiprocessing worker runs the finalizer, any other process atexit)."""
    global _WORKER_KEEPER
    if _WORKER_KEEPER is None:
        import atexit
        from multiprocessing import util
        keeper = EngineKeeper()
        util.Finalize(keeper, keeper.close, exitpriority=10)
        atexit.register(keeper.close)
        _WORKER_KEEPER = keeper
    return _WORKER_KEEPER
