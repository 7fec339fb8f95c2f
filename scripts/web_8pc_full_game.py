"""A whole game of 8 Player Chess on one person's board, played to its end: the real server
(`xboard-engine web --no-browser`), the game made over the lobby's WebSocket as the board's owner
(White a seat of the owner's, seven bots; no clock), its real page /g/SLUG in headless Chromium, and
White's moves made by clicks on the board.  At the end the page must show the result, and the
server's record (/g/SLUG.txt) must replay with ``Game.from_record`` to the same result and scores.

    python scripts/web_8pc_full_game.py --mode singles [--bots random|fast] [--seed N]
                                        [--max-minutes M] [--resign-after SETS [--leave]]

White chooses among the moves the page offers: a capture if there is one (a target square holding a
unit), else a random move; a promotion is finished in the page's chooser.  If White is eliminated (or
resigns, ``--resign-after``) the bots play on to the end.  Prints the number of moves, the human's
clicks, the wall time and the result; exits 1 if a check failed or the game did not end in time
(``--max-minutes``, default 20: a whole game of random bots is some 2,000 to 2,600 actions, about
5 minutes here).

Needs what the end-to-end tests need: aiohttp, selenium, Debian's chromium and chromium-driver.
"""
import argparse
import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from live_client import LiveServer  # noqa: E402
from web_page import EightPage, PageTimeout, chrome, have_browser, make_game  # noqa: E402

from xboard_engine.multi.game import MODES, Game  # noqa: E402


class GameNotOver(Exception):
    """The game did not reach its end within the time allowed."""


def choose_move(state: Dict[str, Any], rng: random.Random) -> Dict[str, Any]:
    """Among the page's click targets: a capture (its second square holds a unit), else any."""
    targets = state["targets"]
    captures = [t for t in targets if t["path"][-1] in state["pieces"]]
    return rng.choice(captures or targets)


def play_by_clicks(page: EightPage, state: Dict[str, Any], target: Dict[str, Any], rng: random.Random) -> int:
    """Make ``target``'s move by clicking its squares (and a picture in the chooser when it opens);
    the number of clicks made."""
    clicks = 0
    for square in target["path"]:
        page.click(square)
        clicks += 1
    if page.chooser_open():
        option = rng.choice(target["options"])
        page.choose(option["text"])
        clicks += 1
    elif len(target["options"]) > 1:
        raise AssertionError(f"no chooser for the promotion {target['options']}")
    page.wait(lambda: page.state()["version"] != state["version"], f"the server to take {target['options']}")
    return clicks


def resign_by_click(page: EightPage, state: Dict[str, Any]) -> int:
    """Press Resign and accept the page's confirmation; the clicks made (1)."""
    page.js("window.confirm = () => true")
    page.d.find_element("id", "resign").click()
    page.wait(lambda: page.state()["version"] != state["version"], "the resignation")
    return 1


def get(server: LiveServer, path: str) -> str:
    with urllib.request.urlopen(server.url + path, timeout=30) as response:
        return response.read().decode("utf-8")


def server_result(server: LiveServer, slug: str) -> Optional[str]:
    """The Result tag of the server's record of the game, or None while the game goes on."""
    for line in get(server, f"/g/{slug}.txt").splitlines():
        if line.startswith("[Result "):
            value = line[len('[Result "'):-2]
            return None if value == "*" else value
    return None


def play_full_game(server: LiveServer, driver, mode: str, bots: str = "random", seed: int = 1,
                   max_minutes: float = 20.0, resign_after: Optional[int] = None,
                   leave_after_resigning: bool = False) -> Dict[str, Any]:
    """Play one game on the page to its end (White a clicking human, seven ``bots``) and check the
    page's result against the server's record replayed.  With ``leave_after_resigning`` the player
    closes the page once White has resigned and opens it again when the server's game is over (the
    page's drawing of every state is what takes the time).  Returns the figures; raises GameNotOver if
    the game has not ended after ``max_minutes`` (the figures so far in its ``args[1]``), AssertionError
    if the page and the record disagree."""
    rng = random.Random(seed)
    slug = make_game(server, kind="eight", mode=mode, tc="none",
                     seats=[{"kind": "me"}] + [{"kind": "bot", "level": bots}] * 7)
    page = EightPage(driver, server).open(f"/g/{slug}")
    started = time.monotonic()
    deadline = started + 60 * max_minutes
    clicks = human_moves = 0
    promotions = 0
    resigned = False
    figures: Dict[str, Any] = {"mode": mode}
    while True:
        left = deadline - time.monotonic()
        try:
            page.wait(lambda: page.state()["humanToMove"] or page.state()["result"], "White's turn or the end",
                      timeout=max(0.1, left))
        except PageTimeout as error:
            state = page.state()
            figures.update(moves=len(state["moves"]), clicks=clicks, human_moves=human_moves,
                           seconds=time.monotonic() - started, result=None)
            raise GameNotOver(str(error), figures) from None
        state = page.state()
        if state["result"]:
            break
        sets = state["moves"][-1][0] if state["moves"] else 0
        if resign_after is not None and sets >= resign_after:
            clicks += resign_by_click(page, state)
            resigned = True
            if leave_after_resigning:
                driver.get("about:blank")
                while server_result(server, slug) is None:
                    if time.monotonic() > deadline:
                        figures.update(moves=len(state["moves"]), clicks=clicks, human_moves=human_moves,
                                       seconds=time.monotonic() - started, result=None)
                        raise GameNotOver("the bots did not finish the game in time", figures)
                    time.sleep(0.2)
                page = EightPage(driver, server).open(f"/g/{slug}")
            continue
        target = choose_move(state, rng)
        promotions += len(target["options"]) > 1
        clicks += play_by_clicks(page, state, target, rng)
        human_moves += 1
    seconds = time.monotonic() - started
    state = page.state()
    result = state["result"]
    # the page shows the end
    status = page.text("status")
    assert status.startswith("Game over: ") and result["reason"] in status, status
    assert page.scores_shown() == result["scores"], (page.scores_shown(), result["scores"])
    assert all(s["score"] == p for s, p in zip(state["seats"], result["scores"]))
    # the server's record replays to the same end
    record = get(server, f"/g/{slug}.txt")
    replayed = Game.from_record(record)
    assert replayed.over, "the record replays to a game not over"
    got = replayed.result
    assert got.reason == result["reason"], (got.reason, result["reason"])
    assert list(got.winners) == result["winners"], (got.winners, result["winners"])
    assert list(got.scores) == result["scores"], (got.scores, result["scores"])
    assert got.draw == result["draw"]
    assert replayed.mode == mode
    assert len(replayed.actions) == len(state["moves"]), (len(replayed.actions), len(state["moves"]))
    assert page.statuses_shown() == [replayed.status(s) for s in range(8)]
    figures.update(moves=len(state["moves"]), sets=state["moves"][-1][0], clicks=clicks, human_moves=human_moves,
                   promotions=promotions, resigned=resigned, white=replayed.status(0), seconds=seconds,
                   result=result, status=status, record_lines=len(record.splitlines()))
    return figures


def describe(figures: Dict[str, Any]) -> str:
    result = figures.get("result")
    words = (f"mode {figures['mode']}: {figures['moves']} moves (actions)"
             + (f" in {figures['sets']} sets" if "sets" in figures else "")
             + f", {figures['human_moves']} moves by White with {figures['clicks']} human clicks"
             + (f" ({figures['promotions']} promotions)" if figures.get("promotions") else "")
             + f", {figures['seconds']:.1f} s wall time")
    if result is None:
        return words + ", result: none (game not over)"
    return (words + f"\n  White ended {figures['white']}{' (resigned)' if figures['resigned'] else ''}"
            + f"\n  page: {figures['status']}\n  scores {result['scores']}, winners {result['winners']}, "
            + f"draw {result['draw']}\n  record ({figures['record_lines']} lines) replays to the same result and scores")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=MODES, default="singles")
    parser.add_argument("--bots", choices=("random", "fast"), default="random", help="the seven bots' level")
    parser.add_argument("--seed", type=int, default=1, help="seed of White's choices")
    parser.add_argument("--max-minutes", type=float, default=20.0, help="give up after this long (default %(default)s)")
    parser.add_argument("--resign-after", type=int, default=None, metavar="SETS",
                        help="White resigns after this many sets; the bots play on")
    parser.add_argument("--leave", action="store_true",
                        help="with --resign-after: close the page after resigning, reopen it at the end")
    args = parser.parse_args(argv)
    if not have_browser():
        print("needs selenium, Debian's chromium and chromium-driver", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(data, local=True)
        driver = chrome()
        driver.set_window_size(1400, 1000)
        try:
            figures = play_full_game(server, driver, args.mode, args.bots, args.seed, args.max_minutes,
                                     args.resign_after, args.leave)
        except GameNotOver as error:
            print(error.args[0], file=sys.stderr)
            if len(error.args) > 1:
                print(describe(error.args[1]))
            return 1
        except AssertionError as error:
            print(f"check failed: {error}", file=sys.stderr)
            return 1
        finally:
            driver.quit()
            server.stop()
    print(describe(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
