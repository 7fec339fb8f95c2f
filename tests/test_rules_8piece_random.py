"""Rule tests for `8piece-random` (Randomized 8-Piece Chess).

Rulings: docs/RULES.md R3.5, R5.2, R10.1; rule texts: the "Randomized 8-Piece Chess" sections of
the current and the 2019 8-Piece Chess pages (test_seed_*; where they are published: docs/RULES.md).
"""
import functools
import random
from itertools import permutations

import pytest

from xboard_engine import Position

VARIANT = "8piece-random"
PIECES = "KQRJBSNC"            # white back rank: king queen rook jailer bishop sentry knight lancer(N)


def P(fen):
    return Position.from_fen(fen, VARIANT)


def texts_from(pos, square):
    return {t for t in pos.legal_texts() if t.startswith(square)}


def king_and_castles(pos, square):
    return {t for t in pos.legal_texts() if t.startswith(square) or t.startswith("O-O")}


def satisfies_constraints(rank1):
    """R10.1 for a white back rank written a..h."""
    if sorted(rank1) != sorted(PIECES):
        return False
    k, r, j = rank1.index("K"), rank1.index("R"), rank1.index("J")
    b, s = rank1.index("B"), rank1.index("S")
    return min(r, j) < k < max(r, j) and b % 2 != s % 2 and 2 <= s <= 5


@functools.lru_cache(maxsize=None)
def all_valid_rank1():
    return frozenset("".join(p) for p in permutations(PIECES) if satisfies_constraints("".join(p)))


def mirror(rank1):
    return rank1.lower().replace("c", "g")          # black lancer faces S


def split_setup(fen):
    """Board of a start FEN -> (rank 8, rank 1); asserts pawns and empty middle ranks."""
    fields = fen.split()
    ranks = fields[0].split("/")
    assert ranks[1] == "pppppppp" and ranks[6] == "PPPPPPPP", fen
    assert ranks[2:6] == ["8", "8", "8", "8"], fen
    assert fields[1] == "w", fen
    return ranks[0], ranks[7]


@functools.lru_cache(maxsize=None)
def numbered_setups():
    return tuple(split_setup(Position(VARIANT, number=n).fen()) for n in range(3840))


# ---------------------------------------------------------------- R10.1 setups

def test_R10_1_there_are_3840_setups():
    assert len(all_valid_rank1()) == 3840


def test_R10_1_numbers_0_to_3839_give_distinct_valid_setups():
    setups = numbered_setups()
    white = [w for _, w in setups]
    assert len(set(white)) == 3840
    assert set(white) == all_valid_rank1()


def test_R10_1_black_mirrors_white():
    for black, white in numbered_setups():
        assert black == mirror(white), (black, white)


def test_R10_1_numbering_is_stable():
    for n in (0, 1, 959, 2024, 3839):
        assert Position(VARIANT, number=n).fen() == Position(VARIANT, number=n).fen()


def test_R10_1_number_out_of_range_is_rejected():
    with pytest.raises(ValueError):
        Position(VARIANT, number=3840)


def test_R10_1_random_choice():
    fens = set()
    for seed in range(40):
        fen = Position(VARIANT, rng=random.Random(seed)).fen()
        black, white = split_setup(fen)
        assert white in all_valid_rank1() and black == mirror(white), fen
        assert Position(VARIANT, rng=random.Random(seed)).fen() == fen     # reproducible
        fens.add(fen)
    assert len(fens) > 20


def test_R3_5_random_lancers_face_north_and_south():
    for black, white in numbered_setups():
        assert "C" in white and "g" in black
        assert not any(x in white for x in "DEFGHMO") and not any(x in black for x in "cdefhmo")


# ---------------------------------------------------------------- R5.2 castling (Chess960 rules)

def test_R5_2_castling_rook_h_side_jailer_a_side():
    fen = "4k3/8/8/8/8/8/8/1J3KR1 w KQ - 0 1"          # K f1, rook g1, jailer b1
    pos = P(fen)
    assert king_and_castles(pos, "f1") == {"f1e1", "f1e2", "f1f2", "f1g2", "f1g1", "f1b1"}  # castles: king takes partner
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/1J3RK1 b - - 1 1"
    pos = P(fen)
    pos.push_text("O-O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KJ2R1 b - - 1 1"


def test_R5_2_castling_jailer_h_side_rook_a_side():
    fen = "4k3/8/8/8/8/8/8/R2K3J w KQ - 0 1"          # K d1, rook a1, jailer h1
    pos = P(fen)
    assert king_and_castles(pos, "d1") == {"d1c1", "d1c2", "d1d2", "d1e2", "d1e1", "d1h1", "d1a1"}
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/R4JK1 b - - 1 1"
    pos = P(fen)
    pos.push_text("O-O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KR3J b - - 1 1"


def test_R5_2_partner_may_cross_the_kings_square():
    fen = "4k3/8/8/8/8/8/8/JK5R w KQ - 0 1"           # K b1, jailer a1, rook h1
    pos = P(fen)
    assert king_and_castles(pos, "b1") == {"b1a2", "b1b2", "b1c2", "b1c1", "b1a1", "b1h1"}
    pos.push_text("O-O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KJ3R b - - 1 1"
    pos = P(fen)
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/J4RK1 b - - 1 1"


def test_R5_2_squares_crossed_must_be_empty():
    pos = P("4k3/8/8/8/8/8/8/JK1N3R w KQ - 0 1")      # knight d1: jailer's target, king's path
    assert king_and_castles(pos, "b1") == {"b1a2", "b1b2", "b1c2", "b1c1"}


def test_R5_2_only_the_kings_path_must_be_unattacked():
    pos = P("1r2k3/8/8/8/8/8/8/R2K3J w KQ - 0 1")     # b1 (rook's path) attacked: allowed
    assert king_and_castles(pos, "d1") == {"d1c1", "d1c2", "d1d2", "d1e2", "d1e1", "d1h1", "d1a1"}
    pos = P("2r1k3/8/8/8/8/8/8/R2K3J w KQ - 0 1")     # c1 (king's destination) attacked
    assert king_and_castles(pos, "d1") == {"d1d2", "d1e2", "d1e1", "d1h1"}


def test_R5_2_no_castling_out_of_check():
    pos = P("3rk3/8/8/8/8/8/8/R2K3J w KQ - 0 1")
    assert pos.is_check()
    assert king_and_castles(pos, "d1") == {"d1c2", "d1e2", "d1c1", "d1e1"}


# ---------------------------------------------------------------- seed sentences

def test_seed_sentry_on_files_c_to_f():
    """The one important additional setup rule: the sentry must begin on one of these files: c, d,
    e, or f"""
    assert {w.index("S") for _, w in numbered_setups()} == {2, 3, 4, 5}


def test_seed_king_between_rook_and_jailer():
    """the king starts anywhere in-between the rook and the jailer."""
    for _, w in numbered_setups():
        assert min(w.index("R"), w.index("J")) < w.index("K") < max(w.index("R"), w.index("J"))
    assert {w.index("K") for _, w in numbered_setups()} == {1, 2, 3, 4, 5, 6}


def test_seed_bishop_and_sentry_on_opposite_shades():
    """The bishop and sentry must be on opposite shade of squares."""
    for _, w in numbered_setups():
        assert w.index("B") % 2 != w.index("S") % 2


def test_seed_black_mirror_image():
    """Once the configuration is determined, the other player has a mirror image of it."""
    pos = Position(VARIANT, number=1234)
    black, white = split_setup(pos.fen())
    assert black == mirror(white)


def test_seed_castle_toward_g_file():
    """When castling the King toward the g file, the king will always end up on g1 with the rook or
    jailer (whichever was closer to the h file) ending up on f1."""
    pos = P("4k3/8/8/8/8/8/8/R2K3J w KQ - 0 1")
    pos.push_text("O-O")
    assert (pos.piece_at("g1"), pos.piece_at("f1"), pos.piece_at("h1")) == ("K", "J", None)


def test_seed_castle_toward_c_file():
    """When castling the king toward the c file, the king ends up on c1 with the rook or jailer
    (whichever was closer to the a file) ending up on d1."""
    pos = P("4k3/8/8/8/8/8/8/1J3KR1 w KQ - 0 1")
    pos.push_text("O-O-O")
    assert (pos.piece_at("c1"), pos.piece_at("d1"), pos.piece_at("b1")) == ("K", "J", None)


def test_seed_no_castling_in_check_or_through_attack():
    """The king cannot be in check when you castle, nor can any square that the king moves through be
    attacked by an enemy piece."""
    # castles are written king-takes-partner: d1a1 = O-O-O, d1h1 = O-O
    assert "d1a1" not in P("3rk3/8/8/8/8/8/8/R2K3J w KQ - 0 1").legal_texts()
    assert "d1h1" not in P("3rk3/8/8/8/8/8/8/R2K3J w KQ - 0 1").legal_texts()
    assert "d1h1" not in P("4kr2/8/8/8/8/8/8/R2K3J w KQ - 0 1").legal_texts()      # f1 attacked
    assert "d1a1" in P("4kr2/8/8/8/8/8/8/R2K3J w KQ - 0 1").legal_texts()


def test_seed_random_lancer_faces_straight_forward():
    """Therefore, when setting up Randomized 8-Piece Chess, the lancer should always begin the game
    facing straight forward"""
    pos = Position(VARIANT, number=77)
    black, white = split_setup(pos.fen())
    f = white.index("C")
    assert pos.piece_at("abcdefgh"[f] + "1") == "C" and pos.piece_at("abcdefgh"[f] + "8") == "g"


def test_seed_several_thousand_starting_positions():
    """Even with this restriction on the lancer's starting direction, 8-Piece Random Chess still has
    several thousand possible starting positions."""
    assert len({w for _, w in numbered_setups()}) == 3840


def test_R5_6_castling_jailer_holding_an_attacker_keeps_it_held():
    # The knight on h2 attacks f1 on the king's path, but the partner jailer on h1 holds it.
    pos = P("r3k2j/8/8/8/8/8/7n/R3K2J w KQ - 0 1")
    assert "e1h1" in pos.legal_texts()
    pos.push_text("e1h1")
    assert pos.fen().split()[0] == "r3k2j/8/8/8/8/8/7n/R4JK1"
