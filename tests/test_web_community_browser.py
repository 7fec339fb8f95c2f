"""A community's home in headless Chromium, several browser profiles (each its own player) and a
phone: quick pairing by the lobby's clock buttons, a rated game's rating change on the game page,
the player page and the leaderboard; the computer analysis and its graph (two-player and 8 Player
Chess, with an 8 Player game's past boards and an analysis board from one); a tournament made by
the lobby's form, joined and started by buttons, its players sent to their game; and the new pages
at phone size."""
import re

import pytest

from needs import need_module, needs

need_module("aiohttp")
need_module("selenium")

from live_client import HUNG_ROOK_MOVES, LiveServer, close_all, create, finished_hot_seat_game, new_player, player_path, run  # noqa: E402
from live_page import LivePage  # noqa: E402
from web_page import Profiles, chrome  # noqa: E402

pytestmark = [pytest.mark.slow,
              needs("browser")]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("community-browser"), "--first-move", "0")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def profiles():
    p = Profiles()
    yield p
    p.quit()


SEEN = {}          # pages the first test made, for the phone test to open


def quick(page: LivePage, variant: str, tc: str) -> None:
    page.select("quick-variant", variant)
    page.wait(lambda: page.js(f"return !!document.querySelector('#quick-buttons button[data-tc=\"{tc}\"]')"),
              "the quick-pairing buttons")
    page.press(f'#quick-buttons button[data-tc="{tc}"]')


def test_quick_pairing_a_rated_game_its_rating_change_the_player_page_and_the_analysis(server, profiles):
    a, b = (LivePage(d, server) for d in profiles.get(2))
    a.lobby("Quinn")
    b.lobby("Rory")
    quick(a, "chess80", "180+2")
    a.wait(lambda: a.data("mySeeks") == "1", "Quinn's seek")
    b.select("quick-variant", "chess80")
    b.wait(lambda: "1 waiting" in b.js("return document.querySelector('#quick-buttons button[data-tc=\"180+2\"]')"
                                       ".textContent"), "the button's count of people waiting")
    assert "Quinn" in b.js("return document.querySelector('#seeks tbody').textContent")
    quick(b, "chess80", "180+2")
    a.wait(lambda: "/g/" in a.d.current_url, "Quinn sent to the game")
    b.wait(lambda: "/g/" in b.d.current_url, "Rory sent to the game")
    a.game_page()
    b.game_page()
    assert a.d.current_url == b.d.current_url
    assert "rated" in a.text("live-status")
    white, black = (a, b) if a.seats() == "0" else (b, a)
    for ply, move in enumerate(("e2e4", "e7e5", "a2a3", "a7a6", "h2h3", "h7h6")):   # three moves each: rated
        (white, black)[ply % 2].play(move)
    black.js("window.confirm = () => true")
    black.press("#resign")
    white.wait(lambda: "→" in white.text("rating-changes"), "the rating changes shown")
    changes = white.text("rating-changes")
    assert "White: 1500 →" in changes and "Black: 1500 →" in changes
    # the analysis: asked for by a button, its graph and marked moves for everyone
    white.press("#request-analysis")
    white.wait(lambda: white.data("analysis") == "done", "the computer analysis", timeout=60)
    assert white.js("return document.querySelectorAll('#analysis-graph circle.eval-point').length") == 7
    white.js("document.querySelector('#analysis-graph circle[data-ply=\"1\"]').dispatchEvent(new Event('click'))")
    white.wait(lambda: white.js("return ui.view") == 1, "the first move's position shown from the graph")
    SEEN["game"] = white.d.current_url.replace(server.url, "")
    # the player page: the rating, its history graph; the leaderboard lists neither (provisional)
    me = white.js("return room.hello.you.name")
    white.d.get(server.url + player_path(me))
    white.wait(lambda: white.data("ready") == "1", "the player page")
    assert "chess80" in white.text("ratings") and white.js("return !!document.querySelector('svg.rating-graph')")
    white.d.get(f"{server.url}/leaderboard")
    white.wait(lambda: white.data("ready") == "1", "the leaderboards")
    board = white.js("return document.getElementById('boards').textContent")
    assert "chess80" in board and "Nobody yet" in board   # provisional ratings are not listed
    assert "5 different opponents" in white.text("leaders-rule")


def test_an_8_player_games_analysis_graph_its_blunder_past_boards_and_an_analysis_board(server, profiles):
    async def make():
        host, game = await finished_hot_seat_game(server, "Septima")
        await close_all(host)
        return game
    game = run(make())
    page = LivePage(profiles.get(1)[0], server)
    page.lobby("Watcher8")
    page.open(f"/g/{game}")
    page.wait(lambda: not page.js("return document.getElementById('analysis-area').hidden"), "the analysis tools")
    page.press("#request-analysis")
    page.wait(lambda: page.data("analysis") == "done", "the 8 Player analysis", timeout=90)
    assert page.js("return document.querySelectorAll('#analysis-graph polyline[data-seat]').length") == 8
    assert re.match(r"White: \d+ inaccuracies, \d+ mistakes, [1-9]\d* blunders\. Red: ", page.text("analysis-counts"))
    note = page.js("return [...document.querySelectorAll('#analysis-notes li.note-blunder')].map(l => l.textContent)")
    assert any(n.startswith("3 w. Rd3 is a blunder") for n in note), note
    # the blunder's note shows the board after it: the rook on d3; one back, on d1
    page.js("[...document.querySelectorAll('#analysis-notes li.note-blunder a')].find(a => a.textContent.includes('Rd3')).click()")
    rook = len(HUNG_ROOK_MOVES)
    page.wait(lambda: page.data("shown") == str(rook), "the board after Rd3")
    assert page.js("return document.querySelector('[data-square=\"d3\"] image').dataset.piece") == "wR"
    assert page.js("return !!document.querySelector('#moves li.shown')")
    page.press("#past-prev")
    page.wait(lambda: page.data("shown") == str(rook - 1), "the board before Rd3")
    assert page.js("return document.querySelector('[data-square=\"d1\"] image').dataset.piece") == "wR"
    page.press("#past-live")
    page.wait(lambda: page.js("return ui.past === null"), "the game's last board")
    SEEN["eight"] = f"/g/{game}"
    # an analysis board from the board before Rd3 (chosen by clicking the move before it): every
    # seat the watcher's
    page.press(f'#moves li[data-index="{rook - 2}"]')
    page.wait(lambda: page.data("shown") == str(rook - 1), "the board after p4")
    page.press("#analysis-board")
    page.wait(lambda: "/g/" in page.d.current_url and game not in page.d.current_url, "the analysis board")
    page.game_page()
    assert page.seats() == "0,1,2,3,4,5,6,7"
    assert page.plies() == rook - 1
    assert page.errors() == []


def test_a_tournament_made_joined_and_started_by_buttons_sends_its_players_to_their_game(server, profiles):
    a, b = (LivePage(d, server) for d in profiles.get(2))
    a.lobby("Tess")
    a.js("document.getElementById('new-tournament').open = true")
    a.select("t-kind", "swiss")
    a.type("#t-name-input", "Club Swiss")
    a.type("#t-rounds", "1")
    a.type("#t-starts", "30")
    a.press("#tournament-form button[type=submit]")
    a.wait(lambda: "/t/" in a.d.current_url and a.data("ready") == "1", "the tournament's page")
    assert a.text("t-name") == "Club Swiss" and "Swiss" in a.text("t-what")
    a.press("#join")
    a.wait(lambda: a.data("entered") == "1", "Tess joined")
    b.lobby("Uri")
    b.wait(lambda: "Club Swiss" in b.text("tournaments"), "the tournament in the lobby")
    b.press("#tournaments tbody a")
    b.wait(lambda: "/t/" in b.d.current_url and b.data("ready") == "1", "the tournament's page")
    b.press("#join")
    b.wait(lambda: b.data("entered") == "1", "Uri joined")
    assert not b.js("return document.getElementById('start-now').hidden === false")
    a.wait(lambda: "Uri" in a.text("standings"), "Uri in the standings")
    a.press("#start-now")
    a.wait(lambda: "/g/" in a.d.current_url, "Tess sent to her game")
    b.wait(lambda: "/g/" in b.d.current_url, "Uri sent to his game")
    a.game_page()
    assert a.d.current_url == b.d.current_url
    assert not a.js("return document.getElementById('tournament-link').hidden")


def test_the_lobby_tournament_and_leaderboard_pages_fit_a_phone(server, profiles):
    a = LivePage(profiles.get(1)[0], server)
    a.lobby("Vic")
    a.js("document.getElementById('new-tournament').open = true")
    a.select("t-kind", "arena")
    a.press("#tournament-form button[type=submit]")
    a.wait(lambda: "/t/" in a.d.current_url and a.data("ready") == "1", "the tournament's page")
    tournament = a.d.current_url
    phone = LivePage(chrome(phone=True), server)
    try:
        # (Vic's page: the profile's earlier names, Quinn and Tess, are gone with its renames)
        for path in ["/", tournament.replace(server.url, ""), "/leaderboard", player_path("Vic")] + \
                [SEEN[k] for k in ("game",) if k in SEEN]:
            if path.startswith("/g/"):
                phone.open(path)
            else:
                phone.d.get(server.url + path)
                phone.wait(lambda: phone.data("ready") == "1", f"{path} on a phone")
            width = phone.js("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{path} is wider than the phone: {width}"
        for analysed in [SEEN[k] for k in ("game", "eight") if k in SEEN]:    # the analysis graphs fit its width
            phone.open(analysed)
            phone.wait(lambda: phone.js("return !!document.querySelector('svg.eval-graph')"), "the analysis graph")
            right = phone.js("return document.querySelector('svg.eval-graph').getBoundingClientRect().right")
            assert right <= 390, f"the analysis graph of {analysed} reaches {right} px on a 390 px phone"
            width = phone.js("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{analysed} is wider than the phone: {width}"
        phone.d.get(server.url + "/")
        phone.wait(lambda: phone.data("ready") == "1", "the lobby")
        phone.wait(lambda: phone.js("return document.querySelectorAll('#quick-buttons button').length") >= 4,
                   "the quick-pairing buttons")
        box = phone.js("const r = document.querySelector('#quick-buttons button').getBoundingClientRect();"
                       "return [r.width, r.height]")
        assert box[0] >= 44 and box[1] >= 44, f"a quick-pairing button is too small for a finger: {box}"
    finally:
        phone.d.quit()


def test_issue_52_D10_on_a_phone_the_lobbys_words_do_not_break_and_the_board_keeps_off_the_edges(server):
    """On a phone "normal" broke as "norma/l" (and "fullcavalry", "chess80") in the lobby's tables,
    and the board touched the screen's right edge."""
    async def challenges():
        made = []
        for variant, name in (("fullcavalry", "Abcdefghijklmnopqrstuvw"), ("chess80", "Somebody Longname c"),
                              ("normal", "Somebody Longname n")):
            person = await new_player(server, name, exact=True)       # (a long name, as it is)
            made.append((await create(person, kind="two", variant=variant, tc="300+3",
                                      seats=[{"kind": "me"}, {"kind": "open"}]))["gameId"])
            await close_all(person)
        return made
    made = run(challenges())
    phone = LivePage(chrome(phone=True), server)
    try:
        phone.lobby("Pocket")
        phone.wait(lambda: phone.js("return document.querySelectorAll('#challenges tbody tr').length") >= 3,
                   "the challenges listed")
        lines = phone.js("""return [...document.querySelectorAll('#challenges tbody tr')].map(tr => {
            const range = document.createRange(); range.selectNodeContents(tr.cells[0]);
            return [tr.cells[0].textContent, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })""")
        assert {"fullcavalry", "chess80", "normal"} <= {text for text, _ in lines}
        assert all(count == 1 for _, count in lines), f"a variant's name broken over lines: {lines}"
        width = phone.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the lobby is wider than the phone: {width}"
        phone.open(f"/g/{made[-1]}")
        left, right = phone.js("const r = document.getElementById('board').getBoundingClientRect(); "
                               "return [r.left, window.innerWidth - r.right]")
        assert left >= 8 and right >= 8, f"the board is {left} px and {right} px from the screen's edges"
    finally:
        phone.d.quit()
