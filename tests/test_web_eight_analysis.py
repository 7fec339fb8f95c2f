"""Learning from an 8 Player Chess game on the real server over real WebSockets: the computer
analysis judges each move from its mover's side (a hung rook is a blunder, with the better move),
engine lines on any position, the boards of the game's past positions, and an analysis board of
one's own from any position."""
import asyncio

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import (HUNG_ROOK_MOVES, LiveServer, close_all, create, finished_hot_seat_game,  # noqa: E402
                         new_player, run)

MOVES = HUNG_ROOK_MOVES
HUNG_ROOK = len(MOVES)                 # the action number (from 1) of Rd3, White's blunder


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("eight-analysis"), "--first-move", "0")
    yield s
    s.stop()


def test_an_8_player_games_analysis_judges_each_move_for_its_mover_and_marks_the_hung_rook(server):
    async def scenario():
        host, game = await finished_hot_seat_game(server, "Octavia")
        await host.send({"type": "analyse"})
        await host.wait_for("analysis", status=lambda s: s in ("queued", "running"))
        done = await host.wait_for("analysis", status="done", timeout=90)
        data = done["data"]
        assert data["eight"] is True
        plies = data["plies"]
        assert [p["san"] for p in plies[:HUNG_ROOK]] == MOVES
        assert [p["seat"] for p in plies[:HUNG_ROOK]] == [n % 8 for n in range(HUNG_ROOK)]
        rook = plies[HUNG_ROOK - 1]
        assert rook["judgement"] == "blunder" and rook["best"] not in (None, "Rd3")
        assert rook["played"] <= rook["score"] - 250          # a rook's worth, give or take, from White's side
        assert data["counts"][0]["blunder"] >= 1
        # resignations are listed but not judged
        assert [p["kind"] for p in plies[HUNG_ROOK:]] == ["resign"] * 7
        assert all("judgement" not in p for p in plies[HUNG_ROOK:])
        # every judged move: its side's chances after it, and no move better than the best
        for p in plies[:HUNG_ROOK]:
            assert -1 <= p["chance"] <= 1 and p["played"] <= p["score"]
            assert (p["judgement"] is None) == (p["best"] is None)
        watcher = await new_player(server, "Watcher")            # someone opening the game later sees it
        await watcher.connect(f"/ws/g/{game}")
        seen = await watcher.wait_for("analysis")
        assert seen["status"] == "done" and seen["data"] == data
        await watcher.send({"type": "analyse"})
        assert (await watcher.wait_for("error"))["message"] == "this game's analysis is done"
        await close_all(host, watcher)
    run(scenario(), timeout=150)


def test_an_8_player_games_past_boards_engine_lines_and_an_analysis_board_from_a_position(server):
    async def scenario():
        host, game = await finished_hot_seat_game(server, "Ottilie")
        # the board before Rd3 and after it: the rook on d1 moves to d3
        await host.send({"type": "position", "ply": HUNG_ROOK - 1})
        before = await host.wait_for("position")
        await host.send({"type": "position", "ply": HUNG_ROOK})
        after = await host.wait_for("position")
        assert before["ply"] == HUNG_ROOK - 1 and before["turn"] == 0
        assert before["pieces"]["d1"] == [0, 4] and "d3" not in before["pieces"]
        assert after["pieces"]["d3"] == [0, 4] and "d1" not in after["pieces"] and after["lastMove"] == ["d1", "d3"]
        await host.send({"type": "position", "ply": 0})
        start = await host.wait_for("position")
        assert start["pieces"]["d2"] == [0, 1] and start["lastMove"] is None
        await host.send({"type": "position", "ply": 99})
        assert (await host.wait_for("error"))["message"] == f"ply: 0 to {HUNG_ROOK + 7}"
        # lines on the position before Rd3: White's, as the 8 Player bots search it
        await host.send({"type": "lines", "ply": HUNG_ROOK - 1})
        line = await host.wait_for("lines", timeout=20)
        assert line["ply"] == HUNG_ROOK - 1 and line["depth"] >= 1 and line["pv"][0].startswith("w ")
        done = await host.wait_for("lines", done=True, timeout=20)
        assert done["seat"] == 0 and done["best"] not in (None, "Rd3")
        # an analysis board from the position before Rd3: all eight seats the asker's, no clock
        await host.send({"type": "board", "ply": HUNG_ROOK - 1})
        made = await host.wait_for("created")
        await host.connect(f"/ws/g/{made['gameId']}")
        hello = await host.wait_for("hello")
        assert hello["yourSeats"] == list(range(8)) and hello["config"]["analysis"] is True
        state = await host.state(status="playing")
        assert [m[3] for m in state["moves"]] == MOVES[:-1] and state["turn"] == 0
        await host.send({"type": "move", "move": "h3", "seat": 0})        # the better move, this time
        state = await host.state(moves=lambda m: len(m) == HUNG_ROOK)
        assert state["moves"][-1][3] == "h3" and state["turn"] == 1
        await host.send({"type": "lines", "ply": HUNG_ROOK})             # on one's own board, while it goes on
        assert (await host.wait_for("lines", timeout=20))["pv"][0].startswith("r ")
        await host.wait_for("lines", done=True, timeout=20)
        # no board from the game's last position: it is over there
        await host.connect(f"/ws/g/{game}")
        await host.wait_for("hello")
        await host.send({"type": "board", "ply": HUNG_ROOK + 7})
        assert "the game is over in that position" in (await host.wait_for("error"))["message"]
        await close_all(host)
    run(scenario(), timeout=150)


def test_past_boards_lines_and_analysis_wait_for_an_8_player_game_between_people_to_end(server):
    async def scenario():
        host = await new_player(server, "Livia")
        guest = await new_player(server, "Gaius")
        made = await create(host, kind="eight", mode="singles", tc="none",
                            seats=[{"kind": "me"}, {"kind": "open"}] + [{"kind": "bot", "level": "random"}] * 6)
        game = made["gameId"]
        await host.connect(f"/ws/g/{game}")
        await host.wait_for("hello")
        await guest.connect(f"/ws/g/{game}")
        await guest.wait_for("hello")
        await guest.send({"type": "take", "seat": 1})
        await guest.wait_for("hello", yourSeats=[1])
        await host.state(status="playing")
        for message, words in (({"type": "position", "ply": 0}, "once the game is over"),
                               ({"type": "lines", "ply": 0}, "once the game is over"),
                               ({"type": "analyse"}, "once it is over"),
                               ({"type": "board", "ply": 0}, "once the game is over")):
            await host.send(message)
            assert words in (await host.wait_for("error"))["message"]
        await close_all(host, guest)
    run(scenario())


async def next_of(client, kinds):
    """The next message of one of ``kinds``."""
    while True:
        data = await client.receive(10)
        if data.get("type") in kinds:
            return data


def test_a_person_keeps_five_analysis_boards_open_and_a_sixth_closes_the_oldest(server):
    async def scenario():
        host, game = await finished_hot_seat_game(server, "Boards")
        made = []
        while len(made) < 6:
            await host.send({"type": "board", "ply": len(made)})
            reply = await next_of(host, ("created", "error"))
            if reply["type"] == "error":                 # one game every few seconds past the first five
                assert "too fast" in reply["message"], reply
                await asyncio.sleep(1)
                continue
            made.append(reply["gameId"])
        watcher = await new_player(server, "BoardWatcher")
        states = []
        for slug in made:
            await watcher.connect(f"/ws/g/{slug}")
            states.append(await watcher.wait_for("state"))
        assert states[0]["status"] == "aborted"
        assert "at most 5 analysis boards" in states[0]["outcome"]["reason"]
        assert [s["status"] for s in states[1:]] == ["playing"] * 5
        # boards are not counted among the 20 unfinished games: a challenge can still be made
        await host.connect("/ws/lobby")
        await host.wait_for("lobby")
        while True:
            await host.send({"type": "create", "kind": "two", "variant": "normal", "tc": "300+3",
                             "seats": [{"kind": "me"}, {"kind": "open"}]})
            reply = await next_of(host, ("created", "error"))
            if reply["type"] == "created":
                break
            assert "too fast" in reply["message"], reply
            await asyncio.sleep(1)
        await close_all(host, watcher)
    run(scenario(), timeout=120)
