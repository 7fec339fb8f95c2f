"""Common rules (docs/RULES.md R2.x, R5.2, R7.1, R11.1 orthodox parts, P4, P7) for
normal, fischerandom, chess80 and fullcavalry."""

import pytest

from needs import need_module

from xboard_engine import Position

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
C80_START = "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1"
FC_START = "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"
ORTHO = ["normal", "fischerandom"]
ALL = ["normal", "fischerandom", "chess80", "fullcavalry"]


def from_sq(pos, *squares):
    """Legal move texts whose origin is one of the squares."""
    return {t for t in pos.legal_texts() if t[:2] in squares}


def play(pos, *texts):
    for t in texts:
        pos.push_text(t)
    return pos


def outcome_tuple(pos):
    o = pos.outcome()
    return None if o is None else (o.result, o.winner, o.termination)


# ---------------------------------------------------------------- R2.1 check, mate, stalemate

@pytest.mark.parametrize("variant", ORTHO)
def test_R2_1_check_evasions_exact(variant):
    # Rook h1 checks along rank 1; d1 stays attacked through the king (x-ray), f1 is attacked,
    # the a1 rook cannot interpose, castling out of check is illegal.
    pos = Position.from_fen("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", variant)
    assert pos.is_check()
    assert pos.legal_texts() == {"e1d2", "e1e2", "e1f2"}


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_1_pinned_piece_cannot_move(variant):
    pos = Position.from_fen("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", variant)
    assert not pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1f1", "e1f2"}


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_1_checkmate(variant):
    pos = play(Position.from_fen(START, variant), "f2f3", "e7e5", "g2g4")
    assert pos.outcome() is None
    pos.push_text("d8h4")
    assert pos.is_check()
    assert pos.legal_texts() == set()
    assert outcome_tuple(pos) == ("0-1", "b", "checkmate")


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_1_stalemate(variant):
    pos = Position.from_fen("7k/8/4Q1K1/8/8/8/8/8 w - - 0 1", variant)
    assert pos.outcome() is None
    pos.push_text("e6f7")
    assert not pos.is_check()
    assert pos.legal_texts() == set()
    assert outcome_tuple(pos) == ("1/2-1/2", None, "stalemate")


def test_R2_1_stalemate_fullcavalry_lancer():
    # Black king a8: b7/b8 covered by the c7 king, a7 by the g1 lancer facing NW (f2 e3 d4 c5 b6 a7);
    # a8 itself is not attacked.
    pos = Position.from_fen("k7/2K5/8/8/8/8/8/6O1 b - - 0 1", "fullcavalry")
    assert not pos.is_check()
    assert pos.legal_texts() == set()
    assert outcome_tuple(pos) == ("1/2-1/2", None, "stalemate")


# ---------------------------------------------------------------- R2.2 automatic draws

SHUFFLE = {
    "normal": (START, ["g1f3", "g8f6", "f3g1", "f6g8"]),
    "fischerandom": (START, ["g1f3", "g8f6", "f3g1", "f6g8"]),
    "chess80": (C80_START, ["b1c3", "b8c6", "c3b1", "c6b8"]),
    "fullcavalry": (FC_START, ["g1f3", "g8f6", "f3g1", "f6g8"]),
}


@pytest.mark.parametrize("variant", ALL)
def test_R2_2_threefold_repetition(variant):
    fen, cycle = SHUFFLE[variant]
    pos = Position.from_fen(fen, variant)
    moves = cycle * 2
    for i, text in enumerate(moves, start=1):
        pos.push_text(text)
        if i < 8:
            assert pos.outcome() is None, (i, text)
    # start position: ply 0, 4, 8 -> third occurrence
    assert outcome_tuple(pos) == ("1/2-1/2", None, "threefold_repetition")


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_2_repetition_includes_castling_rights(variant):
    # Ply 0 has castling rights, plies 4/8/12 the same board without: no repetition at ply 8.
    # The first threefold is the ply-2 position (Kf1, Kf8, no rights) at plies 2, 6, 10.
    pos = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", variant)
    moves = ["e1f1", "e8f8", "f1e1", "f8e8"] * 3
    for i, text in enumerate(moves[:10], start=1):
        pos.push_text(text)
        if i < 10:
            assert pos.outcome() is None, i
    assert outcome_tuple(pos) == ("1/2-1/2", None, "threefold_repetition")


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_2_repetition_includes_en_passant_square(variant):
    # After e2e4 Black may take en passant (ep e3); the later returns to that board have no ep square.
    # If the ep square were ignored, ply 9 would be a threefold; correctly the first is ply 10.
    pos = Position.from_fen("4k1n1/8/8/8/5p2/8/4P3/4K1N1 w - - 0 1", variant)
    pos.push_text("e2e4")
    assert pos.fen() == "4k1n1/8/8/8/4Pp2/8/8/4K1N1 b - e3 0 1"
    moves = ["g8f6", "g1f3", "f6g8", "f3g1"] * 2 + ["g8f6"]
    for i, text in enumerate(moves, start=2):
        pos.push_text(text)
        if i < 10:
            assert pos.outcome() is None, i
    assert outcome_tuple(pos) == ("1/2-1/2", None, "threefold_repetition")


FIFTY = {
    "normal": ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "a1a2", "4k3/8/8/8/8/8/R7/4K3 b - - 100 80"),
    "fischerandom": ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "a1a2", "4k3/8/8/8/8/8/R7/4K3 b - - 100 80"),
    "chess80": ("4k5/10/10/10/10/10/10/R3K5 w - - 99 80", "a1a2",
                "4k5/10/10/10/10/10/R9/4K5 b - - 100 80"),
    "fullcavalry": ("4k3/8/8/8/8/8/8/C3K3 w - - 99 80", "a1a2", "4k3/8/8/8/8/8/C7/4K3 b - - 100 80"),
}


@pytest.mark.parametrize("variant", ALL)
def test_R2_2_fifty_moves_after_100_plies(variant):
    fen, move, after = FIFTY[variant]
    pos = Position.from_fen(fen, variant)
    assert pos.outcome() is None
    pos.push_text(move)
    assert pos.fen() == after
    assert outcome_tuple(pos) == ("1/2-1/2", None, "fifty_moves")


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_2_fifty_moves_counter_100_in_fen(variant):
    pos = Position.from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 100 80", variant)
    assert outcome_tuple(pos) == ("1/2-1/2", None, "fifty_moves")


BARE = {
    "normal": "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
    "fischerandom": "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
    "chess80": "4k5/10/10/10/10/10/4r5/4K5 w - - 0 1",
    "fullcavalry": "4k3/8/8/8/8/8/4g3/4K3 w - - 0 1",
}


@pytest.mark.parametrize("variant", ALL)
def test_R2_2_bare_kings(variant):
    pos = Position.from_fen(BARE[variant], variant)
    assert pos.outcome() is None
    pos.push_text("e1e2")
    assert outcome_tuple(pos) == ("1/2-1/2", None, "insufficient_material")


@pytest.mark.parametrize("variant", ORTHO)
@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",      # K+B vs K
    "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1",      # K+N vs K
    "4k3/8/8/8/8/8/8/4K3 b - - 0 1",        # bare kings
    "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",     # K+B vs K+B, both bishops on dark squares
])
def test_R2_2_dead_draws_orthodox(variant, fen):
    pos = Position.from_fen(fen, variant)
    assert outcome_tuple(pos) == ("1/2-1/2", None, "insufficient_material")


@pytest.mark.parametrize("variant", ORTHO)
def test_R2_2_opposite_colour_bishops_not_dead(variant):
    # c1 is dark, c8 is light.
    assert Position.from_fen("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", variant).outcome() is None


def test_R2_2_dead_draw_by_capture_orthodox():
    # Kxe2 leaves K+N vs K.
    pos = Position.from_fen("4k3/8/8/8/8/8/4r3/1N2K3 w - - 0 1", "normal")
    pos.push_text("e1e2")
    assert outcome_tuple(pos) == ("1/2-1/2", None, "insufficient_material")


@pytest.mark.parametrize("variant,fen", [
    ("chess80", "4k5/10/10/10/10/10/10/2B1K5 w - - 0 1"),
    ("chess80", "4k5/10/10/10/10/10/10/2N1K5 w - - 0 1"),
    ("chess80", "4kb4/10/10/10/10/10/10/2B1K5 w - - 0 1"),
    ("fullcavalry", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"),
    ("fullcavalry", "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1"),
    ("fullcavalry", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"),
])
def test_R2_2_minor_piece_endings_not_dead_in_fairy_variants(variant, fen):
    assert Position.from_fen(fen, variant).outcome() is None


# ---------------------------------------------------------------- R2.3 the 50-move reset

R23 = [
    # variant, fen, move, fen after
    ("normal", "4k3/8/8/8/8/8/4P3/R3K3 w - - 10 20", "e2e4", "4k3/8/8/8/4P3/8/8/R3K3 b - - 0 20"),
    ("normal", "4k3/8/8/8/8/8/4P3/R3K3 w - - 10 20", "a1a2", "4k3/8/8/8/8/8/R3P3/4K3 b - - 11 20"),
    ("normal", "4k3/8/8/8/r7/8/8/R3K3 w - - 99 80", "a1a4", "4k3/8/8/8/R7/8/8/4K3 b - - 0 80"),
    ("fischerandom", "4k3/8/8/8/r7/8/8/R3K3 w - - 99 80", "a1a4", "4k3/8/8/8/R7/8/8/4K3 b - - 0 80"),
    ("normal", "4k3/8/8/8/8/8/8/R3K3 b - - 10 20", "e8d8", "3k4/8/8/8/8/8/8/R3K3 w - - 11 21"),
    ("chess80", "4k5/10/10/4p5/10/4D5/10/9K w - - 7 30", "e3e5", "4k5/10/10/4D5/10/10/10/9K b - - 0 30"),
    ("chess80", "4k5/10/10/4p5/10/4D5/10/9K w - - 7 30", "e3e4", "4k5/10/10/4p5/4D5/10/10/9K b - - 8 30"),
    ("chess80", "4k5/9p/10/10/10/10/10/4K5 b - - 7 30", "j7j6", "4k5/10/9p/10/10/10/10/4K5 w - - 0 31"),
    ("fullcavalry", "4k3/8/8/4p3/8/8/8/4C2K w - - 7 30", "e1e5", "4k3/8/8/4C3/8/8/8/7K b - - 0 30"),
    ("fullcavalry", "4k3/8/8/4p3/8/8/8/4C2K w - - 7 30", "e1e3", "4k3/8/8/4p3/8/4C3/8/7K b - - 8 30"),
    ("fullcavalry", "4k3/8/8/4p3/8/8/8/4C2K w - - 7 30", "e1e3m", "4k3/8/8/4p3/8/4M3/8/7K b - - 8 30"),
]


@pytest.mark.parametrize("variant,fen,move,after", R23)
def test_R2_3_halfmove_clock(variant, fen, move, after):
    pos = Position.from_fen(fen, variant)
    pos.push_text(move)
    assert pos.fen() == after
    assert pos.outcome() is None


# ---------------------------------------------------------------- R2.4 promotion choices

PROMO = [
    ("normal", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7", {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}),
    ("fischerandom", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7", {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}),
    ("normal", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7",
     {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"}),
    ("normal", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2", {"a2a1q", "a2a1r", "a2a1b", "a2a1n"}),
    ("chess80", "4k5/P9/10/10/10/10/10/4K5 w - - 0 1", "a7",
     {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7a8d"}),
    ("chess80", "4k5/10/10/10/10/10/9p/4K5 b - - 0 1", "j2",
     {"j2j1q", "j2j1r", "j2j1b", "j2j1n", "j2j1d"}),
    # fullcavalry: no rook; a lancer in every facing that points onto the board (a8: E SE S)
    ("fullcavalry", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7",
     {"a7a8q", "a7a8b", "a7a8n", "a7a8e", "a7a8f", "a7a8g"}),
    # black on a1: N NE E
    ("fullcavalry", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2",
     {"a2a1q", "a2a1b", "a2a1n", "a2a1c", "a2a1d", "a2a1e"}),
]


@pytest.mark.parametrize("variant,fen,origin,expected", PROMO)
def test_R2_4_promotion_sets(variant, fen, origin, expected):
    assert from_sq(Position.from_fen(fen, variant), origin) == expected


@pytest.mark.parametrize("variant,fen,move,after", [
    ("normal", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", "N3k3/8/8/8/8/8/8/4K3 b - - 0 1"),
    ("chess80", "4k5/P9/10/10/10/10/10/4K5 w - - 0 1", "a7a8d", "D3k5/10/10/10/10/10/10/4K5 b - - 0 1"),
    ("fullcavalry", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8g", "G3k3/8/8/8/8/8/8/4K3 b - - 0 1"),
    ("fullcavalry", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1e", "4k3/8/8/8/8/8/8/e3K3 w - - 0 2"),
])
def test_R2_4_promotion_result(variant, fen, move, after):
    pos = Position.from_fen(fen, variant)
    pos.push_text(move)
    assert pos.fen() == after


def test_R2_4_promotion_result_black_lancer_gives_check():
    # a1 lancer facing E: b1 c1 d1 empty, e1 is the first enemy unit -> check (R3.4)
    pos = Position.from_fen("4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "fullcavalry")
    pos.push_text("a2a1e")
    assert pos.is_check()


# ---------------------------------------------------------------- R7.1 pawns

PAWN_BOARD = {
    # a2 free (single + double), c2 double blocked on c4, e2 blocked on e3, g3 not on its start rank
    "normal": "4k3/8/8/8/2n5/4N1P1/P1P1P3/4K3 w - - 0 1",
    "fischerandom": "4k3/8/8/8/2n5/4N1P1/P1P1P3/4K3 w - - 0 1",
    "fullcavalry": "4k3/8/8/8/2n5/4N1P1/P1P1P3/4K3 w - - 0 1",
    "chess80": "4k5/10/10/10/2n7/4N1P3/P1P1P4P/4K5 w - - 0 1",
}


@pytest.mark.parametrize("variant", ALL)
def test_R7_1_pawn_steps(variant):
    pos = Position.from_fen(PAWN_BOARD[variant], variant)
    expected = {"a2a3", "a2a4", "c2c3", "g3g4"}
    squares = ("a2", "c2", "e2", "g3")
    if variant == "chess80":
        expected |= {"j2j3", "j2j4"}
        squares += ("j2",)
    assert from_sq(pos, *squares) == expected


EP = {
    "normal": ("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
               "e5", {"e5e6", "e5d6"}, "e5d6", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"),
    "fischerandom": ("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
                     "e5", {"e5e6", "e5d6"}, "e5d6", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"),
    "chess80": ("4k5/9p/10/8P1/10/10/10/4K5 b - - 0 1", "j7j5", "4k5/10/10/8Pp/10/10/10/4K5 w - j6 0 2",
                "i5", {"i5i6", "i5j6"}, "i5j6", "4k5/10/9P/10/10/10/10/4K5 b - - 0 2"),
    "fullcavalry": ("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", "d2d4", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
                    "e4", {"e4e3", "e4d3"}, "e4d3", "4k3/8/8/8/8/3p4/8/4K3 w - - 0 2"),
}


@pytest.mark.parametrize("variant", ALL)
def test_R7_1_en_passant(variant):
    fen, double, fen_after_double, capturer, options, ep, fen_after_ep = EP[variant]
    pos = Position.from_fen(fen, variant)
    pos.push_text(double)
    assert pos.fen() == fen_after_double
    assert from_sq(pos, capturer) == options
    pos.push_text(ep)
    assert pos.fen() == fen_after_ep


@pytest.mark.parametrize("variant", ORTHO)
def test_R7_1_en_passant_only_immediately(variant):
    pos = Position.from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", variant)
    assert "e5d6" in pos.legal_texts()
    play(pos, "e1f1", "e8f8")
    assert from_sq(pos, "e5") == {"e5e6"}


@pytest.mark.parametrize("variant", ORTHO)
def test_R7_1_en_passant_exposing_king_is_illegal(variant):
    # exd6 e.p. would empty d5 and e5 and open the h5 rook's rank onto the a5 king
    pos = Position.from_fen("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1", variant)
    assert from_sq(pos, "e5") == {"e5e6"}


def test_P4_ep_square_recorded_only_when_capturable():
    pos = Position("normal")
    pos.push_text("e2e4")
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


# ---------------------------------------------------------------- R5.2 fischerandom castling

def c960(fen):
    return Position.from_fen(fen, "fischerandom")


def test_R5_2_king_and_rook_swap_squares():
    pos = c960("4k3/8/8/8/8/8/8/5KR1 w K - 0 1")
    assert "O-O" in pos.legal_texts()
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


def test_R5_2_king_and_rook_crossing_long_way():
    # King b1 to g1 crosses the c1 rook, which goes to f1. O-O-O is blocked: c1 (king's target)
    # holds the other rook.
    pos = c960("4k3/8/8/8/8/8/8/RKR5 w KQ - 0 1")
    texts = pos.legal_texts()
    assert "O-O" in texts
    assert "O-O-O" not in texts
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"


def test_R5_2_queenside_rook_crosses_king():
    pos = c960("4k3/8/8/8/8/8/8/1RK5 w Q - 0 1")
    assert "O-O-O" in pos.legal_texts()
    pos.push_text("O-O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"


def test_R5_2_queenside_king_moves_right():
    pos = c960("4k3/8/8/8/8/8/8/RK6 w Q - 0 1")
    pos.push_text("O-O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"


def test_R5_2_king_already_on_g1():
    pos = c960("4k3/8/8/8/8/8/8/6KR w K - 0 1")
    assert pos.legal_texts() == {"g1f1", "g1f2", "g1g2", "g1h2", "O-O",
                                 "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8"}
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


def test_R5_2_rook_already_on_f1():
    pos = c960("4k3/8/8/8/8/8/8/4KR2 w K - 0 1")
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1e2", "e1f2", "O-O",
                                 "f1g1", "f1h1", "f1f2", "f1f3", "f1f4", "f1f5", "f1f6", "f1f7", "f1f8"}
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


@pytest.mark.parametrize("text", ["e1g1", "e1f1", "O-O"])
def test_R5_2_castle_text_forms_rook_on_f1(text):
    # RULES: O-O; accepted also king to partner square (e1f1), king to destination when that is
    # no other move (e1g1).
    pos = c960("4k3/8/8/8/8/8/8/4KR2 w K - 0 1")
    pos.push_text(text)
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


@pytest.mark.parametrize("blocked,open_,castle", [
    ("4k3/8/8/8/8/8/8/5BKR w K - 0 1", "4k3/8/8/8/8/8/8/6KR w K - 0 1", "O-O"),     # rook target f1
    ("4k3/8/8/8/8/8/8/RK1N4 w Q - 0 1", "4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "O-O-O"),  # rook target d1
    ("4k3/8/8/8/8/8/8/1K2N1R1 w K - 0 1", "4k3/8/8/8/8/8/8/1K4R1 w K - 0 1", "O-O"),  # king path e1
    ("4k3/8/8/8/8/8/8/1RN1K3 w Q - 0 1", "4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", "O-O-O"),  # c1 king target
])
def test_R5_2_castling_blocked_by_other_pieces(blocked, open_, castle):
    assert castle in c960(open_).legal_texts()
    assert castle not in c960(blocked).legal_texts()


def test_R5_2_a1_piece_outside_the_path_does_not_block():
    # rook b1, king e1: O-O-O = K c1, R d1; a knight on a1 is outside both paths
    pos = c960("4k3/8/8/8/8/8/8/NR2K3 w Q - 0 1")
    assert "O-O-O" in pos.legal_texts()
    pos.push_text("O-O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/N1KR4 b - - 1 1"


@pytest.mark.parametrize("attacked,safe,castle", [
    # d1 on the king's path b1->g1 attacked by the d8 rook
    ("3rk3/8/8/8/8/8/8/1K4R1 w K - 0 1", "4k2r/8/8/8/8/8/8/1K4R1 w K - 0 1", "O-O"),
    # king e1 -> g1 (rook f1): g1 attacked by the c5 bishop
    ("4k3/8/8/2b5/8/8/8/4KR2 w K - 0 1", "4k3/8/8/3b4/8/8/8/4KR2 w K - 0 1", "O-O"),
    # king f1 -> c1: c1 attacked by the c8 rook
    ("2r1k3/8/8/8/8/8/8/R4K2 w Q - 0 1", "1r2k3/8/8/8/8/8/8/R4K2 w Q - 0 1", "O-O-O"),
    # king in check
    ("4r1k1/8/8/8/8/8/8/4KR2 w K - 0 1", "r5k1/8/8/8/8/8/8/4KR2 w K - 0 1", "O-O"),
])
def test_R5_2_king_path_attacked(attacked, safe, castle):
    assert castle in c960(safe).legal_texts()
    assert castle not in c960(attacked).legal_texts()


def test_R5_2_rook_path_attacked_is_allowed():
    # king f1 -> c1, rook a1 -> d1 crosses b1, which the b8 rook attacks: legal
    pos = c960("1r2k3/8/8/8/8/8/8/R4K2 w Q - 0 1")
    pos.push_text("O-O-O")
    assert pos.fen() == "1r2k3/8/8/8/8/8/8/2KR4 b - - 1 1"


def test_R5_2_orthodox_setup_in_fischerandom():
    pos = c960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    texts = pos.legal_texts()
    assert {"O-O", "O-O-O"} <= texts
    assert from_sq(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f2", "e1f1"}
    pos.push_text("O-O")
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    pos.push_text("O-O-O")
    assert pos.fen() == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"


def test_R5_2_inner_rook_castling_letter():
    # G = the g1 rook although h1 also holds a rook (X-FEN file letter for a non-outermost rook)
    fen = "4k3/8/8/8/8/8/8/4K1RR w G - 0 1"
    pos = c960(fen)
    assert pos.fen() == fen
    assert "O-O" in pos.legal_texts()
    pos.push_text("O-O")
    assert pos.fen() == "4k3/8/8/8/8/8/8/5RKR b - - 1 1"


def test_P7_shredder_letters_written_as_xfen():
    pos = c960("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_R5_2_castling_rights_lost_when_rook_moves():
    pos = c960("4k3/8/8/8/8/8/8/RK4R1 w KQ - 0 1")
    assert "O-O" in pos.legal_texts()
    play(pos, "g1g2", "e8d8", "g2g1", "d8e8")
    assert pos.fen() == "4k3/8/8/8/8/8/8/RK4R1 w Q - 4 3"
    assert "O-O" not in pos.legal_texts()
    assert "O-O-O" in pos.legal_texts()


# ---------------------------------------------------------------- R11.1 orthodox notation

def test_R11_1_normal_castle_texts_and_san():
    pos = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "normal")
    assert from_sq(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f2", "e1f1", "e1g1", "e1c1"}
    assert pos.san(pos.parse_move("e1g1")) == "O-O"
    assert pos.san(pos.parse_move("e1c1")) == "O-O-O"
    assert pos.parse_san("O-O-O") == pos.parse_move("e1c1")
    assert pos.move_text(pos.parse_san("O-O")) == "e1g1"


def test_R11_1_fischerandom_castle_san():
    pos = c960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert pos.san(pos.parse_move("O-O")) == "O-O"
    assert pos.move_text(pos.parse_san("O-O-O")) == "O-O-O"
    # king to partner square is read as the castle
    assert pos.parse_move("e1h1") == pos.parse_move("O-O")


def test_R11_1_san_simple_moves():
    pos = Position("normal")
    assert pos.san(pos.parse_move("e2e4")) == "e4"
    assert pos.san(pos.parse_move("g1f3")) == "Nf3"
    assert pos.parse_san("Nc3") == pos.parse_move("b1c3")
    assert pos.move_text(pos.parse_san("d4")) == "d2d4"


def test_R11_1_san_disambiguation():
    pos = Position.from_fen("4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1", "normal")
    got = {pos.san(pos.parse_move(t)) for t in ("b1d2", "b3d2", "f1d2")}
    assert got == {"Nb1d2", "N3d2", "Nfd2"}
    assert pos.parse_san("N3d2") == pos.parse_move("b3d2")
    assert pos.parse_san("Nfd2") == pos.parse_move("f1d2")
    assert pos.parse_san("Nb1d2") == pos.parse_move("b1d2")


def test_R11_1_san_check_mate_promotion_capture_ep():
    pos = play(Position("normal"), "f2f3", "e7e5", "g2g4")
    assert pos.san(pos.parse_move("d8h4")) == "Qh4#"
    assert pos.parse_san("Qh4#") == pos.parse_move("d8h4")
    pos = Position.from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "normal")
    assert pos.san(pos.parse_move("a7a8q")) == "a8=Q"  # b8 knight blocks rank 8
    assert pos.san(pos.parse_move("a7b8n")) == "axb8=N"
    assert pos.parse_san("axb8=R+") == pos.parse_move("a7b8r")
    assert pos.move_text(pos.parse_san("a8=B")) == "a7a8b"
    pos = Position.from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "normal")
    assert pos.san(pos.parse_move("e5d6")) == "exd6"


def test_R11_1_push_text_falls_back_to_san():
    pos = Position("normal")
    move = pos.push_text("Nf3")
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    pos.pop()
    assert pos.move_text(move) == "g1f3"
    assert pos.fen() == START


# ---------------------------------------------------------------- differential check (R2.1, R5.2, R7.1, R11.1)

def _pc_text(board, move):
    if board.chess960 and board.is_castling(move):
        return "O-O" if board.is_kingside_castling(move) else "O-O-O"
    return move.uci()


@pytest.mark.parametrize("variant,number,seed", [
    ("normal", 518, 1), ("normal", 518, 2), ("normal", 518, 3),
    ("fischerandom", 0, 4), ("fischerandom", 105, 5), ("fischerandom", 284, 6),
    ("fischerandom", 518, 7), ("fischerandom", 777, 8), ("fischerandom", 959, 9),
])
def test_R2_1_random_games_match_python_chess(variant, number, seed):
    """Random games: legal move texts, FEN (P4 ep = python-chess 'xfen', P7 X-FEN castling), check,
    SAN and the end of the game agree with python-chess."""
    chess = need_module("chess")
    import random
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(number)
    board.chess960 = variant == "fischerandom"
    pos = Position.from_fen(board.fen(), variant)
    for _ply in range(500):
        moves = {_pc_text(board, m): m for m in board.legal_moves}
        assert pos.legal_texts() == set(moves), pos.fen()
        assert pos.fen() == board.fen(en_passant="xfen")
        assert pos.is_check() == board.is_check()
        o = pos.outcome()
        if o is not None:
            expected = {"checkmate": board.is_checkmate(), "stalemate": board.is_stalemate(),
                        "threefold_repetition": board.is_repetition(3),
                        "fifty_moves": board.halfmove_clock >= 100,
                        "insufficient_material": board.is_insufficient_material()}[o.termination]
            assert expected, (o, board.fen())
            break
        assert not board.is_checkmate() and not board.is_stalemate()
        text = rng.choice(sorted(moves))
        move = pos.parse_move(text)
        assert pos.san(move) == board.san(moves[text])
        pos.push(move)
        board.push(moves[text])


def test_a_variant_has_one_table_of_other_names_read_by_pgn_the_web_app_and_the_referee():
    """variant.VARIANT_ALIASES: python-chess's "chess", PGN's "Standard" and "Chess960", in any case,
    name the same variant wherever a variant is named (PGN replay, a PGN loaded in the web app,
    ``xboard-match -variant``); anything else is a clear error."""
    import io

    from xboard_engine.core.errors import UnknownVariantError
    from xboard_engine.match.cli import UsageError, build
    from xboard_engine.match.pgn import read_games, replay
    from xboard_engine.core.variant import variant_name
    from xboard_engine.web.games.two_player import load_pgn
    assert [variant_name(t) for t in ("Standard", "chess", "CHESS960", " 8Piece ", "fischerandom")] == \
        ["normal", "normal", "fischerandom", "8piece", "fischerandom"]
    with pytest.raises(UnknownVariantError, match="unknown variant 'shogi'"):
        variant_name("shogi")
    fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    text = f'[Variant "Chess960"]\n[FEN "{fen}"]\n\n1. e4 e5 *\n'
    assert replay(next(read_games(io.StringIO(text)))).v.name == "fischerandom"
    assert load_pgn(text)[0] == "fischerandom"
    args = ["-engine", "cmd=x", "-engine", "name=b", "cmd=y", "-each", "tc=1", "-variant"]
    assert build(args + ["Standard"]).variant == "normal"
    with pytest.raises(UsageError, match="unknown variant 'shogi'"):
        build(args + ["shogi"])
