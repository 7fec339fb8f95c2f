"""Test helpers for the web app's pages: Debian's headless Chromium driven by Selenium through Debian's
chromedriver (a desktop window, or a phone: 390x844 with touch), the game pages as a player uses
them (clicks, drags, taps, the chooser), and games made over the lobby's WebSocket as one person's
board (`xboard-engine web`) makes them for its owner."""
import asyncio
import json
import shutil
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "fake_engines"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
PHONE = (390, 844)


def chrome(phone: bool = False, size=(1280, 900)):
    """A browser profile of its own (its own cookies).  ``phone``: a 390x844 screen at 3x with touch
    (pointer events of type "touch", no mouse hover), as Chrome's device mode makes it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={size[0]},{size[1]}", "--force-device-scale-factor=1", "--hide-scrollbars",
                 "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    if phone:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 3, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.phone = phone
    return driver


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


# --------------------------------------------------------------------- games made as the owner
def make_game(server, **challenge: Any) -> str:
    """A new game on one person's board (``xboard-engine web``), made over the lobby's WebSocket
    as its owner (every page of that server is the owner's); its address."""
    import aiohttp

    async def run() -> str:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(server.url + "/ws/lobby", headers={"Origin": server.url}) as ws:
                await ws.send_str(json.dumps(dict({"type": "create"}, **challenge)))
                while True:
                    message = json.loads((await ws.receive(timeout=10)).data)
                    if message["type"] == "created":
                        return message["gameId"]
                    if message["type"] == "error":
                        raise AssertionError(f"refused: {message['message']}")
    return asyncio.run(run())


# --------------------------------------------------------------------- pages
class GamePage:
    """A game page (/g/ID) as its user sees it: script values, texts, clicks, selects, taps."""

    def __init__(self, driver, server) -> None:
        self.d = driver
        self.server = server

    def open(self, path: str) -> "GamePage":
        self.d.get(self.server.url + path)
        self.wait(lambda: self.js("return typeof ui !== 'undefined' && typeof room !== 'undefined' && !!(ui.game && ui.hello && room.hello)"),
                  "the page's first state")
        return self

    def js(self, script: str, *args: Any) -> Any:
        return self.d.execute_script(script, *args)

    def data(self, key: str) -> Optional[str]:
        return self.js("return document.body.dataset[arguments[0]]", key)

    def wait(self, condition, what: str, timeout: float = 30.0) -> Any:
        return wait_until(condition, timeout, lambda: (
            f"timed out waiting for {what}; page {self.d.current_url} says: {self.text('status')!r} "
            f"{self.text('message')!r} {self.text('live-status')!r}; script errors: {self.errors()}"))

    def errors(self) -> List[str]:
        return [e["message"] for e in self.d.get_log("browser") if e["level"] == "SEVERE"]

    def state(self) -> Dict[str, Any]:
        return self.js("return ui.game")

    def text(self, element_id: str) -> str:
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : ''", element_id)

    def find(self, css: str):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, css)

    def press(self, css: str, timeout: float = 10.0) -> None:
        """A click on the element ``css`` names, found again if the page redrew it between the finding and
        the click (lists the server's messages rebuild: the lobby's buttons, the move list)."""
        from selenium.common.exceptions import StaleElementReferenceException
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.find(css).click()
                return
            except StaleElementReferenceException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def click(self, square: str) -> None:
        """A click (a tap on a phone) on the square's middle."""
        if getattr(self.d, "phone", False):
            self.tap_at(*self.centre(square))
        else:
            self.press(f'[data-square="{square}"]')

    def centre(self, square: str):
        return self.js("const b = document.querySelector(`[data-square=\"${arguments[0]}\"] rect`).getBoundingClientRect();"
                       " return [Math.round(b.left + b.width / 2), Math.round(b.top + b.height / 2)]", square)

    def tap_at(self, x: int, y: int, hold: float = 0.0) -> None:
        """A finger's press at viewport point (x, y) (held ``hold`` seconds) and its lift."""
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.d, mouse=finger)
        actions.pointer_action.move_to_location(x, y).pointer_down()
        if hold:
            actions.pointer_action.pause(hold)
        actions.pointer_action.pointer_up()
        actions.perform()

    def touch_drag(self, frm: str, to: str, hold: float = 0.0) -> None:
        """A finger pressed on ``frm`` (held ``hold`` seconds first), moved in steps, lifted on ``to``."""
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput
        (x0, y0), (x1, y1) = self.centre(frm), self.centre(to)
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.d, mouse=finger)
        actions.pointer_action.move_to_location(x0, y0).pointer_down()
        if hold:
            actions.pointer_action.pause(hold)
        for i in range(1, 6):
            actions.pointer_action.move_to_location(int(x0 + (x1 - x0) * i / 5), int(y0 + (y1 - y0) * i / 5))
        actions.pointer_action.pointer_up()
        actions.perform()

    def button(self, element_id: str) -> None:
        self.press(f"#{element_id}")

    def select(self, element_id: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select
        Select(self.find(f"#{element_id}")).select_by_value(value)

    def type(self, css: str, text: str) -> None:
        box = self.find(css)
        box.clear()
        box.send_keys(text)

    def fill(self, element_id: str, text: str) -> None:
        box = self.find(f"#{element_id}")
        box.clear()
        if text:
            self.js("arguments[0].value = arguments[1]", box, text)

    def chooser_open(self) -> bool:
        return not self.js("return document.getElementById('chooser').hidden")

    def choose(self, move_text: str) -> None:
        """Press the chooser's picture of that move."""
        self.press(f'#choices button[data-move="{move_text}"]')

    def seats(self) -> str:
        return self.data("seats") or ""

    def shown(self, element_id: str) -> bool:
        return self.js("const e = document.getElementById(arguments[0]); return !!e && !e.hidden && e.offsetParent !== null",
                       element_id)

    def chat(self, text: str, channel: str = "all") -> None:
        self.select("chat-channel", channel)
        self.type("#chat-text", text)
        self.press("#chat-form button")

    def chat_lines(self) -> List[str]:
        return self.js("return [...document.querySelectorAll('#chat-lines li')].filter(li => !li.hidden)"
                       ".map(li => li.dataset.channel + ' ' + li.querySelector('.who').textContent + ' ' +"
                       " li.querySelector('.text').textContent)")

    def right_drag(self, frm: str, to: str) -> None:
        """Press the right button on ``frm``, move to ``to``, release there (an arrow)."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.mouse_button import MouseButton
        actions = ActionBuilder(self.d)        # at viewport points: the board's SVG is redrawn at each state
        actions.pointer_action.move_to_location(*self.centre(frm))
        actions.pointer_action.pointer_down(MouseButton.RIGHT)
        actions.pointer_action.move_to_location(*self.centre(to))
        actions.pointer_action.pointer_up(MouseButton.RIGHT)
        actions.perform()

    def arrows(self) -> List[List[str]]:
        return self.js("return [...document.querySelectorAll('#arrow-layer .arrow')]"
                       ".map(a => [a.dataset.seat, a.dataset.from, a.dataset.to])")

    def overflow(self) -> Dict[str, int]:
        """How much wider than the screen the page is (0: nothing sticks out sideways)."""
        return self.js("return {page: Math.max(0, document.documentElement.scrollWidth - innerWidth),"
                       " board: Math.max(0, Math.round(document.getElementById('board-svg').getBoundingClientRect().right - innerWidth))}")


class Page(GamePage):
    """A two-player game page."""

    def plies(self) -> int:
        return len(self.state()["sans"])

    def new_game(self, variant: str = "normal", black: str = "bot", white: str = "me", level: str = "easy",
                 tc: str = "depth=1", number: Optional[int] = None, engine: Optional[str] = None, **start: Any) -> str:
        """A game on one person's board, its page opened: each side "me" or "bot" (our engine at
        ``level``, or the ``engine`` named at the start)."""
        def seat(who: str) -> Dict[str, Any]:
            if who == "me":
                return {"kind": "me"}
            return {"kind": "bot", "engine": engine} if engine else {"kind": "bot", "level": level}
        challenge: Dict[str, Any] = dict(kind="two", variant=variant, tc=tc, seats=[seat(white), seat(black)], **start)
        if number is not None:
            challenge["number"] = number
        slug = make_game(self.server, **challenge)
        self.open(f"/g/{slug}")
        return slug

    def load(self, text: str, variant: str = "normal", black: str = "bot", **settings: Any) -> str:
        """A game from a FEN (of ``variant``) or a PGN game; the page waits for a player's move."""
        start = {"pgn": text} if ("[" in text or ". " in text) else {"fen": text}
        slug = self.new_game(variant, black=black, **start, **settings)
        self.wait_human()
        return slug

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
        self.wait(lambda: self.state()["humanToMove"] or self.state()["result"], "a player's turn")

    def drag(self, frm: str, to: str) -> None:
        """Press the mouse on ``frm``, move the pointer to ``to`` in steps, release there."""
        from selenium.webdriver.common.action_chains import ActionChains
        a = self.find(f'[data-square="{frm}"] rect')
        b = self.find(f'[data-square="{to}"] rect')
        dx, dy = b.rect["x"] - a.rect["x"], b.rect["y"] - a.rect["y"]
        chain = ActionChains(self.d).move_to_element(a).click_and_hold()
        for _ in range(4):
            chain = chain.move_by_offset(dx / 4, dy / 4)
        chain.release().perform()


class EightPage(GamePage):
    """An 8 Player Chess game page."""

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


class Profiles:
    """Browser profiles made when first wanted, each kept for the module (a separate Chromium)."""

    def __init__(self, phone: bool = False) -> None:
        self.drivers: List[Any] = []
        self.phone = phone

    def get(self, count: int) -> List[Any]:
        while len(self.drivers) < count:
            self.drivers.append(chrome(self.phone))
        return self.drivers[:count]

    def quit(self) -> None:
        for d in self.drivers:
            d.quit()
