"""The package's layers and what each may import, checked over every import of every module (inside
functions too), as docs/ARCHITECTURE.md, "Layers" states them.

Each folder of ``xboard_engine/`` is one layer; the few modules directly in it are the package's face
and entry (``__init__``, ``__main__``, ``cli``), the bot client, and three foundations every layer may
use (``paths``, ``time_control``, ``images``: they import nothing of the package but the core).  A
module in no layer this test knows is a failure, so that a new one is placed on purpose."""
import ast
import importlib.util
import sys
import sysconfig
from pathlib import Path
from typing import Dict, Iterator, Set, Tuple

PACKAGE = Path(__file__).resolve().parent.parent / "xboard_engine"

LAYERS = ("core", "search", "engine", "match", "multi", "web", "botclient")
# Modules directly in the package that belong to the core's layer (the same rules: standard library only).
FOUNDATIONS = {"paths", "time_control", "images"}
# The package's face (``from xboard_engine import Position``) and the program's entry (``cli``, which
# starts whichever tool the command line names) may import every layer.
APP = {"__init__", "__main__", "cli"}

# What each layer may import besides itself and the standard library.  Single modules of another
# layer are named with it ("search.score": how scores are shown; "web.rooms.wire": the server's state format).
MAY_IMPORT: Dict[str, Set[str]] = {
    "core": set(),
    "search": {"core"},
    "engine": {"core", "search"},
    "match": {"core", "search.score"},
    "multi": {"core"},
    "web": {"core", "search", "multi", "match", "engine"},
    "botclient": {"core", "match", "search.score", "web.rooms.wire"},
    "app": {"core", "search", "engine", "match", "multi", "web", "botclient"},
}
# Third-party packages a layer may use (the engine's layers: none, ever).
THIRD_PARTY: Dict[str, Set[str]] = {"web": {"aiohttp", "psycopg", "openskill", "dask", "distributed"},
                                    "botclient": {"aiohttp"}, "match": {"dask", "distributed"}}
# Within the engine, the two protocols know nothing of each other: XBoard's quirks and the CECP game
# stay out of UCI.
CECP_ONLY = ("engine.cecp", "engine.xboard")
UCI_ONLY = ("engine.uci", "engine.uci_input")
# The web app's store keeps records; it knows no game rules.
STORE = ("web.store",)


def layer_of(module: str) -> str:
    """The layer of a module named relative to the package (``web.hall``, ``core.position``)."""
    top = module.split(".")[0]
    if top in LAYERS:
        return top
    if top in FOUNDATIONS:
        return "core"
    if top in APP:
        return "app"
    raise AssertionError(f"xboard_engine/{module.replace('.', '/')}: in no layer of tests/test_layers.py")


def within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


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
        if within(source, one) and within(target, other):
            return False
    mine, theirs = layer_of(source), layer_of(target)
    if mine == theirs:
        return True
    may = MAY_IMPORT[mine]
    return theirs in may or any(within(target, [m]) for m in may)


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
                if within(module, STORE) and not within(target, STORE):
                    wrong.append(f"{where}: the store imports game logic ({target})")
            else:
                top = name.split(".")[0]
                if not in_standard_library(top) and top not in THIRD_PARTY.get(mine, set()):
                    wrong.append(f"{where}: {mine} may not import the third-party package {top}")
    assert not wrong, "\n".join(wrong)


def test_the_rules_catch_what_they_forbid():
    assert not allowed("core.position", "search.evaluation")   # the core knows nothing of the search
    assert not allowed("search.searcher", "engine.uci")         # the search knows no protocol
    assert not allowed("multi.game", "search.searcher")
    assert not allowed("botclient", "web.game")                 # a client of the server, not its games
    assert not allowed("engine.uci", "engine.cecp.session") and not allowed("engine.cecp.protocol", "engine.uci")
    assert not allowed("paths", "search.evaluation") and not allowed("match.referee", "search.searcher")
    assert allowed("web.hall", "core.position") and allowed("engine.uci", "search.searcher")
    assert allowed("botclient", "web.rooms.wire") and allowed("match.seat", "search.score")


def test_every_folder_of_the_package_is_installed():
    """pyproject.toml lists the packages a (non-editable) install copies: every folder with an
    ``__init__.py`` is there, so a wheel has every layer."""
    text = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(text.split("packages = [", 1)[1].split("]", 1)[0].replace('"', " ").replace(",", " ").split())
    folders = {".".join(init.parent.relative_to(PACKAGE.parent).parts) for init in PACKAGE.rglob("__init__.py")}
    assert folders - listed == set(), "not in pyproject.toml's packages"
    assert "xboard_engine.search.parallel" in folders
