"""The live server's state text, built once per action and spliced with the clocks: the same
object as the table's whole view, after every kind of action, with and without clocks."""
import json
import random
import time

import pytest

from xboard_engine.web.games.tables import Refused, check_eight_player_config, check_two_player_config, make_table

CLOCK_KEYS = {"clocks", "seats", "running"}


class StillTime:
    """time.monotonic that moves only when the test moves it, so that the spliced state and the
    whole view, read one after the other, see the same running clock (on a busy machine the real
    one moved 0.19 s between the two reads)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def still_time(monkeypatch):
    clock = StillTime()
    monkeypatch.setattr(time, "monotonic", clock)
    return clock


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
def test_the_spliced_state_is_the_whole_view(kind, config, still_time):
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
        still_time.now += 0.7                               # the mover's clock ran
        table.act(table.seat_to_move(), "move", rng.choice(target["options"])["text"])
        extra["watchers"] = ply
        state = same(table, extra)
    assert table.clocks() != extra["clockValues"] or not table.clocks()   # the clocks did run
    resigning = table.seat_to_move()
    table.act(resigning, "resign")
    state = same(table, extra)
    if kind == "two":
        assert state["result"]
    else:
        assert state["seats"][resigning]["status"] != "active"


@pytest.mark.parametrize("kind,config", [
    ("two", {"variant": "normal", "tc": "300+3"}),
    ("eight", {"mode": "singles", "tc": "none"}),
])
def test_states_after_the_first_send_only_the_end_of_the_history_and_make_the_whole_view_again(kind, config):
    """After a page's first (whole) state, each state carries of the lists that only grow (FENs and
    SANs and last moves' squares; 8 Player moves and log) only what changed at their end, takebacks included: made whole
    from the page's last state (wire.whole_state, as live.js does), it is the table's whole view,
    and it is small."""
    from xboard_engine.web.rooms.wire import whole_state
    rng = random.Random(11)
    config = check_two_player_config(config) if kind == "two" else check_eight_player_config(config)
    table = make_table(kind, config, ["human"] * (2 if kind == "two" else 8), 1)
    extra = {"gameId": 1, "status": "playing", "online": [], "watchers": 3, "clockValues": table.clocks()}
    page = json.loads(table.view_text(extra))                 # the first state: whole
    assert "history" not in page
    table.mark_history()
    sizes = []
    for ply in range(40):
        if table.over:
            break
        if kind == "two" and ply in (12, 25):                  # two plies back, then one, before a broadcast
            table.act(table.seat_to_move(), "takeback", "2")
            table.act(table.seat_to_move(), "takeback", "1")
        target = rng.choice(table.view()["targets"])
        table.act(table.seat_to_move(), "move", rng.choice(target["options"])["text"])
        text = table.view_text(extra, table.unchanged_history())
        table.mark_history()
        sent = json.loads(text)
        assert set(sent["history"]) == set(table.history_keys) and not set(table.history_keys) & set(sent)
        sizes.append(len(text))
        page = whole_state(sent, page)
        expected = whole(table, extra)
        for key in table.history_keys:
            assert page[key] == expected[key], (ply, key)
        assert {k: v for k, v in page.items() if k not in CLOCK_KEYS} == \
            {k: v for k, v in expected.items() if k not in CLOCK_KEYS}
    view = table.view()
    history_bytes = sum(len(json.dumps(view[k])) for k in table.history_keys)
    assert sizes[-1] < len(table.view_text(extra)) - history_bytes + 400     # only the history's end is sent
    # a page that lacks what it should have kept cannot be made whole (it opens the game again)
    sent = json.loads(table.view_text(extra, {k: n + 1 for k, n in table.history_lengths().items()}))
    assert whole_state(sent, page) is None
