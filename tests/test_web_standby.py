"""Two `serve` processes on one database behind a real nginx (Debian's): one serves, the other
waits as a standby (the database's server lock, xboard_engine/web/cli.py ``_serve_alone``).  The
serving one is killed with SIGKILL in the middle of a game: the standby takes over, the players'
pages reconnect through the same nginx address, every acknowledged move is there and the game goes
on.  Runs on the tests' store (SQLite, or PostgreSQL in CI's second pass)."""
import asyncio
import os
import shutil
import socket
import subprocess
import threading
import time

import pytest

from live_client import Client, LiveServer, close_all, game_between, new_player, run

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")

SITE = """
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream live {{
        server 127.0.0.1:{first} max_fails=1 fail_timeout=1s;
        server 127.0.0.1:{second} max_fails=1 fail_timeout=1s;
    }}
    server {{
        listen 127.0.0.1:{front};
        location / {{
            proxy_pass http://live;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            proxy_connect_timeout 2s;
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Front:
    """The nginx address, as the clients' ``server``."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"


@pytest.fixture
def nginx_pair(tmp_path):
    """nginx on a free port before two upstream ports; the servers are started by the test."""
    ports = {"first": free_port(), "second": free_port(), "front": free_port()}
    conf = tmp_path / "nginx.conf"
    conf.write_text(SITE.format(dir=tmp_path, **ports))
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", ports["front"]), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"nginx did not start: {proc.stdout.read() if proc.poll() is not None else ''}")
            time.sleep(0.05)
    yield ports
    proc.terminate()
    proc.wait(10)


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


def test_a_standby_takes_over_a_killed_server_behind_nginx_and_the_game_goes_on(tmp_path, nginx_pair):
    public = ["--public-url", f"http://127.0.0.1:{nginx_pair['front']}", "--first-move", "0"]
    first = LiveServer(tmp_path / "data", *public, port=nginx_pair["first"])
    standby = LiveServer(tmp_path / "data", *public, port=nginx_pair["second"], start=False,
                         database=first.database)
    waiting = threading.Thread(target=standby.start)          # returns once it serves
    waiting.start()
    front = Front(nginx_pair["front"])
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
        if standby.proc if hasattr(standby, "proc") else None:
            standby.stop()
        waiting.join(30)
