"""Measurements of the browser board in the real page (server + headless Chromium):

    python scripts/web_measure.py latency [MOVES]    time from a click to the board showing the move
                                                     (human against human: no engine thinking in it)
    python scripts/web_measure.py soak [GAMES]       engine-against-engine games started from the page's
                                                     form one after another; the server's resident
                                                     memory and the page's JS heap after each tenth

Needs what the end-to-end tests need: aiohttp, selenium, Debian's chromium and chromium-driver.
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

from web_page import Page, Server, chrome  # noqa: E402

from xboard_engine.variant import variant_names  # noqa: E402

CLICK_AND_WAIT = """
const [square, done] = [arguments[0], arguments[arguments.length - 1]];
const before = document.body.dataset.plies;
const started = performance.now();
const observer = new MutationObserver(() => {
  if (document.body.dataset.plies !== before) { observer.disconnect(); done(performance.now() - started); }
});
observer.observe(document.body, {attributes: true});
const box = document.querySelector(`[data-square="${square}"] rect`).getBoundingClientRect();
const at = {bubbles: true, button: 0, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2};
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
        page.new_game(variant, black="human", tc="300+3")
        times = []
        for _ in range(moves):
            state = page.state()
            if state["result"]:
                break
            target = rng.choice(state["targets"])
            if len(target["options"]) > 1:
                continue
            for square in target["path"][:-1]:
                page.click(square)
            times.append(page.d.execute_async_script(CLICK_AND_WAIT, target["path"][-1]))
        times.sort()
        print(f"{variant}: {len(times)} moves, click to board: median {statistics.median(times):.1f} ms, "
              f"90th percentile {times[int(0.9 * (len(times) - 1))]:.1f} ms, max {times[-1]:.1f} ms", flush=True)


def soak(page: Page, server: Server, games: int) -> None:
    variants = variant_names()
    started = time.monotonic()
    plies = 0
    for n in range(1, games + 1):
        variant = variants[n % len(variants)]
        page.new_game(variant, white="xboard-engine", black="xboard-engine", tc="depth=1")
        page.wait(lambda: page.state()["result"], f"the end of game {n}", timeout=900)
        plies += len(page.state()["sans"])
        if n == 1 or n % 10 == 0:
            heap = page.js("return performance.memory ? performance.memory.usedJSHeapSize : 0")
            print(f"game {n:3d} ({variant}, {page.state()['reason']}): server RSS {rss_kib(server.proc.pid) / 1024:.1f} MiB,"
                  f" page JS heap {heap / 2**20:.1f} MiB, {plies} plies in {time.monotonic() - started:.0f} s",
                  flush=True)


def main() -> int:
    what = sys.argv[1] if len(sys.argv) > 1 else "latency"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else (40 if what == "latency" else 100)
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data))
        driver = chrome()
        try:
            page = Page(driver, server.url)
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
