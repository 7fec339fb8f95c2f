"""Moderation over real HTTP and WebSockets against the real `xboard-engine serve` (issue 52): reports
with their evidence on the moderators' page, each action written to the moderator log and doing
what it says (a timeout, a mute, a troll's chat reaching only the troll, the engine mark hiding
ratings, a forced rename, a closed account's cookie refused, a reopening), actions refused to
anyone who is not a moderator, and each person's blocks (no seat, seek pairing or chat between)."""
import subprocess
import sys

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import ROOT, Client, LiveServer, close_all, create, game_between, new_player, player_path, run, unique  # noqa: E402
from test_web_accounts import PASSWORD, account, address, close_code, post  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("moderation"), "--trusted-proxy", "127.0.0.1", "--first-move", "0")
    yield s
    s.stop()


async def member(server, role=None, name=None, where=None):
    """A signed-in account on the lobby socket (granted ``role`` by `xboard-engine admin`), seen at
    the address ``where`` (else one of its own)."""
    client = Client(server, address=where or address())
    assert await client.open_page("/") == 200
    name = name or unique("Member").replace(" ", "")
    status, answer = await post(client, "signup", username=name, password=PASSWORD)
    assert status == 200, answer
    client.name, client.id = name, answer["player"]["id"]
    if role:
        done = subprocess.run([sys.executable, "-m", "xboard_engine", "admin", "--data-dir", server.data_dir]
                              + (["--database", server.database] if server.database else []) + ["grant", name, role],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert done.returncode == 0, done.stderr
    await client.connect("/ws/lobby")
    await client.wait_for("hello")
    return client


async def http(client, path, **body):
    async with client.session.post(f"{client.server.url}{path}", json=body, headers={"Origin": client.server.url}) as r:
        return r.status, await r.json()


async def mod_page(client):
    async with client.session.get(f"{client.server.url}/mod.json") as r:
        return r.status, await r.json()


async def game_with_chat(white, black):
    """A casual game between the two, both on its page; its address."""
    made = await create(white, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "open"}])
    slug = made["gameId"]
    for c in (white, black):
        await c.connect(f"/ws/g/{slug}")
        await c.wait_for("hello")
    await black.send({"type": "take", "seat": 1})
    await black.wait_for("hello", yourSeats=[1])
    return slug


async def says(speaker, text, *hearers, heard=True):
    await speaker.send({"type": "chat", "text": text})
    assert (await speaker.wait_for("chat", text=text))["text"] == text
    for hearer in hearers:
        if heard:
            await hearer.wait_for("chat", text=text)
        else:
            with pytest.raises((TimeoutError, Exception)):
                await hearer.wait_for("chat", timeout=1.0, text=text)


def test_a_report_reaches_the_moderators_page_with_its_game_and_chat_and_an_action_is_logged(server):
    async def scenario():
        mod = await member(server, "moderator")
        victim, rude = await member(server), await member(server)
        slug = await game_with_chat(victim, rude)
        await says(rude, "you are a patzer", victim)
        status, answer = await http(victim, "/report", player=rude.id, reason="insult", game=slug, note="insults in chat")
        assert status == 200 and answer["report"] > 0
        status, page = await mod_page(mod)
        report = next(r for r in page["reports"] if r["id"] == answer["report"])
        assert (report["playerName"], report["reporterName"], report["reason"]) == (rude.name, victim.name, "insult")
        assert report["game"]["slug"] == slug and "you are a patzer" in [c["text"] for c in report["game"]["chat"]]
        assert report["evidence"]["games"][0]["slug"] == slug
        status, done = await http(mod, "/mod/action", player=rude.id, action="timeout", minutes=10,
                                  reason="insults", reports=[answer["report"]])
        assert status == 200
        status, page = await mod_page(mod)
        assert answer["report"] not in [r["id"] for r in page["reports"]]              # handled
        entry = next(e for e in page["log"] if e["id"] == done["log"])
        assert (entry["moderatorName"], entry["playerName"], entry["action"], entry["reason"], entry["details"]) == (
            mod.name, rude.name, "timeout", "insults", {"minutes": 10})
        # the timed-out person's chat is refused; lifted, it is back
        await rude.send({"type": "chat", "text": "sorry"})
        assert "timeout" in (await rude.wait_for("error"))["message"]
        assert (await http(mod, "/mod/action", player=rude.id, action="lift", kind="timeout", reason="apologised"))[0] == 200
        await says(rude, "sorry", victim)
        await close_all(mod, victim, rude)
    run(scenario())


def test_moderator_actions_and_the_moderators_page_are_refused_to_anyone_else(server):
    async def scenario():
        someone, target = await member(server), await member(server)
        guest = await new_player(server, "Visitor", address=address())
        for client in (someone, guest):
            status, answer = await http(client, "/mod/action", player=target.id, action="mute", reason="I say so")
            assert status == 400 and "for the club's moderators" in answer["error"]
            status, answer = await mod_page(client)
            assert status == 403 and "for the club's moderators" in answer["error"]
        await target.send({"type": "chat", "text": "x"})               # nothing changed: not muted
        mod = await member(server, "moderator")
        other_mod = await member(server, "moderator")
        status, answer = await http(mod, "/mod/action", player=other_mod.id, action="mute", reason="a rival")
        assert status == 400 and "by an administrator" in answer["error"]
        await close_all(someone, target, guest, mod, other_mod)
    run(scenario())


def test_a_trolls_chat_reaches_only_the_troll_now_and_in_the_history(server):
    async def scenario():
        mod = await member(server, "moderator")
        troll, other = await member(server), await member(server)
        slug = await game_with_chat(troll, other)
        assert (await http(mod, "/mod/action", player=troll.id, action="troll", reason="baiting"))[0] == 200
        await says(troll, "nobody hears this", other, heard=False)
        watcher = Client(server, address=address())
        await watcher.open_page("/")
        await watcher.connect(f"/ws/g/{slug}")
        await watcher.wait_for("hello")
        await says(other, "hello watcher", watcher)
        assert "nobody hears this" not in [m.get("text") for m in watcher.inbox if m.get("type") == "chat"]
        await troll.connect(f"/ws/g/{slug}")                 # the troll's own history still has it
        await troll.wait_for("chat", text="nobody hears this")
        await close_all(mod, troll, other, watcher)
    run(scenario())


def test_a_closed_accounts_pages_close_its_cookie_is_refused_and_reopening_lets_it_sign_in(server):
    async def scenario():
        mod = await member(server, "moderator")
        banned = await member(server)
        assert (await http(mod, "/mod/action", player=banned.id, action="close", reason="repeated abuse"))[0] == 200
        assert await close_code(banned) == 4002
        assert (await account(banned))["signedIn"] is False
        status, answer = await post(Client(server, address=address()), "signin", username=banned.name, password=PASSWORD)
        assert status == 400 and answer["error"] == "this account is closed: repeated abuse"
        async with banned.session.get(server.url + player_path(banned.name) + ".json") as r:
            assert (await r.json())["closed"] == "repeated abuse"
        assert (await http(mod, "/mod/action", player=banned.id, action="reopen", reason="appeal granted"))[0] == 200
        assert (await post(banned, "signin", username=banned.name, password=PASSWORD))[0] == 200
        await close_all(mod, banned)
    run(scenario())


def test_the_engine_mark_hides_ratings_and_a_forced_rename_changes_the_username(server):
    async def scenario():
        mod = await member(server, "moderator")
        cheat = await member(server)
        assert (await http(mod, "/mod/action", player=cheat.id, action="engine", reason="engine moves"))[0] == 200
        async with cheat.session.get(server.url + player_path(cheat.name) + ".json") as r:
            page = await r.json()
        assert page["marked"] is True and page["ratings"] == [] and page["history"] == []
        new = unique("Renamed").replace(" ", "")
        assert (await http(mod, "/mod/action", player=cheat.id, action="rename", name=new, reason="offensive"))[0] == 200
        assert (await post(Client(server, address=address()), "signin", username=new, password=PASSWORD))[0] == 200
        async with mod.session.get(server.url + player_path(mod.name) + ".json") as r:
            assert (await r.json())["roles"] == ["moderator"]                  # moderators are marked
        await close_all(mod, cheat)
    run(scenario())


def test_a_block_keeps_two_people_apart_in_seats_seeks_and_chat(server):
    async def scenario():
        me, pest, friend = await member(server), await member(server), await member(server)
        assert (await http(me, "/block", player=pest.id))[0] == 200
        made = await create(me, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "open"}])
        await pest.connect(f"/ws/g/{made['gameId']}")
        await pest.wait_for("hello")
        await pest.send({"type": "take", "seat": 1})
        assert "a block keeps you" in (await pest.wait_for("error"))["message"]
        for c in (me, pest):
            await c.connect("/ws/lobby")
            await c.wait_for("hello")
        await me.send({"type": "seek", "variant": "chess80", "tc": "600+5"})
        await pest.send({"type": "seek", "variant": "chess80", "tc": "600+5"})
        lobby = await pest.wait_for("lobby", seekCount=2)
        assert lobby["seekCount"] == 2                                  # not paired with each other
        slug = await game_with_chat(me, friend)
        await pest.connect(f"/ws/g/{slug}")
        await pest.wait_for("hello")
        await says(pest, "can you hear me", me, heard=False)
        await says(pest, "can you hear me now", friend)
        assert (await http(me, "/block", player=pest.id, on=False))[0] == 200
        await says(pest, "and now", me)
        await close_all(me, pest, friend)
    run(scenario())


async def taken_and_resigned(creator, taker):
    """A rated challenge of ``creator`` (in the lobby), taken by ``taker``, who resigns at once."""
    made = await create(creator, kind="two", variant="normal", tc="300+3", rated=True,
                        seats=[{"kind": "me"}, {"kind": "open"}])
    await taker.connect(f"/ws/g/{made['gameId']}")
    await taker.wait_for("hello")
    await taker.send({"type": "take", "seat": 1})
    await taker.state(status="playing")
    await taker.send({"type": "resign"})
    await taker.state(status="over")


def test_the_server_flags_quitting_in_a_row_and_rated_games_between_accounts_of_one_address(server):
    async def scenario():
        mod = await member(server, "moderator")
        one_address = address()
        farmer, puppet = await member(server, where=one_address), await member(server, where=one_address)
        for _ in range(3):
            await taken_and_resigned(farmer, puppet)
            await farmer.connect("/ws/lobby")
            await farmer.wait_for("hello")
        status, answer = await http(farmer, "/report", player=puppet.id, reason="sandbagging/boosting")
        assert status == 200
        status, page = await mod_page(mod)
        flags = next(r for r in page["reports"] if r["id"] == answer["report"])["evidence"]["flags"]
        assert "3 games in a row resigned, abandoned or aborted" in flags
        assert f"rated games against player {farmer.id}, signed in from the same address ({one_address})" in flags
        await close_all(mod, farmer, puppet)
    run(scenario())


def test_issue_52_a_closed_account_does_not_come_back_from_its_address_as_a_new_account_or_a_chatting_guest(server):
    async def scenario():
        mod, where = await member(server, "moderator"), address()
        closed = await member(server, where=where)
        assert (await http(mod, "/mod/action", player=closed.id, action="close", reason="abuse"))[0] == 200
        again = Client(server, address=where)                    # the same person, a new browser
        assert await again.open_page("/account") == 200
        status, answer = await post(again, "signup", username=unique("Again").replace(" ", ""), password=PASSWORD)
        assert status == 400 and answer["error"].startswith("sign-ups from your address are closed for now")
        guest = await new_player(server, "Comeback", address=where)
        other = await member(server)
        slug = await game_with_chat(other, guest)
        await guest.send({"type": "chat", "text": "back again"})
        assert (await guest.wait_for("error"))["message"].startswith("chat: guests from your address may not chat")
        assert (await http(mod, "/mod/action", player=closed.id, action="reopen", reason="appeal granted"))[0] == 200
        await says(guest, "sorry", other)
        assert (await post(again, "signup", username=unique("Again").replace(" ", ""), password=PASSWORD))[0] == 200
        assert slug
        await close_all(mod, closed, again, guest, other)
    run(scenario())


def test_issue_52_the_server_flags_rated_games_between_accounts_signed_in_from_one_browser(server):
    async def scenario():
        mod = await member(server, "moderator")
        browser = Client(server, address=address())              # one browser, two accounts in turn
        assert await browser.open_page("/") == 200
        first, second = unique("Alter").replace(" ", ""), unique("Ego").replace(" ", "")
        status, made = await post(browser, "signup", username=first, password=PASSWORD)
        assert status == 200, made
        first_id = made["player"]["id"]
        assert (await post(browser, "signout"))[0] == 200
        status, made = await post(browser, "signup", username=second, password=PASSWORD)
        assert status == 200, made
        second_id = made["player"]["id"]
        elsewhere = Client(server, address=address())           # the first account, on another device
        assert await elsewhere.open_page("/") == 200
        assert (await post(elsewhere, "signin", username=first, password=PASSWORD))[0] == 200
        for c in (browser, elsewhere):
            await c.connect("/ws/lobby")
            await c.wait_for("hello")
        await taken_and_resigned(elsewhere, browser)
        reporter = await member(server)
        status, answer = await http(reporter, "/report", player=second_id, reason="sandbagging/boosting")
        assert status == 200
        status, page = await mod_page(mod)
        flags = next(r for r in page["reports"] if r["id"] == answer["report"])["evidence"]["flags"]
        assert f"rated games against player {first_id}, signed in from the same browser" in flags
        assert not any("same address" in f for f in flags)
        await close_all(mod, browser, elsewhere, reporter)
    run(scenario())


def test_issue_52_marking_a_cheat_gives_their_opponents_back_the_points_they_lost_to_them_once(server):
    async def scenario():
        mod, cheat, victim = await member(server, "moderator"), await member(server), await member(server)
        await game_between(cheat, victim, ["e2e4", "e7e5", "a2a3", "a7a6", "h2h3", "h7h6"], variant="normal",
                           tc="300+3", rated=True)
        await victim.send({"type": "resign"})
        state = await cheat.state(status="over")
        lost = state["ratingChanges"]["seats"]["1"]
        assert lost[1] < lost[0] == 1500

        async def rating_of(person):
            async with person.session.get(server.url + player_path(person.name) + ".json") as r:
                return [x["rating"] for x in (await r.json())["ratings"]]
        assert await rating_of(victim) == [lost[1]]
        assert (await http(mod, "/mod/action", player=cheat.id, action="engine", reason="engine moves"))[0] == 200
        assert await rating_of(victim) == [1500]                              # the points lost, given back
        for action in ("lift", "booster"):                                    # a second mark gives nothing more
            assert (await http(mod, "/mod/action", player=cheat.id, action=action, kind="engine",
                               reason="again"))[0] == 200
        assert await rating_of(victim) == [1500]
        await close_all(mod, cheat, victim)
    run(scenario())
