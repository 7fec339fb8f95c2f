"""The pictures of the web app in docs/WEB.md, taken from its real pages in headless Chromium (Selenium
clicks and taps as people make them; each person a browser profile of their own, or a WebSocket
client with its own cookies for the people whose pages are not shown):

    python scripts/web_screenshots.py [OUT_DIR] [--only board|server|phone]     (default docs/images)

One person's board (`xboard-engine web --no-browser`; games made over the lobby's WebSocket as the
owner), a 1100x860 window:
  web-8piece-push.png         8-Piece Chess, hot-seat: a sentry has just pushed an enemy unit; the
                              crosses mark where the pushed unit may not go, a unit held by a jailer
  web-fullcavalry-castle.png  Full Cavalry against the engine: the king clicked onto its castling
                              square, the chooser showing each lancer facing
  web-chess80.png             Chess80 against the engine (3 s a move), its depth, score and line
The server for several people (`xboard-engine serve --first-move 0 --grace 600`: no game aborted
or claimed while the pictures are set up):
  web-8pc.png                 8 Player Chess, Pairs, four people (four browser profiles) and four
                              bots, 1360x960: White's page with a partner chat line and an arrow
                              drawn for the partner
  web-lobby.png               the lobby at 1280x900 of a person with a challenge of their own: open
                              challenges, games in progress and finished games by several named
                              people (made by WebSocket clients, as pages make them)
  phone-two-player.png        a phone (390x844, device scale 2, touch): a two-player game in
                              progress, moves made by taps, an arrow drawn by touch (the Arrows
                              switch), the move list
  phone-8pc.png               a phone: 8 Player Chess against seven bots, a few sets played by taps
A community's home (the same server; six people play rated games and a Swiss over WebSockets):
  web-leaderboard.png         the leaderboards after a dozen rated games of chess and Chess80
  web-player-ratings.png      a player's page: ratings per variant, the history graph, results
  web-tournament.png          a Swiss of six in its second round: standings, games being played
  web-quick-pairing.png       the lobby's quick pairing: counts per clock, the seeks waiting; the
                              tournaments; our engine online as a bot account (xboard-engine bot)
  web-analysis.png            a finished game's computer analysis: the graph and the marked moves
  web-8pc-analysis.png        an 8 Player game's analysis: a line per seat, White's hung rook marked,
                              the board after it

Needs what the browser tests need: aiohttp, selenium, Debian's chromium and chromium-driver.
"""
import argparse
import asyncio
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, List

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from live_client import Client, LiveServer, create, finished_hot_seat_game, game_between, new_player, player_path  # noqa: E402
from live_page import LivePage  # noqa: E402
from web_page import PHONE, GamePage, Page, Profiles, chrome  # noqa: E402

from xboard_engine import Position  # noqa: E402
from xboard_engine.core.moves import PUSH  # noqa: E402

PHONE_SCALE = 2


def shoot(page: GamePage, path: Path, settle: float = 0.5) -> None:
    time.sleep(settle)
    page.d.save_screenshot(str(path))
    print("wrote", path, flush=True)


# --------------------------------------------------------------------- one person's board
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


def rename_owner(server: LiveServer, name: str) -> None:
    """One person's board names its owner after the computer's user: a name for the pictures."""
    async def run() -> None:
        client = Client(server)
        await client.connect("/ws/lobby")
        await client.send({"type": "name", "name": name})
        await client.wait_for("you")
        await client.close()
    asyncio.run(run())


def viewport(driver: Any, width: int, height: int) -> None:
    """The page's size exactly (a window's size includes the browser's own bars)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def board_shots(out: Path) -> None:
    """One person's board: 8-Piece Chess, Full Cavalry, Chess80."""
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data, local=True)
        rename_owner(server, "Alex")
        driver = chrome(size=(1100, 860))
        try:
            page = Page(driver, server)
            # 8-Piece Chess, hot-seat: a push just made; the pushed unit's forbidden squares, a held unit
            page.load(push_position(), "8piece", black="me", tc="600+5")
            state = page.state()
            push = next(o["text"] for t in state["targets"] for o in t["options"]
                        if len(t["path"]) == 3 and o["san"].split(">")[1][:1].isupper())   # not a pawn
            page.play(push)
            shoot(page, out / "web-8piece-push.png")
            # Full Cavalry: castling chooses the lancer's facing
            page.load("e1bqk1nm/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/ENBQK2M w KQkq - 4 4", "fullcavalry")
            page.click("e1")
            page.click("g1")
            page.wait(page.chooser_open, "the chooser")
            shoot(page, out / "web-fullcavalry-castle.png")
            page.js("document.getElementById('chooser-cancel').click()")
            # Chess80 against the engine, its thinking shown while it thinks (the line goes with its
            # move: the picture is taken again after the next move if the move came first)
            page.new_game("chess80", level="max", tc="600+5")
            page.wait_human()
            for text in ("e2e4", "i1h3"):
                page.play(text)
                page.wait_human()
            rng = random.Random(5)
            for text in ["f2f4"] + [""] * 10:
                state = page.state()
                page.play(text or rng.choice([o["text"] for t in state["targets"] for o in t["options"]]))
                page.wait(lambda: page.state()["humanToMove"] or page.js(
                    "return !!(room.thinking && room.thinking.depth >= 4)"), "the thinking line")
                if page.state()["humanToMove"]:
                    continue
                shoot(page, out / "web-chess80.png", settle=0.0)
                if page.js("return !!(room.thinking && room.thinking.depth >= 4)"):
                    break
                page.wait_human()
            else:
                raise RuntimeError("no picture of the engine's line: it always moved first")
        finally:
            driver.quit()
            server.stop()


# --------------------------------------------------------------------- the server for several people
async def game_of_two(server: LiveServer, creator: str, joiner: str, moves: List[str],
                      resign: bool = False, **challenge: Any) -> None:
    """``creator`` makes a listed challenge (White, Black open), ``joiner`` takes Black, they play
    ``moves``; Black resigns after them if ``resign``."""
    a = await new_player(server, creator, exact=True)
    b = await new_player(server, joiner, exact=True)
    await game_between(a, b, moves, **challenge)
    if resign:
        await b.send({"type": "resign"})
        await b.state(status="over")
    for c in (a, b):
        await c.close()


async def other_people(server: LiveServer) -> None:
    """What the lobby lists besides: challenges waiting, games being played, finished games, each
    made by people on WebSocket clients (their pages are not shown)."""
    mia = await new_player(server, "Mia", exact=True)
    await create(mia, kind="two", variant="8piece", tc="300+3", seats=[{"kind": "me"}, {"kind": "open"}])
    tom = await new_player(server, "Tom", exact=True)
    await create(tom, kind="eight", mode="teams", tc="10+5",
                 seats=[{"kind": "me"}] + [{"kind": "open"}] * 3 + [{"kind": "bot", "level": "fast"}] * 4)
    ana = await new_player(server, "Ana", exact=True)
    await create(ana, kind="two", variant="chess80", tc="600+5", seats=[{"kind": "open"}, {"kind": "me"}])
    for c in (mia, tom, ana):
        await c.close()
    await game_of_two(server, "Ken", "Lina", ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4"],
                      variant="fullcavalry", tc="180+2")
    await game_of_two(server, "Omar", "Yuki", ["e2e4", "e7e5", "i1h3"], variant="chess80", tc="600+5")
    await game_of_two(server, "Lea", "Noor", ["f2f3", "e7e5", "g2g4", "d8h4"], variant="normal", tc="60+1")
    await game_of_two(server, "Hugo", "Ines", ["e2e4", "e7e5", "g1f3"], resign=True, variant="8piece", tc="300+3")


def eight_player_pairs(server: LiveServer, profiles: Profiles, out: Path) -> List[GamePage]:
    """An 8 Player Pairs game of four people (four profiles) and four bots; White's page shot with a
    partner chat line and an arrow for the partner.  The four pages (left open: the game goes on)."""
    a, b, c, d = (LivePage(x, server) for x in profiles.get(4))
    for page in (a, b, c, d):
        page.d.set_window_size(1360, 960)
    a.lobby("Alice")
    game = a.create(["me", "open", "bot", "bot", "invite", "open", "bot", "bot"], dict.fromkeys((2, 3, 6, 7), "fast"),
                    kind="eight", mode="pairs", tc="10+5")
    a.wait(lambda: a.js("return document.querySelectorAll('#invites .invite').length") == 1, "the invite link")
    b.d.get(a.js("return document.querySelector('#invites .invite input').value"))
    b.game_page()
    b.wait(lambda: b.seats() == "4", "Purple taken by the link")
    b.type("#name-text", "Bruno")
    b.press("#name-form button")
    b.wait(lambda: b.text("live-you") == "You: Bruno", "Bruno's name")
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
    a.wait(lambda: any("queen can come out" in line for line in a.chat_lines()), "Bruno's line")
    a.chat("Thanks, partner: going up the d file", "team")
    c.chat("Good luck everyone!", "all")
    a.wait(lambda: any("Good luck everyone" in line for line in a.chat_lines()), "the chat")
    if plan:
        a.right_drag(*plan)
        b.wait(lambda: len(b.arrows()) == 1, "the arrow on the partner's page")
    a.js("window.scrollTo(0, 0)")
    shoot(a, out / "web-8pc.png")
    return [a, b, c, d]


def lobby_shot(server: LiveServer, driver, out: Path) -> None:
    """Sam's lobby: a challenge of Sam's own, the others' challenges, games in progress, recent games."""
    page = LivePage(driver, server)
    viewport(driver, 1280, 900)
    page.lobby("Sam")
    page.create(["me", "open"], variant="fischerandom", tc="300+3")
    page.lobby()
    page.wait(lambda: page.data("playing") and int(page.data("playing")) >= 3 and page.data("mine") == "1",
              "the games in the lobby")
    page.wait(lambda: page.js("return document.querySelectorAll('#finished tbody tr').length") >= 2, "the recent games")
    shoot(page, out / "web-lobby.png")


def server_shots(out: Path) -> None:
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data, "--first-move", "0", "--grace", "600")
        profiles = Profiles()
        try:
            asyncio.run(other_people(server))
            eight_player_pairs(server, profiles, out)
            lobby_shot(server, profiles.get(5)[4], out)
        finally:
            profiles.quit()
            server.stop()


# --------------------------------------------------------------------- phones
def phone() -> Any:
    """A phone profile: 390x844 with touch, at device scale 2 (the picture 780x1688)."""
    driver = chrome(phone=True)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": PHONE_SCALE, "mobile": True})
    return driver


def phone_two_player(server: LiveServer, out: Path) -> None:
    """Priya on her phone (White, by taps) against Ravi (a WebSocket client in a thread of his
    own, connected until the picture): a few moves, an arrow drawn by touch, the move list."""
    white = ["e2e4", "g1f3", "f1c4", "e1g1"]
    black = ["e7e5", "b8c6", "f8c5"]
    games: "queue.Queue[str]" = queue.Queue()

    async def ravi() -> None:
        client = await new_player(server, "Ravi", exact=True)
        created = await create(client, kind="two", variant="normal", tc="300+3",
                               seats=[{"kind": "open"}, {"kind": "me"}])
        games.put(created["gameId"])
        await client.connect(f"/ws/g/{created['gameId']}")
        for n, text in enumerate(black):
            await client.state(sans=lambda s, n=n: len(s) == 2 * n + 1, timeout=120)
            await client.send({"type": "move", "move": text})
            await client.state(sans=lambda s, n=n: len(s) == 2 * n + 2, timeout=30)
        await asyncio.get_event_loop().run_in_executor(None, shot.wait, 300)     # here until the picture
        await client.close()

    shot = threading.Event()
    thread = threading.Thread(target=lambda: asyncio.run(ravi()), daemon=True)
    thread.start()
    game = games.get(timeout=60)
    driver = phone()
    try:
        page = LivePage(driver, server)
        page.lobby("Priya")
        page.d.get(f"{server.url}/g/{game}#seat=0")            # joined from the lobby: White
        page.game_page()
        page.wait(lambda: page.seats() == "0" and page.data("status") == "playing", "White taken")
        for n, text in enumerate(white):
            page.wait(lambda: page.plies() == 2 * n, f"White's move {n + 1}", timeout=60)
            page.play(text)
        page.wait(lambda: page.plies() == 7, "the moves")
        page.press("#arrow-mode")                              # the arrow switch: a drag draws an arrow
        page.touch_drag("f3", "g5")
        page.wait(lambda: page.arrows() == [["0", "f3", "g5"]], "the arrow")
        page.press("#arrow-mode")
        page.js("window.scrollTo(0, 0)")
        shoot(page, out / "phone-two-player.png")
    finally:
        shot.set()
        thread.join(60)
        driver.quit()


def phone_eight_player(server: LiveServer, out: Path, sets: int = 5, seed: int = 3) -> None:
    """Zara on her phone: 8 Player Chess, Singles, White against seven fast bots, a few sets by taps."""
    driver = phone()
    try:
        page = LivePage(driver, server)
        page.lobby("Zara")
        page.create(["me"] + ["bot"] * 7, dict.fromkeys(range(1, 8), "fast"), kind="eight", mode="singles", tc="10+5")
        rng = random.Random(seed)
        for _ in range(sets):
            page.wait(lambda: page.state()["humanToMove"], "White's turn", timeout=60)
            state = page.state()
            moves = [o["text"] for t in state["targets"] for o in t["options"] if len(t["options"]) == 1]
            page.play(rng.choice(moves))
        page.wait(lambda: page.state()["humanToMove"], "White's turn", timeout=60)
        page.js("window.scrollTo(0, 0)")
        shoot(page, out / "phone-8pc.png")
    finally:
        driver.quit()


def phone_shots(out: Path) -> None:
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data, "--first-move", "0", "--grace", "600")
        try:
            phone_two_player(server, out)
            phone_eight_player(server, out)
        finally:
            server.stop()


# --------------------------------------------------------------------- a community's home
async def rated_season(server: LiveServer) -> List[Client]:
    """Six named people (WebSocket clients) play rated games of chess and Chess80 among
    themselves: the stronger, by a fixed order, win more; a few draws."""
    people = [await new_player(server, name, exact=True) for name in ("Ada", "Boris", "Chen", "Dara", "Emil", "Fay")]
    rng = random.Random(5)
    for round_number in range(4):
        for i in range(0, len(people), 2):
            a, b = people[(i + round_number) % 6], people[(i + 1 + 2 * round_number) % 6]
            if a is b:
                continue
            variant = "chess80" if round_number % 2 else "normal"
            await game_between(a, b, ["e2e4", "e7e5"], variant=variant, tc="300+3", rated=True)
            stronger_white = people.index(a) < people.index(b)
            if rng.random() < 0.2:
                await a.send({"type": "offer"})
                await b.state(drawOffer="w")
                await b.send({"type": "draw"})
            else:
                await (b if (rng.random() < 0.75) == stronger_white else a).send({"type": "resign"})
            await a.state(status="over")
    return people


async def tournament_under_way(server: LiveServer, people: List[Client]) -> str:
    """A Swiss of the six: round 1 played, round 2 being played."""
    creator = people[0]
    await creator.connect("/ws/lobby")
    await creator.send({"type": "tournament", "kind": "swiss", "name": "Saturday Swiss", "variant": "normal",
                        "tc": "300+3", "rounds": 4, "startsIn": 30})
    slug = (await creator.wait_for("tournamentCreated"))["id"]
    for p in people:
        await p.connect(f"/ws/t/{slug}")
        await p.wait_for("tournament")
        await p.send({"type": "join"})
        await p.wait_for("tournament", entered=True)
    await creator.send({"type": "start"})
    view = await creator.wait_for("tournament", round=1, timeout=30)
    by_id = {p.id: p for p in people}
    for n, g in enumerate(view["playing"]):
        loser = by_id[g["players"][n % 2]]
        other = Client(server)
        other.session = loser.session
        await other.connect(f"/ws/g/{g['gameId']}")
        await other.wait_for("hello")
        await other.send({"type": "resign"})
        await other.state(status="over")
        await other.ws.close()
    await creator.wait_for("tournament", round=2, timeout=30)
    return slug


def community_shots(out: Path) -> None:
    """Ratings, the leaderboard, quick pairing, a tournament and a game's analysis."""
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data, "--first-move", "0", "--grace", "600")
        driver = chrome()
        try:
            async def season() -> Any:
                people = await rated_season(server)
                slug = await tournament_under_way(server, people)
                # a casual game with mistakes in it, for its analysis: a Fried Liver attack, Black resigns
                a, b = people[0], people[1]
                analysed = await game_between(a, b, ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5",
                                        "f6d5", "g5f7", "e8f7", "d1f3", "f7e6", "b1c3", "c6b4", "f3e4", "c7c6",
                                        "a2a3", "b4a6", "d2d4", "a6c7"], variant="normal", tc="600+5")
                await b.send({"type": "resign"})
                await a.state(status="over")
                first = people[0].name
                for p in people:
                    await p.close()
                return first, slug, analysed
            first, slug, analysed = asyncio.run(season())
            page = LivePage(driver, server)
            viewport(driver, 1280, 900)
            page.d.get(f"{server.url}/leaderboard")
            page.wait(lambda: page.data("ready") == "1", "the leaderboards")
            shoot(page, out / "web-leaderboard.png")
            page.d.get(server.url + player_path(first))
            page.wait(lambda: page.data("ready") == "1", "Ada's page")
            shoot(page, out / "web-player-ratings.png")
            page.d.get(f"{server.url}/t/{slug}")
            page.wait(lambda: page.data("ready") == "1", "the tournament")
            shoot(page, out / "web-tournament.png")

            async def seeks() -> None:
                for name, variant, tc in (("Gus", "normal", "180+2"), ("Hana", "normal", "300+3"),
                                          ("Ivo", "8piece", "180+2"), ("Jo", "normal", "180+2")):
                    c = await new_player(server, name, exact=True)
                    await c.send({"type": "seek", "variant": variant, "tc": tc, "rated": True})
                    if name != "Jo":
                        await c.wait_for("seeking")
                    holders.append(c)
            holders: List[Client] = []
            # the seekers stay connected in a thread of their own until the picture is taken
            done = threading.Event()

            def keep() -> None:
                async def run() -> None:
                    await seeks()
                    await asyncio.get_event_loop().run_in_executor(None, done.wait, 120)
                asyncio.run(run())
            thread = threading.Thread(target=keep, daemon=True)
            thread.start()
            # an engine online as a bot account (our own engine, through the bot client)
            bot = subprocess.Popen([sys.executable, "-m", "xboard_engine", "bot", "--server", server.url,
                                    "--engine", f"{sys.executable} -m xboard_engine", "--name", "Kestrel",
                                    "--variants", "normal,chess80,8piece", "--token-file", str(Path(data) / "bot.token")],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=str(ROOT))
            try:
                page.lobby("Kim")
                page.wait(lambda: page.data("seeks") == "2", "two seeks waiting (Jo was paired with Gus)")
                page.wait(lambda: page.js("return document.querySelectorAll('#bots tbody tr a').length") >= 1,
                          "the bot online")
                shoot(page, out / "web-quick-pairing.png")
            finally:
                bot.terminate()
                bot.wait(10)
            done.set()
            # a finished game's analysis, the engine's lines and the marked moves
            page.open(f"/g/{analysed}")
            page.press("#request-analysis")
            page.wait(lambda: page.data("analysis") == "done", "the analysis", timeout=120)
            viewport(driver, 1280, 1000)
            shoot(page, out / "web-analysis.png")

            async def eight() -> str:
                host, game = await finished_hot_seat_game(server, "Octavia")
                await host.close()
                return game
            page.open(f"/g/{asyncio.run(eight())}")
            page.press("#request-analysis")
            page.wait(lambda: page.data("analysis") == "done", "the 8 Player analysis", timeout=120)
            page.js("document.querySelector('#analysis-notes li.note-blunder a').click()")
            page.wait(lambda: page.data("shown") is not None, "the board after the blunder")
            shoot(page, out / "web-8pc-analysis.png")
        finally:
            driver.quit()
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "images"), help="directory (docs/images)")
    parser.add_argument("--only", choices=("board", "server", "phone", "community"), help="take only these pictures")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "board"):
        board_shots(out)
    if args.only in (None, "server"):
        server_shots(out)
    if args.only in (None, "phone"):
        phone_shots(out)
    if args.only in (None, "community"):
        community_shots(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
