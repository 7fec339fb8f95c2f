"""The examples in the rules core's docstrings are run, so they cannot drift from the code."""
import doctest
import importlib

import pytest

MODULES = ["xboard_engine", "xboard_engine.position", "xboard_engine.moves", "xboard_engine.board",
           "xboard_engine.variant", "xboard_engine.notation", "xboard_engine.movegen",
           "xboard_engine.attacks", "xboard_engine.fen", "xboard_engine.outcome"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, verbose=False)
    assert failures == 0


def test_docstrings_have_examples():
    tested = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert tested >= 6
