"""Settings of the Python runtime the engine runs on.

Under PyPy the JIT compiles a hot loop by tracing it.  Its defaults suit programs whose hot code is
a few loops; the search is the opposite, a recursive function with many branches, and under the
defaults a fresh engine took 10 to 20 seconds of searching to reach its full speed (8-Piece Chess
never did within 20 s: 7k nodes/s against 30k).  What the parameters below change, each measured
by 1-s searches of a fresh process (``scripts/first_moves.py``; figures in docs/STRENGTH.md):

- ``max_unroll_recursion=0``: a recursive call is never inlined into the caller's trace (the
  default, 7 levels, recorded huge traces of the search inside itself that were mostly thrown
  away); each call enters the compiled search instead.
- no ``unroll`` among the optimisations: a loop is compiled once, not peeled and specialised a
  second time, so compiling takes about half as long; the search's loops are short and the fully
  warm speed is the same.
- lower thresholds (``threshold``, ``function_threshold``, ``trace_eagerness``): code and the
  bridges of failing guards are compiled after fewer runs, so warm-up ends sooner.
- ``trace_limit``: a trace is abandoned past this many operations (6000 by default); compiling
  one holds the interpreter, during which no other thread runs, not the one that answers
  `isready`/`ping`: shorter traces keep those pauses short.
"""
import platform
import sys

JIT_TRACE_LIMIT = 1000
JIT_PARAMETERS = ("max_unroll_recursion=0,threshold=100,function_threshold=100,trace_eagerness=20,"
                  "enable_opts=intbounds:rewrite:virtualize:string:pure:earlyforce:heap")


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
    from .. import __version__
    return f"xboard-variant-engine {__version__} ({interpreter_name()})"


def tune_jit() -> None:
    """Set the PyPy JIT's parameters (nothing under CPython)."""
    if platform.python_implementation() != "PyPy":
        return
    try:
        import pypyjit
    except ImportError:
        return
    pypyjit.set_param(JIT_PARAMETERS)
    pypyjit.set_param(trace_limit=JIT_TRACE_LIMIT)
