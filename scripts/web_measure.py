"""Measurements of one person's board (`xboard-engine web --no-browser`, the web app in
``xboard_engine/web/``) in the real game pages (/g/SLUG, headless Chromium):

    python scripts/web_measure.py latency [MOVES]    time from a click on a move's last square to the
                                                     page having redrawn the board with the move
                                                     (hot-seat: the owner holds both seats, so no
                                                     engine thinking in it), MOVES moves (default 30)
                                                     in each of chess, 8-Piece Chess and Chess80
    python scripts/web_measure.py soak [GAMES]       GAMES (default 100) engine-against-engine games,
                                                     every variant in turn, one after another; the
                                                     server's resident memory and the page's JS heap
                                                     after the first game and after each tenth

Games are made over the lobby's WebSocket as the board's owner (every page of that server is the
owner's), as tests/web_page.py's ``make_game`` makes them: latency games are hot-seat (``seats:
[{"kind": "me"}, {"kind": "me"}]``, clock 300+3), soak games are our engine against itself at depth
1 and full strength (``[{"kind": "bot", "level": "strong"}] * 2`` with the clock ``depth=1``: the
depth caps the level's second a move; "easy" would be skill 4, randomised, not the old board's
engine at depth 1).  Each game is played on its own page, /g/SLUG, opened in the same tab: the
JS heap is the heap of the page that has just shown a whole game.

Needs what the browser tests need: aiohttp, selenium, Debian's chromium and chromium-driver.
"""
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from live_client import LiveServer  # noqa: E402
from web_page import Page, chrome  # noqa: E402

from xboard_engine.core.variant import variant_names  # noqa: E402

CLICK_AND_WAIT = """
const [square, done] = [arguments[0], arguments[arguments.length - 1]];
const before = document.body.dataset.plies;
const started = performance.now();
const observer = new MutationObserver(() => {
  if (document.body.dataset.plies !== before) { observer.disconnect(); done(performance.now() - started); }
});
observer.observe(document.body, {attributes: true});
const box = document.querySelector(`[data-square="${square}"] rect`).getBoundingClientRect();
const at = {bubbles: true, button: 0, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2,
            pointerId: 1, pointerType: "mouse", isPrimary: true};
const target = document.elementFromPoint(at.clientX, at.clientY);
target.dispatchEvent(new PointerEvent("pointerdown", at));
target.dispatchEvent(new PointerEvent("pointerup", at));
"""


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def latency(page: Page, moves: int) -> None:
    rng = random.Random(1)
    for variant in ("normal", "8piece", "chess80"):
        page.new_game(variant, white="me", black="me", tc="300+3")
        page.wait_human()
        times = []
        for _ in range(moves):
            state = page.state()
            if state["result"]:
                break
            target = rng.choice(state["targets"])
            if len(target["options"]) > 1:           # a chooser would open: not a plain click
                continue
            for square in target["path"][:-1]:
                page.click(square)
            times.append(page.d.execute_async_script(CLICK_AND_WAIT, target["path"][-1]))
            page.wait_human()
        times.sort()
        print(f"{variant}: {len(times)} moves, click to board: median {statistics.median(times):.1f} ms, "
              f"90th percentile {times[int(0.9 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms", flush=True)


def soak(page: Page, server: LiveServer, games: int) -> None:
    variants = variant_names()
    started = time.monotonic()
    plies = 0
    for n in range(1, games + 1):
        variant = variants[n % len(variants)]
        page.new_game(variant, white="bot", black="bot", level="strong", tc="depth=1")
        page.wait(lambda: page.state()["result"], f"the end of game {n}", timeout=900)
        state = page.state()
        plies += len(state["sans"])
        if n == 1 or n % 10 == 0:
            heap = page.js("return performance.memory ? performance.memory.usedJSHeapSize : 0")
            print(f"game {n:3d} ({variant}, {state['reason']}): server RSS {rss_kib(server.proc.pid) / 1024:.1f} MiB,"
                  f" page JS heap {heap / 2**20:.1f} MiB, {plies} plies in {time.monotonic() - started:.0f} s",
                  flush=True)


def main() -> int:
    what = sys.argv[1] if len(sys.argv) > 1 else "latency"
    if what not in ("latency", "soak"):
        print(__doc__)
        return 2
    count = int(sys.argv[2]) if len(sys.argv) > 2 else (30 if what == "latency" else 100)
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data, local=True)
        driver = chrome()
        try:
            page = Page(driver, server)
            if what == "latency":
                latency(page, count)
            else:
                soak(page, server, count)
        finally:
            driver.quit()
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
