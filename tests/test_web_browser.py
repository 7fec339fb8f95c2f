"""The server's pages end to end: the real `xboard-engine serve` process and its lobby and game pages
in headless Chromium, several browser profiles at once (each its own webdriver, so its own cookies:
its own player), clicking as people do, on a desktop window and on a phone with touch.  (One
person's board, `xboard-engine web`, in Chromium: test_web_board.py.)"""
import sys
import time

import pytest

from needs import need_module, needs

need_module("aiohttp")
need_module("selenium")

from live_client import LiveServer  # noqa: E402
from live_page import LivePage  # noqa: E402
from web_page import Profiles  # noqa: E402

pytestmark = [pytest.mark.slow,
              needs("browser")]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("live"), "--first-move", "0",
                   "--uci-engine", f"ours-uci={sys.executable} -m xboard_engine")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def profiles():
    p = Profiles()
    yield p
    p.quit()


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
    guest = b.js("return room.hello.you.name")
    b.type("#name-text", "Bob")                        # a new name: the game keeps the one it began with
    b.press("#name-form button")
    b.wait(lambda: b.text("live-you") == "You: Bob", "Bob's new name")
    assert f"Black: {guest}" in a.names_shown()
    assert a.js("return document.getElementById('board-svg').dataset.flipped") == "0"
    a.wait(lambda: a.js("return document.querySelectorAll('#invites .invite').length") == 0, "the used invite hidden")

    c.open(f"/g/{game}")
    c.game_page()
    assert c.seats() == "" and "watching" in c.text("live-status")
    assert not c.js("return document.querySelectorAll('#take-seats button').length")
    a.wait(lambda: a.data("watchers") == "3", "three pages connected")

    assert "your move" in a.text("status") and "your move" not in b.text("status")
    # Arrows in a two-player game are the player's own; chat is for everyone (watchers too).
    a.right_drag("e2", "e4")
    a.wait(lambda: a.arrows() == [["0", "e2", "e4"]], "the arrow on Alice's page")
    a.chat("Good luck, have fun <3")
    for page in (b, c):
        page.wait(lambda: any("Good luck, have fun <3" in line for line in page.chat_lines()), "the chat line")
        assert page.arrows() == []
    c.chat("Watching from the club")
    a.wait(lambda: any("Watching from the club" in line for line in a.chat_lines()), "the watcher's line")
    a.right_drag("e2", "e2")
    a.wait(lambda: a.arrows() == [], "the arrow cleared")

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
    c.js("ui.send({type: 'move', move: 'e7e5'})")
    c.wait(lambda: "watchers cannot act" in c.text("message"), "the server's refusal")
    # Black answers; a click out of turn makes nothing; the move lists show the push.
    b.play("e7e6")
    b.click("d7")                                  # out of turn: the first square of a premove
    assert b.js("return ui.premoveFrom") == "d7" and b.plies() == 4
    b.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))")
    assert b.js("return ui.premoveFrom") is None and b.text("message") == "Premove cancelled"
    c.wait(lambda: c.plies() == 4, "the watcher sees Black's move")
    assert "Sh6>Nf5" in c.text("moves") and "Sh6>Nf5" in a.text("moves")
    a.wait(lambda: a.js("return document.getElementById('download').getAttribute('href')") == f"/g/{game}.pgn",
           "the PGN link")


# ---------------------------------------------------------------- b. a Chess80 castle by clicks
def test_chess80_castle_by_clicks_against_an_engine(server, profiles):
    (a,) = (LivePage(d, server) for d in profiles.get(1))
    a.lobby()
    # Black is another engine the server runs (a UCI engine): the form offers it for a bot seat.
    a.select("variant", "chess80")
    a.select("two-tc", "600+5")
    a.select("seat-1", "bot")
    assert a.js("return !document.getElementById('level-1').hidden && !document.getElementById('engine-1').hidden")
    a.select("engine-1", "ours-uci")
    assert a.js("return document.getElementById('level-1').hidden")
    message = a.js("return createMessage()")
    assert message["seats"] == [{"kind": "me"}, {"kind": "bot", "engine": "ours-uci"}]
    # The form makes games from the start; a position to castle at once is sent over the lobby
    # page's own connection, and the page goes to the game as after its form.
    message["fen"] = "4k5/10/10/10/10/10/10/R3K4R w KQ - 0 1"
    a.js("send(arguments[0])", message)
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
    a.lobby("Amy")
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
    # Each army at the bottom: White's pawns go north (no turn), Purple's south (a half turn), Red's
    # east (three quarter turns), Orange's west (one).
    for page, turns in ((a, "0"), (b, "2"), (c, "3"), (d, "1")):
        assert page.js("return document.getElementById('board-svg').dataset.turns") == turns
    names = a.names_shown()
    assert "Amy" in names and "Carol" in names and "Dave" in names and "Random mover" in names

    # White moves by clicks; the bots and Red follow.
    move = next(o["text"] for t in a.state()["targets"] for o in t["options"] if len(t["path"]) == 2)
    a.play(move)
    c.wait(lambda: c.state()["turn"] == 1, "Red's turn")
    c.wait(lambda: "your move" in c.text("status"), "Red's page says so")
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
    a.lobby("Ann")
    game = a.create(["me", "open"], variant="normal", tc="600+5")
    b.lobby("Bob")
    b.open(f"/g/{game}")                      # the game's page: a watcher, offered the free seat
    b.game_page()
    assert b.seats() == "" and b.data("status") == "open"
    b.wait(lambda: b.js("return document.querySelectorAll('#take-seats button').length") == 1, "the Take button")
    assert b.text("take-seats") == "Take Black"
    b.press('#take-seats button[data-seat="1"]')
    b.wait(lambda: b.seats() == "1" and b.data("status") == "playing", "Black taken")
    assert b.text("take-seats") == ""
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

    # A draw offered and accepted ends the game; the lobby lists it with its PGN.
    a.press("#draw")
    b.wait(lambda: b.shown("offer") and "White offers a draw" in b.text("offer"), "the offer on Bob's page")
    assert a.text("draw") == "Draw offered"
    b.press("#offer-accept")
    for page in (a, b):
        page.wait(lambda: page.data("status") == "over", "the game over")
        assert "1/2-1/2" in page.text("status") and "Game over" in page.text("live-status")
    a.lobby()
    a.wait(lambda: a.js(f"return !!document.querySelector('#finished tr[data-game=\"{game}\"] a[href$=\".pgn\"]')"),
           "the finished game in the lobby")
    assert "1/2-1/2" in a.js(f"return document.querySelector('#finished tr[data-game=\"{game}\"]').textContent")


# ---------------------------------------------------------------- the defects in the browser
def two_people(server, profiles, names, variant="normal", tc="600+5"):
    """Two profiles in a game: the first White (its creator), the second Black through the lobby."""
    a, b = (LivePage(d, server) for d in profiles.get(2))
    a.lobby(names[0])
    game = a.create(["me", "open"], variant=variant, tc=tc)
    b.lobby(names[1])
    b.open(f"/g/{game}#seat=1")
    b.game_page()
    b.wait(lambda: b.seats() == "1" and b.data("status") == "playing", "Black taken")
    a.wait(lambda: a.data("status") == "playing", "the game under way")
    return a, b, game


def test_D4_a_page_left_for_the_lobby_is_not_connected_and_a_person_counts_once(server, profiles):
    """Chromium's back/forward cache kept a left game page and its WebSocket: a player who clicked
    "← lobby" stayed connected over 70 s (the opponent could never claim), and going lobby <-> game
    8 times showed "4 connected".  Now the page closes its socket when it is left and opens it again
    when it comes back, and the count is of people."""
    a, b, game = two_people(server, profiles, ("Bea", "Ben"))
    a.wait(lambda: a.data("watchers") == "2", "two people")
    for _ in range(8):
        b.press("header a.home")                       # "← lobby"
        b.wait(lambda: b.data("ready") == "1", "the lobby")
        a.wait(lambda: a.js("return document.getElementById('player-top').dataset.connected") == "false",
               "Ben shown gone once he left", timeout=5)
        b.d.back()
        b.wait(lambda: b.js("return typeof room !== 'undefined' && document.body.dataset.connected === '1'"),
               "the game page back")
        a.wait(lambda: a.js("return document.getElementById('player-top').dataset.connected") == "true",
               "Ben shown back")
    a.wait(lambda: a.data("watchers") == "2", "still two people")
    assert "2 people here" in a.text("live-status")
    restored = b.data("restored")                      # how Chromium brought the page back
    print("back/forward cache restored the page:", restored == "1")


def test_D7_a_phone_plays_by_taps_and_drags_and_draws_arrows_by_touch(tmp_path):
    from web_page import PHONE, chrome
    s = LiveServer(tmp_path, "--first-move", "0")
    phone = chrome(phone=True)
    try:
        page = LivePage(phone, s)
        page.lobby()
        # The create form is reachable at once: the New game button at the top, then Create.
        top = page.js("return document.getElementById('new-game-link').getBoundingClientRect().bottom")
        assert 0 < top < 120
        page.press("#new-game-link")
        page.wait(lambda: page.js("const r = document.getElementById('create').getBoundingClientRect();"
                                  " return r.top >= 0 && r.bottom <= innerHeight"), "the Create button in view")
        page.select("seat-1", "bot")
        page.press("#create")
        page.wait(lambda: "/g/" in page.d.current_url, "the game page")
        page.game_page()
        assert page.overflow() == {"page": 0, "board": 0}
        width = page.js("return document.getElementById('board-svg').getBoundingClientRect().width")
        assert PHONE[0] - 20 <= width <= PHONE[0]          # the board as wide as the screen
        page.click("e2")                                   # a tap, then another: a move
        page.click("e4")
        page.wait(lambda: page.plies() >= 1, "the tapped move")
        page.wait(lambda: page.plies() >= 2, "the bot's reply", timeout=20)
        page.touch_drag("g1", "f3")                        # a finger's drag
        page.wait(lambda: page.plies() >= 3, "the dragged move")
        assert page.state()["sans"][2] == "Nf3"
        page.touch_drag("d2", "d4", hold=0.8)              # held still first: an arrow, no move
        page.wait(lambda: page.arrows() == [["0", "d2", "d4"]], "the long-press arrow")
        assert page.js("return ui.premoveFrom") is None and page.js("return ui.premove") is None
        assert page.js("return document.querySelectorAll('.mark-selected').length") == 0
        page.press("#arrow-mode")                          # the arrow switch: a drag is an arrow
        page.touch_drag("c2", "c4")
        page.wait(lambda: len(page.arrows()) == 2, "the second arrow")
        page.press("#arrow-mode")
        assert page.plies() in (3, 4)
        clocks = page.js("return [...document.querySelectorAll('.clock')].map(c => c.getBoundingClientRect().right <= innerWidth)")
        assert all(clocks)
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",      # the phone turned: landscape
                              {"width": PHONE[1], "height": PHONE[0], "deviceScaleFactor": 3, "mobile": True})
        time.sleep(0.3)
        assert page.overflow()["page"] == 0
        box = page.js("return document.getElementById('board-svg').getBoundingClientRect().toJSON()")
        assert box["bottom"] <= PHONE[0] + 1 and box["right"] <= PHONE[1]
        for width, height in ((768, 1024), (1024, 768)):              # a tablet, both ways
            phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                  {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
            time.sleep(0.3)
            box = page.js("return document.getElementById('board-svg').getBoundingClientRect().toJSON()")
            assert page.overflow()["page"] == 0 and box["right"] <= width and box["bottom"] <= height + 1, (width, box)
            assert box["width"] >= 0.6 * min(width, height)             # and not small either
    finally:
        phone.quit()
        s.stop()


def test_D7_an_8_player_board_fills_a_phones_width_and_takes_taps(tmp_path):
    from web_page import PHONE, chrome
    s = LiveServer(tmp_path, "--first-move", "0")
    phone = chrome(phone=True)
    try:
        page = LivePage(phone, s)
        page.lobby()
        game = page.create(["me"] + ["bot"] * 7, kind="eight", mode="teams", tc="none")
        assert game and page.overflow() == {"page": 0, "board": 0}
        width = page.js("return document.getElementById('board-svg').getBoundingClientRect().width")
        assert PHONE[0] - 12 <= width <= PHONE[0]
        text = next(o["text"] for t in page.state()["targets"] for o in t["options"] if len(t["path"]) == 2)
        page.play(text)
        assert page.state()["moves"][0][3] == text
        assert page.js("return document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        phone.quit()
        s.stop()


def test_D10_the_8_player_move_list_shows_whole_moves_at_1280(tmp_path):
    s = LiveServer(tmp_path, "--first-move", "0")
    from web_page import chrome
    d = chrome(size=(1280, 900))
    try:
        page = LivePage(d, s)
        page.lobby()
        page.create(["me"] * 8, kind="eight", mode="singles", tc="none")       # hot-seat: moves at once
        for _ in range(40):
            state = page.state()
            longest = max((o["text"] for t in state["targets"] for o in t["options"]), key=len)
            page.play(longest)
        cut = page.js("return [...document.querySelectorAll('#moves li.move')]"
                      ".filter(li => li.scrollWidth > li.clientWidth + 1 || li.textContent.includes('…')).length")
        assert cut == 0
        assert page.js("return document.querySelectorAll('#moves li.move').length") == 40
    finally:
        d.quit()
        s.stop()


# ---------------------------------------------------------------- what players expect, in the browser
def test_a_premove_is_played_as_soon_as_the_opponent_has_moved(server, profiles):
    a, b, game = two_people(server, profiles, ("Pia", "Pat"))
    a.play("e2e4")
    a.click("g1")                                     # Black to move: White's premove
    a.click("f3")
    a.wait(lambda: a.data("premove") == "g1-f3", "the premove shown")
    assert a.js("return document.querySelectorAll('.mark-premove').length") == 2
    b.play("e7e5")
    a.wait(lambda: a.plies() == 3, "the premove played")
    assert a.state()["sans"] == ["e4", "e5", "Nf3"] and a.data("premove") == ""
    b.play("b8c6")
    a.play("f1c4")
    a.click("c4")                                     # a premove no bishop can make: cancelled
    a.click("c5")
    b.play("g7g6")
    a.wait(lambda: a.text("message") == "Premove c4-c5 is not legal now: cancelled", "the premove cancelled")
    assert a.plies() == 6 and a.state()["humanToMove"]


def test_sounds_the_mute_switch_the_title_and_alerts(server, profiles):
    a, b, game = two_people(server, profiles, ("Sue", "Sam"))
    a.wait(lambda: a.js("return document.title").startswith("● Your move"), "the tab's title")
    assert not b.js("return document.title").startswith("●")
    a.play("e2e4")
    b.wait(lambda: b.js("return sound.played").count("move") >= 1, "the move's sound")
    b.wait(lambda: b.data("notified") == "Your move", "the alert for Black's move")
    b.press("#mute")
    assert b.js("return sound.muted()") and b.text("mute") == "Sound: off"
    b.play("d7d5")
    a.play("e4d5")
    b.wait(lambda: "capture" in b.js("return sound.played"), "the capture's sound (muted, so unheard)")
    b.press("#mute")
    assert not b.js("return sound.muted()")
    b.play("d8d5")
    # Alerts on (the browser's permission granted), the tab in the background: a notification when
    # it is Black's move.
    b.d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": server.url})
    b.press("#notify")
    b.wait(lambda: b.text("notify") == "Alerts: on", "alerts on")
    b.js("""window.shown = []; const Real = window.Notification;
            window.Notification = function (title, options) { shown.push(options.body); return new Real(title, options); };
            Object.assign(window.Notification, {permission: Real.permission, requestPermission: Real.requestPermission});
            Object.defineProperty(document, 'hidden', {get: () => true, configurable: true});""")
    a.play("g1f3")
    b.wait(lambda: b.js("return window.shown") == ["Your move"], "the notification")


def test_names_link_to_player_pages_and_a_person_can_be_muted(server, profiles):
    a, b, game = two_people(server, profiles, ("Lia", "Leo"))
    a.chat("hello from Lia")
    b.wait(lambda: any("hello from Lia" in line for line in b.chat_lines()), "Lia's line")
    b.press("#chat-lines li button.mute-person")        # Leo mutes Lia for himself
    b.wait(lambda: not any("hello from Lia" in line for line in b.chat_lines()), "Lia's line hidden")
    assert "1 muted" in b.text("muted-note")
    a.chat("can you hear me")
    a.wait(lambda: any("can you hear me" in line for line in a.chat_lines()), "her own line")
    time.sleep(0.3)
    assert not any("can you hear me" in line for line in b.chat_lines())
    b.press("#muted-note button")
    b.wait(lambda: any("can you hear me" in line for line in b.chat_lines()), "unmuted")
    b.press("#player-bottom a.player-link")            # Leo's own name: his page
    b.wait(lambda: b.js("return document.body.dataset.ready") == "1", "the player page")
    assert b.text("player-name") == "Leo (you)" and "Playing now" in b.js("return document.body.textContent")
    assert any("normal" in row for row in b.js("return [...document.querySelectorAll('#player-playing tr')].map(r => r.textContent)"))


def test_takeback_rematch_and_abort_by_their_buttons(server, profiles):
    a, b, game = two_people(server, profiles, ("Tom", "Tia"))
    assert a.shown("abort") and not a.shown("resign") and a.shown("type-form")
    a.play("d2d4")
    b.play("d7d5")
    a.play("c2c4")
    b.press("#takeback")                               # Tia asks to take back d5 (two plies)
    a.wait(lambda: a.shown("offer") and "Black asks to take back a move" in a.text("offer"), "the request")
    a.press("#offer-accept")
    b.wait(lambda: b.plies() == 1, "d5 and c4 taken back")
    b.js("window.confirm = () => true")
    b.press("#resign")
    a.wait(lambda: a.data("status") == "over", "the game over")
    assert not a.shown("type-form") and not b.shown("type-form")    # issue 52: no move box once it is over
    a.press("#rematch")
    b.wait(lambda: b.shown("offer") and "wants a rematch" in b.text("offer"), "the rematch asked")
    b.press("#offer-accept")
    for page, seat in ((a, "1"), (b, "0")):            # both pages go to the new game, colours swapped
        page.wait(lambda: page.data("gameId") not in (None, game) and page.seats() == seat, "the rematch's page")
        page.game_page()
    b.press("#abort")                                  # before her first move
    a.wait(lambda: a.data("status") == "aborted", "the rematch aborted")
    assert "Aborted by Tia" in a.text("status")
