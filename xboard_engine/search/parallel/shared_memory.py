"""The shared memory of the Lazy SMP search (``smp.py``): an anonymous file handed to the helpers as a
descriptor (POSIX), or named shared memory opened by its name (Windows; ``XBOARD_ENGINE_SHARED_MEMORY``
chooses), with what keeps Python's resource tracker from unlinking named memory it does not own."""
import contextlib
import mmap
import os
import sys
import tempfile
import threading
from typing import Any, Iterator, List, Tuple

MEMORY_VARIABLE = "XBOARD_ENGINE_SHARED_MEMORY"
MEMORY_KINDS = ("fd", "named")


def memory_kind() -> str:
    """The kind of shared memory for the helpers: ``XBOARD_ENGINE_SHARED_MEMORY`` (``fd`` or ``named``)
    if set, else ``fd`` on POSIX systems (Linux, macOS) and ``named`` elsewhere (Windows)."""
    kind = os.environ.get(MEMORY_VARIABLE, "").strip().lower()
    if not kind:
        return "fd" if os.name == "posix" else "named"
    if kind not in MEMORY_KINDS:
        raise ValueError(f"{MEMORY_VARIABLE} is {kind!r}, not fd or named")
    return kind


class Memory:
    """An anonymous shared mapping of ``size`` bytes and the descriptor helpers map it by."""

    kind = "fd"

    def __init__(self, size: int) -> None:
        if os.name != "posix":
            raise OSError("shared memory by file descriptor needs POSIX descriptor passing")
        self.size = size
        if hasattr(os, "memfd_create"):
            self.fd = os.memfd_create("xboard-engine-hash")
        else:
            handle, path = tempfile.mkstemp(prefix="xboard-engine-hash-")
            os.unlink(path)
            self.fd = handle
        os.ftruncate(self.fd, size)
        self.map = mmap.mmap(self.fd, size)
        self.bytes = self.map                       # what the table clears (by pages: MADV_REMOVE)
        self.words = memoryview(self.map).cast("Q")
        self.argument = f"fd:{self.fd}"             # a helper's first argument
        self.pass_fds: Tuple[int, ...] = (self.fd,)

    def attached(self) -> None:
        """Every helper has mapped the memory (it has no name to take away)."""

    def close(self) -> None:
        try:
            self.words.release()
            self.map.close()
        except (BufferError, ValueError):
            pass                                    # a probe still holds it: freed with the process
        os.close(self.fd)


_TRACKER_LOCK = threading.Lock()
_HELD: List[Any] = []                               # named memory a view still held at its close


def _ignore(name: str, rtype: str) -> None:
    pass


@contextlib.contextmanager
def _untracked() -> Iterator[None]:
    """Keep ``multiprocessing``'s resource tracker out of the named memory made, opened or unlinked
    meanwhile.  On POSIX it starts a process of its own (one more child of the engine), and when a
    process that opened the memory ends it unlinks the memory (the engine's, while the engine and the
    other helpers use it) with a warning about leaked objects.  Python 3.13 says ``track=False``
    (``open_named``); before it, its ``register``/``unregister`` do nothing meanwhile (the engine
    uses ``multiprocessing`` nowhere else)."""
    if os.name != "posix" or sys.version_info >= (3, 13):
        yield
        return
    from multiprocessing import resource_tracker
    with _TRACKER_LOCK:
        saved = resource_tracker.register, resource_tracker.unregister
        resource_tracker.register = resource_tracker.unregister = _ignore
        try:
            yield
        finally:
            resource_tracker.register, resource_tracker.unregister = saved


def open_named(name: str, create: bool = False, size: int = 0) -> Any:
    """``multiprocessing.shared_memory.SharedMemory(name, create, size)``, untracked (``_untracked``)."""
    from multiprocessing.shared_memory import SharedMemory
    with _untracked():
        if sys.version_info >= (3, 13):
            return SharedMemory(name, create, size, track=False)
        return SharedMemory(name, create, size)


def unlink(shm: Any) -> None:
    """Take the name of named memory away (POSIX; nothing on Windows), if no process did it first."""
    with _untracked():
        try:
            shm.unlink()
        except FileNotFoundError:
            pass


class NamedMemory:
    """Named shared memory of ``size`` bytes (``multiprocessing.shared_memory``) and its name, which
    helpers open it by: for systems without descriptor passing (Windows)."""

    kind = "named"

    def __init__(self, size: int) -> None:
        self.size = size
        if os.name == "posix" and os.path.isdir("/dev/shm"):
            free = os.statvfs("/dev/shm")
            if free.f_bavail * free.f_frsize < size:  # (a page written beyond would kill the engine)
                raise OSError(f"/dev/shm has {free.f_bavail * free.f_frsize >> 20} MB free, "
                              f"the table needs {size >> 20} MB")
        for attempt in range(8):
            try:
                self.shm = open_named(f"xbe-{os.getpid()}-{os.urandom(4).hex()}", True, size)
                break
            except FileExistsError:
                if attempt == 7:
                    raise
        self.bytes = self.shm.buf[:size]            # (Windows rounds the size up to whole pages)
        self.words = self.bytes.cast("Q")
        self.argument = "name:" + self.shm.name
        self.pass_fds: Tuple[int, ...] = ()
        self._lock = threading.Lock()
        self._unlinked = False

    def attached(self) -> None:
        """Every helper has mapped the memory: its name goes, so that no file stays in /dev/shm
        however the engine ends (POSIX; on Windows the memory goes with the last process that has it)."""
        with self._lock:
            if self._unlinked:
                return
            self._unlinked = True
        unlink(self.shm)

    def close(self) -> None:
        self.attached()
        try:
            self.words.release()
            self.bytes.release()
            self.shm.close()
        except (BufferError, ValueError):
            _HELD.append(self.shm)                  # a view still holds it: freed with the process
                                                    # (not collected meanwhile, which would retry)


def shared_mapping(size: int) -> Any:
    """Shared memory of ``size`` bytes of the kind ``memory_kind()`` says."""
    return Memory(size) if memory_kind() == "fd" else NamedMemory(size)


def attach(memory: str, size: int) -> Tuple[memoryview, Any]:
    """A helper's view of the engine's memory as words (``fd:N``: a descriptor passed; ``name:NAME``:
    named memory) and the named memory (None for a descriptor), to be kept while the view is used."""
    kind, _, value = memory.partition(":")
    if kind == "fd":
        return memoryview(mmap.mmap(int(value), size)).cast("Q"), None
    if kind == "name":
        shm = open_named(value)
        return shm.buf[:size].cast("Q"), shm
    raise ValueError(f"no shared memory {memory!r}: fd:N or name:NAME")
