"""A community's home on the real server over real WebSockets: rated games (Glicko-2 for two-player
variants, OpenSkill for 8 Player Chess) and what is never rated, the leaderboards and a player's
ratings and history, and seeks with automatic pairing (quick pairing, rating ranges, withdrawal,
a seek never paired with its owner, a seek that dies with its page)."""
import time

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import LiveServer, close_all, create, game_between, new_player, play_moves, player_path, run, two_players  # noqa: E402

from xboard_engine.web.community import ratings  # noqa: E402
from xboard_engine.web.compute.analysis import Analyst  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("community"), "--first-move", "0", "--max-challenges", "50")
    yield s
    s.stop()


async def get_json(client, path):
    async with client.session.get(client.server.url + path) as response:
        return response.status, await response.json()


OPENING = ("e2e4", "e7e5", "a2a3", "a7a6", "h2h3", "h7h6")     # three moves each: a game that can be rated


async def rated_game(server, variant="normal", moves=OPENING, ender="resign", loser=1):
    """Alice (White) and Bob (Black) in a rated game: ``moves`` played, then ``loser`` resigns (or
    ``ender`` "draw": a draw agreed)."""
    alice, bob, game, _ = await two_players(server, variant, "300+3", rated=True)
    await play_moves(alice, bob, moves)
    players = [alice, bob]
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
        status, page = await get_json(bob, player_path(alice.name) + ".json")
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
            await game_between(alice, bob, list(OPENING), variant="chess80", tc="300+3", rated=True)
            await [alice, bob][loser].send({"type": "resign"})
            state = await alice.state(status="over")
            expected = list(ratings.rate_game(expected[0], expected[1], 1.0 if loser == 1 else 0.0))
            assert state["ratingChanges"]["seats"]["0"][1] == round(expected[0].rating)
            assert state["ratingChanges"]["seats"]["1"][1] == round(expected[1].rating)
        status, board = await get_json(alice, "/leaderboard.json?pool=two:chess80")
        assert status == 200                             # two provisional ratings, one opponent each
        assert board["boards"][0]["players"] == [] and "5 different opponents" in board["rule"]
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
        status, page = await get_json(alice, player_path(alice.name) + ".json")
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
        assert (await get_json(alice, player_path(alice.name) + ".json"))[1]["ratings"] == []
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
            assert (await alice.wait_for("error"))["message"] == "create: rated must be true or false"
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
        _, page = await get_json(people[0], player_path(people[0].name) + ".json")
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
    ({"min": "high"}, "seek: min must be a number"),
    ({"rated": 1}, "seek: rated must be true or false"),
])
def test_bad_seeks_are_refused_with_the_reason(server, seek, why):
    async def scenario():
        a = await seeker(server, "Val")
        await a.send(dict({"type": "seek", "variant": "normal", "tc": "300+3"}, **seek))
        assert why in (await a.wait_for("error"))["message"]
        await close_all(a)
    run(scenario())


def test_one_address_has_at_most_20_seeks_waiting_however_many_people_make_them(server):
    """Seven people (cookies) from 127.0.0.1 seek 3, 3, ... 2 games: the 20th is taken; the 21st is
    refused for the address, to a person with a seek to spare and to one with none; a withdrawn
    seek makes room for one more."""
    async def scenario():
        people = [await seeker(server, f"Crowd{n}") for n in range(8)]
        lobby = [m for m in people[0].inbox if m["type"] == "lobby"][-1]
        if lobby["seekCount"]:                      # an earlier test's pages are closing: their seeks go
            await people[0].wait_for("lobby", seekCount=0)
        clocks = ("60+0", "180+2", "300+3")         # a person's 3 seeks: 3 kinds (a like one would replace)
        ids = []
        for n in range(20):                         # each seek outside every rating: none is paired
            await people[n // 3].send({"type": "seek", "variant": "normal", "tc": clocks[n % 3],
                                       "rated": False, "min": 3000})
            ids.append((await people[n // 3].wait_for("seeking"))["seek"])
        view = await people[7].wait_for("lobby", seekCount=20)
        assert sorted(x["id"] for x in view["seeks"]) == sorted(ids)
        refusal = "20 guests' seeks from your address are waiting (at most 20): withdraw one first, or sign in"
        await people[6].send({"type": "seek", "variant": "normal", "tc": clocks[2], "rated": False, "min": 3000})
        assert (await people[6].wait_for("error"))["message"] == refusal       # 2 of their own: not the person cap
        await people[7].send({"type": "seek", "variant": "normal", "tc": clocks[0], "rated": False, "min": 3000})
        assert (await people[7].wait_for("error"))["message"] == refusal
        await people[0].send({"type": "unseek", "seek": ids[0]})
        await people[7].wait_for("lobby", seekCount=19)
        await people[7].send({"type": "seek", "variant": "normal", "tc": clocks[0], "rated": False, "min": 3000})
        await people[7].wait_for("seeking")
        view = await people[7].wait_for("lobby", seeks=lambda s: any(x["player"] == people[7].id for x in s))
        assert view["seekCount"] == 20 and ids[0] not in [x["id"] for x in view["seeks"]]
        await close_all(*people)
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
    await play_moves(alice, bob, ["f2f3", "e7e5", "g2g4", "d8h4"])
    state = await alice.state(sans=lambda s: len(s) == 4)
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


# the Immortal Game (Anderssen-Kieseritzky, London 1851) up to 22...Nxf6: 44 plies, whose analysis
# (45 positions at 0.3 s each) keeps the queue's one runner busy while a test fills the queue
IMMORTAL = ("e2e4 e7e5 f2f4 e5f4 f1c4 d8h4 e1f1 b7b5 c4b5 g8f6 g1f3 h4h6 d2d3 f6h5 f3h4 h6g5 h4f5 c7c6 "
            "g2g4 h5f6 h1g1 c6b5 h2h4 g5g6 h4h5 g6g5 d1f3 f6g8 c1f4 g5f6 b1c3 f8c5 c3d5 f6b2 f4d6 c5g1 "
            "e4e5 b2a1 f1e2 b8a6 f5g7 e8d8 f3f6 g8f6").split()


@pytest.fixture
def own_server(tmp_path):
    """A server of the test's own: a test that leaves analyses waiting must not hold the shared
    server's queue (and its address's share of it) for the tests after it."""
    s = LiveServer(tmp_path, "--first-move", "0")
    yield s
    s.stop()


async def queue_held(server, count):
    """``count`` finished games (1. e4 e5, Black resigns), each with its White's page open on it,
    and then a long game's analysis running, so that the analyses asked for next wait behind it
    (their "ahead" counts it): the long game's page and the Whites."""
    long, bob, _, _ = await rated_game(server, moves=IMMORTAL)
    await bob.close()
    whites = []
    for _ in range(count):
        alice, bob, game, _ = await rated_game(server, moves=("e2e4", "e7e5"))
        await bob.close()
        alice.game = game
        whites.append(alice)
    await long.send({"type": "analyse"})
    await long.wait_for("analysis", status="running", timeout=30)
    return long, whites


def test_a_person_has_at_most_2_analyses_waiting_and_a_third_is_refused(own_server):
    async def scenario():
        running, whites = await queue_held(own_server, 3)
        asker = whites[0]
        for n in range(3):
            if n:
                await asker.connect(f"/ws/g/{whites[n].game}")
                await asker.wait_for("hello")
            await asker.send({"type": "analyse"})
            if n < 2:
                queued = await asker.wait_for("analysis", status="queued")
                assert queued["ahead"] == n + 1               # behind the running one (and the first)
        error = await asker.wait_for("error")
        assert error["message"] == "you have 2 analyses waiting (at most 2): wait for one to finish"
        await whites[2].send({"type": "analyse"})             # the same game, asked by someone else
        assert (await whites[2].wait_for("analysis", status="queued"))["ahead"] == 3
        await close_all(running, *whites)
    run(scenario())


def test_one_address_has_at_most_10_analyses_waiting_however_many_people_ask(own_server):
    async def scenario():
        running, whites = await queue_held(own_server, 11)     # eleven people, one game each
        for n, white in enumerate(whites[:10]):
            await white.send({"type": "analyse"})
            assert (await white.wait_for("analysis", status="queued"))["ahead"] == n + 1
        await whites[10].send({"type": "analyse"})
        error = await whites[10].wait_for("error")
        assert error["message"] == ("10 analyses asked for from your address are waiting (at most 10): "
                                    "wait for one to finish")
        await close_all(running, *whites)
    run(scenario())


def test_the_analysis_queue_is_shared_round_robin_between_the_addresses_that_ask():
    """Issue 52, defect 9: one address queued 11 long games ahead of everyone else's.  Now each asker
    (the address that asked) has its oldest waiting game run in turn, the one served longest ago (or
    never) first; an asker with nothing left waiting starts afresh."""
    analyst = Analyst(None)
    analyst.queue.extend([1, 2, 3, 4, 5, 6])
    analyst.asked_from.update({1: "10.0.0.1", 2: "10.0.0.1", 3: "10.0.0.1", 4: "10.0.0.2", 5: "10.0.0.3",
                               6: "10.0.0.2"})
    assert analyst.running_order() == [1, 4, 5, 2, 6, 3]
    ran = [analyst.take_next(), analyst.take_next()]       # 10.0.0.1's and 10.0.0.2's first
    analyst.queue.append(7)                                 # a newcomer's, asked for meanwhile
    analyst.asked_from[7] = "10.0.0.4"
    while analyst.queue:
        ran.append(analyst.take_next())
    assert ran == [1, 4, 5, 7, 2, 6, 3]
    assert analyst.served == {} and analyst.asked_from == {}   # nothing kept once nothing waits


def test_a_newcomers_analysis_waits_behind_one_turn_of_an_address_with_many_queued(tmp_path):
    """Over the real server behind a proxy: four people at one address queue four analyses behind a
    running one; a fifth person, elsewhere, asks next and is second in line, not fifth."""
    s = LiveServer(tmp_path, "--first-move", "0", "--trusted-proxy", "127.0.0.1")

    async def scenario():
        running, whites = await queue_held(s, 5)
        crowd = [await new_player(s, f"Crowd{n}", address="10.0.0.1") for n in range(4)]
        for n, person in enumerate(crowd):
            await person.connect(f"/ws/g/{whites[n].game}")
            await person.wait_for("hello")
            await person.send({"type": "analyse"})
            assert (await person.wait_for("analysis", status="queued"))["ahead"] == n + 1
        newcomer = await new_player(s, "Newcomer", address="10.0.0.2")
        await newcomer.connect(f"/ws/g/{whites[4].game}")
        await newcomer.wait_for("hello")
        await newcomer.send({"type": "analyse"})
        assert (await newcomer.wait_for("analysis", status="queued"))["ahead"] == 2   # the running one, Crowd0's
        await close_all(running, newcomer, *whites, *crowd)
    try:
        run(scenario())
    finally:
        s.stop()

