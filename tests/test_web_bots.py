"""Bot accounts on the real server over real WebSockets: the real ``xboard-engine bot`` client (a
child process driving our own engine, or a scripted fake one) keeps an engine online; people
challenge it from the lobby and it plays on its own clock; challenges outside its rules are refused
or declined with the reason; two bot accounts play a rated game and both get ratings; a person and
a bot account never play a rated one; the bot comes back after the server restarts; the lobby and
the player page show the bot; ``bot`` messages that are wrong are refused with the reason."""
import asyncio
import os
import shlex
import signal
import stat
import subprocess
import sys
import threading
import time
from typing import List

import pytest

from needs import need, need_module

aiohttp = need_module("aiohttp")

from live_client import ROOT, Client, LiveServer, close_all, create, new_player, player_path, run  # noqa: E402

PY = shlex.quote(sys.executable)
OUR_ENGINE = f"{PY} -m xboard_engine"
RESIGNER = f"{PY} {shlex.quote(os.path.join(ROOT, 'tests', 'fake_engines', 'resign.py'))} 3"


class BotProcess:
    """``xboard-engine bot`` in a child process; its printed lines gathered as they come."""

    def __init__(self, server: LiveServer, name: str, engine: str, token_file: str, *rules: str) -> None:
        self.name = name
        self.token_file = token_file
        self.lines: List[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xboard_engine", "bot", "--server", server.url, "--engine", engine,
             "--name", name, "--token-file", token_file] + list(rules),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    async def said(self, words: str, timeout: float = 30.0, count: int = 1) -> str:
        """The ``count``-th printed line with ``words`` in it (waiting up to ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while True:
            found = [line for line in self.lines if words in line]
            if len(found) >= count:
                return found[count - 1]
            if time.monotonic() > deadline or self.proc.poll() is not None and not found:
                raise AssertionError(f"{self.name} did not say {words!r}: {self.lines[-12:]}")
            await asyncio.sleep(0.1)

    def token(self) -> str:
        with open(self.token_file) as f:
            return f.read().strip()

    def interrupt(self) -> int:
        """Ctrl-C; the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("bots"), "--first-move", "0", "--max-challenges", "50")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def testbot(server, tmp_path_factory):
    """Our own engine as "TestBot": chess and chess80, clocks of 30 to 600 s, at most 2 games."""
    bot = BotProcess(server, "TestBot", OUR_ENGINE, str(tmp_path_factory.mktemp("tokens") / "testbot.token"),
                     "--variants", "normal,chess80", "--min-tc", "30", "--max-tc", "600", "--both", "--max-games", "2")
    run(bot.said("online at"), 60)
    yield bot
    bot.interrupt()


@pytest.fixture(scope="module")
def resigner(server, tmp_path_factory):
    """A scripted engine as "Resigner": three random legal moves, then it resigns."""
    bot = BotProcess(server, "Resigner", RESIGNER, str(tmp_path_factory.mktemp("tokens") / "resigner.token"),
                     "--variants", "normal", "--rated")
    run(bot.said("online at"), 60)
    yield bot
    bot.interrupt()


async def get_json(client: Client, path: str):
    async with client.session.get(client.server.url + path) as response:
        return response.status, await response.json()


async def fake_bot(server: LiveServer, name: str, **rules) -> Client:
    """A lobby connection that says ``bot`` itself (to see the messages a bot client gets)."""
    client = await new_player(server, name)
    await client.send(dict({"type": "bot", "variants": ["normal"], "minTc": 0, "maxTc": 3000, "rated": "both",
                            "maxGames": 1, "engine": "Fake 1.0"}, **rules))
    await client.wait_for("botReady")
    return client


async def refusal(client: Client, message) -> str:
    await client.send(message)
    return (await client.wait_for("error"))["message"]


def challenge(bot_name: str, variant: str = "normal", tc: str = "30+0", **extra):
    return dict({"type": "create", "kind": "two", "variant": variant, "tc": tc,
                 "seats": [{"kind": "me"}, {"kind": "account", "name": bot_name}]}, **extra)


# ---------------------------------------------------------------- a person against the bot client
def test_a_person_challenges_the_bot_it_plays_legal_moves_on_its_clock_and_the_result_is_kept(server, testbot):
    async def scenario():
        pat = await new_player(server, "Pat")
        view = await pat.wait_for("lobby", bots=lambda b: any(x["name"] == "TestBot" for x in b or []))
        listed = next(x for x in view["bots"] if x["name"] == "TestBot")
        assert (listed["variants"], listed["minTc"], listed["maxTc"], listed["rated"], listed["maxGames"]) == (
            ["normal", "chess80"], 30, 600, "both", 2)
        assert listed["engine"] and listed["playing"] == 0
        made = await create(pat, **challenge("TestBot"))
        assert made["invites"] == []                         # the bot's secret goes to the bot alone
        await pat.connect(f"/ws/g/{made['gameId']}")
        state = await pat.state(status="playing", timeout=20)
        assert state["rated"] is False and [s["kind"] for s in state["online"]] == ["player", "player"]
        await testbot.said(f"accepted {pat.name}'s challenge (normal 30+0, casual)")
        await pat.send({"type": "move", "move": "e2e4"})
        state = await pat.state(sans=lambda s: len(s) == 2, timeout=30)
        await pat.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
        state = await pat.state(sans=lambda s: len(s) == 4, timeout=30)
        assert state["clocks"][1] < 30.0                   # its second move ran its own clock
        await pat.send({"type": "resign"})
        state = await pat.state(status="over")
        assert state["result"] == "0-1" and state["ratingChanges"] is None
        await testbot.said(f"game {made['gameId']}: finished 0-1 (White resigns): won")
        status, page = await get_json(pat, player_path(listed['name']) + ".json")
        assert status == 200 and page["bot"]["engine"] == listed["engine"] and page["bot"]["online"] is True
        assert page["bot"]["variants"] == ["normal", "chess80"] and page["ratings"] == []
        assert page["results"]["normal"]["won"] >= 1
        status, mine = await get_json(pat, player_path(pat.name) + ".json")      # a challenge's game is listed to its players
        game = next(g for g in mine["finished"] if g["gameId"] == made["gameId"])
        assert game["result"] == "0-1" and mine["bot"] is None
        assert [s.get("botAccount", False) for s in game["seats"]] == [False, True]
        await close_all(pat)
    run(scenario())


def test_a_rated_challenge_from_a_person_and_challenges_outside_the_bots_rules_are_refused_with_the_reason(
        server, testbot):
    async def scenario():
        pat = await new_player(server, "Pia")
        await pat.wait_for("lobby", bots=lambda b: any(x["name"] == "TestBot" for x in b or []))
        assert "never rated" in await refusal(pat, challenge("TestBot", rated=True))
        assert "does not play fullcavalry" in await refusal(pat, challenge("TestBot", variant="fullcavalry"))
        why = await refusal(pat, challenge("TestBot", tc="1800+20"))
        assert "plays clocks of 30 to 600 s" in why and "2600" in why
        assert "a clock of seconds + increment" in await refusal(pat, challenge("TestBot", tc="none"))
        assert "no player named 'Nobody Here'" in await refusal(pat, challenge("Nobody Here"))
        other = await new_player(server, "Pol")
        assert "is not a bot account" in await refusal(pat, challenge(other.name))
        bad = challenge("TestBot")
        bad["seats"] = [{"kind": "account", "name": "TestBot"}, {"kind": "open"}]
        assert "two seats" in await refusal(pat, bad)
        await close_all(pat, other)
    run(scenario())


def test_a_bot_hears_a_challenge_and_its_decline_ends_the_game_with_the_reason_and_a_busy_bot_is_refused(server):
    async def scenario():
        bot = await fake_bot(server, "Decliner", maxGames=1)
        pat = await new_player(server, "Pam")
        made = await create(pat, **challenge(bot.name, tc="60+1"))
        heard = await bot.wait_for("challenge")
        assert {k: heard[k] for k in ("gameId", "variant", "tc", "rated", "seat", "from", "fromBot")} == {
            "gameId": made["gameId"], "variant": "normal", "tc": "60+1", "rated": False, "seat": 1,
            "from": pat.name, "fromBot": False}
        assert "busy" in await refusal(pat, challenge(bot.name, tc="60+1"))     # the pending one counts
        someone = await new_player(server, "Pip")
        assert "not to you" in await refusal(someone, {"type": "decline", "gameId": made["gameId"]})
        await someone.connect(f"/ws/g/{made['gameId']}")
        await someone.wait_for("hello")
        await someone.send({"type": "take", "seat": 1, "secret": heard["secret"]})
        assert "kept for the bot account" in (await someone.wait_for("error"))["message"]
        await pat.connect(f"/ws/g/{made['gameId']}")
        await pat.state(status="open")
        await bot.send({"type": "decline", "gameId": made["gameId"], "reason": "resting <b>now</b>"})
        state = await pat.state(status="aborted")
        assert state["outcome"]["reason"] == f"{bot.name} declined the challenge: resting <b>now</b>"
        assert "no longer waiting" in await refusal(bot, {"type": "decline", "gameId": made["gameId"]})
        await pat.connect("/ws/lobby")
        second = await create(pat, **challenge(bot.name, tc="60+1"))
        await bot.wait_for("challenge", gameId=second["gameId"])
        await pat.connect(f"/ws/g/{second['gameId']}")
        await pat.state(status="open")
        await bot.close()                                     # offline now: what waits for it ends
        state = await pat.state(status="aborted")
        assert state["outcome"]["reason"] == f"{bot.name} went offline before answering the challenge"
        await pat.connect("/ws/lobby")
        assert "is not online now" in await refusal(pat, challenge(bot.name, tc="60+1"))
        await close_all(pat, someone)
    run(scenario())


def test_one_stranger_cannot_keep_a_bot_account_busy(server):
    """Issue 52, defect 6: a stranger who challenged a bot again every 0.5 s and never moved kept it
    busy (13 of 13 other challenges refused).  Now a person holds at most half of a bot's games at once
    (at least one); one who leaves a game the bot took unplayed waits before challenging it again (others
    may); a challenge the bot declined costs nothing."""
    from xboard_engine.web.community.bot_accounts import UNPLAYED_WAIT

    async def scenario():
        bot = await fake_bot(server, "Patient", maxGames=2)
        staller = await new_player(server, "Staller")
        made = await create(staller, **challenge(bot.name, tc="60+1"))
        heard = await bot.wait_for("challenge", gameId=made["gameId"])
        assert await refusal(staller, challenge(bot.name, tc="60+1")) == \
            f"{bot.name} plays 1 of its games with you already, at most 1 at once: finish one first"
        taker = Client(server)                        # the bot's game connection, as its client opens it
        taker.session = bot.session
        await taker.connect(f"/ws/g/{made['gameId']}")
        await taker.wait_for("hello")
        await taker.send({"type": "take", "seat": 1, "secret": heard["secret"]})
        await taker.wait_for("hello", yourSeats=[1])
        await staller.connect(f"/ws/g/{made['gameId']}")
        await staller.state(status="playing")
        await staller.send({"type": "abort"})
        await staller.state(status="aborted")
        await staller.connect("/ws/lobby")
        await staller.wait_for("lobby")
        wait = f"your last game with {bot.name} ended before you moved: you may challenge it again in "
        message = await refusal(staller, challenge(bot.name, tc="60+1"))
        assert message.startswith(wait) and 0 < int(message[len(wait):].split()[0]) <= UNPLAYED_WAIT, message
        puppet = await new_player(server, "Puppet")   # someone else (a cookie of the same address too)
        another = await create(puppet, **challenge(bot.name, tc="60+1"))
        await bot.wait_for("challenge", gameId=another["gameId"])
        other = await fake_bot(server, "Picky", maxGames=1)
        first = await create(puppet, **challenge(other.name, tc="60+1"))
        await other.wait_for("challenge", gameId=first["gameId"])
        await puppet.connect(f"/ws/g/{first['gameId']}")
        await puppet.state(status="open")
        await other.send({"type": "decline", "gameId": first["gameId"], "reason": "not now"})
        await puppet.state(status="aborted")
        await puppet.connect("/ws/lobby")
        await puppet.wait_for("lobby")
        second = await create(puppet, **challenge(other.name, tc="60+1"))   # declined: no wait
        await other.wait_for("challenge", gameId=second["gameId"])
        await taker.ws.close()
        await close_all(bot, other, staller, puppet)
    run(scenario())


def test_a_bot_account_plays_only_challenges_and_a_person_who_has_played_cannot_become_one(server):
    async def scenario():
        bot = await fake_bot(server, "Loner")
        assert "cannot seek a game" in await refusal(bot, {"type": "seek", "variant": "normal", "tc": "300+3"})
        assert "cannot create a tournament" in await refusal(bot, {"type": "tournament", "kind": "arena",
                                                                   "variant": "normal", "tc": "180+2", "minutes": 30})
        own_game = {"type": "create", "kind": "two", "variant": "normal", "tc": "300+3",
                    "seats": [{"kind": "me"}, {"kind": "open"}]}
        assert "plays only challenges" in await refusal(bot, own_game)
        pat = await new_player(server, "Pru")
        made = await create(pat, kind="two", variant="normal", tc="300+3", seats=[{"kind": "me"}, {"kind": "open"}])
        await bot.connect(f"/ws/g/{made['gameId']}")
        await bot.wait_for("hello")
        await bot.send({"type": "take", "seat": 1})
        assert "only the seats of challenges made to it" in (await bot.wait_for("error"))["message"]
        await pat.send({"type": "bot", "variants": ["normal"]})          # Pru has a game as a person
        assert "has played as a person" in (await pat.wait_for("error"))["message"]
        await close_all(bot, pat)
    run(scenario())


def test_wrong_bot_messages_are_refused_with_the_reason_and_change_nothing(server):
    async def scenario():
        guest = Client(server)
        await guest.open_page("/")
        await guest.connect("/ws/lobby")
        await guest.wait_for("lobby")
        assert "choose a name first" in await refusal(guest, {"type": "bot"})
        pat = await new_player(server, "Pax")
        cases = [({"variants": "normal"}, "bot: variants must be a list"),
                 ({"variants": []}, "variants: want a list"),
                 ({"variants": ["normal"] * 2000}, "message too long"),
                 ({"variants": ["normal"] * 500}, "variants: at most"),
                 ({"variants": ["nonsense"]}, "unknown variant 'nonsense'"),
                 ({"variants": [{"a": 1}]}, "unknown variant"),
                 ({"minTc": "5"}, "bot: minTc must be a number"),
                 ({"maxTc": 10 ** 9}, "maxTc: seconds"),
                 ({"minTc": True}, "bot: minTc must be a number"),
                 ({"minTc": 600, "maxTc": 60}, "minTc is above maxTc"),
                 ({"rated": "yes"}, 'rated: "rated", "casual" or "both"'),
                 ({"rated": ["rated"]}, "bot: rated must be text"),
                 ({"maxGames": 0}, "maxGames: a whole number"),
                 ({"maxGames": 1.5}, "bot: maxGames must be a whole number"),
                 ({"maxGames": True}, "bot: maxGames must be a whole number"),
                 ({"maxGames": 11}, "maxGames: a whole number, 1 to 10"),
                 ({"engine": 123}, "bot: engine must be text"),
                 ({"engine": "x" * 500}, "engine: at most 80")]
        for fields, words in cases:
            why = await refusal(pat, dict({"type": "bot"}, **fields))
            assert words in why, (fields, why)
        for message in ({"type": "decline"}, {"type": "decline", "gameId": "x" * 99}):
            assert "no such game" in await refusal(pat, message)
        assert await refusal(pat, {"type": "decline", "gameId": 5}) == "decline: gameId must be text"
        status, page = await get_json(pat, player_path(pat.name) + ".json")
        assert page["bot"] is None
        await close_all(guest, pat)
    run(scenario())


# ---------------------------------------------------------------- two bot clients
def test_two_bot_clients_play_a_rated_game_and_both_get_ratings(server, testbot, resigner):
    async def scenario():
        # TestBot's own account challenges Resigner (a second page of the same player, by its token).
        page = Client(server)
        page.session.cookie_jar.update_cookies({"xbe_player": testbot.token()})
        await page.connect("/ws/lobby")
        await page.wait_for("lobby", bots=lambda b: {"TestBot", "Resigner"} <= {x["name"] for x in b or []})
        made = await create(page, **challenge("Resigner", tc="60+0", rated=True))
        game = made["gameId"]
        await resigner.said("accepted TestBot's challenge (normal 60+0, rated)")
        await testbot.said(f"playing game {server.url}/g/{game} as White")
        line = await testbot.said(f"game {game}: finished 1-0", timeout=60)
        assert "won; rating 1500 -> " in line
        assert "lost; rating 1500 -> " in await resigner.said(f"game {game}: finished 1-0")
        await page.connect(f"/ws/g/{game}")
        state = await page.state(status="over")
        assert state["rated"] and state["result"] == "1-0" and len(state["sans"]) == 7   # Black resigns (or is mated)
        for seat in state["online"]:
            status, data = await get_json(page, player_path(seat['name']) + ".json")
            (rating,) = data["ratings"]
            assert rating["key"] == "two:normal" and rating["games"] == 1 and data["bot"]["online"]
        await page.connect("/ws/lobby")
        assert "plays rated games only" in await refusal(page, challenge("Resigner", tc="60+0"))
        await close_all(page)
    run(scenario())


def test_the_lobby_page_lists_the_bots_with_a_badge_and_its_challenge_button_starts_a_game(server, testbot):
    need("browser")
    import web_page
    driver = web_page.chrome()
    script = driver.execute_script
    try:
        driver.get(server.url + "/")
        web_page.wait_until(lambda: script("return document.body.dataset.bots") == "2", 15, lambda: "no bots listed")
        rows = driver.find_elements("css selector", "#bots tbody tr")
        names = [r.find_element("css selector", "a").text for r in rows]
        assert names == ["Resigner", "TestBot"]
        assert [r.find_element("css selector", ".bot-badge").text for r in rows] == ["BOT", "BOT"]
        rows[0].find_element("css selector", "button").click()           # the form's 5 min + 3 s: casual only
        web_page.wait_until(lambda: "rated games only" in driver.find_element("id", "lobby-message").text, 10,
                            lambda: driver.find_element("id", "lobby-message").text)
        rows[1].find_element("css selector", "button").click()
        web_page.wait_until(lambda: script("return document.body.dataset.status") == "playing", 20,
                            lambda: driver.current_url)
        driver.find_element("id", "abort").click()
        web_page.wait_until(lambda: script("return document.body.dataset.status") == "aborted", 10, lambda: "no abort")
        driver.get(server.url + player_path("TestBot"))
        web_page.wait_until(lambda: script("return document.body.dataset.ready") == "1", 10, lambda: "no page")
        assert driver.find_element("id", "player-bot").text.startswith("Bot account (xboard-variant-engine")
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        driver.quit()


def bot_player_id(server) -> int:
    async def look():
        person = await new_player(server, "Pia")
        view = await person.wait_for("lobby", bots=lambda b: any(x["name"] == "TestBot" for x in b or []))
        await close_all(person)
        return next(x["player"] for x in view["bots"] if x["name"] == "TestBot")
    return run(look())


def test_a_uci_engine_plays_chess960_and_an_engine_that_crashes_resigns_its_game(server, tmp_path):
    fakes = os.path.join(ROOT, "tests", "fake_engines")
    uci = BotProcess(server, "Randy", f"{PY} {shlex.quote(os.path.join(fakes, 'uci_random.py'))}",
                     str(tmp_path / "uci.token"), "--uci", "--casual")
    crash = BotProcess(server, "Crashy", f"{PY} {shlex.quote(os.path.join(fakes, 'crash.py'))} 1",
                       str(tmp_path / "crash.token"), "--variants", "normal")

    async def scenario():
        await uci.said("online at")
        line = await crash.said("online at")
        assert "as Crashy (fake; normal;" in line
        pat = await new_player(server, "Pet")
        for bot, variant, plies in ((uci, "fischerandom", 4), (crash, "normal", 2)):
            await pat.connect("/ws/lobby")
            made = await create(pat, **challenge(bot.name, variant=variant))
            await pat.connect(f"/ws/g/{made['gameId']}")
            state = await pat.state(status="playing", timeout=20)
            for ply in range(0, plies, 2):
                await pat.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
                state = await pat.state(sans=lambda s, ply=ply: len(s) == ply + 2, timeout=30)
            if bot is uci:
                await pat.send({"type": "resign"})
                await pat.state(status="over")
            else:
                await pat.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
                state = await pat.state(status="over", timeout=30)       # its engine exits: it resigns
                assert state["result"] == "1-0" and state["reason"] == "Black resigns"
                await crash.said("the engine gives up")
        await close_all(pat)
    try:
        run(scenario())
    finally:
        assert uci.interrupt() == 0 and crash.interrupt() == 0


# ---------------------------------------------------------------- the store and the rated rule
def test_the_store_keeps_a_bot_accounts_rules_and_since_when_and_the_rated_rule_keeps_people_and_bots_apart(
        tmp_path):
    from xboard_engine.web.community import rated
    from xboard_engine.web.identity.names import fold
    from xboard_engine.web.store.sqlite import SqliteStore
    path = str(tmp_path / "live.sqlite3")
    store = SqliteStore(path, fold=fold)
    bot = store.add_player("hash-bot", "Botty", fold("Botty"))
    person = store.add_player("hash-person", "Person", fold("Person"))
    assert store.bot_account(bot) is None and store.bot_account_ids() == []
    store.set_bot_account(bot, {"variants": ["normal"], "maxGames": 1})
    (info, since) = store.bot_account(bot)
    time.sleep(0.01)
    store.set_bot_account(bot, {"variants": ["chess80"], "maxGames": 2})
    store.close()
    store = SqliteStore(path, fold=fold)                  # kept across a restart
    assert store.bot_account(bot) == ({"variants": ["chess80"], "maxGames": 2}, since)
    assert store.bot_account(person) is None and store.bot_account_ids() == [bot]
    store.close()
    assert rated.seats_why_unrated("two", ["me", "account"], [True, True]) is None
    assert "never rated" in rated.seats_why_unrated("two", ["me", "account"], [False, True])
    assert "never rated" in rated.seats_why_unrated("two", ["me", "open"], [True, False])
    assert rated.seats_why_unrated("two", ["me", "open"]) is None and info["maxGames"] == 1


# ---------------------------------------------------------------- the client itself
def test_the_token_file_is_made_private_and_the_client_says_what_is_wrong_without_a_traceback(tmp_path, server):
    token = tmp_path / "sub" / "bot.token"
    done = subprocess.run([sys.executable, "-m", "xboard_engine", "bot", "--server", server.url, "--engine",
                           "/no/such/engine", "--token-file", str(token)], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2 and "the engine does not start" in done.stderr and "Traceback" not in done.stderr
    code = ("import sys, builtins; real = builtins.__import__\n"
            "def no_aiohttp(name, *a, **k):\n"
            "    if name.startswith('aiohttp'): raise ImportError(name)\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = no_aiohttp\n"
            "from xboard_engine.cli import main; sys.exit(main(['bot', '--server', 'http://x', '--engine', 'e']))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "pip install aiohttp" in done.stderr
    from xboard_engine.botclient.program import load_token
    first = load_token(str(token))
    assert load_token(str(token)) == first and len(first) >= 16
    assert stat.S_IMODE(os.stat(token).st_mode) == 0o600


def test_the_bot_comes_back_after_the_server_restarts_plays_its_game_on_and_ctrl_c_stops_it(server, testbot):
    def times(words: str) -> int:
        return sum(words in line for line in testbot.lines)

    async def scenario():
        pat = await new_player(server, "Pen")
        made = await create(pat, **challenge("TestBot", tc="60+0"))
        game = made["gameId"]
        await pat.connect(f"/ws/g/{game}")
        await pat.state(status="playing", timeout=20)
        await pat.send({"type": "move", "move": "e2e4"})
        await pat.state(sans=lambda s: len(s) == 2, timeout=30)
        reconnecting, online = times("reconnecting in"), times("online at")
        server.stop()
        await testbot.said("reconnecting in", timeout=20, count=reconnecting + 1)
        server.start()
        await testbot.said("online at", timeout=40, count=online + 1)
        await pat.connect("/ws/lobby")                       # the same browser profile, back
        view = await pat.wait_for("lobby", timeout=20)
        assert next(x for x in view["bots"] if x["name"] == "TestBot")["maxGames"] == 2
        await pat.connect(f"/ws/g/{game}")
        state = await pat.state(status="playing")
        await pat.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
        await pat.state(sans=lambda s: len(s) == 4, timeout=40)       # the bot plays on after the restart
        await pat.send({"type": "resign"})
        await pat.state(status="over")
        await testbot.said(f"game {game}: finished 0-1")
        await close_all(pat)
    run(scenario())
    assert testbot.interrupt() == 0
    assert any("stopping" in line or "stopped" in line for line in testbot.lines[-3:])
    assert not any("Traceback" in line for line in testbot.lines)


def test_an_unanswered_challenge_ends_after_20_s_and_one_waiting_at_a_restart_is_sent_again(tmp_path):
    """The server's two waits on a bot account: a challenge it neither takes nor declines ends after
    ANSWER_SECONDS with the reason; one still waiting when the server stops is sent again, with a
    new secret, when the bot is back (the old secret no longer takes the seat)."""
    from xboard_engine.web.community.bot_accounts import ANSWER_SECONDS
    own = LiveServer(tmp_path, "--first-move", "0", "--max-challenges", "50")

    async def scenario():
        bot = await fake_bot(own, "Silent", maxGames=2)
        pat = await new_player(own, "Pia")
        made = await create(pat, **challenge(bot.name, tc="60+1"))
        await bot.wait_for("challenge", gameId=made["gameId"])
        await pat.connect(f"/ws/g/{made['gameId']}")
        started = time.monotonic()
        state = await pat.state(status="aborted", timeout=ANSWER_SECONDS + 10)
        assert ANSWER_SECONDS - 1 <= time.monotonic() - started <= ANSWER_SECONDS + 5
        assert state["outcome"]["reason"] == f"{bot.name} did not answer the challenge within {ANSWER_SECONDS:g} s"
        # a second challenge, waiting when the server stops
        await pat.connect("/ws/lobby")
        second = await create(pat, **challenge(bot.name, tc="60+1"))
        first_heard = await bot.wait_for("challenge", gameId=second["gameId"])
        own.stop()
        own.start()
        for client in (bot, pat):                     # the same browser profiles come back
            await client.connect("/ws/lobby")
            await client.wait_for("lobby")
        await bot.send({"type": "bot", "variants": ["normal"], "minTc": 0, "maxTc": 3000, "rated": "both",
                        "maxGames": 2, "engine": "Fake 1.0"})
        heard = await bot.wait_for("challenge", gameId=second["gameId"], timeout=20)
        assert heard["secret"] != first_heard["secret"] and heard["from"] == pat.name
        taker = Client(own)                           # the bot's second connection, as its client would open
        taker.session = bot.session
        await taker.connect(f"/ws/g/{second['gameId']}")
        await taker.wait_for("hello")
        await taker.send({"type": "take", "seat": 1, "secret": first_heard["secret"]})
        assert "the invite link is wrong or used" in (await taker.wait_for("error"))["message"]
        await taker.send({"type": "take", "seat": 1, "secret": heard["secret"]})
        await taker.wait_for("hello", yourSeats=[1])
        await pat.connect(f"/ws/g/{second['gameId']}")
        await pat.state(status="playing")
        await taker.ws.close()
        await close_all(bot, pat)
    try:
        run(scenario(), timeout=120)
    finally:
        own.stop()
