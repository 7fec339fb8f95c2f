"""xboard-engine serve over real WebSockets: seats only their owner can move, invite links,
watchers, chat and arrows, clocks and the disconnect grace, and every refusal named (wrong seat,
foreign Origin or Host, malformed, oversized and nested messages, floods, unknown engines, too many
connections from one address), the server going on after each.  The defects found when it was first
opened to strangers: test_web_defects.py; what players expect of it: test_web_features.py."""
import asyncio
import json
import os

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import Client, LiveServer, close_all, create, host_one_round_against_bots, new_player, play_moves, run  # noqa: E402
from live_client import two_players as two_player_game  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("live"), "--grace", "1")
    yield s
    s.stop()


def test_serve_listens_on_this_computer_only_by_default(server):
    assert server.url.startswith("http://127.0.0.1:")


def test_invite_link_seat_taken_by_its_secret_only_once(server):
    async def scenario():
        alice, bob, game, secret = await two_player_game(server)
        carol = await new_player(server, "Carol")
        await carol.connect(f"/ws/g/{game}")
        hello = await carol.wait_for("hello")
        assert hello["yourSeats"] == [] and hello["openSeats"] == []
        await carol.send({"type": "take", "seat": 1, "secret": secret})        # the used link again
        assert "taken" in (await carol.wait_for("error"))["message"]
        await close_all(alice, bob, carol)
    run(scenario())


def test_invite_seat_refused_without_the_right_secret(server):
    async def scenario():
        alice = await new_player(server, "Alice")
        created = await create(alice, kind="two", variant="chess80", seats=[{"kind": "me"}, {"kind": "invite"}])
        eve = await new_player(server, "Eve")
        await eve.connect(f"/ws/g/{created['gameId']}")
        await eve.wait_for("hello")
        for secret in (None, "guess", created["invites"][0]["path"].split("invite=")[1] + "x"):
            await eve.send({"type": "take", "seat": 1, "secret": secret})
            assert "invite link is wrong" in (await eve.wait_for("error"))["message"]
        await close_all(alice, eve)
    run(scenario())


def test_open_seat_taken_by_a_click_starts_the_game(server):
    async def scenario():
        alice = await new_player(server, "Alice")
        created = await create(alice, kind="two", variant="8piece", tc="600+5", seats=[{"kind": "open"}, {"kind": "me"}])
        lobby = await alice.wait_for("lobby", challenges=lambda c: any(x["gameId"] == created["gameId"] for x in c))
        entry = next(x for x in lobby["challenges"] if x["gameId"] == created["gameId"])
        assert entry["free"] == [0] and entry["variant"] == "8piece" and entry["tc"] == "600+5"
        bob = await new_player(server, "Bob")
        await bob.connect(f"/ws/g/{created['gameId']}")
        await bob.wait_for("hello", openSeats=[0])
        await bob.send({"type": "take", "seat": 0})
        state = await bob.state(status="playing")
        assert [s["name"] for s in state["online"]] == [bob.name, alice.name]
        await close_all(alice, bob)
    run(scenario())


def test_only_the_seat_owner_moves_watchers_and_the_other_seat_are_refused(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        watcher = Client(server)
        await watcher.open_page(f"/g/{game}")
        await watcher.connect(f"/ws/g/{game}")
        await watcher.wait_for("hello", yourSeats=[])
        for kind in ("move", "resign", "offer", "claim"):
            await watcher.send({"type": kind, "move": "e2e4"})
            assert "watchers cannot act" in (await watcher.wait_for("error"))["message"]
        await bob.send({"type": "move", "move": "e7e5"})                  # White's turn
        assert (await bob.wait_for("error"))["message"] == "it is White's move, not yours"
        await bob.send({"type": "move", "move": "e2e4", "seat": 0})       # naming the other seat
        assert (await bob.wait_for("error"))["message"] == "seat 0 is not yours"
        await alice.send({"type": "move", "move": "e2e4"})
        seen = await watcher.state(sans=["e4"])
        assert seen["watchers"] >= 1
        await bob.state(sans=["e4"])
        await bob.send({"type": "move", "move": "e7e5"})
        await watcher.state(sans=["e4", "e5"])
        await close_all(alice, bob, watcher)
    run(scenario())


def test_draw_offer_accept_and_the_stored_pgn(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        await alice.send({"type": "move", "move": "g1f3"})
        await bob.state(sans=["Nf3"])
        await bob.send({"type": "draw"})
        assert (await bob.wait_for("error"))["message"] == "there is no draw offer to accept"
        await alice.send({"type": "offer"})
        await bob.state(drawOffer="w")
        await bob.send({"type": "draw"})
        state = await alice.state(status="over")
        assert state["result"] == "1/2-1/2" and state["reason"] == "Draw by agreement"
        async with alice.session.get(f"{server.url}/g/{game}.pgn") as response:
            pgn = await response.text()
        assert f'[White "{alice.name}"]' in pgn and f'[Black "{bob.name}"]' in pgn
        assert "1. Nf3" in pgn and pgn.rstrip().endswith("1/2-1/2")
        await alice.send({"type": "move", "move": "e7e5"})
        assert (await alice.wait_for("error"))["message"] == "the game is over"
        await close_all(alice, bob)
    run(scenario())


def test_resign_ends_the_game_for_the_resigning_seat(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server, variant="fullcavalry")
        await bob.send({"type": "resign"})
        state = await alice.state(status="over")
        assert state["result"] == "1-0" and "Black resigns" in state["reason"]
        await close_all(alice, bob)
    run(scenario())


def test_reconnect_brings_a_player_back_to_the_seat_and_others_see_it(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        await bob.ws.close()
        gone = await alice.state(online=lambda o: not o[1]["connected"])
        assert gone["online"][1]["name"] == bob.name
        await bob.connect(f"/ws/g/{game}")                               # same cookie jar
        hello = await bob.wait_for("hello")
        assert hello["yourSeats"] == [1] and hello["you"]["name"] == bob.name
        await alice.state(online=lambda o: o[1]["connected"])
        await close_all(alice, bob)
    run(scenario())


def test_claim_refused_while_the_opponent_is_here_and_before_the_grace_time(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        await alice.send({"type": "claim"})
        assert (await alice.wait_for("error"))["message"] == "your opponent is here: no claim"
        await bob.ws.close()
        await alice.state(online=lambda o: not o[1]["connected"])
        await alice.send({"type": "claim"})
        assert "you may claim after 1 s" in (await alice.wait_for("error"))["message"]
        await asyncio.sleep(1.1)
        await alice.send({"type": "claim"})
        state = await alice.state(status="over")
        assert state["result"] == "1-0" and state["reason"] == "Black left the game"
        await close_all(alice, bob)
    run(scenario())


def test_server_clock_flags_a_player_who_does_not_move(tmp_path):
    s = LiveServer(tmp_path, "--first-move", "0")

    async def scenario():
        alice, bob, game, _ = await two_player_game(s, tc="15+1")
        await alice.send({"type": "move", "move": "d2d4"})           # each side's first move is not timed
        await bob.state(sans=["d4"])
        await bob.send({"type": "move", "move": "d7d5"})
        await alice.state(sans=["d4", "d5"])
        await alice.send({"type": "move", "move": "c2c4"})           # Black's clock runs from here
        state = await alice.state(status="over", timeout=20)
        assert state["result"] == "1-0" and "Black loses on time" == state["reason"]
        assert state["clockValues"][1] == 0.0 and state["clockValues"][0] > 10
        await close_all(alice, bob)
    try:
        run(scenario())
    finally:
        s.stop()


def test_game_against_a_bot_of_the_worker_pool(server):
    async def scenario():
        carol = await new_player(server, "Carol")
        created = await create(carol, kind="two", variant="chess80", tc="60+1",
                               seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        await carol.connect(f"/ws/g/{created['gameId']}")
        state = await carol.state(status="playing")
        assert state["online"][1]["kind"] == "bot"
        await carol.send({"type": "move", "move": "e2e4"})
        state = await carol.state(sans=lambda s: len(s) == 2, timeout=30)
        assert state["sans"][0] == "e4" and state["humanToMove"]
        await close_all(carol)
    run(scenario())


def test_unknown_engine_level_variant_and_seat_kind_refused(server):
    async def scenario():
        dave = await new_player(server, "Dave")
        cases = [
            ({"kind": "two", "variant": "normal", "seats": [{"kind": "me"}, {"kind": "bot", "engine": "stockfish"}]},
             "no engine named 'stockfish'"),
            ({"kind": "two", "variant": "normal", "seats": [{"kind": "me"}, {"kind": "bot", "level": "godlike"}]},
             "no bot level 'godlike'"),
            ({"kind": "two", "variant": "shogi", "seats": [{"kind": "me"}, {"kind": "open"}]}, "unknown variant 'shogi'"),
            ({"kind": "two", "variant": "normal", "seats": [{"kind": "me"}, {"kind": "robot"}]}, "kind is one of"),
            ({"kind": "two", "variant": "normal", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "open"}]},
             "want 2 entries"),
            ({"kind": "eight", "mode": "duos", "seats": [{"kind": "me"}] * 8}, "unknown mode 'duos'"),
            ({"kind": "two", "variant": "normal", "tc": "soon", "seats": [{"kind": "me"}, {"kind": "open"}]},
             "time control 'soon'"),
        ]
        for challenge, words in cases:
            await dave.send(dict({"type": "create"}, **challenge))
            assert words in (await dave.wait_for("error"))["message"]
        await close_all(dave)
    run(scenario())


def test_markup_in_names_refused_chat_shown_as_text_and_limited(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        for name in ("<img src=x onerror=alert(1)>", "Bob&amp;", "", "x" * 25):
            await bob.send({"type": "name", "name": name})
            assert (await bob.wait_for("error"))["message"].startswith("name:")
        await bob.send({"type": "chat", "text": "<script>alert(1)</script>"})      # text, shown as text
        line = await alice.wait_for("chat", text="<script>alert(1)</script>")
        assert line["name"] == bob.name
        await bob.send({"type": "chat", "text": "y" * 301})
        assert "at most 300" in (await bob.wait_for("error"))["message"]
        await bob.send({"type": "chat", "text": "good luck 2 > 1"})
        line = await alice.wait_for("chat", text="good luck 2 > 1")
        assert line["name"] == bob.name and line["seat"] == 1 and line["channel"] == "all" and line["player"] == bob.id
        refused = 0
        for i in range(8):                                  # 5 at once, then one every 2 s
            await bob.send({"type": "chat", "text": f"spam {i}"})
        for _ in range(8):
            message = await bob.receive()
            while message["type"] not in ("chat", "error"):
                message = await bob.receive()
            refused += message["type"] == "error" and "too many chat lines" in message["message"]
        assert refused >= 2
        await close_all(alice, bob)
    run(scenario())


def test_malformed_oversized_nested_and_binary_messages_refused_connection_kept(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        cases = [("not json", "a message is JSON text"), ("[1, 2]", 'a message is a JSON object with a "type"'),
                 ('{"type": 5}', 'a message is a JSON object with a "type"'),
                 ('{"type": "teleport"}', "unknown message type 'teleport'"),
                 ("[" * 10000, "message nested too deeply"),
                 ('{"type": "chat", "text": "' + "z" * 20000 + '"}', "message too long (20028 characters"),
                 ('{"type": "move", "move": 7}', "move: move must be text"),
                 ('{"type": "move", "move": " "}', "move: want the move's text")]
        for text, words in cases:
            await alice.send(text)
            assert (await alice.wait_for("error"))["message"].startswith(words), text[:40]
        await alice.ws.send_bytes(b"\x00\x01")
        assert (await alice.wait_for("error"))["message"] == "messages are JSON text"
        await alice.send({"type": "move", "move": "e2e4"})       # still connected, still playing
        await bob.state(sans=["e4"])
        await alice.ws.send_str("x" * 300000)                     # past any message size: closed (1009)
        msg = await alice.ws.receive(timeout=10)
        while msg.type == aiohttp.WSMsgType.TEXT:                 # what was on its way before
            msg = await alice.ws.receive(timeout=10)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert alice.ws.close_code == 1009
        await bob.send({"type": "move", "move": "e7e5"})          # the server goes on
        await bob.state(sans=["e4", "e5"])
        await close_all(alice, bob)
    run(scenario())


def test_the_mated_king_is_marked(server):
    """Issue 52, defect 10: the state named the king in check only while the game went on, so the
    board marked no king once mated."""
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        await play_moves(alice, bob, ["f2f3", "e7e5", "g2g4"])
        await bob.send({"type": "move", "move": "d8h4"})
        state = await alice.state(status="over")
        assert state["result"] == "0-1" and state["check"] == "e1"
        await close_all(alice, bob)
    run(scenario())


def test_flood_refused_then_the_connection_closed(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        for _ in range(400):
            await alice.send({"type": "offer"})
        errors, closed = [], False
        while True:
            msg = await alice.ws.receive(timeout=10)
            if msg.type != aiohttp.WSMsgType.TEXT:
                closed = True
                break
            data = json.loads(msg.data)
            if data["type"] == "error":
                errors.append(data["message"])
        assert closed and "too many messages: slow down" in errors
        assert alice.ws.close_code == 1008
        await bob.send({"type": "chat", "text": "still here"})     # others are served
        await bob.wait_for("chat", text="still here")
        await close_all(alice, bob)
    run(scenario())


def test_what_a_page_and_an_address_may_send_is_bounded_in_characters_before_it_is_read(tmp_path):
    """Issue 52, defect 8: 40 connections sending 16 KiB messages slowed a bystander's moves from 5.5 ms
    to 749 ms.  Now a page may send 64 KiB at once (8 KiB a second after that), and all pages of one
    address 512 KiB (64 KiB a second): past that a message is refused unread, and a connection refused
    100 times is closed."""
    from xboard_engine.web.rooms import wire
    s = LiveServer(tmp_path)
    big = '{"type": "chat", "text": "' + "z" * 15900 + '"}'          # under the longest message
    refusal = "too much text sent: slow down"

    async def answers(client, count):
        for _ in range(count):
            await client.send(big)
        return [(await client.wait_for("error"))["message"] for _ in range(count)]

    async def scenario():
        page = await new_player(s, "Talker")
        replies = await answers(page, 8)
        assert not any(r.startswith(refusal) for r in replies[:wire.CONNECTION_BURST // len(big)]), replies
        assert any(r.startswith(refusal) for r in replies), replies      # read as unknown on a lobby page before
        crowd, first_refused = [], None
        for n in range(2 * wire.ADDRESS_BURST // wire.CONNECTION_BURST):  # fresh pages of the same address
            person = await new_player(s, f"Crowd{n}")
            crowd.append(person)
            replies = await answers(person, wire.CONNECTION_BURST // len(big))
            if replies[0].startswith(refusal):
                first_refused = n
                break
        assert first_refused is not None and first_refused >= 7, first_refused     # the address's share spent
        await close_all(page, *crowd)
    try:
        run(scenario())
    finally:
        s.stop()


def test_foreign_origin_and_host_refused(server):
    async def scenario():
        mallory = Client(server)
        await mallory.open_page("/")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await mallory.connect("/ws/lobby", origin="http://evil.example")
        assert refused.value.status == 403
        async with mallory.session.get(server.url + "/", headers={"Host": "evil.example"}) as response:
            assert response.status == 403 and "forbidden host" in await response.text()
        await mallory.connect("/ws/lobby")                          # the server goes on
        await mallory.wait_for("lobby")
        await mallory.close()
    run(scenario())


def test_player_cookie_is_httponly_and_samesite(server):
    async def scenario():
        client = Client(server)
        async with client.session.get(server.url + "/") as response:
            cookie = response.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
        await client.close()
    run(scenario())


def test_eight_player_pairs_partner_chat_and_arrows_reach_only_the_partner(server):
    async def scenario():
        # White (0) and Purple (4) are partners in Pairs; Red (1) is an opponent.
        host = await new_player(server, "White")
        bot = {"kind": "bot", "level": "random"}
        seats = [{"kind": "me"}, {"kind": "open"}, bot, bot, {"kind": "open"}, bot, bot, bot]
        created = await create(host, kind="eight", mode="pairs", tc="none", seats=seats)
        game = created["gameId"]
        await host.connect(f"/ws/g/{game}")
        hello = await host.wait_for("hello")
        partner_seat, other_seat = 4, 1
        assert hello["teams"][partner_seat] == hello["teams"][0] != hello["teams"][other_seat]
        partner, opponent = await new_player(server, "Partner"), await new_player(server, "Opponent")
        for client, seat in ((partner, partner_seat), (opponent, other_seat)):
            await client.connect(f"/ws/g/{game}")
            await client.wait_for("hello")
            await client.send({"type": "take", "seat": seat})
            await client.wait_for("hello", yourSeats=[seat])
        await host.state(status="playing")
        await host.send({"type": "chat", "text": "push on the left", "channel": "team"})
        line = await partner.wait_for("chat", text="push on the left")
        assert line["channel"] == "team"
        await host.send({"type": "arrows", "arrows": [["h2", "h4"]]})
        arrows = await partner.wait_for("arrows")
        assert arrows["arrows"] == [["h2", "h4"]] and arrows["seat"] == 0
        await host.send({"type": "chat", "text": "hello all"})
        await opponent.wait_for("chat", text="hello all")           # the public line came; the others did not
        assert not any(m["type"] in ("arrows",) or m.get("text") == "push on the left" for m in opponent.inbox)
        await opponent.send({"type": "chat", "text": "sneaky", "channel": "team"})
        await opponent.wait_for("chat", text="sneaky")               # its own team
        await asyncio.sleep(0.3)
        assert not any(m.get("text") == "sneaky" for m in host.inbox + partner.inbox)
        await host.send({"type": "arrows", "arrows": [["z9", "h4"]]})
        assert (await host.wait_for("error"))["message"] == "arrows: unknown square"
        await close_all(host, partner, opponent)
    run(scenario())


def test_two_player_arrows_are_private_to_their_author(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        await alice.send({"type": "arrows", "arrows": [["e2", "e4"]]})
        assert (await alice.wait_for("arrows"))["arrows"] == [["e2", "e4"]]
        await bob.send({"type": "chat", "text": "ping"})
        await bob.wait_for("chat", text="ping")
        assert not any(m["type"] == "arrows" for m in bob.inbox)
        await close_all(alice, bob)
    run(scenario())


def test_eight_player_seat_away_past_the_grace_time_times_out(server):
    async def scenario():
        host = await new_player(server, "Host")
        away = await new_player(server, "Away")
        seats = [{"kind": "me"}, {"kind": "open"}] + [{"kind": "bot", "level": "random"}] * 6
        created = await create(host, kind="eight", mode="singles", tc="none", seats=seats)
        game = created["gameId"]
        await away.connect(f"/ws/g/{game}")
        await away.wait_for("hello")
        await away.send({"type": "take", "seat": 1})
        await away.wait_for("hello", yourSeats=[1])
        await away.ws.close()                                        # Red leaves before its move
        await host.connect(f"/ws/g/{game}")
        state = await host.state(turn=0)
        await host.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
        state = await host.state(turn=lambda t: t not in (0, 1), timeout=10)
        assert state["seats"][1]["status"] != "active"
        assert any("Red runs out of time" in words for _, words in state["log"]) or \
            "time" in state["seats"][1]["status"]
        await close_all(host, away)
    run(scenario())


def test_bot_games_beyond_the_limit_refused_with_a_capacity_message(tmp_path):
    s = LiveServer(tmp_path, "--max-bot-games", "1")

    async def scenario():
        a = await new_player(s, "A")
        await create(a, kind="two", variant="normal", tc="none", seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        await a.send({"type": "create", "kind": "two", "variant": "normal", "seats": [{"kind": "me"}, {"kind": "bot"}]})
        assert "the server is at capacity" in (await a.wait_for("error"))["message"]
        await create(a, kind="two", variant="normal", seats=[{"kind": "me"}, {"kind": "open"}])   # people: fine
        await a.close()
    try:
        run(scenario())
    finally:
        s.stop()


def test_connections_from_one_address_capped(tmp_path):
    s = LiveServer(tmp_path, "--max-connections", "3")

    async def scenario():
        clients = [Client(s) for _ in range(4)]
        for c in clients[:3]:
            await c.connect("/ws/lobby")
            await c.wait_for("lobby")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await clients[3].connect("/ws/lobby")
        assert refused.value.status == 429
        await clients[0].ws.close()
        await asyncio.sleep(0.2)
        await clients[3].connect("/ws/lobby")                  # a place is free again
        await clients[3].wait_for("lobby")
        for c in clients:
            await c.close()
    try:
        run(scenario())
    finally:
        s.stop()


def test_sigterm_stops_at_once_with_the_clocks_saved_and_resumed(tmp_path):
    s = LiveServer(tmp_path)

    async def first():
        alice, bob, game, _ = await two_player_game(s, tc="300+0")
        for mover, move, sans in ((alice, "e2e4", ["e4"]), (bob, "e7e5", ["e4", "e5"]),
                                  (alice, "g1f3", ["e4", "e5", "Nf3"])):
            await mover.send({"type": "move", "move": move})
            await bob.state(sans=sans)
        await asyncio.sleep(1.0)                              # Black's clock runs (first moves are not timed)
        return game
    game = run(first())
    took = s.stop()
    assert took < 2.0 and s.proc.returncode == 0
    db = s.look()
    paused = json.loads(db.execute("SELECT paused_clocks FROM games WHERE slug=?", (game,)).fetchone()[0])
    db.close()
    assert 299.0 < paused[0] <= 300.0 and 298.0 < paused[1] < 299.5
    s.start()

    async def second():
        watcher = Client(s)
        await watcher.connect(f"/ws/g/{game}")
        state = await watcher.state()
        assert state["status"] == "playing" and state["sans"] == ["e4", "e5", "Nf3"]
        assert abs(state["clockValues"][1] - paused[1]) < 0.5     # the downtime was not charged
        await watcher.close()
    try:
        run(second())
    finally:
        s.stop()


def test_finished_games_stay_listed_viewable_and_downloadable(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server, variant="8piece-2019", open_seat=True)
        await alice.send({"type": "move", "move": "d2d4"})
        await bob.state(sans=lambda s: len(s) == 1)
        await alice.send({"type": "resign"})
        await bob.state(status="over")
        await close_all(alice, bob)
        later = await new_player(server, "Later")                     # a new profile, another day
        lobby = next(m for m in later.inbox if m["type"] == "lobby")     # as the lobby page opened
        entry = next(g for g in lobby["finished"] if g["gameId"] == game)
        assert entry["result"] == "0-1" and entry["variant"] == "8piece-2019"
        async with later.session.get(f"{server.url}/g/{game}.pgn") as response:
            pgn = await response.text()
        assert response.status == 200 and '[Variant "8piece-2019"]' in pgn and "0-1" in pgn
        await later.connect(f"/ws/g/{game}")
        state = await later.state()
        assert state["status"] == "over" and state["result"] == "0-1" and len(state["sans"]) == 1
        await later.close()
    run(scenario())


def test_eight_player_record_downloadable(server):
    async def scenario():
        host, game = await host_one_round_against_bots(server)
        async with host.session.get(f"{server.url}/g/{game}.txt") as response:
            record = await response.text()
        assert response.status == 200 and "1 w." in record and "Host" in record
        await host.close()
    run(scenario())


def test_behind_a_tls_proxy_the_public_name_is_let_in_and_the_cookie_is_secure(tmp_path):
    s = LiveServer(tmp_path, "--public-url", "https://chess.example.org", "--max-connections", "1")

    async def scenario():
        client = Client(s, origin="https://chess.example.org")
        async with client.session.get(s.url + "/", headers={"Host": "chess.example.org"}) as response:
            assert response.status == 200
            assert "Secure" in response.headers["Set-Cookie"]
        client.ws = await client.session.ws_connect(s.url + "/ws/lobby", headers={
            "Host": "chess.example.org", "Origin": "https://chess.example.org"})
        await client.wait_for("lobby")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.session.ws_connect(s.url + "/ws/lobby", headers={
                "Host": "chess.example.org", "Origin": "http://chess.example.org"})   # not the https page
        assert refused.value.status == 403
        # Everyone comes from the proxy's address: the cap counts the address the proxy names.
        proxied = {"Host": "chess.example.org", "Origin": "https://chess.example.org"}
        second = await client.session.ws_connect(s.url + "/ws/lobby", headers=dict(proxied, **{
            "X-Forwarded-For": "203.0.113.7"}))
        with pytest.raises(aiohttp.WSServerHandshakeError) as capped:
            await client.session.ws_connect(s.url + "/ws/lobby", headers=dict(proxied, **{
                "X-Forwarded-For": "198.51.100.1, 203.0.113.7"}))
        assert capped.value.status == 429
        await second.close()
        await client.close()
    try:
        run(scenario())
    finally:
        s.stop()


def test_a_person_who_leaves_a_bot_game_past_the_grace_time_loses_it(server):
    async def scenario():
        erin = await new_player(server, "Erin")
        created = await create(erin, kind="two", variant="normal", tc="none",
                               seats=[{"kind": "bot", "level": "easy"}, {"kind": "me"}])
        watcher = Client(server)
        await watcher.connect(f"/ws/g/{created['gameId']}")
        await watcher.state(status="playing")
        state = await watcher.state(status="over", timeout=10)     # Erin never opened the game's page
        assert state["result"] == "1-0" and state["reason"] == "Black left the game"
        await close_all(erin, watcher)
    run(scenario())


FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engines")


@pytest.fixture(scope="module")
def engine_server(tmp_path_factory):
    import shlex
    import sys
    py = shlex.quote(sys.executable)
    s = LiveServer(tmp_path_factory.mktemp("engines"),
                   "--uci-engine", f"ours-uci={py} -m xboard_engine",
                   "--engine", f"crashy={py} {shlex.quote(os.path.join(FAKES, 'crash.py'))} 1")
    yield s
    s.stop()


def test_an_engine_named_at_the_start_plays_a_seat_over_uci(engine_server):
    async def scenario():
        fay = await new_player(engine_server, "Fay")
        hello = next(m for m in fay.inbox if m["type"] == "hello")
        assert hello["engines"] == ["xboard-engine", "crashy", "ours-uci"]
        created = await create(fay, kind="two", variant="fischerandom", tc="60+1", number=518,
                               seats=[{"kind": "me"}, {"kind": "bot", "engine": "ours-uci"}])
        await fay.connect(f"/ws/g/{created['gameId']}")
        state = await fay.state(status="playing")
        assert state["online"][1]["name"] == "ours-uci"
        await fay.send({"type": "move", "move": "d2d4"})
        state = await fay.state(sans=lambda s: len(s) == 2, timeout=30)
        await fay.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
        await fay.state(sans=lambda s: len(s) == 4, timeout=30)
        await close_all(fay)
    run(scenario())


def test_an_engine_that_crashes_loses_and_the_game_is_stored_so(engine_server):
    async def scenario():
        gil = await new_player(engine_server, "Gil")
        created = await create(gil, kind="two", variant="normal", tc="none",
                               seats=[{"kind": "me"}, {"kind": "bot", "engine": "crashy"}])
        await gil.connect(f"/ws/g/{created['gameId']}")
        await gil.state(status="playing")
        await gil.send({"type": "move", "move": "e2e4"})
        await gil.state(sans=lambda s: len(s) == 2, timeout=20)
        await gil.send({"type": "move", "move": "d2d4"})               # its second move: it crashes
        state = await gil.state(status="over", timeout=20)
        assert state["result"] == "1-0" and "Black disconnects" in state["reason"]
        async with gil.session.get(f"{engine_server.url}/g/{created['gameId']}.pgn") as response:
            assert "Black disconnects" in await response.text()
        await gil.send({"type": "create"})
        await close_all(gil)
    run(scenario())


def test_engines_not_named_at_the_start_refused(engine_server):
    async def scenario():
        hal = await new_player(engine_server, "Hal")
        await hal.send({"type": "create", "kind": "eight", "seats": [{"kind": "me"}] + [{"kind": "bot", "engine": "crashy"}] * 7})
        assert "no engine named 'crashy' on this server for this game" in (await hal.wait_for("error"))["message"]
        await hal.send({"type": "create", "kind": "two", "seats": [{"kind": "me"}, {"kind": "bot", "engine": "/bin/sh"}]})
        assert "no engine named '/bin/sh'" in (await hal.wait_for("error"))["message"]
        await close_all(hal)
    run(scenario())


def test_arrows_come_back_after_a_reload_to_their_author_only(server):
    async def scenario():
        alice, bob, game, _ = await two_player_game(server)
        await alice.send({"type": "arrows", "arrows": [["g1", "f3"], ["e2", "e4"]]})
        await alice.wait_for("arrows")
        await alice.connect(f"/ws/g/{game}")                       # a reload
        assert (await alice.wait_for("arrows"))["arrows"] == [["g1", "f3"], ["e2", "e4"]]
        await bob.connect(f"/ws/g/{game}")
        await bob.send({"type": "chat", "text": "barrier"})
        await bob.wait_for("chat", text="barrier")
        assert not any(m["type"] == "arrows" for m in bob.inbox)
        await close_all(alice, bob)
    run(scenario())


def test_the_lobby_lists_your_own_games_even_invite_only_ones(server):
    async def scenario():
        ivy = await new_player(server, "Ivy")
        created = await create(ivy, kind="two", variant="normal", seats=[{"kind": "me"}, {"kind": "invite"}])
        lobby = await ivy.wait_for("lobby", mine=lambda m: any(g["gameId"] == created["gameId"] for g in m))
        assert not any(g["gameId"] == created["gameId"] for g in lobby["challenges"])   # no free seat for anyone
        other = await new_player(server, "Other")
        assert not any(g["gameId"] == created["gameId"] for m in other.inbox if m["type"] == "lobby" for g in m["mine"])
        await close_all(ivy, other)
    run(scenario())


def test_bots_think_on_a_dask_cluster_when_one_is_given(tmp_path):
    distributed = need_module("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        s = LiveServer(tmp_path, "--cluster", cluster.scheduler_address)

        async def scenario():
            kim = await new_player(s, "Kim")
            created = await create(kim, kind="two", variant="8piece", tc="none",
                                   seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
            await kim.connect(f"/ws/g/{created['gameId']}")
            await kim.state(status="playing")
            await kim.send({"type": "move", "move": "e2e4"})
            await kim.state(sans=lambda x: len(x) == 2, timeout=40)
            created = await create_on_lobby(kim, kind="eight", mode="teams", tc="none",
                                            seats=[{"kind": "bot", "level": "fast"}] * 7 + [{"kind": "me"}])
            await kim.connect(f"/ws/g/{created['gameId']}")
            await kim.state(turn=7, timeout=60)                  # seven bot moves came from the cluster
            await kim.close()
        try:
            run(scenario())
            ran = set(cluster.scheduler.task_prefixes)         # the kinds of task the cluster was given
        finally:
            s.stop()
        assert {"two_player_move", "eight_player_move"} <= ran, ran
        log = s.output()
        assert "failed" not in log, log


async def create_on_lobby(client, **challenge):
    await client.connect("/ws/lobby")
    await client.wait_for("lobby")
    return await create(client, **challenge)


def test_x_forwarded_for_believed_only_from_a_trusted_proxy(tmp_path):
    s = LiveServer(tmp_path, "--public-url", "https://Chess.Example.org", "--trusted-proxy", "10.9.9.9",
                   "--max-connections", "1")

    async def scenario():
        client = Client(s, origin="https://chess.example.org")          # the name is kept in lower case
        headers = {"Host": "chess.example.org", "Origin": "https://chess.example.org"}
        first = await client.session.ws_connect(s.url + "/ws/lobby", headers=dict(headers, **{"X-Forwarded-For": "203.0.113.1"}))
        with pytest.raises(aiohttp.WSServerHandshakeError) as capped:       # 127.0.0.1 is no trusted proxy
            await client.session.ws_connect(s.url + "/ws/lobby", headers=dict(headers, **{"X-Forwarded-For": "203.0.113.2"}))
        assert capped.value.status == 429
        await first.close()
        await client.close()
    try:
        run(scenario())
    finally:
        s.stop()
