"""Screenshots of the browser board for the README, taken from the real page: the server
(`xboard-engine web`) and headless Chromium, a player's clicks made by Selenium.

    python scripts/web_screenshots.py [OUT_DIR] [--only 8pc]      (default docs/images)

Needs what the end-to-end tests need: aiohttp, selenium, Debian's chromium and chromium-driver.
"""
import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Union

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from web_page import EightPage, Page, Server, chrome  # noqa: E402
from web_8pc_full_game import play_by_clicks  # noqa: E402

from xboard_engine import Position  # noqa: E402
from xboard_engine.moves import PUSH  # noqa: E402


def push_position(seed: int = 11) -> str:
    """A position of an 8piece game (random moves) where the side to move can push and a unit is
    held by a jailer."""
    rng = random.Random(seed)
    while True:
        pos = Position("8piece")
        for _ in range(60):
            moves = pos.legal_moves()
            if not moves or pos.outcome():
                break
            held = any(pos.holder_of(pos.variant.names[sq]) for sq in pos.variant.squares)
            pushes = [m for m in moves if m.kind == PUSH and not pos.variant.is_pawn[pos.board[m.to]]]
            if held and pos.turn == "w" and pos.ply > 14 and pushes:
                return pos.fen()
            pos.push(rng.choice(moves))


def shoot(page: Union[Page, EightPage], path: Path) -> None:
    time.sleep(0.3)
    page.d.save_screenshot(str(path))
    print("wrote", path)


def two_player_shots(server: Server, driver, out: Path) -> None:
    """The two-player board: 8-Piece Chess, Full Cavalry, Chess80."""
    driver.set_window_size(1100, 860)
    page = Page(driver, server.url)
    # 8-Piece Chess: a push just made; the pushed unit's forbidden squares, a held unit
    fen = push_position()
    page.load(fen, "8piece", black="human", tc="600+5")
    state = page.state()
    push = next(o["text"] for t in state["targets"] for o in t["options"]
                if len(t["path"]) == 3 and o["san"].split(">")[1][:1].isupper())   # not a pawn
    page.play(push)
    shoot(page, out / "web-8piece-push.png")
    # Full Cavalry: castling chooses the lancer's facing
    page.load("e1bqk1nm/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/ENBQK2M w KQkq - 4 4", "fullcavalry")
    page.click("e1")
    page.click("g1")
    shoot(page, out / "web-fullcavalry-castle.png")
    page.js("document.getElementById('chooser-cancel').click()")
    # Chess80 against the engine, its thinking shown (while it thinks: the line goes with its move)
    page.new_game("chess80", tc="st=5")
    for text in ("e2e4", "i1h3"):
        page.play(text)
        page.wait_human()
    page.play("f2f4")
    page.wait(lambda: "depth 4" in page.text("thinking"), "the thinking line")
    shoot(page, out / "web-chess80.png")
    page.wait_human()


def eight_player_shot(server: Server, driver, out: Path, sets: int = 7, seed: int = 3) -> None:
    """8 Player Chess in progress: White (a human, by clicks) among seven fast bots, a few sets played,
    a White unit selected with its legal targets marked."""
    driver.set_window_size(1400, 960)
    page = EightPage(driver, server.url + "8pc")
    page.new_game(["human"] + ["fast"] * 7, mode="singles", pace=0.0, tc="10+5")
    rng = random.Random(seed)
    for _ in range(sets):
        page.wait(lambda: page.state()["humanToMove"], "White's turn", timeout=60)
        state = page.state()
        play_by_clicks(page, state, rng.choice(state["targets"]), rng)
    page.wait(lambda: page.state()["humanToMove"], "White's turn", timeout=60)
    state = page.state()
    counts: dict = {}
    for target in state["targets"]:
        if state["pieces"][target["path"][0]][1] != 6:                     # not the king
            counts[target["path"][0]] = counts.get(target["path"][0], 0) + 1
    page.js("document.getElementById('new-game').open = false; window.scrollTo(0, 0)")
    page.click(max(counts, key=lambda square: (counts[square], square)))     # the most mobile one
    page.js("window.scrollTo(0, 0)")
    page.wait(lambda: page.js("return document.querySelectorAll('[data-target]').length") > 0, "targets marked")
    page.js("document.getElementById('moves').scrollTop = 1e6")
    shoot(page, out / "web-8pc.png")


def main() -> int:
    parser = argparse.ArgumentParser(description="Screenshots of the browser board for the README.")
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "images"), help="directory (docs/images)")
    parser.add_argument("--only", choices=("two-player", "8pc"), help="take only these shots")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data))
        driver = chrome()
        try:
            if args.only in (None, "two-player"):
                two_player_shots(server, driver, out)
            if args.only in (None, "8pc"):
                eight_player_shot(server, driver, out)
        finally:
            driver.quit()
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
