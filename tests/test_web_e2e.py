"""The browser board end to end: the real server, the real page in headless Chromium (Debian's
chromium and chromedriver, driven by Selenium), a scripted human clicking squares, buttons and the
chooser's pictures against our engine."""
import io
import random
import shutil
import subprocess
import time

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("selenium")

from web_page import Page, Server, chrome, have_browser  # noqa: E402

from xboard_engine import Position  # noqa: E402
from xboard_engine.images import board_picture_name, drawing  # noqa: E402
from xboard_engine.match.pgn import read_games, replay  # noqa: E402
from xboard_engine.moves import CASTLE  # noqa: E402
from xboard_engine.variant import get_variant, variant_names  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")]

SQ, MARGIN = 64, 22          # the page's square size and coordinate margin (board.js)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("web") / "data")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def driver():
    d = chrome()
    yield d
    d.quit()


@pytest.fixture
def page(server, driver):
    return Page(driver, server.url)


def pgn_game(server):
    return next(read_games(io.StringIO(server.get("/game.pgn"))))


# ---------------------------------------------------------------- a game of each variant
@pytest.mark.parametrize("variant", variant_names())
def test_human_plays_a_whole_game_of_each_variant_by_clicks_against_the_engine(page, server, variant):
    page.new_game(variant, number=17 if get_variant(variant).setup != "fixed" else None)
    rng = random.Random(variant)
    for _ in range(200):
        state = page.state()
        if state["result"]:
            break
        targets = state["targets"]
        # prefer the move kinds that take more than two plain clicks
        special = [t for t in targets if len(t["path"]) > 2 or len(t["options"]) > 1]
        target = rng.choice(special if special and rng.random() < 0.7 else targets)
        option = rng.choice(target["options"])
        page.play(option["text"])
        page.wait_human()
    state = page.state()
    assert state["result"], "the game did not end in 200 moves"
    game = pgn_game(server)                      # the server's PGN replays legally in the rules core
    assert game.moves == state["sans"] and game.result == state["result"]
    assert game.tags["Termination"] == "normal" and f"{{{state['reason']}}}" in server.get("/game.pgn")
    assert replay(game).fen() == Position.from_fen(state["fens"][-1], variant).fen()
    assert game.tags["White"] == "Human" and game.tags["Black"] == "xboard-engine"


# ---------------------------------------------------------------- every move kind by pointer
KINDS = [
    # variant, FEN (human White against the engine), move, SAN, chooser
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
    page.load("4k5/10/10/10/10/10/10/R3K4R w KQ - 0 1", "chess80", black="human")
    played = []
    for destination in ("c1", "b1", "a1", "g1", "h1", "i1", "j1"):
        page.click("e1")
        page.click(destination)
        page.wait(lambda: page.plies() == 1, f"the castle to {destination}")
        played.append(page.state()["sans"][0])
        page.button("takeback")
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
    page.load(fen, variant, black="human")
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
    page.load("k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "8piece", black="human")
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
    page.new_game("fullcavalry")
    page.play("e2e4")
    page.wait_human()
    page.play("d2d4")
    page.wait_human()
    before = page.state()
    driver.refresh()
    page.wait(lambda: page.js("return !!(ui.game && ui.hello)"), "the reloaded page")
    after = page.state()
    assert after["sans"] == before["sans"] and after["id"] == before["id"]
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
    page.load(RUY_LOPEZ_28_PLIES, black="human")
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


def test_resign_draw_offer_and_takeback(page, server):
    page.new_game("normal")
    page.play("e2e4")
    page.wait_human()
    page.button("draw")                                   # our engine is not losing: declined
    page.wait(lambda: "declines" in page.text("message"), "the answer to the draw offer")
    page.button("takeback")
    page.wait(lambda: page.plies() == 0, "the takeback")
    page.play("d2d4")
    page.wait_human()
    page.d.execute_script("window.confirm = () => true")
    page.button("resign")
    page.wait(lambda: page.state()["result"] == "0-1", "the resignation")
    assert "White resigns" in page.text("status")
    assert pgn_game(server).tags["Result"] == "0-1"


def test_engine_thinking_is_shown_while_it_thinks_and_cleared_when_its_move_arrives(page):
    """The engine's last thinking line stayed on screen after its move (and a page opened then got
    it too); it goes when the move arrives."""
    page.new_game("normal", tc="st=1")
    page.play("e2e4")
    page.wait(lambda: "depth" in page.text("thinking"), "the engine's thinking line")
    line = page.text("thinking")
    assert line.startswith("xboard-engine: depth") and "score" in line
    page.wait_human()
    assert page.text("thinking") == ""
    page.open()                                      # a page opened after the move
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


@pytest.mark.skipif(not shutil.which("rsvg-convert"), reason="needs librsvg2-bin's rsvg-convert")
@pytest.mark.parametrize("variant", variant_names())
def test_screenshot_shows_on_each_square_the_piece_of_the_fen(page, variant):
    """Each square of a screenshot of the page, set beside every picture of the variant drawn by
    another renderer (librsvg) on that square's colour, is nearest to the unit the FEN puts there."""
    from PIL import Image
    pytest.importorskip("PIL")
    fen = {"normal": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}.get(variant)
    if fen:
        page.load(fen, variant)
    else:
        page.new_game(variant, number=300 if get_variant(variant).setup != "fixed" else None)
    state = page.state()
    info = page.js(f"return variantInfo('{variant}')")
    placement = page.js("return placement(arguments[0], arguments[1])", state["fens"][-1], info)
    board = page.d.find_element("id", "board-svg")
    shot = Image.open(io.BytesIO(board.screenshot_as_png)).convert("RGB")
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
    page.new_game("normal", black="crashy")
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
