"""Several `serve --shared` processes on one PostgreSQL behind a real nginx (Debian's), as
xboard_engine/web/rooms/shared.py describes: games are spread over the processes, one serves the lobby,
each game is written only by the process that hosts it, and when a process is SIGKILLed the others
take its games (and the lobby) over while the players' pages reconnect through the same address."""
import asyncio
import time

import aiohttp
import pytest

from needs import needs

from live_client import Client, LiveServer, close_all, create, game_between, new_player, run
from scripts.nginx_front import NginxFront, free_port
from xboard_engine.web.store.records import GameMoved, StoredAction, StoredSeat
from xboard_engine.web.store.postgres import PostgresStore

needs_nginx = needs("nginx")
OPENING = ["e2e4", "e7e5", "g1f3", "b8c6"]


class Front:
    """The nginx address, as the clients' ``server``."""

    def __init__(self, url: str) -> None:
        self.url = url


def hosts_of(server: LiveServer, games):
    look = server.look()
    try:
        return {slug: look.execute("SELECT host FROM games WHERE slug=?", (slug,)).fetchone()[0] for slug in games}
    finally:
        look.close()


async def until_ended(page: Client) -> None:
    with pytest.raises(ConnectionError):
        while True:
            await page.receive(timeout=10)


async def reconnect(page: Client, path: str, since: float):
    """As a page does when its connection ends: open it again every 0.2 s (nginx answers 502 or 503
    while no process serves it yet); the first state (or lobby) message."""
    while True:
        try:
            await page.connect(path)
            return await page.wait_for("lobby" if path == "/ws/lobby" else "state", timeout=10)
        except Exception as error:
            if time.monotonic() - since > 30:
                raise AssertionError(f"{path} not back after 30 s: {error!r}")
            await asyncio.sleep(0.2)


def game_store(url: str, host_note: str) -> PostgresStore:
    store = PostgresStore(url)
    store.add_host(host_note)
    return store


def test_a_game_is_written_only_by_the_live_process_that_hosts_it(postgres_url):
    """The lease: a process's number is alive while its lock is held; a game made by a process is
    its own; another process may not take it while that one lives, takes it once it is gone (one
    of two at once), and from then on the old host's writes to it are refused (``GameMoved``)."""
    first, second, third = game_store(postgres_url, "a"), game_store(postgres_url, "b"), game_store(postgres_url, "c")
    locks = [first.host_lock(), second.host_lock()]
    try:
        for lock in locks:
            assert lock.take(False, "test")
        assert sorted(first.live_hosts()) == [first.host_id, second.host_id]
        game = first.add_game("two", {"variant": "normal"}, [StoredSeat(0, "player", None, None, None),
                                                             StoredSeat(1, "player", None, None, None)], None, True)
        assert second.game_host(game.id) == (first.host_id, True)
        assert not second.claim_game(game.id, None)             # not what it thought: refused
        assert second.orphans() == []
        first.add_action(game.id, StoredAction(0, 0, "move", "e4", [], 1.0))
        with pytest.raises(GameMoved):                          # the second never hosted it
            second.add_action(game.id, StoredAction(1, 1, "move", "e5", [], 2.0))
        locks[0].release()                                      # the first process is gone
        assert second.live_hosts() == [second.host_id]
        assert second.game_host(game.id) == (first.host_id, False)
        assert [o[0] for o in second.orphans()] == [game.id]
        assert second.claim_game(game.id, first.host_id)
        assert not third.claim_game(game.id, first.host_id)     # taken already: one of two wins
        with pytest.raises(GameMoved):
            first.add_action(game.id, StoredAction(1, 1, "move", "e5", [], 2.0))
        second.add_action(game.id, StoredAction(1, 1, "move", "e5", [], 2.0))
        assert [a.text for a in third.actions(game.id)] == ["e4", "e5"]
        second.release_game(game.id)
        assert third.game_host(game.id) == (None, False) and [o[0] for o in third.orphans()] == [game.id]
    finally:
        for lock in locks:
            lock.release()
        for store in (first, second, third):
            store.close()


def test_shared_needs_postgresql(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "xboard_engine", "serve", "--shared", "--port", "0",
                           "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--shared needs a PostgreSQL database" in done.stderr


@needs_nginx
def test_two_processes_share_the_games_and_take_over_a_killed_ones_games_and_lobby(tmp_path, postgres_url):
    ports = [free_port(), free_port(), free_port()]
    nginx = NginxFront(str(tmp_path), ports).start()
    public = ["--public-url", nginx.url, "--first-move", "0", "--shared"]
    a = LiveServer(tmp_path / "a", *public, port=ports[0], database=postgres_url)
    b = LiveServer(tmp_path / "b", *public, port=ports[1], database=postgres_url)
    assert "serves the lobby" in a.said[-1] and "serves games" in b.said[-1]
    servers = [a, b]
    front = Front(nginx.url)

    async def scenario():
        players = [await new_player(front, name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")]
        games = {}
        for white, black in zip(players[0::2], players[1::2]):
            games[await game_between(white, black, OPENING, tc="300+3")] = (white, black)
        hosts = hosts_of(a, games)
        number = {server: int(server.said[-1].split("process ")[1].split()[0]) for server in (a, b)}
        # Made by the lobby's process, given out in turn: each process plays two of the four.
        assert sorted(hosts.values()) == sorted([number[a], number[a], number[b], number[b]])
        assert all(getattr(p, "moves_followed", 0) == 0 for p in players)       # no page had to move
        watcher = await new_player(front, "Ida")
        lobby = await watcher.wait_for("lobby", playingCount=4, timeout=10)
        assert {g["gameId"] for g in lobby["playing"]} == set(games)

        # SIGKILL the process that plays two of the games (not the lobby's): their pages reconnect
        # through nginx to the other, which takes the games over; nothing acknowledged is lost.
        killed = time.monotonic()
        b.kill()
        moved = [slug for slug, host in hosts.items() if host == number[b]]
        for slug in moved:
            for page in games[slug]:
                await until_ended(page)
                back = await reconnect(page, f"/ws/g/{slug}", killed)
                assert back["sans"] == ["e4", "e5", "Nf3", "Nc6"] and back["status"] == "playing"
        took = time.monotonic() - killed
        for slug, (white, black) in games.items():
            await white.send({"type": "move", "move": "f1c4"})
            assert (await black.state(sans=lambda s: len(s) == 5))["sans"][-1] == "Bc4"
        assert set(hosts_of(a, games).values()) == {number[a]}

        # A third process joins; then the lobby's process is killed: the third takes the lobby and
        # every game over.
        c = LiveServer(tmp_path / "c", *public, port=ports[2], database=postgres_url)
        servers.append(c)
        killed = time.monotonic()
        a.kill()
        for slug, pages in games.items():
            for page in pages:
                await until_ended(page)
                back = await reconnect(page, f"/ws/g/{slug}", killed)
                assert back["sans"] == ["e4", "e5", "Nf3", "Nc6", "Bc4"]
        await until_ended(watcher)
        lobby = await reconnect(watcher, "/ws/lobby", killed)
        lobby_took = time.monotonic() - killed
        for slug, (white, black) in games.items():
            await black.send({"type": "move", "move": "g8f6"})
            assert (await white.state(sans=lambda s: len(s) == 6))["sans"][-1] == "Nf6"
        lobby = await watcher.wait_for("lobby", playingCount=4, timeout=10)
        assert {g["gameId"] for g in lobby["playing"]} == set(games)
        await close_all(watcher, *players)
        return took, lobby_took

    try:
        took, lobby_took = run(scenario(), timeout=180)
        print(f"a killed process's games served again after {took:.2f} s; the lobby after {lobby_took:.2f} s")
        assert took < 15 and lobby_took < 15
    finally:
        for server in servers:
            server.stop()
        nginx.stop()


def serve_exit(database: str, tmp_path, *args: str):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "xboard_engine", "serve", "--port", "0", "--database", database,
                           "--data-dir", str(tmp_path), *args], capture_output=True, text=True, timeout=60)


def test_processes_with_and_without_shared_never_serve_one_database_together(tmp_path, postgres_url):
    """A process without --shared would play the games beside the shared ones (it does not look at
    the games' hosts): it is refused while shared processes live, and a shared one is refused while
    a process without --shared serves."""
    shared = LiveServer(tmp_path / "a", "--shared", database=postgres_url)
    try:
        done = serve_exit(postgres_url, tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "processes started with --shared serve" in done.stderr
    finally:
        shared.stop()
    plain = LiveServer(tmp_path / "b", database=postgres_url, shared=False)
    try:
        done = serve_exit(postgres_url, tmp_path, "--shared")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "a server process without --shared serves" in done.stderr
    finally:
        plain.stop()


def _games_and_hosts(server: LiveServer):
    look = server.look()
    try:
        return look.execute("SELECT id, host FROM games ORDER BY id").fetchall()
    finally:
        look.close()


def _number(server: LiveServer) -> int:
    return int(server.said[-1].split("process ")[1].split()[0])


def test_a_process_stopped_cleanly_lets_its_games_go_and_another_takes_them(tmp_path, postgres_url):
    """SIGTERM: the process's games are without a host when it has exited, and the other process
    takes them within its sweep for games whose host is gone (every 2 s)."""
    a = LiveServer(tmp_path / "a", "--shared", database=postgres_url)
    b = LiveServer(tmp_path / "b", "--shared", database=postgres_url)
    try:
        time.sleep(1.5)                       # the lobby's process has seen the second one

        async def make_games():
            maker = await new_player(a, "Tess")
            for _ in range(4):
                await create(maker, kind="two", seats=[{"kind": "me"}, {"kind": "open"}], tc="300+3")
            await close_all(maker)
        try:
            run(make_games(), timeout=60)
        except Exception as error:            # what the two processes said, to see where it waited
            a.stop()
            b.stop()
            raise AssertionError(f"{error!r}\na said: {a.output()}\nb said: {b.output()}") from error
        before = _games_and_hosts(a)
        assert sorted(host for _, host in before) == sorted([_number(a)] * 2 + [_number(b)] * 2)
        b.stop()
        assert b.proc.returncode == 0
        mine = {game for game, host in before if host == _number(b)}
        assert {game for game, host in _games_and_hosts(a) if host is None} == mine
        deadline = time.monotonic() + 10
        while {host for _, host in _games_and_hosts(a)} != {_number(a)}:
            assert time.monotonic() < deadline, _games_and_hosts(a)
            time.sleep(0.2)
    finally:
        a.stop()
        b.stop()


def test_a_process_whose_database_connection_ends_stops_at_once(tmp_path, postgres_url):
    """Its lock's connection ended (here by the database's administrator): it can no longer show it
    is alive, so the others may take its games; it stops at once (status 3), saying why."""
    import psycopg
    a = LiveServer(tmp_path / "a", "--shared", database=postgres_url)
    b = LiveServer(tmp_path / "b", "--shared", database=postgres_url)
    try:
        with psycopg.connect(postgres_url, autocommit=True) as db:
            pid = db.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 7393 "
                             "AND objid = %s AND objsubid = 2", (_number(b),)).fetchone()[0]
            db.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert b.proc.wait(15) == 3
        assert "lost the database" in b.output() and a.proc.poll() is None
    finally:
        a.stop()
        b.stop()


@needs_nginx
def test_signing_out_everywhere_closes_the_accounts_pages_on_every_process(tmp_path, postgres_url):
    """The account's sessions end on the lobby's process; its game page, served by the other process,
    is closed at once through the bus (close code 4002), and comes back as nobody."""
    ports = [free_port(), free_port()]
    nginx = NginxFront(str(tmp_path), ports).start()
    public = ["--public-url", nginx.url, "--first-move", "0", "--shared"]
    a = LiveServer(tmp_path / "a", *public, port=ports[0], database=postgres_url)
    b = LiveServer(tmp_path / "b", *public, port=ports[1], database=postgres_url)
    front = Front(nginx.url)

    async def post(client, path, **body):
        async with client.session.post(f"{front.url}/account/{path}", json=body, headers={"Origin": front.url}) as r:
            return r.status, await r.json()

    async def scenario():
        owner = await new_player(front, "Owner")
        name = owner.name.replace(" ", "")
        assert (await post(owner, "signup", username=name, password="a long password"))[0] == 200
        laptop = Client(front)
        await laptop.open_page("/")
        assert (await post(laptop, "signin", username=name, password="a long password"))[0] == 200
        await owner.connect("/ws/lobby")
        await owner.wait_for("hello")
        number_b = int(b.said[-1].split("process ")[1].split()[0])
        for _ in range(4):                                  # games are given out in turn
            made = await create(owner, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "open"}])
            if hosts_of(a, [made["gameId"]])[made["gameId"]] == number_b:
                break
        else:
            raise AssertionError("no game went to the second process")
        await laptop.connect(f"/ws/g/{made['gameId']}")
        assert (await laptop.wait_for("hello"))["you"]["id"] == owner.id
        assert (await post(owner, "signout", everywhere=True))[0] == 200
        while True:                          # (the close frame's code: the socket's own may read 1006
            message = await laptop.ws.receive(timeout=5)      # if the proxy drops the line first)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                break
        assert (message.type, message.data) == (aiohttp.WSMsgType.CLOSE, 4002)
        await laptop.connect(f"/ws/g/{made['gameId']}")
        assert (await laptop.wait_for("hello"))["you"] is None
        await close_all(owner, laptop)

    try:
        run(scenario(), timeout=120)
    finally:
        for server in (a, b):
            server.stop()
        nginx.stop()


@needs_nginx
def test_a_moderators_timeout_silences_the_player_on_the_process_that_serves_their_game(tmp_path, postgres_url):
    """The timeout is given on the lobby's process; the player's game, served by the other, which
    knew the player had no sanction (it had let a line through), refuses the next line at once."""
    import subprocess
    import sys
    from live_client import ROOT
    ports = [free_port(), free_port()]
    nginx = NginxFront(str(tmp_path), ports).start()
    public = ["--public-url", nginx.url, "--first-move", "0", "--shared"]
    a = LiveServer(tmp_path / "a", *public, port=ports[0], database=postgres_url)
    b = LiveServer(tmp_path / "b", *public, port=ports[1], database=postgres_url)
    front = Front(nginx.url)

    async def post(client, path, **body):
        async with client.session.post(f"{front.url}{path}", json=body, headers={"Origin": front.url}) as r:
            return r.status, await r.json()

    async def scenario():
        mod, talker = await new_player(front, "Mod"), await new_player(front, "Talker")
        mod_name = mod.name.replace(" ", "")
        assert (await post(mod, "/account/signup", username=mod_name, password="a long password"))[0] == 200
        granted = subprocess.run([sys.executable, "-m", "xboard_engine", "admin", "--database", postgres_url,
                                  "grant", mod_name, "moderator"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert granted.returncode == 0, granted.stderr
        number_b = int(b.said[-1].split("process ")[1].split()[0])
        for _ in range(4):
            made = await create(talker, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "open"}])
            if hosts_of(a, [made["gameId"]])[made["gameId"]] == number_b:
                break
        else:
            raise AssertionError("no game went to the second process")
        await talker.connect(f"/ws/g/{made['gameId']}")
        await talker.wait_for("hello")
        await talker.send({"type": "chat", "text": "first line"})
        await talker.wait_for("chat", text="first line")
        status, _ = await post(mod, "/mod/action", player=talker.id, action="timeout", minutes=10, reason="spam")
        assert status == 200
        began = time.monotonic()
        for n in range(50):          # (the bus's message and the chat line race: it wins within moments)
            await talker.send({"type": "chat", "text": f"line {n}"})
            reply = await talker.receive()
            while reply.get("type") not in ("chat", "error"):
                reply = await talker.receive()
            if reply["type"] == "error":
                break
            await asyncio.sleep(0.02)
        assert "timeout" in reply["message"] and time.monotonic() - began < 1.0, (reply, n)
        await close_all(mod, talker)

    try:
        run(scenario(), timeout=120)
    finally:
        for server in (a, b):
            server.stop()
        nginx.stop()
