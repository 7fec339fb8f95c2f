"""The live server's state text, built once per action and spliced with the clocks: the same
object as the table's whole view, after every kind of action, with and without clocks."""
import json
import random

import pytest

from xboard_engine.web.tables import Refused, check_eight_player_config, check_two_player_config, make_table

CLOCK_KEYS = {"clocks", "seats", "running"}


def whole(table, extra):
    view = table.view()
    view.update(extra)
    return view


def same(table, extra):
    spliced = json.loads(table.view_text(extra))
    expected = whole(table, extra)
    assert set(spliced) == set(expected)
    for key in expected:
        if key == "clocks":
            assert spliced[key] == pytest.approx(expected[key], abs=0.05)
        elif key == "seats":
            for a, b in zip(spliced[key], expected[key]):
                assert a.pop("clock") == pytest.approx(b.pop("clock"), abs=0.05)
                assert a == b
        else:
            assert spliced[key] == expected[key], key
    return spliced


@pytest.mark.parametrize("kind,config", [
    ("two", {"variant": "normal", "tc": "none"}),
    ("two", {"variant": "8piece", "tc": "300+3"}),
    ("eight", {"mode": "singles", "tc": "none"}),
    ("eight", {"mode": "pairs", "tc": "10+5"}),
])
def test_the_spliced_state_is_the_whole_view(kind, config):
    rng = random.Random(7)
    config = check_two_player_config(config) if kind == "two" else check_eight_player_config(config)
    table = make_table(kind, config, ["human"] * (2 if kind == "two" else 8), 1)
    extra = {"gameId": 1, "status": "playing", "online": [], "watchers": 3, "clockValues": table.clocks()}
    state = same(table, extra)
    for ply in range(30):
        if table.over:
            break
        if kind == "two" and ply == 5:
            table.act(table.seat_to_move(), "offer")            # no move, yet the view changes
            state = same(table, extra)
            assert state["drawOffer"]
        with pytest.raises(Refused):
            table.act(1 - table.seat_to_move() if kind == "two" else (table.seat_to_move() + 1) % 8, "move", "e2e4")
        same(table, extra)
        target = rng.choice(state["targets"])
        table.act(table.seat_to_move(), "move", rng.choice(target["options"])["text"])
        extra["watchers"] = ply
        state = same(table, extra)
    resigning = table.seat_to_move()
    table.act(resigning, "resign")
    state = same(table, extra)
    if kind == "two":
        assert state["result"]
    else:
        assert state["seats"][resigning]["status"] != "active"
