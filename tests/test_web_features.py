"""What players of lichess or pychess-variants expect, on the real server over real WebSockets: abort,
takebacks, rematches, a player's page, the engines' lines for watchers; and the same server as one
person's board (`xboard-engine web`): hot-seat, engines against each other, a start position from
a PGN or FEN, the old local board's files read once and left as they were."""
import io
import json
import os
import shlex
import signal
import subprocess
import sys

import pytest

from needs import need_module

aiohttp = need_module("aiohttp")

from live_client import (player_path, ROOT, Client, LiveServer, close_all, create, host_one_round_against_bots,  # noqa: E402
                         new_player, run, two_players)

from xboard_engine import Position  # noqa: E402
from xboard_engine.match.pgn import read_games, replay  # noqa: E402

FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engines")
PY = shlex.quote(sys.executable)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("features"), "--first-move", "0")
    yield s
    s.stop()


async def pair(server, variant="normal", tc="300+3"):
    alice, bob, game, _ = await two_players(server, variant, tc)
    return alice, bob, game


async def play(mover, watcher, move, count):
    await mover.send({"type": "move", "move": move})
    return await watcher.state(sans=lambda s: len(s) == count)


# ---------------------------------------------------------------- abort
def test_either_player_may_abort_before_their_own_first_move_and_not_after(server):
    async def scenario():
        alice, bob, game = await pair(server)
        state = await bob.state()
        assert state["abortable"] == [0, 1]
        await play(alice, bob, "e2e4", 1)
        await alice.send({"type": "abort"})
        assert "you have made your first move" in (await alice.wait_for("error"))["message"]
        await bob.send({"type": "abort"})
        state = await alice.state(status="aborted")
        assert state["outcome"]["reason"] == f"Aborted by {bob.name} before their first move" and state["result"] is None
        await bob.send({"type": "move", "move": "e7e5"})
        assert (await bob.wait_for("error"))["message"] == "the game was aborted"
        await close_all(alice, bob)
    run(scenario())


# ---------------------------------------------------------------- takebacks
def test_a_takeback_between_people_is_asked_then_accepted_or_declined(server):
    async def scenario():
        alice, bob, game = await pair(server)
        await play(alice, bob, "e2e4", 1)
        await play(bob, alice, "e7e5", 2)
        await play(alice, bob, "g1f3", 3)
        await bob.send({"type": "takeback"})                      # Bob asks to take back e5 (two plies)
        state = await alice.state(offers=lambda o: o["takeback"] == 1)
        assert state["note"] == "Black asks to take back a move"
        await alice.send({"type": "decline", "what": "takeback"})
        state = await bob.state(offers=lambda o: o["takeback"] is None)
        assert state["note"] == "White declines the takeback" and len(state["sans"]) == 3
        await alice.send({"type": "takeback"})                    # Alice asks for Nf3 (one ply)
        await bob.state(offers=lambda o: o["takeback"] == 0)
        await bob.send({"type": "takeback"})                      # Bob accepts
        state = await alice.state(sans=["e4", "e5"])
        assert state["turn"] == "w" and state["offers"]["takeback"] is None
        await bob.send({"type": "takeback"})                      # Black's e5: two plies back to Black's move
        await alice.state(offers=lambda o: o["takeback"] == 1)
        await alice.send({"type": "takeback"})
        state = await bob.state(sans=["e4"])
        assert state["turn"] == "b"
        async with alice.session.get(f"{server.url}/g/{game}.pgn") as response:
            assert "1. e4 *" in await response.text()
        await close_all(alice, bob)
    run(scenario())


def test_a_takeback_against_a_bot_is_at_once_back_to_the_persons_move(server):
    async def scenario():
        kim = await new_player(server, "Kim")
        created = await create(kim, kind="two", variant="8piece", tc="none",
                               seats=[{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        await kim.connect(f"/ws/g/{created['gameId']}")
        state = await kim.state(status="playing")
        await kim.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
        await kim.state(sans=lambda s: len(s) == 2, timeout=30)
        await kim.send({"type": "takeback"})
        state = await kim.state(sans=[], timeout=10)
        assert state["turn"] == "w" and state["humanToMove"]
        await kim.send({"type": "takeback"})
        assert (await kim.wait_for("error"))["message"] == "nothing to take back"
        await kim.close()
    run(scenario())


def test_takebacks_and_draw_offers_are_not_offered_in_8_player_chess(server):
    async def scenario():
        host, _ = await host_one_round_against_bots(server)
        for kind in ("takeback", "offer"):
            await host.send({"type": kind})
            assert "not offered in 8 Player Chess" in (await host.wait_for("error"))["message"]
        await host.close()
    run(scenario())


# ---------------------------------------------------------------- rematches
def test_a_rematch_swaps_colours_when_both_players_ask(server):
    async def scenario():
        alice, bob, game = await pair(server, variant="chess80")
        await play(alice, bob, "e2e4", 1)
        await bob.send({"type": "resign"})
        await alice.state(status="over")
        await bob.send({"type": "rematch"})
        state = await alice.state(offers=lambda o: o["rematch"] == [1])
        await alice.send({"type": "decline", "what": "rematch"})
        await bob.state(offers=lambda o: o["rematch"] == [])
        await bob.send({"type": "rematch"})
        await alice.state(offers=lambda o: o["rematch"] == [1])
        await alice.send({"type": "rematch"})
        state = await bob.state(offers=lambda o: o["next"])
        new = state["offers"]["next"]
        for client, seat in ((alice, 1), (bob, 0)):
            await client.connect(f"/ws/g/{new}")
            hello = await client.wait_for("hello")
            assert hello["yourSeats"] == [seat] and hello["config"]["variant"] == "chess80"
        state = await bob.state(status="playing")
        assert [o["name"] for o in state["online"]] == [bob.name, alice.name]
        await alice.send({"type": "rematch"})
        assert (await alice.wait_for("error"))["message"] == "a rematch follows a finished game"
        await close_all(alice, bob)
    run(scenario())


def test_an_8_player_rematch_seats_everyone_one_place_on_and_bots_agree(server):
    async def scenario():
        host = await new_player(server, "Host")
        created = await create(host, kind="eight", mode="singles", tc="none",
                               seats=[{"kind": "me"}] * 7 + [{"kind": "bot", "level": "random"}])
        await host.connect(f"/ws/g/{created['gameId']}")
        for seat in range(7):                                      # seven resign: the bot is left
            await host.state(status="playing", turn=seat)
            await host.send({"type": "resign"})
        await host.state(status="over", timeout=30)
        await host.send({"type": "rematch"})                       # the bot agrees: it begins at once
        state = await host.state(offers=lambda o: o["next"])
        await host.connect(f"/ws/g/{state['offers']['next']}")
        hello = await host.wait_for("hello")
        assert hello["yourSeats"] == [1, 2, 3, 4, 5, 6, 7] and hello["config"]["mode"] == "singles"
        state = await host.state()
        assert state["online"][0]["kind"] == "bot"
        await host.close()
    run(scenario())


# ---------------------------------------------------------------- a player's page
def test_a_players_page_lists_their_games_and_results_per_variant(server):
    async def scenario():
        alice, bob, game = await pair(server, variant="fullcavalry")
        await play(alice, bob, "e2e4", 1)
        await bob.send({"type": "resign"})
        await alice.state(status="over")
        async with bob.session.get(server.url + player_path(alice.name)) as response:
            assert response.status == 200 and "player.js" in await response.text()
        async with bob.session.get(server.url + player_path(alice.name) + ".json") as response:
            page = await response.json()
        assert page["name"] == alice.name and not page["you"]
        assert page["results"]["fullcavalry"] == {"won": 1, "drawn": 0, "lost": 0, "played": 1}
        assert all(g["gameId"] != game for g in page["finished"])        # invite-only: not shown to others
        async with alice.session.get(server.url + player_path(alice.name) + ".json") as response:
            own = await response.json()
        assert own["you"] and any(g["gameId"] == game and g["result"] == "1-0" for g in own["finished"])
        async with bob.session.get(server.url + player_path("Nobody Such") + ".json") as response:
            assert response.status == 404
        await close_all(alice, bob)
    run(scenario())


# ---------------------------------------------------------------- the engines' lines
def test_watchers_of_an_engine_game_see_the_engines_lines(server):
    async def scenario():
        host = await new_player(server, "Host")
        bot = {"kind": "bot", "level": "strong"}
        created = await create(host, kind="two", variant="normal", tc="none", seats=[bot, bot])
        watcher = Client(server)
        await watcher.open_page("/")
        await watcher.connect(f"/ws/g/{created['gameId']}")
        line = await watcher.wait_for("thinking", timeout=20)
        assert line["depth"] >= 1 and line["pv"] and line["engine"] == "Engine, 1 s a move"
        assert line["score"][0] in "+-#"
        state = await watcher.state(sans=lambda s: len(s) >= 2, timeout=30)
        assert Position.from_fen(state["fens"][-1], "normal")
        await close_all(host, watcher)
    run(scenario())


# ---------------------------------------------------------------- one person's board
@pytest.fixture(scope="module")
def board(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("board"), "--uci-engine", f"ours-uci={PY} -m xboard_engine",
                   "--engine", f"ours-cecp={PY} -m xboard_engine", local=True)
    yield s
    s.stop()


async def owner(server):
    """A page of one person's board: every page is the owner's (no name to choose)."""
    client = Client(server)
    assert await client.open_page("/") == 200
    await client.connect("/ws/lobby")
    hello = await client.wait_for("hello")
    assert hello["local"] and hello["you"]
    client.name, client.id = hello["you"]["name"], hello["you"]["id"]
    return client


def test_one_persons_board_plays_hot_seat_both_sides_from_any_page(board):
    async def scenario():
        me = await owner(board)
        created = await create(me, kind="two", variant="8piece-random", number=5, tc="none",
                               seats=[{"kind": "me"}, {"kind": "me"}])
        other_tab = await owner(board)                                  # another browser: still the owner
        await other_tab.connect(f"/ws/g/{created['gameId']}")
        hello = await other_tab.wait_for("hello")
        assert hello["yourSeats"] == [0, 1] and hello["solo"]
        state = await other_tab.state(status="playing")
        for n in range(1, 4):
            await other_tab.send({"type": "move", "move": state["targets"][0]["options"][0]["text"]})
            state = await other_tab.state(sans=lambda s: len(s) == n)
        await other_tab.send({"type": "takeback"})                      # at once, one move
        state = await other_tab.state(sans=lambda s: len(s) == 2)
        await close_all(me, other_tab)
    run(scenario())


@pytest.mark.parametrize("engine", ["ours-uci", "ours-cecp"])
def test_engines_named_at_the_start_play_each_other_and_the_game_is_kept_as_legal_pgn(board, engine):
    async def scenario():
        me = await owner(board)
        created = await create(me, kind="two", variant="chess80", tc="depth=1",
                               seats=[{"kind": "bot", "engine": engine}, {"kind": "bot", "engine": engine}])
        await me.connect(f"/ws/g/{created['gameId']}")
        line = await me.wait_for("thinking", timeout=30)
        assert line["engine"] == engine
        state = await me.state(sans=lambda s: len(s) >= 16, timeout=120)
        async with me.session.get(f"{board.url}/g/{created['gameId']}.pgn") as response:
            pgn = await response.text()
        game = next(read_games(io.StringIO(pgn)))
        assert game.tags["Variant"] == "chess80" and game.tags["White"] == engine
        await me.connect(f"/ws/g/{created['gameId']}")                # the game may have gone on
        state = await me.state(sans=lambda s: len(s) >= len(game.moves))
        assert replay(game).fen() == Position.from_fen(state["fens"][len(game.moves)], "chess80").fen()
        await me.close()
    run(scenario(), timeout=180)


@pytest.mark.parametrize("engine", ["ours-uci", "ours-cecp", "xboard-engine"])
def test_a_loaded_pgn_with_the_engine_to_move_goes_on(board, engine):
    """A CECP engine is told the game once: the last move is not sent again (it would take it as a
    second move and be refused)."""
    async def scenario():
        me = await owner(board)
        seat = {"kind": "bot", "engine": engine} if engine != "xboard-engine" else {"kind": "bot", "level": "easy"}
        created = await create(me, kind="two", tc="depth=1", pgn='[Variant "8piece"]\n1. e4 e5 2. d4 *',
                               seats=[{"kind": "me"}, seat])
        await me.connect(f"/ws/g/{created['gameId']}")
        state = await me.state(sans=lambda s: len(s) == 4, timeout=30)
        assert state["result"] is None and state["humanToMove"] and state["variant"] == "8piece"
        await me.send({"type": "takeback"})                           # not into the loaded moves
        assert (await me.wait_for("error"))["message"] == "nothing to take back"
        await me.close()
    run(scenario())


def test_a_game_from_a_fen_and_bad_start_positions_refused(board):
    async def scenario():
        me = await owner(board)
        fen = "k7/8/8/8/5g2/8/8/2S1K3 w - - 0 1"
        created = await create(me, kind="two", variant="8piece", tc="none", fen=fen, seats=[{"kind": "me"}, {"kind": "me"}])
        await me.connect(f"/ws/g/{created['gameId']}")
        state = await me.state()
        assert state["fens"][0] == fen
        await me.connect("/ws/lobby")
        await me.wait_for("lobby")
        for extra, words in (({"pgn": [[["1. e4"]]]}, "create: pgn must be text"), ({"fen": {"x": 1}}, "create: fen must be text"),
                             ({"fen": "8/8 w"}, "bad FEN"), ({"pgn": "1. e4 e5 2. Ke3 *"}, "PGN: move 2. Ke3")):
            await me.send(dict({"type": "create", "kind": "two", "variant": "normal", "tc": "none",
                                "seats": [{"kind": "me"}, {"kind": "me"}]}, **extra))
            assert words in (await me.wait_for("error"))["message"], extra
        await me.close()
    run(scenario())


def test_the_old_boards_files_are_read_once_and_left_as_they_were(tmp_path):
    from xboard_engine.web.games.eight_player import EightGame
    from xboard_engine.time_control import parse_time_control
    from xboard_engine.web.games.two_player import WebGame
    pgn = ('[Event "Browser game"]\n[White "Human"]\n[Black "xboard-engine"]\n[Variant "chess80"]\n'
           '[Result "0-1"]\n[Termination "normal"]\n\n1. e4 e5 0-1\n\n'
           '[Event "Browser game"]\n[White "fsf"]\n[Black "Human"]\n[Result "*"]\n\n1. d4 *\n')
    current = WebGame("normal", ["human", "fsf"], parse_time_control("300+3"), "300+3")   # fsf: not named now
    current.play("g1f3")
    eight = EightGame(players=["human"] + ["fast"] * 7, tc="10+5")
    eight.play(eight.game.parse_move("h3"))
    files = {"games.pgn": pgn, "current-game.json": json.dumps(current.to_json()),
             "8pc-current.json": json.dumps(eight.to_json()), "8pc-games.txt": ""}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    s = LiveServer(tmp_path, local=True)
    try:
        said = "".join(s.said)
        assert "2 games read from" in said and "games.pgn" in said and "1 game read from" in said

        async def scenario():
            me = await owner(s)
            lobby = await me.wait_for("lobby")
            mine = {g["variant"]: g for g in lobby["mine"]}
            assert set(mine) == {"normal", "8 Player Chess"}              # the two unfinished games
            await me.connect(f"/ws/g/{mine['normal']['gameId']}")
            state = await me.state()
            assert state["sans"] == ["Nf3"] and state["online"][1]["kind"] == "bot"
            assert state["online"][1]["name"] == "fsf"
            await me.state(sans=lambda x: len(x) == 2, timeout=30)     # ours plays on in its place
            await me.connect(f"/ws/g/{mine['8 Player Chess']['gameId']}")
            state = await me.state()
            assert state["moves"][0][3] == "h3" and state["online"][0]["player"] == me.id
            async with me.session.get(s.url + player_path(me.name) + ".json") as response:
                page = await response.json()
            assert page["results"]["chess80"]["lost"] == 1 and len(page["finished"]) == 2
            await me.close()
        run(scenario())
        s.stop()
        s.start()                                                     # read once: nothing more now
        assert s.said == []
        async def again():
            me = await owner(s)
            lobby = await me.wait_for("lobby")
            assert len(lobby["mine"]) == 2
            await me.close()
        run(again())
    finally:
        s.stop()
    for name, text in files.items():
        assert (tmp_path / name).read_text() == text                  # never changed


def test_sigint_keeps_a_one_person_game_and_it_resumes(tmp_path):
    s = LiveServer(tmp_path, local=True)

    async def first():
        me = await owner(s)
        created = await create(me, kind="two", variant="normal", tc="300+3", seats=[{"kind": "me"}, {"kind": "me"}])
        await me.connect(f"/ws/g/{created['gameId']}")
        await me.state(status="playing")
        await me.send({"type": "move", "move": "g1f3"})
        await me.state(sans=["Nf3"])
        await me.close()
        return created["gameId"]
    game = run(first())
    s.proc.send_signal(signal.SIGINT)
    assert s.proc.wait(timeout=10) == 0
    s.start()

    async def second():
        me = await owner(s)
        await me.connect(f"/ws/g/{game}")
        state = await me.state()
        assert state["sans"] == ["Nf3"] and state["status"] == "playing"
        await me.close()
    try:
        run(second())
    finally:
        s.stop()


@pytest.mark.parametrize("command", ["web", "serve"])
def test_without_aiohttp_the_server_says_how_to_get_it(command):
    code = ("import sys, builtins; real = builtins.__import__\n"
            "def no_aiohttp(name, *a, **k):\n"
            "    if name.startswith('aiohttp'): raise ImportError(name)\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = no_aiohttp\n"
            f"from xboard_engine.cli import main; sys.exit(main(['{command}', '--port', '0']))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "pip install 'xboard-variant-engine[web]'" in done.stderr


def test_a_busy_port_is_reported_not_a_traceback(board):
    port = board.url.rsplit(":", 1)[1]
    done = subprocess.run([sys.executable, "-m", "xboard_engine", "web", "--no-browser", "--port", port,
                           "--data-dir", board.data_dir], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
