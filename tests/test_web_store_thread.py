"""The live server's event loop never waits for the database (its store runs on a thread of its own).

The test holds SQLite's write lock on the server's database file from another process's connection
(``BEGIN EXCLUSIVE``), as a backup, a long report or a slow disk would, while a player moves.  The
server's connection waits for the lock (Python's ``sqlite3`` gives every connection a 5 s busy
timeout; ``SqliteStore`` keeps that default), and the move waits with it: it is acknowledged to no
one until it is committed.  Meanwhile the server goes on serving: pages load, and messages of other
games that need no write are answered at once.  Held longer than the busy timeout, the write fails:
the mover is told to try again, nobody sees the move, and the game is as the store has it."""
import asyncio
import os
import sqlite3
import time

from needs import need_module

from live_client import Client, LiveServer, close_all, run, two_players

need_module("aiohttp")

QUICK = 1.0            # seconds: an answer while the database is locked (the lock is held far longer)


def lock_database(data_dir):
    """Another connection's exclusive write lock on the server's database (held until COMMIT)."""
    db = sqlite3.connect(os.path.join(str(data_dir), "live.sqlite3"), timeout=10, isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    return db


def stored_actions(data_dir, slug):
    db = sqlite3.connect(os.path.join(str(data_dir), "live.sqlite3"))
    try:
        return db.execute("SELECT a.text FROM actions a JOIN games g ON g.id = a.game_id WHERE g.slug=? "
                          "ORDER BY a.n", (slug,)).fetchall()
    finally:
        db.close()


async def timed(work):
    started = time.monotonic()
    out = await work
    return out, time.monotonic() - started


async def move_unseen(client, seconds=0.1):
    """No state with a move in it has come (the messages that came within ``seconds``)."""
    while True:
        try:
            data = await client.receive(timeout=seconds)
        except asyncio.TimeoutError:
            return True
        assert not (data.get("type") == "state" and data.get("sans")), data


def test_a_move_waiting_for_the_database_holds_up_no_one_else(tmp_path):
    async def scenario():
        server = LiveServer(tmp_path)
        clients = []
        try:
            alice, bob, game, _ = await two_players(server)
            carol, dave, other, _ = await two_players(server)
            visitor = Client(server)
            clients = [alice, bob, carol, dave, visitor]
            db = lock_database(tmp_path)
            held = 3.0
            locked_at = time.monotonic()
            try:
                await alice.send({"type": "move", "move": "e2e4"})
                await asyncio.sleep(0.3)                    # the server's write now waits for the lock
                status, took = await timed(visitor.open_page("/"))
                assert status == 200 and took < QUICK, took
                status, took = await timed(visitor.open_page(f"/g/{other}"))
                assert status == 200 and took < QUICK, took
                status, took = await timed(visitor.open_page(f"/g/{game}"))    # the game whose move waits
                assert status == 200 and took < QUICK, took
                # Another game's page: its arrows come back, an illegal move is refused, at once.
                await carol.send({"type": "arrows", "arrows": [["e2", "e4"]]})
                _, took = await timed(carol.wait_for("arrows", timeout=QUICK))
                assert took < QUICK, took
                await dave.send({"type": "move", "move": "e7e5"})          # not Black's turn
                refused, took = await timed(dave.wait_for("error", timeout=QUICK))
                assert "move" in refused["message"] and took < QUICK, (refused, took)
                # The waiting move is told to no one before it is committed.
                assert await move_unseen(alice) and await move_unseen(bob)
                assert time.monotonic() - locked_at < held - 0.5
                await asyncio.sleep(max(0.0, held - (time.monotonic() - locked_at)))
            finally:
                released_at = time.monotonic()
                db.execute("COMMIT")
                db.close()
            acked = await alice.state(timeout=10, sans=lambda s: len(s) == 1)
            assert time.monotonic() >= released_at and acked["sans"] == ["e4"]
            await bob.state(timeout=10, sans=["e4"])
            assert stored_actions(tmp_path, game) == [("e2e4",)]
            await bob.send({"type": "move", "move": "e7e5"})                # the game goes on
            await alice.state(timeout=10, sans=["e4", "e5"])
        finally:
            await close_all(*clients)
            server.stop()
    run(scenario(), timeout=120)


def test_a_write_that_cannot_wait_longer_is_refused_and_the_game_is_as_stored(tmp_path):
    async def scenario():
        server = LiveServer(tmp_path)
        clients = []
        try:
            alice, bob, game, _ = await two_players(server)
            visitor = Client(server)
            clients = [alice, bob, visitor]
            db = lock_database(tmp_path)
            try:
                await alice.send({"type": "move", "move": "e2e4"})
                await asyncio.sleep(0.5)
                status, took = await timed(visitor.open_page("/"))
                assert status == 200 and took < QUICK, took
                # Past SQLite's busy timeout (5 s) the write gives up: the mover hears why.
                refused = await alice.wait_for("error", timeout=15)
                assert refused["message"] == "the server could not save that; try again"
                assert await move_unseen(bob, 0.2)
            finally:
                db.execute("COMMIT")
                db.close()
            assert stored_actions(tmp_path, game) == []
            # A page opened now gets the game from the store: no move made.
            again = Client(server)
            clients.append(again)
            await again.connect(f"/ws/g/{game}")
            state = await again.state(timeout=10)
            assert state["sans"] == [] and state["status"] == "playing"
            # Alice's page, opened again, makes the move again: now it is kept.
            await alice.connect(f"/ws/g/{game}")
            await alice.wait_for("hello")
            await alice.send({"type": "move", "move": "e2e4"})
            await alice.state(timeout=10, sans=["e4"])
            await again.state(timeout=10, sans=["e4"])
            assert stored_actions(tmp_path, game) == [("e2e4",)]
        finally:
            await close_all(*clients)
            server.stop()
    run(scenario(), timeout=120)


def test_two_pages_of_one_cookie_asking_at_once_get_one_player(tmp_path):
    """Two lobby pages of one browser (one cookie, no player yet) seek at the same moment: while the
    first page's player is being written, the second waits for it and takes the same player."""
    import aiohttp

    async def scenario():
        server = LiveServer(tmp_path)
        first = Client(server)
        second = Client(server)
        try:
            assert await first.open_page("/") == 200
            await second.session.close()
            second.session = aiohttp.ClientSession(cookie_jar=first.session.cookie_jar)
            for page in (first, second):
                await page.connect("/ws/lobby")
                hello = await page.wait_for("hello")
                assert hello["you"] is None
            await asyncio.gather(first.send({"type": "seek", "variant": "normal", "tc": "180+2"}),
                                 second.send({"type": "seek", "variant": "normal", "tc": "300+3"}))
            await first.wait_for("seeking")
            await second.wait_for("seeking")
            lobby = await first.wait_for("lobby", seekCount=2)
            assert len({s["player"] for s in lobby["seeks"]}) == 1, lobby["seeks"]
            db = sqlite3.connect(os.path.join(str(tmp_path), "live.sqlite3"))
            try:
                assert db.execute("SELECT COUNT(*) FROM players").fetchone() == (1,)
            finally:
                db.close()
        finally:
            await close_all(first, second)
            server.stop()
    run(scenario(), timeout=60)


def test_actions_sent_at_once_in_one_game_are_saved_one_after_the_other(tmp_path):
    """Both players act while the other's action is being saved (a move whose write waits for the
    database, and a draw offer; then an offer and a resignation at once): the actions are numbered
    and saved one after the other (the room's lock), none is refused for want of a save, and the
    store has them in order, the resignation last."""
    async def scenario():
        server = LiveServer(tmp_path)
        clients = []
        try:
            alice, bob, game, _ = await two_players(server)
            clients = [alice, bob]
            db = lock_database(tmp_path)              # the first write waits: the second comes meanwhile
            try:
                await alice.send({"type": "move", "move": "e2e4"})
                await asyncio.sleep(0.3)
                await bob.send({"type": "offer"})
                await asyncio.sleep(1.0)
            finally:
                db.execute("COMMIT")
                db.close()
            await asyncio.gather(alice.send({"type": "offer"}), bob.send({"type": "resign"}))
            final = await alice.state(timeout=10, result=lambda r: r is not None)
            assert final["status"] == "over"
            for page in clients:
                while True:
                    try:
                        data = await page.receive(timeout=0.3)
                    except asyncio.TimeoutError:
                        break
                    assert "could not save" not in str(data.get("message")), data
            db = sqlite3.connect(os.path.join(str(tmp_path), "live.sqlite3"))
            try:
                rows = db.execute("SELECT a.n, a.kind FROM actions a JOIN games g ON g.id = a.game_id "
                                  "WHERE g.slug=? ORDER BY a.n", (game,)).fetchall()
            finally:
                db.close()
            assert [n for n, _ in rows] == list(range(len(rows))) and rows[-1][1] == "resign", rows
            assert ("move" in [k for _, k in rows]) and len(rows) >= 3, rows
        finally:
            await close_all(*clients)
            server.stop()
    run(scenario(), timeout=60)
