"""Accounts over real HTTP and WebSockets against the real `xboard-engine serve` (issue 52): a guest
signs up keeping its games, ratings and name; one account on two browsers is one person; sessions
are listed and ended (their pages closed at once); passwords change; two-factor codes; the
administrator's reset link works once; guessing is refused past the limits; rated games need an
account; bot accounts belong to an account, which makes them and replaces their tokens.  The server
runs with its defaults (``--rated-needs-account on``, ``--bots-need-owners on``), behind a trusted proxy
so that each test's browsers come from addresses of their own."""
import asyncio
import itertools
import subprocess
import sys

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import ROOT, Client, LiveServer, close_all, create, new_player, player_path, run, unique  # noqa: E402
from yarl import URL  # noqa: E402

from xboard_engine.web.identity import passwords  # noqa: E402
from xboard_engine.web.identity.accounts import SIGN_IN_PER_ADDRESS, SIGN_IN_PER_NAME, WRONG  # noqa: E402

PASSWORD = "correct horse staple"
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("accounts"), "--rated-needs-account", "on", "--bots-need-owners", "on",
                   "--trusted-proxy", "127.0.0.1")
    yield s
    s.stop()


def address() -> str:
    """An address no other browser of these tests has (sign-ups are limited per address)."""
    n = next(_addresses)
    return f"10.52.{n // 250}.{n % 250 + 1}"


async def browser(server, where=None) -> Client:
    client = Client(server, address=where or address())
    assert await client.open_page("/account") == 200
    return client


async def post(client: Client, path: str, **body):
    async with client.session.post(f"{client.server.url}/account/{path}", json=body,
                                   headers={"Origin": client.server.url}) as response:
        return response.status, await response.json()


async def account(client: Client):
    async with client.session.get(f"{client.server.url}/account.json") as response:
        return await response.json()


async def lobby_you(client: Client):
    await client.connect("/ws/lobby")
    return (await client.wait_for("hello"))["you"]


async def close_code(client: Client, timeout: float = 5.0):
    """The code the server closes the client's socket with (what it sent before is passed over)."""
    while True:
        message = await client.ws.receive(timeout=timeout)
        if message.type == aiohttp.WSMsgType.CLOSE:
            return message.data
        if message.type == aiohttp.WSMsgType.CLOSED:
            return client.ws.close_code


async def signed_up(server, name=None, password=PASSWORD):
    client = await browser(server)
    name = name or unique("Acct").replace(" ", "")
    status, answer = await post(client, "signup", username=name, password=password)
    assert status == 200, answer
    client.name, client.id = answer["player"]["name"], answer["player"]["id"]
    return client


def test_a_guest_signs_up_keeping_its_name_and_games_and_a_second_browser_is_the_same_person(server):
    async def scenario():
        guest = await new_player(server, "Keeper", address=address())
        made = await create(guest, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "open"}])
        name = guest.name.replace(" ", "")
        await guest.send({"type": "name", "name": name})
        await guest.wait_for("you")
        status, answer = await post(guest, "signup", username=name, password=PASSWORD)
        assert status == 200 and answer["player"] == {"id": guest.id, "name": name}
        # the lobby socket of the old cookie was closed; the page comes back as the account
        assert (await lobby_you(guest))["id"] == guest.id
        laptop = await browser(server)
        status, answer = await post(laptop, "signin", username=name.upper(), password=PASSWORD)
        assert status == 200 and answer["player"]["id"] == guest.id
        you = await lobby_you(laptop)
        assert (you["id"], you["name"], you["account"]) == (guest.id, name, True)
        mine = (await laptop.wait_for("lobby"))["mine"]
        assert made["gameId"] in [g["gameId"] for g in mine]          # the same games on both
        sessions = (await account(laptop))["sessions"]
        assert len(sessions) == 2 and [s["current"] for s in sessions].count(True) == 1
        await close_all(guest, laptop)
    run(scenario())


def test_sign_up_refuses_weak_passwords_and_taken_or_look_alike_usernames(server):
    async def scenario():
        taken = await signed_up(server, "Camilla")
        client = await browser(server)
        for username, password, words in (
                ("Newcomer", "short", "at least 8 characters"),
                ("Newcomer", "Password1", "among the most used"),
                ("Newcomer", "xxNewcomerxx", "must not contain your username"),
                ("CAMILLA", PASSWORD, "is taken"), ("Cami11a", PASSWORD, "is taken"),
                ("Guest 123", PASSWORD, "kept for the server"), ("a<b>", PASSWORD, "no brackets")):
            status, answer = await post(client, "signup", username=username, password=password)
            assert status == 400 and words in answer["error"], (username, answer)
        assert (await account(client))["signedIn"] is False
        await close_all(taken, client)
    run(scenario())


def test_an_account_name_may_change_its_case_only(server):
    async def scenario():
        member = await signed_up(server)
        await member.connect("/ws/lobby")
        await member.wait_for("hello")
        await member.send({"type": "name", "name": "Someone Else"})
        assert "only its letters' case may change" in (await member.wait_for("error"))["message"]
        await member.send({"type": "name", "name": member.name.upper()})
        assert (await member.wait_for("you"))["you"]["name"] == member.name.upper()
        await member.close()
    run(scenario())


def test_sign_out_everywhere_closes_the_other_browsers_pages_and_its_cookie_is_a_guest_after(server):
    async def scenario():
        phone = await signed_up(server)
        laptop = await browser(server)
        assert (await post(laptop, "signin", username=phone.name, password=PASSWORD))[0] == 200
        await laptop.connect("/ws/lobby")
        assert (await laptop.wait_for("hello"))["you"]["id"] == phone.id
        status, _ = await post(phone, "signout", everywhere=True)
        assert status == 200
        assert await close_code(laptop) == 4002
        # the old cookie of each browser names nobody now
        assert (await lobby_you(laptop)) is None
        assert (await account(laptop))["signedIn"] is False and (await account(phone))["signedIn"] is False
        status, answer = await post(laptop, "sessions/end", session="0" * 16)
        assert status == 400 and answer["error"] == "you are not signed in"
        await close_all(phone, laptop)
    run(scenario())


def test_ending_one_session_from_the_list_and_changing_the_password_end_the_others(server):
    async def scenario():
        first = await signed_up(server)
        second, third = await browser(server), await browser(server)
        for other in (second, third):
            assert (await post(other, "signin", username=first.name, password=PASSWORD))[0] == 200
        listed = (await account(first))["sessions"]
        second_id = next(s["id"] for s in (await account(second))["sessions"] if s["current"])
        assert len(listed) == 3 and second_id in [s["id"] for s in listed]
        assert (await post(first, "sessions/end", session=second_id))[0] == 200
        assert (await account(second))["signedIn"] is False and (await account(third))["signedIn"] is True
        status, answer = await post(first, "password", old="not the password", new="another good one")
        assert status == 400 and "not it" in answer["error"]
        assert (await post(first, "password", old=PASSWORD, new="another good one"))[0] == 200
        assert (await account(third))["signedIn"] is False and (await account(first))["signedIn"] is True
        status, answer = await post(await browser(server), "signin", username=first.name, password=PASSWORD)
        assert (status, answer["error"]) == (400, WRONG)
        assert (await post(await browser(server), "signin", username=first.name, password="another good one"))[0] == 200
        await close_all(first, second, third)
    run(scenario())


def test_two_factor_codes_are_asked_at_sign_in_and_a_recovery_code_works_once(server):
    async def scenario():
        member = await signed_up(server)
        status, begun = await post(member, "two-factor", step="begin")
        assert status == 200 and begun["link"].startswith("otpauth://totp/")
        status, answer = await post(member, "two-factor", step="confirm", code="000000"
                                    if passwords.totp_code(begun["secret"]) != "000000" else "111111")
        assert status == 400 and "not right" in answer["error"]
        status, confirmed = await post(member, "two-factor", step="confirm", code=passwords.totp_code(begun["secret"]))
        assert status == 200 and len(confirmed["recovery"]) == passwords.RECOVERY_CODES
        other = await browser(server)
        status, answer = await post(other, "signin", username=member.name, password=PASSWORD)
        assert status == 400 and answer["error"].startswith("two-factor code")
        status, answer = await post(other, "signin", username=member.name, password=PASSWORD,
                                    code=passwords.totp_code(begun["secret"]))
        assert status == 200
        code = confirmed["recovery"][0]
        assert (await post(await browser(server), "signin", username=member.name, password=PASSWORD, code=code))[0] == 200
        status, answer = await post(await browser(server), "signin", username=member.name, password=PASSWORD, code=code)
        assert status == 400 and "was used" in answer["error"]
        await close_all(member, other)
    run(scenario())


def test_an_administrators_reset_link_sets_a_password_once_and_ends_the_sessions(server):
    async def scenario():
        member = await signed_up(server)
        made = subprocess.run([sys.executable, "-m", "xboard_engine", "admin", "--data-dir", server.data_dir]
                              + (["--database", server.database] if server.database else [])
                              + ["reset-password", member.name.lower()],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert made.returncode == 0, made.stderr
        link = made.stdout.strip()
        assert link.startswith("/reset#")
        secret = link.split("#", 1)[1]
        stranger = await browser(server)
        status, answer = await post(stranger, "reset", secret=secret, password="fresh and new")
        assert status == 200 and answer["name"] == member.name
        assert (await account(member))["signedIn"] is False
        status, answer = await post(stranger, "reset", secret=secret, password="fresh and newer")
        assert status == 400 and "not valid" in answer["error"]
        assert (await post(stranger, "signin", username=member.name, password="fresh and new"))[0] == 200
        missing = subprocess.run([sys.executable, "-m", "xboard_engine", "admin", "--data-dir", server.data_dir]
                                 + (["--database", server.database] if server.database else [])
                                 + ["reset-password", "Nobody At All"],
                                 capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert missing.returncode == 1 and "no account is named" in missing.stderr
        await close_all(member, stranger)
    run(scenario())


def test_rated_games_need_an_account_and_guests_play_casual_ones(server):
    async def scenario():
        guest = await new_player(server, "Casual", address=address())
        await guest.send({"type": "create", "kind": "two", "variant": "normal", "tc": "300+3", "rated": True,
                          "seats": [{"kind": "me"}, {"kind": "open"}]})
        assert "rated games are for accounts" in (await guest.wait_for("error"))["message"]
        await guest.send({"type": "seek", "variant": "normal", "tc": "300+3", "rated": True})
        assert "rated games are for accounts" in (await guest.wait_for("error"))["message"]
        casual = await create(guest, kind="two", variant="normal", tc="300+3", seats=[{"kind": "me"}, {"kind": "open"}])
        member = await signed_up(server)
        await member.connect("/ws/lobby")
        await member.wait_for("hello")
        made = await create(member, kind="two", variant="normal", tc="300+3", rated=True,
                            seats=[{"kind": "me"}, {"kind": "open"}])
        await guest.connect(f"/ws/g/{made['gameId']}")
        await guest.wait_for("hello")
        await guest.send({"type": "take", "seat": 1})
        assert "rated games are for accounts" in (await guest.wait_for("error"))["message"]
        assert casual["gameId"]
        await close_all(guest, member)
    run(scenario())


def test_guessing_is_refused_past_the_limits_with_one_answer_for_a_wrong_name_and_password(server):
    """20 attempts a username in 15 minutes (from any addresses), 300 an address in 10 minutes; a
    wrong name and a wrong password get the same answer."""
    async def scenario():
        member = await signed_up(server)
        attempts = [await browser(server) for _ in range(SIGN_IN_PER_NAME[0])]
        answers = await asyncio.gather(*[post(b, "signin", username=member.name, password=f"guess {n:04d}")
                                         for n, b in enumerate(attempts)])
        assert {(s, a["error"]) for s, a in answers} == {(400, WRONG)}
        assert (await post(await browser(server), "signin", username="No Such Name", password="guess"))[1]["error"] == WRONG
        status, answer = await post(await browser(server), "signin", username=member.name.lower(), password=PASSWORD)
        assert status == 429 and "for this username" in answer["error"]     # even the right password now
        assert (await account(member))["signedIn"] is True                  # the owner's session is untouched
        one = await browser(server)
        answers = []
        for start in range(0, SIGN_IN_PER_ADDRESS[0], 25):      # (the server queues 32 hashes at most)
            answers += await asyncio.gather(*[post(one, "signin", username=f"Nobody{n}", password="guess guess")
                                              for n in range(start, min(start + 25, SIGN_IN_PER_ADDRESS[0]))])
        assert {s for s, _ in answers} == {400}
        status, answer = await post(one, "signin", username="Nobody", password="guess guess")
        assert status == 429 and "from your address" in answer["error"]
        await close_all(member, one, *attempts)
    run(scenario(), timeout=240)


def test_account_requests_from_another_sites_page_or_not_json_are_refused(server):
    async def scenario():
        client = await browser(server)
        async with client.session.post(f"{server.url}/account/signup", json={"username": "Evil", "password": PASSWORD},
                                       headers={"Origin": "https://evil.example"}) as response:
            assert response.status == 403
        async with client.session.post(f"{server.url}/account/signin", data=b"\xff\xfe",
                                       headers={"Origin": server.url}) as response:
            assert response.status == 400 and (await response.json())["error"] == "want a JSON object"
        async with client.session.post(f"{server.url}/account/signin", data=b"x" * 5000,
                                       headers={"Origin": server.url}) as response:
            assert response.status == 413
        await client.close()
    run(scenario())


async def as_token(server, token: str) -> Client:
    """A program holding a bot account's token as its cookie (``xboard-engine bot --token-file``)."""
    client = Client(server, address=address())
    client.session.cookie_jar.update_cookies({"xbe_player": token}, URL(server.url))
    return client


async def bot_ready(client: Client):
    """The lobby's ``hello`` ``you``, then the answer to a ``bot`` message (its type and text)."""
    you = await lobby_you(client)
    await client.send({"type": "bot", "variants": ["normal"], "engine": "Test engine 1.0"})
    while True:
        reply = await client.receive(10.0)
        if reply.get("type") in ("botReady", "error"):
            return you, reply


def test_issue_52_a_bot_account_belongs_to_an_account_which_makes_it_and_replaces_its_token(server):
    async def scenario():
        loner = await new_player(server, "Loner")                    # a named guest may not become one
        await loner.send({"type": "bot", "variants": ["normal"]})
        assert "a bot account is made by its owner" in (await loner.wait_for("error"))["message"]
        owner = await signed_up(server)
        status, made = await post(owner, "bots", name=unique("Owned Bot"))
        assert status == 200, made
        bot_name, bot_id, token = made["bot"]["name"], made["bot"]["id"], made["token"]
        status, again = await post(owner, "bots", name=bot_name.upper())
        assert status == 400 and "is taken" in again["error"]
        engine = await as_token(server, token)
        you, ready = await bot_ready(engine)
        assert you["name"] == bot_name and ready["type"] == "botReady", ready
        listed = (await account(owner))["bots"]
        assert [(b["id"], b["name"], b["online"]) for b in listed] == [(bot_id, bot_name, True)]
        async with owner.session.get(server.url + player_path(bot_name) + ".json") as response:
            page = await response.json()
        assert page["bot"]["owner"] == owner.name and page["bot"]["engine"] == "Test engine 1.0"
        # someone else, and a guest, may not touch its token
        stranger, guest = await signed_up(server), await browser(server)
        assert (await post(stranger, "bots/token", bot=bot_id)) == (400, {"error": "bot: not one of your bot accounts"})
        assert (await post(guest, "bots/token", bot=bot_id))[1]["error"] == "you are not signed in"
        assert (await post(guest, "bots", name=unique("Guest Bot")))[1]["error"] == "you are not signed in"
        # a new token: the old one's socket closes now, and the old token is nobody
        status, fresh = await post(owner, "bots/token", bot=bot_id)
        assert status == 200 and fresh["token"] != token
        assert await close_code(engine) == 4002
        old = await as_token(server, token)
        assert await lobby_you(old) is None
        renewed = await as_token(server, fresh["token"])
        you, ready = await bot_ready(renewed)
        assert you["id"] == bot_id and ready["type"] == "botReady"
        await close_all(loner, owner, engine, stranger, guest, old, renewed)
    run(scenario())


def test_issue_52_xboard_engine_bot_plays_as_an_owned_bot_account_with_the_token_its_owner_was_given(server, tmp_path):
    async def scenario():
        owner = await signed_up(server)
        status, answer = await post(owner, "bots", name=unique("Client Bot"))
        assert status == 200, answer
        token_file = tmp_path / "bot.token"
        token_file.write_text(answer["token"] + "\n")
        engine = f"{sys.executable} {ROOT}/tests/fake_engines/resign.py 3"
        proc = subprocess.Popen([sys.executable, "-m", "xboard_engine", "bot", "--server", server.url, "--engine",
                                 engine, "--name", answer["bot"]["name"], "--token-file", str(token_file),
                                 "--variants", "normal"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        try:
            lines = []
            while len(lines) < 40 and not any("online at" in line for line in lines):
                line = await asyncio.get_event_loop().run_in_executor(None, proc.stdout.readline)
                if not line:
                    break
                lines.append(line)
            assert any("online at" in line for line in lines), lines
            bots = (await account(owner))["bots"]
            assert [(b["name"], b["online"]) for b in bots] == [(answer["bot"]["name"], True)]
            assert token_file.read_text().strip() == answer["token"]          # the client kept the token given
        finally:
            proc.terminate()
            proc.wait(10)
            await owner.close()
    run(scenario())
