"""Start positions: fixed arrays, Chess960 numbering, the variants' own definitions."""
import random
import subprocess
import sys
from pathlib import Path

import pytest

from needs import needs

from xboard_engine import InvalidFenError, Position, UnknownVariantError, get_variant, variant_names

ROOT = Path(__file__).resolve().parent.parent


def test_variant_names_are_the_rulings_list():
    assert variant_names() == ["normal", "fischerandom", "chess80", "fullcavalry", "8piece",
                               "8piece-random", "8piece-2019"]


@pytest.mark.parametrize("variant,fen", [
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess80", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1"),
    ("fullcavalry", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"),
    ("8piece", "jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w KQkq - 0 1"),
    ("8piece-2019", "jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w KQkq - 0 1"),
])
def test_R3_6_fixed_start_positions(variant, fen):
    assert Position(variant).fen() == fen


def test_chess960_scharnagl_numbering():
    assert Position("fischerandom", number=518).fen().split()[0] == \
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    assert Position("fischerandom", number=0).fen().split()[0].endswith("BBQNNRKR")
    rows = {Position("fischerandom", number=n).fen().split()[0] for n in range(960)}
    assert len(rows) == 960


def test_random_setup_uses_the_generator():
    a = Position("fischerandom", rng=random.Random(1)).fen()
    b = Position("fischerandom", rng=random.Random(1)).fen()
    assert a == b


@pytest.mark.parametrize("number", [-1, 960, "3"])
def test_bad_setup_number(number):
    with pytest.raises(InvalidFenError, match="setup number"):
        Position("fischerandom", number=number)


def test_fixed_variant_has_no_numbered_setups():
    with pytest.raises(InvalidFenError, match="no numbered setups"):
        Position("chess80", number=3)


def test_unknown_variant():
    with pytest.raises(UnknownVariantError, match="'crazyhouse'"):
        Position("crazyhouse")


def test_variant_data_drives_the_board():
    chess80 = get_variant("chess80")
    assert (chess80.files, chess80.ranks) == (10, 8)
    assert chess80.promotion_letters == "BDNQR"
    assert get_variant("fullcavalry").promotion_letters == "BLNQ"
    assert get_variant("8piece").promotion_letters == "BJLNQRS"


@needs("pypy3")
@pytest.mark.parametrize("variant", variant_names())
def test_runs_under_pypy(variant):
    """The users' fast path: the same perft under PyPy 3.9 as under CPython."""
    args = [str(ROOT / "scripts" / "perft.py"), "--variant", variant, "--depth", "2", "--number", "7"]
    if variant not in ("fischerandom", "8piece-random"):
        args = args[:-2]
    expected = subprocess.run([sys.executable] + args, capture_output=True, text=True, check=True).stdout
    got = subprocess.run(["pypy3"] + args, capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert got.stdout == expected
