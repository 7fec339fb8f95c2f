"""One person's board (`xboard-engine web`) end to end: the real server, the real game pages in
headless Chromium (Debian's chromium and chromedriver, driven by Selenium), a scripted person
clicking squares, buttons and the chooser's pictures, against our engine or hot-seat, in every
variant and in 8 Player Chess.  Games are made as the board's owner over the lobby's WebSocket (a
start position from a FEN or a PGN), then played on their page."""
import io
import json
import random
import shlex
import subprocess
import sys
import time

import pytest

from needs import need_module, needs

need_module("aiohttp")
need_module("selenium")

from live_client import LiveServer  # noqa: E402
from web_page import FAKES, EightPage, Page, chrome, make_game  # noqa: E402

from xboard_engine import Position  # noqa: E402
from xboard_engine.images import board_picture_name, drawing  # noqa: E402
from xboard_engine.match.pgn import read_games, replay  # noqa: E402
from xboard_engine.core.moves import CASTLE  # noqa: E402
from xboard_engine.multi.game import Game  # noqa: E402
from xboard_engine.core.variant import get_variant, variant_names  # noqa: E402

pytestmark = [pytest.mark.slow,
              needs("browser")]

SQ, MARGIN = 64, 22          # the board's drawing units per square and coordinate margin (board.js)
PY = shlex.quote(sys.executable)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("board"), "--engine", f"crashy={PY} {shlex.quote(str(FAKES / 'crash.py'))} 1",
                   local=True)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def driver():
    d = chrome()
    yield d
    d.quit()


@pytest.fixture
def page(server, driver):
    return Page(driver, server)


def pgn_game(server, slug):
    import urllib.request
    with urllib.request.urlopen(f"{server.url}/g/{slug}.pgn", timeout=10) as response:
        text = response.read().decode()
    return next(read_games(io.StringIO(text))), text


# ---------------------------------------------------------------- a game of each variant
@pytest.mark.parametrize("variant", variant_names())
def test_a_person_plays_a_whole_game_of_each_variant_by_clicks_against_the_engine(page, server, variant):
    slug = page.new_game(variant, number=17 if get_variant(variant).setup != "fixed" else None)
    rng = random.Random(variant)
    for _ in range(200):
        state = page.state()
        if state["result"]:
            break
        targets = state["targets"]
        if not targets:                 # a held king with nothing else to move: the only move is a pass
            assert state["canPass"] and state["humanToMove"], state
            before = len(state["sans"])
            page.button("pass")
            page.wait(lambda: page.plies() > before, "the server to take the pass")
            page.wait_human()
            continue
        # prefer the move kinds that take more than two plain clicks
        special = [t for t in targets if len(t["path"]) > 2 or len(t["options"]) > 1]
        target = rng.choice(special if special and rng.random() < 0.7 else targets)
        page.play(rng.choice(target["options"])["text"])
        page.wait_human()
    state = page.state()
    assert state["result"], "the game did not end in 200 moves"
    game, text = pgn_game(server, slug)             # the server's PGN replays legally in the rules core
    assert game.moves == state["sans"] and game.result == state["result"]
    assert game.tags["Termination"] == "normal" and f"{{{state['reason']}}}" in text
    assert replay(game).fen() == Position.from_fen(state["fens"][-1], variant).fen()
    assert game.tags["White"] == page.js("return room.hello.you.name") and game.tags["Black"] == "Engine, easy (skill 4)"


# ---------------------------------------------------------------- every move kind by pointer
KINDS = [
    # variant, FEN (the person White against the engine), move, SAN, chooser
    ("normal", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N", True),
    ("normal", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6", False),
    ("normal", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O", False),
    ("fullcavalry", "c3k2c/8/8/8/8/8/8/C3K2C w KQkq - 0 1", "h1f1d,e1g1", "O-O=ne", True),
    ("fullcavalry", "c3k2c/8/8/8/8/8/8/C3K2C w KQkq - 0 1", "e1c1", "O-O-O", True),
    ("fullcavalry", "4k3/8/8/8/8/8/8/C3K3 w - - 0 1", "a1a5e", "La5=e", True),
    ("8piece", "k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "c1f8,f8f4", "Sf4>Rf8", False),
    ("8piece", "k7/8/8/8/5g2/8/8/2S1K3 w - - 0 1", "c1g5,g5f4", "Sf4>Lg5", False),
    ("8piece", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8f", "b8=L=se", True),
    ("8piece-2019", "k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "c1f4,f4g5", "Sxf4", False),
    ("8piece-2019", "k7/8/r7/8/8/3S4/8/4K3 w - - 0 1", "d3a6", "Sxa6", False),
]


@pytest.mark.parametrize("variant,fen,text,san,chooser", KINDS, ids=[k[3] + "-" + k[0] for k in KINDS])
def test_move_kind_by_clicks(page, variant, fen, text, san, chooser):
    page.load(fen, variant)
    assert page.play(text, expect_chooser=chooser) == san
    page.wait_human()


def test_every_chess80_castle_by_king_to_its_destination(page):
    # the king goes 2, 3 or 4 squares towards a1 (4: onto the rook's square) and 2..5 towards j1
    page.load("4k5/10/10/10/10/10/10/R3K4R w KQ - 0 1", "chess80", black="me")
    played = []
    for destination in ("c1", "b1", "a1", "g1", "h1", "i1", "j1"):
        page.click("e1")
        page.click(destination)
        page.wait(lambda: page.plies() == 1, f"the castle to {destination}")
        played.append(page.state()["sans"][0])
        page.button("takeback")                       # at once: a game of one's own
        page.wait(lambda: page.plies() == 0, "the takeback")
    assert played == ["2-2", "3-3", "4-4", "2-2-2", "3-3-3", "4-4-4", "5-5-5"]


def test_chess960_castle_by_king_onto_its_rook(page):
    page.load("1r2k2r/8/8/8/8/8/8/1R2K2R w KQk - 0 1", "fischerandom")
    page.click("e1")
    page.click("b1")
    page.wait(lambda: page.plies() >= 1, "the castle")
    assert page.state()["sans"][0] == "O-O-O"


CASTLES = [
    # variant, FEN, clicks, the squares marked as the last move
    ("normal", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ("e1", "g1"), ["e1", "g1"]),
    ("fischerandom", "1r2k2r/8/8/8/8/8/8/1R2K2R w KQk - 0 1", ("e1", "b1"), ["c1", "e1"]),    # king onto rook
    ("chess80", "4k5/10/10/10/10/10/10/R3K4R w KQ - 0 1", ("e1", "j1"), ["e1", "j1"]),      # 5-5-5
    # the king already on its castled square: it stays, its rook comes from h1
    ("fischerandom", "1r4kr/8/8/8/8/8/8/1R4KR w KQk - 0 1", ("g1", "h1"), ["g1", "h1"]),
]


@pytest.mark.parametrize("variant,fen,clicks,marked", CASTLES, ids=[f"{c[0]}-{c[2][0]}{c[2][1]}" for c in CASTLES])
def test_castle_marks_two_squares_as_the_last_move(page, variant, fen, clicks, marked):
    """A castle where the king does not move marked one square alone; every castle marks the
    king's square and its destination, or the rook's square where the king stays."""
    page.load(fen, variant, black="me")
    for square in clicks:
        page.click(square)
    page.wait(lambda: page.plies() == 1, "the castle")
    assert page.state()["sans"][0].startswith(("O-O", "5-5-5"))
    shown = page.js("return [...document.querySelectorAll('.mark-last')].map(e => e.parentNode.dataset.square).sort()")
    assert shown == marked


def test_8piece_random_castle_with_the_jailer(page):
    # number 1000: N R S Q K B L J; clear the squares between king and jailer
    pos = Position("8piece-random", number=1000)
    fen = pos.fen().replace("/NRSQKBCJ ", "/NRSQK2J ")
    assert "O-O" in {Position.from_fen(fen, "8piece-random").san(m)
                     for m in Position.from_fen(fen, "8piece-random").legal_moves() if m.kind == CASTLE}
    page.load(fen, "8piece-random")
    page.click("e1")
    page.click("h1")                        # king onto its partner, the jailer
    page.wait(lambda: page.plies() >= 1, "the castle")
    assert page.state()["sans"][0] == "O-O"
    assert page.state()["fens"][1].split()[0].endswith("/NRSQ1JK1")


def test_pass_button_only_when_the_king_is_held(page):
    page.load("7k/8/8/8/8/8/7P/Kj6 w - - 0 1", "8piece")
    assert page.js("return !document.getElementById('pass').hidden && !document.getElementById('pass').disabled")
    page.click("a1")                                    # the held king: refused with the reason
    assert "held by a jailer" in page.text("message")
    assert page.js("return document.querySelectorAll('[data-square=\"a1\"] .mark-held').length") == 1
    page.button("pass")
    page.wait(lambda: page.plies() >= 1, "the pass")
    assert page.state()["sans"][0] == "--"
    page.load("7k/8/8/8/8/8/7P/K7 w - - 0 1", "8piece")
    assert page.js("return document.getElementById('pass').hidden")


def test_pushed_units_forbidden_squares_are_shown_on_the_next_move(page):
    page.load("k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "8piece", black="me")
    page.play("c1f8,f8f4")
    assert sorted(page.state()["forbidden"]) == ["f4", "f5", "f6", "f7"]
    marked = page.js("return [...document.querySelectorAll('.mark-forbidden')]"
                     ".map(e => e.parentNode.dataset.square).sort()")
    assert marked == ["f4", "f5", "f6", "f7"]
    page.play("a8b8")
    assert page.js("return document.querySelectorAll('.mark-forbidden').length") == 0


def test_illegal_clicks_are_refused_with_a_reason_and_change_nothing(page):
    page.new_game("normal")
    page.click("e2")
    assert page.js("return [...document.querySelectorAll('[data-target]')].map(e => e.dataset.square).sort()") \
        == ["e3", "e4"]
    page.click("e5")                                         # not a target
    assert page.text("message") == "Not a legal move" and page.plies() == 0
    page.click("e7")                                         # the engine's unit
    assert "White's move" in page.text("message")
    page.click("b1")
    page.click("b1")                                         # second click deselects
    assert page.js("return document.querySelectorAll('.mark-selected').length") == 0


def test_reload_keeps_the_game_and_history_is_clickable(page, driver):
    slug = page.new_game("fullcavalry")
    page.play("e2e4")
    page.wait_human()
    page.play("d2d4")
    page.wait_human()
    before = page.state()
    driver.refresh()
    page.open(f"/g/{slug}")
    after = page.state()
    assert after["sans"] == before["sans"]
    page.js("document.querySelector('#moves span[data-ply=\"1\"]').click()")
    assert page.js("return placement(ui.game.fens[1], variantInfo('fullcavalry'))['e4']") == "P"
    shown = page.js("return [...document.querySelectorAll('[data-piece]')].length")
    assert shown == 32 and "viewing move 1" in page.text("status")
    page.button("live")
    assert "viewing" not in page.text("status")


RUY_LOPEZ_28_PLIES = ("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O "
                      "9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 *")


def move_list_view(page):
    """The move list's widths and whether its last move lies inside its visible part."""
    return page.js("""
        const list = document.getElementById('moves');
        const spans = list.querySelectorAll('span[data-ply]');
        const box = list.getBoundingClientRect(), last = spans[spans.length - 1].getBoundingClientRect();
        const top = box.top + list.clientTop;
        return {scrollWidth: list.scrollWidth, clientWidth: list.clientWidth,
                scrollHeight: list.scrollHeight, clientHeight: list.clientHeight,
                lastVisible: last.top >= top - 1 && last.bottom <= top + list.clientHeight + 1,
                shown: spans.length};""")


def test_move_list_scrolls_vertically_and_follows_the_game(page):
    """After about 11 moves the list overflowed sideways (CSS columns under a max-height) and only
    the last move showed; it scrolls down instead, the newest move in view after each move."""
    page.load(RUY_LOPEZ_28_PLIES, black="me")
    for text in ("a2a4", "c7c5"):                          # plies 29 and 30, by clicks
        view = move_list_view(page)
        assert view["scrollWidth"] <= view["clientWidth"], view
        assert view["scrollHeight"] > view["clientHeight"], view       # long enough to scroll
        assert view["lastVisible"], view
        page.play(text)
    view = move_list_view(page)
    assert view["shown"] == 30 and view["scrollWidth"] <= view["clientWidth"] and view["lastVisible"], view
    page.js("document.getElementById('moves').scrollTop = 0")          # the first move is reachable
    first_visible = page.js("""
        const list = document.getElementById('moves');
        const first = list.querySelector('span[data-ply="1"]').getBoundingClientRect();
        return first.left >= list.getBoundingClientRect().left && first.bottom <= list.getBoundingClientRect().bottom;""")
    assert first_visible


def test_flip_turns_the_board_and_the_lancers_with_it(page):
    page.new_game("8piece")
    square = lambda name: page.js(f"return document.querySelector('[data-square=\"{name}\"] rect').getAttribute('x')")
    a1_x = square("a1")
    page.button("flip")
    assert square("a1") != a1_x and square("h1") == a1_x
    assert page.js("return document.querySelector('[data-square=\"b1\"] image').getAttribute('transform')") \
        .startswith("rotate(180")
    page.button("flip")


def test_takeback_against_the_engine_and_resign(page, server):
    slug = page.new_game("normal")
    page.play("e2e4")
    page.wait_human()
    assert not page.shown("draw")                     # against an engine there is no one to offer it
    page.button("takeback")                           # at once: back to the person's move
    page.wait(lambda: page.plies() == 0, "the takeback")
    page.play("d2d4")
    page.wait_human()
    page.js("window.confirm = () => true")
    page.button("resign")
    page.wait(lambda: page.state()["result"] == "0-1", "the resignation")
    assert "White resigns" in page.text("status")
    assert pgn_game(server, slug)[0].tags["Result"] == "0-1"


def test_a_hot_seat_draw_is_offered_on_one_move_and_accepted_on_the_next(page):
    page.new_game("normal", black="me")
    page.button("draw")
    page.wait(lambda: page.state()["drawOffer"] == "w", "White's offer")
    page.play("e2e4")
    page.wait(lambda: page.text("draw") == "Accept draw", "Black may accept")
    page.button("draw")
    page.wait(lambda: page.state()["result"] == "1/2-1/2", "the draw")


def test_engine_thinking_is_shown_while_it_thinks_and_cleared_when_its_move_arrives(page):
    """The engine's last thinking line stayed on screen after its move (and a page opened then got
    it too); it goes when the move arrives."""
    slug = page.new_game("normal", level="strong", tc="none")
    page.play("e2e4")
    page.wait(lambda: "depth" in page.text("thinking"), "the engine's thinking line")
    line = page.text("thinking")
    assert line.startswith("Engine, 1 s a move: depth") and "score" in line
    page.wait_human()
    assert page.text("thinking") == ""
    page.open(f"/g/{slug}")                          # a page opened after the move
    time.sleep(0.5)
    assert page.text("thinking") == "" and page.plies() == 2


# ---------------------------------------------------------------- what is drawn
def _rendered(svg: str, background: str):
    from PIL import Image
    png = subprocess.run(["rsvg-convert", "-w", str(SQ), "-h", str(SQ), "-b", background],
                         input=svg.encode(), capture_output=True, check=True).stdout
    return Image.open(io.BytesIO(png)).convert("RGB")


def _distance(a, b) -> float:
    from PIL import ImageChops, ImageStat
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@needs("rsvg-convert")
@pytest.mark.parametrize("variant", variant_names())
def test_screenshot_shows_on_each_square_the_piece_of_the_fen(page, variant):
    """Each square of a screenshot of the page, set beside every picture of the variant drawn by
    another renderer (librsvg) on that square's colour, is nearest to the unit the FEN puts there."""
    from PIL import Image
    fen = {"normal": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}.get(variant)
    if fen:
        page.load(fen, variant, black="me")
    else:
        page.new_game(variant, black="me", number=300 if get_variant(variant).setup != "fixed" else None)
    state = page.state()
    info = page.js(f"return variantInfo('{variant}')")
    placement = page.js("return placement(arguments[0], arguments[1])", state["fens"][-1], info)
    board = page.d.find_element("id", "board-svg")
    shot = Image.open(io.BytesIO(board.screenshot_as_png)).convert("RGB")
    scale = shot.width / ((info["files"] * SQ) + MARGIN)      # the board is drawn to fit the window
    shot = shot.resize((info["files"] * SQ + MARGIN, round(shot.height / scale)))
    letters = sorted({letter for letter in info["pictures"]})
    references = {}
    for colour in ("#b58863", "#f0d9b5"):
        references[colour] = {None: Image.new("RGB", (SQ, SQ), colour)}
        for letter in letters:
            references[colour][letter] = _rendered(
                drawing(board_picture_name(variant, letter), letter.isupper()), colour)
    wrong = []
    for name, f, r in info["squares"]:
        x, y = MARGIN + f * SQ, (info["ranks"] - 1 - r) * SQ
        crop = shot.crop((x, y, x + SQ, y + SQ))
        colour = "#b58863" if (f + r) % 2 == 0 else "#f0d9b5"
        distances = {letter: _distance(crop, image) for letter, image in references[colour].items()}
        seen = min(distances, key=distances.get)
        expected = placement.get(name)
        same_picture = seen is not None and expected is not None and \
            info["pictures"][seen] == info["pictures"][expected]
        if seen != expected and not same_picture:
            wrong.append((name, expected, seen))
    assert not wrong, wrong


def test_engine_crash_mid_game_shows_the_result_and_the_page_goes_on(page):
    page.new_game("normal", engine="crashy")
    page.play("e2e4")
    page.wait_human()                                   # its first move
    page.play("d2d4")                                   # asked for its second, it exits
    page.wait(lambda: page.state()["result"] == "1-0", "the crash to end the game")
    assert "Black disconnects" in page.text("status")
    page.new_game("normal")                             # the page still works
    page.play("e2e4")
    page.wait_human()


def test_moves_can_be_typed_in_san_or_coordinates(page):
    page.load("k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "8piece")
    page.fill("type-move", "Sf4>Rf8")
    from selenium.webdriver.common.keys import Keys
    page.d.find_element("id", "type-move").send_keys(Keys.ENTER)
    page.wait(lambda: page.plies() >= 1, "the typed push")
    assert page.state()["sans"][0] == "Sf4>Rf8"
    page.wait_human()
    page.d.find_element("id", "type-move").send_keys("e1e5", Keys.ENTER)     # not legal
    page.wait(lambda: "e1e5" in page.text("message"), "the refusal")
    assert page.plies() == 2


def test_units_can_be_dragged_a_push_too(page):
    page.load("k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "8piece")
    page.drag("c1", "f4")                                                     # the sentry onto the rook
    assert page.js("return ui.clicks") == ["c1", "f4"] and page.plies() == 0
    page.click("f8")                                                          # where the rook goes
    page.wait(lambda: page.plies() >= 1, "the push")
    assert page.state()["sans"][0] == "Sf4>Rf8"
    page.wait_human()
    target = next(t for t in page.state()["targets"] if len(t["path"]) == 2 and len(t["options"]) == 1)
    page.drag(*target["path"])
    page.wait(lambda: page.plies() >= 3, "the dragged move")
    assert page.state()["sans"][2] == target["options"][0]["san"]


# ---------------------------------------------------------------- 8 Player Chess
def eight(page, players, mode="singles", tc="none"):
    """An 8 Player game on the board: each seat "me" or a bot level; its page opened."""
    seats = [{"kind": "me"} if p == "me" else {"kind": "bot", "level": p} for p in players]
    slug = make_game(page.server, kind="eight", mode=mode, tc=tc, seats=seats)
    return EightPage(page.d, page.server).open(f"/g/{slug}")


def record_lines(state, letters="wrbypogn"):
    return [f"{n} {letters[seat]}. {text}" for n, seat, kind, text in state["moves"]]


def test_a_person_plays_by_clicks_among_seven_bots(page, server):
    board = eight(page, ["me"] + ["fast"] * 7, tc="10+5")
    rng = random.Random(1)
    for _ in range(6):
        board.wait(lambda: board.state()["humanToMove"] or board.state()["result"], "White's turn", timeout=60)
        state = board.state()
        if state["result"]:
            break
        board.play(rng.choice([o["text"] for t in state["targets"] for o in t["options"]]))
    board.wait(lambda: board.state()["humanToMove"] or board.state()["result"], "White's turn", timeout=60)
    state = board.state()
    assert board.moves_shown() == record_lines(state)
    assert board.scores_shown() == [s["score"] for s in state["seats"]]
    assert board.statuses_shown() == [s["status"] for s in state["seats"]]
    assert len(state["moves"]) >= 48
    import urllib.request
    with urllib.request.urlopen(f"{server.url}/g/{board.data('gameId')}.txt", timeout=10) as response:
        record = response.read().decode()
    assert all(line in record for line in record_lines(state)[:16])
    if not state["result"]:                            # a typed move in the text's notation
        before = state["version"]
        text = state["targets"][0]["options"][0]["text"]
        board.js("document.getElementById('type-move').value = arguments[0]", text)
        board.js("document.getElementById('type-form').requestSubmit()")
        board.wait(lambda: board.state()["version"] != before, "the typed move")
        assert any(m[1] == 0 and m[3] == text for m in board.state()["moves"][-8:])


def test_the_8_player_move_list_scrolls_vertically_and_follows_the_game(page):
    """The two-player board's move list overflowed sideways after about 11 moves; this one (a grid
    of a column per seat) scrolls down, the newest move in view while the bots play."""
    board = eight(page, ["random"] * 8)               # bots against bots: the page watches
    board.wait(lambda: len(board.state()["moves"]) >= 160, "20 sets of moves", timeout=90)
    view = board.js("""
        const list = document.getElementById('moves');
        const items = list.querySelectorAll('li.move');
        const top = list.getBoundingClientRect().top + list.clientTop;
        const last = items[items.length - 1].getBoundingClientRect();
        return {scrollWidth: list.scrollWidth, clientWidth: list.clientWidth, scrollHeight: list.scrollHeight,
                clientHeight: list.clientHeight,
                lastVisible: last.top >= top - 1 && last.bottom <= top + list.clientHeight + 1};""")
    assert view["scrollWidth"] <= view["clientWidth"], view
    assert view["scrollHeight"] > view["clientHeight"] and view["lastVisible"], view


def test_hot_seat_two_seats_on_one_page(page):
    board = eight(page, ["me", "me"] + ["random"] * 6)
    for n in range(3):
        board.wait(lambda: board.state()["turn"] == 0, "White's turn")
        board.play(board.state()["targets"][n]["options"][0]["text"])
        assert board.state()["turn"] == 1 and "Red to move" in board.text("status")
        board.play(board.state()["targets"][n]["options"][0]["text"])
    board.wait(lambda: board.state()["turn"] == 0, "White's turn")
    moves = board.state()["moves"]
    assert [m[1] for m in moves[:10]] == [0, 1, 2, 3, 4, 5, 6, 7, 0, 1]
    assert board.moves_shown()[:2] == record_lines(board.state())[:2]


def test_each_seat_sees_its_army_at_the_bottom(page):
    """Red, Blue, Orange and Green pages showed their own army at the top (their board was turned
    the wrong way).  For each seat, in the start position, its king is drawn in the bottom fifth."""
    wrong = []
    for seat, letter in enumerate("wrbypogn"):
        players = ["fast"] * 8
        players[seat] = "me"
        board = eight(page, players)
        where = board.js("""
            const svg = document.getElementById('board-svg');
            const king = svg.querySelector(`[data-piece="${arguments[0]}K"]`);
            return {y: parseFloat(king.getAttribute('y')), height: svg.viewBox.baseVal.height, turns: svg.dataset.turns};""",
                         letter)
        if not where["y"] > 0.8 * where["height"]:
            wrong.append((letter, where))
    assert not wrong


def saved_eight(tmp_path, game, players):
    """One person's board that opens with ``game`` (an 8 Player game in progress, as the old board
    kept it: read into the database at the start); its server and the game's address."""
    from xboard_engine.web.games.eight_player import EightGame
    saved = EightGame(players=players, game=game)
    (tmp_path / "8pc-current.json").write_text(json.dumps(saved.to_json()))
    s = LiveServer(tmp_path, local=True)
    import asyncio

    async def mine():
        import aiohttp
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(s.url + "/ws/lobby", headers={"Origin": s.url}) as ws:
                while True:
                    message = json.loads((await ws.receive(timeout=10)).data)
                    if message["type"] == "lobby":
                        return message["mine"][0]["gameId"]
    try:
        return s, asyncio.run(mine())
    except BaseException:
        s.stop()                                   # not read in: nothing is left running
        raise


def test_the_leader_of_the_last_two_claims_the_game_with_the_button(tmp_path, driver):
    """Text: with two players left, the one on move ahead by 26 or more may claim the game.  The
    game has White and Red left; White takes a 30-point queen by clicks, Red answers, and only then
    does the page offer White the claim."""
    from eightplayer_helpers import make_game as board_with
    game = board_with({"i5": "wR", "i10": "rQ"}, active="wr", options={"custom_points": "Q30"})
    server, slug = saved_eight(tmp_path, game, ["human", "human"] + ["random"] * 6)
    try:
        page = EightPage(driver, server).open(f"/g/{slug}")
        assert page.state()["turn"] == 0
        assert not page.shown("claim")                                  # level at 0: no claim
        page.play("Ri10")
        assert not page.shown("claim")                                  # Red to move: not White's claim
        page.play("Ka6")
        page.wait(lambda: page.shown("claim"), "the claim button")
        assert page.scores_shown()[:2] == [30, 0]
        page.button("claim")
        page.wait(lambda: page.state()["result"], "the end of the game")
        result = page.state()["result"]
        assert result["winners"] == [0] and result["scores"][:2] == [30, 25]
        assert page.text("status").startswith("Game over: ")
        assert page.statuses_shown()[0] == "claimed"
        import urllib.request
        with urllib.request.urlopen(f"{server.url}/g/{slug}.txt", timeout=10) as response:
            replayed = Game.from_record(response.read().decode())
        assert replayed.over and replayed.status(0) == "claimed" and list(replayed.result.scores) == result["scores"]
    finally:
        server.stop()


def test_E4_4_a_king_is_captured_by_clicks(tmp_path, driver):
    """E4.4 on the page (issue 24's first defect): White's knight a19 leaves for c20 and uncovers Red's rook a20
    on Blue's king a17; Red clicks the rook, then the king's square.  The page shows Blue out with
    its units grey, Red's 25 points and the referee's words; the record replays to it."""
    from eightplayer_helpers import make_game as board_with
    game = board_with({"a19": "wN", "a20": "rR", "c16": "bB"}, active="wrb")
    server, slug = saved_eight(tmp_path, game, ["human", "human"] + ["random"] * 6)
    try:
        page = EightPage(driver, server).open(f"/g/{slug}")
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
        import urllib.request
        with urllib.request.urlopen(f"{server.url}/g/{slug}.txt", timeout=10) as response:
            replayed = Game.from_record(response.read().decode())
        assert replayed.status(2) == "king captured" and replayed.scores[:3] == [0, 25, 0]
    finally:
        server.stop()


def test_E4_2_a_credit_of_nobody_is_shown(tmp_path, driver):
    """White's Bd23 uncovers Red's rook on Yellow's king (a mate in waiting, White's); Red resigns and
    the check is gone, but Yellow still cannot move: a stalemate in waiting that nobody made.  The
    page lists it with "credit nobody"."""
    from eightplayer_helpers import make_game as board_with
    game = board_with({"d24": "rR", "e24": "wB", "k23": "wR", "g22": "wN"}, active="wrby")
    game.play_text("Bd23")
    game.resign()
    assert game.credit == {3: (None, "s")}
    server, slug = saved_eight(tmp_path, game, ["human"] * 4 + ["random"] * 4)
    try:
        page = EightPage(driver, server).open(f"/g/{slug}")
        credits = page.js("return [...document.querySelectorAll('#credits li')].map(li => li.textContent)")
        assert credits == ["Yellow: stalemate in waiting, credit nobody"]
        assert page.statuses_shown()[:4] == ["active", "resigned", "active", "active"]
    finally:
        server.stop()
