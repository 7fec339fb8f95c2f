"""xboard-engine serve: the live server.  People open its lobby, create challenges for any variant
or 8 Player Chess, send invite links, play each other and bots, and watch; every game is kept in a
SQLite database in DATA_DIR (live.sqlite3) and resumes after a restart."""
import argparse
import os
import socket
import sys
from typing import List, Optional
from urllib.parse import urlsplit

from ..web.cli import _engine


def _default_data_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "xboard-engine", "live")


def _public_url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise argparse.ArgumentTypeError(f"want the address people use, e.g. https://chess.example.org, got {text!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="xboard-engine serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 every network)")
    parser.add_argument("--port", type=int, default=8766, help="port (default 8766; 0 picks a free one)")
    parser.add_argument("--data-dir", default=_default_data_dir(),
                        help="where the database live.sqlite3 is kept (default %(default)s)")
    parser.add_argument("--public-url", type=_public_url, metavar="URL",
                        help="the address people reach the server at, through a TLS reverse proxy "
                             "(e.g. https://chess.example.org): pages and WebSockets must come from it, "
                             "and the player cookie is Secure when it is https")
    parser.add_argument("--bot-workers", type=int, default=os.cpu_count() or 1,
                        help="processes thinking for bots (default: one per core, %(default)s)")
    parser.add_argument("--max-bot-games", type=int, default=20,
                        help="games with bots at once; more are refused with a message (default %(default)s)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="think for bots on this Dask scheduler's workers instead of local processes")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds a disconnected player has before the opponent may claim (default %(default)s)")
    parser.add_argument("--max-connections", type=int, default=64,
                        help="WebSocket connections from one address at once (default %(default)s); "
                             "through a trusted proxy, the address it names in X-Forwarded-For")
    parser.add_argument("--trusted-proxy", action="append", metavar="ADDRESS",
                        help="the reverse proxy's address, whose X-Forwarded-For is believed (repeatable; "
                             "default with --public-url: 127.0.0.1 and ::1, a proxy on this machine)")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                        type=lambda t: _engine(t, "xboard"), help="a CECP (XBoard) engine people may play in "
                        "two-player games (repeatable); our own engine is always there as xboard-engine")
    parser.add_argument("--uci-engine", action="append", default=[], metavar="NAME=COMMAND",
                        type=lambda t: _engine(t, "uci"), help="a UCI engine people may play (repeatable)")
    parser.add_argument("--durable", action="store_true",
                        help="make every commit wait for the disk (survives a power cut; slower)")
    args = parser.parse_args(argv)
    engines = {}
    for name, config in args.engine + args.uci_engine:
        if name in engines or name == "xboard-engine":
            parser.error(f"two engines named {name!r}")
        engines[name] = config
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.stderr.write("xboard-engine serve needs aiohttp: pip install 'xboard-variant-engine[web]'\n")
        return 2
    from aiohttp import web
    from .bots import BotPool
    from .hall import Hall
    from .routes import Gate, make_app
    from .store import SqliteStore, StoreError
    try:
        os.makedirs(args.data_dir, exist_ok=True)
        store = SqliteStore(os.path.join(args.data_dir, "live.sqlite3"), durable=args.durable)
    except (OSError, StoreError) as error:
        sys.stderr.write(f"xboard-engine serve: cannot use the data directory: {error}\n")
        return 2
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(512)
    except OSError as error:
        sys.stderr.write(f"xboard-engine serve: cannot listen on {args.host}:{args.port}: "
                         f"{error.strerror or error} (another program on that port? try --port)\n")
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    hosts = {f"{shown}:{port}", f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"}
    origins = {f"http://{h}" for h in hosts}
    if args.public_url:
        netloc = urlsplit(args.public_url).netloc
        hosts.add(netloc)
        origins.add(args.public_url)
    secure = bool(args.public_url and args.public_url.startswith("https:"))
    hall = Hall(store, BotPool(args.bot_workers, args.max_bot_games, args.cluster), grace=args.grace,
                engines=engines)
    proxies = set(args.trusted_proxy or (["127.0.0.1", "::1"] if args.public_url else []))
    app = make_app(hall, Gate(hosts, origins, secure, args.max_connections, proxies))
    public = f"; people reach it at {args.public_url}/" if args.public_url else ""
    print(f"xboard-engine serve: open http://{shown}:{port}/  (database {store.path}{public}; Ctrl-C stops)",
          flush=True)
    try:
        web.run_app(app, sock=sock, print=None, handle_signals=True, shutdown_timeout=1.0)
    finally:
        store.close()
    return 0
