"""Settings of the Python runtime the engine runs on.

Under PyPy the JIT compiles a hot loop by tracing it; a trace is abandoned past ``trace_limit``
recorded operations (6000 by default), and compiling one holds the interpreter, during which no
other thread runs: not the one that answers `isready`/`ping`.  The search's loops are long: shorter
traces keep those pauses short and make the search faster too (figures: README, "Runtime settings").
"""
import platform
import sys

JIT_TRACE_LIMIT = 2000


def interpreter_name() -> str:
    """The interpreter this process runs on, as the engine names it: "PyPy 7.3.11", "CPython 3.11.7"."""
    implementation = platform.python_implementation()
    if implementation == "PyPy":
        version = ".".join(str(part) for part in sys.pypy_version_info[:3])   # type: ignore[attr-defined]
    else:
        version = platform.python_version()
    return f"{implementation} {version}"


def engine_name() -> str:
    """The name the engine gives itself (UCI `id name`, CECP `feature myname`), with its interpreter."""
    from . import __version__
    return f"xboard-variant-engine {__version__} ({interpreter_name()})"


def tune_jit() -> None:
    """Set the PyPy JIT's parameters (nothing under CPython)."""
    if platform.python_implementation() != "PyPy":
        return
    try:
        import pypyjit
    except ImportError:
        return
    pypyjit.set_param(trace_limit=JIT_TRACE_LIMIT)
