"""The start positions of scripts/endgames.py are ones a game can reach and a forced mate exists from."""
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import endgames  # noqa: E402

from xboard_engine.core.board import OFF  # noqa: E402


def positions(name: str, count: int = 60):
    variant, units = endgames.MATERIALS[name]
    rng = random.Random(f"test-{name}")
    return [endgames.random_position(variant, units, rng) for _ in range(count)]


def square_colours(fen: str) -> dict:
    """Each unit letter of ``fen``'s placement -> the colour (0 or 1) of its square."""
    colours = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in text.replace("10", "9" + "1"):
            if ch.isdigit():
                file += int(ch)
            else:
                colours[ch] = (row + file) % 2
                file += 1
    return colours


def test_bishop_and_sentry_stand_on_opposite_colours_as_in_every_setup_r10_1():
    for pos in positions("KBS"):
        colours = square_colours(pos.fen())
        assert colours["B"] != colours["S"], pos.fen()


@pytest.mark.parametrize("name", ["KL", "KL-8piece"])
def test_no_lancer_faces_off_the_board_r3_2(name):
    for pos in positions(name):
        v = pos.variant
        assert not any(v.facing_step[pos.board[sq]] and pos.board[sq + v.facing_step[pos.board[sq]]] == OFF
                       for sq in pos.units[0]), pos.fen()


@pytest.mark.parametrize("name", sorted(endgames.MATERIALS))
def test_the_lone_king_cannot_take_at_once_and_the_side_not_to_move_is_not_in_check(name):
    for pos in positions(name, 20):
        assert len(pos.units[1]) == 1 and pos.outcome() is None
        if pos.stm == 1:
            assert not any(pos.is_capture(m) for m in pos.legal_moves())
        pos.push_null()
        assert not pos.is_check(), pos.fen()
        pos.pop()
