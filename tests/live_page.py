"""The web app's pages as people use them in headless Chromium, with the lobby: browser profiles
(each a separate webdriver, so its own cookies: its own player), the lobby's form, a game page's
seats and clicks.  Used by tests/test_web_browser.py and scripts/web_screenshots.py."""
from typing import Dict, List, Optional

from web_page import GamePage


class LivePage(GamePage):
    """A page of the server in one browser profile: the lobby or a game page of either kind."""

    # ----------------------------------------------------------------- lobby
    def lobby(self, name: Optional[str] = None) -> "LivePage":
        self.d.get(self.server.url + "/")
        self.wait(lambda: self.data("ready") == "1", "the lobby's hello")
        if name:
            self.type("#name", name)
            self.press("#name-form button")
            self.wait(lambda: self.data("you") == name, "the name")
        return self

    def create(self, seats: List[str], levels: Optional[Dict[int, str]] = None, **settings: str) -> str:
        """Fill the lobby's form (kind two or eight, variant or mode, clock, each seat) and create;
        the new game's address."""
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
        return self.game_page()

    # ----------------------------------------------------------------- game pages
    def game_page(self) -> str:
        self.wait(lambda: self.js("return typeof ui !== 'undefined' && typeof room !== 'undefined' && !!(ui.game && room.state && room.hello)"),
                  "the game's first state")
        return self.data("gameId")

    def plies(self) -> int:
        return int(self.data("plies") if self.data("live") == "two" else self.data("actions"))

    def play(self, text: str) -> None:
        """Make the move ``text`` by clicking its squares (a chooser's picture if one opens)."""
        state = self.state()
        before = self.plies()
        target = next((t for t in state["targets"] if any(o["text"] == text for o in t["options"])), None)
        assert target, f"{text} is not among the page's moves"
        for square in target["path"]:
            self.click(square)
        if not self.js("return document.getElementById('chooser').hidden"):
            self.choose(text)
        self.wait(lambda: self.plies() > before, f"the server to take {text}")

    def names_shown(self) -> str:
        if self.data("live") == "two":
            return self.text("player-top") + " | " + self.text("player-bottom")
        return " | ".join(self.js("return [...document.querySelectorAll('#scores td.player')].map(t => t.textContent)"))
