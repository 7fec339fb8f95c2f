"""Load on the web server (`xboard-engine serve`, package ``xboard_engine/web/``): simulated people
over real WebSockets on loopback, against a real server process, then a check that no move was lost.

G two-player games (two simulated people each, each its own cookie jar, name and address: one
chooses a name and creates a challenge with an invite seat in the lobby, the other opens the game's
page, chooses a name and takes the seat with the invite's secret), E games of 8 Player Chess (8
simulated people, mode singles, no clock) and W watchers spread over all the games (each its own
cookie jar and address).  Every game moves at a steady pace: a move every P seconds, by the player
to move, a random legal move taken from the ``targets`` of the state it last received.  Two-player
games have no clock by default (``--tc none``), so nobody flags however slow the server gets.

The server is started as it runs behind a reverse proxy: ``--public-url http://load.test
--trusted-proxy 127.0.0.1``, and every simulated person sends ``Host: load.test``, ``Origin:
http://load.test`` and an ``X-Forwarded-For: 10.a.b.c`` of its own on its HTTP requests and
WebSocket handshakes, so the server's per-address limits (``--max-connections``, left at its
default, and the rate of game creation) count each person apart, as they would real clients.
Names are unique ("Load a", "Load b", ...: the server refuses a name that looks like another's).
All games are set up before any moves, so the server is started with ``--first-move 0`` (else a
game whose first move waits for the rest of the set-up would be aborted after 30 s).

A move's round trip is the time from the move sent to the moment the LAST connection of that game
(both players or all eight, and its watchers) has received a state with the new ply count.  The
figures include the load generator's own delays: it runs in one asyncio process on the same
machine as the server (its event-loop lag is printed so you can judge).

At the end every game's record in the server's database (``live.sqlite3``, opened read only: table
``actions`` joined to ``games`` through the integer id, games named by their ``slug``) is compared
with the moves the clients played and saw acknowledged (the mover received a state with its move),
and the two-player games' PGN downloads (/g/SLUG.pgn) with the SANs the clients last saw.

``--kill-halfway`` SIGKILLs the server halfway through, starts it again on the same port and data
directory; the clients reconnect with their cookies (same seats) and play on.  It reports the time
until the server was up and until every page was back, the acknowledged moves missing after the
restart (must be 0) and whether every game moved again.

    python scripts/live_load.py --games 200 --eight 10 --watchers 200 --pace 5 --duration 90
    python scripts/live_load.py --games 200 --eight 10 --watchers 200 --pace 5 --duration 90 --kill-halfway
    python scripts/live_load.py --games 200 --eight 10 --watchers 200 --server-python pypy3
    python scripts/live_load.py --games 200 --eight 10 --watchers 200 --seekers 40 --arena 40 --duration 120

``--seekers N`` adds N people who seek a game in the lobby (normal chess, 3+2 or 5+3, rated or
casual), play it at the same pace for a few moves, resign, and seek again; ``--arena N`` an arena of
N players running through the run, each paired again as their game ends.  Their seek-to-pairing
times and games are reported beside the round trips.
    python scripts/live_load.py --url http://127.0.0.1:8766 --data-dir ~/.local/share/xboard-engine/live ...

With ``--url`` the server must have been started with ``--public-url http://load.test
--trusted-proxy 127.0.0.1 --first-move 0`` (``--public-host`` names another host); CPU and memory
are then read from ``--pid`` if given, and the names get a random tag (the server keeps names).

Exit status 0 if no error, no lost move and (with ``--p99-target``) the 99th percentile met it.
"""
import argparse
import asyncio
import collections
import gc
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

import aiohttp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from xboard_engine.web.app.collector import Collector  # noqa: E402
from xboard_engine.web.rooms.wire import whole_state  # noqa: E402

CLOCK_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PUBLIC_HOST = "load.test"            # the name the server is told it is reached at (--public-url)
# Letters of the simulated people's names: none that the server's look-alike fold changes or makes
# ("rn" reads as "m", "vv" as "w"), so every name is told apart.
NAME_LETTERS = "abcdefghijkpqstuxyz"


# --------------------------------------------------------------------- the server process
class Server:
    """``xboard-engine serve`` in a child process (or one already running, at ``url``)."""

    def __init__(self, data_dir: str, python: str, extra: List[str], url: Optional[str] = None,
                 pid: Optional[int] = None, profile: bool = False, pythonpath: str = "",
                 nice: int = 0, root: str = ROOT, public_host: str = PUBLIC_HOST) -> None:
        self.root = root
        self.public_host = public_host
        self.profile = profile
        self.pythonpath = pythonpath
        self.nice = nice
        self.data_dir = data_dir
        self.python = python
        self.extra = extra
        self.port = 0
        self.proc: Optional[subprocess.Popen] = None
        self.url = url or ""
        self.pid = pid
        self.tail: List[str] = []
        self.external = url is not None

    def start(self) -> None:
        if self.external:
            return
        program = [os.path.join(ROOT, "scripts", "live_profile.py")] if self.profile else ["-m", "xboard_engine"]
        command = self.python.split() + program + ["serve", "--data-dir", self.data_dir,
                                         "--port", str(self.port), "--bot-workers", "1",
                                         "--public-url", f"http://{self.public_host}",
                                         "--trusted-proxy", "127.0.0.1", "--first-move", "0"] + self.extra
        path = [x for x in (self.pythonpath, self.root, os.environ.get("PYTHONPATH", "")) if x]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), LIVE_SERVER_ROOT=self.root)
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     cwd=self.root, env=env)
        line = self.proc.stdout.readline()
        while line.startswith("xboard-engine serve:") and " open " not in line:    # a standby waits
            line = self.proc.stdout.readline()
        match = re.search(r"open (http://[^/\s]+)/", line)
        if not match:
            rest = self.proc.stdout.read() if self.proc.poll() is not None else ""
            raise RuntimeError(f"the server did not start: {line}{rest}")
        self.url = match.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])
        self.pid = self.proc.pid
        if self.nice:
            os.setpriority(os.PRIO_PROCESS, self.pid, self.nice)
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()

    def _drain(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            self.tail.append(line.rstrip())
            del self.tail[:-50]

    def cpu(self) -> float:
        """User + system seconds of the server process so far (0 if unknown)."""
        if not self.pid:
            return 0.0
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / CLOCK_TICK
        except (OSError, IndexError, ValueError):
            return 0.0

    def memory(self) -> Tuple[float, float]:
        """(VmRSS, VmHWM) in MB."""
        out = {"VmRSS": 0.0, "VmHWM": 0.0}
        if self.pid:
            try:
                with open(f"/proc/{self.pid}/status") as f:
                    for line in f:
                        key = line.split(":")[0]
                        if key in out:
                            out[key] = int(line.split()[1]) / 1024
            except OSError:
                pass
        return out["VmRSS"], out["VmHWM"]

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class StandbyPair:
    """Two servers on one database behind nginx (scripts/nginx_front.py), as ``Server`` to the run:
    the first serves, the second waits as a standby; ``kill`` kills the serving one and ``start``
    then waits until the standby has taken over.  The clients talk to nginx."""

    def __init__(self, make: Any, folder: str) -> None:
        from nginx_front import NginxFront, free_port
        self.servers = [make(), make()]
        for server in self.servers:
            server.port = free_port()
        self.front = NginxFront(folder, [server.port for server in self.servers])
        self.current = self.servers[0]
        self.public_host = self.current.public_host
        self.taking_over: Optional[threading.Thread] = None
        self.external = False

    def start(self) -> None:
        if self.taking_over is None:                     # the first start: both, and nginx
            self.front.start()
            self.current.start()
            self.taking_over = threading.Thread(target=self.servers[1].start, daemon=True)
            self.taking_over.start()
            time.sleep(1.0)
            if not self.taking_over.is_alive():
                raise RuntimeError("the standby did not wait for the serving process")
        else:                                            # after the kill: the standby serves
            self.taking_over.join()
            self.current = self.servers[1]

    @property
    def url(self) -> str:
        return self.front.url

    @property
    def pid(self) -> Optional[int]:
        return self.current.pid

    @property
    def tail(self) -> List[str]:
        return self.current.tail

    def cpu(self) -> float:
        return self.current.cpu()

    def memory(self) -> Tuple[float, float]:
        return self.current.memory()

    def kill(self) -> None:
        self.current.kill()

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        self.front.stop()


class SharedGroup(StandbyPair):
    """``count`` ``serve --shared`` processes on one PostgreSQL database behind nginx, as ``Server``
    to the run: the games are spread over them (xboard_engine/web/rooms/shared.py); ``kill`` kills the
    last (not the lobby's), whose games the others take over while its pages reconnect; ``start``
    after it has nothing to wait for.  CPU and memory are the processes' sums."""

    def __init__(self, make: Any, folder: str, count: int) -> None:
        from nginx_front import NginxFront, free_port
        self.servers = [make() for _ in range(count)]
        for server in self.servers:
            server.port = free_port()
            server.extra = server.extra + ["--shared"]
        self.front = NginxFront(folder, [server.port for server in self.servers])
        self.current = self.servers[0]
        self.public_host = self.current.public_host
        self.started = False
        self.external = False
        self.dead_cpu = 0.0
        self.survivors = True                    # a kill leaves the others serving

    def start(self) -> None:
        if not self.started:
            self.front.start()
            for server in self.servers:
                server.start()
            self.started = True

    @property
    def tail(self) -> List[str]:
        return [line for server in self.servers for line in server.tail]

    def cpu(self) -> float:
        return self.dead_cpu + sum(server.cpu() for server in self.servers)

    def memory(self) -> Tuple[float, float]:
        both = [server.memory() for server in self.servers]
        return sum(m[0] for m in both), sum(m[1] for m in both)

    def kill(self) -> None:
        victim = self.servers[-1]
        self.dead_cpu += victim.cpu()
        victim.kill()
        victim.pid = None


# --------------------------------------------------------------------- statistics
CANARY = """
import os, sys, time
parent = os.getppid()
lags = []
while True:
    t = time.monotonic()
    time.sleep(0.01)
    lags.append(time.monotonic() - t - 0.01)
    if len(lags) % 100 == 0:
        if os.getppid() != parent:          # the load generator is gone
            break
        sys.stdout.write(" ".join(f"{x:.5f}" for x in lags) + "\\n")
        sys.stdout.flush()
        lags = []
"""


class Canary:
    """A separate idle process that sleeps 10 ms at a time and notes how late it wakes: the stalls
    the machine itself adds (other programs, the host), apart from this load."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", CANARY], stdout=subprocess.PIPE, text=True)
        self.lags: List[float] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lags.extend(float(x) for x in line.split())

    def stop(self) -> List[float]:
        self.proc.kill()
        self.proc.wait()
        return [x * 1000 for x in self.lags]


def load_average() -> float:
    """The machine's 1-minute load average (other programs share the cores)."""
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError):
        return float("nan")


def percentile(values: List[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(q / 100.0 * len(ordered) + 0.5)) - 1))
    return ordered[k]


# --------------------------------------------------------------------- simulated people
class Run:
    """Everything shared by the simulated people of one run."""

    def __init__(self, server: Server, args: argparse.Namespace) -> None:
        self.server = server
        self.args = args
        self.latencies: List[Tuple[float, float]] = []     # (when sent, round trip)
        self.errors: List[str] = []
        self.sign_ups: List[float] = []  # (--accounts) each sign-up's round trip, seconds
        self.moves_sent = 0
        self.moves_acked = 0
        self.bytes_in = 0
        self.messages_in = 0
        self.restarting = False          # the server is being killed and started again
        self.server_back = True
        self.after_restart = False
        self.killed_at = float("inf")
        self.stopping = False
        self.sessions: List[aiohttp.ClientSession] = []
        self.conns: List["Conn"] = []
        self.games: List["LiveGame"] = []
        self.people = 0                  # simulated people so far (each its own address)
        self.names = 0
        # a server of this run only has no other names; one already running may have our last run's
        self.name_tag = "".join(random.choice(NAME_LETTERS) for _ in range(4)) + " " if server.external else ""

    def error(self, text: str) -> None:
        self.errors.append(text)
        if len(self.errors) <= 10:
            print(f"  error: {text}", flush=True)

    def session(self) -> aiohttp.ClientSession:
        """A new simulated person's browser: its own cookie jar and its own address, every request
        and WebSocket handshake through the "proxy" (Host, Origin, X-Forwarded-For)."""
        self.people += 1
        n = self.people
        host = self.server.public_host
        headers = {"Host": host, "Origin": f"http://{host}",
                   "X-Forwarded-For": f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"}
        s = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), headers=headers,
                                  connector=aiohttp.TCPConnector(limit=0))
        self.sessions.append(s)
        return s

    def new_name(self) -> str:
        """A name no other simulated person has: "Load a", "Load b", ... "Load z", "Load aa", ..."""
        self.names += 1
        n, tail = self.names, ""
        while n:
            n, r = divmod(n - 1, len(NAME_LETTERS))
            tail = NAME_LETTERS[r] + tail
        return f"Load {self.name_tag}{tail}"


class Conn:
    """One page (a browser profile's WebSocket) on one game: a player's or a watcher's."""

    def __init__(self, run: Run, session: aiohttp.ClientSession, game: "LiveGame", watcher: bool) -> None:
        self.run = run
        self.session = session
        self.game = game
        self.watcher = watcher
        self.ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self.ply = -1                    # the ply count of the last state received
        self.state: Optional[Dict[str, Any]] = None
        self.seats: List[int] = []
        self.changed = asyncio.Event()
        self.hello = asyncio.Event()
        self.named = asyncio.Event()
        self.reader: Optional[asyncio.Task] = None
        self.expect_error = False
        self.connected_since = 0.0

    async def connect(self) -> None:
        url = self.run.server.url
        self.ws = await self.session.ws_connect(f"{url}/ws/g/{self.game.id}", max_msg_size=0)
        self.connected_since = time.monotonic()
        self.ply = -1
        self.reader = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        ws = self.ws
        assert ws is not None
        async for msg in ws:
            now = time.monotonic()
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            self.run.bytes_in += len(msg.data)
            self.run.messages_in += 1
            data = json.loads(msg.data)
            kind = data.get("type")
            if kind == "state":
                data = whole_state(data, self.state)
                if data is None:
                    self.run.error(f"game {self.game.id}: a state out of step with the last")
                    break
                self.state = data
                self.ply = self.game.plies(data)
                self.game.on_state(self, self.ply, now, data)
                self.changed.set()
            elif kind == "hello":
                self.seats = data.get("yourSeats") or []
                self.hello.set()
            elif kind == "you":
                self.named.set()
            elif kind == "error":
                if self.expect_error:
                    self.expect_error = False
                else:
                    self.run.error(f"game {self.game.id}: {data.get('message')}")
                    self.game.on_error(self)
                self.changed.set()
        if not self.run.stopping:
            asyncio.ensure_future(self.reconnect())

    async def reconnect(self) -> None:
        """The connection ended: while the server restarts, try again until it is back."""
        if not self.run.restarting:
            self.run.error(f"game {self.game.id}: a {'watcher' if self.watcher else 'player'} lost its connection")
        deadline = time.monotonic() + 60
        while not self.run.stopping and time.monotonic() < deadline:
            await asyncio.sleep(0.2 + random.random() * 0.3)
            if self.run.restarting and not self.run.server_back:
                continue
            try:
                await self.connect()
                return
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
                continue
        if not self.run.stopping:
            self.run.error(f"game {self.game.id}: could not reconnect")

    async def send(self, message: Dict[str, Any]) -> bool:
        try:
            assert self.ws is not None
            await self.ws.send_str(json.dumps(message))
            return True
        except (ConnectionError, RuntimeError, AssertionError, aiohttp.ClientError):
            return False


class Pending:
    """A move sent: who has not yet seen the ply it makes."""

    def __init__(self, ply: int, sent: float, mover: Conn, text: str, seat: int, waiting: set) -> None:
        self.ply = ply
        self.sent = sent
        self.mover = mover
        self.text = text
        self.seat = seat
        self.waiting = waiting
        self.last = sent
        self.acked = False
        self.interrupted = False


class LiveGame:
    def __init__(self, run: Run, kind: str) -> None:
        self.run = run
        self.kind = kind
        self.id = ""                                # the game's address, /g/SLUG
        self.players: List[Conn] = []
        self.watchers: List[Conn] = []
        self.pending: List[Pending] = []
        self.acked: List[Tuple[int, str]] = []      # (seat, text) of every acknowledged move, in order
        self.sent: List[Tuple[int, str]] = []
        self.acked_view: List[Any] = []             # the move list the mover saw with its last acknowledgement
        self.latest_ply = -1
        self.latest: Optional[Dict[str, Any]] = None
        self.over = False
        self.moves = 0
        self.moves_after_restart = 0
        self.seen_after_restart: Optional[List[Any]] = None
        self.cut_off = True              # its connections ended at the kill (several processes: not all)
        self.back_at = 0.0               # when a player's page of it saw its state again after the kill
        self.acked_at_restart: List[Any] = []

    def conns(self) -> List[Conn]:
        return self.players + self.watchers

    def plies(self, state: Dict[str, Any]) -> int:
        return len(state["sans"]) if self.kind == "two" else len(state["moves"])

    def move_list(self, state: Dict[str, Any]) -> List[Any]:
        return list(state["sans"]) if self.kind == "two" else [tuple(m[1:]) for m in state["moves"]]

    def seat_to_move(self, state: Dict[str, Any]) -> Optional[int]:
        if state.get("status") != "playing" or state.get("result") is not None:
            return None
        if self.kind == "two":
            return 0 if state["turn"] == "w" else 1
        return state["turn"]

    def on_state(self, conn: Conn, ply: int, now: float, state: Dict[str, Any]) -> None:
        if ply >= self.latest_ply:
            self.latest_ply = ply
            self.latest = state
            if state.get("status") == "over" or state.get("result") is not None:
                self.over = True
        if self.run.restarting and self.seen_after_restart is None and not conn.watcher and \
                conn.connected_since > self.run.killed_at:
            self.seen_after_restart = self.move_list(state)
            self.acked_at_restart = list(self.acked_view)
            self.back_at = now
        done = []
        for p in self.pending:
            if ply >= p.ply and conn in p.waiting:
                p.waiting.discard(conn)
                p.last = max(p.last, now)
                if conn is p.mover and not p.acked:
                    p.acked = True
                    self.acked.append((p.seat, p.text))
                    self.acked_view = self.move_list(state)
                    self.run.moves_acked += 1
                    if self.run.after_restart:
                        self.moves_after_restart += 1
                if not p.waiting:
                    done.append(p)
        for p in done:
            self.pending.remove(p)
            if not p.interrupted:
                self.run.latencies.append((p.sent, p.last - p.sent))

    def on_error(self, conn: Conn) -> None:
        for p in list(self.pending):
            if p.mover is conn and not p.acked:
                self.pending.remove(p)

    def interrupt(self) -> None:
        for p in self.pending:
            p.interrupted = True
        self.pending = [p for p in self.pending if not p.acked]

    async def drive(self, pace: float, until: float, max_moves: Optional[int]) -> None:
        """A move every ``pace`` seconds, by whoever is to move."""
        run = self.run
        next_at = time.monotonic() + random.random() * pace
        while not run.stopping and not self.over and time.monotonic() < until and \
                (max_moves is None or self.moves < max_moves):
            delay = next_at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            next_at = max(next_at + pace, time.monotonic())
            mover = None
            while not run.stopping and time.monotonic() < until + 30:
                if run.restarting or self.latest is None:
                    await asyncio.sleep(0.05)
                    continue
                seat = self.seat_to_move(self.latest)
                if seat is None:
                    break
                mover = next((c for c in self.players if seat in c.seats), None)
                if mover is None:
                    run.error(f"game {self.id}: nobody holds seat {seat}")
                    return
                if mover.ply >= self.latest_ply and not any(p.mover is mover for p in self.pending) \
                        and mover.state is not None and mover.state.get("targets"):
                    break
                mover.changed.clear()
                try:
                    await asyncio.wait_for(mover.changed.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
                mover = None
            if mover is None or mover.state is None or self.over or run.stopping or time.monotonic() >= until:
                continue
            state = mover.state
            seat = self.seat_to_move(state)
            target = random.choice(state["targets"])
            text = random.choice(target["options"])["text"]
            p = Pending(mover.ply + 1, time.monotonic(), mover, text, seat, set(c for c in self.conns()
                                                                                  if c.ws is not None and not c.ws.closed))
            self.pending.append(p)
            self.sent.append((seat, text))
            if await mover.send({"type": "move", "move": text}):
                self.moves += 1
                run.moves_sent += 1
            else:
                self.pending.remove(p)


async def new_profile(run: Run) -> aiohttp.ClientSession:
    """A browser profile that opened the lobby page (so it has its player cookie)."""
    session = run.session()
    async with session.get(run.server.url + "/") as response:
        await response.text()
        if response.status != 200:
            raise RuntimeError(f"lobby page: HTTP {response.status}")
    return session


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = 30.0) -> Dict[str, Any]:
    return await receive_one_of(ws, (kind,), timeout)


async def sign_up(run: Run, session: aiohttp.ClientSession) -> None:
    """(``--accounts``) the profile signs up with a new name: it plays as an account."""
    began = time.perf_counter()
    async with session.post(run.server.url + "/account/signup",
                            json={"username": run.new_name(), "password": "correct horse staple battery"}) as response:
        answer = await response.json()
        if response.status != 200:
            raise RuntimeError(f"sign-up: HTTP {response.status} {answer}")
    run.sign_ups.append(time.perf_counter() - began)


async def set_up(run: Run, game: LiveGame) -> None:
    """The creator names itself (or signs up, ``--accounts``) and makes a challenge in the lobby
    with invite seats; the others open the game's page, name themselves (or sign up) and take them."""
    url = run.server.url
    creator = await new_profile(run)
    if run.args.accounts:
        await sign_up(run, creator)
    ws = await creator.ws_connect(url + "/ws/lobby")
    if not run.args.accounts:
        await ws.send_str(json.dumps({"type": "name", "name": run.new_name()}))
        await receive(ws, "you")
    if game.kind == "two":
        challenge = {"type": "create", "kind": "two", "variant": run.args.variant, "tc": run.args.tc,
                     "seats": [{"kind": "me"}, {"kind": "invite"}]}
    else:
        challenge = {"type": "create", "kind": "eight", "mode": "singles", "tc": "none",
                     "seats": [{"kind": "me"}] + [{"kind": "invite"}] * 7}
    await ws.send_str(json.dumps(challenge))
    created = await receive(ws, "created")
    await ws.close()
    game.id = created["gameId"]
    first = Conn(run, creator, game, False)
    game.players.append(first)
    await first.connect()
    await asyncio.wait_for(first.hello.wait(), 30)
    for invite in created["invites"]:
        secret = invite["path"].split("invite=")[1]
        profile = await new_profile(run)
        if run.args.accounts:
            await sign_up(run, profile)
        conn = Conn(run, profile, game, False)
        game.players.append(conn)
        await conn.connect()
        await asyncio.wait_for(conn.hello.wait(), 30)
        if not run.args.accounts:
            await conn.send({"type": "name", "name": run.new_name()})
            await asyncio.wait_for(conn.named.wait(), 30)
        conn.hello.clear()
        await conn.send({"type": "take", "seat": invite["seat"], "secret": secret})
        await asyncio.wait_for(conn.hello.wait(), 30)       # a new hello names the seat taken
        if invite["seat"] not in conn.seats:
            raise RuntimeError(f"game {game.id}: seat {invite['seat']} not taken")


async def add_watcher(run: Run, game: LiveGame) -> None:
    conn = Conn(run, await new_profile(run), game, True)
    game.watchers.append(conn)
    await conn.connect()
    await asyncio.wait_for(conn.hello.wait(), 30)


async def loop_lag(run: Run, samples: List[float]) -> None:
    """How late this process's event loop wakes up (the generator's own delay)."""
    while not run.stopping:
        t = time.monotonic()
        await asyncio.sleep(0.05)
        samples.append(time.monotonic() - t - 0.05)


# --------------------------------------------------------------------- checks
def stored_moves(db_path: str) -> Dict[str, List[Tuple[int, str]]]:
    """Every game's stored moves (seat, text) in order, by the game's address (slug); ``db_path`` is
    the SQLite file or a postgresql:// address."""
    if db_path.startswith("postgresql://"):
        import psycopg
        db = psycopg.connect(db_path)
    else:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        out: Dict[str, List[Tuple[int, str]]] = {}
        for slug, seat, text in db.execute(
                "SELECT games.slug, actions.seat, actions.text FROM actions JOIN games ON games.id = actions.game_id "
                "WHERE actions.kind = 'move' ORDER BY actions.game_id, actions.n"):
            out.setdefault(slug, []).append((seat, text))
        return out
    finally:
        db.close()


async def check_records(run: Run, data_dir: Optional[str], database: Optional[str] = None) -> Dict[str, Any]:
    """Every game's stored moves against what its clients played and saw acknowledged."""
    report = {"games": len(run.games), "mismatched": 0, "lost": 0, "unacked_stored": 0, "pgn_mismatched": 0}
    where = database or (os.path.join(data_dir, "live.sqlite3") if data_dir else None)
    stored = stored_moves(where) if where else None
    session = run.session()
    for game in run.games:
        if stored is not None:
            have = stored.get(game.id, [])
            acked = game.acked
            # every acknowledged move in order; at most the unacknowledged moves in flight besides
            i = j = 0
            while i < len(have) and j < len(acked):
                if have[i] == acked[j]:
                    j += 1
                elif have[i] in game.sent:
                    report["unacked_stored"] += 1
                else:
                    break
                i += 1
            missing = len(acked) - j
            extra = [m for m in have[i:] if m not in game.sent]
            if missing or extra:
                report["mismatched"] += 1
                report["lost"] += missing
                if report["mismatched"] <= 5:
                    print(f"  game {game.id}: stored {len(have)} moves, acknowledged {len(acked)}, "
                          f"missing {missing}, unknown {extra[:3]}", flush=True)
            else:
                report["unacked_stored"] += len(have) - i
        if game.kind == "two" and game.latest is not None:
            async with session.get(f"{run.server.url}/g/{game.id}.pgn") as response:
                pgn = await response.text()
            body = re.sub(r"\[[^\]]*\]|\{[^}]*\}|\d+\.(\.\.)?", " ", pgn).split()
            sans = [t for t in body if t not in ("1-0", "0-1", "1/2-1/2", "*")]
            if sans != list(game.latest["sans"]):
                report["pgn_mismatched"] += 1
                if report["pgn_mismatched"] <= 3:
                    print(f"  game {game.id}: PGN {sans[-3:]} ({len(sans)}) vs seen "
                          f"{game.latest['sans'][-3:]} ({len(game.latest['sans'])})", flush=True)
    return report


# --------------------------------------------------------------------- seeks and an arena in the mix
class Community:
    """The community's load beside the games above: people seeking games (quick pairing) over and
    over, and an arena whose players are paired again as their games end."""

    def __init__(self) -> None:
        self.pair_now: List[float] = []         # seconds from a seek that found a waiting one to "paired"
        self.pair_waits: List[float] = []       # seconds a seek that had to wait waited
        self.seek_games = 0
        self.arena_games = 0
        self.errors = 0


async def receive_one_of(ws: aiohttp.ClientWebSocketResponse, kinds: Tuple[str, ...],
                         timeout: float = 30.0) -> Dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:                      # a page that is sent something all the time must still give up
            raise asyncio.TimeoutError()
        msg = await ws.receive(timeout=left)
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"connection ended: {msg.type}")
        data = json.loads(msg.data)
        if data.get("type") in kinds:
            return data
        if data.get("type") == "error":
            raise RuntimeError(data.get("message"))


async def play_short_game(run: Run, session: aiohttp.ClientSession, slug: str, pace: float, plies: int,
                          rng: random.Random, until: float) -> bool:
    """Play a game from its page: a random move every ``pace`` seconds on one's turn; after ``plies``
    plies the side to move resigns (and anyone still playing at ``until``).  Whether it ended."""
    ws = await session.ws_connect(f"{run.server.url}/ws/g/{slug}", max_msg_size=0)
    try:
        hello = await receive(ws, "hello")
        mine = hello["yourSeats"]
        acted = -1
        state: Optional[Dict[str, Any]] = None
        while True:
            try:
                sent = await receive(ws, "state", timeout=max(0.5, until - time.monotonic()))
            except asyncio.TimeoutError:
                await ws.send_str(json.dumps({"type": "resign"}))
                return False
            state = whole_state(sent, state)
            if state is None:
                raise RuntimeError(f"game {slug}: a state out of step with the last")
            if state.get("status") != "playing" or state.get("result"):
                return True
            turn = 0 if state["turn"] == "w" else 1
            if turn in mine and len(state["sans"]) != acted:     # a state again for a connection: acted on
                acted = len(state["sans"])
                if len(state["sans"]) >= plies:
                    await ws.send_str(json.dumps({"type": "resign"}))
                else:
                    await asyncio.sleep(pace)
                    await ws.send_str(json.dumps({"type": "move", "move": rng.choice(state["targets"])["options"][0]["text"]}))
    finally:
        await ws.close()


async def seeker(run: Run, community: Community, until: float, pace: float, seed: int) -> None:
    rng = random.Random(seed)
    session = await new_profile(run)
    ws = await session.ws_connect(run.server.url + "/ws/lobby")
    await ws.send_str(json.dumps({"type": "name", "name": run.new_name()}))
    await receive(ws, "you")
    try:
        while time.monotonic() < until - 10:
            sent = time.monotonic()
            await ws.send_str(json.dumps({"type": "seek", "variant": "normal", "tc": rng.choice(["180+2", "300+3"]),
                                          "rated": rng.random() < 0.5}))
            first = await receive_one_of(ws, ("seeking", "paired"), timeout=max(1.0, until - time.monotonic()))
            if first["type"] == "paired":                 # a compatible seek waited: paired at once
                community.pair_now.append(time.monotonic() - sent)
                paired = first
            else:
                paired = await receive(ws, "paired", timeout=max(1.0, until - time.monotonic()))
                community.pair_waits.append(time.monotonic() - sent)
            if await play_short_game(run, session, paired["gameId"], pace, rng.randrange(2, 7), rng, until + 10):
                community.seek_games += 1
    except (asyncio.TimeoutError, ConnectionError, RuntimeError):
        pass
    finally:
        await ws.close()


async def arena(run: Run, community: Community, players: int, until: float, pace: float) -> None:
    """An arena lasting the run, its players paired and playing short games until it ends."""
    sessions = [await new_profile(run) for _ in range(players)]
    pages = []
    for session in sessions:
        lobby = await session.ws_connect(run.server.url + "/ws/lobby")
        await lobby.send_str(json.dumps({"type": "name", "name": run.new_name()}))
        await receive(lobby, "you")
        if not pages:
            minutes = max(1, int((until - time.monotonic()) / 60))
            await lobby.send_str(json.dumps({"type": "tournament", "kind": "arena", "minutes": minutes,
                                             "tc": "180+2", "startsIn": 60, "name": "Load arena"}))
            slug = (await receive(lobby, "tournamentCreated"))["id"]
        await lobby.close()
        page = await session.ws_connect(f"{run.server.url}/ws/t/{slug}")
        await page.send_str(json.dumps({"type": "join"}))
        pages.append(page)
    await pages[0].send_str(json.dumps({"type": "start"}))
    # Each tournament page is read all the time, as a browser's tab reads it, also while its player
    # is in a game (left unread, a page that the server keeps sending standings to fills its
    # buffers, and then neither end got through: the arena's players were stuck past the end).
    pairings: List["asyncio.Queue[Dict[str, Any]]"] = [asyncio.Queue() for _ in pages]

    async def read_page(n: int) -> None:
        async for msg in pages[n]:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data.get("type") == "paired":
                pairings[n].put_nowait(data)

    async def player(n: int) -> None:
        rng = random.Random(1000 + n)
        try:
            while time.monotonic() < until:
                paired = await asyncio.wait_for(pairings[n].get(), timeout=max(1.0, until - time.monotonic()))
                if await play_short_game(run, sessions[n], paired["gameId"], pace, rng.randrange(2, 7), rng, until + 10):
                    community.arena_games += 1
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            pass
    readers = [asyncio.ensure_future(read_page(n)) for n in range(len(pages))]
    await asyncio.gather(*(player(n) for n in range(players)))
    for reader in readers:
        reader.cancel()
    for page in pages:
        await page.close()


def waiting_at(task: "asyncio.Task[Any]") -> str:
    """Where a task waits, through our own coroutines: their names and lines, outermost first (and
    how far past a deadline it is, where one of them has one)."""
    coro, chain = task.get_coro(), []
    while coro is not None and hasattr(coro, "cr_frame"):
        frame = coro.cr_frame
        if frame is not None and frame.f_code.co_filename == __file__:
            step = f"{frame.f_code.co_name} line {frame.f_lineno}"
            if isinstance(frame.f_locals.get("deadline"), float):
                step += f" (deadline {time.monotonic() - frame.f_locals['deadline']:+.0f} s)"
            chain.append(step)
        coro = coro.cr_await
    return " > ".join(chain)


# --------------------------------------------------------------------- a run
async def run_load(args: argparse.Namespace, server: Server, quiet: bool = False) -> Dict[str, Any]:
    run = Run(server, args)
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))
    started = time.monotonic()
    # Set up: a few at a time, as people arrive.
    games = [LiveGame(run, "two") for _ in range(args.games)] + [LiveGame(run, "eight") for _ in range(args.eight)]
    run.games = games
    gate = asyncio.Semaphore(args.setup_concurrency)

    async def one(game: LiveGame) -> None:
        async with gate:
            await set_up(run, game)
    await asyncio.gather(*(one(g) for g in games))
    order = list(games)
    watch_targets = [order[i % len(order)] for i in range(args.watchers)] if order else []

    async def watcher(game: LiveGame) -> None:
        async with gate:
            await add_watcher(run, game)
    await asyncio.gather(*(watcher(g) for g in watch_targets))
    connections = sum(len(g.conns()) for g in games)
    say(f"set up {args.games} two-player + {args.eight} 8 Player games, {args.watchers} watchers, "
        f"{connections} WebSockets in {time.monotonic() - started:.1f} s")
    await asyncio.sleep(1.0)                     # the joins' broadcasts settle
    # As the server, the generator's own collector passes stay short; but it never thaws for a full
    # pass during the run (that pause, 2 s at 1,600 games, is the generator's, not the server's: it
    # showed as every game's latency).  The cycles it leaves are freed when the run is over.
    collector = Collector(full_every=float("inf"))
    collector.start()

    async def collecting() -> None:
        while True:
            await asyncio.sleep(collector.period)
            collector.tick()
    collecting_task = asyncio.ensure_future(collecting())
    lag: List[float] = []
    lagging = asyncio.ensure_future(loop_lag(run, lag))
    load0 = load_average()
    canary = Canary()
    cpu0, t0, own0 = server.cpu(), time.monotonic(), time.process_time()
    bytes0, messages0 = run.bytes_in, run.messages_in
    duration = args.duration if args.moves is None else 10 ** 6
    until = t0 + duration
    drivers = [asyncio.ensure_future(g.drive(args.pace, until, args.moves)) for g in games]
    community = Community()
    names = {}
    for n in range(args.seekers):
        drivers.append(asyncio.ensure_future(seeker(run, community, until, args.pace, n)))
        names[drivers[-1]] = f"seeker {n}"
    if args.arena:
        drivers.append(asyncio.ensure_future(arena(run, community, args.arena, until, args.pace)))
        names[drivers[-1]] = "the arena"
    restart: Dict[str, Any] = {}
    if args.kill_halfway:
        if args.moves is None:
            await asyncio.sleep(duration / 2)
        else:
            while sum(g.moves for g in games) < args.moves * len(games) / 2:
                await asyncio.sleep(0.1)
        restart = await kill_and_restart(run, server, say)
    # Every simulated person stops at the end; one still waiting a minute later is reported and let go.
    done, late = await asyncio.wait(drivers, timeout=max(1.0, until + 60 - time.monotonic()))
    if late:                                     # where the stragglers wait, for the report
        places = collections.Counter(waiting_at(t) for t in asyncio.all_tasks()
                                     if t is not asyncio.current_task() and not t.done())
        for where in [w for w in places if not w or w.startswith("read line") or w.startswith("drive line")]:
            del places[where]                    # every connection's reader waits in read
        run.error("the stragglers wait at " + ", ".join(f"{where} ({n})" for where, n in places.most_common()))
    for task in late:
        task.cancel()
    if late:
        run.error(f"{len(late)} simulated people still busy a minute after the end, stopped: "
                  f"{', '.join(sorted(names.get(t, 'a game') for t in late))}")
    for task in done:
        if task.exception() is not None:
            run.error(f"a simulated person failed: {task.exception()!r}")
    # the last moves' states arrive
    deadline = time.monotonic() + 10
    while any(g.pending for g in games) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    wall = time.monotonic() - t0
    # with a restart: the first process's seconds from the start of play, and all of the second's
    cpu = server.cpu() - cpu0 if not restart else restart["cpu_before"] - cpu0 + server.cpu()
    own = time.process_time() - own0
    load1 = load_average()
    canary_lags = canary.stop()
    rss, hwm = server.memory()
    if args.kill_halfway:
        hwm = max(hwm, restart["hwm_before"])
    run.stopping = True
    lagging.cancel()
    collecting_task.cancel()
    unfinished = sum(len(g.pending) for g in games)
    records = await check_records(run, args.data_dir, args.database)
    if args.kill_halfway:
        restart["not_resumed"] = sum(1 for g in games if not g.over and g.moves_after_restart == 0)
        restart["cut_off"] = sum(1 for g in games if g.cut_off)
    for s in run.sessions:
        await s.close()
    gc.unfreeze()
    lat = [x * 1000 for _, x in run.latencies]
    if restart:
        # Moves sent before the kill, and those sent once everyone was back (a pace later, so the
        # moves held up by the outage are not among them); the rest are the recovery's.
        calm = restart["killed_at"] + restart["back"] + args.pace
        restart["p99_before"] = percentile([x * 1000 for t, x in run.latencies if t < restart["killed_at"]], 99)
        restart["p99_after"] = percentile([x * 1000 for t, x in run.latencies if t > calm], 99)
        restart["recovery"] = sum(1 for t, _ in run.latencies if restart["killed_at"] <= t <= calm)
    return {"games": args.games, "eight": args.eight, "watchers": args.watchers, "connections": connections,
            "pace": args.pace, "wall": wall, "moves": len(lat), "sent": run.moves_sent, "acked": run.moves_acked,
            "p50": percentile(lat, 50), "p90": percentile(lat, 90), "p99": percentile(lat, 99),
            "max": max(lat) if lat else float("nan"), "errors": len(run.errors), "unfinished": unfinished,
            "cpu": cpu, "cpu_pct": 100.0 * cpu / wall if wall else 0.0, "rss": rss, "hwm": hwm,
                        "messages_in": run.messages_in - messages0, "bytes_in": run.bytes_in - bytes0,
                        "load": [load0, load1], "canary_p99": percentile(canary_lags, 99),
            "canary_p999": percentile(canary_lags, 99.9), "canary_max": max(canary_lags or [0.0]),
            "own_cpu_pct": 100.0 * own / wall if wall else 0.0, "lag_p99": percentile([x * 1000 for x in lag], 99), "lag_max": max(lag) * 1000 if lag else 0.0,
            "records": records, "restart": restart, "over": sum(1 for g in games if g.over),
            "sign_ups": len(run.sign_ups), "sign_up_p50": percentile([x * 1000 for x in run.sign_ups], 50),
            "sign_up_p99": percentile([x * 1000 for x in run.sign_ups], 99),
            "seekers": args.seekers, "arena": args.arena,
            "pairings": len(community.pair_waits) + len(community.pair_now), "waited": len(community.pair_waits),
            "pair_p50": percentile([x * 1000 for x in community.pair_now], 50),
            "pair_p99": percentile([x * 1000 for x in community.pair_now], 99),
            "seek_games": community.seek_games, "arena_games": community.arena_games}


async def kill_and_restart(run: Run, server: Server, say: Any) -> Dict[str, Any]:
    run.restarting = True
    run.server_back = False
    cpu_before = server.cpu()
    _, hwm_before = server.memory()
    server.kill()
    killed = run.killed_at = time.monotonic()
    for g in run.games:
        g.interrupt()
        g.seen_after_restart = None
    say(f"SIGKILL after {run.moves_acked} acknowledged moves; starting the server again")
    await asyncio.get_event_loop().run_in_executor(None, server.start)
    run.server_back = True
    up = time.monotonic() - killed
    # every connection back, every game's state seen again
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if getattr(server, "survivors", False) and time.monotonic() > killed + 1.0:
            # Several processes: the games of those that live were never cut off (their connections
            # opened before the kill are still open a second after it); they are back as they are.
            for g in run.games:
                if g.seen_after_restart is None and g.latest is not None and \
                        all(c.ws is not None and not c.ws.closed and c.connected_since < killed for c in g.conns()):
                    g.seen_after_restart = g.move_list(g.latest)
                    g.acked_at_restart = list(g.acked_view)
                    g.cut_off = False
        if all(g.seen_after_restart is not None for g in run.games) and \
                all(c.ws is not None and not c.ws.closed and c.ply >= 0 for g in run.games for c in g.conns()):
            break
        await asyncio.sleep(0.1)
    back = time.monotonic() - killed
    cut = [g.back_at for g in run.games if g.cut_off and g.back_at]
    if getattr(server, "survivors", False) and cut:
        back = max(cut) - killed                 # (the others were never away)
    lost = 0
    for g in run.games:
        seen = g.seen_after_restart or []
        before = g.acked_at_restart
        if seen[:len(before)] != before:
            common = 0
            while common < min(len(seen), len(before)) and seen[common] == before[common]:
                common += 1
            lost += len(before) - common
            print(f"  game {g.id}: {len(before) - common} acknowledged moves missing after the restart", flush=True)
    for g in run.games:
        g.pending = [p for p in g.pending if p.acked]     # moves lost before their acknowledgement
    run.restarting = False
    run.after_restart = True
    say(f"server up again in {up:.2f} s, every connection back in {back:.2f} s; "
        f"acknowledged moves missing: {lost}")
    return {"lost": lost, "up": up, "back": back, "cpu_before": cpu_before, "hwm_before": hwm_before,
            "killed_at": killed}


def show(result: Dict[str, Any], label: str = "") -> None:
    r = result
    print(f"{label}{r['games']} two-player + {r['eight']} 8P games, {r['watchers']} watchers "
          f"({r['connections']} WebSockets), a move every {r['pace']} s per game, {r['wall']:.0f} s:")
    print(f"  moves timed {r['moves']} (sent {r['sent']}, acknowledged {r['acked']}; "
          f"{r['moves'] / r['wall']:.1f}/s), games over {r['over']}")
    print(f"  round trip to every seat and watcher: p50 {r['p50']:.1f} ms, p90 {r['p90']:.1f} ms, "
          f"p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms")
    print(f"  messages received by the clients {r['messages_in']} ({r['messages_in'] / r['wall']:.0f}/s, "
          f"{r['bytes_in'] / r['wall'] / 1e6:.2f} MB/s, {r['bytes_in'] / max(1, r['messages_in']) / 1000:.1f} kB each)")
    print(f"  errors {r['errors']}, moves never seen by all {r['unfinished']}")
    if r.get("sign_ups"):
        print(f"  every player an account: {r['sign_ups']} sign-ups in the set-up, each p50 {r['sign_up_p50']:.0f} ms, "
              f"p99 {r['sign_up_p99']:.0f} ms")
    print(f"  server CPU {r['cpu']:.1f} s = {r['cpu_pct']:.0f}% of one core; RSS {r['rss']:.0f} MB, "
          f"peak {r['hwm']:.0f} MB")
    print(f"  load generator (same machine, one asyncio process): CPU {r['own_cpu_pct']:.0f}% of one core, "
          f"loop lag p99 {r['lag_p99']:.1f} ms, max {r['lag_max']:.1f} ms; machine load average "
          f"{r['load'][0]:.1f} at the start, {r['load'][1]:.1f} at the end ({os.cpu_count()} cores)")
    print(f"  machine noise (an idle process sleeping 10 ms at a time wakes late by): p99 {r['canary_p99']:.1f} ms, "
          f"p99.9 {r['canary_p999']:.1f} ms, max {r['canary_max']:.1f} ms")
    if r.get("seekers") or r.get("arena"):
        print(f"  beside them: {r['seekers']} people seeking games ({r['pairings']} pairings; a seek that found "
              f"one waiting was paired in p50 {r['pair_p50']:.1f} ms, p99 {r['pair_p99']:.1f} ms; "
              f"{r['seek_games']} games played to the end), "
              f"an arena of {r['arena']} players ({r['arena_games']} games played to the end)")
    rec = r["records"]
    print(f"  records: {rec['games']} games checked, {rec['mismatched']} differ, acknowledged moves lost "
          f"{rec['lost']}, unacknowledged moves stored {rec['unacked_stored']}, PGN differing {rec['pgn_mismatched']}")
    if r["restart"]:
        x = r["restart"]
        print(f"  SIGKILL halfway: server up again in {x['up']:.2f} s, everyone back in {x['back']:.2f} s, "
              f"acknowledged moves missing after the restart {x['lost']}, games that did not move again "
              f"{x['not_resumed']}, games whose pages were cut off {x.get('cut_off', '?')}")
        print(f"  round trip p99 of the moves sent before the kill {x['p99_before']:.1f} ms, of those sent a pace "
              f"after everyone was back {x['p99_after']:.1f} ms ({x['recovery']} moves in between, held up by "
              f"the outage, are in the whole run's figures above)")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20, help="two-player games (default %(default)s)")
    p.add_argument("--eight", type=int, default=2, help="8 Player Chess games (default %(default)s)")
    p.add_argument("--watchers", type=int, default=20, help="watchers over all games (default %(default)s)")
    p.add_argument("--pace", type=float, default=5.0,
                   help="seconds between moves (plies) in each game (default %(default)s: people playing blitz, "
                        "e.g. 5+0, think about 5 s a move; 8 Player seats at 10+5 take longer, so this is harsh there)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds of play (default %(default)s)")
    p.add_argument("--moves", type=int, help="moves per game instead of a duration")
    p.add_argument("--variant", default="normal", help="two-player variant (default %(default)s)")
    p.add_argument("--accounts", action="store_true",
                   help="every player signs up (an account, a scrypt hash on the server) instead of choosing a name")
    p.add_argument("--tc", default="none", help="two-player clock (default %(default)s: nobody flags)")
    p.add_argument("--seekers", type=int, default=0,
                   help="people seeking games over and over beside the games above (quick pairing; default 0)")
    p.add_argument("--arena", type=int, default=0, help="players of an arena running through the run (default 0)")
    p.add_argument("--kill-halfway", action="store_true", help="SIGKILL the server halfway and start it again")
    p.add_argument("--standby", action="store_true",
                   help="two servers on the database behind nginx, the second a standby (with --kill-halfway: "
                        "the standby takes over instead of a restart)")
    p.add_argument("--shared", type=int, default=0, metavar="N",
                   help="N serve --shared processes on the --database (PostgreSQL) behind nginx (with "
                        "--kill-halfway: the last is killed and the others take its games over)")
    p.add_argument("--url", help="a running server instead of starting one")
    p.add_argument("--pid", type=int, help="with --url: the server's process id (CPU, memory)")
    p.add_argument("--public-host", default=PUBLIC_HOST,
                   help="the host name the server is told it is reached at and the clients send "
                        "(default %(default)s)")
    p.add_argument("--data-dir", help="the server's data directory (default: a fresh temporary one)")
    p.add_argument("--database", help="the server's database instead of DATA_DIR/live.sqlite3: a postgresql:// "
                                      "address (an empty database; its moves are checked there)")
    p.add_argument("--server-python", default=sys.executable,
                   help="the interpreter running the server, e.g. pypy3 (default %(default)s)")
    p.add_argument("--server-pythonpath", default="",
                   help="a directory put first on the server's PYTHONPATH only (e.g. aiohttp installed for PyPy)")
    p.add_argument("--server-root", default=ROOT,
                   help="run the server from this checkout (e.g. an older commit, for before/after figures)")
    p.add_argument("--nice", type=int, default=0,
                   help="scheduling priority of the server and this generator (e.g. -5: the machine's other "
                        "work waits first; needs the right to raise priority)")
    p.add_argument("--server-arg", action="append", default=[], help="more arguments for the server")
    p.add_argument("--setup-concurrency", type=int, default=20, help="games set up at once (default %(default)s)")
    p.add_argument("--p99-target", type=float, help="exit 1 if the 99th percentile (ms) is above this")
    p.add_argument("--profile-server", action="store_true",
                   help="run the server under scripts/live_profile.py and print its timings at the end")
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    return p


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    temporary = None
    if args.data_dir is None and args.url is None:
        temporary = tempfile.TemporaryDirectory(prefix="live-load-")
        args.data_dir = temporary.name
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    if args.database:
        args.server_arg = ["--database", args.database] + args.server_arg
    def make() -> Server:
        return Server(args.data_dir or "", args.server_python, args.server_arg, args.url, args.pid,
                      args.profile_server, args.server_pythonpath, args.nice, args.server_root, args.public_host)
    if args.shared and not (args.database or "").startswith("postgres"):
        sys.stderr.write("live_load: --shared needs --database postgresql://...\n")
        return 2
    server: Any = (SharedGroup(make, args.data_dir, args.shared) if args.shared else
                   StandbyPair(make, args.data_dir) if args.standby else make())
    try:
        server.start()
    except BaseException:
        server.stop()                              # nothing left running (a standby, nginx)
        raise
    print(f"server {server.url} (pid {server.pid}, {args.server_python if not args.url else 'external'}); "
          f"{os.cpu_count()} cores shared with this load generator", flush=True)
    try:
        result = asyncio.run(run_load(args, server))
    finally:
        server.stop()
        profile = os.path.join(args.data_dir or "", "profile.txt")
        if args.profile_server and os.path.exists(profile):
            with open(profile) as f:
                print(f"server timings (scripts/live_profile.py):\n{f.read()}")
        if server.tail and any("Traceback" in line or "rror" in line for line in server.tail):
            print("server output:\n  " + "\n  ".join(server.tail[-20:]))
        if temporary is not None:
            temporary.cleanup()
    show(result)
    if args.json:
        print(json.dumps(result))
    bad = result["errors"] or result["records"]["lost"] or result["records"]["mismatched"] or \
        (result["restart"] and (result["restart"]["lost"] or result["restart"]["not_resumed"]))
    if args.p99_target is not None and not result["p99"] <= args.p99_target:
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
