"""Rule tests for `8piece-2019` (8-Piece Chess, original 2019 rules: the sentry jump-captures).

Rulings: docs/RULES.md R2.3, R7.1, R9.1-R9.3 (jailer R4, lancer R3 still apply), project ruling
P3 (docs/RULES.md); rule text: the 2019 8-Piece Chess page (test_seed_*).
Move texts: jump capture `c1f4,f4g5` (from, victim, landing), edge capture `d3a6`.
"""
from eightpiece_helpers import START, lancer_texts, outcome_termination, play, texts_from
from xboard_engine import Position, RulesError

VARIANT = "8piece-2019"


def P(fen):
    return Position.from_fen(fen, VARIANT)


# ---------------------------------------------------------------- R9 sentry (jump capture)

def test_R9_1_sentry_moves_to_empty_squares_and_jump_captures():
    pos = P("k7/8/8/8/5p2/8/8/K1S5 w - - 0 1")
    assert texts_from(pos, "c1") == {"c1b2", "c1a3", "c1d2", "c1e3", "c1f4,f4g5"}
    mv = pos.parse_move("c1f4,f4g5")
    assert pos.san(mv) == "Sxf4"
    pos.push(mv)
    assert pos.fen() == "k7/8/8/6S1/8/8/8/K7 b - - 0 1"


def test_R9_1_no_capture_when_square_beyond_is_occupied():
    assert texts_from(P("k7/8/8/6p1/5p2/8/8/K1S5 w - - 0 1"), "c1") == {"c1b2", "c1a3", "c1d2", "c1e3"}
    assert texts_from(P("k7/8/8/6P1/5p2/8/8/K1S5 w - - 0 1"), "c1") == {"c1b2", "c1a3", "c1d2", "c1e3"}


def test_R9_1_sentry_never_pushes():
    # black knight e5 in front of the sentry c3 with f6 occupied: no push, no capture
    pos = P("7k/8/5p2/4n3/8/2S5/8/K7 w - - 0 1")
    assert texts_from(pos, "c3") == {"c3b4", "c3a5", "c3b2", "c3d2", "c3e1", "c3d4"}


def test_R9_2_edge_capture_removes_both():
    pos = P("k7/8/n7/8/8/3S4/8/K7 w - - 0 1")
    assert texts_from(pos, "d3") == {"d3c4", "d3b5", "d3a6", "d3e4", "d3f5", "d3g6", "d3h7",
                                     "d3c2", "d3b1", "d3e2", "d3f1"}
    mv = pos.parse_move("d3a6")
    assert pos.san(mv) == "Sxa6"
    pos.push(mv)
    assert pos.fen() == "k7/8/8/8/8/8/8/K7 b - - 0 1"
    assert outcome_termination(pos) == "insufficient_material"


def test_R9_3_sentry_that_could_capture_king_gives_check():
    pos = P("k7/8/8/8/4K3/8/2s5/8 w - - 0 1")
    assert pos.is_check()
    # d3 and f5 stay on the sentry's line with an empty square behind the king
    assert pos.legal_texts() == {"e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4"}


def test_R9_3_no_check_when_square_beyond_king_occupied():
    assert not P("k7/8/8/5P2/4K3/8/2s5/8 w - - 0 1").is_check()


def test_R9_3_edge_capture_threat_is_check():
    pos = P("k7/8/8/8/K7/8/2s5/8 w - - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"a4a3", "a4a5", "a4b5", "a4b4"}      # not b3


def test_P3_2019_sentry_attacks_empty_squares_with_empty_or_no_square_beyond():
    # black sentry b5 attacks e2 (f1 empty beyond) and f1 (edge): no king-side castling
    pos = P("4k3/8/8/1s6/8/8/8/4K2R w K - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1f2"}


def test_R9_held_sentry_cannot_capture():
    pos = P("k7/8/8/8/5p2/8/2j5/K1S5 w - - 0 1")       # black jailer c2 holds the sentry c1
    assert texts_from(pos, "c1") == set()


# ---------------------------------------------------------------- R7.1 pawns, R2.3 fifty moves

def test_R7_1_orthodox_pawns_no_double_step_from_first_rank():
    # Orthodox pawns never stand on their first rank (no pushes in 2019): rejecting such a FEN is
    # the orthodox answer; if it is accepted, the pawn may still step only one square.
    try:
        pos = P("4k3/8/8/8/8/8/3P4/K1P5 w - - 0 1")
    except RulesError:
        pos = None
    if pos is not None:
        assert pos.legal_texts() == {"c1c2", "d2d3", "d2d4", "a1a2", "a1b1", "a1b2"}
    pos = P("4k3/8/8/8/8/8/3P4/K7 w - - 0 1")
    assert pos.legal_texts() == {"d2d3", "d2d4", "a1a2", "a1b1", "a1b2"}


def test_R7_1_double_step_only_from_second_rank():
    pos = P("4k3/8/8/8/8/3P4/8/K7 w - - 0 1")
    assert texts_from(pos, "d3") == {"d3d4"}
    pos = P("4k3/7p/8/8/8/8/8/K7 b - - 0 1")
    assert texts_from(pos, "h7") == {"h7h6", "h7h5"}


def test_R7_1_en_passant():
    pos = P("4k3/8/8/8/3p4/8/2P5/K7 w - - 0 1")
    pos.push_text("c2c4")
    assert pos.fen() == "4k3/8/8/8/2Pp4/8/8/K7 b - c3 0 1"
    assert texts_from(pos, "d4") == {"d4d3", "d4c3"}
    pos.push_text("d4c3")
    assert pos.fen() == "4k3/8/8/8/8/2p5/8/K7 w - - 0 2"


def test_R2_4_2019_promotion_choices():
    pos = P("8/1P6/8/7k/8/8/8/K7 w - - 0 1")
    assert texts_from(pos, "b7") == {"b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7b8j", "b7b8s",
                                     "b7b8e", "b7b8f", "b7b8g", "b7b8h", "b7b8m"}


def test_R2_3_any_pawn_move_resets_fifty_move_count():
    pos = P("4k3/8/8/8/8/8/3P4/KJ6 w - - 40 50")
    pos.push_text("b1b2")
    assert pos.fen().split()[4] == "41"
    pos.push_text("e8e7")
    pos.push_text("d2d3")
    assert pos.fen().split()[4] == "0"


def test_R2_3_fifty_move_draw():
    pos = P("4k3/8/8/8/8/8/8/KJ6 w - - 99 80")
    assert pos.outcome() is None
    pos.push_text("a1a2")
    o = pos.outcome()
    assert (o.result, o.termination) == ("1/2-1/2", "fifty_moves")


# ---------------------------------------------------------------- jailer and lancer still apply

def test_R4_2_2019_held_unit_cannot_move():
    pos = P("k7/8/8/3j4/1p1R4/8/8/7K w - - 0 1")
    assert pos.legal_texts() == {"h1g1", "h1g2", "h1h2"}


def test_R4_3_2019_pass_only_when_king_held():
    assert P("kJ6/7p/8/8/8/8/8/7K b - - 0 1").legal_texts() == {"@@@@", "h7h6", "h7h5"}
    assert P("k1J5/7p/8/8/8/8/8/7K b - - 0 1").legal_texts() == {"a8a7", "a8b7", "a8b8", "h7h6", "h7h5"}


def test_R3_1_2019_lancer_moves():
    pos = P("7k/3n4/3p4/8/8/3P4/8/3C3K w - - 0 1")
    assert texts_from(pos, "d1") == lancer_texts("d1", ["d2", "d4", "d5", "d6"], "c")


def test_R3_5_2019_initial_facings():
    pos = Position(VARIANT)
    assert pos.fen() == START
    assert texts_from(pos, "b1") == lancer_texts("b1", ["d3", "e4", "f5", "g6", "h7"], "d")


def test_R5_1_2019_castling_with_rook_and_jailer():
    pos = P("4k3/8/8/8/8/8/8/J3K2R w KQ - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "e1c1"}


# ---------------------------------------------------------------- seed: 8-piece-chess-2019.txt

def test_seed_two_minors_or_one_major_piece_can_mate():
    """Along with their own king, any two minor pieces can checkmate a lone king, and any single
    moderate to major piece can checkmate a lone king."""
    for fen in ("7k/8/8/8/8/8/8/KJ6 w - - 0 1", "7k/8/8/8/8/8/8/KBS5 w - - 0 1",
                "7k/8/8/8/8/8/8/KBN5 w - - 0 1", "7k/8/8/8/8/8/8/KC6 w - - 0 1"):
        assert P(fen).outcome() is None, fen


def test_seed_jailer_slides_but_cannot_capture():
    """The jailer slides orthogonally like a rook, but it cannot capture."""
    assert texts_from(P("k7/8/3p4/8/1P1J1n2/8/8/7K w - - 0 1"), "d4") == {
        "d4d5", "d4d3", "d4d2", "d4d1", "d4e4", "d4c4"}


def test_seed_jailer_holds_orthogonal_neighbours():
    """When it is directly next to/touching an enemy piece (horizontally or vertically), that enemy
    piece cannot move at all, nor can it capture."""
    pos = P("k7/8/8/3j4/3RR3/8/8/7K w - - 0 1")
    assert texts_from(pos, "d4") == set()
    assert len(texts_from(pos, "e4")) == 10


def test_seed_held_until_jailer_moves_away():
    """It is held in place until the jailer moves away or is captured."""
    pos = P("k7/8/8/3j4/3R4/8/8/7K b - - 0 1")
    pos.push_text("d5h5")
    assert len(texts_from(pos, "d4")) == 14


def test_seed_piece_stopping_on_hold_square_is_held():
    """If an enemy piece moves onto one of those 4 squares (orthogonally 1 square away from the
    jailer), then it is "held." Enemy pieces can still move "through" the hold squares"""
    pos = P("7k/8/3j4/R7/8/8/8/7K w - - 0 1")
    assert "a5h5" in pos.legal_texts()
    play(pos, "a5d5", "h8g8")
    assert texts_from(pos, "d5") == set()


def test_seed_jailer_holds_up_to_four_pieces():
    """A jailer could potentially hold up to 4 enemy pieces at the same time"""
    assert P("k7/8/3N4/2BjQ3/3R4/8/8/7K w - - 0 1").legal_texts() == {"h1g1", "h1g2", "h1h2"}


def test_seed_castle_through_hold_square():
    """the opponent is still allowed to castle "through" a jailer's hold square i.e. if the Black
    jailer is on f2, White can still castle king-side (... Afterward the White rook on f1 would be
    "held")."""
    pos = P("4k3/8/8/8/8/8/5j2/4K2R w K - 0 1")
    play(pos, "e1g1", "e8e7")
    assert texts_from(pos, "f1") == set()


def test_seed_no_castling_when_already_held():
    """However, a king and rook/jailer cannot castle if either is already held before the castle
    move."""
    assert "e1g1" not in P("4k3/8/8/8/8/8/7j/4K2R w K - 0 1").legal_texts()
    assert "e1c1" not in P("4k3/8/8/8/8/8/j7/J3K3 w Q - 0 1").legal_texts()


def test_seed_no_en_passant_hold():
    """there is no such thing as "holding" by the jailer en passant, so i.e. a Black jailer on e3
    does not prohibit a White pawn from moving from d2 to d4."""
    assert texts_from(P("k7/8/8/8/8/4j3/3P4/7K w - - 0 1"), "d2") == {"d2d3", "d2d4", "d2e3"}


def test_seed_jailers_holding_each_other():
    """If a jailer holds the enemy jailer, then both are prohibited from moving until one of them is
    captured. While jailers are "stuck" to each other, each jailer still exhibits hold control of
    the other three orthogonal squares like normal."""
    pos = P("k7/8/8/3j4/3Jr3/8/8/7K b - - 0 1")
    assert pos.legal_texts() == {"a8a7", "a8b7", "a8b8"}


def test_seed_pass_when_king_held():
    """when the jailer is holding the opponent's king, the opponent may "pass" as a legal move (you
    can only pass if the jailer is holding your king, not in any other situation)."""
    pos = P("kJ6/7p/8/8/8/8/8/7K b - - 0 1")
    mv = pos.parse_move("@@@@")
    assert pos.san(mv) == "--"


def test_seed_king_and_jailer_mate():
    """This means that a king+jailer can checkmate a lone king. In that scenario the winning King
    would deliver the checkmate since it can move directly next to the opponent's king (which cannot
    move at all)."""
    pos = P("3Jk3/8/4K3/8/8/8/8/8 w - - 0 1")
    pos.push_text("e6f7")
    o = pos.outcome()
    assert (o.winner, o.termination) == ("w", "checkmate")


def test_seed_jailer_castles_like_rook():
    """A jailer can be part of a castle move just like the rook."""
    pos = P("4k3/8/8/8/8/8/8/J3K2R w KQ - 0 1")
    pos.push_text("e1c1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KJ3R b - - 1 1"


def test_seed_jailer_does_not_pin():
    """Above, the bishop is not actually pinned because jailers cannot capture."""
    assert len(texts_from(P("4j2k/8/8/8/8/8/4B3/4K3 w - - 0 1"), "e2")) == 9


def test_seed_lancer_jumps_friendly_pieces_up_to_first_enemy():
    """It moves by "jumping" straight forward - over multiple friendly pieces if desired - in the
    direction that it is facing. It can move to any available square that it is facing up to and
    including the first enemy piece in that direction. It cannot jump over an enemy piece or land on
    any square beyond that first enemy piece."""
    pos = P("7k/3n4/3p4/8/8/3P4/3P4/3C3K w - - 0 1")
    assert texts_from(pos, "d1") == lancer_texts("d1", ["d4", "d5", "d6"], "c")


def test_seed_lancer_turn_after_move_not_before():
    """After it lands on an empty square or captures a piece, as part of the same move, the player
    can turn the lancer ... A player may not turn a lancer without moving it first."""
    assert texts_from(P("7k/8/8/8/M7/8/8/4K3 w - - 0 1"), "a4") == set()
    assert texts_from(P("7k/8/8/8/8/8/8/C1K5 w - - 0 1"), "a1") == lancer_texts(
        "a1", ["a2", "a3", "a4", "a5", "a6", "a7", "a8"], "c")


def test_seed_lancer_turns_on_hold_square():
    """If a player moves his or her lancer onto an enemy jailer's "hold" square, then that player is
    still allowed to turn the lancer (finishing the move) to face the desired direction before it
    becomes "held" by that enemy jailer."""
    pos = P("k7/8/8/8/8/1j6/8/D6K w - - 0 1")
    assert {t for t in texts_from(pos, "a1") if t.startswith("a1b2")} == lancer_texts("a1", ["b2"], "d")
    play(pos, "a1b2g", "a8a7")
    assert texts_from(pos, "b2") == set()


def test_seed_lancer_takes_e5_turning_south_with_check():
    """the Black lancer is currently facing "southeast." It can take the pawn on e5 and then turn
    south, putting the White king in check."""
    pos = P("1f2k3/2p2p2/8/4P3/8/5Q2/8/4K3 b - - 0 1")
    pos.push_text("b8e5g")
    assert pos.is_check()


def test_seed_sentry_jump_capture():
    """The capture is performed by sliding to the enemy piece diagonally and jumping over it, landing
    on the vacant square immediately beyond that enemy piece."""
    pos = P("k7/8/8/8/5p2/8/8/K1S5 w - - 0 1")
    pos.push_text("c1f4,f4g5")
    assert (pos.piece_at("f4"), pos.piece_at("g5"), pos.piece_at("c1")) == (None, "S", None)


def test_seed_sentry_edge_capture_sacrifices_sentry():
    """Regarding the edge of the board, the sentry can still capture those pieces. However, it
    captures an edge piece the same way as elsewhere and jumps out of the field of play."""
    pos = P("k7/8/n7/8/8/3S4/8/K7 w - - 0 1")
    pos.push_text("d3a6")
    assert (pos.piece_at("a6"), pos.piece_at("d3")) == (None, None)


def test_seed_knight_g5_needs_h6_vacant():
    """Above, the White sentry cannot capture the knight on g5 because the h6 square is occupied. If
    Black ever moves that pawn to h5 with the knight still on g5, then White can capture: Sxg5 (and
    the Sentry would land on h6)."""
    pos = P("k7/8/7p/6n1/8/4S3/8/K7 w - - 0 1")
    assert texts_from(pos, "e3") == {"e3f4", "e3d4", "e3c5", "e3b6", "e3a7", "e3f2", "e3g1",
                                     "e3d2", "e3c1"}
    play(pos, "a1a2", "h6h5")
    mv = pos.parse_move("e3g5,g5h6")
    assert pos.san(mv) == "Sxg5"
    pos.push(mv)
    assert (pos.piece_at("g5"), pos.piece_at("h6")) == (None, "S")


def test_seed_sentry_takes_pinned_piece_with_discovered_check():
    """the sentry can capture a pinned piece and instantly deliver a discovered check ... Even though
    the sentry will be sacrificed to take the queen at the edge of the board"""
    pos = P("4k2q/8/8/4n3/8/2S5/8/K3R3 w - - 0 1")
    mv = pos.parse_move("c3e5,e5f6")
    assert pos.san(mv) == "Sxe5+"
    pos.push(mv)
    assert pos.is_check()
    pos.push_text("e8d7")
    assert "f6h8" in pos.legal_texts()


def test_seed_pawn_moves_and_double_step_from_start():
    """Each pawn moves one square straight forward, but from its original starting square it may
    slide 2 squares forward if desired. It captures one square diagonally forward."""
    pos = P("4k3/8/8/8/2p1p3/3P4/1P6/K7 w - - 0 1")
    assert texts_from(pos, "b2") == {"b2b3", "b2b4"}
    assert texts_from(pos, "d3") == {"d3d4", "d3c4", "d3e4"}


def test_seed_en_passant_only_on_next_move():
    """that player has the option (only on the very next move) to capture that enemy pawn "en
    passant" (in passing)."""
    pos = P("4k3/8/8/8/3p4/8/2P5/K7 w - - 0 1")
    play(pos, "c2c4", "e8e7", "a1a2")
    assert texts_from(pos, "d4") == {"d4d3"}


def test_seed_promotion_to_any_piece_but_king():
    """When a pawn reaches the last rank, it is immediately promoted: replaced by any other piece of
    the player's liking aside from a king. If a pawn promotes to a lancer, that player may turn the
    lancer to any main direction to complete the move."""
    pos = P("8/1P6/8/7k/8/8/8/K7 w - - 0 1")
    assert "b7b8k" not in pos.legal_texts()
    pos.push_text("b7b8g")
    assert pos.piece_at("b8") == "G"


def test_seed_promotion_to_jailer_holds_immediately():
    """If it promotes to a jailer, then enemy pieces orthogonally 1 square next to it are held
    immediately."""
    pos = P("2r4k/1P6/8/8/8/8/8/K7 w - - 0 1")
    pos.push_text("b7b8j")
    assert texts_from(pos, "c8") == set()


def test_seed_rook_bishop_queen_knight_king_moves():
    """The rook slides orthogonally ... The knight is a "leaping" piece ... The bishop slides
    diagonally ... The queen has movement that combines the power of rook and bishop ... The king can
    move one square in any direction and captures the same way."""
    assert texts_from(P("k7/8/8/3p4/8/8/3R1P2/7K w - - 0 1"), "d2") == {
        "d2d3", "d2d4", "d2d5", "d2d1", "d2c2", "d2b2", "d2a2", "d2e2"}
    assert texts_from(P("k7/8/8/8/8/p7/PPP5/1N5K w - - 0 1"), "b1") == {"b1a3", "b1c3", "b1d2"}
    assert texts_from(P("k7/8/8/8/8/2p5/8/B6K w - - 0 1"), "a1") == {"a1b2", "a1c3"}
    assert len(texts_from(P("7k/8/8/8/8/8/1P6/Q6K w - - 0 1"), "a1")) == 13
    assert texts_from(P("k4r2/8/8/8/3p4/4K3/8/8 w - - 0 1"), "e3") == {
        "e3d2", "e3e2", "e3d3", "e3d4", "e3e4"}


def test_seed_lancer_notation():
    """Notation for the Lancer is with an L, then x if it captures, then the coordinate of the square
    it lands on, followed by = and the direction it turns toward ... For example: Lc2 = e ... Lxe4 =
    w ... If the Lancer does not change direction after a move, there is no = sign or direction
    mentioned. ... Le4"""
    pos = P("k7/8/8/8/8/8/8/K1C5 w - - 0 1")
    assert pos.san(pos.parse_move("c1c2e")) == "Lc2=e"
    pos = P("k7/8/8/8/4p3/8/8/K3C3 w - - 0 1")
    assert pos.san(pos.parse_move("e1e4m")) == "Lxe4=w"
    pos = Position(VARIANT)
    assert pos.san(pos.parse_move("b1e4")) == "Le4"


def test_seed_sentry_notation():
    """If it captures, you only mention the captured piece square, not the piece that the sentry
    lands on. For example, let's assume a White sentry takes a piece on c4: Sxc4 ... If the sentry
    moves to b5 and there was no enemy piece captured, it would simply be: Sb5"""
    pos = P("k7/8/8/8/2n5/3S4/8/K7 w - - 0 1")
    assert pos.san(pos.parse_move("d3c4,c4b5")) == "Sxc4"
    assert pos.parse_san("Sxc4") == pos.parse_move("d3c4,c4b5")
    pos = P("k7/8/8/8/8/3S4/8/K7 w - - 0 1")
    assert pos.san(pos.parse_move("d3b5")) == "Sb5"


def test_seed_lancer_marker_aims_at_h7():
    """You can clearly see the White lancer is on b1 and aims at the orange marker- so the h7 pawn can
    be captured"""
    pos = Position(VARIANT)
    assert {t for t in texts_from(pos, "b1") if t.startswith("b1h7")} == {
        "b1h7c", "b1h7g", "b1h7h", "b1h7m", "b1h7o"}
