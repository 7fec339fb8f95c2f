"""Two `serve` processes on one database behind a real nginx (Debian's): one serves, the other
waits as a standby (the database's server lock, xboard_engine/web/app/cli.py ``_serve_alone``).  The
serving one is killed with SIGKILL in the middle of a game: the standby takes over, the players'
pages reconnect through the same nginx address, every acknowledged move is there and the game goes
on.  Runs on the tests' store (SQLite, or PostgreSQL in CI's second pass)."""
import asyncio
import threading
import time

import pytest

from needs import needs

from live_client import Client, LiveServer, close_all, game_between, new_player, run
from scripts.nginx_front import NginxFront, free_port

pytestmark = needs("nginx")


class Front:
    """The nginx address, as the clients' ``server``."""

    def __init__(self, url: str) -> None:
        self.url = url


async def reconnect(page: Client, game: str, since: float):
    """What a page does when its connection ends: open it again, every 0.2 s, until it is served
    (nginx answers 502 while it finds no server listening); the first state."""
    while True:
        try:
            await page.connect(f"/ws/g/{game}")
            return await page.state(timeout=10)
        except Exception as error:
            if time.monotonic() - since > 30:
                raise AssertionError(f"not back after 30 s: {error!r}")
            await asyncio.sleep(0.2)


def test_a_standby_takes_over_a_killed_server_behind_nginx_and_the_game_goes_on(tmp_path):
    ports = [free_port(), free_port()]
    nginx = NginxFront(str(tmp_path), ports).start()
    public = ["--public-url", nginx.url, "--first-move", "0"]
    first = LiveServer(tmp_path / "data", *public, port=ports[0], shared=False)
    standby = LiveServer(tmp_path / "data", *public, port=ports[1], start=False, database=first.database,
                         shared=False)
    waiting = threading.Thread(target=standby.start)          # returns once it serves
    waiting.start()
    front = Front(nginx.url)
    try:
        time.sleep(1.0)
        assert waiting.is_alive(), "the second server must wait while the first serves"

        async def scenario():
            alice = await new_player(front, "Alice")
            bob = await new_player(front, "Bob")
            game = await game_between(alice, bob, ["e2e4", "e7e5", "g1f3", "b8c6"], tc="300+3")
            killed = time.monotonic()
            first.kill()
            # The pages see their connections end and open them again at the same address.
            for page in (alice, bob):
                with pytest.raises(ConnectionError):
                    while True:
                        await page.receive(timeout=10)
            back = await reconnect(alice, game, killed)
            took = time.monotonic() - killed
            assert back["sans"] == ["e4", "e5", "Nf3", "Nc6"] and back["status"] == "playing"
            assert (await reconnect(bob, game, killed))["sans"] == back["sans"]
            await alice.send({"type": "move", "move": "f1b5"})
            moved = await bob.state(sans=lambda s: len(s) == 5)
            assert moved["sans"][-1] == "Bb5"
            await close_all(alice, bob)
            return took
        took = run(scenario(), timeout=120)
        waiting.join(10)
        assert not waiting.is_alive() and standby.proc.poll() is None
        print(f"the standby served the game again {took:.2f} s after the kill")
        assert took < 15
    finally:
        first.stop()
        if hasattr(standby, "proc"):
            standby.stop()
        waiting.join(30)
        nginx.stop()
