"""chess80 (docs/RULES.md): flexible castling (R5.4), the Duke (R6.1), and one test per
rule sentence of the seed text (test_seed_chess80_*). Board 10x8, files a..j."""

import pytest

from xboard_engine import IllegalMoveError, Position

V = "chess80"
START = "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1"
CASTLES = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"
KING_STEPS = {"e1d1", "e1d2", "e1e2", "e1f2", "e1f1"}   # king on e1 with an empty rank 2
A_SIDE = {"e1c1", "e1b1", "e1a1,a1a1"}
J_SIDE = {"e1g1", "e1h1", "e1i1", "e1j1,j1j1"}


def pos_(fen):
    return Position.from_fen(fen, V)


def from_sq(pos, *squares):
    return {t for t in pos.legal_texts() if t[:2] in squares}


def outcome_tuple(pos):
    o = pos.outcome()
    return None if o is None else (o.result, o.winner, o.termination)


# ---------------------------------------------------------------- R5.4 flexible castling

def test_R5_4_every_castle_listed():
    assert from_sq(pos_(CASTLES), "e1") == {"e1d1", "e1f1"} | A_SIDE | J_SIDE


# text, rank 1 after the castle, SAN
CASTLE_RESULTS = [
    ("e1c1", "2KR5R", "2-2"),
    ("e1b1", "1KR6R", "3-3"),
    ("e1a1,a1a1", "KR7R", "4-4"),
    ("e1g1", "R4RK3", "2-2-2"),
    ("e1h1", "R5RK2", "3-3-3"),
    ("e1i1", "R6RK1", "4-4-4"),
    ("e1j1,j1j1", "R7RK", "5-5-5"),
]


@pytest.mark.parametrize("text,rank1,san", CASTLE_RESULTS)
def test_R5_4_castle_result_and_san(text, rank1, san):
    pos = pos_(CASTLES)
    move = pos.parse_move(text)
    assert pos.move_text(move) == text
    assert pos.san(move) == san
    assert pos.parse_san(san) == move
    pos.push(move)
    assert pos.fen() == f"r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/{rank1} b kq - 1 1"


def test_R5_4_castle_king_onto_rook_square():
    pos = pos_(CASTLES)
    pos.push_text("e1j1,j1j1")
    assert pos.piece_at("j1") == "K"
    assert pos.piece_at("i1") == "R"
    pos.push_text("e8a8,a8a8")
    assert pos.fen() == "kr7r/pppppppppp/10/10/10/10/PPPPPPPPPP/R7RK w - - 2 2"


@pytest.mark.parametrize("text,rank1", [
    ("e1j1,j1i1", "R7RK"),          # as XBoard relays the king-onto-rook castles
    ("e1a1,a1b1", "KR7R"),
    ("e1j1,j1j1", "R7RK"),
    ("e1a1,a1a1", "KR7R"),
])
def test_R5_4_castle_text_forms_accepted(text, rank1):
    pos = pos_(CASTLES)
    move = pos.push_text(text)
    assert pos.fen() == f"r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/{rank1} b kq - 1 1"
    pos.pop()
    # canonical form
    assert pos.move_text(move) == ("e1j1,j1j1" if rank1 == "R7RK" else "e1a1,a1a1")


# Plain king-takes-own-rook text: XBoard 4.9.1 (chess80 hosted with legality testing on) sends it for a
# human's drag or typed move of the king onto its rook and shows a Chess960 castle, king on the c- or
# i-file, rook beside it (established live in XBoard 4.9.1). The engine reads it the same way.
@pytest.mark.parametrize("stm,text,back_rank,canonical", [
    ("w", "e1a1", "2KR5R", "e1c1"),
    ("w", "e1j1", "R6RK1", "e1i1"),
    ("b", "e8a8", "2kr5r", "e8c8"),
    ("b", "e8j8", "r6rk1", "e8i8"),
])
def test_R5_4_xboard_reads_king_takes_rook_as_960_castle(stm, text, back_rank, canonical):
    pos = pos_(CASTLES.replace(" w ", f" {stm} "))
    move = pos.parse_move(text)
    assert pos.move_text(move) == canonical
    assert move == pos.parse_move(canonical)
    pos.push_text(text)
    rank = pos.fen().split()[0].split("/")
    assert (rank[7] if stm == "w" else rank[0]) == back_rank


@pytest.mark.parametrize("fen,text,xboards_castle,still_legal", [
    # black rook i8 attacks i1: e1g1/e1h1 stay legal, XBoard's reading of e1j1 (K i1) is not
    ("r3k3r1/pppppppp1p/10/10/10/10/PPPPPPPP1P/R3K4R w KQ - 0 1", "e1j1", "e1i1", {"e1g1", "e1h1"}),
    # black duke a3 attacks c1 (and so every castle towards a1)
    ("r3k4r/pppppppppp/10/10/10/d9/PPPPPPPPPP/R3K4R w KQkq - 0 1", "e1a1", "e1c1", {"e1g1", "e1i1"}),
    # white rook i1 attacks i8: e8g8/e8h8 stay legal, e8j8 means K i8
    ("r3k4r/pppppppp1p/10/10/10/10/PPPPPPPP1P/R3K3R1 b kq - 0 1", "e8j8", "e8i8", {"e8g8", "e8h8", "e8c8"}),
])
def test_R5_4_king_takes_rook_refused_when_xboards_castle_is_illegal(fen, text, xboards_castle, still_legal):
    pos = pos_(fen)
    legal = pos.legal_texts()
    assert still_legal <= set(legal)
    assert xboards_castle not in legal
    with pytest.raises(IllegalMoveError):
        pos.parse_move(text)


def test_R5_4_black_castles():
    pos = pos_(CASTLES.replace(" w ", " b "))
    assert from_sq(pos, "e8") == {"e8d8", "e8f8", "e8c8", "e8b8", "e8a8,a8a8",
                                  "e8g8", "e8h8", "e8i8", "e8j8,j8j8"}
    assert pos.san(pos.parse_move("e8j8,j8j8")) == "5-5-5"
    assert pos.san(pos.parse_move("e8b8")) == "3-3"
    pos.push_text("e8h8")
    assert pos.fen() == "r5rk2/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQ - 1 2"


@pytest.mark.parametrize("rank1,expected", [
    ("R3K1B2R", {"e1d1", "e1f1"} | A_SIDE),          # g1 occupied: no castle towards j1 at all
    ("R3K3NR", {"e1d1", "e1f1"} | A_SIDE),           # i1 occupied, even g1/h1 castles are out
    ("RN2K4R", {"e1d1", "e1f1"} | J_SIDE),           # b1 occupied: no castle towards a1 at all
    ("R2QK4R", {"e1f1"} | J_SIDE),                   # d1 occupied
])
def test_R5_4_castling_blocked(rank1, expected):
    pos = pos_(f"r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/{rank1} w KQkq - 0 1")
    assert from_sq(pos, "e1") == expected


@pytest.mark.parametrize("rank8,expected", [
    # black rook h8 attacks h1: K g1 fine; h1 (lands), i1/j1 (pass h1) illegal
    ("4k2r2", KING_STEPS | A_SIDE | {"e1g1"}),
    # black rook j8 attacks j1: the king may not land on the rook's square
    ("4k4r", KING_STEPS | A_SIDE | {"e1g1", "e1h1", "e1i1"}),
    # black rook b8 attacks b1: K c1 fine, b1 / a1 illegal
    ("1r2k5", KING_STEPS | {"e1c1"} | J_SIDE),
    # black rook a8 attacks a1
    ("r3k5", KING_STEPS | {"e1c1", "e1b1"} | J_SIDE),
    # black rook f8 attacks f1 (and f2): every castle towards j1 passes f1
    ("4kr4", {"e1d1", "e1d2", "e1e2"} | A_SIDE),
])
def test_R5_4_castling_through_or_into_check(rank8, expected):
    pos = pos_(f"{rank8}/10/10/10/10/10/10/R3K4R w KQ - 0 1")
    assert from_sq(pos, "e1") == expected


def test_R5_4_no_castling_out_of_check():
    pos = pos_("2k1r5/10/10/10/10/10/10/R3K4R w KQ - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1f1", "e1f2"}


def test_R5_4_rook_moved_loses_right():
    pos = pos_(CASTLES)
    for t in ("j1i1", "a8b8", "i1j1", "b8a8"):
        pos.push_text(t)
    assert pos.fen() == "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w Qk - 4 3"
    assert from_sq(pos, "e1") == {"e1d1", "e1f1"} | A_SIDE


def test_R5_4_castling_right_letters():
    pos = pos_(CASTLES.replace("KQkq", "Kq"))
    assert from_sq(pos, "e1") == {"e1d1", "e1f1"} | J_SIDE
    assert pos.fen() == CASTLES.replace("KQkq", "Kq")


def test_R5_4_castle_san_with_check():
    # after 2-2 the rook on d1 checks the d8 king
    pos = pos_("3k6/10/10/10/10/10/10/R3K4R w KQ - 0 1")
    assert pos.san(pos.parse_move("e1c1")) == "2-2+"
    assert pos.san(pos.parse_move("e1b1")) == "3-3"
    assert pos.parse_san("2-2+") == pos.parse_move("e1c1")


# ---------------------------------------------------------------- R6.1 duke

def test_R6_1_duke_open_board():
    pos = pos_("4k5/10/10/10/4D5/10/10/4K5 w - - 0 1")
    assert from_sq(pos, "e4") == {
        "e4d3", "e4e3", "e4f3", "e4d4", "e4f4", "e4d5", "e4e5", "e4f5",     # W and F steps
        "e4e6", "e4e2", "e4c4", "e4g4", "e4c6", "e4g6", "e4c2", "e4g2",     # D and A jumps
    }


def test_R6_1_duke_corner():
    pos = pos_("4k5/10/10/10/10/10/10/D3K5 w - - 0 1")
    assert from_sq(pos, "a1") == {"a1a2", "a1b2", "a1b1", "a1a3", "a1c3", "a1c1"}


def test_R6_1_duke_j_file_edge():
    pos = pos_("4k5/9D/10/10/10/10/10/4K5 w - - 0 1")
    assert from_sq(pos, "j7") == {"j7i8", "j7j8", "j7i7", "j7i6", "j7j6", "j7j5", "j7h7", "j7h5"}


def test_R6_1_duke_captures_and_own_units_block():
    # black pawn e6 (jump capture), black knight f5 (step capture), own pawns d3 (step) and c2 (jump)
    pos = pos_("4k5/10/4p5/5n4/4D5/3P6/2P7/4K5 w - - 0 1")
    assert from_sq(pos, "e4") == {
        "e4e3", "e4f3", "e4d4", "e4f4", "e4d5", "e4e5", "e4f5",
        "e4e6", "e4e2", "e4c4", "e4g4", "e4c6", "e4g6", "e4g2",
    }
    assert pos.san(pos.parse_move("e4e6")) == "Dxe6+"      # from e6 the duke jumps to e8
    assert pos.san(pos.parse_move("e4f5")) == "Dxf5"
    pos.push_text("e4e6")
    assert pos.fen() == "4k5/10/4D5/5n4/10/3P6/2P7/4K5 b - - 0 1"
    assert pos.is_check()


def test_R6_1_duke_check_by_jump():
    pos = pos_("4k5/10/4D5/10/10/10/10/4K5 b - - 0 1")
    assert pos.is_check()
    # d7 e7 f7 stepped on, c8/g8 not adjacent; d8 and f8 are free
    assert pos.legal_texts() == {"e8d8", "e8f8"}


def test_R6_1_duke_pinned():
    # duke e2 pinned by the e8 rook: only moves along the e-file keep the king covered
    pos = pos_("k3r5/10/10/10/10/10/4D5/4K5 w - - 0 1")
    assert from_sq(pos, "e2") == {"e2e3", "e2e4"}


# ---------------------------------------------------------------- seed sentences

def test_seed_chess80_setup():
    """Initial board setup. The Dukes are sitting at the left and right of the King and Queen."""
    pos = Position(V)
    assert pos.fen() == START
    assert [pos.piece_at(f + "1") for f in "abcdefghij"] == list("RNBDKQDBNR")
    assert [pos.piece_at(f + "8") for f in "abcdefghij"] == list("rnbdkqdbnr")


def test_seed_chess80_board_and_promotion_choice():
    """files=10 ranks=8 promoZone=1 promoChoice=NBRQD"""
    pos = pos_("4k5/8P1/10/10/10/10/10/4K5 w - - 0 1")
    assert from_sq(pos, "i7") == {"i7i8q", "i7i8r", "i7i8b", "i7i8n", "i7i8d"}
    assert pos.san(pos.parse_move("i7i8d")) == "i8=D"
    pos.push_text("i7i8d")
    assert pos.piece_at("i8") == "D"


def test_seed_chess80_other_pieces_move_like_chess():
    """It introduces a new piece called the Duke (see below) while all other pieces move and capture
    like their counterparts in Chess."""
    pos = pos_("4k5/10/10/10/R9/10/8N1/4K5 w - - 0 1")
    assert from_sq(pos, "a4") == {"a4a1", "a4a2", "a4a3", "a4a5", "a4a6", "a4a7", "a4a8",
                                  "a4b4", "a4c4", "a4d4", "a4e4", "a4f4", "a4g4", "a4h4", "a4i4", "a4j4"}
    assert from_sq(pos, "i2") == {"i2g1", "i2g3", "i2h4", "i2j4"}
    pos = pos_("4k5/10/10/10/10/10/10/4K4B w - - 0 1")
    assert from_sq(pos, "j1") == {"j1i2", "j1h3", "j1g4", "j1f5", "j1e6", "j1d7", "j1c8"}
    pos = pos_("4k5/10/10/10/10/10/10/4K3Q1 w - - 0 1")
    assert from_sq(pos, "i1") == {"i1h1", "i1g1", "i1f1", "i1j1",
                                  "i1i2", "i1i3", "i1i4", "i1i5", "i1i6", "i1i7", "i1i8",
                                  "i1j2", "i1h2", "i1g3", "i1f4", "i1e5", "i1d6", "i1c7", "i1b8"}


def test_seed_chess80_duke_leaps_two_squares():
    """The Duke is a leaper piece and can leap two squares in any direction."""
    # surrounded by its own pawns it still jumps in all 8 directions
    pos = pos_("4k5/10/10/3PPP4/3PDP4/3PPP4/10/4K5 w - - 0 1")
    assert from_sq(pos, "e4") == {"e4e6", "e4e2", "e4c4", "e4g4", "e4c6", "e4g6", "e4c2", "e4g2"}


def test_seed_chess80_duke_moves_like_king_but_not_royal():
    """I can also move like an orthodox chess King however it is not royal (cannot be checked by
    other pieces)."""
    # the duke on d4 is attacked by the d8 rook: that is no check, and it may step to d5/d3
    # (still attacked) or stay en prise
    pos = pos_("3rk5/10/10/10/3D6/10/10/4K5 w - - 0 1")
    assert not pos.is_check()
    steps = {"d4c3", "d4d3", "d4e3", "d4c4", "d4e4", "d4c5", "d4d5", "d4e5"}
    assert steps <= from_sq(pos, "d4")
    assert "e1d1" in pos.legal_texts()
    pos.push_text("e1d1")   # leaves the duke en prise
    pos.push_text("d8d4")
    assert pos.piece_at("d4") == "r"
    assert pos.outcome() is None


def test_seed_chess80_duke_captures_as_it_moves():
    """The Duke captures as it moves."""
    pos = pos_("4k5/10/10/10/3n6/4D5/10/4K5 w - - 0 1")
    assert "e3d4" in pos.legal_texts()
    pos.push_text("e3d4")
    assert pos.fen() == "4k5/10/10/10/3D6/10/10/4K5 b - - 0 1"
    pos = pos_("4k5/10/2n7/10/4D5/10/10/4K5 w - - 0 1")
    pos.push_text("e4c6")   # diagonal jump capture
    assert pos.fen() == "4k5/10/2D7/10/10/10/10/4K5 b - - 0 1"


def test_seed_chess80_duke_letter():
    """In Algebraic notation, it is represented by the letter D."""
    pos = Position(V)
    assert pos.san(pos.parse_move("d1d3")) == "Dd3"
    assert pos.parse_san("Dg3") == pos.parse_move("g1g3")
    assert pos.piece_at("d1") == "D"
    assert pos.piece_at("g8") == "d"


def test_seed_chess80_check_and_checkmate():
    """Generally speaking, aside from the Duke's movements and the expanded Castling rules below,
    Chess80 mechanics are idential in all aspects with those of Orthodox chess. This includes
    checking and checkmating, ..."""
    pos = pos_("4k5/3ppp4/10/10/10/10/10/R3K5 w - - 0 1")
    assert pos.san(pos.parse_move("a1a8")) == "Ra8#"
    pos.push_text("a1a8")
    assert pos.is_check()
    assert pos.legal_texts() == set()
    assert outcome_tuple(pos) == ("1-0", "w", "checkmate")


def test_seed_chess80_promotion_may_be_a_duke():
    """This includes ... Pawn promotion (may also promote into a Duke), ..."""
    pos = pos_("4k5/10/10/10/10/10/1p8/4K5 b - - 0 1")
    assert from_sq(pos, "b2") == {"b2b1q", "b2b1r", "b2b1b", "b2b1n", "b2b1d"}
    pos.push_text("b2b1d")
    assert pos.fen() == "4k5/10/10/10/10/10/10/1d2K5 w - - 0 2"


def test_seed_chess80_en_passant():
    """This includes ... en-passant, ..."""
    pos = pos_("4k5/10/10/10/8p1/10/9P/4K5 w - - 0 1")
    pos.push_text("j2j4")
    assert pos.fen() == "4k5/10/10/10/8pP/10/10/4K5 b - j3 0 1"
    assert from_sq(pos, "i4") == {"i4i3", "i4j3"}
    pos.push_text("i4j3")
    assert pos.fen() == "4k5/10/10/10/10/9p/10/4K5 w - - 0 2"


def test_seed_chess80_fifty_move_limit():
    """This includes ... 50-move limit ..."""
    pos = pos_("4k5/10/10/10/10/10/10/3DK5 w - - 99 60")
    pos.push_text("d1d3")
    assert outcome_tuple(pos) == ("1/2-1/2", None, "fifty_moves")
    pos = pos_("4k5/10/10/10/10/10/10/3DK5 w - - 98 60")
    pos.push_text("d1d3")
    assert pos.outcome() is None


def test_seed_chess80_threefold_repetition():
    """This includes ... and stalemate after threefold repetition."""
    pos = Position(V)
    cycle = ["d1d3", "d8d6", "d3d1", "d6d8"]
    for i, t in enumerate(cycle * 2, start=1):
        pos.push_text(t)
        if i < 8:
            assert pos.outcome() is None
    assert outcome_tuple(pos) == ("1/2-1/2", None, "threefold_repetition")


def test_seed_chess80_stalemate():
    """This includes ... stalemate ... (stalemate is a draw, R2.1)"""
    # Black king a8: the c5 duke covers a7 (diagonal jump), the c7 king covers b7 and b8;
    # a8 itself is not attacked (c5-a8 is no duke move).
    pos = pos_("k9/2K7/10/2D7/10/10/10/10 b - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == set()
    assert outcome_tuple(pos) == ("1/2-1/2", None, "stalemate")


def test_seed_chess80_flexible_castling():
    """In Flexible Castling, the King may move two or more squares towards the Rook, while the Rook
    leaps over to the square immediately on the other side."""
    pos = pos_(CASTLES.replace(" w ", " b "))
    pos.push_text("e8g8")
    assert pos.piece_at("g8") == "k"
    assert pos.piece_at("f8") == "r"
    assert pos.piece_at("j8") is None


def test_seed_chess80_king_may_occupy_rook_corner():
    """Additionally, in Chess80 the King is also allowed to occupy the corner squares of the Rook
    (see examples below)."""
    pos = pos_(CASTLES.replace(" w ", " b "))
    assert {"e8a8,a8a8", "e8j8,j8j8"} <= pos.legal_texts()
    pos.push_text("e8a8,a8a8")
    assert pos.fen() == "kr7r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQ - 1 2"


def test_seed_chess80_restriction_initial_positions():
    """Initial positions: Both the king and the rook involved in castling must be in their original
    starting positions (e.g. the king on e1 and the rook on a1 or j1 for white) and have not moved
    from those squares."""
    pos = pos_(CASTLES)
    for t in ("e1f1", "a7a6", "f1e1", "a6a5"):
        pos.push_text(t)
    assert pos.fen() == "r3k4r/1ppppppppp/10/p9/10/10/PPPPPPPPPP/R3K4R w kq - 0 3"
    assert from_sq(pos, "e1") == {"e1d1", "e1f1"}


def test_seed_chess80_restriction_empty_path():
    """Empty path: All squares between the king and the rook must be empty."""
    pos = pos_("r3k1n2r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R b KQkq - 0 1")
    # g8 knight: no castle towards j8 at all (f8 stays an ordinary king step)
    assert from_sq(pos, "e8") == {"e8d8", "e8f8", "e8c8", "e8b8", "e8a8,a8a8"}


def test_seed_chess80_restriction_not_in_check():
    """Not in check: The king cannot be in Check at the time of castling."""
    # the e6 duke checks e8 (orthogonal jump); d8/f8 are free, d7/e7/f7 covered by its steps
    pos = pos_("r3k4r/10/4D5/10/10/10/10/4K5 b kq - 0 1")
    assert pos.is_check()
    assert from_sq(pos, "e8") == {"e8d8", "e8f8"}


def test_seed_chess80_restriction_safe_passage():
    """Safe passage: The king cannot pass through or land on a square that is under Check by an
    ennemy piece."""
    # white rook h1 attacks h8: towards j8 only g8 (h8 lands on it, i8/j8 pass it);
    # white rook d1 attacks d8/d7: nothing towards a8 (every a-side castle passes d8)
    pos = pos_("r3k4r/10/10/10/10/10/10/3RK2R2 b kq - 0 1")
    assert from_sq(pos, "e8") == {"e8e7", "e8f7", "e8f8", "e8g8"}


def test_seed_chess80_king_rook_swap():
    """The King may move two (2) or more squares towards the Rook (including the Rook square itself).
    The Rook is then leaped over to the square immediately behind the King."""
    pos = pos_(CASTLES)
    assert "e1d1" in pos.legal_texts()          # one square: an ordinary king step, the rook stays
    pos.push_text("e1d1")
    assert pos.fen() == "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R2K5R b kq - 1 1"
    pos = pos_(CASTLES)
    pos.push_text("e1i1")
    assert pos.piece_at("i1") == "K"
    assert pos.piece_at("h1") == "R"
    assert pos.piece_at("j1") is None


def test_seed_chess80_castling_notation():
    """Castling notation is very similar to that of Orthodox Chess: King-side castling is annotated as
    N-N and Queen-side castling is annotated as N-N-N, where N represents the number of squares moved
    by the King."""
    pos = pos_(CASTLES)
    got = {t: pos.san(pos.parse_move(t)) for t in sorted(A_SIDE | J_SIDE)}
    assert got == {"e1c1": "2-2", "e1b1": "3-3", "e1a1,a1a1": "4-4",
                   "e1g1": "2-2-2", "e1h1": "3-3-3", "e1i1": "4-4-4", "e1j1,j1j1": "5-5-5"}
    assert pos.san(pos.parse_move("e1d1")) == "Kd1"


def test_seed_chess80_relative_values_are_the_evaluation_material():
    """Piece Squares controlled Relative value: Pawn 1, Knight 3, Bishop 4, Rook 6, Duke 7, Queen 10."""
    from xboard_engine.core.variant import get_variant
    v = get_variant("chess80")
    values = {v.letter[c]: v.value[c] for c in range(len(v.letter)) if v.letter[c] and v.letter[c].isupper()}
    assert values == {"P": 100, "N": 300, "B": 400, "R": 600, "D": 700, "Q": 1000, "K": 0}
    # The evaluation's middlegame material: a Duke and a knight on the same square (same placement
    # table) differ by exactly 7 - 3 pawns.  The distilled set corrects each kind's squares apart
    # (weights.json), so the material is read with its square corrections set aside.
    from xboard_engine.search import evaluation
    from xboard_engine.search.evaluation import EG_SHIFT, PHASE_SHIFT

    def middlegame(fen):
        s = pos_(fen).score
        s -= ((s + (1 << (PHASE_SHIFT - 1))) >> PHASE_SHIFT) << PHASE_SHIFT
        return s - (((s + (1 << (EG_SHIFT - 1))) >> EG_SHIFT) << EG_SHIFT)
    weights = dict(evaluation.FITTED.get("chess80", {}))
    tables = dict(evaluation.FITTED_TABLES.get("chess80", {}))
    evaluation.set_weights(weights, "chess80", {})
    try:
        assert middlegame("4k5/10/10/10/10/10/10/D3K5 w - - 0 1") - \
            middlegame("4k5/10/10/10/10/10/10/N3K5 w - - 0 1") == 700 - 300
    finally:
        evaluation.set_weights(weights, "chess80", tables)


@pytest.mark.parametrize("bad", ["duke", "duke 700 queen", "lancer 400"])
def test_piece_values_must_name_the_variants_pieces(bad):
    from xboard_engine.core.variant import Variant, _read_definitions
    spec = dict(_read_definitions()["chess80"], piece_values=bad)
    with pytest.raises(ValueError, match="piece_values"):
        Variant("chess80", spec)
