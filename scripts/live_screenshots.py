"""Screenshots of the live server's pages for the README, taken from the real pages: the server
(`xboard-engine serve`) and headless Chromium, several browser profiles (each its own player)
driven by Selenium.

    python scripts/live_screenshots.py [OUT_DIR]          (default docs/images)

Writes live-lobby.png (the lobby with open challenges, games being played and finished ones) and
live-8pc.png (an 8 Player Pairs game of four people and four bots, the partner chat and an arrow
on White's page).  Needs what the browser tests need: aiohttp, selenium, Debian's chromium and
chromium-driver.
"""
import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from live_client import LiveServer, create, new_player  # noqa: E402
from live_page import LivePage, Profiles  # noqa: E402


async def other_games(server: LiveServer) -> None:
    """Challenges and games made by other people (WebSocket clients, as pages are)."""
    mia = await new_player(server, "Mia")
    await create(mia, kind="two", variant="8piece", tc="300+3", seats=[{"kind": "me"}, {"kind": "open"}])
    tom = await new_player(server, "Tom")
    await create(tom, kind="eight", mode="teams", tc="10+5",
                 seats=[{"kind": "me"}] + [{"kind": "open"}] * 3 + [{"kind": "bot", "level": "fast"}] * 4)
    ana = await new_player(server, "Ana")
    await create(ana, kind="two", variant="chess80", tc="600+5", seats=[{"kind": "open"}, {"kind": "me"}])
    # a game being played against a bot, and one finished
    ken = await new_player(server, "Ken")
    game = await create(ken, kind="two", variant="fullcavalry", tc="180+2",
                        seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    await ken.connect(f"/ws/g/{game['gameId']}")
    await ken.state(status="playing")
    for move in ("e2e4", "d2d4", "g1f3"):
        state = await ken.state(humanToMove=True, timeout=30)
        texts = {o["text"] for t in state["targets"] for o in t["options"]}
        if move in texts:
            await ken.send({"type": "move", "move": move})
            await ken.state(humanToMove=False)
    lea = await new_player(server, "Lea")
    game = await create(lea, kind="two", variant="normal", tc="60+1",
                        seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    await lea.connect(f"/ws/g/{game['gameId']}")
    await lea.state(status="playing")
    await lea.send({"type": "move", "move": "f2f3"})
    await lea.state(humanToMove=True, timeout=30)
    await lea.send({"type": "resign"})
    await lea.state(status="over")
    for client in (mia, tom, ana, ken, lea):
        await client.close()


def shoot(page: LivePage, path: Path) -> None:
    time.sleep(0.5)
    page.d.save_screenshot(str(path))
    print("wrote", path)


def eight_player_game(server: LiveServer, profiles: Profiles, out: Path) -> None:
    a, b, c, d = (LivePage(x, server) for x in profiles.get(4))
    for page in (a, b, c, d):
        page.d.set_window_size(1360, 960)
    a.lobby("Alice")
    game = a.create(["me", "open", "bot", "bot", "invite", "open", "bot", "bot"], dict.fromkeys((2, 3, 6, 7), "fast"),
                    kind="eight", mode="pairs", tc="10+5")
    a.wait(lambda: a.js("return document.querySelectorAll('#invites .invite').length") == 1, "the invite link")
    b.d.get(a.js("return document.querySelector('#invites .invite input').value"))
    b.game_page()
    b.type("#name-text", "Bruno")
    b.press("#name-form button")
    for page, seat, name in ((c, 1, "Carmen"), (d, 5, "Dmitri")):
        page.lobby(name)
        page.wait(lambda: page.js(f"return !!document.querySelector('#challenges tr[data-game=\"{game}\"] "
                                  f"button[data-seat=\"{seat}\"]')"), "the challenge")
        page.press(f'#challenges tr[data-game="{game}"] button[data-seat="{seat}"]')
        page.game_page()
        page.wait(lambda: page.seats() == str(seat), "the seat")
    a.wait(lambda: a.data("status") == "playing", "the game under way")
    # two rounds of moves by clicks, each person a pawn forward
    pages = {0: a, 1: c, 4: b, 5: d}
    for _ in range(2):
        for seat in (0, 1, 4, 5):
            page = pages[seat]
            page.wait(lambda: page.state()["turn"] == seat, f"seat {seat}'s turn", timeout=60)
            state = page.state()
            pawn_moves = [o["text"] for t in state["targets"] for o in t["options"]
                          if state["pieces"][t["path"][0]][1] == 1 and len(t["path"]) == 2]
            page.play(pawn_moves[len(pawn_moves) // 2] if pawn_moves else state["targets"][0]["options"][0]["text"])
    a.wait(lambda: a.state()["turn"] == 0, "White's turn again", timeout=60)
    state = a.state()
    plan = next((t["path"] for t in state["targets"]
                 if state["pieces"][t["path"][0]][1] == 1 and len(t["path"]) == 2), None)   # a pawn's step
    b.chat("I hold the right side; your queen can come out", "team")
    a.wait(lambda: len(a.chat_lines()) >= 1, "Bruno's line")
    a.chat("Thanks, partner: going up the d file", "team")
    c.chat("Good luck everyone!", "all")
    a.wait(lambda: len(a.chat_lines()) >= 3, "the chat")
    if plan:
        a.right_drag(*plan)
    shoot(a, out / "live-8pc.png")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data)
        profiles = Profiles()
        try:
            asyncio.run(other_games(server))
            eight_player_game(server, profiles, out)
            lobby = LivePage(profiles.get(5)[4], server)
            lobby.d.set_window_size(1100, 900)
            lobby.lobby("Visitor")
            lobby.wait(lambda: lobby.data("playing") and int(lobby.data("playing")) >= 2, "the games in the lobby")
            shoot(lobby, out / "live-lobby.png")
        finally:
            profiles.quit()
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
