"""The live server's pages (xboard-engine serve) as people use them, in headless Chromium: browser
profiles (each a separate webdriver, so its own cookies: its own player) and a page's lobby, seats,
clicks, chat and arrows.  Used by tests/test_live_browser.py and scripts/live_screenshots.py."""
from typing import Any, Dict, List, Optional

from live_client import LiveServer
from web_page import chrome, wait_until


class Profiles:
    """Browser profiles made when first wanted, each kept for the module (a separate Chromium)."""

    def __init__(self) -> None:
        self.drivers: List[Any] = []

    def get(self, count: int) -> List[Any]:
        while len(self.drivers) < count:
            self.drivers.append(chrome())
        return self.drivers[:count]

    def quit(self) -> None:
        for d in self.drivers:
            d.quit()


class LivePage:
    """A page of the live server in one browser profile."""

    def __init__(self, driver, server: LiveServer) -> None:
        self.d = driver
        self.server = server

    # ----------------------------------------------------------------- basics
    def open(self, path: str) -> "LivePage":
        self.d.get(self.server.url + path)
        return self

    def js(self, script: str, *args: Any) -> Any:
        return self.d.execute_script(script, *args)

    def data(self, key: str) -> Optional[str]:
        return self.js("return document.body.dataset[arguments[0]]", key)

    def text(self, element_id: str) -> str:
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : ''", element_id)

    def wait(self, condition, what: str, timeout: float = 30.0) -> Any:
        return wait_until(condition, timeout, lambda: (
            f"timed out waiting for {what}; page {self.d.current_url} says: {self.text('live-status')!r} "
            f"{self.text('status')!r} {self.text('message')!r} {self.text('lobby-message')!r}; "
            f"script errors: {self.errors()}"))

    def errors(self) -> List[str]:
        return [e["message"] for e in self.d.get_log("browser") if e["level"] == "SEVERE"]

    def find(self, css: str):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, css)

    def press(self, css: str) -> None:
        self.find(css).click()

    def select(self, element_id: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select
        Select(self.find(f"#{element_id}")).select_by_value(value)

    def type(self, css: str, text: str) -> None:
        box = self.find(css)
        box.clear()
        box.send_keys(text)

    # ----------------------------------------------------------------- lobby
    def lobby(self, name: Optional[str] = None) -> "LivePage":
        self.open("/")
        self.wait(lambda: self.data("ready") == "1", "the lobby's hello")
        if name:
            self.type("#name", name)
            self.press("#name-form button")
            self.wait(lambda: self.data("you") == name, "the name")
        return self

    def create(self, seats: List[str], levels: Optional[Dict[int, str]] = None, **settings: str) -> int:
        """Fill the lobby's form (kind two or eight, variant or mode, clock, each seat) and create."""
        eight = settings.get("kind") == "eight"
        self.press(f'input[name="kind"][value="{"eight" if eight else "two"}"]')
        if eight:
            self.select("mode", settings.get("mode", "singles"))
            self.select("eight-tc", settings.get("tc", "10+5"))
        else:
            self.select("variant", settings["variant"])
            self.select("two-tc", settings.get("tc", "300+3"))
        for seat, kind in enumerate(seats):
            self.select(f"seat-{seat}", kind)
            if kind == "bot":
                self.select(f"level-{seat}", (levels or {}).get(seat, "random" if eight else "easy"))
        self.press("#create")
        self.wait(lambda: "/g/" in self.d.current_url, "the new game's page")
        game = self.game_page()
        return game

    # ----------------------------------------------------------------- game pages
    def game_page(self) -> int:
        self.wait(lambda: self.js("return !!(ui.game && room.state && room.hello)"), "the game's first state")
        return int(self.data("gameId"))

    def seats(self) -> str:
        return self.data("seats") or ""

    def state(self) -> Dict[str, Any]:
        return self.js("return ui.game")

    def plies(self) -> int:
        return int(self.data("plies") if self.data("live") == "two" else self.data("actions"))

    def click(self, square: str) -> None:
        self.find(f'[data-square="{square}"]').click()

    def play(self, text: str) -> None:
        """Make the move ``text`` by clicking its squares (a chooser's picture if one opens)."""
        state = self.state()
        before = self.plies()
        target = next((t for t in state["targets"] if any(o["text"] == text for o in t["options"])), None)
        assert target, f"{text} is not among the page's moves"
        for square in target["path"]:
            self.click(square)
        if not self.js("return document.getElementById('chooser').hidden"):
            self.press(f'#choices button[data-move="{text}"]')
        self.wait(lambda: self.plies() > before, f"the server to take {text}")

    def names_shown(self) -> str:
        if self.data("live") == "two":
            return self.text("player-top") + " | " + self.text("player-bottom")
        return " | ".join(self.js("return [...document.querySelectorAll('#scores td.player')].map(t => t.textContent)"))

    def chat(self, text: str, channel: str = "all") -> None:
        self.select("chat-channel", channel)
        self.type("#chat-text", text)
        self.press("#chat-form button")

    def chat_lines(self) -> List[str]:
        return self.js("return [...document.querySelectorAll('#chat-lines li')]"
                       ".map(li => li.dataset.channel + ' ' + li.textContent)")

    def right_drag(self, frm: str, to: str) -> None:
        """Press the right button on ``frm``, move to ``to``, release there (an arrow)."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.mouse_button import MouseButton
        centre = ("const b = document.querySelector(`[data-square=\"${arguments[0]}\"] rect`).getBoundingClientRect();"
                  " return [Math.round(b.left + b.width / 2), Math.round(b.top + b.height / 2)]")
        actions = ActionBuilder(self.d)        # at viewport points: the board's SVG is redrawn at each state
        actions.pointer_action.move_to_location(*self.js(centre, frm))
        actions.pointer_action.pointer_down(MouseButton.RIGHT)
        actions.pointer_action.move_to_location(*self.js(centre, to))
        actions.pointer_action.pointer_up(MouseButton.RIGHT)
        actions.perform()

    def arrows(self) -> List[List[str]]:
        return self.js("return [...document.querySelectorAll('#arrow-layer .arrow')]"
                       ".map(a => [a.dataset.seat, a.dataset.from, a.dataset.to])")
