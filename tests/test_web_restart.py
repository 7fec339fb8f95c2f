"""The live server killed with SIGKILL in the middle of two games (a two-player game and an 8
Player game, every seat a person with a browser profile of their own) and started again on the same
port and database: every move a player saw acknowledged is there, the same people hold the same
seats, the clocks go on from where they were (not full again, not negative) and the games go on."""
import asyncio
import os
import time

import pytest

from needs import need_module

from live_client import Client, LiveServer, create, new_player

need_module("aiohttp")

TWO_CLOCK, TWO_FULL = "300+0", 300.0
EIGHT_CLOCK, EIGHT_FULL = "10+0", 600.0


def plies(game, state):
    return len(state["sans"]) if game == "two" else len(state["moves"])


def seat_to_move(game, state):
    return (0 if state["turn"] == "w" else 1) if game == "two" else state["turn"]


async def join(client, game_id):
    await client.connect(f"/ws/g/{game_id}")
    hello = await client.wait_for("hello")
    state = await client.state()
    return hello, state


async def move(game, players, state, others=()):
    """The seat to move plays its first legal target; its own page and everyone else's see it."""
    count = plies(game, state)
    mover = players[seat_to_move(game, state)]
    text = state["targets"][0]["options"][0]["text"]
    await mover.send({"type": "move", "move": text})
    acked = await mover.state(timeout=10, **{"sans" if game == "two" else "moves": lambda x: len(x) > count})
    for other in list(players.values()) + list(others):
        if other is not mover:
            await other.state(timeout=10, **{"sans" if game == "two" else "moves": lambda x: len(x) > count})
    return acked


async def seat_players(server, game, challenge):
    """The creator and one player per invite seat, each in its own browser profile."""
    creator = await new_player(server, f"{game} host")
    created = await create(creator, **challenge)
    game_id = created["gameId"]
    hello, _ = await join(creator, game_id)
    players = {hello["yourSeats"][0]: creator}
    for invite in created["invites"]:
        guest = Client(server)
        assert await guest.open_page("/") == 200
        await join(guest, game_id)
        await guest.send({"type": "take", "seat": invite["seat"], "secret": invite["path"].split("invite=")[1]})
        hello = await guest.wait_for("hello", yourSeats=[invite["seat"]])
        players[invite["seat"]] = guest
    return game_id, players


def check_clocks(before, after, full, seconds_since_kill):
    assert len(before) == len(after) and after
    for b, a in zip(before, after):
        assert 0 < a <= b + 0.01, (before, after)                 # never more time than at the kill
        assert a >= b - seconds_since_kill - 1.0, (before, after)  # the running clock lost at most the outage
    spent = [i for i, b in enumerate(before) if b < full - 0.25]
    assert spent, before
    for i in spent:
        assert after[i] < full - 0.2, (before, after)             # not reset to a full clock


def test_sigkill_loses_no_acknowledged_move_and_games_go_on(tmp_path):
    async def scenario():
        server = LiveServer(tmp_path)
        clients = []
        try:
            two_id, two = await seat_players(server, "two", dict(
                kind="two", variant="normal", tc=TWO_CLOCK, seats=[{"kind": "me"}, {"kind": "invite"}]))
            eight_id, eight = await seat_players(server, "eight", dict(
                kind="eight", mode="singles", tc=EIGHT_CLOCK, seats=[{"kind": "me"}] + [{"kind": "invite"}] * 7))
            clients = list(two.values()) + list(eight.values())
            watcher = Client(server)
            clients.append(watcher)
            await join(watcher, two_id)
            # a few moves in each game, a little thinking before each so the clocks run
            state = await two[0].state(status="playing") if two[0].inbox[-1].get("status") != "playing" \
                else two[0].inbox[-1]
            for _ in range(4):
                await asyncio.sleep(0.3)
                state = await move("two", two, state, [watcher])
            two_seen = state
            state = eight[0].inbox[-1] if eight[0].inbox[-1].get("type") == "state" else await eight[0].state()
            state = await eight[0].state(status="playing") if state.get("status") != "playing" else state
            for _ in range(10):                    # a seat's clock runs from its second move
                await asyncio.sleep(0.3 if len(state["moves"]) >= 8 else 0.0)
                state = await move("eight", eight, state)
            eight_seen = state
            assert len(two_seen["sans"]) == 4 and len(eight_seen["moves"]) >= 10

            server.kill()
            killed = time.monotonic()
            server.start()
            # everyone back with the same browser profile: the same seats
            for seat, client in list(two.items()) + list(eight.items()):
                game_id = two_id if client in two.values() else eight_id
                hello, state = await join(client, game_id)
                assert hello["yourSeats"] == [seat]
                assert state["status"] == "playing"
            _, two_state = await join(watcher, two_id)
            eight_state = (await join(eight[0], eight_id))[1]
            outage = time.monotonic() - killed
            assert two_state["sans"] == two_seen["sans"]
            assert two_state["fens"] == two_seen["fens"]
            assert eight_state["moves"] == eight_seen["moves"]
            check_clocks(two_seen["clockValues"], two_state["clockValues"], TWO_FULL, outage)
            check_clocks(eight_seen["clockValues"], eight_state["clockValues"], EIGHT_FULL, outage)
            # the games go on
            state = await move("two", two, two_state, [watcher])
            assert len(state["sans"]) == 5
            state = await move("eight", eight, eight_state)
            assert len(state["moves"]) > len(eight_seen["moves"])
            assert all(c > 0 for c in state["clockValues"])
        finally:
            for client in clients:
                await client.close()
            server.stop()

    started = time.monotonic()
    asyncio.run(scenario())
    assert time.monotonic() - started < 60


def descendants(pid):
    """The PIDs of a process's children, theirs, and so on (from /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_D6_no_process_outlives_a_killed_server(tmp_path):
    """Defect 6: after SIGKILL of serve, its pool workers and multiprocessing's resource tracker ran
    on with parent 1.  Now every process it started ends within a few seconds."""
    async def scenario():
        server = LiveServer(tmp_path, "--bot-workers", "2")
        try:
            kim = await new_player(server, "Kim")
            created = await create(kim, kind="two", variant="normal", tc="none",
                                   seats=[{"kind": "me"}, {"kind": "bot", "level": "strong"}])
            await kim.connect(f"/ws/g/{created['gameId']}")
            await kim.state(status="playing")
            await kim.send({"type": "move", "move": "e2e4"})
            await asyncio.sleep(0.3)                    # the bot is thinking in a worker now
            started = descendants(server.proc.pid)
            assert len(started) >= 2, started            # the workers (and the resource tracker)
            server.kill()
            deadline = time.monotonic() + 5
            while any(alive(p) for p in started) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert not [p for p in started if alive(p)], "left running after the server was killed"
            await kim.close()
        finally:
            if server.proc.poll() is None:
                server.stop()
    asyncio.run(scenario())
