"""Ratings that cannot be farmed or dumped (issue 52, defect 3), on the real server over real
WebSockets: a game of fewer than three moves each changes no rating, a provisional player's gains
from one opponent are capped, and quitting rated games in a row (resigning, abandoning, aborting)
costs a cool-down from rated games.  The leaderboards' rule (established ratings of players with
five opponents or more) is checked on both stores by tests/test_store_contract.py."""
import pytest

from live_client import LiveServer, close_all, game_between, new_player, run
from xboard_engine.web.community import rated, ratings

THREE_EACH = ["e2e4", "e7e5", "a2a3", "a7a6", "h2h3", "h7h6"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = LiveServer(tmp_path_factory.mktemp("farming"), "--first-move", "0", "--max-challenges", "50")
    yield s
    s.stop()


async def rated_win(white, black, moves=THREE_EACH, ender="resign"):
    """``white`` wins a rated game against ``black`` (Black resigns after ``moves``, or with
    ``ender`` "abort" Black aborts it before its first move); the final state."""
    await game_between(white, black, moves, variant="normal", tc="300+3", rated=True)
    await black.send({"type": ender})
    state = await white.state(status=lambda s: s in ("over", "aborted"))
    await white.connect("/ws/lobby")
    await white.wait_for("lobby")
    return state


async def rated_create(client):
    """A rated challenge from ``client`` in the lobby: the error's text, or None if it was made."""
    await client.connect("/ws/lobby")
    await client.wait_for("lobby")
    await client.send({"type": "create", "kind": "two", "variant": "normal", "tc": "300+3", "rated": True,
                       "seats": [{"kind": "me"}, {"kind": "open"}]})
    while True:
        reply = await client.receive(10.0)
        if reply.get("type") in ("error", "created"):
            return reply["message"] if reply["type"] == "error" else None


def test_issue_52_D3_a_rated_game_of_fewer_than_three_moves_each_changes_no_rating(server):
    async def scenario():
        farmer, puppet = await new_player(server, "Farmer"), await new_player(server, "Puppet")
        state = await rated_win(farmer, puppet, THREE_EACH[:4])        # resigned after two moves each
        assert state["ratingChanges"] == {"unrated": "the game ended before each side made 3 moves"}
        state = await rated_win(farmer, puppet, THREE_EACH)
        assert "seats" in state["ratingChanges"], (state["ratingChanges"], state["sans"], state["status"])
        assert state["ratingChanges"]["seats"]["1"][0] == 1500 and state["ratingChanges"]["seats"]["1"][1] < 1500
        await close_all(farmer, puppet)
    run(scenario())


async def glicko_second_win(white):
    """What the formula alone would give the farmer for a second win over the loser of the first."""
    _, black = ratings.rate_game(ratings.Glicko(), ratings.Glicko(), 1.0)
    again, _ = ratings.rate_game(white, black, 1.0)
    return white, black, again.rating - white.rating


def test_issue_52_D3_a_provisional_players_gains_from_one_opponent_are_capped(server):
    async def scenario():
        farmer, puppet, other = [await new_player(server, n) for n in ("Grower", "Sprout", "Stranger")]
        first = (await rated_win(farmer, puppet))["ratingChanges"]["seats"]
        white, _ = ratings.rate_game(ratings.Glicko(), ratings.Glicko(), 1.0)
        assert first["0"] == [1500, round(white.rating)]                      # as the formula says
        _, _, uncapped = await glicko_second_win(white)
        assert white.rating + uncapped - 1500 > rated.ONE_OPPONENT_GAIN      # the formula gives more ...
        again = (await rated_win(farmer, puppet))["ratingChanges"]["seats"]
        assert again["0"] == [round(white.rating), 1500 + rated.ONE_OPPONENT_GAIN]   # ... 200 in all let through
        third = (await rated_win(farmer, puppet))["ratingChanges"]["seats"]
        assert third["0"] == [1700, 1700] and third["1"][1] < third["1"][0]  # nothing more from Sprout
        fresh = (await rated_win(farmer, other))["ratingChanges"]["seats"]
        assert fresh["0"][1] > 1700                                          # a new opponent counts again
        await close_all(farmer, puppet, other)
    run(scenario())


def test_issue_52_D3_quitting_three_rated_games_in_a_row_costs_a_cool_down_from_rated_games(server):
    async def scenario():
        winner, quitter = await new_player(server, "Patient"), await new_player(server, "Quitter")
        await rated_win(winner, quitter, THREE_EACH)                        # resigned
        await rated_win(winner, quitter, THREE_EACH[:2])                    # resigned at once (unrated)
        assert await rated_create(quitter) is None                          # two quits: still allowed
        state = await rated_win(winner, quitter, THREE_EACH[:1], ender="abort")   # aborted before moving
        assert state["status"] == "aborted"
        refused = await rated_create(quitter)
        assert refused.startswith("rated: you resigned early, abandoned or aborted your last 3 or more rated "
                                  "games in a row: rated games are open to you again in 10 minutes")
        await quitter.connect("/ws/lobby")
        await quitter.wait_for("lobby")
        await quitter.send({"type": "seek", "variant": "normal", "tc": "300+3", "rated": True})
        assert "rated games are open to you again" in (await quitter.wait_for("error"))["message"]
        await quitter.send({"type": "create", "kind": "two", "variant": "normal", "tc": "300+3",
                            "seats": [{"kind": "me"}, {"kind": "open"}]})
        assert (await quitter.wait_for("created"))["gameId"]               # casual games still
        assert await rated_create(winner) is None                           # the opponent is not held
        await close_all(winner, quitter)
    run(scenario())
