"""xboard-engine web: a board in the browser for every variant, against our engine or any CECP or
UCI engine named here.  The game lives in the server: reload the page or open a second tab and it
is still there; every game goes to DATA_DIR/games.pgn as it ends (an unfinished one when it is
replaced), and an unfinished game resumes when the server starts again."""
import argparse
import os
import shlex
import socket
import sys
import webbrowser
from typing import Dict, List, Optional, Tuple

from ..match.engines import EngineConfig

OWN_ENGINE = "xboard-engine"


def _default_data_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "xboard-engine", "web")


def _engine(text: str, proto: str) -> Tuple[str, EngineConfig]:
    name, sep, cmd = text.partition("=")
    name, cmd = name.strip(), cmd.strip()
    if not sep or not name or not cmd:
        raise argparse.ArgumentTypeError(f"want NAME=COMMAND, got {text!r}")
    if name == "human":
        raise argparse.ArgumentTypeError("'human' names the player at the board, not an engine")
    try:
        shlex.split(cmd)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"bad command {cmd!r}: {error}") from None
    return name, EngineConfig(name, cmd, proto=proto)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="xboard-engine web", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only)")
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                        type=lambda t: _engine(t, "xboard"), help="a CECP (XBoard) engine the page may offer "
                        "(repeatable); our own engine is always there as " + OWN_ENGINE)
    parser.add_argument("--uci-engine", action="append", default=[], metavar="NAME=COMMAND",
                        type=lambda t: _engine(t, "uci"), help="a UCI engine the page may offer (repeatable)")
    parser.add_argument("--data-dir", default=_default_data_dir(),
                        help="where games.pgn and the current game are kept (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.stderr.write("xboard-engine web needs aiohttp: pip install 'xboard-variant-engine[web]' "
                         "(or pip install aiohttp)\n")
        return 2
    from aiohttp import web
    from .routes import make_app
    from .server import Room
    engines: Dict[str, EngineConfig] = {
        OWN_ENGINE: EngineConfig(OWN_ENGINE, f"{shlex.quote(sys.executable)} -m xboard_engine")}
    for name, config in args.engine + args.uci_engine:
        if name in engines:
            parser.error(f"two engines named {name!r}")
        engines[name] = config
    try:
        os.makedirs(args.data_dir, exist_ok=True)
    except OSError as error:
        sys.stderr.write(f"xboard-engine web: cannot use the data directory: {error}\n")
        return 2
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(128)                 # connections wait in the queue until the server runs
    except OSError as error:
        sys.stderr.write(f"xboard-engine web: cannot listen on {args.host}:{args.port}: {error.strerror or error}"
                         " (another program on that port? try --port)\n")
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    hosts = {f"{shown}:{port}", f"localhost:{port}"}
    if args.host in ("127.0.0.1", "::1", "localhost"):
        hosts |= {f"127.0.0.1:{port}", f"[::1]:{port}"}
    room = Room(engines, args.data_dir, OWN_ENGINE)
    app = make_app(room, hosts)
    url = f"http://{shown}:{port}/"
    print(f"xboard-engine web: open {url}  (games kept in {room.pgn_path}; Ctrl-C stops)", flush=True)
    if not args.no_browser:
        try:
            webbrowser.open(url)
        except Exception:              # no browser here: the address is printed above
            pass
    web.run_app(app, sock=sock, print=None, handle_signals=True)
    return 0
