"""Every engine the tests start runs under the interpreter that runs the tests, as it did before the
engine learnt to move itself to PyPy (xboard_engine/interpreter.py): a test started with
``sys.executable -m xboard_engine`` measures that interpreter, and CPython's start (0.2 s) is not
PyPy's (2.5 s with its JIT warm-up).  tests/test_interpreter.py sets its own environments."""
import os

os.environ["XBOARD_ENGINE_INTERPRETER"] = "current"
