"""The search's capture order (MVV-LVA): the most valuable victim first, then the cheapest taker, and a
capture's order key gives back exactly what the capture wins, which quiescence prunes by."""
import itertools

import pytest

from xboard_engine import Position
from xboard_engine.search.alphabeta import INFINITY, TAKER_BITS, TAKER_LIMIT, capture_key
from xboard_engine.core.board import BLACK
from xboard_engine.search.searcher import Searcher
from xboard_engine.core.variant import get_variant, variant_names


def _kind_values(variant: str):
    """Each kind of unit of the variant with its value in centipawns (a white unit's)."""
    v = get_variant(variant)
    return {v.kind_of[code].name: v.value[code] for code in range(1, BLACK) if v.kind_of[code] is not None}


def _victims(variant: str):
    """What a capture can win: each kind but the king, and each with a pawn's promotion gain added."""
    v = get_variant(variant)
    values = _kind_values(variant)
    pawn = values["pawn"]
    taken = {name: value for name, value in values.items() if name != "king"}
    promotions = {v.kind_of[code].name for code in v.promotion_codes[0]}
    gains = dict(taken)
    for (name, value), promoted in itertools.product(taken.items(), promotions):
        gains[f"{name} taken promoting to {promoted}"] = value + values[promoted] - pawn
    return gains


@pytest.mark.parametrize("variant", variant_names())
def test_every_unit_is_worth_less_than_the_takers_field_of_the_key(variant):
    assert max(_kind_values(variant).values()) < TAKER_LIMIT


@pytest.mark.parametrize("variant", variant_names())
def test_capture_keys_give_back_the_victim_and_order_victim_then_cheapest_taker(variant):
    takers = _kind_values(variant)
    keys = {(victim, taker): (gain, value, capture_key(gain, value))
            for victim, gain in _victims(variant).items() for taker, value in takers.items()}
    assert len(keys) >= 30
    for (victim, taker), (gain, value, key) in keys.items():
        assert key >> TAKER_BITS == gain, f"{taker} takes {victim}"
    for (a, (gain_a, taker_a, key_a)), (b, (gain_b, taker_b, key_b)) in itertools.product(keys.items(), repeat=2):
        if (gain_a, -taker_a) > (gain_b, -taker_b):
            assert key_a > key_b, f"{a} should come before {b}"
        elif (gain_a, taker_a) == (gain_b, taker_b):
            assert key_a == key_b


# Chess80: a white unit can take a black knight on d4 that a pawn on e5 defends.
TAKE_DEFENDED_KNIGHT = "4k5/10/10/4p5/3n6/10/1{taker}8/4K5 w - - 0 1"


@pytest.mark.parametrize("taker,searched", [("B", True), ("Q", False)])
def test_quiescence_skips_only_a_taker_worth_more_than_the_victim_plus_the_margin(taker, searched):
    """The bishop (400) is worth exactly BAD_CAPTURE (100) more than the knight (300): not more, so
    quiescence tries Bxd4; the queen (1000) taking the defended knight is skipped."""
    pos = Position.from_fen(TAKE_DEFENDED_KNIGHT.format(taker=taker), "chess80")
    assert [pos.san(m) for m in pos.legal_captures()] == [f"{taker}xd4"]
    search = Searcher(off=["delta"])
    search._quiesce(pos, -INFINITY, INFINITY, 0, 0)
    assert (search.nodes > 1) == searched
