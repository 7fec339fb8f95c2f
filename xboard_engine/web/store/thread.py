"""The store thread: a ``Store`` for the event loop, each call run in order on the store's own thread."""
import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .records import Store


class AsyncStore:
    """A ``Store`` for the event loop: each method of the store it wraps, as a coroutine run on the
    store's own thread, so the loop never waits for the database.  Calls run one at a time in the
    order they were made (a write made before another commits before it; a read sees every write
    awaited before it).  ``sync`` is the store itself, for start-up and shut-down, when the loop
    serves nobody yet."""

    def __init__(self, store: Store) -> None:
        self.sync = store
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="store")

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.sync, name)
        if name.startswith("_") or not callable(method):
            return method

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.get_running_loop().run_in_executor(
                self._thread, functools.partial(method, *args, **kwargs))
        call.__name__ = name
        setattr(self, name, call)                 # made once per method
        return call

    def drain(self) -> None:
        """Waits for the calls already made (a clean stop); the store stays open."""
        self._thread.shutdown(wait=True)

    def close(self) -> None:
        """Waits for the calls already made, then closes the store."""
        self.drain()
        self.sync.close()
