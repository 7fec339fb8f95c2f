"""A community's home on the real server over real WebSockets: rated games (Glicko-2 for two-player
variants, OpenSkill for 8 Player Chess) and what is never rated, the leaderboards and a player's
ratings and history, and seeks with automatic pairing (quick pairing, rating ranges, withdrawal,
a seek never paired with its owner, a seek that dies with its page)."""
import asyncio
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")

from live_client import LiveServer, close_all, create, new_player, run, two_players  # noqa: E402

from xboard_engine.web import ratings  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("community"), "--first-move", "0", "--max-challenges", "50")
    yield s
    s.stop()


async def get_json(client, path):
    async with client.session.get(client.server.url + path) as response:
        return response.status, await response.json()


async def rated_game(server, variant="normal", moves=("e2e4", "e7e5"), ender="resign", loser=1):
    """Alice (White) and Bob (Black) in a rated game: ``moves`` played, then ``loser`` resigns (or
    ``ender`` "draw": a draw agreed)."""
    alice, bob, game, _ = await two_players(server, variant, "300+3", rated=True)
    players = [alice, bob]
    for n, move in enumerate(moves):
        await players[n % 2].send({"type": "move", "move": move})
        await alice.state(sans=lambda s, n=n: len(s) == n + 1)
    if ender == "draw":
        await alice.send({"type": "offer"})
        await bob.wait_for("state", offers=lambda o: True)
        await bob.send({"type": "draw"})
    else:
        await players[loser].send({"type": "resign"})
    state = await alice.state(status="over")
    return alice, bob, game, state


# ---------------------------------------------------------------- rated two-player games
def test_a_rated_game_changes_both_glicko2_ratings_as_the_formula_says(server):
    async def scenario():
        alice, bob, game, state = await rated_game(server)
        assert state["rated"] is True
        new_white, new_black = ratings.rate_game(ratings.Glicko(), ratings.Glicko(), 1.0)
        assert state["ratingChanges"]["seats"] == {"0": [1500, round(new_white.rating)],
                                                   "1": [1500, round(new_black.rating)]}
        status, page = await get_json(bob, f"/p/{alice.id}.json")
        assert status == 200
        (mine,) = page["ratings"]
        assert (mine["key"], mine["rating"], mine["games"], mine["provisional"]) == (
            "two:normal", round(new_white.rating), 1, True)
        assert abs(mine["deviation"] - new_white.deviation) < 0.2
        assert [(h["key"], h["rating"]) for h in page["history"]] == [("two:normal", round(new_white.rating))]
        await close_all(alice, bob)
    run(scenario())


def test_a_second_rated_game_starts_from_the_first_ones_ratings(server):
    async def scenario():
        alice = await new_player(server, "Ann")
        bob = await new_player(server, "Ben")
        expected = [ratings.Glicko(), ratings.Glicko()]
        for loser in (1, 0):                             # Ann wins, then Ben wins (colours as made)
            await alice.connect("/ws/lobby")
            made = await create(alice, kind="two", variant="chess80", tc="300+3", rated=True,
                                seats=[{"kind": "me"}, {"kind": "open"}])
            game = made["gameId"]
            await alice.connect(f"/ws/g/{game}")
            await bob.connect(f"/ws/g/{game}")
            await bob.wait_for("hello")
            await bob.send({"type": "take", "seat": 1})
            await alice.state(status="playing")
            await alice.send({"type": "move", "move": "e2e4"})
            await bob.state(sans=lambda s: len(s) == 1)
            await bob.send({"type": "move", "move": "e7e5"})
            await alice.state(sans=lambda s: len(s) == 2)
            await [alice, bob][loser].send({"type": "resign"})
            state = await alice.state(status="over")
            expected = list(ratings.rate_game(expected[0], expected[1], 1.0 if loser == 1 else 0.0))
            assert state["ratingChanges"]["seats"]["0"][1] == round(expected[0].rating)
            assert state["ratingChanges"]["seats"]["1"][1] == round(expected[1].rating)
        status, board = await get_json(alice, "/leaderboard.json?pool=two:chess80")
        assert status == 200
        rows = {row["name"]: row for row in board["boards"][0]["players"]}
        assert rows[alice.name]["rating"] == round(expected[0].rating) and rows[alice.name]["games"] == 2
        assert rows[bob.name]["rating"] == round(expected[1].rating)
        status, every = await get_json(alice, "/leaderboard.json")
        assert {"key": "two:chess80", "words": "chess80"} in every["pools"]
        assert (await get_json(alice, "/leaderboard.json?pool=two:nonsense"))[0] == 404
        async with alice.session.get(server.url + "/leaderboard") as response:
            assert response.status == 200 and "leaders.js" in await response.text()
        await close_all(alice, bob)
    run(scenario())


def test_a_rated_game_ended_before_each_side_moved_changes_no_rating(server):
    async def scenario():
        alice, bob, game, state = await rated_game(server, moves=("e2e4",), loser=1)
        assert state["ratingChanges"] == {"unrated": "the game ended before each side moved"}
        status, page = await get_json(alice, f"/p/{alice.id}.json")
        assert page["ratings"] == [] and page["history"] == []
        await close_all(alice, bob)
    run(scenario())


def test_a_casual_game_changes_no_rating(server):
    async def scenario():
        alice, bob, game, _ = await two_players(server)
        await alice.send({"type": "move", "move": "e2e4"})
        await bob.state(sans=lambda s: len(s) == 1)
        await bob.send({"type": "move", "move": "e7e5"})
        await alice.state(sans=lambda s: len(s) == 2)
        await bob.send({"type": "resign"})
        state = await alice.state(status="over")
        assert state["rated"] is False and state["ratingChanges"] is None
        assert (await get_json(alice, f"/p/{alice.id}.json"))[1]["ratings"] == []
        await close_all(alice, bob)
    run(scenario())


@pytest.mark.parametrize("challenge, why", [
    (dict(kind="two", tc="300+3", seats=[{"kind": "me"}, {"kind": "bot"}]), "games against bots are never rated"),
    (dict(kind="two", tc="300+3", seats=[{"kind": "me"}, {"kind": "me"}]), "between two people"),
    (dict(kind="two", tc="none", seats=[{"kind": "me"}, {"kind": "open"}]), "needs a clock"),
    (dict(kind="two", tc="300+3", fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1", seats=[{"kind": "me"}, {"kind": "open"}]),
     "set position"),
    (dict(kind="eight", mode="singles", tc="10+5", seats=[{"kind": "me"}] + [{"kind": "bot"}] * 7), "two people"),
])
def test_what_cannot_be_rated_is_refused_with_the_reason(server, challenge, why):
    async def scenario():
        alice = await new_player(server, "Rae")
        await alice.send(dict({"type": "create", "rated": True}, **challenge))
        error = await alice.wait_for("error")
        assert error["message"].startswith("rated: ") and why in error["message"]
        for bad in ("yes", 1):
            await alice.send({"type": "create", "rated": bad, "kind": "two", "seats": [{"kind": "me"}, {"kind": "open"}]})
            assert (await alice.wait_for("error"))["message"] == "rated: true or false"
        await close_all(alice)
    run(scenario())


# ---------------------------------------------------------------- rated 8 Player Chess
def test_a_rated_8_player_game_rates_its_people_by_their_final_standing(server):
    async def scenario():
        people = [await new_player(server, f"Oct{n}") for n in range(3)]
        made = await create(people[0], kind="eight", mode="singles", tc="none", rated=True,
                            seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
                            + [{"kind": "bot", "level": "random"}] * 5)
        game = made["gameId"]
        for n, p in enumerate(people):
            await p.connect(f"/ws/g/{game}")
            await p.wait_for("hello")
            if n:
                await p.send({"type": "take", "seat": n})
                await p.wait_for("hello", yourSeats=[n])
        state = await people[0].state(status="playing")
        # White (seat 0, people[0]) resigns at once; then seat 1 when its turn comes; seat 2 stays
        await people[0].send({"type": "resign", "seat": 0})
        await people[1].state(status="playing", turn=1, timeout=30)
        await people[1].send({"type": "resign", "seat": 1})
        # the game goes on among the bots; the last person resigns when their turn comes
        await people[2].state(turn=2, timeout=60)
        await people[2].send({"type": "resign", "seat": 2})
        state = await people[0].state(result=lambda r: r is not None, timeout=120)
        changes = state["ratingChanges"]
        assert set(changes["seats"]) == {"0", "1", "2"}
        # all three resigned with no points: the same place, so OpenSkill moves their means alike
        before = {s: b for s, (b, a) in changes["seats"].items()}
        assert before == {"0": 1500, "1": 1500, "2": 1500}
        _, page = await get_json(people[0], f"/p/{people[0].id}.json")
        assert [r["key"] for r in page["ratings"]] == ["eight:singles"] and page["ratings"][0]["games"] == 1
        await close_all(*people)
    run(scenario(), timeout=200)


# ---------------------------------------------------------------- seeks
async def seeker(server, name):
    client = await new_player(server, name)
    return client


def test_two_compatible_seeks_are_paired_at_once_into_a_game_that_begins(server):
    async def scenario():
        a, b = await seeker(server, "Sky"), await seeker(server, "Sol")
        await a.send({"type": "seek", "variant": "8piece", "tc": "180+2", "rated": True})
        await a.wait_for("seeking")
        view = await b.wait_for("lobby", seeks=lambda s: any(x["player"] == a.id for x in s))
        assert view["seekCounts"]["8piece 180+2 rated"] == 1
        assert {"name": a.name, "rating": 1500, "provisional": True, "tc": "180+2"}.items() <= \
            next(x for x in view["seeks"] if x["player"] == a.id).items()
        await b.send({"type": "seek", "variant": "8piece", "tc": "180+2", "rated": True})
        pa, pb = await a.wait_for("paired"), await b.wait_for("paired")
        assert pa["gameId"] == pb["gameId"]
        await a.connect(pa["path"].replace("/g/", "/ws/g/"))
        hello = await a.wait_for("hello")
        assert hello["config"]["variant"] == "8piece" and hello["config"]["tc"] == "180+2"
        assert hello["config"]["rated"] is True and len(hello["yourSeats"]) == 1
        state = await a.state(status="playing")
        assert {o["player"] for o in state["online"]} == {a.id, b.id}
        await close_all(a, b)
    run(scenario())


def test_seeks_of_another_kind_or_outside_a_rating_range_wait_and_a_seek_never_meets_its_owner(server):
    async def scenario():
        a, b, c = await seeker(server, "Tam"), await seeker(server, "Tim"), await seeker(server, "Tom")
        await a.send({"type": "seek", "variant": "normal", "tc": "600+5", "rated": False, "min": 1700})
        await a.wait_for("seeking")
        await a.send({"type": "seek", "variant": "normal", "tc": "600+5", "rated": False})   # replaces the first
        await a.wait_for("seeking")
        await b.send({"type": "seek", "variant": "normal", "tc": "600+5", "rated": True})    # rated: no match
        await b.wait_for("seeking")
        await b.send({"type": "seek", "variant": "chess80", "tc": "600+5", "rated": False})  # other variant
        await b.wait_for("seeking")
        await c.send({"type": "seek", "variant": "normal", "tc": "300+3", "rated": False, "max": 1400})
        await c.wait_for("seeking")
        view = await a.wait_for("lobby", seekCount=4)
        assert view["seekCounts"] == {"normal 600+5 casual": 1, "normal 600+5 rated": 1, "chess80 600+5 casual": 1,
                                      "normal 300+3 casual": 1}
        await a.send({"type": "seek", "variant": "normal", "tc": "300+3", "rated": False})   # c wants <= 1400
        await a.wait_for("seeking")
        mine = [x for x in (await a.wait_for("lobby", seekCount=5))["seeks"] if x["player"] == a.id]
        await a.send({"type": "accept", "seek": mine[0]["id"]})
        assert (await a.wait_for("error"))["message"] == "that seek is yours"
        await a.send({"type": "seek", "variant": "normal", "tc": "60+0", "rated": False})
        await a.wait_for("seeking")
        await a.send({"type": "seek", "variant": "normal", "tc": "180+2", "rated": False})
        error = await a.wait_for("error")
        assert "at most 3" in error["message"]
        await a.send({"type": "unseek"})                                                       # all of them
        view = await b.wait_for("lobby", seekCount=3)
        assert all(x["player"] != a.id for x in view["seeks"])
        await close_all(a, b, c)
    run(scenario())


def test_a_seek_taken_from_the_list_pairs_and_a_closed_page_takes_its_seeks_away(server):
    async def scenario():
        a, b = await seeker(server, "Uma"), await seeker(server, "Ugo")
        await a.send({"type": "seek", "variant": "fullcavalry", "tc": "900+10", "rated": False})
        await a.wait_for("seeking")
        view = await b.wait_for("lobby", seeks=lambda s: any(x["player"] == a.id for x in s))
        target = next(x for x in view["seeks"] if x["player"] == a.id)
        await b.send({"type": "accept", "seek": target["id"]})
        pa, pb = await a.wait_for("paired"), await b.wait_for("paired")
        assert pa["gameId"] == pb["gameId"]
        await b.send({"type": "accept", "seek": target["id"]})
        assert (await b.wait_for("error"))["message"] == "that seek is gone (taken or withdrawn)"
        await a.connect("/ws/lobby")                    # a's lobby page closed, a new one opened
        await a.send({"type": "seek", "variant": "fullcavalry", "tc": "60+0", "rated": False})
        await a.wait_for("seeking")
        await b.wait_for("lobby", seeks=lambda s: any(x["player"] == a.id for x in s))
        await a.ws.close()
        await b.wait_for("lobby", seeks=lambda s: all(x["player"] != a.id for x in s))
        await close_all(a, b)
    run(scenario())


@pytest.mark.parametrize("seek, why", [
    ({"tc": "none"}, "needs a clock"),
    ({"tc": "40/300"}, "seconds + increment"),
    ({"variant": "nonsense"}, "unknown variant"),
    ({"min": 1800, "max": 1200}, "min is above max"),
    ({"min": "high"}, "min: a rating"),
    ({"rated": 1}, "rated: true or false"),
])
def test_bad_seeks_are_refused_with_the_reason(server, seek, why):
    async def scenario():
        a = await seeker(server, "Val")
        await a.send(dict({"type": "seek", "variant": "normal", "tc": "300+3"}, **seek))
        assert why in (await a.wait_for("error"))["message"]
        await close_all(a)
    run(scenario())


# ---------------------------------------------------------------- 8 Player tables that bots fill
def test_an_8_player_table_fills_with_bots_after_its_stated_wait(server):
    async def scenario():
        host, guest = await new_player(server, "Hal"), await new_player(server, "Gus")
        await host.send({"type": "create", "kind": "eight", "mode": "singles", "tc": "none", "botsAfter": 5,
                         "seats": [{"kind": "me"}] + [{"kind": "open"}] * 7})
        error = await host.wait_for("error")
        assert "botsAfter: seconds (10 to 3600)" in error["message"]
        made = await create(host, kind="eight", mode="singles", tc="none", botsAfter=10,
                            seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "invite"}] + [{"kind": "open"}] * 5)
        started = time.monotonic()
        await guest.connect(f"/ws/g/{made['gameId']}")
        await guest.wait_for("hello")
        await guest.send({"type": "take", "seat": 3})
        await guest.wait_for("hello", yourSeats=[3])
        state = await guest.state(status="playing", timeout=30)
        waited = time.monotonic() - started
        assert 8 <= waited <= 20                          # 10 s, checked every 5 s
        kinds = [o["kind"] for o in state["online"]]
        assert kinds == ["player", "bot", "bot", "player", "bot", "bot", "bot", "bot"]
        assert {state["online"][0]["player"], state["online"][3]["player"]} == {host.id, guest.id}
        await close_all(host, guest)
    run(scenario())


# ---------------------------------------------------------------- learning from a game
async def fools_mate(server):
    """Alice (White) and Bob play the fool's mate: 1. f3 e5 2. g4?? Qh4#."""
    alice, bob, game, _ = await two_players(server)
    players = [alice, bob]
    for n, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        await players[n % 2].send({"type": "move", "move": move})
        state = await alice.state(sans=lambda s, n=n: len(s) == n + 1)
    assert state["status"] == "over" and state["result"] == "0-1"
    return alice, bob, game


def test_a_finished_games_analysis_marks_the_blunder_with_the_better_move_and_everyone_sees_it(server):
    async def scenario():
        alice, bob, game = await fools_mate(server)
        await bob.send({"type": "analyse"})
        queued = await bob.wait_for("analysis", status=lambda s: s in ("queued", "running"))
        assert queued["status"] in ("queued", "running")
        done = await alice.wait_for("analysis", status="done", timeout=60)
        data = done["data"]
        assert [p["san"] for p in data["plies"]] == ["f3", "e5", "g4", "Qh4#"]
        g4 = data["plies"][2]
        assert g4["judgement"] == "blunder" and g4["best"] and g4["best"] != "g4"
        assert data["plies"][3]["final"] == "0-1" and data["plies"][3]["judgement"] is None
        assert data["counts"][0]["blunder"] >= 1 and data["counts"][1]["blunder"] == 0
        await alice.send({"type": "analyse"})
        assert (await alice.wait_for("error"))["message"] == "this game's analysis is done"
        watcher = await new_player(server, "Wes")            # someone opening the game later sees it
        await watcher.connect(f"/ws/g/{game}")
        seen = await watcher.wait_for("analysis")
        assert seen["status"] == "done" and seen["data"] == data
        await close_all(alice, bob, watcher)
    run(scenario())


def test_engine_lines_come_for_a_finished_game_and_an_analysis_board_opens_from_any_position(server):
    async def scenario():
        alice, bob, game = await fools_mate(server)
        await alice.send({"type": "lines", "ply": 2})
        line = await alice.wait_for("lines")
        assert line["ply"] == 2 and line["depth"] >= 1 and line["pv"]
        await alice.send({"type": "lines", "ply": 2})              # one search at a time
        assert "one search at a time" in (await alice.wait_for("error"))["message"]
        done = await alice.wait_for("lines", done=True, timeout=20)
        assert done["best"]
        await alice.send({"type": "lines", "ply": 99})
        assert (await alice.wait_for("error"))["message"] == "ply: 0 to 4"
        await alice.send({"type": "board", "ply": 2})
        made = await alice.wait_for("created")
        await alice.connect(f"/ws/g/{made['gameId']}")
        hello = await alice.wait_for("hello")
        assert hello["yourSeats"] == [0, 1] and hello["config"]["analysis"] is True
        state = await alice.state(status="playing")
        assert state["sans"] == ["f3", "e5"]
        await alice.send({"type": "move", "move": "d2d4"})          # both sides are hers
        await alice.state(sans=["f3", "e5", "d4"])
        await alice.send({"type": "lines", "ply": 3})
        assert (await alice.wait_for("lines"))["ply"] == 3
        # lines are refused in a game between people that is still going
        carol, dave, live, _ = await two_players(server)
        await carol.send({"type": "lines", "ply": 0})
        assert "once the game is over" in (await carol.wait_for("error"))["message"]
        await carol.send({"type": "analyse"})
        assert "once it is over" in (await carol.wait_for("error"))["message"]
        await close_all(alice, bob, carol, dave)
    run(scenario())
