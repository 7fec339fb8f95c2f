"""The web server under test: the real `xboard-engine serve` (or, with ``local=True``, `xboard-engine
web`, one person's server) process on a free port with its own data directory, and clients that
talk to it over real WebSockets as a page does (each with its own cookie jar: a browser profile)."""
import asyncio
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
from typing import Any, Dict, List, Optional, Sequence, Tuple

import aiohttp

from xboard_engine.web.rooms import messages
from xboard_engine.web.rooms.shared import MOVED
from xboard_engine.web.rooms.wire import whole_state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# The database of every `serve` the tests start: "sqlite" (DATA_DIR/live.sqlite3), or "postgresql"
# (a new database on the tests' PostgreSQL server, tests/postgres_helpers.py), as .ci/run's second
# pass over the server's tests sets it; "postgresql-shared": that, each server started with
# --shared (one of several processes on the database, alone: it serves the lobby and every game,
# through the code that shares them out).
SERVER_STORE = os.environ.get("XBOARD_ENGINE_TEST_SERVER_STORE", "sqlite")
SHARED = SERVER_STORE == "postgresql-shared"


class LiveServer:
    """``xboard-engine serve`` running in a child process (``web``, one person's, always on SQLite)."""

    def __init__(self, data_dir: str, *args: str, port: int = 0, local: bool = False, start: bool = True,
                 database: Optional[str] = None, shared: bool = True) -> None:
        self.data_dir = str(data_dir)
        self.args = list(args)
        self.port = port
        self.local = local
        self.shared = SHARED and not local and shared
        self.database = database                     # a PostgreSQL address (another server's, or a new one)
        if SERVER_STORE.startswith("postgresql") and not local and database is None:
            import atexit
            import postgres_helpers
            self.database = postgres_helpers.new_database()
            atexit.register(postgres_helpers.drop_database, self.database)
        if start:
            self.start()

    def open_store(self) -> Any:
        """The server's store, opened here (e.g. filled before ``start()``; close it after)."""
        from xboard_engine.web.store.postgres import open_store
        return open_store(self.database or os.path.join(self.data_dir, "live.sqlite3"))

    def start(self) -> None:
        command = ["web", "--no-browser"] if self.local else ["serve"] + (["--shared"] if self.shared else [])
        database = ["--database", self.database] if self.database else []
        # The tests of rated play have guests play rated games (signing up hashes a password for a
        # third of a second and is limited per address); test_web_accounts.py starts servers with
        # the default, where rated games need accounts.
        if not self.local and not any(a.startswith("--rated-needs-account") for a in self.args):
            database += ["--rated-needs-account", "off"]
        # Likewise the bot tests' bots are named players that say "bot"; test_web_accounts.py's bot
        # accounts are made by their owners, as the default (--bots-need-owners on) wants.
        if not self.local and not any(a.startswith("--bots-need-owners") for a in self.args):
            database += ["--bots-need-owners", "off"]
        self.said: List[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xboard_engine"] + command + ["--data-dir", self.data_dir,
                                                                  "--port", str(self.port)] + database + self.args,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        line = self.proc.stdout.readline()
        # what it imported; a standby's wait for the database
        while line.startswith(("xboard-engine web:", "xboard-engine serve:")) and " open " not in line:
            self.said.append(line)
            line = self.proc.stdout.readline()
        match = re.search(r"open (http://[^/\s]+)/", line)
        if not match:
            if self.proc.poll() is None:
                self.proc.kill()                  # started but not as expected: leave nothing behind
            rest = self.proc.stdout.read()
            raise RuntimeError(f"the server did not start: {line}{rest}")
        self.url = match.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])
        self.lines: List[str] = []

    def look(self) -> "Look":
        """A direct look at the server's database, whichever it is (not through the server)."""
        return Look(self.database or os.path.join(self.data_dir, "live.sqlite3"))

    def kill(self) -> None:
        """SIGKILL: no chance to save anything."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, timeout: float = 10.0) -> float:
        """SIGTERM; the seconds it took to exit."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return time.monotonic() - started

    def output(self) -> str:
        return self.proc.stdout.read() if self.proc.poll() is not None else ""


class Look:
    """A connection to a server's database as ``sqlite3`` reads one: ``execute(sql, args)`` with
    ``?`` marks, then ``fetchone()`` / ``fetchall()``; ``close()``."""

    def __init__(self, where: str) -> None:
        if where.startswith("postgresql://"):
            import psycopg
            self.db = psycopg.connect(where, autocommit=True)
            self.marks = "%s"
        else:
            import sqlite3
            self.db = sqlite3.connect(where)
            self.marks = "?"

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self.db.execute(sql.replace("?", self.marks), tuple(args))

    def close(self) -> None:
        self.db.close()


class Client:
    """One browser profile: a cookie jar, and WebSockets to the lobby and to games."""

    def __init__(self, server: LiveServer, origin: Optional[str] = None, address: Optional[str] = None) -> None:
        """``address``: the X-Forwarded-For of every request (a server started with --trusted-proxy
        127.0.0.1 then sees this profile at that address)."""
        self.server = server
        headers = {"X-Forwarded-For": address} if address else {}
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), headers=headers)
        self.origin = origin
        self.ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self.inbox: List[Dict[str, Any]] = []
        self.last_state: Optional[Dict[str, Any]] = None

    async def open_page(self, path: str = "/") -> int:
        async with self.session.get(self.server.url + path) as response:
            await response.text()
            return response.status

    async def connect(self, path: str, origin: Optional[str] = None) -> "Client":
        headers = {"Origin": origin or self.origin or self.server.url}
        self.ws = await self.session.ws_connect(self.server.url + path, headers=headers)
        self.path, self.headers = path, headers
        self.inbox = []
        self.last_state: Optional[Dict[str, Any]] = None
        return self

    async def send(self, message: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 10.0) -> Dict[str, Any]:
        assert self.ws is not None
        msg = await self.ws.receive(timeout=timeout)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED) and self.ws.close_code == MOVED:
            await self._follow()                    # the game moved to another process: as a page does
            return await self.receive(timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"connection ended: {msg.type} {msg.data!r} {msg.extra!r}")
        data = json.loads(msg.data)
        socket = messages.socket_of(getattr(self, "path", ""))
        if socket:                                 # every message the server sends is declared
            wrong = messages.undeclared(socket, data)
            assert not wrong, wrong
        if data.get("type") == "state":            # made whole, as a page does
            data = whole_state(data, self.last_state)
            assert data is not None, "a state whose history does not follow the last one"
            self.last_state = data
        self.inbox.append(data)
        return data

    async def _follow(self) -> None:
        """Connect again to the same path (through the proxy, to the game's new process)."""
        self.moves_followed = getattr(self, "moves_followed", 0) + 1
        deadline = time.monotonic() + 15
        while True:
            try:
                self.ws = await self.session.ws_connect(self.server.url + self.path, headers=self.headers)
                return
            except aiohttp.ClientError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)

    async def wait_for(self, kind: str, timeout: float = 10.0, **fields: Any) -> Dict[str, Any]:
        """The next message of ``kind`` whose fields (where given) match."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} {fields} in {timeout} s; last: {self.inbox[-3:]}")
            data = await self.receive(left)
            if data.get("type") == kind and all(_matches(data.get(k), v) for k, v in fields.items()):
                return data

    async def state(self, timeout: float = 10.0, **fields: Any) -> Dict[str, Any]:
        return await self.wait_for("state", timeout, **fields)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.session.close()


def _matches(value: Any, wanted: Any) -> bool:
    return wanted(value) if callable(wanted) else value == wanted


def run(coroutine: Any, timeout: float = 90.0) -> Any:
    """Run a test's scenario, failing it after ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))


async def close_all(*clients: "Client") -> None:
    for c in clients:
        await c.close()


_numbers = itertools.count(1)


def player_path(name: str) -> str:
    """A player's page address: their name (``encodeURIComponent`` as the pages make it)."""
    return "/@/" + urllib.parse.quote(name, safe="")


def unique(name: str) -> str:
    """A name no other test's player has (names are unique on a server): the name and a letter run."""
    n = next(_numbers)
    tail = ""
    while True:
        n, r = divmod(n, len(_TAIL_LETTERS))
        tail = _TAIL_LETTERS[r] + tail
        if not n:
            break
    return f"{name} {tail}"


# Letters no two of which look alike to the server's fold (i and l are one; "rn" reads as m, "vv" as w).
_TAIL_LETTERS = "abcdefghjkmopqstuxyz"


async def new_player(server: LiveServer, name: str, exact: bool = False, address: Optional[str] = None) -> Client:
    """A browser profile that opened the lobby and chose a name (made unique unless ``exact``), seen
    at ``address`` by a server that trusts 127.0.0.1 as its proxy."""
    client = Client(server, address=address)
    assert await client.open_page("/") == 200
    await client.connect("/ws/lobby")
    await client.wait_for("lobby")
    await client.send({"type": "name", "name": name if exact else unique(name)})
    reply = await client.wait_for("you")
    client.name = reply["you"]["name"]
    client.id = reply["you"]["id"]
    return client


async def create(client: Client, **challenge: Any) -> Dict[str, Any]:
    await client.send(dict({"type": "create"}, **challenge))
    reply = await client.wait_for("created")
    return reply


def invite_secret(created: Dict[str, Any], number: int = 0) -> str:
    return created["invites"][number]["path"].split("invite=")[1]


async def host_one_round_against_bots(server: LiveServer) -> Tuple["Client", str]:
    """A person ("Host", seat 0) in an untimed 8 Player game against seven random bots, on its page,
    after a first move and the bots' replies (a whole round played); with the game's address."""
    host = await new_player(server, "Host")
    created = await create(host, kind="eight", mode="singles", tc="none",
                           seats=[{"kind": "me"}] + [{"kind": "bot", "level": "random"}] * 7)
    await host.connect(f"/ws/g/{created['gameId']}")
    state = await host.state(status="playing", turn=0)
    await host.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
    await host.state(turn=0, moves=lambda m: len(m) >= 8, timeout=30)
    return host, created["gameId"]


async def two_players(server: LiveServer, variant: str = "normal", tc: str = "300+3", open_seat: bool = False,
                      **extra: Any) -> Tuple["Client", "Client", str, Optional[str]]:
    """Alice (White) and Bob (Black, through the invite link, or the open seat: a game everyone sees
    listed), both on the game's page, the game begun; with its address and the invite's secret."""
    alice = await new_player(server, "Alice")
    created = await create(alice, kind="two", variant=variant, tc=tc,
                           seats=[{"kind": "me"}, {"kind": "open" if open_seat else "invite"}], **extra)
    game = created["gameId"]
    secret = invite_secret(created) if created["invites"] else None
    await alice.connect(f"/ws/g/{game}")
    await alice.wait_for("hello")
    bob = await new_player(server, "Bob")
    await bob.connect(f"/ws/g/{game}")
    await bob.wait_for("hello")
    await bob.send({"type": "take", "seat": 1, "secret": secret})
    await bob.wait_for("hello", yourSeats=[1])
    await alice.state(status="playing")
    return alice, bob, game, secret


async def play_moves(white: Client, black: Client, moves: Sequence[str]) -> None:
    """Moves (coordinate text) made in turn by two players on the game's WebSocket (each sent once
    the server has taken the one before: its mover saw it in a state)."""
    for n, text in enumerate(moves):
        mover = white if n % 2 == 0 else black
        await mover.send({"type": "move", "move": text})
        await mover.state(sans=lambda s, n=n: len(s) == n + 1, timeout=30)


async def game_between(white: Client, black: Client, moves: Sequence[str] = (), **challenge: Any) -> str:
    """``white`` makes a listed two-player challenge in the lobby (``challenge``: variant, tc,
    rated ...; White theirs, Black open), ``black`` takes Black, both on the game's page; they play
    ``moves``.  The game's address."""
    await white.connect("/ws/lobby")
    created = await create(white, kind="two", seats=[{"kind": "me"}, {"kind": "open"}], **challenge)
    game = created["gameId"]
    await white.connect(f"/ws/g/{game}")
    await black.connect(f"/ws/g/{game}")
    await black.wait_for("hello")
    await black.send({"type": "take", "seat": 1})
    await black.state(status="playing")
    await white.state(status="playing")
    await play_moves(white, black, moves)
    return game


# Seventeen moves of an 8 Player Singles game from the standard setup; the last, White's Rd3, leaves
# the rook to be taken (our bots score it about 5 pawns below h3).
HUNG_ROOK_MOVES = "d4 d5 d20 k21 u21 u20 u6 u4 f4 d10 d21 j21 n21 u15 u5 p4 Rd3".split()


async def finished_hot_seat_game(server: LiveServer, name: str) -> Tuple["Client", str]:
    """One person's untimed 8 Player game with all eight seats: ``HUNG_ROOK_MOVES``, then seats 1
    to 7 resign in turn (the game ends: one player left); the person on its page, and its address."""
    host = await new_player(server, name)
    made = await create(host, kind="eight", mode="singles", tc="none", seats=[{"kind": "me"}] * 8)
    game = made["gameId"]
    await host.connect(f"/ws/g/{game}")
    hello = await host.wait_for("hello")
    assert hello["yourSeats"] == list(range(8))
    for n, text in enumerate(HUNG_ROOK_MOVES):
        await host.send({"type": "move", "move": text, "seat": n % 8})
        await host.state(moves=lambda m, n=n: len(m) == n + 1)
    for seat in range(1, 8):
        await host.send({"type": "resign", "seat": seat})
        state = await host.state(moves=lambda m, seat=seat: len(m) == len(HUNG_ROOK_MOVES) + seat)
    assert state["result"] is not None and state["result"]["reason"] == "one player left"
    return host, game
