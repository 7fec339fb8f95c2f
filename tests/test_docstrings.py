"""The examples in the docstrings are run, so they cannot drift from the code; and every call of the
public APIs that docs/API.md and docs/EIGHT_PLAYER_API.md list has an example that runs."""
import doctest
import importlib
import re
from pathlib import Path

import pytest

from xboard_engine import Position
from xboard_engine.multi.game import Game
from xboard_engine.multi.position import MultiPosition

DOCS = Path(__file__).resolve().parent.parent / "docs"
MODULES = ["xboard_engine", "xboard_engine.core.position", "xboard_engine.core.moves", "xboard_engine.core.board",
           "xboard_engine.core.variant", "xboard_engine.core.notation", "xboard_engine.core.movegen",
           "xboard_engine.core.attacks", "xboard_engine.core.fen", "xboard_engine.core.outcome",
           "xboard_engine.multi.position", "xboard_engine.multi.game"]

# (document, its heading over the calls, the class, the names the document gives its instances, an
# instance, the fewest calls the document must yield: a guard against a parser that finds nothing)
APIS = [("API.md", "# Rules-core API", Position, ("pos", "Position"), Position, 25),
        ("EIGHT_PLAYER_API.md", "## `Game`", Game, ("game", "Game"), Game, 14),
        ("EIGHT_PLAYER_API.md", "## `MultiPosition`", MultiPosition, ("pos", "MultiPosition"), MultiPosition, 10)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, verbose=False)
    assert failures == 0


def documented_names(document, heading, prefixes):
    """The attribute names ``prefix.name`` written in code in the first column of the tables under
    ``heading`` (up to the next heading of the same level or higher) and in its Python blocks."""
    level = heading.split()[0]
    names, inside, in_code = [], False, False
    for line in (DOCS / document).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and not in_code:
            if inside and len(line.split()[0]) <= len(level):
                break
            inside = inside or line.strip() == heading
            continue
        if line.startswith("```"):
            in_code = not in_code
            continue
        if not inside:
            continue
        if in_code:
            text = line.split("#")[0]
        elif line.startswith("| `"):
            text = " ".join(re.findall(r"`([^`]*)`", line.split("|")[1]))
        else:
            continue
        for prefix, name in re.findall(r"\b(\w+)\.(\w+)", text):
            if prefix in prefixes and name not in names:
                names.append(name)
    return names


def document_examples(document, heading):
    """The text of the ``pycon`` blocks under ``heading`` (examples the document itself shows)."""
    level = heading.split()[0]
    blocks, inside, in_block = [], False, False
    for line in (DOCS / document).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and not in_block:
            if inside and len(line.split()[0]) <= len(level):
                break
            inside = inside or line.strip() == heading
            continue
        if inside and line.startswith("```"):
            in_block = line.strip() == "```pycon"
            continue
        if in_block:
            blocks.append(line)
    return "\n".join(blocks) + "\n"


@pytest.mark.parametrize("document, heading, cls, prefixes, make, fewest", APIS,
                         ids=[f"{a[0]}:{a[2].__name__}" for a in APIS])
def test_documented_api_calls_have_examples_that_pass(document, heading, cls, prefixes, make, fewest):
    """Each method or function the document lists is called in a doctest of its class (the class's
    docstring or the method's own) or in the document's own examples, and those doctests pass; each
    attribute it lists exists."""
    names = documented_names(document, heading, prefixes)
    instance = make()
    missing_attributes = [name for name in names if not hasattr(instance, name)]
    assert not missing_attributes, f"{document} lists what {cls.__name__} does not have: {missing_attributes}"
    calls = [name for name in names if callable(getattr(instance, name))]
    assert len(calls) >= fewest, f"only {calls} found in {document} under {heading}"
    globs = vars(importlib.import_module(cls.__module__))
    tests = doctest.DocTestFinder().find(cls, cls.__name__, globs=globs)
    tests.append(doctest.DocTestParser().get_doctest(document_examples(document, heading), dict(globs),
                                                     document, str(DOCS / document), 0))
    source = "\n".join(example.source for test in tests for example in test.examples)
    without = [name for name in calls if not re.search(rf"\.{name}\(", source)]
    assert not without, f"calls of {document} without an example in {cls.__name__}'s docstrings or the document: {without}"
    runner = doctest.DocTestRunner()
    for test in tests:
        runner.run(test, out=lambda text: None)
    results = runner.summarize(verbose=False)
    assert results.attempted >= len(calls) // 2 and results.failed == 0, results
