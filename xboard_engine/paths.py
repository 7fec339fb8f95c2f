"""Where the program keeps files of its own, in one place: the user's data and cache directories
(XDG's ``XDG_DATA_HOME`` and ``XDG_CACHE_HOME``, by default ``~/.local/share`` and ``~/.cache``),
each with a folder ``xboard-engine``.  Data (the web app's databases, bot tokens) is kept; the cache
(piece pictures, the position file for XBoard) may be deleted at any time."""
import os

FOLDER = "xboard-engine"
# The folder that holds the package: what a child Python needs on its path to import this copy of it.
IMPORT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def data_path(*parts: str) -> str:
    """A path in the program's data directory, e.g. ``data_path("live")``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, FOLDER, *parts)


def cache_path(*parts: str) -> str:
    """A path in the program's cache directory, e.g. ``cache_path("position.fen")``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, FOLDER, *parts)
