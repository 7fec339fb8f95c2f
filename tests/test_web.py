"""The browser board's server (`xboard-engine web`) as a program: its WebSocket refuses foreign pages
and bad messages, the game outlives the page and the server, an engine crash ends the game, and
every legal move can be entered by clicks.  The page itself in Chromium: test_web_e2e.py."""
import io
import json
import random
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("aiohttp")

from web_page import ROOT, Server, ws_exchange  # noqa: E402

from xboard_engine import Position  # noqa: E402
from xboard_engine.match.pgn import read_games, replay  # noqa: E402
from xboard_engine.moves import PASS  # noqa: E402
from xboard_engine.variant import variant_names  # noqa: E402
from xboard_engine.web.game import move_targets, parse_time_control  # noqa: E402


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "data")
    yield s
    s.stop()


def last_state(replies):
    return [r for r in replies if r["type"] == "state"][-1]


def wait_for(server, condition, timeout=30.0):
    """The game's state once ``condition`` holds for it (asked again every 0.2 s)."""
    deadline = time.monotonic() + timeout
    while True:
        state = last_state(ws_exchange(server.host, [], replies=0))
        if condition(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.2)


def errors(replies):
    return [r["message"] for r in replies if r["type"] == "error"]


# ---------------------------------------------------------------- clicks for every move
@pytest.mark.parametrize("variant", variant_names())
def test_every_legal_move_has_one_click_path_and_no_path_is_a_prefix_of_another(variant):
    rng = random.Random(7)
    for _ in range(4):
        pos = Position(variant, rng=rng) if Position(variant).variant.setup != "fixed" else Position(variant)
        for _ in range(80):
            moves = pos.legal_moves()
            if not moves or pos.outcome():
                break
            targets = move_targets(pos)
            paths = {tuple(t["path"]) for t in targets}
            assert len(paths) == len(targets)
            for path in paths:                       # a click never has to mean "stop here or go on"
                assert all(path[:k] not in paths for k in range(1, len(path))), (pos.fen(), path)
            entered = {o["text"] for t in targets for o in t["options"]}
            assert entered == {pos.move_text(m) for m in moves if m.kind != PASS}
            for t in targets:                          # a chooser's options differ in what they show
                if len(t["options"]) > 1:
                    assert len({(o["picture"], o["san"]) for o in t["options"]}) == len(t["options"])
            pos.push(rng.choice(moves))


def test_castle_is_entered_as_king_to_destination_or_king_onto_partner():
    pos = Position.from_fen("1r2k2r/8/8/8/8/8/8/1R2K2R w KQk - 0 1", "fischerandom")
    targets = {tuple(t["path"]): [o["san"] for o in t["options"]] for t in move_targets(pos)}
    assert targets[("e1", "g1")] == ["O-O"] and targets[("e1", "h1")] == ["O-O"]
    assert targets[("e1", "c1")] == ["O-O-O"] and targets[("e1", "b1")] == ["O-O-O"]


def test_push_is_three_clicks_sentry_unit_destination():
    pos = Position.from_fen("k7/8/8/8/5g2/8/8/2S1K3 w - - 0 1", "8piece")
    targets = {tuple(t["path"]): [o["san"] for o in t["options"]] for t in move_targets(pos)}
    assert targets[("c1", "f4", "g5")] == ["Sf4>Lg5"]           # a nudge
    assert ("c1", "f4") not in targets


def test_2019_sentry_capture_is_two_clicks_sentry_then_landing_square_or_edge_unit():
    # as the README's browser-board section says: the jumped unit's own square is no target
    pos = Position.from_fen("k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1", "8piece-2019")
    targets = {tuple(t["path"]): [o["san"] for o in t["options"]] for t in move_targets(pos)}
    assert targets[("c1", "g5")] == ["Sxf4"] and ("c1", "f4") not in targets
    pos = Position.from_fen("k7/8/r7/8/8/3S4/8/4K3 w - - 0 1", "8piece-2019")
    targets = {tuple(t["path"]): [o["san"] for o in t["options"]] for t in move_targets(pos)}
    assert targets[("d3", "a6")] == ["Sxa6"]


def test_time_controls_are_the_runners_and_bad_ones_say_why():
    assert parse_time_control("40/300+2").moves == 40
    assert parse_time_control("depth=3").depth == 3
    assert parse_time_control("st=2").st == 2
    for bad in ("fast", "depth=0", "st=-1", "inf"):
        with pytest.raises(ValueError):
            parse_time_control(bad)


# ---------------------------------------------------------------- no one in
def test_websocket_from_a_foreign_origin_is_refused(server):
    import aiohttp
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        ws_exchange(server.host, [], origin="http://evil.example")
    assert refused.value.status == 403
    replies = ws_exchange(server.host, [], origin=f"http://{server.host}")
    assert [r["type"] for r in replies] == ["hello", "state"]


def test_request_for_a_foreign_host_name_is_refused(server):
    import urllib.error
    import urllib.request
    request = urllib.request.Request(server.url, headers={"Host": "attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    assert "<svg" not in server.get("/")
    assert server.get("/piece/lancer-ne-white.svg").startswith("<?xml")


def test_malformed_and_illegal_messages_are_refused_and_change_nothing(server):
    bad = ["not json", "[1, 2]", {"no": "type"}, {"type": "launch", "cmd": "rm -rf /"},
           {"type": "move", "move": "e2e5"}, {"type": "move", "move": "zz"}, {"type": "move", "move": 5},
           {"type": "move"}, {"type": "new", "variant": "shogi"}, {"type": "new", "black": "sh -c reboot"},
           {"type": "new", "variant": "fischerandom", "number": 960}, {"type": "new", "tc": "soon"},
           {"type": "new", "variant": "normal", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"},
           {"type": "load", "pgn": "1. e4 e5 2. Ke3 *"}, {"type": "load"}, {"type": "takeback"},
           {"type": "draw", "accept": True}, b"\x00\x01"]
    replies = ws_exchange(server.host, bad, replies=1)
    start = last_state(replies)
    refused = errors(replies)
    assert len(refused) == len(bad) - 1            # the draw offer is declined, not refused
    assert "illegal" in refused[4].lower() and "e2e5" in refused[4]
    assert "unknown variant 'shogi'" in refused[8]
    assert "no engine named 'sh -c reboot'" in refused[9]
    assert "out of range" in refused[10] and "0..959" in refused[10]
    assert "Ke3" in refused[13]
    after = ws_exchange(server.host, [])
    assert last_state(after)["fens"] == start["fens"] and start["sans"] == []


def test_json_nested_too_deep_is_refused_and_the_connection_stays_open(server):
    """JSON nested 100,000 deep raised an uncaught RecursionError (a traceback in the log) and the
    connection dropped without a close frame.  It is refused like any bad message; the same socket
    goes on (a second bad message gets its own reply, a move is played)."""
    replies = ws_exchange(server.host, ["[" * 100000, '{"type": ' * 50000, "[1, 2]",
                                        {"type": "new", "black": "human"}, {"type": "move", "move": "e2e4"}],
                          replies=1)
    refused = errors(replies)
    assert len(refused) == 3 and "too deep" in refused[0] and "too deep" in refused[1], refused
    assert "JSON object" in refused[2]
    assert last_state(replies)["sans"] == ["e4"]
    server.stop()
    log = server.proc.stdout.read()
    assert "Traceback" not in log and "RecursionError" not in log, log


def test_game_outlives_the_page_and_the_server(tmp_path):
    server = Server(tmp_path / "data")
    try:
        replies = ws_exchange(server.host, [{"type": "new", "variant": "8piece", "black": "human",
                                             "tc": "300+3"},
                                            {"type": "move", "move": "e2e4"}, {"type": "move", "move": "e7e5"}])
        assert last_state(replies)["sans"] == ["e4", "e5"]
        again = ws_exchange(server.host, [])               # a second page, or the first reloaded
        assert last_state(again)["sans"] == ["e4", "e5"]
    finally:
        server.stop()
    server = Server(tmp_path / "data")
    try:
        state = last_state(ws_exchange(server.host, []))
        assert (state["variant"], state["sans"], state["players"]) == ("8piece", ["e4", "e5"], ["human", "human"])
        assert 290 < state["clocks"][0] <= 303
    finally:
        server.stop()


def test_engine_crash_ends_the_game_for_the_crashed_side_and_is_kept(server):
    messages = [{"type": "new", "white": "human", "black": "crashy", "tc": "depth=1"},
                {"type": "move", "move": "e2e4"}]
    ws_exchange(server.host, messages, replies=2)
    first = wait_for(server, lambda s: len(s["sans"]) == 2)["sans"]      # the crashy engine's first reply
    ws_exchange(server.host, [{"type": "move", "move": "d2d4"}], replies=1)
    state = wait_for(server, lambda s: s["result"])
    assert state["result"] == "1-0" and "Black disconnects" in state["reason"]
    games = list(read_games(io.open(server.data_dir / "games.pgn", encoding="utf-8")))
    assert games[-1].result == "1-0" and games[-1].tags["Termination"] == "abandoned"
    assert games[-1].moves == first + ["d4"]


def test_game_against_our_engine_over_uci_and_cecp_is_kept_as_legal_pgn(server):
    for engine in ("ours-uci", "xboard-engine"):
        replies = ws_exchange(server.host, [{"type": "new", "variant": "chess80", "white": engine,
                                             "black": engine, "tc": "depth=1"}], replies=1)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = last_state(ws_exchange(server.host, [], replies=0))
            if state["result"] or len(state["sans"]) >= 16:
                break
            time.sleep(0.5)
        assert len(state["sans"]) >= 16, state
        pgn = server.get("/game.pgn")
        game = next(read_games(io.StringIO(pgn)))
        state = last_state(ws_exchange(server.host, [], replies=0))     # the game may have gone on
        assert game.tags["Variant"] == "chess80" and game.tags["White"] == engine
        assert replay(game).fen() == Position.from_fen(state["fens"][len(game.moves)], "chess80").fen()


def test_server_without_aiohttp_says_how_to_get_it(tmp_path):
    code = ("import sys, builtins; real = builtins.__import__\n"
            "def no_aiohttp(name, *a, **k):\n"
            "    if name.startswith('aiohttp'): raise ImportError(name)\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = no_aiohttp\n"
            "from xboard_engine.cli import main; sys.exit(main(['web', '--no-browser']))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "pip install 'xboard-variant-engine[web]'" in done.stderr


def test_busy_port_is_reported_not_a_traceback(server):
    port = server.host.rsplit(":", 1)[1]
    done = subprocess.run([sys.executable, "-m", "xboard_engine", "web", "--no-browser", "--port", port,
                           "--data-dir", str(server.data_dir)], cwd=ROOT, capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr


def test_sigint_saves_the_unfinished_game(tmp_path):
    server = Server(tmp_path / "data")
    ws_exchange(server.host, [{"type": "new", "black": "human"}, {"type": "move", "move": "g1f3"}])
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(timeout=10) == 0
    saved = json.loads((tmp_path / "data" / "current-game.json").read_text())
    assert saved["moves"] == ["g1f3"]


def test_sigterm_stops_at_once_with_pages_connected_and_the_clocks_saved_as_at_the_stop(tmp_path):
    """SIGTERM took about 30 s (aiohttp waited for the open WebSockets) while the waiting player's
    clock ran on.  With a page on each board and a clock running in each game, the server closes
    the pages' sockets and exits within 2 s; both saved games hold the clock as it was at the
    signal, and a restart resumes from it."""
    import asyncio

    import aiohttp
    server = Server(tmp_path / "data")

    async def receive_until(ws, condition):
        while True:
            msg = await ws.receive(timeout=10)
            data = json.loads(msg.data)
            if data["type"] == "state" and condition(data):
                return data, time.monotonic()

    async def run():
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"http://{server.host}/ws") as ws, \
                    session.ws_connect(f"http://{server.host}/ws8") as ws8:
                await ws.send_json({"type": "new", "black": "human", "tc": "300+3"})
                await ws.send_json({"type": "move", "move": "e2e4"})
                two, two_at = await receive_until(ws, lambda s: s["sans"] == ["e4"])
                await ws8.send_json({"type": "new", "players": ["human"] * 8, "tc": "10+5"})
                await ws8.send_json({"type": "move", "move": "h3"})
                eight, eight_at = await receive_until(ws8, lambda s: len(s["moves"]) == 1)
                await asyncio.sleep(1.0)
                stopped_at = time.monotonic()
                server.proc.send_signal(signal.SIGTERM)
                closes = [(await ws.receive(timeout=5)).type, (await ws8.receive(timeout=5)).type]
                while server.proc.poll() is None and time.monotonic() < stopped_at + 5:
                    await asyncio.sleep(0.02)
                took = time.monotonic() - stopped_at
                return (two["clocks"][1] - (stopped_at - two_at), eight["seats"][1]["clock"] - (stopped_at - eight_at),
                        closes, took)

    try:
        two_clock, eight_clock, closes, took = asyncio.run(run())
    finally:
        server.stop()
    log = server.proc.stdout.read()
    assert took < 2.0 and server.proc.returncode == 0, (took, log)
    assert closes == [aiohttp.WSMsgType.CLOSE] * 2 and "Traceback" not in log, (closes, log)
    saved = json.loads((tmp_path / "data" / "current-game.json").read_text())
    saved8 = json.loads((tmp_path / "data" / "8pc-current.json").read_text())
    assert saved["moves"] == ["e2e4"] and saved["clocks"][1] == pytest.approx(two_clock, abs=0.5)
    assert saved8["clocks"][1] == pytest.approx(eight_clock, abs=0.5)
    server = Server(tmp_path / "data")
    try:
        state = last_state(ws_exchange(server.host, [], replies=0))
        assert saved["clocks"][1] - 2 < state["clocks"][1] <= saved["clocks"][1]
    finally:
        server.stop()


@pytest.mark.parametrize("engine", ["xboard-engine", "ours-uci"])
def test_loaded_game_with_the_engine_to_move_goes_on(server, engine):
    # the engine is told the game once: the last move is not sent again (a CECP engine would take
    # it as a second move and be refused)
    replies = ws_exchange(server.host, [{"type": "load", "pgn": '[Variant "8piece"]\n1. e4 e5 2. d4 *',
                                         "white": "human", "black": engine, "tc": "depth=1"}], replies=4)
    deadline = time.monotonic() + 30
    state = last_state(replies)
    while len(state["sans"]) < 4 and not state["result"] and time.monotonic() < deadline:
        time.sleep(0.2)
        state = last_state(ws_exchange(server.host, [], replies=0))
    assert state["result"] is None and len(state["sans"]) == 4 and state["humanToMove"]


def test_human_who_runs_out_of_time_loses_on_time(server):
    replies = ws_exchange(server.host, [{"type": "new", "black": "human", "tc": "1+0"},
                                        {"type": "move", "move": "e2e4"}], replies=3)
    after = [r for r in replies if r["type"] == "state" and r["sans"] == ["e4"]][0]
    assert after["running"] == 1 and after["clocks"][0] == 1.0   # White's first move cost no time
    time.sleep(1.6)
    state = last_state(ws_exchange(server.host, [], replies=0))
    assert (state["result"], state["reason"]) == ("1-0", "Black loses on time")
    assert state["clocks"][1] == 0


def test_draw_offer_between_humans_is_accepted_on_the_next_move_or_declined_by_moving(server):
    replies = ws_exchange(server.host, [{"type": "new", "black": "human", "tc": "300+3"},
                                        {"type": "draw"}, {"type": "move", "move": "e2e4"}], replies=1)
    assert last_state(replies)["drawOffer"] == "w" and last_state(replies)["note"] == "White offers a draw"
    replies = ws_exchange(server.host, [{"type": "move", "move": "e7e5"}], replies=1)
    assert last_state(replies)["drawOffer"] is None and last_state(replies)["note"] == "Draw offer declined"
    replies = ws_exchange(server.host, [{"type": "draw"}, {"type": "move", "move": "d2d4"},
                                        {"type": "draw"}], replies=1)
    state = last_state(replies)
    assert (state["result"], state["reason"]) == ("1/2-1/2", "Draw by agreement")


def test_load_or_new_with_a_pgn_or_fen_that_is_not_text_is_refused(tmp_path):
    """A nested list given as the PGN started a new game (its Python text was read as a PGN)."""
    server = Server(tmp_path / "data")
    try:
        replies = ws_exchange(server.host, [{"type": "load", "pgn": [[["1. e4"]]], "black": "human"},
                                            {"type": "load", "fen": {"x": 1}, "black": "human"},
                                            {"type": "new", "fen": ["8/8"], "black": "human"}])
        assert errors(replies) == ["pgn must be text", "fen must be text", "fen must be text"]
        assert last_state(replies)["id"] == 1                      # still the first game
    finally:
        server.stop()
