"""Test helpers for the browser board: the real server (`xboard-engine web` as a process) and the
real page in Debian's headless Chromium, driven by Selenium through Debian's chromedriver."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "fake_engines"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def have_browser() -> bool:
    """Debian's chromium and chromedriver are installed, and selenium to drive them."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


class Server:
    """``xboard-engine web`` on a free port, with our engine over CECP (the default), over UCI,
    and a CECP engine that crashes when asked for its second move."""

    def __init__(self, data_dir: Path) -> None:
        py = shlex.quote(sys.executable)
        crash = f"{py} {shlex.quote(str(FAKES / 'crash.py'))} 1"
        self.data_dir = data_dir
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xboard_engine", "web", "--no-browser", "--port", "0",
             "--data-dir", str(data_dir), "--engine", f"crashy={crash}",
             "--uci-engine", f"ours-uci={py} -m xboard_engine"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.proc.stdout.readline()
        match = re.search(r"open (http://\S+/)", line)
        if not match:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line}{self.proc.stdout.read()}")
        self.url = match.group(1)
        self.host = self.url[len("http://"):-1]

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=10) as response:
            return response.read().decode()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(2)               # Ctrl-C: the server saves and stops
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def chrome():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class PageTimeout(AssertionError):
    """The page did not reach the state waited for in time."""


def wait_until(condition, timeout: float, describe) -> Any:
    """``condition()``'s first true value, polled every 50 ms; PageTimeout(``describe()``) after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise PageTimeout(describe())


class BrowserPage:
    """A page of the browser board as its user sees it: script values, texts, clicks, selects."""

    def __init__(self, driver, url: str) -> None:
        self.d = driver
        self.url = url
        self.open()

    def open(self) -> None:
        self.d.get(self.url)
        self.wait(lambda: self.js("return !!(ui.hello && ui.game)"), "the page's first state")

    def js(self, script: str, *args: Any) -> Any:
        return self.d.execute_script(script, *args)

    def wait(self, condition, what: str, timeout: float = 30.0) -> Any:
        return wait_until(condition, timeout, lambda: f"timed out waiting for {what}; page says: "
                          f"{self.text('status')!r} {self.text('message')!r}")

    def state(self) -> Dict[str, Any]:
        return self.js("return ui.game")

    def text(self, element_id: str) -> str:
        return self.js(f"return document.getElementById('{element_id}').textContent")

    def click(self, square: str) -> None:
        from selenium.webdriver.common.by import By
        self.d.find_element(By.CSS_SELECTOR, f'[data-square="{square}"]').click()

    def button(self, element_id: str) -> None:
        from selenium.webdriver.common.by import By
        self.d.find_element(By.ID, element_id).click()

    def select(self, element_id: str, value: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
        Select(self.d.find_element(By.ID, element_id)).select_by_value(value)

    def open_details(self, element_id: str) -> None:
        """Unfold the ``<details>`` of that id if it is folded."""
        from selenium.webdriver.common.by import By
        if not self.js(f"return document.getElementById('{element_id}').open"):
            self.d.find_element(By.CSS_SELECTOR, f"#{element_id} summary").click()

    def chooser_open(self) -> bool:
        return not self.js("return document.getElementById('chooser').hidden")

    def choose(self, move_text: str) -> None:
        """Press the chooser's picture of that move."""
        from selenium.webdriver.common.by import By
        self.d.find_element(By.CSS_SELECTOR, f'#choices button[data-move="{move_text}"]').click()


class Page(BrowserPage):
    """The two-player board page as a player uses it: clicks on squares, buttons and the chooser."""

    def drag(self, frm: str, to: str) -> None:
        """Press on ``frm``, move the pointer to ``to`` in steps, release there."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        a = self.d.find_element(By.CSS_SELECTOR, f'[data-square="{frm}"] rect').rect
        b = self.d.find_element(By.CSS_SELECTOR, f'[data-square="{to}"] rect').rect
        dx, dy = b["x"] - a["x"], b["y"] - a["y"]
        chain = ActionChains(self.d).move_to_element(
            self.d.find_element(By.CSS_SELECTOR, f'[data-square="{frm}"] rect')).click_and_hold()
        for _ in range(4):
            chain = chain.move_by_offset(dx / 4, dy / 4)
        chain.release().perform()

    def fill(self, element_id: str, text: str) -> None:
        from selenium.webdriver.common.by import By
        box = self.d.find_element(By.ID, element_id)
        box.clear()
        if text:
            self.js("arguments[0].value = arguments[1]", box, text)

    def new_game(self, variant: str, white: str = "human", black: str = "xboard-engine",
                 tc: str = "depth=1", number: Optional[int] = None) -> None:
        old = self.state()["id"]
        self.select("variant", variant)
        if number is not None:
            self.fill("number", str(number))
        self.select("white", white)
        self.select("black", black)
        self.fill("tc-custom", tc)
        self.button("start")
        self.wait(lambda: self.state()["id"] != old, "the new game")

    def load(self, text: str, variant: str = "normal", white: str = "human", black: str = "xboard-engine",
             tc: str = "depth=1") -> None:
        old = self.state()["id"]
        self.select("variant", variant)
        self.select("white", white)
        self.select("black", black)
        self.fill("tc-custom", tc)
        self.open_details("load-game")
        self.fill("load-text", text)
        self.button("load")
        self.wait(lambda: self.state()["id"] != old, "the loaded game")
        self.wait(lambda: self.state()["humanToMove"] or self.state()["result"], "the human's turn")

    def plies(self) -> int:
        return len(self.state()["sans"])

    def play(self, text: str, expect_chooser: Optional[bool] = None) -> str:
        """Make the legal move of coordinate text ``text`` by clicking its squares (and its picture
        in the chooser when one opens); returns its SAN as the server recorded it."""
        state = self.state()
        before = len(state["sans"])
        for target in state["targets"]:
            if any(o["text"] == text for o in target["options"]):
                break
        else:
            raise AssertionError(f"{text} is not among the page's moves")
        for square in target["path"]:
            self.click(square)
        chooser = self.chooser_open()
        if expect_chooser is not None:
            assert chooser == expect_chooser, f"chooser {'not ' if expect_chooser else ''}expected for {text}"
        if chooser:
            self.choose(text)
        self.wait(lambda: self.plies() > before, f"the server to take {text}")
        return self.state()["sans"][before]

    def wait_human(self) -> None:
        self.wait(lambda: self.state()["humanToMove"] or self.state()["result"], "the engine's reply")


class EightPage(BrowserPage):
    """The 8 Player Chess page (/8pc) as a player uses it."""

    def new_game(self, players: List[str], mode: Optional[str] = None, pace: float = 0.0,
                 tc: str = "none") -> None:
        """Start a game from the page's "New game" form: a player per seat (human or a bot level)."""
        old = self.state()["id"]
        self.open_details("new-game")
        if mode is not None:
            self.select("mode", mode)
        for seat, player in enumerate(players):
            self.select(f"player-{seat}", player)
        self.select("tc", tc)
        self.js("document.getElementById('pace').value = arguments[0]", str(pace))
        self.button("start")
        self.wait(lambda: self.state()["id"] != old and (mode is None or self.state()["mode"] == mode),
                  "the new game")

    def play(self, text: str) -> None:
        """Make the move ``text`` by clicks (and the chooser's picture for a promotion)."""
        state = self.state()
        target = next(t for t in state["targets"] if any(o["text"] == text for o in t["options"]))
        self.click(target["path"][0])
        assert self.js("return document.querySelectorAll('[data-target]').length") > 0, "no targets marked"
        self.click(target["path"][1])
        if len(target["options"]) > 1:
            self.choose(text)
        self.wait(lambda: self.state()["version"] != state["version"], f"the server to take {text}")

    def moves_shown(self) -> List[str]:
        return self.js("return [...document.querySelectorAll('#moves li.move')].map(li => li.dataset.text)")

    def scores_shown(self) -> List[int]:
        return [int(x) for x in self.js("return [...document.querySelectorAll('#scores tbody td.points')]"
                                        ".map(td => td.textContent)")]

    def statuses_shown(self) -> List[str]:
        return self.js("return [...document.querySelectorAll('#scores tbody td.status')]"
                       ".map(td => td.textContent)")


def ws_exchange(host: str, messages: List[Any], origin: Optional[str] = None, replies: int = 2) -> List[Dict]:
    """Send raw messages over the board's WebSocket (as a page would) and collect the replies."""
    import asyncio

    import aiohttp

    async def run() -> List[Dict]:
        headers = {"Origin": origin} if origin else {}
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"http://{host}/ws", headers=headers) as ws:
                got = [json.loads((await ws.receive(timeout=10)).data) for _ in range(2)]   # hello, state
                for message in messages:
                    if isinstance(message, bytes):
                        await ws.send_bytes(message)
                    else:
                        await ws.send_str(message if isinstance(message, str) else json.dumps(message))
                    for _ in range(replies):
                        try:
                            got.append(json.loads((await ws.receive(timeout=3)).data))
                        except asyncio.TimeoutError:
                            break
                return got

    return asyncio.run(run())
