"""Settings of the Python runtime the engine runs on.

Under PyPy the JIT compiles a hot loop by tracing it; a trace is abandoned past ``trace_limit``
recorded operations (6000 by default), and compiling one holds the interpreter, during which no
other thread runs: not the one that answers `isready`/`ping`.  The search's loops are long: shorter
traces keep those pauses short and make the search faster too (figures: README, "Runtime settings").
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
