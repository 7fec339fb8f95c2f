"""The two-player game as the pages see it (no server): every legal move can be entered by clicks,
and the clocks a game may have.  The server: test_web_server.py and its neighbours; the pages in
Chromium: test_web_browser.py."""
import random

import pytest

from xboard_engine import Position
from xboard_engine.core.moves import PASS
from xboard_engine.core.variant import variant_names
from xboard_engine.time_control import parse_time_control
from xboard_engine.web.games.two_player import move_targets


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
    # as docs/WEB.md says of the browser board: the jumped unit's own square is no target
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
    for bad in ("fast", "depth=0", "st=-1", "inf", "1+0", "0+0", "99999999999+99999999", "300+181", "depth=31",
                "st=61", "201/300"):
        with pytest.raises(ValueError):
            parse_time_control(bad)
    assert parse_time_control("15+1").base == 15 and parse_time_control("10800+180").inc == 180
