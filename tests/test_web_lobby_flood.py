"""The lobby cannot be flooded (issue 52, defect 2: 28 cookies of one address, 3
challenges each, pushed a newcomer's challenge out of the list), on the real server over real
WebSockets and in Chromium: accounts in good standing are listed first, each address's newest
challenge before anyone's second, and a page asks for them filtered (variant, speed, rated) and
paged; and (defect 4) puppet seeks that fill an address's share keep no account behind it from
seeking."""
import pytest

from needs import need_module, needs

need_module("aiohttp")

from live_client import Client, LiveServer, close_all, create, new_player, run, unique  # noqa: E402

PASSWORD = "correct horse staple"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("flood"), "--trusted-proxy", "127.0.0.1")
    yield s
    s.stop()


async def challenge(client, variant, tc):
    return (await create(client, kind="two", variant=variant, tc=tc, seats=[{"kind": "me"}, {"kind": "open"}]))["gameId"]


async def account(server, where):
    client = Client(server, address=where)
    assert await client.open_page("/") == 200
    async with client.session.post(f"{server.url}/account/signup", headers={"Origin": server.url},
                                   json={"username": unique("Member").replace(" ", ""), "password": PASSWORD}) as r:
        assert r.status == 200, await r.text()
    await client.connect("/ws/lobby")
    await client.wait_for("hello")
    return client


async def flooded(server, net="10.2"):
    """A guest's Chess80 challenge; then two addresses of ten cookies each, each cookie with three
    bullet challenges (the most a person may have); then an account's blitz challenge from a fourth
    address: the games (the floods, the newcomer's, the member's) and the clients."""
    newcomer = await new_player(server, "Newcomer", address=f"{net}.0.2")
    mine = await challenge(newcomer, "chess80", "600+5")
    floods = []
    for flooder in (f"{net}.0.1", f"{net}.0.5"):
        flood = []
        for _ in range(10):
            puppet = await new_player(server, "Puppet", address=flooder)
            flood += [await challenge(puppet, "normal", "60+0") for _ in range(3)]
            await puppet.close()
        floods.append(flood)
    member = await account(server, f"{net}.0.3")
    theirs = await challenge(member, "normal", "300+3")
    return floods, mine, theirs, [newcomer, member]


def test_issue_52_D2_a_flood_from_one_address_does_not_push_others_challenges_out_and_a_page_filters_them(server):
    async def scenario():
        (first, second), mine, theirs, clients = await flooded(server)
        watcher = await new_player(server, "Watcher", address="10.2.0.4")
        view = next(m for m in reversed(watcher.inbox) if m["type"] == "lobby")
        order = [c["gameId"] for c in view["challenges"]]
        assert view["challengeCount"] == 62 and len(order) == 50   # newest first, the newcomer's was 62nd
        assert order[:4] == [theirs, second[-1], first[-1], mine]   # the account; then each address's newest
        assert order[4:6] == [second[-2], first[-2]]               # then each one's second
        await watcher.send({"type": "challenges", "variant": "chess80"})
        page = await watcher.wait_for("challenges")
        assert [c["gameId"] for c in page["challenges"]] == [mine] and (page["count"], page["pages"]) == (1, 1)
        await watcher.send({"type": "challenges", "speed": "bullet", "rated": "casual"})
        page = await watcher.wait_for("challenges")
        assert page["count"] == 60 and page["pages"] == 2 and len(page["challenges"]) == 50
        await watcher.send({"type": "challenges", "speed": "bullet", "page": 1})
        rest = await watcher.wait_for("challenges")
        assert {c["gameId"] for c in page["challenges"] + rest["challenges"]} == set(first + second)
        await watcher.send({"type": "challenges", "speed": "blitz", "page": 1})
        page = await watcher.wait_for("challenges")
        assert (page["challenges"], page["count"], page["page"], page["pages"]) == ([], 1, 1, 1)
        for bad, why in (({"speed": "warp"}, "speed: one of bullet"), ({"variant": "checkers"}, "variant: one of"),
                         ({"rated": "both"}, 'rated: "rated" or "casual"'), ({"page": -1}, "page: 0 to 1000"),
                         ({"page": "2"}, "challenges: page must be a whole number")):
            await watcher.send(dict({"type": "challenges"}, **bad))
            assert (await watcher.wait_for("error"))["message"].startswith(why)
        await close_all(watcher, *clients)
    run(scenario())


@needs("browser")
def test_issue_52_D2_the_lobby_page_filters_the_challenges_by_variant_and_speed(server):
    need_module("selenium")
    from live_page import LivePage
    from web_page import chrome
    async def flood_again():
        *_, clients = await flooded(server, "10.3")
        await close_all(*clients)                 # (their challenges stay listed)
    run(flood_again())
    page = LivePage(chrome(), server)
    try:
        page.lobby("Looker")
        page.wait(lambda: int(page.data("challenges") or 0) >= 50, "the first page of challenges")
        assert "of" in page.text("challenge-count") and not page.js("return document.getElementById('challenge-pages').hidden")
        page.select("cf-variant", "chess80")
        page.wait(lambda: page.data("challenges") == "2", "the Chess80 challenges alone")   # this test's and the first's
        games = page.js("return [...document.querySelectorAll('#challenges tbody tr')].map(tr => tr.cells[0].textContent)")
        assert games == ["chess80", "chess80"]
        page.select("cf-variant", "")
        page.select("cf-speed", "blitz")
        page.wait(lambda: page.data("challenges") == "2", "the blitz challenges alone")
        assert page.js("return document.getElementById('challenge-pages').hidden")
    finally:
        page.d.quit()


def test_issue_52_D4_puppet_seeks_filling_an_addresss_share_do_not_keep_its_accounts_from_seeking(server):
    async def scenario():
        club = "10.4.0.1"
        puppets = [await new_player(server, "Puppet", address=club) for _ in range(7)]
        clocks = ("60+0", "180+2", "300+3")
        for n in range(20):                        # outside every rating: none is paired
            await puppets[n // 3].send({"type": "seek", "variant": "fullcavalry", "tc": clocks[n % 3],
                                        "rated": False, "min": 3000})
            await puppets[n // 3].wait_for("seeking")
        await puppets[6].send({"type": "seek", "variant": "fullcavalry", "tc": clocks[2], "rated": False, "min": 3000})
        assert (await puppets[6].wait_for("error"))["message"].startswith("20 guests' seeks from your address")
        member = await account(server, club)        # a member behind the same router
        await member.send({"type": "seek", "variant": "fullcavalry", "tc": "600+5", "rated": False, "min": 3000})
        assert (await member.wait_for("seeking"))["seek"]
        await close_all(member, *puppets)
    run(scenario())
