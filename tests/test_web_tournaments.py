"""Tournaments on the real server over real WebSockets, played by simulated people: a 16-player
Swiss whose pairings keep the stated rules in every round, a 40-player arena whose standings match
a recomputation from the stored games, a SIGKILL in the middle of a round that loses no game or
standing, 8 Player Chess rounds seated from the standings, and the rules for joining, withdrawing,
starting and what a tournament game may not do."""
import asyncio
import json
import random
from typing import Any, Dict, List

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import Client, LiveServer, close_all, new_player, run  # noqa: E402

from xboard_engine.web.community import eight_pairing, pairing, ratings  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("tournaments"), "--first-move", "0", "--max-connections", "400")
    yield s
    s.stop()


def database(server):
    return server.look()


async def make(creator: Client, **settings: Any) -> str:
    await creator.send(dict({"type": "tournament", "startsIn": 60}, **settings))
    return (await creator.wait_for("tournamentCreated"))["id"]


async def page(server, player: Client, slug: str) -> Client:
    """A second page of the player's browser profile: the tournament's page."""
    other = Client(server)
    other.session = player.session
    other.id, other.name = player.id, player.name
    await other.connect(f"/ws/t/{slug}")
    await other.wait_for("tournament")
    return other


async def enter(server, players: List[Client], slug: str) -> List[Client]:
    pages = []
    for p in players:
        t = await page(server, p, slug)
        await t.send({"type": "join"})
        await t.wait_for("tournament", entered=True)
        pages.append(t)
    return pages


async def entered(server, prefix: str, count: int, **settings: Any):
    """``count`` new people (named ``prefix`` and a number), a tournament the first makes with
    ``settings``, and each one's page of it, joined: (people, people by id, slug, pages)."""
    people = [await new_player(server, f"{prefix}{n}") for n in range(count)]
    slug = await make(people[0], **settings)
    return people, {p.id: p for p in people}, slug, await enter(server, people, slug)


async def game_page(server, player: Client, game: str) -> Client:
    g = Client(server)
    g.session = player.session
    g.id = player.id
    await g.connect(f"/ws/g/{game}")
    await g.wait_for("hello")
    return g


async def close_pages(*pages: Client) -> None:
    """Close pages opened with ``page`` or ``game_page`` (their browser profile stays open)."""
    for p in pages:
        await p.ws.close()


async def finish(server, by_id: Dict[int, Client], game: Dict[str, Any], outcome: str) -> None:
    """A two-player tournament game ended as ``outcome`` says: "white" or "black" wins (the other
    resigns), or "draw" (offered and accepted)."""
    white = await game_page(server, by_id[game["players"][0]], game["gameId"])
    black = await game_page(server, by_id[game["players"][1]], game["gameId"])
    if outcome == "draw":
        await white.send({"type": "offer"})
        await black.state(drawOffer="w")
        await black.send({"type": "draw"})
    else:
        await (black if outcome == "white" else white).send({"type": "resign"})
    await white.state(status="over")
    await close_pages(white, black)


def stored_games(server, slug: str) -> List[Dict[str, Any]]:
    """The tournament's games and byes as the database has them (read directly, not through the server)."""
    db = database(server)
    try:
        (tid,) = db.execute("SELECT id FROM tournaments WHERE slug=?", (slug,)).fetchone()
        out = []
        for rnd, game_id, bye in db.execute("SELECT round, game_id, bye FROM tournament_games WHERE tournament_id=? "
                                            "ORDER BY round, game_id", (tid,)):
            if game_id is None:
                out.append({"round": rnd, "bye": bye})
                continue
            status, result = db.execute("SELECT status, result FROM games WHERE id=?", (game_id,)).fetchone()
            seats = [p for (p,) in db.execute("SELECT player_id FROM seats WHERE game_id=? ORDER BY seat", (game_id,))]
            out.append({"round": rnd, "id": game_id, "status": status, "result": json.loads(result) if result else None,
                        "seats": seats})
        return out
    finally:
        db.close()


# ---------------------------------------------------------------- Swiss
def swiss_rules_hold(games: List[Dict[str, Any]], rounds: int, players: List[int]) -> List[int]:
    """Check every round of a finished Swiss against its rules; the score-group crossings per round."""
    met, colours, points = set(), {p: [] for p in players}, {p: 0.0 for p in players}
    crossings: List[int] = []
    history: List[pairing.Game] = []
    byes = set()
    for r in range(1, rounds + 1):
        this = [g for g in games if g["round"] == r]
        round_games = [g for g in this if "bye" not in g]
        round_byes = [g["bye"] for g in this if "bye" in g]
        seated = [p for g in round_games for p in g["seats"]] + round_byes
        assert sorted(seated) == sorted(players), f"round {r}: everyone plays once (or has the bye)"
        assert len(round_byes) == len(players) % 2
        for b in round_byes:
            assert b not in byes, f"round {r}: a second bye for {b}"
            byes.add(b)
        crossed = 0
        for g in round_games:
            white, black = g["seats"]
            assert frozenset((white, black)) not in met, f"round {r}: {white} and {black} meet again"
            met.add(frozenset((white, black)))
            colours[white].append("W")
            colours[black].append("B")
            crossed += points[white] != points[black]
        crossings.append(crossed)
        # the server paired as the pairing rules say (their own tests prove the crossings minimal)
        expected, bye = pairing.swiss_round(players, {p: 1500.0 for p in players}, history, final=r == rounds)
        assert sorted((g["seats"][0], g["seats"][1]) for g in round_games) == sorted(expected), f"round {r}"
        assert round_byes == ([bye] if bye is not None else [])
        for g in round_games:
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]["result"]]
            history.append(pairing.Game(g["seats"][0], g["seats"][1], score))
        history += [pairing.Game(b, None, None) for b in round_byes]
        for p, c in colours.items():
            assert abs(c.count("W") - c.count("B")) <= 2, f"round {r}: colours of {p}: {c}"
            assert "WWW" not in "".join(c) and "BBB" not in "".join(c), f"round {r}: colours of {p}: {c}"
        for g in round_games:
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]["result"]]
            points[g["seats"][0]] += score
            points[g["seats"][1]] += 1 - score
        for b in round_byes:
            points[b] += 1.0
    return crossings


def test_a_16_player_swiss_keeps_its_pairing_rules_in_every_round_and_its_standings_match_the_games(server):
    async def scenario():
        rng = random.Random(16)
        people, by_id, slug, pages = await entered(server, "Swiss", 16, kind="swiss", variant="normal", tc="300+3",
                                                   rounds=5, name="Sixteen")
        await pages[1].send({"type": "start"})
        assert "only the tournament's creator" in (await pages[1].wait_for("error"))["message"]
        await pages[0].send({"type": "start"})
        for r in range(1, 6):
            view = await pages[0].wait_for("tournament", round=r, timeout=30)
            assert len(view["playing"]) == 8
            await asyncio.gather(*(finish(server, by_id, g, rng.choice(["white", "black", "draw"]))
                                   for g in view["playing"]))
        final = await pages[0].wait_for("tournament", status="over", timeout=30)
        games = stored_games(server, slug)
        crossings = swiss_rules_hold(games, 5, [p.id for p in people])
        assert len([g for g in games if "bye" not in g]) == 40
        # the standings the page shows are the games' points, recomputed here
        points = {p.id: 0.0 for p in people}
        for g in games:
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]["result"]]
            points[g["seats"][0]] += score
            points[g["seats"][1]] += 1 - score
        assert {line["player"]: line["points"] for line in final["standings"]} == points
        shown = [line["points"] for line in final["standings"]]
        assert shown == sorted(shown, reverse=True)
        print(f"score-group crossings per round: {crossings}")
        await close_pages(*pages)
        await close_all(*people)
    run(scenario(), timeout=240)


# ---------------------------------------------------------------- arena
def arena_recount(games: List[Dict[str, Any]], players: List[int]) -> Dict[int, int]:
    """Arena points from the stored games, counted here: win 2, draw 1; after two wins in a row a
    win 4 and a draw 2, until a draw or loss."""
    results: Dict[int, List[float]] = {p: [] for p in players}
    for g in sorted(games, key=lambda g: g["id"]):
        if g["status"] == "aborted":                 # a forfeit: who made no first move lost
            score = {0: 0.0, 1: 1.0}.get(g["result"].get("absent"), 0.5)
        elif g["status"] == "over":
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]["result"]]
        else:
            continue
        results[g["seats"][0]].append(score)
        results[g["seats"][1]].append(1 - score)
    totals = {}
    for p, rs in results.items():
        total, streak = 0, 0
        for r in rs:
            fire = streak >= 2
            total += (4 if fire else 2) if r == 1 else (2 if fire else 1) if r == 0.5 else 0
            streak = streak + 1 if r == 1 else 0
        totals[p] = total
    return totals


def test_a_40_player_arena_pairs_players_again_as_games_end_and_its_standings_match_the_stored_games(server):
    async def scenario():
        people, _, slug, pages = await entered(server, "Arena", 40, kind="arena", variant="normal", tc="60+0",
                                               minutes=1, name="Forty")
        rng = random.Random(40)
        played: Dict[int, int] = {p.id: 0 for p in people}

        async def play(player: Client, tpage: Client) -> None:
            """A simulated person: on the tournament page; each time the server pairs them, they
            play their game (a few moves, then the side drawn to lose resigns, or a draw is agreed)."""
            while True:
                try:
                    msg = await tpage.wait_for("paired", timeout=90)
                except (TimeoutError, ConnectionError):
                    return
                played[player.id] += 1
                g = await game_page(server, player, msg["gameId"])
                me = g.inbox[0]["yourSeats"][0]
                plies = rng.randrange(0, 6)
                state = await g.state()
                while state["status"] == "playing" and state.get("result") is None:
                    if state["turn"] == "wb"[me]:
                        if len(state["sans"]) >= plies:
                            await g.send({"type": "resign"})
                        else:
                            await g.send({"type": "move", "move": rng.choice(state["targets"])["options"][0]["text"]})
                    try:
                        state = await g.state(timeout=20)
                    except TimeoutError:
                        break
                await g.ws.close()

        watcher = Client(server)                          # someone watching the standings
        await watcher.connect(f"/ws/t/{slug}")
        tasks = [asyncio.ensure_future(play(p, t)) for p, t in zip(people, pages)]
        await pages[0].send({"type": "start"})
        final = await watcher.wait_for("tournament", status="over", timeout=150)
        failed = [repr(task.exception()) for task in tasks if task.done() and not task.cancelled() and task.exception()]
        for task in tasks:
            task.cancel()
        assert not failed
        games = stored_games(server, slug)
        over = [g for g in games if g["status"] == "over"]
        assert len(over) >= 40, f"only {len(over)} games in a minute of 40 players"
        assert sum(1 for n in played.values() if n >= 2) >= 20        # paired again after a game
        expected = arena_recount(games, [p.id for p in people])
        assert {line["player"]: int(line["points"]) for line in final["standings"]} == expected
        shown = [line["points"] for line in final["standings"]]
        assert shown == sorted(shown, reverse=True)
        # nobody was in two games at once: each player's games are one after another
        by_player: Dict[int, List[int]] = {}
        for g in sorted(games, key=lambda g: g["id"]):
            for p in g["seats"]:
                by_player.setdefault(p, []).append(g["id"])
        db = database(server)
        try:
            for p, ids in by_player.items():
                spans = []
                for gid in ids:
                    (start,) = db.execute("SELECT created FROM games WHERE id=?", (gid,)).fetchone()
                    last = db.execute("SELECT MAX(at) FROM actions WHERE game_id=?", (gid,)).fetchone()[0] or start
                    spans.append((start, last))
                for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
                    assert s2 >= e1 - 0.01, f"player {p} began a game before the last one ended"
        finally:
            db.close()
        aborted = [g for g in games if g["status"] == "aborted"]
        print(f"arena: {len(over)} games, {len(aborted)} forfeits {[g['result'] for g in aborted]}, "
              f"games per player {sorted(played.values())}")
        await close_pages(*pages)
        await watcher.close()
        await close_all(*people)
    run(scenario(), timeout=240)


# ---------------------------------------------------------------- SIGKILL in the middle of a round
def test_a_sigkill_in_the_middle_of_a_swiss_round_loses_no_game_or_standing(tmp_path):
    server = LiveServer(tmp_path, "--first-move", "0")

    async def scenario():
        people, by_id, slug, pages = await entered(server, "Kill", 4, kind="swiss", variant="normal", tc="600+5", rounds=2)
        await pages[0].send({"type": "start"})
        view = await pages[0].wait_for("tournament", round=1, timeout=30)
        first, second = view["playing"]
        await finish(server, by_id, first, "white")                 # one game over...
        white = await game_page(server, by_id[second["players"][0]], second["gameId"])
        await white.send({"type": "move", "move": "e2e4"})           # ... the other under way
        await white.state(sans=["e4"])
        stored = stored_games(server, slug)
        server.kill()                                               # no chance to save anything
        server.start()                                              # the same port: the cookies hold
        assert stored_games(server, slug) == stored
        pages = [await page(server, p, slug) for p in people]
        view = pages[0].inbox[-1]
        assert view["status"] == "running" and view["round"] == 1
        assert [g["gameId"] for g in view["playing"]] == [second["gameId"]]
        assert next(g for g in view["games"] if g["gameId"] == first["gameId"])["result"] == "1-0"
        assert {line["player"]: line["points"] for line in view["standings"]} == {
            first["players"][0]: 1.0, first["players"][1]: 0.0, second["players"][0]: 0.0, second["players"][1]: 0.0}
        black = await game_page(server, by_id[second["players"][1]], second["gameId"])
        state = await black.state()
        assert state["sans"] == ["e4"] and state["status"] == "playing"     # the game goes on from its move
        await black.send({"type": "move", "move": "e7e5"})
        await black.state(sans=["e4", "e5"])
        await black.send({"type": "resign"})
        await black.state(status="over")
        view = await pages[0].wait_for("tournament", round=2, timeout=30)    # the next round follows
        for g in view["playing"]:
            await finish(server, by_id, g, "black")
        final = await pages[0].wait_for("tournament", status="over", timeout=30)
        games = stored_games(server, slug)
        assert len(games) == 4 and all(g["status"] == "over" for g in games)
        swiss_rules_hold(games, 2, list(by_id))
        await close_pages(black, *pages)
        await close_all(*people)
        return final

    try:
        run(scenario(), timeout=180)
    finally:
        server.stop()


# ---------------------------------------------------------------- 8 Player Chess rounds
def test_8_player_rounds_seat_tables_from_the_standings_and_score_places(server):
    async def scenario():
        people, by_id, slug, pages = await entered(server, "Eight", 8, kind="eight", mode="singles", tc="5+3", rounds=2)
        await pages[0].send({"type": "start"})
        before = None
        for r in (1, 2):
            view = before if before and before["round"] == r else \
                await pages[0].wait_for("tournament", round=r, timeout=30)
            (table,) = view["playing"]
            assert sorted(table["players"]) == sorted(by_id)
            if r == 2:
                order = [line["player"] for line in before["standings"]]
                assert table["players"][(r - 1) % 8] == order[0]       # the leader's seat turns each round
            pages_at = {pid: await game_page(server, by_id[pid], table["gameId"]) for pid in table["players"]}
            # everyone resigns in turn until the game ends
            watcher = pages_at[table["players"][0]]
            state = await watcher.state()
            while state.get("result") is None:
                turn = state["turn"]
                await pages_at[table["players"][turn]].send({"type": "resign", "seat": turn})
                while True:
                    state = await watcher.state(timeout=10)
                    if state.get("result") is not None or state["turn"] != turn:
                        break
            result = state["result"]
            ranks = ratings.standing_ranks(result["scores"], result["winners"], result["draw"])
            points = eight_pairing.eight_round_points(ranks)
            await close_pages(*pages_at.values())
            done = table["gameId"]
            before = await pages[0].wait_for("tournament", timeout=30, games=lambda gs: any(
                g["gameId"] == done and g["status"] != "playing" for g in gs))
            for seat, pid in enumerate(table["players"]):
                line = next(x for x in before["standings"] if x["player"] == pid)
                assert line["results"][-1] == points[seat]
        final = before if before["status"] == "over" else \
            await pages[0].wait_for("tournament", status="over", timeout=30)
        assert sum(line["points"] for line in final["standings"]) == sum(eight_pairing.EIGHT_PLACE_POINTS) * 2
        await close_pages(*pages)
        await close_all(*people)
    run(scenario(), timeout=180)


# ---------------------------------------------------------------- joining, withdrawing, refusals
def test_joining_withdrawing_and_what_a_tournament_game_refuses(server):
    async def scenario():
        a, b, c = [await new_player(server, f"Rule{n}") for n in range(3)]
        await a.send({"type": "tournament", "kind": "knockout"})
        assert "kind: arena, swiss or eight" in (await a.wait_for("error"))["message"]
        await a.send({"type": "tournament", "kind": "swiss", "tc": "none"})
        assert "clock" in (await a.wait_for("error"))["message"]
        await a.send({"type": "tournament", "kind": "arena", "minutes": 0})
        assert "minutes" in (await a.wait_for("error"))["message"]
        await a.send({"type": "tournament", "kind": "swiss", "rounds": 99})
        assert "rounds: 1 to 20" in (await a.wait_for("error"))["message"]
        slug = await make(a, kind="swiss", variant="chess80", tc="300+3", rounds=1)
        pa, pb, pc = await enter(server, [a, b, c], slug)
        await pc.send({"type": "withdraw"})
        view = await pc.wait_for("tournament", entered=False)
        assert next(x for x in view["standings"] if x["player"] == c.id)["withdrawn"] is True
        await pc.send({"type": "withdraw"})
        assert (await pc.wait_for("error"))["message"] == "you are not playing in this tournament"
        await pa.send({"type": "start"})
        view = await pa.wait_for("tournament", round=1, timeout=30)
        (game,) = view["playing"]
        assert set(game["players"]) == {a.id, b.id}                  # the withdrawn player is not paired
        await pc.send({"type": "join"})
        assert (await pc.wait_for("error"))["message"] == "the last round has begun"
        by_id = {a.id: a, b.id: b}
        g = await game_page(server, by_id[game["players"][1]], game["gameId"])
        hello = g.inbox[0]
        assert hello["config"]["tournament"] == slug
        await g.send({"type": "abort"})
        assert "cannot be aborted" in (await g.wait_for("error"))["message"]
        await g.send({"type": "resign"})
        await g.state(status="over")
        await g.send({"type": "rematch"})
        assert "no rematch" in (await g.wait_for("error"))["message"]
        final = await pa.wait_for("tournament", status="over", timeout=30)
        assert [line["player"] for line in final["standings"]][:1] == [game["players"][0]]
        async with a.session.get(f"{server.url}/t/{slug}") as response:
            assert response.status == 200 and "tournament.js" in await response.text()
        async with a.session.get(f"{server.url}/t/nosuchthing") as response:
            assert response.status == 404
        await close_pages(g, pa, pb, pc)
        await close_all(a, b, c)
    run(scenario())


def test_a_tournament_nobody_joins_is_cancelled_at_its_start_and_creators_are_limited(server):
    async def scenario():
        a = await new_player(server, "Lonely")
        await a.send({"type": "tournament", "kind": "arena", "minutes": 5, "startsIn": 0})
        made = await a.wait_for("tournamentCreated")
        t = await page(server, a, made["id"])
        await t.wait_for("tournament", status="cancelled", timeout=15)
        await make(a, kind="swiss")
        await make(a, kind="arena")
        await a.send({"type": "tournament", "kind": "swiss", "startsIn": 60})
        assert "at most 2" in (await a.wait_for("error"))["message"]
        await close_pages(t)
        await close_all(a)
    run(scenario())


def test_one_address_has_at_most_10_tournaments_waiting_or_running_however_many_people_make_them(tmp_path):
    # a server of its own: the ten tournaments it leaves waiting would refuse the shared server's
    # later tournaments from 127.0.0.1
    server = LiveServer(tmp_path, "--first-move", "0")

    async def scenario():
        people = [await new_player(server, f"Maker{n}") for n in range(6)]
        slugs = [await make(people[n // 2], kind="arena" if n % 2 else "swiss", rounds=1) for n in range(10)]
        await people[5].wait_for("lobby", tournaments=lambda ts: sorted(t["id"] for t in ts) == sorted(slugs))
        refusal = "10 tournaments made from your address are waiting or running (at most 10)"
        await people[5].send({"type": "tournament", "kind": "swiss", "startsIn": 60})    # none of their own
        assert (await people[5].wait_for("error"))["message"] == refusal
        # the first (a one-round Swiss) played to its end: it no longer counts, and one more may be made
        pages = await enter(server, people[:2], slugs[0])
        await pages[0].send({"type": "start"})
        (game,) = (await pages[0].wait_for("tournament", round=1, timeout=30))["playing"]
        await finish(server, {p.id: p for p in people[:2]}, game, "white")
        await pages[0].wait_for("tournament", status="over", timeout=30)
        await make(people[5], kind="swiss")
        await people[5].send({"type": "tournament", "kind": "arena", "startsIn": 60})    # the 11th again
        assert (await people[5].wait_for("error"))["message"] == refusal
        await close_pages(*pages)
        await close_all(*people)

    try:
        run(scenario())
    finally:
        server.stop()


# ---------------------------------------------------------------- griefing (issue 52, defect 5)
def test_issue_52_D5_a_player_withdrawn_for_not_moving_may_not_join_again(tmp_path):
    """A no-show who re-joined an arena after each forfeit was paired with the same person six times
    in 170 s.  Now the server's withdrawal for not moving is for good."""
    s = LiveServer(tmp_path, "--first-move", "2")

    async def scenario():
        people, by_id, slug, pages = await entered(s, "Ghost", 2, kind="arena", tc="180+2", minutes=10)
        await pages[0].send({"type": "start"})
        view = await pages[0].wait_for("tournament", playing=lambda p: len(p) == 1, timeout=30)
        game = view["playing"][0]
        white = by_id[game["players"][0]]
        # nobody moves: White made no first move within 2 s, the game is aborted and White withdrawn
        view = await pages[0].wait_for("tournament", timeout=30, standings=lambda st: any(
            x["player"] == white.id and x["withdrawn"] for x in st))
        mine = pages[[p.id for p in people].index(white.id)]
        await mine.send({"type": "join"})
        assert "withdrawn from this tournament for not moving" in (await mine.wait_for("error"))["message"]
        await close_pages(*pages)
        await close_all(*people)
    try:
        run(scenario(), timeout=90)
    finally:
        s.stop()


def test_issue_52_D5_the_creator_or_a_moderator_cancels_a_tournament_and_nobody_else(server):
    async def scenario():
        people, _, slug, pages = await entered(server, "Cancel", 3, kind="swiss", tc="300+3", rounds=3)
        await pages[1].send({"type": "cancel"})
        assert "only the tournament's creator or a moderator" in (await pages[1].wait_for("error"))["message"]
        await pages[0].send({"type": "cancel"})
        view = await pages[0].wait_for("tournament", status="cancelled")
        assert view["playing"] == []
        await pages[0].send({"type": "cancel"})
        assert (await pages[0].wait_for("error"))["message"] == "the tournament is over"
        await close_pages(*pages)
        await close_all(*people)
    run(scenario())


def test_issue_52_D5_long_tournaments_are_made_by_accounts(tmp_path):
    """Ten week-long junk arenas from one address filled a phone's lobby.  Where rated games need
    accounts, so do a long arena, many rounds and a start a day away."""
    from test_web_accounts import post
    s = LiveServer(tmp_path, "--rated-needs-account", "on")

    async def scenario():
        guest = await new_player(s, "Junk")
        for settings in ({"kind": "arena", "minutes": 360}, {"kind": "swiss", "rounds": 15},
                         {"kind": "arena", "minutes": 30, "startsIn": 7 * 24 * 60}):
            await guest.send(dict({"type": "tournament", "tc": "180+2"}, **settings))
            assert "is made by an account" in (await guest.wait_for("error"))["message"], settings
        assert await make(guest, kind="arena", tc="180+2", minutes=60)            # a short one is fine
        name = guest.name.replace(" ", "")
        await guest.send({"type": "name", "name": name})
        await guest.wait_for("you")
        assert (await post(guest, "signup", username=name, password="a long password"))[0] == 200
        await guest.connect("/ws/lobby")
        await guest.wait_for("hello")
        assert await make(guest, kind="arena", tc="180+2", minutes=360)
        await guest.close()
    try:
        run(scenario())
    finally:
        s.stop()


def test_issue_52_D5_a_swiss_bye_goes_to_someone_who_has_played_if_anyone_can_take_it():
    history = [pairing.Game(1, 2, 1.0), pairing.Game(3, 4, 0.0)]          # 5 joined late: no game yet
    ratings_ = {1: 1500, 2: 1500, 3: 1500, 4: 1500, 5: 1000}
    _, bye = pairing.swiss_round([1, 2, 3, 4, 5], ratings_, history)
    assert bye == 5                                                      # the lowest, as before
    _, bye = pairing.swiss_round([1, 2, 3, 4, 5], ratings_, history, no_bye={5})
    assert bye != 5 and bye in (2, 3)                                    # a lowest scorer who played


def test_issue_52_a_player_marked_engine_is_listed_last_in_the_standings_with_no_place(server):
    from test_web_moderation import http, member

    async def scenario():
        people, _, slug, pages = await entered(server, "Prize", 3, kind="swiss", tc="300+3", rounds=3)
        mod = await member(server, "moderator")
        status, _ = await http(mod, "/mod/action", player=people[0].id, action="engine", reason="engine moves")
        assert status == 200
        fresh = await page(server, people[1], slug)
        view = next(m for m in fresh.inbox if m["type"] == "tournament")
        lines = [(line["player"], line["rank"], line["marked"]) for line in view["standings"]]
        assert lines[-1] == (people[0].id, None, True)
        assert sorted(rank for _, rank, marked in lines if not marked) == [1, 2]
        await close_pages(fresh, *pages)
        await close_all(mod, *people)
    run(scenario())
