"""8 Player Chess on the browser board (`xboard-engine web`, page /8pc): the real server as a process
spoken to over its WebSocket, then the real page in headless Chromium (Selenium) with scripted humans
clicking squares among bots."""
import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from typing import Any, Dict, List, Optional

import pytest

pytest.importorskip("aiohttp")

from web_page import EightPage, Server, chrome, have_browser  # noqa: E402

from xboard_engine.multi.game import Game  # noqa: E402
from xboard_engine.multi.notation import move_text  # noqa: E402
from xboard_engine.web.eight_game import Clock, EightGame, click_targets, piece_picture  # noqa: E402

ALL_HUMAN = ["human"] * 8
ONE_HUMAN = ["human"] + ["random"] * 7


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "data")
    yield s
    s.stop()


class Socket:
    """One page's WebSocket to /ws8 (optionally bound to a seat), kept open across calls."""

    def __init__(self, host: str, seat: Optional[str] = None, origin: Optional[str] = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.url = f"http://{host}/ws8" + (f"?seat={seat}" if seat else "")
        self.origin = origin
        self.hello, self.state = self.loop.run_until_complete(self._open())

    async def _open(self):
        import aiohttp
        self.session = aiohttp.ClientSession()
        headers = {"Origin": self.origin} if self.origin else {}
        self.ws = await self.session.ws_connect(self.url, headers=headers)
        hello = json.loads((await self.ws.receive(timeout=10)).data)
        state = json.loads((await self.ws.receive(timeout=10)).data)
        return hello, state

    def send(self, message: Any, drain: bool = True) -> Dict[str, Any]:
        """Send one message; the first reply (``state`` or ``error``) after those already on the way
        (``drain``: they are read first, until 0.1 s passes without one)."""
        async def run():
            while drain:                       # states broadcast before this message are not its reply
                try:
                    msg = json.loads((await self.ws.receive(timeout=0.1)).data)
                except asyncio.TimeoutError:
                    break
                if msg["type"] == "state":
                    self.state = msg
            if isinstance(message, bytes):
                await self.ws.send_bytes(message)
            else:
                await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))
            return json.loads((await self.ws.receive(timeout=10)).data)
        reply = self.loop.run_until_complete(run())
        if reply["type"] == "state":
            self.state = reply
        return reply

    def wait(self, condition, timeout: float = 30.0) -> Dict[str, Any]:
        """Read states until ``condition(state)`` holds; the state."""
        async def run():
            deadline = time.monotonic() + timeout
            while not condition(self.state):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; last state: turn {self.state['turn']}, "
                                         f"{len(self.state['moves'])} actions, result {self.state['result']}")
                msg = json.loads((await self.ws.receive(timeout=left)).data)
                if msg["type"] == "state":
                    self.state = msg
            return self.state
        return self.loop.run_until_complete(run())

    def close(self) -> None:
        async def run():
            await self.ws.close()
            await self.session.close()
        self.loop.run_until_complete(run())
        self.loop.close()


def new_game(sock: Socket, players: List[str], **extra: Any) -> Dict[str, Any]:
    reply = sock.send(dict({"type": "new", "players": players, "pace": 0}, **extra))
    assert reply["type"] == "state", reply
    return reply


def record_lines(state: Dict[str, Any], letters: str = "wrbypogn") -> List[str]:
    return [f"{n} {letters[seat]}. {text}" for n, seat, kind, text in state["moves"]]


# ---------------------------------------------------------------- pure parts
def test_clicks_cover_every_legal_move_once_with_a_chooser_for_promotions():
    rng = random.Random(5)
    game = Game(seed=5)
    promotions = 0
    for step in range(1400):
        if game.over:
            break
        legal = game.legal_moves()
        promoting = any(m.kind != 3 and m.placed != game.position.board[m.frm] for m in legal)
        if step % 20 and not promoting:
            game.play(rng.choice(legal))
            continue
        targets = click_targets(game)
        paths = [tuple(t["path"]) for t in targets]
        assert len(paths) == len(set(paths))
        texts = sorted(o["text"] for t in targets for o in t["options"])
        assert texts == sorted(move_text(game.position, m) for m in legal)
        for t in targets:
            if len(t["options"]) > 1:
                assert sorted(o["promotion"] for o in t["options"]) == ["B", "N", "Q", "R"]
                promotions += 1
        game.play(rng.choice(legal))
    assert promotions > 0


def test_castling_is_clicked_as_the_king_to_its_destination():
    game = Game(seed=11)
    rng = random.Random(11)
    for _ in range(3000):
        castles = [t for t in click_targets(game) if any(o["text"].startswith("O-O") for o in t["options"])]
        if castles:
            t = castles[0]
            assert len(t["options"]) == 1
            frm, to = (game.v.by_name[name] for name in t["path"])
            assert game.position.board[frm] & 7 == 6                       # the king is clicked
            assert max(abs(game.v.file_of[frm] - game.v.file_of[to]), abs(game.v.rank_of[frm] - game.v.rank_of[to])) == 2
            return
        game.play(rng.choice(game.legal_moves()))
    pytest.fail("no castle came up")


def test_the_state_marks_kings_in_check_and_the_last_move():
    from xboard_engine.web.eight_game import EightGame
    game = EightGame(players=ALL_HUMAN, seed=3)
    rng = random.Random(3)
    for _ in range(2000):
        move = rng.choice(game.game.legal_moves())
        frm, to = game.game.v.names[move.frm], game.game.v.names[move.to]
        game.play(move)
        state = game.snapshot()
        pos = game.game.position
        if state["lastMove"] == [frm, to]:
            checked = sorted(game.game.v.names[pos.kings[s]] for s in pos.active_seats() if pos.in_check(s))
            assert sorted(state["check"]) == checked
            if checked:
                assert all(state["pieces"][sq][1] == 6 for sq in checked)
                return
    pytest.fail("no check came up")


def test_piece_pictures_are_recoloured_per_army_and_the_one_point_queen_shows_a_1():
    red_king = piece_picture(1, 6)
    assert "#e0302a" in red_king and "#ffffcc" not in red_king
    assert "#9a9a9a" in piece_picture(8, 2)
    assert piece_picture(7, 1) != piece_picture(0, 1)
    assert ">1</text>" in piece_picture(3, 7) and ">1</text>" not in piece_picture(3, 5)
    with pytest.raises(KeyError):
        piece_picture(9, 1)


def test_clock_text():
    assert (Clock("10+5").base, Clock("10+5").increment) == (600.0, 5.0)
    assert not Clock("none").on
    for bad in ["ten", "10+", "-1", "0"]:
        with pytest.raises(ValueError):
            Clock(bad)


def test_a_move_charges_the_movers_clock():
    # The game passes the turn on before the clock is charged: the mover's thinking time still
    # comes off its clock (it was lost, every clock stayed full however long a seat thought).
    game = EightGame("singles", {}, ["human"] * 8, "10+5", pace=0)
    for seat in range(3):
        time.sleep(0.2)
        game.play(game.game.parse_move(click_targets(game.game)[0]["options"][0]["text"]))
        assert 600 + 5 - 0.35 < game.clock_left(seat) < 600 + 5 - 0.19
    assert game.clock_left(4) == 600.0


# ---------------------------------------------------------------- the server
def test_pages_pictures_and_record_are_served(server):
    assert "8 Player Chess" in server.get("/")
    page = server.get("/8pc")
    assert "/static/8pc.js" in page and "/static/8pc.css" in page
    assert "<svg" in server.get("/piece8/2-5.svg")
    with pytest.raises(urllib.error.HTTPError) as error:
        server.get("/piece8/9-1.svg")
    assert error.value.code == 404
    assert '[Game "8 Player Chess"]' in server.get("/8pc.txt")


def test_start_a_game_and_move_by_websocket(server):
    sock = Socket(server.host)
    try:
        assert sock.hello["type"] == "hello" and len(sock.hello["squares"]) == 516 and sock.hello["seat"] is None
        state = new_game(sock, ALL_HUMAN, mode="pairs", options={"partner_knockout": True}, tc="10+5")
        assert state["mode"] == "pairs" and state["options"] == {"partner_knockout": True}
        assert state["turn"] == 0 and state["humanToMove"] and len(state["targets"]) == 20
        state = sock.send({"type": "move", "move": "h3", "seat": 0})
        assert state["turn"] == 1 and state["moves"] == [[1, 0, "move", "h3"]]
        assert state["lastMove"] == ["h2", "h3"] and state["pieces"]["h3"] == [0, 1]
        assert state["seats"][0]["clock"] == pytest.approx(605, abs=1)
        state = sock.send({"type": "move", "move": "b10c10"})          # squares are understood too
        assert state["moves"][-1] == [1, 1, "move", "c10"]
        assert "1 w. h3\n1 r. c10" in server.get("/8pc.txt")
    finally:
        sock.close()


def test_bad_input_is_refused_with_a_reason_and_changes_nothing(server):
    sock = Socket(server.host)
    try:
        new_game(sock, ALL_HUMAN)
        before = sock.send({"type": "move", "move": "h3"})
        bad = [
            ("{not json", "JSON"), ("[1, 2]", "type"), ({"type": 7}, "type"), ({"type": "fly"}, "unknown message"),
            ({"type": "move"}, "move"), ({"type": "move", "move": 12}, "move"),
            ({"type": "move", "move": "Qz99"}, ""), ({"type": "move", "move": "h4"}, ""),
            ({"type": "move", "move": "c10", "seat": 0}, "Red's move"),
            ({"type": "claim"}, "claim"),
            ({"type": "new", "players": ALL_HUMAN[:7]}, "8"),
            ({"type": "new", "players": ["human"] * 7 + ["grandmaster"]}, "grandmaster"),
            ({"type": "new", "players": ALL_HUMAN, "mode": "solo"}, "solo"),
            ({"type": "new", "players": ALL_HUMAN, "options": {"partner_knockout": True}}, "pairs"),
            ({"type": "new", "players": ALL_HUMAN, "options": {"no_such": True}}, "no_such"),
            ({"type": "new", "players": ALL_HUMAN, "mode": "teams", "options": {"checkmates_needed": 9}}, "1, 2, 3 or 4"),
            ({"type": "new", "players": ALL_HUMAN, "tc": "fast"}, "time control"),
            ({"type": "new", "players": ALL_HUMAN, "pace": -1}, "pace"),
            ({"type": "new", "players": ALL_HUMAN, "options": []}, "options"),
            (b"\x00\x01", "JSON text"),
        ]
        for message, words in bad:
            reply = sock.send(message)
            assert reply["type"] == "error", (message, reply)
            assert words in reply["message"], (message, reply["message"])
        after = sock.wait(lambda s: True)
        assert after["version"] == before["version"] and after["moves"] == before["moves"] and after["id"] == before["id"]
        assert sock.send({"type": "move", "move": "c10"})["moves"][-1][3] == "c10"    # still plays on
    finally:
        sock.close()
    for query, status in (("?seat=q", 400),):
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(urllib.request.Request(server.url + "ws8" + query), timeout=10)
        assert error.value.code == status
    with pytest.raises(Exception):
        Socket(server.host, origin="http://evil.example")


def test_json_nested_too_deep_is_refused_and_the_connection_stays_open(server):
    """JSON nested 100,000 deep raised an uncaught RecursionError and dropped the connection without
    a close frame; it is refused like any bad message and the same socket plays on."""
    sock = Socket(server.host)
    try:
        new_game(sock, ALL_HUMAN)
        for text in ("[" * 100000, '{"a": ' * 50000):
            reply = sock.send(text)
            assert reply["type"] == "error" and "too deep" in reply["message"], reply
        assert sock.send({"type": "move", "move": "h3"})["moves"] == [[1, 0, "move", "h3"]]
    finally:
        sock.close()
    server.stop()
    log = server.proc.stdout.read()
    assert "Traceback" not in log and "RecursionError" not in log, log


def test_a_page_bound_to_one_seat_acts_only_for_it(server):
    hot = Socket(server.host)
    red = Socket(server.host, seat="r")
    white = Socket(server.host, seat="i")                # Roman numerals name seats too
    try:
        assert red.hello["seat"] == 1 and white.hello["seat"] == 0
        new_game(hot, ALL_HUMAN)
        red.wait(lambda s: s["id"] == hot.state["id"])
        reply = red.send({"type": "move", "move": "h3"})
        assert reply["type"] == "error" and "plays Red" in reply["message"]
        assert red.send({"type": "resign"})["type"] == "error"
        assert "cannot start" in red.send({"type": "new", "players": ALL_HUMAN})["message"]
        assert white.send({"type": "move", "move": "h3"})["turn"] == 1
        state = red.wait(lambda s: s["turn"] == 1)                    # the other pages see it live
        assert state["moves"] == [[1, 0, "move", "h3"]]
        assert red.send({"type": "move", "move": "c10"})["turn"] == 2
    finally:
        for s in (hot, red, white):
            s.close()


def test_resignations_end_the_game_and_it_is_kept_in_the_records_file(server):
    sock = Socket(server.host)
    try:
        new_game(sock, ALL_HUMAN)
        sock.send({"type": "move", "move": "h3"})
        for seat in range(1, 8):
            state = sock.send({"type": "resign", "seat": seat})
            assert state["seats"][seat]["status"] == "resigned", state
        assert state["result"]["reason"] == "one player left" and state["turn"] is None
        scores = state["result"]["scores"]
        assert state["result"]["winners"] == [s for s in range(8) if scores[s] == max(scores)]
        assert [s["status"] for s in state["seats"]] == ["active"] + ["resigned"] * 7
        assert any("resigns" in words or "Red" in words for _, words in state["log"])
        assert sock.send({"type": "move", "move": "h4"})["message"] == "the game is over"
    finally:
        sock.close()
    text = (server.data_dir / "8pc-games.txt").read_text()
    assert '[Termination "one player left"]' in text and "1 w. h3" in text and '[White "Human"]' in text


def test_the_game_survives_a_restart_of_the_server(tmp_path):
    first = Server(tmp_path / "data")
    try:
        sock = Socket(first.host)
        new_game(sock, ["human", "human"] + ["random"] * 6, mode="teams", tc="10+5")
        sock.send({"type": "move", "move": "h3"})
        sock.send({"type": "move", "move": "c10"})
        state = sock.wait(lambda s: s["turn"] == 0)
        sock.close()
    finally:
        first.stop()
    second = Server(tmp_path / "data")
    try:
        sock = Socket(second.host)
        again = sock.state
        assert again["moves"] == state["moves"] and again["mode"] == "teams" and again["players"] == state["players"]
        assert again["pieces"] == state["pieces"] and again["id"] == state["id"]
        assert again["seats"][0]["clock"] == pytest.approx(state["seats"][0]["clock"], abs=2)
        new_game(sock, ALL_HUMAN)            # the unfinished game is kept when a new one replaces it
        sock.close()
    finally:
        second.stop()
    assert "1 w. h3\n1 r. c10" in (tmp_path / "data" / "8pc-games.txt").read_text()


def test_bots_play_and_a_human_seat_runs_out_of_time(server):
    sock = Socket(server.host)
    try:
        new_game(sock, ["random"] * 8)
        state = sock.wait(lambda s: len(s["moves"]) >= 120, timeout=60)
        assert [seat for _, seat, _, _ in state["moves"][:8]] == list(range(8))
        replay = Game.from_dict({"mode": "singles", "seed": 0, "actions": state["moves"] and
                                 [[seat, kind, text] for _, seat, kind, text in state["moves"]]})
        assert replay.scores == [s["score"] for s in state["seats"]]     # the bots' moves are legal
        sock.send({"type": "new", "players": ALL_HUMAN}, drain=False)    # stop the bots
        sock.wait(lambda s: s["id"] == state["id"] + 1)
    finally:
        sock.close()
    sock = Socket(server.host)                 # a new page: not the backlog of the bots' game
    try:
        new_game(sock, ["fast"] * 7 + ["human"], tc="0.02+0")       # 1.2 s for Black, the human
        state = sock.wait(lambda s: s["seats"][7]["status"] == "timed out", timeout=30)
        assert state["seats"][7]["clock"] == 0 and len(state["moves"]) == 8 and state["moves"][7][2] == "timeout"
        assert "Black runs out of time" in state["note"]
        state = sock.wait(lambda s: len(s["moves"]) >= 12, timeout=60)   # the bots play on
        assert all(seat != 7 for _, seat, kind, _ in state["moves"][8:])
    finally:
        sock.close()


# ---------------------------------------------------------------- the page in Chromium


@pytest.fixture(scope="module")
def web_server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("web8") / "data")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def driver():
    d = chrome()
    d.set_window_size(1400, 1000)
    yield d
    d.quit()


@pytest.mark.slow
@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_a_human_plays_by_clicks_among_seven_bots(web_server, driver):
    page = EightPage(driver, web_server.url + "8pc")
    page.new_game(["human"] + ["fast"] * 7, pace=0.0, tc="10+5")
    rng = random.Random(1)
    sets = 0
    screenshot_taken = False
    while sets < 8:
        page.wait(lambda: page.state()["humanToMove"] or page.state()["result"], "White's turn", timeout=60)
        state = page.state()
        if state["result"]:
            break
        options = [o["text"] for t in state["targets"] for o in t["options"]]
        page.play(rng.choice(options))
        sets += 1
        if sets == 6 and not screenshot_taken:
            page.wait(lambda: page.state()["humanToMove"] or page.state()["result"], "White's turn", timeout=60)
            driver.save_screenshot("/tmp/8pc-web.png")
            screenshot_taken = True
    page.wait(lambda: page.state()["humanToMove"] or page.state()["result"], "White's turn", timeout=60)
    sock = Socket(web_server.host)
    try:
        server_state = sock.state
    finally:
        sock.close()
    page.wait(lambda: page.state()["version"] == server_state["version"], "the page to catch up")
    assert page.moves_shown() == record_lines(server_state)
    assert page.scores_shown() == [s["score"] for s in server_state["seats"]]
    assert len(server_state["moves"]) >= 8 * min(sets, 7)
    record = web_server.get("/8pc.txt")
    assert all(line in record for line in record_lines(server_state)[:16])
    statuses = page.js("return [...document.querySelectorAll('#scores tbody td.status')].map(td => td.textContent)")
    assert statuses == [s["status"] for s in server_state["seats"]]
    # a typed move in the text's notation
    if not server_state["result"]:
        before = page.state()["version"]
        text = page.state()["targets"][0]["options"][0]["text"]
        page.js("document.getElementById('type-move').value = arguments[0]", text)
        page.js("document.getElementById('type-form').requestSubmit()")
        page.wait(lambda: page.state()["version"] != before, "the typed move")
        assert any(m[1] == 0 and m[3] == text for m in page.state()["moves"][-8:])


@pytest.mark.slow
@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_move_list_scrolls_vertically_and_follows_the_game(web_server, driver):
    """The two-player board's move list overflowed sideways after about 11 moves; this one (a grid
    of a column per seat) scrolls down, the newest move in view while the bots play."""
    page = EightPage(driver, web_server.url + "8pc")
    page.new_game(["random"] * 8, pace=0.0)
    page.wait(lambda: len(page.state()["moves"]) >= 160, "20 sets of moves", timeout=60)
    view = page.js("""
        const list = document.getElementById('moves');
        const items = list.querySelectorAll('li.move');
        const top = list.getBoundingClientRect().top + list.clientTop;
        const last = items[items.length - 1].getBoundingClientRect();
        return {scrollWidth: list.scrollWidth, clientWidth: list.clientWidth, scrollHeight: list.scrollHeight,
                clientHeight: list.clientHeight,
                lastVisible: last.top >= top - 1 && last.bottom <= top + list.clientHeight + 1};""")
    page.js("send({type: 'new', players: Array(8).fill('human')})")          # stop the bots
    assert view["scrollWidth"] <= view["clientWidth"], view
    assert view["scrollHeight"] > view["clientHeight"] and view["lastVisible"], view


@pytest.mark.slow
@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_hot_seat_two_humans_on_one_page(web_server, driver):
    page = EightPage(driver, web_server.url + "8pc")
    page.new_game(["human", "human"] + ["random"] * 6)
    for n in range(3):
        page.wait(lambda: page.state()["turn"] == 0, "White's turn")
        page.play(page.state()["targets"][n]["options"][0]["text"])
        assert page.state()["turn"] == 1 and "Red to move" in page.text("status")
        page.play(page.state()["targets"][n]["options"][0]["text"])
    page.wait(lambda: page.state()["turn"] == 0, "White's turn")
    moves = page.state()["moves"]
    assert [m[1] for m in moves[:10]] == [0, 1, 2, 3, 4, 5, 6, 7, 0, 1]
    assert page.moves_shown()[:2] == record_lines(page.state())[:2]


@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_a_tab_bound_to_a_seat_shows_its_army_at_the_bottom(tmp_path, driver):
    """Red, Blue, Orange and Green tabs showed their own army at the top (their board was turned the
    wrong way).  For each seat, in the start position, its king is drawn in the bottom fifth."""
    server = Server(tmp_path / "data")
    wrong = []
    try:
        for letter in "wrbypogn":
            page = EightPage(driver, server.url + f"8pc?seat={letter}")
            where = page.js("""
                const svg = document.getElementById('board-svg');
                const king = svg.querySelector(`[data-piece="${arguments[0]}K"]`);
                return {y: parseFloat(king.getAttribute('y')), height: parseFloat(svg.getAttribute('height')),
                        turns: svg.dataset.turns};""", letter)
            if not where["y"] > 0.8 * where["height"]:
                wrong.append((letter, where))
    finally:
        server.stop()
    assert not wrong


@pytest.mark.slow
@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_a_one_seat_tab_refuses_to_move_another_seat_and_sees_moves_live(web_server, driver):
    page = EightPage(driver, web_server.url + "8pc")
    page.new_game(["human", "human"] + ["random"] * 6)
    red = EightPage(driver, web_server.url + "8pc?seat=r")            # the same tab, now bound to Red
    assert red.js("return ui.seat") == 1 and red.js("return document.getElementById('new-game').hidden")
    version = red.state()["version"]
    red.click("h2")
    assert "This tab plays Red" in red.text("message")
    red.click("h3")
    time.sleep(0.5)
    assert red.state()["version"] == version and red.state()["turn"] == 0
    sock = Socket(web_server.host, seat="w")                          # White plays from elsewhere
    try:
        sock.send({"type": "move", "move": "h3"})
    finally:
        sock.close()
    red.wait(lambda: red.state()["turn"] == 1, "Red's turn, seen live")
    assert red.moves_shown()[0] == "1 w. h3"
    red.play(red.state()["targets"][0]["options"][0]["text"])
    assert red.state()["moves"][1][1] == 1


@pytest.mark.slow
@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_the_leader_of_the_last_two_claims_the_game_with_the_button(tmp_path, driver):
    """Text: with two players left, the one on move ahead by 26 or more may claim the game.  The saved
    game (resumed by the server) has White and Red left; White takes a 30-point queen by clicks, Red
    answers, and only then does the page offer White the claim."""
    from eightplayer_helpers import make_game
    from xboard_engine.web.eight_game import EightGame
    game = make_game({"i5": "wR", "i10": "rQ"}, active="wr", options={"custom_points": "Q30"})
    data = tmp_path / "data"
    data.mkdir()
    saved = EightGame(players=["human", "human"] + ["random"] * 6, game=game, game_id=7)
    (data / "8pc-current.json").write_text(json.dumps(saved.to_json()))
    server = Server(data)
    try:
        page = EightPage(driver, server.url + "8pc")
        assert page.state()["id"] == 7 and page.state()["turn"] == 0
        assert page.js("return document.getElementById('claim').hidden")    # level at 0: no claim
        page.play("Ri10")
        assert page.js("return document.getElementById('claim').hidden")    # Red to move: not White's claim
        page.play("Ka6")
        page.wait(lambda: not page.js("return document.getElementById('claim').hidden"), "the claim button")
        assert page.scores_shown()[:2] == [30, 0]
        page.button("claim")
        page.wait(lambda: page.state()["result"], "the end of the game")
        result = page.state()["result"]
        assert result["winners"] == [0] and result["scores"][:2] == [30, 25]
        assert page.text("status").startswith("Game over: ")
        assert page.statuses_shown()[0] == "claimed"
        record = server.get("/8pc.txt")
        replayed = Game.from_record(record)
        assert replayed.over and replayed.status(0) == "claimed" and list(replayed.result.scores) == result["scores"]
    finally:
        server.stop()


@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_E4_4_a_king_is_captured_by_clicks(tmp_path, driver):
    """E4.4 on the page (issue 24's D1): White's knight a19 leaves for c20 and uncovers Red's rook a20
    on Blue's king a17; Red clicks the rook, then the king's square.  The page shows Blue out with
    its units grey, Red's 25 points and the referee's words; the record replays to it."""
    from eightplayer_helpers import make_game
    from xboard_engine.web.eight_game import EightGame
    game = make_game({"a19": "wN", "a20": "rR", "c16": "bB"}, active="wrb")
    data = tmp_path / "data"
    data.mkdir()
    saved = EightGame(players=["human", "human"] + ["random"] * 6, game=game, game_id=3)
    (data / "8pc-current.json").write_text(json.dumps(saved.to_json()))
    server = Server(data)
    try:
        page = EightPage(driver, server.url + "8pc")
        page.play("Nc20")
        page.click("a20")
        assert "a17" in page.js("return [...document.querySelectorAll('[data-target]')].map(e => e.dataset.square)")
        page.click("a17")
        page.wait(lambda: page.state()["seats"][2]["status"] == "king captured", "the king's capture")
        assert page.statuses_shown()[2] == "king captured"
        assert page.scores_shown()[:3] == [0, 25, 0]
        assert page.js("return document.querySelector('[data-square=\"c16\"] image').dataset.piece") == "xB"
        notes = page.js("return [...document.querySelectorAll('#moves li.log')].map(li => li.textContent)")
        assert notes == ["{Blue's king is captured by Red, +25 Red}"]
        assert page.moves_shown() == ["1 w. Nc20", "1 r. Ra17"]
        replayed = Game.from_record(server.get("/8pc.txt"))
        assert replayed.status(2) == "king captured" and replayed.scores[:3] == [0, 25, 0]
    finally:
        server.stop()


@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_E4_2_a_credit_of_nobody_is_shown(tmp_path, driver):
    """White's Bd23 uncovers Red's rook on Yellow's king (a mate in waiting, White's); Red resigns and
    the check is gone, but Yellow still cannot move: a stalemate in waiting that nobody made.  The page
    lists it with "credit nobody" (it drew nothing there before the creditor could be none)."""
    from eightplayer_helpers import make_game
    from xboard_engine.web.eight_game import EightGame
    game = make_game({"d24": "rR", "e24": "wB", "k23": "wR", "g22": "wN"}, active="wrby")
    game.play_text("Bd23")
    game.resign()
    assert game.credit == {3: (None, "s")}
    data = tmp_path / "data"
    data.mkdir()
    saved = EightGame(players=["human"] * 4 + ["random"] * 4, game=game, game_id=4)
    (data / "8pc-current.json").write_text(json.dumps(saved.to_json()))
    server = Server(data)
    try:
        page = EightPage(driver, server.url + "8pc")
        credits = page.js("return [...document.querySelectorAll('#credits li')].map(li => li.textContent)")
        assert credits == ["Yellow: stalemate in waiting, credit nobody"]
        assert page.statuses_shown()[:4] == ["active", "resigned", "active", "active"]
    finally:
        server.stop()
