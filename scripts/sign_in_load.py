"""Sign-in throughput of `xboard-engine serve`, and what the hashing does to everyone else.

Starts a server (or uses ``--url``, started with ``--trusted-proxy 127.0.0.1``), signs up
``--accounts`` accounts, then sends ``--attempts`` sign-ins with the right passwords, ``--concurrency``
at a time, each from an address of its own (X-Forwarded-For), while a probe asks for a small page
every 50 ms.  Prints the sign-ins a second (each is one scrypt hash on the server's worker threads),
their latency, and the probe's round trip idle and during the burst: the event loop's lag.

    python scripts/sign_in_load.py [--accounts 20] [--attempts 200] [--concurrency 16]
"""
import argparse
import asyncio
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import List, Optional, Tuple

import aiohttp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "load test password"
_addresses = itertools.count(1)


def start_server(data_dir: str) -> Tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "xboard_engine", "serve", "--data-dir", data_dir, "--port", "0",
                             "--trusted-proxy", "127.0.0.1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, cwd=ROOT)
    line = proc.stdout.readline()
    match = re.search(r"open (http://[^/\s]+)/", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stdout.read()}")
    return proc, match.group(1)


def browser(url: str) -> aiohttp.ClientSession:
    n = next(_addresses)
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                 headers={"Origin": url, "X-Forwarded-For": f"10.77.{n // 250}.{n % 250 + 1}"})


async def post(session: aiohttp.ClientSession, url: str, path: str, **body) -> Tuple[int, dict]:
    """A page's request; the browser first opens the account page, as a person's does (its cookie)."""
    if not session.cookie_jar.filter_cookies(url):
        async with session.get(f"{url}/account") as response:
            await response.read()
    async with session.post(f"{url}/account/{path}", json=body) as response:
        return response.status, await response.json()


def percentile(values: List[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def probe(url: str, until: asyncio.Event, samples: List[float]) -> None:
    async with aiohttp.ClientSession() as session:
        while not until.is_set():
            began = time.perf_counter()
            async with session.get(url + "/reset") as response:
                await response.read()
            samples.append(time.perf_counter() - began)
            await asyncio.sleep(0.05)


async def measure(url: str, accounts: int, attempts: int, concurrency: int) -> None:
    names = [f"Load{n:04d}x" for n in range(accounts)]
    began = time.perf_counter()
    for name in names:
        async with browser(url) as session:
            status, answer = await post(session, url, "signup", username=name, password=PASSWORD)
            if status != 200:
                raise SystemExit(f"sign-up of {name}: {status} {answer}")
    print(f"{accounts} sign-ups in {time.perf_counter() - began:.1f} s (one at a time)")
    idle: List[float] = []
    stop = asyncio.Event()
    task = asyncio.ensure_future(probe(url, stop, idle))
    await asyncio.sleep(3)
    stop.set()
    await task
    busy: List[float] = []
    stop = asyncio.Event()
    task = asyncio.ensure_future(probe(url, stop, busy))
    gate = asyncio.Semaphore(concurrency)
    latencies: List[float] = []
    statuses: List[int] = []

    async def sign_in(n: int) -> None:
        async with gate:
            async with browser(url) as session:
                t = time.perf_counter()
                status, _ = await post(session, url, "signin", username=names[n % accounts], password=PASSWORD)
                latencies.append(time.perf_counter() - t)
                statuses.append(status)
    began = time.perf_counter()
    await asyncio.gather(*[sign_in(n) for n in range(attempts)])
    took = time.perf_counter() - began
    stop.set()
    await task
    ok = statuses.count(200)
    print(f"{attempts} sign-ins, {concurrency} at a time: {ok} signed in, others {sorted(set(statuses) - {200})}; "
          f"{took:.1f} s, {attempts / took:.1f} a second")
    print(f"  a sign-in's latency: median {statistics.median(latencies) * 1000:.0f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms")
    for label, samples in (("idle", idle), ("during the sign-ins", busy)):
        print(f"  a small page's round trip {label}: median {statistics.median(samples) * 1000:.1f} ms, "
              f"p99 {percentile(samples, 0.99) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms ({len(samples)} samples)")


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running server (started with --trusted-proxy 127.0.0.1)")
    p.add_argument("--accounts", type=int, default=20)
    p.add_argument("--attempts", type=int, default=200, help="at most 20 an account (the per-name limit)")
    p.add_argument("--concurrency", type=int, default=16)
    args = p.parse_args(argv)
    proc = None
    url = args.url
    with tempfile.TemporaryDirectory() as data_dir:
        if url is None:
            proc, url = start_server(data_dir)
        try:
            asyncio.run(measure(url, args.accounts, args.attempts, args.concurrency))
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
