"""nginx (Debian's) in front of `serve` processes, as a community runs it: one address for the
pages and their WebSockets, passed to whichever upstream process is serving (a standby listens only
once it has taken over; a refused or dead upstream is skipped: ``max_fails=0`` keeps nginx from
marking both down while one is dead and the other not yet serving, so each request tries each in
turn; a refused connection on one machine costs nothing, a dead machine ``proxy_connect_timeout``).
Several ``serve --shared`` processes: a game's pages go first to the process its address hashes
to, and a process that does not serve what is asked answers 503, so nginx asks the next one.
Used by scripts/live_load.py (``--standby``, ``--shared``), tests/test_web_standby.py and
tests/test_web_shared.py; the site file of docs/SERVER_OPERATIONS.md is the same ``server``."""
import os
import shutil
import socket
import subprocess
import time
from typing import List, Optional

SITE = """
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
worker_processes 1;
events {{ worker_connections 32768; }}
worker_rlimit_nofile 70000;
http {{
    access_log off;
    client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream live {{
{servers}
    }}
    upstream games {{
        hash $game consistent;
{servers}
    }}
    server {{
        listen 127.0.0.1:{front};
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 1h;
        proxy_connect_timeout 2s;
        proxy_next_upstream error timeout http_503 non_idempotent;
        proxy_next_upstream_tries 0;
        location ~ ^/(?:ws/)?g/(?<game>[A-Za-z0-9]+) {{
            proxy_pass http://games;
        }}
        location / {{
            proxy_pass http://live;
        }}
    }}
}}
"""


def nginx_program() -> Optional[str]:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NginxFront:
    """nginx listening on ``front`` (a free port if 0) before ``upstreams`` (ports on 127.0.0.1),
    its files in ``folder``."""

    def __init__(self, folder: str, upstreams: List[int], front: int = 0) -> None:
        self.folder = folder
        self.upstreams = upstreams
        self.port = front or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: Optional[subprocess.Popen] = None

    def start(self) -> "NginxFront":
        program = nginx_program()
        if program is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in self.upstreams)
        conf = os.path.join(self.folder, "nginx.conf")
        with open(conf, "w") as f:
            f.write(SITE.format(dir=self.folder, servers=servers, front=self.port))
        self.proc = subprocess.Popen([program, "-c", conf, "-p", self.folder], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    out = self.proc.stdout.read().decode() if self.proc.poll() is not None else ""
                    raise RuntimeError(f"nginx did not start: {out}")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
