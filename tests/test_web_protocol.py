"""The browser protocol as types (xboard_engine/web/rooms/messages.py): docs/WEB_PROTOCOL.md is
written from its tables, the one dispatch table routes exactly the messages they declare, the pages
send only declared messages, and a malformed message gets one clear error from a real server.
(Every server message the tests' client receives is checked against the tables: tests/live_client.py.)"""
import os
import re

import pytest

from live_client import LiveServer, create, new_player, run
from scripts.web_protocol import page
from xboard_engine.web.rooms import messages
from xboard_engine.web.rooms.dispatch import ROUTES
from xboard_engine.web.rooms.wire import BadMessage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC = os.path.join(ROOT, "xboard_engine", "web", "static")
# Each page script and the socket it talks to.
SCRIPTS = {"lobby.js": "lobby", "tournament.js": "tournament", "live.js": "game", "board.js": "game",
           "8pc.js": "game", "analysis.js": "game"}


def test_the_protocol_page_is_the_one_the_tables_write():
    with open(os.path.join(ROOT, "docs", "WEB_PROTOCOL.md"), encoding="utf-8") as f:
        assert f.read() == page(), "docs/WEB_PROTOCOL.md is stale: python scripts/web_protocol.py > docs/WEB_PROTOCOL.md"


def test_the_dispatch_table_routes_every_declared_page_message_and_no_other():
    assert set(ROUTES) == set(messages.PAGE) == set(messages.SERVER) == set(messages.SOCKETS)
    for socket in messages.SOCKETS:
        assert set(ROUTES[socket]) == set(messages.PAGE[socket]), socket
        for kind in messages.SERVER[socket].values():
            assert all(f.kind in messages.KINDS for f in kind.fields)


def test_the_pages_send_only_declared_messages():
    for script, socket in SCRIPTS.items():
        with open(os.path.join(STATIC, script), encoding="utf-8") as f:
            sent = set(re.findall(r'type: "([a-zA-Z]+)"', f.read())) - {"button"}    # (an input's type)
        assert sent, script
        assert sent <= set(messages.PAGE[socket]), (script, sent - set(messages.PAGE[socket]))


@pytest.mark.parametrize("data, error", [
    ({"type": "teleport"}, "unknown message type 'teleport'"),
    ({"type": "move", "move": 5}, "move: move must be text"),
    ({"type": "take", "seat": True}, "take: seat must be a whole number"),
    ({"type": "take", "seat": 1.5}, "take: seat must be a whole number"),
    ({"type": "lines", "ply": "3"}, "lines: ply must be a whole number"),
])
def test_a_field_of_the_wrong_kind_is_refused_by_the_tables(data, error):
    with pytest.raises(BadMessage) as refused:
        messages.check("game", data)
    assert str(refused.value) == error


def test_given_fields_of_the_right_kind_and_nulls_pass_and_undeclared_ones_are_ignored():
    assert messages.check("game", {"type": "move", "move": "e2e4", "seat": None, "extra": [1]}).type == "move"
    assert messages.check("lobby", {"type": "seek", "min": 1500.0, "max": 1800}).type == "seek"
    with pytest.raises(BadMessage):                # a type of the game socket is not the lobby's
        messages.check("lobby", {"type": "move", "move": "e2e4"})


def test_the_clients_check_finds_what_the_tables_do_not_declare():
    assert messages.undeclared("game", {"type": "chat", "id": 1, "text": "hi"}) == ""
    assert "undeclared fields ['colour']" in messages.undeclared("game", {"type": "arrows", "colour": "red"})
    assert "undeclared 'seeking'" in messages.undeclared("game", {"type": "seeking", "seek": 1})
    assert [messages.socket_of(p) for p in ("/ws/lobby", "/ws/g/abc", "/ws/t/xyz", "/other")] == \
        ["lobby", "game", "tournament", ""]


def test_a_real_server_answers_a_malformed_message_with_one_clear_error_and_goes_on(tmp_path):
    server = LiveServer(tmp_path)
    try:
        async def scenario():
            alice = await new_player(server, "Alice")
            await alice.send({"type": "create", "kind": "two", "rated": "yes", "seats": [{"kind": "me"}, {"kind": "open"}]})
            assert (await alice.wait_for("error"))["message"] == "create: rated must be true or false"
            await alice.send({"type": "seek", "variant": "normal", "tc": "300+3", "min": "high"})
            assert (await alice.wait_for("error"))["message"] == "seek: min must be a number"
            made = await create(alice, kind="two", variant="normal", tc="300+3", seats=[{"kind": "me"}, {"kind": "open"}])
            await alice.connect(f"/ws/g/{made['gameId']}")
            await alice.state()
            await alice.send({"type": "chat", "text": ["hi"]})
            assert (await alice.wait_for("error"))["message"] == "chat: text must be text"
            await alice.send({"type": "chat", "text": "still here"})
            assert (await alice.wait_for("chat"))["text"] == "still here"
            await alice.close()
        run(scenario(), timeout=60)
    finally:
        server.stop()
