"""Running tournament games as tasks on an existing Dask cluster (optional extra ``dask``)."""
import concurrent.futures
from typing import Callable, Tuple


def dask_executor(address: str, function: Callable, arguments: Callable) -> Tuple[Callable, Callable]:
    """(submit, shutdown) for a ``dask.distributed`` cluster at ``address``.

    ``submit(spec)`` returns a ``concurrent.futures.Future`` that completes with the task's result,
    so the tournament loop treats local and remote games alike."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("-cluster needs dask.distributed: pip install 'xboard-variant-engine[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the Dask cluster at {address}: {error}") from None

    def submit(spec) -> concurrent.futures.Future:
        positional, keywords = arguments(spec)
        local: concurrent.futures.Future = concurrent.futures.Future()
        remote = client.submit(function, *positional, pure=False, **keywords)

        def done(future) -> None:
            try:
                local.set_result(future.result())
            except Exception as error:          # the task failed on the worker
                local.set_exception(error)
        remote.add_done_callback(done)
        return local

    return submit, client.close
