"""fullcavalry (docs/RULES.md): lancers (R3.1-R3.5), castling (R5.3), lancer SAN
(R11.1), and one test per rule sentence of the seed text (test_seed_fullcavalry_*).

Lancer FEN letters by facing N NE E SE S SW W NW = C D E F G H M O (white upper, black lower);
in move texts the same letters in lower case name the new facing."""

import pytest

from xboard_engine import IllegalMoveError, InvalidFenError, Position

V = "fullcavalry"
START = "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"
CASTLES = "e3k2m/8/8/8/8/8/8/E3K2M w KQkq - 0 1"

# facings that point onto the board, by kind of square (checked one by one by hand)
ALL8 = "cdefghmo"
RANK1 = "cdemo"     # N NE E W NW
RANK8 = "efghm"     # E SE S SW W
FILE_A = "cdefg"    # N NE E SE S
FILE_H = "cghmo"    # N S SW W NW
A1, H1, A8, H8 = "cde", "cmo", "efg", "ghm"


def pos_(fen):
    return Position.from_fen(fen, V)


def from_sq(pos, *squares):
    return {t for t in pos.legal_texts() if t[:2] in squares}


def lancer(frm, to, old, allowed):
    """Texts of a lancer move frm-to: no suffix when it keeps its facing `old`, else the new facing."""
    return {frm + to if f == old else frm + to + f for f in allowed}


def outcome_tuple(pos):
    o = pos.outcome()
    return None if o is None else (o.result, o.winner, o.termination)


# ---------------------------------------------------------------- R3.1 movement

def test_R3_1_jumps_friendly_stops_at_first_enemy():
    # C on d4 faces N: d5 own pawn (jumped), d6 empty, d7 black pawn (captured, the line ends),
    # d8 is empty but beyond the first enemy unit.
    pos = pos_("4k3/3p4/8/3P4/3C4/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "d4") == lancer("d4", "d6", "c", ALL8) | lancer("d4", "d7", "c", ALL8)


def test_R3_1_moves_only_along_facing():
    # D on d4 faces NE: e5 f6 g7 h8; nothing sideways or backwards
    pos = pos_("k7/8/8/8/3D4/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "d4") == (lancer("d4", "e5", "d", ALL8) | lancer("d4", "f6", "d", ALL8)
                                  | lancer("d4", "g7", "d", ALL8) | lancer("d4", "h8", "d", H8))
    assert len(from_sq(pos, "d4")) == 27


def test_R3_1_black_lancer():
    # g on d4 faces S: d3 d2 d1; on d1 facing S would point off the board
    pos = pos_("4k3/8/8/8/3g4/8/8/4K3 b - - 0 1")
    assert from_sq(pos, "d4") == (lancer("d4", "d3", "g", ALL8) | lancer("d4", "d2", "g", ALL8)
                                  | lancer("d4", "d1", "g", RANK1))
    assert "d4d1" not in pos.legal_texts()


def test_R3_1_capture_without_jumping():
    pos = pos_("4k3/8/8/3p4/3C4/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "d4") == lancer("d4", "d5", "c", ALL8)
    pos.push_text("d4d5e")
    assert pos.fen() == "4k3/8/8/3E4/8/8/8/4K3 b - - 0 1"


# ---------------------------------------------------------------- R3.2 facing after the move

def test_R3_2_no_facing_into_the_edge():
    # E on a3 faces E: b3..g3 keep or turn freely; on h3 facing E would point off the board
    pos = pos_("4k3/8/8/8/8/E7/8/4K3 w - - 0 1")
    expected = set()
    for f in "bcdefg":
        expected |= lancer("a3", f + "3", "e", ALL8)
    expected |= {"a3h3c", "a3h3g", "a3h3h", "a3h3m", "a3h3o"}
    assert from_sq(pos, "a3") == expected
    assert len(expected) == 53


def test_R3_2_corner_three_facings():
    # O on d5 faces NW: c6, b7, a8; in the a8 corner only E SE S remain
    pos = pos_("4k3/8/8/3O4/8/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "d5") == (lancer("d5", "c6", "o", ALL8) | lancer("d5", "b7", "o", ALL8)
                                  | {"d5a8e", "d5a8f", "d5a8g"})


@pytest.mark.parametrize("text,letter", [
    ("d4d6", "C"), ("d4d6d", "D"), ("d4d6e", "E"), ("d4d6f", "F"),
    ("d4d6g", "G"), ("d4d6h", "H"), ("d4d6m", "M"), ("d4d6o", "O"),
])
def test_R3_2_turn_on_arrival(text, letter):
    pos = pos_("4k3/3p4/8/3P4/3C4/8/8/4K3 w - - 0 1")
    pos.push_text(text)
    assert pos.piece_at("d6") == letter
    assert pos.fen() == f"4k3/3p4/3{letter}4/3P4/8/8/8/4K3 b - - 1 1"


def test_R3_2_promotion_to_lancer_with_facing():
    pos = pos_("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "b7") == {"b7b8q", "b7b8b", "b7b8n"} | {"b7b8" + f for f in RANK8}
    pos.push_text("b7b8g")
    assert pos.fen() == "1G2k3/8/8/8/8/8/8/4K3 b - - 0 1"
    assert not pos.is_check()


def test_R3_2_promoted_lancer_facing_the_king_checks():
    pos = pos_("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    pos.push_text("b7b8e")     # b8 facing E: c8 d8 empty, e8 king
    assert pos.piece_at("b8") == "E"
    assert pos.is_check()


# ---------------------------------------------------------------- R3.3 no turn without moving

def test_R3_3_no_turn_in_place():
    pos = Position(V)
    assert from_sq(pos, "a1", "h1") == set()
    pos = pos_("4k3/8/8/3p4/3C4/8/8/4K3 w - - 0 1")
    assert not any(t.startswith("d4d4") for t in pos.legal_texts())


@pytest.mark.parametrize("text", ["a1a1c", "d4d4e", "d4d4"])
def test_R3_3_turn_in_place_rejected(text):
    pos = pos_("4k3/8/8/8/3C4/8/8/C3K3 w - - 0 1")
    with pytest.raises(IllegalMoveError):
        pos.push_text(text)


# ---------------------------------------------------------------- R3.4 lancer check

def test_R3_4_lancer_check_through_friendly_units():
    # E on a5 faces E, jumps its own c5 pawn and hits the e5 king. d5 and f5 stay on the line,
    # d6 is covered by the c5 pawn.
    pos = pos_("8/8/8/E1P1k3/8/8/8/4K3 b - - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"e5d4", "e5e4", "e5f4", "e5e6", "e5f6"}


def test_R3_4_double_check_ended_by_capturing_the_unit_the_lancer_jumps():
    """R3.1 + R3.4: the b1 lancer (facing NE) checks the f5 king by jumping its own e4 pawn, which
    checks too. Capturing that pawn ends both checks: the capturer now stands first on the lancer's
    line. (Found in a 10+0.1 match: the referee had called Black's e8e4h illegal.)"""
    pos = pos_("4gbn1/pp4pp/3p4/2p2kP1/2P1PP2/4B3/PP5P/1D1K4 b - - 0 21")
    assert pos.is_check()
    assert pos.legal_texts() == {"f5e6", "f5g4"} | {"e8e4"} | {"e8e4" + f for f in "cdefhmo"}
    pos.push_text("e8e4h")
    assert pos.fen().split()[:2] == ["5bn1/pp4pp/3p4/2p2kP1/2P1hP2/4B3/PP5P/1D1K4", "w"]


def test_R3_4_enemy_unit_blocks_lancer():
    # the black pawn c5 is the first enemy unit on the line: no check, d5/f5 are free;
    # the pawn itself is pinned (c5c4 would expose the king)
    pos = pos_("8/8/8/E1p1k3/8/8/8/4K3 b - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"e5d4", "e5e4", "e5f4", "e5d5", "e5f5", "e5d6", "e5e6", "e5f6"}


def test_R3_4_lancer_facing_away_gives_no_check():
    # G on e4 faces S (e3 e2, e1 own king jumped): the e8 king behind it is not attacked,
    # every king step is legal
    pos = pos_("4k3/8/8/8/4G3/8/8/4K3 b - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"e8d8", "e8f8", "e8d7", "e8e7", "e8f7"}


@pytest.mark.parametrize("fen,expected", [
    ("4k3/8/8/8/8/8/7m/4K3 w - - 0 1", {"e1d1", "e1f1"}),     # h2 faces W: a2..g2 covered
    ("4k3/8/8/8/8/8/7c/4K3 w - - 0 1", {"e1d1", "e1f1", "e1d2", "e1e2", "e1f2"}),   # faces N
])
def test_R3_4_king_may_not_step_onto_lancer_line(fen, expected):
    assert from_sq(pos_(fen), "e1") == expected


def test_R3_4_lancer_pins_through_its_own_units():
    # h1 faces W: g1 white knight (first enemy unit) shields e1. If the knight moves, the lancer
    # jumps its own f1 knight and hits e1: Ng1 is pinned. d2 is covered by the f1 knight.
    pos = pos_("4k3/8/8/8/8/8/8/4KnNm w - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1e2", "e1f2", "e1f1"}


def test_R3_4_lancer_pins_enemy_lancer_through_own_pawn():
    # white C on g1 faces N: g4 black lancer shields g8; behind it the white g6 pawn is jumped.
    # The black lancer (facing E, only destination h4) is pinned; f7/h7 are covered by the pawn.
    pos = pos_("6k1/8/6P1/8/6e1/8/8/4K1C1 b - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"g8f8", "g8h8", "g8g7"}


def test_R3_4_pinned_queen_moves_along_the_line_only():
    pos = pos_("4k3/8/8/8/8/8/8/4KnQm w - - 0 1")
    assert pos.legal_texts() == {"e1d1", "e1e2", "e1f2", "e1f1", "g1f1", "g1h1"}


def test_R3_4_king_may_not_step_onto_line_behind_lancers_own_units():
    # a2 faces E, jumps its own b2 pawn: c2..h2 are covered
    pos = pos_("4k3/8/8/8/8/8/ep6/4K3 w - - 0 1")
    assert pos.legal_texts() == {"e1d1", "e1f1"}


# ---------------------------------------------------------------- R3.5 initial facings

def test_R3_5_initial_facings():
    pos = Position(V)
    assert pos.fen() == START
    assert (pos.piece_at("a1"), pos.piece_at("h1"), pos.piece_at("a8"), pos.piece_at("h8")) == \
        ("E", "M", "e", "m")


# ---------------------------------------------------------------- R5.3 castling

KS = {"e1g1", "h1f1c,e1g1", "h1f1d,e1g1", "h1f1e,e1g1", "h1f1o,e1g1"}
QS = {"e1c1", "a1d1c,e1c1", "a1d1d,e1c1", "a1d1m,e1c1", "a1d1o,e1c1"}


def castle_texts(pos):
    return {t for t in pos.legal_texts() if "," in t or t in ("e1g1", "e1c1", "e8g8", "e8c8")}


def test_R5_3_castles_exact_legal_set():
    pos = pos_(CASTLES)
    expected = {"e1d1", "e1d2", "e1e2", "e1f2", "e1f1"} | KS | QS
    for sq in ("b1", "c1", "d1", "f1", "g1"):
        expected |= lancer("a1", sq, "e", RANK1)   # a1 faces E, jumps the e1 king and the h1 lancer
        expected |= lancer("h1", sq, "m", RANK1)   # h1 faces W
    assert pos.legal_texts() == expected
    assert len(expected) == 65


@pytest.mark.parametrize("text,rank1,san", [
    ("e1g1", "E4MK1", "O-O"),
    ("h1f1c,e1g1", "E4CK1", "O-O=n"),
    ("h1f1d,e1g1", "E4DK1", "O-O=ne"),
    ("h1f1e,e1g1", "E4EK1", "O-O=e"),
    ("h1f1o,e1g1", "E4OK1", "O-O=nw"),
    ("e1c1", "2KE3M", "O-O-O"),
    ("a1d1c,e1c1", "2KC3M", "O-O-O=n"),
    ("a1d1d,e1c1", "2KD3M", "O-O-O=ne"),
    ("a1d1m,e1c1", "2KM3M", "O-O-O=w"),
    ("a1d1o,e1c1", "2KO3M", "O-O-O=nw"),
])
def test_R5_3_castle_result_and_san(text, rank1, san):
    pos = pos_(CASTLES)
    move = pos.parse_move(text)
    assert pos.move_text(move) == text
    assert pos.san(move) == san
    assert pos.parse_san(san) == move
    pos.push(move)
    assert pos.fen() == f"e3k2m/8/8/8/8/8/8/{rank1} b kq - 1 1"


def test_R5_3_black_castles():
    pos = pos_(CASTLES.replace(" w ", " b "))
    assert castle_texts(pos) == {"e8g8", "h8f8g,e8g8", "h8f8h,e8g8", "h8f8e,e8g8", "h8f8f,e8g8",
                                 "e8c8", "a8d8g,e8c8", "a8d8h,e8c8", "a8d8m,e8c8", "a8d8f,e8c8"}
    pos.push_text("h8f8g,e8g8")
    assert pos.fen() == "e4gk1/8/8/8/8/8/8/E3K2M w KQ - 1 2"


def test_R5_3_b1_friendly_unit_allowed():
    pos = pos_("e3k2m/8/8/8/8/8/8/EN2K2M w KQkq - 0 1")
    assert castle_texts(pos) == KS | QS
    pos.push_text("e1c1")
    assert pos.fen() == "e3k2m/8/8/8/8/8/8/1NKE3M b kq - 1 1"


def test_R5_3_b1_enemy_unit_forbids_queenside():
    pos = pos_("e3k2m/8/8/8/8/8/8/En2K2M w KQkq - 0 1")
    assert castle_texts(pos) == KS
    # the a1 lancer can only capture the b1 knight
    assert from_sq(pos, "a1") == lancer("a1", "b1", "e", RANK1)


@pytest.mark.parametrize("rank1", ["E1B1K2M", "E2BK2M"])
def test_R5_3_c1_d1_must_be_empty(rank1):
    pos = pos_(f"e3k2m/8/8/8/8/8/8/{rank1} w KQkq - 0 1")
    assert castle_texts(pos) == KS


def test_R5_3_f1_g1_must_be_empty():
    pos = pos_("e3k2m/8/8/8/8/8/8/E3K1NM w KQkq - 0 1")
    assert castle_texts(pos) == QS


@pytest.mark.parametrize("fen,expected", [
    ("e3k2m/8/b7/8/8/8/8/E3K2M w KQkq - 0 1", QS),       # a6 bishop covers f1
    ("e3k2m/8/8/8/8/b7/8/E3K2M w KQkq - 0 1", KS),       # a3 bishop covers c1
    ("e3k2m/8/8/7b/8/8/8/E3K2M w KQkq - 0 1", KS),       # h5 bishop covers d1
    ("e3k2m/8/8/8/8/8/8/E3K2M w KQkq - 0 1", KS | QS),   # control
    ("e3k2m/8/8/8/8/8/6g1/E3K2M w KQkq - 0 1", QS),      # g2 lancer facing S covers g1
    ("e3k2m/8/8/8/1b6/8/8/E3K2M w KQkq - 0 1", set()),   # b4 bishop checks e1
])
def test_R5_3_castling_through_check(fen, expected):
    assert castle_texts(pos_(fen)) == expected


def test_R5_3_path_attacked_by_lancer_jumping_own_units():
    # f8 lancer faces S, jumps its own f7 pawn: f2 and f1 are covered -> no O-O, no Kf1/Kf2
    pos = pos_("e3kg1m/5p2/8/8/8/8/8/E3K2M w KQ - 0 1")
    assert castle_texts(pos) == QS
    assert from_sq(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1c1"}


def test_R5_3_rights_follow_the_lancers():
    pos = pos_(CASTLES.replace("KQkq", "Kkq"))
    assert castle_texts(pos) == KS
    pos = pos_(CASTLES)
    # the a1 lancer leaves (turning W) and comes back (turning E): the right is gone
    for t in ("a1b1m", "a8b8m", "b1a1e", "b8a8e"):
        pos.push_text(t)
    assert pos.fen() == "e3k2m/8/8/8/8/8/8/E3K2M w Kk - 4 3"
    assert castle_texts(pos) == KS


def test_R5_3_castle_with_b1_knight_then_rights_gone():
    pos = pos_("e3k2m/8/8/8/8/8/8/EN2K2M w KQkq - 0 1")
    pos.push_text("a1d1m,e1c1")
    assert pos.fen() == "e3k2m/8/8/8/8/8/8/1NKM3M b kq - 1 1"


# ---------------------------------------------------------------- R11.1 lancer SAN

def test_R11_1_lancer_san():
    pos = pos_("4k3/8/8/8/8/8/8/2C1K3 w - - 0 1")
    assert pos.san(pos.parse_move("c1c2e")) == "Lc2=e"
    assert pos.san(pos.parse_move("c1c2")) == "Lc2"
    assert pos.parse_san("Lc2=e") == pos.parse_move("c1c2e")
    assert pos.parse_san("Lc2=E") == pos.parse_move("c1c2e")
    assert pos.parse_san("Lc2") == pos.parse_move("c1c2")
    assert pos.san(pos.parse_move("c1c8e")) == "Lc8=e+"     # c8 facing E: d8 empty, e8 king
    assert pos.san(pos.parse_move("c1c8g")) == "Lc8=s"
    assert pos.move_text(pos.parse_san("Lc5=sw")) == "c1c5h"


def test_R11_1_lancer_capture_san():
    pos = pos_("4k3/8/8/8/4p3/8/8/4C2K w - - 0 1")
    assert pos.san(pos.parse_move("e1e4m")) == "Lxe4=w"
    assert pos.san(pos.parse_move("e1e4")) == "Lxe4+"       # keeps N: e5 e6 e7 empty, e8 king
    assert pos.san(pos.parse_move("e1e4o")) == "Lxe4=nw"
    assert pos.parse_san("Lxe4=w") == pos.parse_move("e1e4m")
    assert pos.parse_san("Lxe4nw") == pos.parse_move("e1e4o")


def test_R11_1_promotion_to_lancer_san():
    pos = pos_("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert pos.san(pos.parse_move("b7b8g")) == "b8=L=s"
    assert pos.san(pos.parse_move("b7b8e")) == "b8=L=e+"
    assert pos.parse_san("b8=L=sw") == pos.parse_move("b7b8h")
    assert pos.san(pos.parse_move("b7b8n")) == "b8=N"


# ---------------------------------------------------------------- seed sentences

def test_seed_fullcavalry_lancer_replaces_rook():
    """The piece called Lancer (also from 8-Piece Chess) replaces each Rook."""
    assert Position(V).fen() == START


def test_seed_fullcavalry_lancers_aim_toward_king():
    """The setup is similar to standard chess, except that Lancers replace the Rooks. Each lancer
    begins the game aiming horizontally toward the king"""
    pos = Position(V)
    for t in ("g1f3", "g8f6"):
        pos.push_text(t)
    # a1 (E) runs over b1..f1 (own units) to g1; h1 (W) steps to g1; nothing else
    assert from_sq(pos, "a1") == lancer("a1", "g1", "e", RANK1)
    assert from_sq(pos, "h1") == lancer("h1", "g1", "m", RANK1)


def test_seed_fullcavalry_no_rooks():
    """All Standard chess pieces, except there are no rooks in this game."""
    with pytest.raises(InvalidFenError):
        Position.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", V)


def test_seed_fullcavalry_moves_in_aimed_direction():
    """Lancer: The lancer must move in the direction it is aiming, ..."""
    # H on f5 faces SW: e4 d3 c2 b1 (edge)
    pos = pos_("4k3/8/8/5H2/8/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "f5") == (lancer("f5", "e4", "h", ALL8) | lancer("f5", "d3", "h", ALL8)
                                  | lancer("f5", "c2", "h", ALL8) | lancer("f5", "b1", "h", RANK1))


def test_seed_fullcavalry_reorient_directions():
    """... and after the move, the player may re-orient it (turn it) to any of the major directions
    (8 total directions if it's in the center of the board, 5 directions on the edge, and 3 available
    in the corner)."""
    pos = pos_("4k3/8/8/3O4/8/8/8/4K3 w - - 0 1")    # d5 facing NW: c6 (centre), a8 (corner)
    texts = from_sq(pos, "d5")
    assert len({t for t in texts if t[2:4] == "c6"}) == 8
    assert len({t for t in texts if t[2:4] == "a8"}) == 3
    pos = pos_("4k3/8/8/8/8/E7/8/4K3 w - - 0 1")    # a3 facing E: h3 is an edge square
    assert len({t for t in from_sq(pos, "a3") if t[2:4] == "h3"}) == 5


def test_seed_fullcavalry_may_keep_direction():
    """You may also leave it aiming in the same direction it just moved, assuming it is not then
    facing the edge of the board."""
    pos = pos_("4k3/8/8/8/8/E7/8/4K3 w - - 0 1")
    texts = pos.legal_texts()
    assert "a3g3" in texts
    assert "a3h3" not in texts
    pos.push_text("a3g3")
    assert pos.piece_at("g3") == "E"


def test_seed_fullcavalry_jumps_friendly_units():
    """A Lancer can jump over any number of friendly units, but it does not necessarily have to jump
    over anything to move or capture."""
    # C on b1 faces N: b2 b3 b4 own pawns, b5 empty, b6 own knight, b7 black pawn
    pos = pos_("4k3/1p6/1N6/8/1P6/1P6/1P6/1C2K3 w - - 0 1")
    assert from_sq(pos, "b1") == lancer("b1", "b5", "c", ALL8) | lancer("b1", "b7", "c", ALL8)
    pos = pos_("4k3/8/8/8/8/8/1p6/1C2K3 w - - 0 1")     # direct capture, nothing to jump
    assert from_sq(pos, "b1") == lancer("b1", "b2", "c", ALL8)


def test_seed_fullcavalry_stops_at_first_enemy():
    """It cannot jump beyond the first enemy unit in the direction it is facing (it can capture that
    first enemy piece and can't go any further during that move)."""
    # E on a4 faces E: b4 empty, c4 black knight, then d4 empty, e4 black pawn
    pos = pos_("4k3/8/8/8/E1n1p3/8/8/4K3 w - - 0 1")
    assert from_sq(pos, "a4") == lancer("a4", "b4", "e", ALL8) | lancer("a4", "c4", "e", ALL8)


def test_seed_fullcavalry_must_move_no_turn_in_place():
    """A lancer must move, like all other pieces; it cannot re-orient on its current square as a move
    in itself, with the exception of when a pawn promotes to a lancer (can re-orient during the
    promotion move)."""
    # start position: both lancers see only their own units up to the edge -> no move, no turn
    pos = Position(V)
    assert not any(t[:2] in ("a1", "h1") for t in pos.legal_texts())
    with pytest.raises(IllegalMoveError):
        pos.push_text("a1a1c")
    pos = pos_("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {"a7a8e", "a7a8f", "a7a8g"} <= pos.legal_texts()


def test_seed_fullcavalry_promotion_no_rook():
    """Pawns can only promote to a non-king piece from this variant, so you cannot promote to a rook."""
    pos = pos_("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1")
    assert from_sq(pos, "g2") == {"g2g1q", "g2g1b", "g2g1n"} | {"g2g1" + f for f in RANK1}
    for bad in ("g2g1r", "g2g1k"):
        with pytest.raises(IllegalMoveError):
            pos.push_text(bad)


def test_seed_fullcavalry_promotion_lancer_orientation():
    """If you promote to a lancer, you may then re-orient the lancer to an available direction to
    complete your turn/move."""
    pos = pos_("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1")
    pos.push_text("g2g1o")
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K1o1 w - - 0 2"
    with pytest.raises(IllegalMoveError):
        pos_("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1").push_text("g2g1g")   # S from g1: off the board


def test_seed_fullcavalry_castling_like_standard():
    """Castling is legal, under similar restrictions as standard chess."""
    pos = pos_(CASTLES)
    assert castle_texts(pos) == KS | QS
    pos.push_text("e1e2")
    pos.push_text("e8e7")
    pos.push_text("e2e1")
    pos.push_text("e7e8")
    assert pos.fen() == "e3k2m/8/8/8/8/8/8/E3K2M w - - 4 3"
    assert castle_texts(pos) == set()


def test_seed_fullcavalry_queenside_friendly_b1():
    """One small difference: Regarding queen-side castling (using White as an example), there can be a
    friendly unit on b1 such as a White knight, and the queen-side castle would still be legal,
    assuming c1 and d1 are empty."""
    pos = pos_("en2k2m/8/8/8/8/8/8/EN2K2M b KQkq - 0 1")
    assert {"e8c8", "a8d8g,e8c8"} <= castle_texts(pos)
    pos.push_text("e8c8")
    assert pos.fen() == "1nke3m/8/8/8/8/8/8/EN2K2M w KQ - 1 2"


def test_seed_fullcavalry_castling_reorient():
    """Regarding a castling move, that player may re-orient the lancer on its destination square (if
    desired) to complete his/her turn."""
    pos = pos_(CASTLES)
    pos.push_text("h1f1c,e1g1")
    assert pos.piece_at("f1") == "C"
    assert pos.piece_at("g1") == "K"
    with pytest.raises(IllegalMoveError):
        pos_(CASTLES).push_text("h1f1g,e1g1")   # S from f1 points off the board


def test_seed_fullcavalry_edge_must_reorient():
    """After moving the lancer to the edge of the board, you may not choose to keep it aiming toward
    that edge. You must re-orient it toward an actual square on the board."""
    pos = pos_("4k3/8/8/8/3C4/8/8/4K3 w - - 0 1")   # d4 facing N runs to d8 (top edge)
    texts = from_sq(pos, "d4")
    assert {t for t in texts if t[2:4] == "d8"} == {"d4d8e", "d4d8f", "d4d8g", "d4d8h", "d4d8m"}
    with pytest.raises(IllegalMoveError):
        pos.push_text("d4d8")


def test_seed_fullcavalry_may_aim_at_friendly_units():
    """However, if a player did want to attempt stalemate, he or she is allowed to aim toward friendly
    unit(s) to try for such a stalemate."""
    # M on d3 faces W; on b3 it may face S towards its own b2 pawn and b1 knight (a dead end)
    pos = pos_("4k3/8/8/8/8/3M4/1P6/1N2K3 w - - 0 1")
    assert from_sq(pos, "d3") == (lancer("d3", "c3", "m", ALL8) | lancer("d3", "b3", "m", ALL8)
                                  | lancer("d3", "a3", "m", FILE_A))
    pos.push_text("d3b3g")
    pos.push_text("e8d8")
    assert from_sq(pos, "b3") == set()


def test_seed_fullcavalry_standard_rules_checkmate():
    """Same basic rules and objective of Standard chess, with these differences:"""
    pos = pos_("7k/6pp/8/8/8/8/8/C3K3 w - - 0 1")
    assert pos.san(pos.parse_move("a1a8e")) == "La8=e#"
    pos.push_text("a1a8e")
    assert outcome_tuple(pos) == ("1-0", "w", "checkmate")


def test_seed_fullcavalry_single_lancer_mates():
    """Each lancer is worth about 4.75, and a single lancer can force checkmate (with its own king)
    against a lone enemy king."""
    pos = pos_("k7/8/1K6/8/8/8/8/7C w - - 0 1")
    assert pos.outcome() is None        # K+L vs K is no dead draw
    pos.push_text("h1h8m")
    assert pos.legal_texts() == set()
    assert outcome_tuple(pos) == ("1-0", "w", "checkmate")


def test_seed_fullcavalry_notation_direction():
    """Notation is with an L, and if the lancer re-orients afterward, then the direction is based on
    compass directions, from White's perpective. i.e. Lxg1nw means lancer takes g1, then re-orients to
    a northwest direction (diagonally up and to the left for White, and down to the right from
    Black's perspective)"""
    pos = pos_("4k3/8/1F6/8/8/8/8/4K1n1 w - - 0 1")    # F b6 faces SE: c5 d4 e3 f2 g1(knight)
    move = pos.parse_san("Lxg1nw")
    assert move == pos.parse_move("b6g1o")
    assert pos.san(move) == "Lxg1=nw"
    pos.push(move)
    assert pos.piece_at("g1") == "O"
    # Black: compass from White's side, so a black lancer turning towards the h-file is "e"
    pos = pos_("4k3/8/8/8/3g4/8/8/4K3 b - - 0 1")
    assert pos.san(pos.parse_move("d4d2e")) == "Ld2=e"
    assert pos.san(pos.parse_move("d4d2c")) == "Ld2=n"
    pos.push_text("d4d2e")
    assert pos.piece_at("d2") == "e"


def test_seed_fullcavalry_notation_no_direction_when_kept():
    """If the lancer does not re-orient after its move or capture, then no direction needs to be
    mentioned in notation."""
    pos = pos_("4k3/8/8/8/3g4/8/8/4K3 b - - 0 1")
    assert pos.san(pos.parse_move("d4d2")) == "Ld2"
    pos = pos_("4k3/8/8/8/4p3/8/8/4C2K w - - 0 1")
    assert pos.san(pos.parse_move("e1e4")) == "Lxe4+"
