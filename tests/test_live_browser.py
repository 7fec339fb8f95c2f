"""The live server's pages end to end: the real `xboard-engine serve` process and its lobby and game
pages in headless Chromium, several browser profiles at once (each its own webdriver, so its own
cookies: its own player), clicking as people do."""
import time
from typing import Any, Dict, List, Optional

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("selenium")

from live_client import LiveServer  # noqa: E402
from web_page import PageTimeout, chrome, have_browser  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("live"))
    yield s
    s.stop()


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


@pytest.fixture(scope="module")
def profiles():
    p = Profiles()
    yield p
    p.quit()


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
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            time.sleep(0.05)
        raise PageTimeout(f"timed out waiting for {what}; page {self.d.current_url} says: "
                          f"{self.text('live-status')!r} {self.text('status')!r} {self.text('message')!r} "
                          f"{self.text('lobby-message')!r}; script errors: {self.errors()}")

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
        return self.js("return [...document.querySelectorAll('#chat-lines li')].map(li => li.dataset.channel + ' ' + li.textContent)")

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


# ---------------------------------------------------------------- a. invite link, watcher, sentry push
def test_two_profiles_play_8piece_through_an_invite_link_and_a_third_watches(server, profiles):
    a, b, c = (LivePage(d, server) for d in profiles.get(3))
    a.lobby("Alice")
    game = a.create(["me", "invite"], variant="8piece")
    assert a.seats() == "0" and a.data("status") == "open"
    a.wait(lambda: a.js("return document.querySelectorAll('#invites .invite').length") == 1, "the invite link")
    link = a.js("return document.querySelector('#invites .invite input').value")
    assert link.startswith(server.url + f"/g/{game}#seat=1&invite=")

    b.d.get(link)                                  # a fresh profile: the page load gives it a cookie
    b.game_page()
    b.wait(lambda: b.seats() == "1" and b.data("status") == "playing", "Black's seat taken by the link")
    assert "#" not in b.d.current_url               # the secret is gone from the address bar
    assert b.js("return document.getElementById('board-svg').dataset.flipped") == "1"
    assert "(you)" in b.text("player-bottom") and b.text("player-bottom").startswith("Black: Guest")
    b.type("#name-text", "Bob")
    b.press("#name-form button")
    a.wait(lambda: "Black: Bob" in a.names_shown(), "Bob's name on Alice's page")
    assert a.js("return document.getElementById('board-svg').dataset.flipped") == "0"
    a.wait(lambda: a.js("return document.querySelectorAll('#invites .invite').length") == 0, "the used invite hidden")

    c.open(f"/g/{game}")
    c.game_page()
    assert c.seats() == "" and "watching" in c.text("live-status")
    assert not c.js("return document.querySelectorAll('#take-seats button').length")
    a.wait(lambda: a.data("watchers") == "3", "three pages connected")

    a.play("d2d3")
    c.wait(lambda: c.plies() == 1, "the watcher sees White's move")
    b.play("g8h6")
    push = next(t for t in a.state()["targets"] if t["path"] == ["c1", "h6", "f5"])   # sentry onto the knight
    assert push["options"][0]["san"] == "Sh6>Nf5"
    a.play(push["options"][0]["text"])
    for page in (a, b, c):
        page.wait(lambda: page.plies() == 3, "the sentry's push everywhere")
        assert page.state()["sans"] == ["d3", "Nh6", "Sh6>Nf5"]
        assert page.js("return document.querySelector('[data-square=\"f5\"] image').dataset.piece") == "n"

    # The watcher's clicks make nothing: no selection, a message, and the server would refuse anyway.
    c.click("e7")
    assert "watching" in c.text("message")
    assert c.js("return document.querySelectorAll('.mark-selected').length") == 0
    c.js("send({type: 'move', move: 'e7e5'})")
    c.wait(lambda: "watchers cannot act" in c.text("message"), "the server's refusal")
    # Black answers; a click out of turn makes nothing; the move lists show the push.
    b.play("e7e6")
    b.click("d7")
    assert "White's move" in b.text("message") and b.plies() == 4
    c.wait(lambda: c.plies() == 4, "the watcher sees Black's move")
    assert "Sh6>Nf5" in c.text("moves") and "Sh6>Nf5" in a.text("moves")
    a.wait(lambda: a.js("return document.getElementById('download').getAttribute('href')") == f"/g/{game}.pgn",
           "the PGN link")


# ---------------------------------------------------------------- b. a Chess80 castle by clicks
def test_chess80_castle_by_clicks_against_a_bot(server, profiles):
    (a,) = (LivePage(d, server) for d in profiles.get(1))
    a.lobby()
    # The lobby's form makes games from the start; a position to castle at once is sent over the
    # lobby page's own connection, and the page goes to the game as after its form.
    a.js("lobby.ws.send(JSON.stringify({type: 'create', kind: 'two', variant: 'chess80', tc: '600+5',"
         " fen: '4k5/10/10/10/10/10/10/R3K4R w KQ - 0 1', seats: [{kind: 'me'}, {kind: 'bot', level: 'easy'}]}))")
    a.wait(lambda: "/g/" in a.d.current_url, "the game page")
    a.game_page()
    a.wait(lambda: a.data("status") == "playing", "the game under way")
    a.click("e1")
    marked = a.js("return [...document.querySelectorAll('[data-target]')].map(g => g.dataset.square)")
    assert {"a1", "b1", "c1", "g1", "h1", "i1", "j1"} <= set(marked)
    a.click("h1")
    a.wait(lambda: a.plies() >= 1, "the castle")
    assert a.state()["sans"][0] == "3-3-3"
    a.wait(lambda: a.plies() >= 2, "the bot's reply")
    pieces = a.js("return Object.fromEntries([...document.querySelectorAll('[data-piece]')]"
                  ".map(i => [i.closest('[data-square]').dataset.square, i.dataset.piece]))")
    assert pieces.get("h1") == "K" and pieces.get("g1") == "R"


# ---------------------------------------------------------------- c. 8 Player Pairs: partner chat and arrows
def test_eight_player_pairs_partner_chat_and_arrows_reach_the_partner_only(server, profiles):
    a, b, c, d = (LivePage(x, server) for x in profiles.get(4))
    # White (A) and Purple (B, by invite link) are partners; Red (C) and Orange (D) join from the lobby.
    a.lobby("Alice")
    seats = ["me", "open", "bot", "bot", "invite", "open", "bot", "bot"]
    game = a.create(seats, kind="eight", mode="pairs", tc="10+5")
    a.wait(lambda: a.js("return document.querySelectorAll('#invites .invite').length") == 1, "the invite link")
    link = a.js("return document.querySelector('#invites .invite input').value")
    b.d.get(link)
    b.game_page()
    b.wait(lambda: b.seats() == "4", "Purple taken by the link")
    for page, seat, name in ((c, 1, "Carol"), (d, 5, "Dave")):
        page.lobby(name)
        page.wait(lambda: page.js(f"return !!document.querySelector('#challenges tr[data-game=\"{game}\"] "
                                  f"button[data-seat=\"{seat}\"]')"), "the challenge in the lobby")
        page.press(f'#challenges tr[data-game="{game}"] button[data-seat="{seat}"]')
        page.game_page()
        page.wait(lambda: page.seats() == str(seat), f"seat {seat} joined from the lobby")
    for page in (a, b, c, d):
        page.wait(lambda: page.data("status") == "playing", "the game under way")
    # Each player sees their own army at the bottom of the board.
    for page, seat in ((a, 0), (b, 4), (c, 1), (d, 5)):
        assert page.js("return document.getElementById('board-svg').dataset.turns") == \
            str(page.js("return SEAT_TURNS[arguments[0]] % 4", seat))
    names = a.names_shown()
    assert "Alice (you)" in names and "Carol" in names and "Dave" in names and "Random mover" in names

    # White moves by clicks; the bots and Red follow.
    move = next(o["text"] for t in a.state()["targets"] for o in t["options"] if len(t["path"]) == 2)
    a.play(move)
    c.wait(lambda: c.state()["turn"] == 1, "Red's turn")
    c.wait(lambda: "your move" in c.text("live-status"), "Red's page says so")
    c.play(next(o["text"] for t in c.state()["targets"] for o in t["options"]))

    # Alice: an arrow and a partner line (Purple only), then a line for everyone (a barrier: the
    # server sends each page its messages in order).
    own = [sq for sq, (army, _) in a.state()["pieces"].items() if army == 0]
    a.right_drag(own[0], own[1])
    a.wait(lambda: len(a.arrows()) == 1, "the arrow on Alice's page")
    assert a.js("return ['team', 'all'].every(v => [...document.getElementById('chat-channel').options]"
                ".some(o => o.value === v))")
    a.chat("partner: push the queen side", "team")
    a.chat("good luck all", "all")
    b.wait(lambda: any("good luck all" in line for line in b.chat_lines()), "the line for everyone")
    b.wait(lambda: b.arrows() == [["0", own[0], own[1]]], "Alice's arrow on her partner's page")
    assert any(line.startswith("team ") and "push the queen side" in line for line in b.chat_lines())
    for page in (c, d):
        page.wait(lambda: any("good luck all" in line for line in page.chat_lines()), "the line for everyone")
        assert not any("queen side" in line for line in page.chat_lines())
        assert page.arrows() == []
    # Red's partner channel reaches Orange only.
    c.chat("hold the centre", "team")
    d.wait(lambda: any("hold the centre" in line for line in d.chat_lines()), "Red's line on Orange's page")
    c.chat("barrier", "all")
    for page in (a, b):
        page.wait(lambda: any("barrier" in line for line in page.chat_lines()), "the barrier")
        assert not any("hold the centre" in line for line in page.chat_lines())
    # A right-click on one square clears the arrows, for the partner too.
    a.right_drag(own[0], own[0])
    b.wait(lambda: b.arrows() == [], "the arrows cleared")


# ---------------------------------------------------------------- d. reconnect
def test_reconnect_after_a_closed_tab_and_a_server_restart(server, profiles):
    a, b = (LivePage(d, server) for d in profiles.get(2))
    a.lobby("Alice")
    game = a.create(["me", "open"], variant="normal", tc="600+5")
    b.lobby("Bob")
    b.wait(lambda: b.js(f"return !!document.querySelector('#challenges tr[data-game=\"{game}\"] button')"),
           "the challenge")
    b.press(f'#challenges tr[data-game="{game}"] button')
    b.game_page()
    b.wait(lambda: b.seats() == "1", "Black joined")
    a.play("e2e4")
    b.wait(lambda: b.plies() == 1, "White's move")

    # Bob closes his tab: Alice sees him gone and may ask for the win (refused before the grace time).
    old = b.d.current_window_handle
    b.d.switch_to.new_window("tab")
    b.d.switch_to.window(old)
    b.d.close()
    b.d.switch_to.window(b.d.window_handles[0])
    a.wait(lambda: a.js("return document.getElementById('player-top').dataset.connected") == "false",
           "Bob shown disconnected")
    assert "Bob — disconnected" in a.text("player-top")
    a.wait(lambda: a.js("return !document.getElementById('claim-win').hidden"), "the claim button")
    a.press("#claim-win")
    a.wait(lambda: "you may claim after" in a.text("message"), "the claim refused before the grace time")
    b.open(f"/g/{game}")
    b.game_page()
    assert b.seats() == "1" and "(you)" in b.text("player-bottom")
    a.wait(lambda: a.js("return document.getElementById('player-top').dataset.connected") == "true",
           "Bob shown connected again")
    assert a.js("return document.getElementById('claim-win').hidden")
    b.play("e7e5")

    # The server stops and starts again: both pages reconnect by themselves and play on.
    server.stop()
    for page in (a, b):
        page.wait(lambda: page.data("connected") == "0", "the dropped connection")
    server.start()
    for page in (a, b):
        page.wait(lambda: page.data("connected") == "1" and page.plies() == 2, "the page back", timeout=20)
    assert a.seats() == "0" and b.seats() == "1"
    a.play("g1f3")
    b.wait(lambda: b.plies() == 3, "the move after the restart")
