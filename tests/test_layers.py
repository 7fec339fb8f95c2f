"""The package's layers and what each may import, checked over every import of every module (inside
functions too), as docs/ARCHITECTURE.md, "Layers" states them.

The modules still lie side by side in ``xboard_engine/`` (issue 51 moves them into folders named after
their layers); ``LAYER_OF`` says which layer each is in, and a module this test does not know is a
failure, so that a new module is placed on purpose."""
import ast
import importlib.util
import sys
import sysconfig
from pathlib import Path
from typing import Dict, Iterator, Set, Tuple

PACKAGE = Path(__file__).resolve().parent.parent / "xboard_engine"

CORE = {"board", "pieces", "behaviours", "variant", "moves", "position", "make", "movegen", "attacks", "fen",
        "notation", "outcome", "zobrist", "errors", "digits", "paths", "images", "time_control"}
SEARCH = {"alphabeta", "search", "ttable", "evaluation", "evaluation_net", "mop_up", "timeman", "score", "bench",
          "warmup", "smp", "shared_table", "runtime"}
ENGINE = {"driver", "engine_options", "uci", "uci_input", "cecp", "session", "thinker", "guided_entry",
          "xboard_view", "xboard_picture", "xboard_fen", "textio", "launcher", "interpreter"}
# The package's face (``from xboard_engine import Position``) and the program's entry (``cli``, which
# starts whichever tool the command line names) may import every layer.
APP = {"__init__", "__main__", "cli"}

# What each layer may import besides itself and the standard library.  Single modules of another
# layer are named with it ("score": how scores are shown; "web.wire": the server's state format).
MAY_IMPORT: Dict[str, Set[str]] = {
    "core": set(),
    "search": {"core"},
    "engine": {"core", "search"},
    "match": {"core", "score"},
    "multi": {"core"},
    "web": {"core", "search", "multi", "match", "engine"},
    "botclient": {"core", "match", "score", "web.wire"},
    "app": {"core", "search", "engine", "match", "multi", "web", "botclient"},
}
# Third-party packages a layer may use (the engine's layers: none, ever).
THIRD_PARTY: Dict[str, Set[str]] = {"web": {"aiohttp", "psycopg", "openskill", "dask", "distributed"},
                                    "botclient": {"aiohttp"}, "match": {"dask", "distributed"}}
# Within the engine, the two protocols know nothing of each other: XBoard's quirks and the CECP game
# stay out of UCI.
CECP_ONLY = {"cecp", "session", "thinker", "guided_entry", "xboard_view", "xboard_picture", "xboard_fen", "launcher"}
UCI_ONLY = {"uci", "uci_input"}
# The web app's store keeps records; it knows no game rules.
STORE = {"web.store", "web.store_postgres"}


def layer_of(module: str) -> str:
    """The layer of a module named relative to the package (``web.hall``, ``position``)."""
    top = module.split(".")[0]
    if top in ("match", "multi", "web", "botclient"):
        return top
    for name, members in (("core", CORE), ("search", SEARCH), ("engine", ENGINE), ("app", APP)):
        if top in members:
            return name
    raise AssertionError(f"xboard_engine/{module.replace('.', '/')}: in no layer of tests/test_layers.py")


def modules() -> Iterator[Tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        yield ".".join(parts), path


def imports(module: str, path: Path) -> Iterator[Tuple[int, str]]:
    """(line, what) for every import: ``xboard_engine.X`` as ``X``, anything else by its top name."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if module == "__init__":
        package = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names = [node.module or ""]
            else:
                base = package[:len(package) - node.level + 1]
                names = [".".join(["xboard_engine"] + base + ([node.module] if node.module else [a.name]))
                         for a in (node.names if node.module is None else [None])]
            for name in names:
                yield node.lineno, name


def in_standard_library(top: str) -> bool:
    """Part of Python itself: built in, PyPy's own (``pypyjit``, ``__pypy__``), or found in the
    interpreter's standard library folder (a module missing here, such as ``psycopg``, is not)."""
    if top in sys.builtin_module_names or top in ("pypyjit", "__pypy__", "_winapi", "msvcrt", "winreg"):
        return True
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    if spec.origin in (None, "built-in", "frozen"):
        return spec.origin is not None or not spec.submodule_search_locations
    stdlib = sysconfig.get_paths()["stdlib"]
    return spec.origin.startswith(stdlib) and "site-packages" not in spec.origin


def allowed(source: str, target: str) -> bool:
    for one, other in ((UCI_ONLY, CECP_ONLY), (CECP_ONLY, UCI_ONLY)):
        if source.split(".")[0] in one and target.split(".")[0] in other:
            return False
    mine, theirs = layer_of(source), layer_of(target)
    if mine == theirs:
        return True
    may = MAY_IMPORT[mine]
    return theirs in may or target in may or target.split(".")[0] in may


def test_every_import_keeps_to_the_layers():
    wrong = []
    for module, path in modules():
        mine = layer_of(module)
        for line, name in imports(module, path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line}"
            if name == "xboard_engine" or name.startswith("xboard_engine."):
                target = name[len("xboard_engine."):] if name != "xboard_engine" else "__init__"
                if target in ("__version__", "__init__"):
                    continue                    # the version string
                if not allowed(module, target):
                    wrong.append(f"{where}: {mine} may not import {layer_of(target)} ({target})")
                if module in STORE and layer_of(target) != "web":
                    wrong.append(f"{where}: the store imports game logic ({target})")
            else:
                top = name.split(".")[0]
                if not in_standard_library(top) and top not in THIRD_PARTY.get(mine, set()):
                    wrong.append(f"{where}: {mine} may not import the third-party package {top}")
    assert not wrong, "\n".join(wrong)


def test_the_rules_catch_what_they_forbid():
    assert not allowed("position", "evaluation")            # the core knows nothing of the search
    assert not allowed("search", "uci")                     # the search knows no protocol
    assert not allowed("multi.game", "search")
    assert not allowed("botclient", "web.game")             # a client of the server, not its games
    assert not allowed("uci", "session") and not allowed("cecp", "uci")
    assert allowed("web.hall", "position") and allowed("uci", "search") and allowed("botclient", "web.wire")
