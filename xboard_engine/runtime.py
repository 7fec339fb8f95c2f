"""Settings of the Python runtime the engine runs on.

Under PyPy the JIT compiles a hot loop by tracing it; a trace is abandoned past ``trace_limit``
recorded operations (6000 by default), and compiling one holds the interpreter for up to 25 ms
(seen with PYPYLOG=jit-tracing during searches), during which no other thread runs: not the one that
answers `isready`/`ping`.  The search's loops are long: with traces of at most 2000 operations the
pauses stay under 10 ms after the first second, and the search runs 1.5 to 2 times as many nodes per
second (scripts/bench.py and ten-second searches, PyPy 7.3.11, side by side with the default).
"""
import platform

JIT_TRACE_LIMIT = 2000


def tune_jit() -> None:
    """Set the PyPy JIT's parameters (nothing under CPython)."""
    if platform.python_implementation() != "PyPy":
        return
    try:
        import pypyjit
    except ImportError:
        return
    pypyjit.set_param(trace_limit=JIT_TRACE_LIMIT)
