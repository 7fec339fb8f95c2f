"""``xboard-engine serve`` and ``xboard-engine web``: one web server, started two ways.

``serve`` is the server a club opens to people over the network: every variant and 8 Player Chess,
invite links, bots, watchers, chat, kept in a database (DATA_DIR/live.sqlite3) that survives
restarts.  ``web`` is the same server for the person at this computer: it listens on 127.0.0.1,
opens the browser, and every page is that person's, so they may take every seat (hot-seat), play
the engines named here, or watch them play each other; its games are kept in DATA_DIR too (the
old local board's files there are read once and left as they were)."""
import argparse
import asyncio
import os
import shlex
import socket
import sys
import time
import webbrowser
from typing import Any, List, Optional, Tuple
from urllib.parse import urlsplit

from ...match.engines import EngineConfig
from ...paths import data_path

OWN_ENGINE = "xboard-engine"
SHARED_MARK = "(shared)"            # begins the lock note of a process started with --shared


def _default_data_dir(local: bool) -> str:
    return data_path("web" if local else "live")


def _engine(text: str, proto: str) -> Tuple[str, EngineConfig]:
    name, sep, cmd = text.partition("=")
    name, cmd = name.strip(), cmd.strip()
    if not sep or not name or not cmd:
        raise argparse.ArgumentTypeError(f"want NAME=COMMAND, got {text!r}")
    if name in ("human", "me", OWN_ENGINE) or len(name) > 24 or not name.isprintable():
        raise argparse.ArgumentTypeError(f"{name!r}: choose another engine name (up to 24 characters)")
    try:
        shlex.split(cmd)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"bad command {cmd!r}: {error}") from None
    return name, EngineConfig(name, cmd, proto=proto)


def _scripts(text: str) -> Optional[Tuple[str, ...]]:
    words = tuple(w.strip().upper() for w in text.split(",") if w.strip())
    return None if "ANY" in words else words or ("LATIN",)


def _public_url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise argparse.ArgumentTypeError(f"want the address people use, e.g. https://chess.example.org, got {text!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _parser(local: bool) -> argparse.ArgumentParser:
    prog = "xboard-engine web" if local else "xboard-engine serve"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only" +
                             (")" if local else "; 0.0.0.0 every network)"))
    parser.add_argument("--port", type=int, default=8765 if local else 8766,
                        help="port (default %(default)s; 0 picks a free one)")
    parser.add_argument("--data-dir", default=_default_data_dir(local),
                        help="where the database live.sqlite3 is kept (default %(default)s)")
    parser.add_argument("--database", metavar="URL_OR_FILE",
                        help="the database instead of DATA_DIR/live.sqlite3: a SQLite file, or a PostgreSQL "
                             "address postgresql://USER:PASSWORD@HOST/NAME (needs psycopg, in the server's extra)")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                        type=lambda t: _engine(t, "xboard"), help="a CECP (XBoard) engine that may play "
                        "two-player games (repeatable); our own engine is always there as " + OWN_ENGINE)
    parser.add_argument("--uci-engine", action="append", default=[], metavar="NAME=COMMAND",
                        type=lambda t: _engine(t, "uci"), help="a UCI engine that may play (repeatable)")
    parser.add_argument("--bot-workers", type=int, default=os.cpu_count() or 1,
                        help="processes thinking for bots (default: one per core, %(default)s)")
    parser.add_argument("--max-bot-games", type=int, default=100 if local else 20,
                        help="games with bots played at once; more are refused with a message (default %(default)s)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="think for bots on this Dask scheduler's workers instead of local processes")
    parser.add_argument("--durable", action="store_true",
                        help="make every commit wait for the disk (survives a power cut; slower)")
    if local:
        parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
        return parser
    parser.add_argument("--public-url", type=_public_url, metavar="URL",
                        help="the address people reach the server at, through a TLS reverse proxy "
                             "(e.g. https://chess.example.org): pages and WebSockets must come from it, "
                             "and the player cookie is Secure when it is https")
    parser.add_argument("--shared", action="store_true",
                        help="one of several server processes on one PostgreSQL database (on this machine or "
                             "others, behind one reverse proxy): each plays the games given to it, one serves "
                             "the lobby, and the others take over the games and the lobby of one that stops "
                             "(every process of the database needs --shared)")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds a disconnected player has before the opponent may claim (default %(default)s)")
    parser.add_argument("--first-move", type=float, default=30.0,
                        help="seconds a person has for their first move before the game is aborted "
                             "(0: no limit; default %(default)s)")
    parser.add_argument("--idle-bot-minutes", type=float, default=10.0,
                        help="minutes a person to move may sit in a game with bots and no clock running "
                             "before the game ends (it holds one of the --max-bot-games places; 0: never; "
                             "default %(default)s)")
    parser.add_argument("--challenge-minutes", type=float, default=60.0,
                        help="minutes before an open challenge and its invite links expire (0: never; "
                             "default %(default)s)")
    parser.add_argument("--max-challenges", type=int, default=3,
                        help="challenges one person may have waiting for players (default %(default)s)")
    parser.add_argument("--max-bot-games-each", type=int, default=2,
                        help="games with bots one person may play at once (default %(default)s)")
    if not local:
        parser.add_argument("--rated-needs-account", choices=("on", "off"), default="on",
                            help="whether rated games, rated seeks and rated tournaments are for accounts only "
                                 "(guests always play casual games; default %(default)s)")
        parser.add_argument("--bots-need-owners", choices=("on", "off"), default="on",
                            help="whether a bot account must be made by an account, its owner, on the account "
                                 "page (which gives its token); off: any named player may become one "
                                 "(default %(default)s)")
        parser.add_argument("--name-scripts", default="latin", metavar="SCRIPTS",
                            help="the scripts names may be written in, comma-separated as Unicode names them "
                                 "(latin, cyrillic, greek, cjk, arabic, ...), or any (default %(default)s: other "
                                 "scripts have letters that pass for Latin ones)")
    parser.add_argument("--max-connections", type=int, default=64,
                        help="WebSocket connections from one address at once (default %(default)s); "
                             "through a trusted proxy, the address it names in X-Forwarded-For")
    parser.add_argument("--trusted-proxy", action="append", metavar="ADDRESS",
                        help="the reverse proxy's address, whose X-Forwarded-For is believed (repeatable; "
                             "default with --public-url: 127.0.0.1 and ::1, a proxy on this machine)")
    return parser


def _serve_alone(store: Any, name: str, port: int) -> Any:
    """One serving process a database: this one takes the database's server lock, or waits for the
    process holding it to end and then takes over (a standby: it listens only once it serves).
    A process that loses the lock (its database went away) stops at once.  The lock (keep it), or
    None if the database cannot be locked."""
    from ..store.records import StoreError
    lock = store.server_lock()
    note = f"{socket.gethostname()} pid {os.getpid()} port {port}"
    if _shared_processes(store):
        return None
    try:
        if not lock.take(False, note):
            print(f"{name}: another server process serves {store.where} ({lock.holder() or 'who, unknown'}); "
                  "waiting to take over when it stops", flush=True)
            lock.take(True, note)
            print(f"{name}: took over {store.where}", flush=True)
    except StoreError as error:
        sys.stderr.write(f"{name}: {error}\n")
        return None
    if _shared_processes(store):             # (started while this one waited)
        lock.release()
        return None

    def lost() -> None:
        sys.stderr.write(f"{name}: lost the lock on {store.where} (the database went away); stopping at once, "
                         "since another server process may take over\n")
        sys.stderr.flush()
        os._exit(3)
    lock.watch(lost)
    return lock


def _shared_processes(store: Any) -> bool:
    """Processes started with --shared serve the database (then one without it must not: it would
    play their games beside them): said, and True."""
    if hasattr(store, "live_hosts") and store.live_hosts():
        sys.stderr.write(f"xboard-engine serve: processes started with --shared serve {store.where}: start this "
                         "one with --shared too (a process without it would play their games beside them)\n")
        return True
    return False


def _share(store: Any, name: str, port: int) -> Any:
    """This process's part among several on the database: its number, the lock that says it is
    alive, the bus, and the server lock (the lobby) now if free, else when the process holding it
    stops.  The ``Shared`` to give the hall (its ``hall`` set later), or None if it cannot."""
    import threading
    from ..rooms.shared import Shared
    from ..store.records import StoreError
    note = f"{SHARED_MARK} {socket.gethostname()} pid {os.getpid()} port {port}"

    def lost() -> None:
        sys.stderr.write(f"{name}: lost the database {store.where}; stopping at once, since the other "
                         "processes take this one's games over\n")
        sys.stderr.flush()
        os._exit(3)
    try:
        host_id = store.add_host(note)
        alive = store.host_lock()
        alive.take(False, note)
        alive.watch(lost)
        shared = Shared(None, host_id)
        shared.keep = [alive]
        bus = store.bus(shared.heard)
        bus.start(lost)
        lobby = store.server_lock()
        shared.keep += [bus, lobby]
        if lobby.take(False, note):
            lobby.watch(lost)
            shared.lobby = True
            print(f"{name}: process {host_id} serves the lobby and games of {store.where}", flush=True)
            return shared
        holder = lobby.holder()
    except StoreError as error:
        sys.stderr.write(f"{name}: {error}\n")
        return None
    if holder and not holder.startswith(SHARED_MARK):
        sys.stderr.write(f"{name}: a server process without --shared serves {store.where} ({holder}): "
                         "stop it and start every process with --shared\n")
        bus.stop()
        alive.release()
        return None
    print(f"{name}: process {host_id} serves games of {store.where}; the lobby is another's "
          f"({holder or 'who, unknown'}), taken over if it stops", flush=True)

    def wait_for_lobby() -> None:
        try:
            lobby.take(True, note)
        except StoreError as error:
            sys.stderr.write(f"{name}: {error}\n")
            lost()
        lobby.watch(lost)
        while shared.loop is None:
            time.sleep(0.1)
        print(f"{name}: process {host_id} took the lobby over", flush=True)
        asyncio.run_coroutine_threadsafe(shared.become_lobby(), shared.loop)
    threading.Thread(target=wait_for_lobby, name="lobby-lock", daemon=True).start()
    return shared


def main(argv: Optional[List[str]] = None, local: bool = False) -> int:
    parser = _parser(local)
    args = parser.parse_args(argv)
    name = "xboard-engine web" if local else "xboard-engine serve"
    engines = {}
    for engine_name, config in args.engine + args.uci_engine:
        if engine_name in engines:
            parser.error(f"two engines named {engine_name!r}")
        engines[engine_name] = config
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.stderr.write(f"{name} needs aiohttp: pip install 'xboard-variant-engine[web]' (or pip install aiohttp)\n")
        return 2
    from aiohttp import web
    from ..compute.pool import BotPool
    from ..rooms.hall import Hall
    from ..rooms.services import LOCAL, Policy
    from .importer import import_local_files, owner_token
    from ..identity.names import fold
    from .routes import Gate, make_app
    from ..store.records import StoreError
    from ..store.postgres import open_store
    try:
        os.makedirs(args.data_dir, exist_ok=True)
        store = open_store(args.database or os.path.join(args.data_dir, "live.sqlite3"), durable=args.durable,
                           fold=fold)
    except (OSError, StoreError) as error:
        what = "the database" if args.database else "the data directory"
        sys.stderr.write(f"{name}: cannot use {what}: {error}\n")
        return 2
    shared = None
    if not local and args.shared:
        if not hasattr(store, "add_host"):
            sys.stderr.write(f"{name}: --shared needs a PostgreSQL database (--database postgresql://...): "
                             "a SQLite file is served by one process\n")
            store.close()
            return 2
        shared = _share(store, name, args.port)
        if shared is None:
            store.close()
            return 2
    serving = None if local or shared else _serve_alone(store, name, args.port)   # held while this process lives
    if not local and not shared and serving is None:
        return 2
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(512)
    except OSError as error:
        sys.stderr.write(f"{name}: cannot listen on {args.host}:{args.port}: "
                         f"{error.strerror or error} (another program on that port? try --port)\n")
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    hosts = {f"{shown}:{port}", f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"}
    origins = {f"http://{h}" for h in hosts}
    public_url = None if local else args.public_url
    if public_url:
        hosts.add(urlsplit(public_url).netloc)
        origins.add(public_url)
    secure = bool(public_url and public_url.startswith("https:"))
    pool = BotPool(args.bot_workers, args.max_bot_games, args.cluster)
    if local:
        policy = LOCAL
        for line in import_local_files(store, args.data_dir):
            print(f"{name}: {line}", flush=True)
        gate = Gate(hosts, origins, False, 256, owner_token=owner_token(store))
        if args.host not in ("127.0.0.1", "::1", "localhost"):
            print(f"{name}: listening on {args.host}: everyone who reaches it plays as you "
                  "(xboard-engine serve is the server for several people)", flush=True)
    else:
        policy = Policy(grace=args.grace, first_move=max(0.0, args.first_move),
                        challenge_minutes=max(0.0, args.challenge_minutes), max_challenges=max(1, args.max_challenges),
                        max_bot_games_each=max(1, args.max_bot_games_each),
                        idle_bot_game=60.0 * max(0.0, args.idle_bot_minutes),
                        rated_needs_account=args.rated_needs_account == "on",
                        bots_need_owners=args.bots_need_owners == "on",
                        name_scripts=_scripts(args.name_scripts))
        proxies = set(args.trusted_proxy or (["127.0.0.1", "::1"] if public_url else []))
        gate = Gate(hosts, origins, secure, args.max_connections, proxies)
    hall = Hall(store, pool, policy, engines=engines)
    if shared is not None:
        shared.hall, hall.shared = hall, shared
    app = make_app(hall, gate)
    url = f"http://{shown}:{port}/"
    public = f"; people reach it at {public_url}/" if public_url else ""
    print(f"{name}: open {url}  (database {store.path}{public}; Ctrl-C stops)", flush=True)
    if local and not args.no_browser:
        try:
            webbrowser.open(url)
        except Exception:              # no browser here: the address is printed above
            pass
    try:
        web.run_app(app, sock=sock, print=None, handle_signals=True, shutdown_timeout=1.0)
    finally:
        store.close()
    return 0


def copy_main(argv: List[str]) -> int:
    """``xboard-engine copy-database FROM TO``: every player, game, rating and tournament of one
    server's database into another, empty one (SQLite to PostgreSQL when a community moves, or back)."""
    parser = argparse.ArgumentParser(prog="xboard-engine copy-database", description=copy_main.__doc__)
    parser.add_argument("source", help="the database to copy: a SQLite file (DATA_DIR/live.sqlite3) or postgresql://...")
    parser.add_argument("target", help="an empty database (made if a SQLite file does not exist) or postgresql://...")
    args = parser.parse_args(argv)
    from ..identity.names import fold
    from ..store.records import StoreError
    from ..store.sql import copy_database
    from ..store.postgres import open_store
    if not args.source.startswith(("postgresql://", "postgres://")) and not os.path.isfile(args.source):
        sys.stderr.write(f"xboard-engine copy-database: no database at {args.source}\n")
        return 2
    try:
        source = open_store(args.source, fold=fold)
        try:
            target = open_store(args.target, fold=fold)
            try:
                counts = copy_database(source, target)
            finally:
                target.close()
        finally:
            source.close()
    except StoreError as error:
        sys.stderr.write(f"xboard-engine copy-database: {error}\n")
        return 2
    print("copied " + ", ".join(f"{n} {table}" for table, n in counts.items()), flush=True)
    return 0
