"""Rule tests for `8piece` (8-Piece Chess, current rules: sentry pushes).

Rulings (R..) and project rulings (P..): docs/RULES.md; tests named test_seed_* follow the sentences of
the rule text "Rules of 8-Piece Chess" (where it is published: docs/RULES.md).

FEN letters: J jailer, S sentry, lancer facing N NE E SE S SW W NW = C D E F G H M O.
Move texts: lancer turn = facing-letter suffix, push `SENTRYFROM+UDEST,UDEST+SENTRYTO`, pass `@@@@`.
"""
from eightpiece_helpers import START, lancer_texts, outcome_termination, play, texts_from
from xboard_engine import Position

VARIANT = "8piece"


def P(fen):
    return Position.from_fen(fen, VARIANT)


def fen6(pos):
    return " ".join(pos.fen().split()[:6])


def pushes(sentry, pushed, dests):
    return {f"{sentry}{d},{d}{pushed}" for d in dests}


# ---------------------------------------------------------------- R2 common rules

def test_R2_1_move_may_not_leave_king_attacked():
    # white rook e2 pinned by the black rook e8 against the king e1
    pos = P("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1")
    assert pos.legal_texts() == {"e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8",
                                 "e1d1", "e1d2", "e1f1", "e1f2"}


def test_R2_1_checkmate():
    pos = P("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    mv = pos.parse_move("a1a8")
    assert pos.san(mv) == "Ra8#"
    pos.push(mv)
    assert pos.is_check()
    assert pos.legal_texts() == set()
    o = pos.outcome()
    assert (o.result, o.winner, o.termination) == ("1-0", "w", "checkmate")


def test_R2_1_stalemate_is_draw():
    pos = P("7k/8/6Q1/8/8/8/8/K7 b - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == set()
    o = pos.outcome()
    assert (o.result, o.winner, o.termination) == ("1/2-1/2", None, "stalemate")


def test_R2_2_threefold_repetition():
    pos = P("7k/8/8/8/8/8/8/K6J w - - 0 1")
    play(pos, "a1a2", "h8g8", "a2a1", "g8h8")      # 2nd occurrence
    assert pos.outcome() is None
    play(pos, "a1a2", "h8g8", "a2a1")
    assert pos.outcome() is None
    pos.push_text("g8h8")                          # 3rd occurrence
    o = pos.outcome()
    assert (o.result, o.termination) == ("1/2-1/2", "threefold_repetition")


def test_R2_2_repetition_distinguishes_lancer_facings():
    start = "7k/8/8/8/8/8/8/K2C4 w - - 0 1"         # white lancer d1 facing N
    # the lancer comes back facing N both times: threefold
    pos = P(start)
    play(pos, "d1d3g", "h8h7", "d3d1c", "h7h8", "d1d3g", "h8h7", "d3d1c")
    assert pos.outcome() is None
    pos.push_text("h7h8")
    assert outcome_termination(pos) == "threefold_repetition"
    # same squares, but the second return faces NE: no repetition
    pos = P(start)
    play(pos, "d1d3g", "h8h7", "d3d1c", "h7h8", "d1d3g", "h8h7", "d3d1d", "h7h8")
    assert pos.piece_at("d1") == "D"
    assert pos.outcome() is None


def test_R2_2_repetition_distinguishes_push_restriction():
    pos = P("8/8/7k/4r3/8/2S5/8/K7 w - - 0 1")
    pos.push_text("c3e8,e8e5")                     # rook pushed e5->e8: restriction e5e8
    assert pos.fen() == "4r3/8/7k/4S3/8/8/8/K7 b - - 1 1 e5e8"
    shuffle = ("h6h5", "a1b1", "h5h6", "b1a1")
    play(pos, *shuffle)                            # same board, no restriction: 1st occurrence
    play(pos, *shuffle)                            # 2nd
    assert pos.outcome() is None                   # (3rd if the restriction were ignored)
    play(pos, *shuffle)                            # 3rd
    assert outcome_termination(pos) == "threefold_repetition"


def test_R2_2_bare_kings_draw():
    pos = P("8/8/8/8/8/8/1p6/K6k w - - 0 1")
    assert pos.outcome() is None
    pos.push_text("a1b2")
    o = pos.outcome()
    assert (o.result, o.termination) == ("1/2-1/2", "insufficient_material")


def test_R2_2_only_bare_kings_are_dead_in_8piece():
    for fen in ("7k/8/8/8/8/8/8/KJ6 w - - 0 1",     # king + jailer
                "7k/8/8/8/8/8/8/KN6 w - - 0 1",     # king + knight (dead only in orthodox chess)
                "7k/8/8/8/8/8/8/KS6 w - - 0 1"):    # king + sentry
        assert P(fen).outcome() is None, fen


def test_R2_4_promotion_choices():
    pos = P("8/1P6/8/7k/8/8/8/K7 w - - 0 1")
    assert texts_from(pos, "b7") == {"b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7b8j", "b7b8s",
                                     "b7b8e", "b7b8f", "b7b8g", "b7b8h", "b7b8m"}
    pos.push_text("b7b8f")
    assert fen6(pos) == "1F6/8/8/7k/8/8/8/K7 b - - 0 1"


# ---------------------------------------------------------------- R3 lancer

def test_R3_1_lancer_moves_along_facing_jumping_friends_up_to_first_enemy():
    # white lancer d1 facing N; own pawn d3 is jumped, black pawn d6 is the first enemy (knight d7 beyond)
    pos = P("7k/3n4/3p4/8/8/3P4/8/3C3K w - - 0 1")
    assert texts_from(pos, "d1") == lancer_texts("d1", ["d2", "d4", "d5", "d6"], "c")


def test_R3_2_lancer_chooses_facing_after_move_never_into_the_edge():
    pos = P("8/8/7k/8/8/8/8/C1K5 w - - 0 1")
    expected = lancer_texts("a1", ["a2", "a3", "a4", "a5", "a6", "a7", "a8"], "c")
    assert {"a1a8e", "a1a8f", "a1a8g"} == {t for t in expected if t.startswith("a1a8")}
    assert texts_from(pos, "a1") == expected
    assert "a1a8" not in pos.legal_texts() and "a1a5m" not in pos.legal_texts()


def test_R3_3_lancer_never_turns_without_moving():
    # lancer a4 faces W (the edge): it has no move at all
    pos = P("7k/8/8/8/M7/8/8/4K3 w - - 0 1")
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1e2", "e1f2", "e1f1"}


def test_R3_4_lancer_check_through_own_units():
    # black lancer a8 facing SE jumps its own pawn c6 and checks the king e4
    pos = P("f6k/8/2p5/8/4K3/8/8/8 w - - 0 1")
    assert pos.is_check()
    # d5 (pawn c6 and lancer) and f3 (lancer line beyond the king) are attacked
    assert pos.legal_texts() == {"e4d3", "e4d4", "e4e3", "e4e5", "e4f4", "e4f5"}


def test_R3_4_enemy_unit_on_lancer_line_blocks_check():
    pos = P("f6k/8/2P5/8/4K3/8/8/8 w - - 0 1")
    assert not pos.is_check()


def test_R3_5_8piece_initial_facings():
    pos = Position(VARIANT)
    assert pos.fen() == START
    assert pos.piece_at("b1") == "D" and pos.piece_at("b8") == "f"
    # white lancer b1 facing NE: jumps c2, reaches d3 e4 f5 g6 and captures h7
    assert texts_from(pos, "b1") == lancer_texts("b1", ["d3", "e4", "f5", "g6", "h7"], "d")
    assert len(pos.legal_texts()) == 16 + 2 + 37
    pos.push_text("a2a3")
    assert texts_from(pos, "b8") == lancer_texts("b8", ["d6", "e5", "f4", "g3", "h2"], "f")


def test_R3_6_fen_letters_round_trip():
    fen = "k7/cdefghmo/8/8/8/8/CDEFGHMO/K7 w - - 0 1"
    pos = P(fen)
    assert pos.fen() == fen
    assert [pos.piece_at(s + "2") for s in "abcdefgh"] == list("CDEFGHMO")
    assert [pos.piece_at(s + "7") for s in "abcdefgh"] == list("cdefghmo")
    assert Position.from_fen(START, VARIANT).fen() == START
    assert P("jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w KQkq - 0 1 -").fen() == START


def test_R3_6_push_restriction_field_round_trip():
    fen = "4r3/8/7k/4S3/8/8/8/K7 b - - 1 1 e5e8"
    assert P(fen).fen() == fen
    assert len(P("4r3/8/7k/4S3/8/8/8/K7 b - - 1 1").fen().split()) == 6


# ---------------------------------------------------------------- R4 jailer

def test_R4_1_jailer_moves_like_rook_never_captures():
    pos = P("k7/8/3p4/8/1P1J1n2/8/8/7K w - - 0 1")
    assert texts_from(pos, "d4") == {"d4d5", "d4d3", "d4d2", "d4d1", "d4e4", "d4c4"}


def test_R4_2_held_unit_cannot_move_or_capture():
    # white rook d4 held by the black jailer d5 (it could otherwise take b4)
    pos = P("k7/8/8/3j4/1p1R4/8/8/7K w - - 0 1")
    assert pos.legal_texts() == {"h1g1", "h1g2", "h1h2"}


def test_R4_2_held_unit_gives_no_check():
    # black rook e5 held by the white jailer d5: no check; every jailer move would release it
    pos = P("k7/8/8/3Jr3/8/8/8/4K3 w - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}


def test_R4_2_king_may_step_next_to_held_unit():
    pos = P("k7/8/4J3/4r3/8/3K4/8/8 w - - 0 1")
    assert texts_from(pos, "d3") == {"d3c2", "d3d2", "d3e2", "d3c3", "d3e3", "d3c4", "d3d4", "d3e4"}


def test_R4_2_held_unit_does_not_stop_castling():
    pos = P("k7/8/8/5rJ1/8/8/8/4K2R w K - 0 1")        # rook f5 held by J g5
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"}
    pos = P("k7/8/8/5r1J/8/8/8/4K2R w K - 0 1")        # rook f5 free: f1 f2 attacked
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2"}


def test_R4_2_holds_do_not_apply_to_pushed_unit():
    # black rook d5 is held by J c5, yet the sentry b3 pushes it; pushed, it may take the knight d8
    pos = P("3n3k/8/8/2Jr4/8/1S6/8/K7 w - - 0 1")
    assert texts_from(pos, "b3") == {"b3a4", "b3a2", "b3c2", "b3d1", "b3c4"} | pushes(
        "b3", "d5", ["d6", "d7", "d8", "d4", "d3", "d2", "e5", "f5", "g5", "h5"])   # not d1 (checks a1)


def test_R4_3_pass_only_when_king_held():
    pos = P("kJ6/7p/8/8/8/8/8/7K b - - 0 1")
    assert pos.legal_texts() == {"@@@@", "h7h6", "h7h5"}
    pos = P("k1J5/7p/8/8/8/8/8/7K b - - 0 1")           # jailer not adjacent: no pass
    assert pos.legal_texts() == {"a8a7", "a8b7", "a8b8", "h7h6", "h7h5"}


def test_R4_3_pass_illegal_while_in_check():
    pos = P("kJ6/8/7r/8/8/8/8/R5K1 b - - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"h6a6"}


def test_R4_3_pass_text_san_and_fen():
    pos = P("kJ6/7p/8/8/8/8/8/7K b - - 0 1")
    mv = pos.parse_move("@@@@")
    assert pos.move_text(mv) == "@@@@"
    assert pos.san(mv) == "--"
    assert pos.parse_san("--") == mv
    pos.push(mv)
    assert pos.fen() == "kJ6/7p/8/8/8/8/8/7K w - - 1 2"


def test_R4_4_castling_through_hold_square_then_partner_held():
    pos = P("4k3/8/8/8/8/8/5j2/4K2R w K - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"}
    pos.push_text("e1g1")
    assert pos.fen() == "4k3/8/8/8/8/8/5j2/5RK1 b - - 1 1"
    pos.push_text("e8d8")
    assert texts_from(pos, "f1") == set()


def test_R5_6_castling_jailer_holding_an_attacker_keeps_it_held():
    # The sentry on a2 could push the queen b3 onto d1, but the jailer a1 holds it before the move.
    pos = P("4k3/8/8/8/8/1Q6/s7/J3K3 w Q - 0 1")
    assert "e1c1" in pos.legal_texts()
    pos.push_text("e1c1")
    assert fen6(pos) == "4k3/8/8/8/8/1Q6/s7/2KJ4 b - - 1 1"


def test_R5_6_unit_held_only_after_arrival_still_attacks_the_path():
    # The black pawn on c2 attacks d1; the jailer landing on d1 would hold it only after arriving.
    pos = P("4k3/8/8/8/8/8/2p5/J3K3 w Q - 0 1")
    assert not pos.is_check() and pos.is_attacked("d1", "b")
    assert "e1c1" not in pos.legal_texts()
    assert "e1c1" in P("4k3/8/8/8/8/8/8/J3K3 w Q - 0 1").legal_texts()


def test_R4_4_no_castling_with_held_partner():
    pos = P("4k3/8/8/8/8/8/7j/4K2R w K - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    assert texts_from(pos, "h1") == set()
    pos = P("4k3/8/8/8/8/8/j7/J3K3 w Q - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}


def test_R4_4_no_castling_with_held_king():
    pos = P("4k3/8/8/8/8/8/4j3/J3K2R w KQ - 0 1")
    assert pos.legal_texts() == ({"@@@@", "h1g1", "h1f1"} | {f"h1h{r}" for r in range(2, 9)}
                                 | {"a1b1", "a1c1", "a1d1"} | {f"a1a{r}" for r in range(2, 9)})


def test_R4_4_king_may_land_on_held_square():
    pos = P("4k3/8/8/8/8/8/2j5/J3K3 w Q - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1c1"}
    pos.push_text("e1c1")
    assert pos.fen() == "4k3/8/8/8/8/8/2j5/2KJ4 b - - 1 1"
    pos.push_text("e8e7")
    assert texts_from(pos, "c1") == set()
    assert "@@@@" in pos.legal_texts()


# ---------------------------------------------------------------- R5 castling

def test_R5_1_castling_both_sides():
    fen = "4k3/8/8/8/8/8/8/J3K2R w KQ - 0 1"
    pos = P(fen)
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "e1c1"}
    assert pos.san(pos.parse_move("e1g1")) == "O-O"
    assert pos.san(pos.parse_move("e1c1")) == "O-O-O"
    pos.push_text("e1g1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/J4RK1 b - - 1 1"
    pos = P(fen)
    pos.push_text("e1c1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KJ3R b - - 1 1"


def test_R5_1_queen_side_needs_b1_empty():
    pos = P("4k3/8/8/8/8/8/8/JN2K2R w KQ - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"}


def test_R5_1_king_may_not_pass_attacked_square_b1_may_be_attacked():
    pos = P("3rk3/8/8/8/8/8/8/J3K2R w KQ - 0 1")        # d1 attacked
    assert texts_from(pos, "e1") == {"e1e2", "e1f1", "e1f2", "e1g1"}
    pos = P("1r2k3/8/8/8/8/8/8/J3K2R w KQ - 0 1")        # only b1 attacked
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "e1c1"}


def test_R5_1_no_castling_out_of_check():
    pos = P("4k3/8/8/4r3/8/8/8/J3K2R w KQ - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1f1", "e1f2"}


def test_R5_5_sentry_push_threat_prevents_castling():
    # black sentry h5 can push the white pawn e2, which (moving as Black) could take on d1 or f1
    pos = P("4k3/8/8/7s/8/8/4P3/J3K2R w KQ - 0 1")
    assert not pos.is_check()
    assert texts_from(pos, "e1") == {"e1d2", "e1f2"}


def test_R5_5_held_attacker_does_not_prevent_castling():
    pos = P("4k3/8/b7/J7/8/8/8/4K2R w K - 0 1")         # bishop a6 (aims at f1) held by J a5
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"}


def test_P2_sentry_aiming_at_king_does_not_prevent_castling():
    pos = P("4k3/8/8/8/1s6/8/8/4K2R w K - 0 1")
    assert not pos.is_check()
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"}


# ---------------------------------------------------------------- R7 pawns

def test_R7_2_pawn_steps_one_or_two_from_first_and_second_rank():
    pos = P("4k3/8/8/8/8/4P3/3P4/K1P5 w - - 0 1")
    assert pos.legal_texts() == {"c1c2", "c1c3", "d2d3", "d2d4", "e3e4", "a1a2", "a1b1", "a1b2"}
    pos = P("4k2p/8/8/8/8/8/8/K7 b - - 0 1")
    assert texts_from(pos, "h8") == {"h8h7", "h8h6"}


def test_R7_2_double_step_needs_both_squares_empty():
    pos = P("4k3/8/8/8/8/2p5/8/K1P5 w - - 0 1")
    assert texts_from(pos, "c1") == {"c1c2"}
    pos = P("4k3/8/8/8/8/8/2b5/K1P5 w - - 0 1")
    assert texts_from(pos, "c1") == set()


def test_R7_2_en_passant_after_double_step_from_first_rank():
    pos = P("4k3/8/8/8/8/3p4/8/K1P5 w - - 0 1")
    pos.push_text("c1c3")
    assert pos.fen() == "4k3/8/8/8/8/2Pp4/8/K7 b - c2 0 1"
    assert pos.legal_texts() == {"d3d2", "d3c2", "e8d8", "e8d7", "e8e7", "e8f7", "e8f8"}
    pos.push_text("d3c2")
    assert pos.fen() == "4k3/8/8/8/8/8/2p5/K7 w - - 0 2"


# ---------------------------------------------------------------- R8 sentry (push rules)

def test_R8_1_sentry_slides_to_empty_squares_and_pushes():
    # white sentry c1 reaches the black pawn h6; pushed as a white pawn it goes to h7 or takes g7
    pos = P("4k3/6n1/7p/8/8/8/8/K1S5 w - - 0 1")
    assert texts_from(pos, "c1") == {"c1b2", "c1a3", "c1d2", "c1e3", "c1f4", "c1g5",
                                     "c1h7,h7h6", "c1g7,g7h6"}
    pos.push_text("c1g7,g7h6")
    assert fen6(pos) == "4k3/6p1/7S/8/8/8/8/K7 b - - 0 1"


def test_R8_2_pushed_piece_cannot_capture_pushers_units():
    # black knight e5 pushed by the sentry c3: may take the black pawn d7, never the white pawn f3
    pos = P("7k/3p4/8/4n3/8/2S2P2/8/K7 w - - 0 1")
    assert texts_from(pos, "c3") == {"c3b4", "c3a5", "c3b2", "c3d2", "c3e1", "c3d4"} | pushes(
        "c3", "e5", ["d7", "f7", "c6", "g6", "c4", "g4", "d3"])
    pos.push_text("c3d7,d7e5")
    assert pos.fen() == "7k/3n4/8/4S3/8/5P2/8/K7 b - - 0 1 e5d7"


def test_R8_2_push_needs_a_destination():
    # black pawn e5 pushed as a white pawn: e6 is occupied, d6/f6 hold nothing to take
    pos = P("k7/8/4r3/4p3/8/2S5/8/7K w - - 0 1")
    assert texts_from(pos, "c3") == {"c3b4", "c3a5", "c3b2", "c3a1", "c3d2", "c3e1", "c3d4"}


def test_R8_2_push_must_not_leave_pushers_king_attacked():
    # white is in check from the rook e5; pushing it down the e-file keeps the check
    pos = P("7k/8/8/4r3/8/2S5/8/4K3 w - - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1f1", "e1f2"} | pushes(
        "c3", "e5", ["e6", "e7", "e8", "a5", "b5", "c5", "d5", "f5", "g5", "h5"])


def test_R8_3_pushed_pawn_moves_one_square_in_pushers_direction():
    # black sentry pushes the white pawn e7 south: e6 only, never e5
    pos = P("k7/4P3/8/2s5/8/8/8/7K b - - 0 1")
    assert texts_from(pos, "c5") == {"c5b6", "c5a7", "c5b4", "c5a3", "c5d4", "c5e3", "c5f2",
                                     "c5g1", "c5d6", "c5e6,e6e7"}
    pos.push_text("c5e6,e6e7")
    assert fen6(pos) == "k7/4s3/4P3/8/8/8/8/7K w - - 0 2"


def test_R8_3_pushed_pawn_never_promotes():
    pos = P("k7/8/8/4s3/8/8/1P6/2N4K b - - 0 1")
    assert texts_from(pos, "e5") == {"e5d6", "e5c7", "e5b8", "e5f6", "e5g7", "e5h8", "e5f4",
                                     "e5g3", "e5h2", "e5d4", "e5c3", "e5b1,b1b2", "e5c1,c1b2"}
    pos.push_text("e5b1,b1b2")
    assert fen6(pos) == "k7/8/8/8/8/8/1s6/1PN4K w - - 0 2"
    assert texts_from(pos, "b1") == set()


def test_R8_4_pushed_jailer_moves_like_rook_to_empty_squares():
    pos = P("k7/8/3p4/8/3j2n1/8/1S6/7K w - - 0 1")
    assert texts_from(pos, "b2") == {"b2a1", "b2a3", "b2c1", "b2c3"} | pushes(
        "b2", "d4", ["d5", "d3", "d2", "d1", "c4", "b4", "a4", "e4", "f4"])


def test_R8_4_pushed_sentry_moves_like_bishop_without_pushing():
    # black sentry e3 pushed: bishop move to empty squares, stops before its own pawn g5
    pos = P("k7/8/8/6p1/8/4s3/8/2S4K w - - 0 1")
    assert texts_from(pos, "c1") == {"c1b2", "c1a3", "c1d2"} | pushes(
        "c1", "e3", ["f4", "f2", "g1", "d4", "c5", "b6", "a7", "d2", "c1"])


def test_R8_4_pushed_king_one_step_may_take_own_unit_may_go_into_check():
    # black king a2 pushed by the sentry d5: b2/b3 would touch the white king c3
    pos = P("8/8/8/3S4/8/p1K5/k7/7R w - - 0 1")
    assert texts_from(pos, "d5") == {"d5c6", "d5b7", "d5a8", "d5e6", "d5f7", "d5g8", "d5e4",
                                     "d5f3", "d5g2", "d5c4", "d5b3"} | pushes("d5", "a2", ["a1", "a3", "b1"])
    assert pos.san(pos.parse_move("d5a3,a3a2")) == "Sa2>Kxa3"
    assert pos.san(pos.parse_move("d5b1,b1a2")) == "Sa2>Kb1#"


def test_R8_5_pushed_lancer_along_facing_or_nudged():
    # black lancer e4 facing W: along the facing (jumping the white pawn c4, taking its own pawn b4)
    # or nudged to any empty neighbour; the nudge to f3 (facing SE) would check h1
    pos = P("k7/8/8/8/1pP1m3/8/2S5/7K w - - 0 1")
    assert texts_from(pos, "c2") == {"c2b1", "c2b3", "c2a4", "c2d1", "c2d3"} | pushes(
        "c2", "e4", ["d4", "b4", "d5", "e5", "f5", "f4", "d3", "e3"])
    pos.push_text("c2d5,d5e4")
    assert pos.fen() == "k7/8/8/3o4/1pP1S3/8/8/7K b - - 1 1 e4d5"
    pos.pop()
    pos.push_text("c2b4,b4e4")
    assert pos.fen() == "k7/8/8/8/1mP1S3/8/8/7K b - - 0 1 e4b4"


def test_P5_lancer_step_along_facing_equals_nudge():
    pos = P("k7/8/8/8/1pP1m3/8/2S5/7K w - - 0 1")
    assert len(pos.legal_moves()) == len(pos.legal_texts())
    pos.push_text("c2d4,d4e4")
    assert pos.piece_at("d4") == "m"


def test_R8_6_sentry_push_threat_is_check():
    # black sentry c2 could push the white rook e4 down the e-file onto the white king
    pos = P("k7/8/8/8/4R3/8/2s5/4K3 w - - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1f1", "e1f2",
                                 "e4e5", "e4e6", "e4e7", "e4e8", "e4e3", "e4e2",
                                 "e4a4", "e4b4", "e4c4", "e4d4", "e4f4", "e4g4", "e4h4"}


def test_R8_6_sentry_aiming_at_king_is_not_check():
    pos = P("k7/8/8/8/8/2s5/8/4K3 w - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}


def test_R8_6_push_that_threatens_king_gives_check():
    # after the push the sentry h6 can push the knight g7 onto the black king e8
    pos = P("4k3/6n1/7p/8/8/8/8/K1S5 w - - 0 1")
    mv = pos.parse_move("c1h7,h7h6")
    assert pos.san(mv) == "Sh6>h7+"
    pos.push(mv)
    assert pos.is_check()


def test_R8_7_pushed_slider_may_not_return_along_push_path():
    pos = P("4r3/8/7k/4S3/8/8/8/K7 b - - 1 1 e5e8")
    # (h8 is illegal: from there the sentry e5 could push the rook down onto the king)
    assert texts_from(pos, "e8") == {"e8a8", "e8b8", "e8c8", "e8d8", "e8f8", "e8g8"}
    full = {"e8a8", "e8b8", "e8c8", "e8d8", "e8f8", "e8g8", "e8e7", "e8e6", "e8e5"}
    assert texts_from(P("4r3/8/7k/4S3/8/8/8/K7 b - - 1 1"), "e8") == full
    play(pos, "h6h5", "a1a2")                      # the restriction lapses
    assert texts_from(pos, "e8") == full


def test_R8_7_pushed_knight_only_sentry_square_forbidden():
    pos = P("k7/8/8/4S3/8/5n2/8/K7 b - - 1 1 e5f3")
    assert texts_from(pos, "f3") == {"f3g5", "f3d4", "f3h4", "f3d2", "f3h2", "f3e1", "f3g1"}
    assert "f3e5" in P("k7/8/8/4S3/8/5n2/8/K7 b - - 1 1").legal_texts()


def test_R8_7_pushed_king_may_not_capture_sentry():
    pos = P("8/8/8/3S4/8/p1K5/k7/7R w - - 0 1")
    pos.push_text("d5a3,a3a2")                     # king takes its own pawn a3, sentry on a2
    assert pos.fen() == "8/8/8/8/8/k1K5/S7/7R b - - 0 1 a2a3"
    assert texts_from(pos, "a3") == {"a3a4"}      # a2 = sentry square; b2 b3 b4 touch c3


def test_R8_7_pawns_are_exempt():
    pos = P("7k/8/4b3/3p4/8/1S6/8/K7 w - - 0 1")
    pos.push_text("b3e6,e6d5")
    assert texts_from(pos, "e6") == {"e6e5", "e6d5"}


def test_R8_8_pushed_lancer_may_turn_then_move():
    # black lancer nudged e4->d5 (faces NW); on this move it may also turn first and keep the facing
    pos = P("8/8/8/3o4/4S2k/8/8/7K b - - 1 1 e4d5")
    turned = {"d5d6c", "d5d7c", "d5d8c", "d5e6d", "d5f7d", "d5g8d", "d5e5e", "d5f5e", "d5g5e",
              "d5h5e", "d5d4g", "d5d3g", "d5d2g", "d5d1g", "d5c4h", "d5b3h", "d5a2h", "d5c5m",
              "d5b5m", "d5a5m"}
    assert texts_from(pos, "d5") == lancer_texts("d5", ["c6", "b7", "a8"], "o") | turned
    pos.push_text("d5d8c")
    assert pos.fen() == "3c4/8/8/8/4S2k/8/8/7K w - - 2 2"


def test_R8_8_turn_must_change_the_facing():
    """R8.8 (P6 withdrawn): moving along the facing the pushed lancer already has is an ordinary
    lancer move (R3.2), so it may not end facing off the board."""
    restricted = P("8/8/8/3o4/4S2k/8/8/7K b - - 1 1 e4d5")
    plain = P("8/8/8/3o4/4S2k/8/8/7K b - - 1 1")
    ordinary = lancer_texts("d5", ["c6", "b7", "a8"], "o")
    assert texts_from(plain, "d5") == ordinary
    nw = {t for t in texts_from(restricted, "d5") if t[2:4] in ("c6", "b7", "a8")}
    assert nw == ordinary
    # The example: after the nudge b2c5,c5d4 the lancer on c5 faces NW; c5a7 would leave it
    # on a7 facing off the board.
    pos = P("4k3/8/8/8/3f4/8/1S4PP/6NK w - - 0 1")
    pos.push_text("b2c5,c5d4")
    assert pos.piece_at("c5") == "o"
    legal = pos.legal_texts()
    assert "c5a7" not in legal and "c5b6" in legal
    assert {t for t in legal if t.startswith("c5a7")} == {"c5a7c", "c5a7d", "c5a7e", "c5a7f", "c5a7g"}


def test_R8_9_pawn_arriving_on_new_square_resets_fifty_move_count():
    pos = P("4k3/6n1/7p/8/8/8/8/K1S5 w - - 7 20")
    pos.push_text("c1h7,h7h6")                     # pushed pawn arrives on h7: new square
    assert fen6(pos) == "4k3/6np/7S/8/8/8/8/K7 b - - 0 20"


def test_R8_9_pawn_returning_to_visited_square_does_not_reset():
    pos = P("7k/8/8/5s2/8/4P3/8/K7 w - - 10 30")
    halfmoves = []
    for t in ("e3e4", "f5e3,e3e4", "a1a2", "e4f5", "e3e4", "h8h7", "e4e5"):
        pos.push_text(t)
        halfmoves.append(pos.fen().split()[4])
    assert halfmoves == ["0", "1", "2", "3", "4", "5", "0"]


def test_R8_9_fifty_move_draw_after_100_plies():
    pos = P("7k/8/8/8/8/8/8/KJ6 w - - 99 80")
    assert pos.outcome() is None
    pos.push_text("a1a2")
    o = pos.outcome()
    assert (o.result, o.termination) == ("1/2-1/2", "fifty_moves")


def test_P1_pushed_unit_may_slide_across_sentry_origin():
    # black bishop f4 pushed by the sentry d2 may slide back over d2 (now empty) to c1
    pos = P("k7/8/8/8/5b2/8/3S4/7K w - - 0 1")
    assert texts_from(pos, "d2") == {"d2c1", "d2c3", "d2b4", "d2a5", "d2e1", "d2e3"} | pushes(
        "d2", "f4", ["g5", "h6", "e5", "d6", "c7", "b8", "g3", "h2", "e3", "d2", "c1"])
    pos.push_text("d2c1,c1f4")
    assert pos.fen() == "k7/8/8/8/5S2/8/8/2b4K b - - 1 1 f4c1"


def test_P8_repetition_search_crosses_pawn_moves():
    # the pawn e3-e4 is pushed back to e3: the position before the pawn move recurs
    pos = P("7k/8/8/5s2/8/4P3/8/K7 w - - 0 1")
    play(pos, "a1a2", "h8h7", "a2a1", "h7h8")      # 2nd occurrence
    play(pos, "e3e4", "f5e3,e3e4", "a1a2", "e4f5", "a2b1", "h8h7", "b1a1")
    assert pos.outcome() is None
    pos.push_text("h7h8")                          # 3rd occurrence
    assert outcome_termination(pos) == "threefold_repetition"


# ---------------------------------------------------------------- R11 notation

def test_R11_1_lancer_san():
    pos = Position(VARIANT)
    assert pos.san(pos.parse_move("b1e4")) == "Le4"
    assert pos.san(pos.parse_move("b1e4e")) == "Le4=e"
    assert pos.san(pos.parse_move("b1h7c")) == "Lxh7=n"
    assert pos.parse_san("Le4=e") == pos.parse_move("b1e4e")
    assert pos.parse_san("Le4") == pos.parse_move("b1e4")


def test_R11_1_push_san():
    pos = P("8/8/8/3S4/8/p1K5/k7/7R w - - 0 1")
    mv = pos.parse_move("d5a1,a1a2")
    assert pos.san(mv) == "Sa2>Ka1#"
    assert pos.parse_san("Sa2>Ka1#") == mv
    pos = P("k7/8/8/8/1pP1m3/8/2S5/7K w - - 0 1")
    assert pos.san(pos.parse_move("c2b4,b4e4")) == "Se4>Lxb4"
    pos = P("4k3/6n1/7p/8/8/8/8/K1S5 w - - 0 1")
    assert pos.san(pos.parse_move("c1g7,g7h6")) == "Sh6>xg7"
    assert pos.parse_san("Sh6>xg7") == pos.parse_move("c1g7,g7h6")


def test_R11_1_pass_san():
    pos = P("4k3/8/8/8/8/8/4j3/J3K2R w KQ - 0 1")
    assert pos.san(pos.parse_move("@@@@")) == "--"


# ---------------------------------------------------------------- seed: 8-piece-chess-rules.txt

def test_seed_single_major_piece_can_mate():
    """Along with their own king, any single moderate to major piece can checkmate a lone king."""
    for fen in ("7k/8/8/8/8/8/8/KJ6 w - - 0 1", "7k/8/8/8/8/8/8/KC6 w - - 0 1",
                "7k/8/8/8/8/8/8/KR6 w - - 0 1"):
        assert P(fen).outcome() is None, fen


def test_seed_jailer_slides_but_cannot_capture():
    """The jailer slides orthogonally like a rook, but it cannot capture."""
    pos = P("k7/8/3p4/8/1P1J1n2/8/8/7K w - - 0 1")
    assert texts_from(pos, "d4") == {"d4d5", "d4d3", "d4d2", "d4d1", "d4e4", "d4c4"}


def test_seed_jailer_holds_orthogonal_neighbours():
    """When it is directly next to/touching an enemy unit (horizontally or vertically), that enemy
    unit cannot move at all, nor can it capture."""
    pos = P("k7/8/8/3j4/3RR3/8/8/7K w - - 0 1")     # d4 touches d5; e4 is only diagonal
    assert texts_from(pos, "d4") == set()
    assert texts_from(pos, "e4") == {"e4e5", "e4e6", "e4e7", "e4e8", "e4e3", "e4e2", "e4e1",
                                     "e4f4", "e4g4", "e4h4"}


def test_seed_held_until_jailer_moves_away():
    """It is held in place until the jailer moves away or is captured."""
    pos = P("k7/8/8/3j4/3R4/8/8/7K b - - 0 1")
    pos.push_text("d5h5")
    assert texts_from(pos, "d4") == ({"d4d5", "d4d6", "d4d7", "d4d8", "d4d3", "d4d2", "d4d1",
                                      "d4c4", "d4b4", "d4a4", "d4e4", "d4f4", "d4g4", "d4h4"})


def test_seed_unit_stopping_on_hold_square_is_held():
    """If an enemy unit moves onto one of those 4 squares (orthogonally 1 square away from the
    jailer), then it is "held." Enemy units can still move "through" the hold squares- I am only
    referring to when it stops next to the jailer."""
    fen = "7k/8/3j4/R7/8/8/8/7K w - - 0 1"
    pos = P(fen)
    assert texts_from(pos, "a5") == {"a5a6", "a5a7", "a5a8", "a5a4", "a5a3", "a5a2", "a5a1",
                                     "a5b5", "a5c5", "a5d5", "a5e5", "a5f5", "a5g5", "a5h5"}
    play(pos, "a5d5", "h8g8")
    assert texts_from(pos, "d5") == set()
    pos = P(fen)
    play(pos, "a5h5", "h8g8")                       # passed through d5
    assert texts_from(pos, "h5") == {"h5h6", "h5h7", "h5h8", "h5h4", "h5h3", "h5h2",
                                     "h5g5", "h5f5", "h5e5", "h5d5", "h5c5", "h5b5", "h5a5"}


def test_seed_jailer_holds_up_to_four_units():
    """A jailer could potentially hold up to 4 enemy units at the same time"""
    pos = P("k7/8/3N4/2BjQ3/3R4/8/8/7K w - - 0 1")
    assert not pos.is_check()
    assert pos.legal_texts() == {"h1g1", "h1g2", "h1h2"}


def test_seed_castle_through_jailer_hold_square():
    """the opponent is still allowed to castle "through" a jailer's hold square i.e. if the Black
    jailer is on f2, White can still castle king-side (assuming all other castling conditions are
    met. Afterward the White rook on f1 would be "held")."""
    pos = P("4k3/8/8/8/8/8/5j2/4K2R w K - 0 1")
    assert "e1g1" in pos.legal_texts()
    play(pos, "e1g1", "e8e7")
    assert pos.piece_at("f1") == "R"
    assert texts_from(pos, "f1") == set()


def test_seed_no_castling_when_already_held():
    """However, a king and rook/jailer cannot castle if either is already held before the castle
    move."""
    assert texts_from(P("4k3/8/8/8/8/8/7j/4K2R w K - 0 1"), "e1") == {
        "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    assert texts_from(P("4k3/8/8/8/8/8/4j3/J3K2R w KQ - 0 1"), "e1") == set()


def test_seed_no_en_passant_hold():
    """a Black jailer on e3 does not prohibit a White pawn from moving from d2 to d4."""
    pos = P("k7/8/8/8/8/4j3/3P4/7K w - - 0 1")
    assert texts_from(pos, "d2") == {"d2d3", "d2d4", "d2e3"}


def test_seed_jailers_holding_each_other():
    """If a jailer holds the enemy jailer, then both are prohibited from moving until one of them is
    captured (or "pushed." Discussed in the sentry piece section)."""
    pos = P("k7/8/8/3j4/3J4/1S6/8/7K w - - 0 1")
    assert texts_from(pos, "d4") == set()
    assert texts_from(pos, "b3") == {"b3a4", "b3a2", "b3c2", "b3d1", "b3c4"} | pushes(
        "b3", "d5", ["d6", "d7", "d8", "e5", "f5", "g5", "h5", "c5", "b5", "a5"])
    play(pos, "b3h5,h5d5", "a8a7")
    assert texts_from(pos, "d4") == {"d4d3", "d4d2", "d4d1", "d4c4", "d4b4", "d4a4",
                                     "d4e4", "d4f4", "d4g4", "d4h4"}


def test_seed_stuck_jailers_still_hold_other_squares():
    """While jailers are "stuck" to each other, each jailer still exhibits hold control of the other
    three orthogonal squares like normal."""
    pos = P("k7/8/8/3j4/3Jr3/8/8/7K b - - 0 1")
    assert pos.legal_texts() == {"a8a7", "a8b7", "a8b8"}


def test_seed_pass_only_when_king_held():
    """when the jailer is holding the opponent's king, the opponent may "pass" as a legal move (you
    can only pass if the jailer is holding your king, not in any other situation)."""
    assert P("kJ6/7p/8/8/8/8/8/7K b - - 0 1").legal_texts() == {"@@@@", "h7h6", "h7h5"}
    assert "@@@@" not in P("k1J5/7p/8/8/8/8/8/7K b - - 0 1").legal_texts()


def test_seed_king_and_jailer_mate_lone_king():
    """This means that a king+jailer can checkmate a lone king. In that scenario the winning King
    would deliver the checkmate since it can move directly next to the opponent's king (which cannot
    move at all)."""
    pos = P("3Jk3/8/4K3/8/8/8/8/8 w - - 0 1")
    assert texts_from(pos, "e6") == {"e6d5", "e6e5", "e6f5", "e6d6", "e6f6", "e6d7", "e6e7", "e6f7"}
    pos.push_text("e6d6")
    assert pos.legal_texts() == {"@@@@"}
    pos = P("3Jk3/8/4K3/8/8/8/8/8 w - - 0 1")
    mv = pos.parse_move("e6e7")
    assert pos.san(mv) == "Ke7#"
    pos.push(mv)
    o = pos.outcome()
    assert (o.result, o.winner, o.termination) == ("1-0", "w", "checkmate")


def test_seed_jailer_castles_like_rook():
    """A jailer can be part of a castle move just like the rook. The same rules and condition apply
    for Queen's side (0-0-0) castling as one would need for the King's side (0-0) castling."""
    pos = P("4k3/8/8/8/8/8/8/J3K2R w KQ - 0 1")
    pos.push_text("e1c1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/2KJ3R b - - 1 1"
    assert texts_from(P("3rk3/8/8/8/8/8/8/J3K2R w KQ - 0 1"), "e1") == {
        "e1e2", "e1f1", "e1f2", "e1g1"}


def test_seed_jailer_does_not_pin():
    """Above, the bishop is not actually pinned because jailers cannot capture."""
    pos = P("4j2k/8/8/8/8/8/4B3/4K3 w - - 0 1")
    assert texts_from(pos, "e2") == {"e2d1", "e2f1", "e2d3", "e2c4", "e2b5", "e2a6",
                                     "e2f3", "e2g4", "e2h5"}


def test_seed_lancer_begins_facing_diagonally_inward():
    """The lancer begins the game facing diagonally inward"""
    pos = Position(VARIANT)
    assert (pos.piece_at("b1"), pos.piece_at("b8")) == ("D", "f")


def test_seed_lancer_jumps_friendly_units_up_to_first_enemy():
    """It moves by "jumping" straight forward - over multiple friendly units if desired - in the
    direction that it is facing. It can move to any available square that it is facing up to and
    including the first enemy unit in that direction. It cannot jump over an enemy unit or land on
    any square beyond that first enemy unit."""
    pos = P("7k/3n4/3p4/8/8/3P4/3P4/3C3K w - - 0 1")
    assert texts_from(pos, "d1") == lancer_texts("d1", ["d4", "d5", "d6"], "c")


def test_seed_lancer_turns_after_landing():
    """After it lands on an empty square or captures a unit, as part of the same move, the player can
    turn the lancer to one of the other 7 primary directions - or may leave the lancer facing the
    same direction it just moved."""
    pos = P("7k/8/8/8/8/8/8/C1K5 w - - 0 1")
    assert {t for t in texts_from(pos, "a1") if t.startswith("a1a4")} == {
        "a1a4", "a1a4d", "a1a4e", "a1a4f", "a1a4g"}


def test_seed_lancer_no_turn_without_moving():
    """A player may not turn a lancer without moving it first."""
    pos = P("7k/8/8/8/M7/8/8/4K3 w - - 0 1")
    assert texts_from(pos, "a4") == set()


def test_seed_lancer_turns_on_hold_square_before_held():
    """If a player moves his or her lancer onto an enemy jailer's "hold" square, then that player is
    still allowed to turn the lancer (finishing the move) to face the desired direction before it
    becomes "held" by that enemy jailer."""
    pos = P("k7/8/8/8/8/1j6/8/D6K w - - 0 1")
    assert texts_from(pos, "a1") == lancer_texts(
        "a1", ["b2", "c3", "d4", "e5", "f6", "g7", "h8"], "d")
    play(pos, "a1b2c", "a8a7")
    assert pos.piece_at("b2") == "C"
    assert texts_from(pos, "b2") == set()


def test_seed_lancer_takes_e5_and_turns_south_with_check():
    """In the above example, the Black lancer is currently facing "southeast." It can take the pawn
    on e5 and then turn south, putting the White king in check."""
    pos = P("1f2k3/2p2p2/8/4P3/8/5Q2/8/4K3 b - - 0 1")
    assert texts_from(pos, "b8") == lancer_texts("b8", ["d6", "e5"], "f")
    mv = pos.parse_move("b8e5g")
    assert pos.san(mv) == "Lxe5=s+"
    pos.push(mv)
    assert pos.is_check()
    assert pos.fen() == "4k3/2p2p2/8/4g3/8/5Q2/8/4K3 w - - 0 2"


def test_seed_sentry_slides_and_pushes_not_captures():
    """The sentry slides diagonally like a bishop, but its interaction with enemy units is called a
    "push" and not a capture."""
    pos = P("4k3/6n1/7p/8/8/8/8/K1S5 w - - 0 1")
    assert texts_from(pos, "c1") == {"c1b2", "c1a3", "c1d2", "c1e3", "c1f4", "c1g5",
                                     "c1h7,h7h6", "c1g7,g7h6"}
    pos.push_text("c1h7,h7h6")
    assert (pos.piece_at("h6"), pos.piece_at("h7")) == ("S", "p")


def test_seed_sentry_owner_moves_pushed_unit_by_its_rules():
    """It slides up to an enemy unit and then occupies that square. Then the owner of the sentry, to
    complete the turn, moves the enemy unit according to that unit's normal movement/capture rules."""
    pos = P("7k/3p4/8/4n3/8/2S2P2/8/K7 w - - 0 1")
    assert {t for t in pos.legal_texts() if "," in t} == pushes(
        "c3", "e5", ["d7", "f7", "c6", "g6", "c4", "g4", "d3"])


def test_seed_pushed_unit_captures_own_unit():
    """if that particular enemy unit is a "capturing" type (pawn, knight, bishop, lancer, rook,
    queen, or king) it can actually be pushed to capture one of its own units."""
    pos = P("7k/3p4/8/4n3/8/2S2P2/8/K7 w - - 0 1")
    pos.push_text("c3d7,d7e5")
    assert pos.fen() == "7k/3n4/8/4S3/8/5P2/8/K7 b - - 0 1 e5d7"


def test_seed_push_never_captures_own_units():
    """For this reason a player may not use the sentry's push abilities to capture his or her own
    units."""
    pos = P("7k/3p4/8/4n3/8/2S2P2/8/K7 w - - 0 1")
    assert "c3f3,f3e5" not in pos.legal_texts()
    assert "c3d7,d7e5" in pos.legal_texts()


def test_seed_pushed_piece_may_not_return_toward_sentry():
    """The square it just got pushed from and all the squares it just got pushed through, are
    off-limits on the very next move."""
    pos = P("8/8/7k/4r3/8/2S5/8/K7 w - - 0 1")
    pos.push_text("c3e8,e8e5")
    assert texts_from(pos, "e8") == {"e8a8", "e8b8", "e8c8", "e8d8", "e8f8", "e8g8"}


def test_seed_pushed_knight_only_sentry_square_forbidden():
    """As for knights, "back in the direction of the sentry" only refers to the square it just moved
    off of... all squares the usual L shape away from the knight are legal to move to after being
    pushed, except where the enemy sentry now resides."""
    pos = P("k7/8/8/4n3/8/2S5/8/K7 w - - 0 1")
    pos.push_text("c3f3,f3e5")
    assert texts_from(pos, "f3") == {"f3g5", "f3d4", "f3h4", "f3d2", "f3h2", "f3e1", "f3g1"}


def test_seed_king_pushed_into_check_onto_a1_is_mated():
    """Above, the sentry just pushed the king into check from a2 onto a1, and since the king cannot
    legally move back to the sentry's square, it is checkmated."""
    pos = P("8/8/8/3S4/8/p1K5/k7/7R w - - 0 1")
    pos.push_text("d5a1,a1a2")
    assert pos.fen() == "8/8/8/8/8/p1K5/S7/k6R b - - 1 1 a2a1"
    assert pos.is_check()
    assert pos.legal_texts() == set()
    o = pos.outcome()
    assert (o.result, o.winner, o.termination) == ("1-0", "w", "checkmate")


def test_seed_pushed_pawn_moves_other_direction():
    """When a sentry pushes a pawn, it acts as a pawn of the same color as the sentry. This means it
    temporarily moves the other direction, as if it belongs to that sentry's owner"""
    pos = P("k7/4P3/8/2s5/8/8/8/7K b - - 0 1")
    assert {t for t in pos.legal_texts() if "," in t} == {"c5e6,e6e7"}


def test_seed_pushed_pawn_takes_bishop_then_recaptures_sentry():
    """Above, White can take the bishop by pushing the pawn to attack diagonally. Afterward, Black is
    allowed to recapture the sentry with that very same pawn, because pawns are exempt from the rule
    by which pushed pieces cannot immediately move or capture toward the sentry."""
    pos = P("7k/8/4b3/3p4/8/1S6/8/K7 w - - 0 1")
    assert texts_from(pos, "b3") == {"b3a4", "b3a2", "b3c2", "b3d1", "b3c4"} | pushes(
        "b3", "d5", ["d6", "e6"])
    pos.push_text("b3e6,e6d5")
    assert fen6(pos) == "7k/8/4p3/3S4/8/8/8/K7 b - - 0 1"
    assert texts_from(pos, "e6") == {"e6e5", "e6d5"}
    pos.push_text("e6d5")
    assert fen6(pos) == "7k/8/8/3p4/8/8/8/K7 w - - 0 2"


def test_seed_pawn_two_squares_from_first_or_second_rank_any_time():
    """A pawn may move either 1 or 2 squares straight forward if it is on the 1st or the 2nd rank (it
    does not necessarily have to be its first move)."""
    pos = P("7k/8/8/5s2/8/8/3P4/K7 w - - 0 1")
    play(pos, "d2d3", "f5d2,d2d3", "a1a2", "d3f5")  # pawn pushed back to d2, sentry leaves
    assert texts_from(pos, "d2") == {"d2d3", "d2d4"}


def test_seed_en_passant_after_two_squares_from_back_rank():
    """Regarding the back rank: en passant capture still applies if a pawn moves 2 squares forward
    from the 1st rank/back rank."""
    pos = P("4k3/8/8/8/8/3p4/8/K1P5 w - - 0 1")
    pos.push_text("c1c3")
    assert "d3c2" in pos.legal_texts()
    pos.push_text("d3c2")
    assert pos.fen() == "4k3/8/8/8/8/8/2p5/K7 w - - 0 2"


def test_seed_sentry_never_pushes_pawn_two_squares():
    """A sentry can never push a pawn two squares, regardless of where the enemy pawn is."""
    # white pawn e7 stands on Black's second rank; pushed as a black pawn it still moves one square
    pos = P("k7/4P3/8/2s5/8/8/8/7K b - - 0 1")
    assert "c5e5,e5e7" not in pos.legal_texts()
    assert "c5e6,e6e7" in pos.legal_texts()


def test_seed_pushed_jailer_captures_nothing_holds_no_friend():
    """If a sentry pushes an enemy jailer, that jailer cannot be pushed to capture any units. ... It
    also does not "hold" any friendly unit, since after the disorientation/push it becomes like a
    regular jailer again for the enemy (not affecting its own friendly units)."""
    pos = P("k7/8/8/8/3j2n1/5R2/1S6/7K w - - 0 1")
    assert {t for t in texts_from(pos, "b2") if "," in t} == pushes(
        "b2", "d4", ["d5", "d6", "d7", "d8", "d3", "d2", "d1", "c4", "b4", "a4", "e4", "f4"])
    pos.push_text("b2f4,f4d4")                      # black jailer now beside its knight g4 and the rook f3
    assert texts_from(pos, "g4") == {"g4e3", "g4e5", "g4f2", "g4f6", "g4h2", "g4h6"}
    pos.push_text("g4h6")
    assert texts_from(pos, "f3") == set()


def test_seed_pushed_sentry_slides_only():
    """if a sentry pushes an enemy sentry, it would only be sliding it diagonally to an empty square
    and the enemy sentry does not push (or capture) any other units"""
    pos = P("k7/8/8/6p1/8/4s3/8/2S4K w - - 0 1")
    assert {t for t in texts_from(pos, "c1") if "," in t} == pushes(
        "c1", "e3", ["f4", "f2", "g1", "d4", "c5", "b6", "a7", "d2", "c1"])


def test_seed_pushed_lancer_two_options():
    """When a sentry pushes a lancer, the sentry's owner (i.e. Player A) has TWO basic options: to
    move the lancer in the direction it was facing as if the lancer belongs to him/her, OR Player A
    can push the lancer to any EMPTY adjacent square: called a "nudge.\""""
    pos = P("k7/8/8/8/1pP1m3/8/2S5/7K w - - 0 1")
    assert {t for t in pos.legal_texts() if "," in t} == pushes(
        "c2", "e4", ["d4", "b4", "d5", "e5", "f5", "f4", "d3", "e3"])
    pos.push_text("c2e5,e5e4")
    assert pos.piece_at("e5") == "c"                # nudged north: faces north


def test_seed_pushed_lancer_owner_three_options():
    """Player B then has three options immediately: 1. leaves the lancer as-is and moves a different
    unit. 2. moves the lancer in the same direction it just got pushed, and then turns the lancer (if
    desired) to complete the move. 3. turns the lancer, then moves the lancer in the new direction
    without turning it afterward"""
    pos = P("8/8/8/3o4/4S2k/8/8/7K b - - 1 1 e4d5")
    legal = pos.legal_texts()
    assert {"h4g3", "h4g4", "h4g5", "h4h3", "h4h5"} <= legal          # option 1
    assert {"d5b7", "d5b7e", "d5b7g"} <= legal                       # option 2
    assert {"d5d1g", "d5h5e"} <= legal                               # option 3
    assert "d5h5c" not in legal and "d5d1e" not in legal             # no turn after option 3


def test_seed_pushed_lancer_jumps_over_king_and_sentry_colour_units():
    """during the push of a lancer, the lancer should be considered the same color as the sentry.
    This means it can jump over units of the sentry's color: ... one way that White can get out of
    check is by pushing the lancer over the king and other White units ... White could have "nudged"
    the lancer to g2 aiming northwest or pushed it to the empty h2 square aiming north."""
    pos = P("4k3/8/8/8/8/5S2/8/1N1K3m w - - 0 1")
    assert pos.is_check()
    assert pos.legal_texts() == {"d1c2", "d1d2", "d1e2"} | pushes("f3", "h1", ["c1", "a1", "g2", "h2"])
    pos.push_text("f3a1,a1h1")
    assert pos.fen() == "4k3/8/8/8/8/8/8/mN1K3S b - - 1 1 h1a1"
    assert texts_from(pos, "a1") == ({f"a1a{r}c" for r in range(2, 9)}
                                     | {"a1b2d", "a1c3d", "a1d4d", "a1e5d", "a1f6d", "a1g7d", "a1h8d"})


def test_seed_nudge_cannot_capture():
    """A sentry can nudge the lancer to any empty surrounding square (only one square away) but
    cannot capture in this manner."""
    pos = P("k7/8/8/5p2/1pP1m3/8/2S5/7K w - - 0 1")   # black pawn f5 beside the lancer
    assert {t for t in pos.legal_texts() if "," in t} == pushes(
        "c2", "e4", ["d4", "b4", "d5", "e5", "f4", "d3", "e3"])


def test_seed_pushed_lancer_may_not_turn_back_toward_knight():
    """In the situation above, the lancer is not allowed to turn back toward the knight because of
    the rule about not moving immediately back toward the sentry after a push."""
    pos = P("4k3/8/8/8/8/8/8/mN1K3S b - - 1 1 h1a1")
    assert not any(t.startswith("a1b1") or t.startswith("a1c1") for t in pos.legal_texts())


def test_seed_sentry_never_pinned_by_piece_it_could_push():
    """A final note about sentries: they are never considered "pinned" by a piece they could capture
    by pushing"""
    # sentry c3 stands between its king a1 and the black bishop e5: it may push the bishop away
    pos = P("k7/8/8/4b3/8/2S5/8/K7 w - - 0 1")
    assert texts_from(pos, "c3") == {"c3b2", "c3d4"} | pushes(
        "c3", "e5", ["f6", "g7", "h8", "d6", "c7", "b8", "f4", "g3", "h2"])   # not d4 c3 b2


def test_seed_sentry_alone_cannot_prevent_castling():
    """Sentries' cannot directly prevent the opponent from castling with its push ability alone
    (aiming directly at the king for example), unless its push-to-capture ability threatens one of
    the squares the king moves through during a castle."""
    assert "e1g1" in P("4k3/8/8/8/1s6/8/8/4K2R w K - 0 1").legal_texts()
    assert "e1g1" not in P("4k3/8/8/7s/8/8/4P3/4K2R w K - 0 1").legal_texts()


def test_seed_rook_moves():
    """The rook slides orthogonally as many squares as one wants, assuming a friendly unit is not in
    the way. It can slide up to an enemy unit and capture it, then occupies the enemy unit's former
    square."""
    assert texts_from(P("k7/8/8/3p4/8/8/3R1P2/7K w - - 0 1"), "d2") == {
        "d2d3", "d2d4", "d2d5", "d2d1", "d2c2", "d2b2", "d2a2", "d2e2"}


def test_seed_knight_leaps():
    """The knight is a "leaping" piece that can jump over any units, friendly or enemy. ...
    Available squares are either empty or occupied by an enemy unit, which it can capture."""
    assert texts_from(P("k7/8/8/8/8/p7/PPP5/1N5K w - - 0 1"), "b1") == {"b1a3", "b1c3", "b1d2"}


def test_seed_bishop_moves():
    """The bishop slides diagonally as many squares as one wants, assuming a friendly unit is not in
    the way. It can slide up to an enemy unit and capture it"""
    assert texts_from(P("k7/8/8/8/8/2p5/8/B6K w - - 0 1"), "a1") == {"a1b2", "a1c3"}
    assert texts_from(P("k7/8/8/8/8/2P5/8/B6K w - - 0 1"), "a1") == {"a1b2"}


def test_seed_queen_moves():
    """The queen has movement that combines the power of rook and bishop."""
    assert texts_from(P("7k/8/8/8/8/8/1P6/Q6K w - - 0 1"), "a1") == (
        {f"a1a{r}" for r in range(2, 9)} | {"a1b1", "a1c1", "a1d1", "a1e1", "a1f1", "a1g1"})


def test_seed_king_moves():
    """The king can move one square in any direction and captures the same way."""
    assert texts_from(P("k4r2/8/8/8/3p4/4K3/8/8 w - - 0 1"), "e3") == {
        "e3d2", "e3e2", "e3d3", "e3d4", "e3e4"}


def test_seed_held_king_may_pass():
    """If a king is held by a jailer, then the player whose king is being held may pass as a legal
    move."""
    pos = P("k7/8/8/8/8/8/8/Kj6 w - - 0 1")           # white king a1 held by the jailer b1
    assert pos.legal_texts() == {"@@@@"}
    pos.push_text("@@@@")
    assert pos.fen().split()[:2] == ["k7/8/8/8/8/8/8/Kj6", "b"]


def test_seed_king_mates_held_king_from_bordering_square():
    """A king can deliver checkmate (on a bordering square from the mated king) if the mated king is
    being held by his or her jailer."""
    pos = P("3Jk3/8/4K3/8/8/8/8/8 w - - 0 1")
    pos.push_text("e6d7")
    assert pos.is_check()
    assert outcome_termination(pos) == "checkmate"


def test_seed_pushed_units_may_not_move_back_but_pawns_may():
    """Pieces and pawns can be pushed away from their square by the enemy sentry, and if they are
    pushed, they may not immediately move to any square that is back in the direction of the sentry
    ... This rule that prohibits immediately moving toward the sentry does not apply to pawns; pawns
    can immediately capture the sentry if they were just pushed diagonally to capture something."""
    pos = P("k7/8/8/8/5b2/8/3S4/7K w - - 0 1")
    pos.push_text("d2c1,c1f4")                      # bishop pushed f4 -> c1 over e3 d2
    assert texts_from(pos, "c1") == {"c1b2", "c1a3"}
    pos = P("7k/8/4b3/3p4/8/1S6/8/K7 w - - 0 1")
    pos.push_text("b3e6,e6d5")
    assert "e6d5" in pos.legal_texts()


def test_seed_promotion_to_any_non_king_piece_lancer_turned():
    """Pawns may promote to any non-king piece from this game, and if it promotes to a lancer, that
    player may turn the lancer to any of the 8 major directions to complete the move."""
    pos = P("8/1P6/8/7k/8/8/8/K7 w - - 0 1")
    promos = {t[4:] for t in texts_from(pos, "b7")}
    assert promos == {"q", "r", "b", "n", "j", "s", "e", "f", "g", "h", "m"}   # facings onto the board


def test_seed_fifty_move_rule_pawn_back_and_forth_no_reset():
    """This means if a pawn moves forward, then is pushed backward by the enemy sentry, and then
    moves forward again to the same square, it does not count as a "reset" of the 50 moves."""
    pos = P("7k/8/8/5s2/8/4P3/8/K7 w - - 10 30")
    play(pos, "e3e4", "f5e3,e3e4", "a1a2", "e4f5")
    assert pos.fen().split()[4] == "3"
    pos.push_text("e3e4")
    assert pos.fen().split()[4] == "4"


def test_R4_2_held_sentry_threatens_nothing():
    # the black sentry h5 (held by J h4) cannot push the pawn e2: castling is free again
    pos = P("4k3/8/8/7s/7J/8/4P3/J3K2R w KQ - 0 1")
    assert texts_from(pos, "e1") == {"e1d1", "e1d2", "e1f1", "e1f2", "e1g1", "e1c1"}


def test_R8_8_pushed_lancer_turn_threat_makes_push_illegal():
    # after a push the black lancer may turn and move (R8.8): any landing square from which it could
    # turn towards the king h5 (d5 e5 f5 f3) is illegal; c4 (passed through) and e4 (sentry) block
    pos = P("k7/8/8/7K/1pP1m3/8/2S5/8 w - - 0 1")
    assert texts_from(pos, "c2") == {"c2b1", "c2b3", "c2a4", "c2d1", "c2d3"} | pushes(
        "c2", "e4", ["d4", "b4", "f4", "e3", "d3"])


def test_R8_7_push_forbidden_squares_name_the_restriction():
    pos = P("k7/8/8/8/5r2/8/8/2S1K3 w - - 0 1")
    pos.push_text("c1f8,f8f4")                     # rook pushed f4 -> f8 (the sentry now on f4)
    assert pos.push_forbidden_squares() == ["f4", "f5", "f6", "f7"]
    pos.push_text("a8b8")
    assert pos.push_forbidden_squares() == []      # the restriction lapses after that move
    pos = P("k7/8/8/8/5n2/8/8/2S1K3 w - - 0 1")
    pos.push_text("c1d5,d5f4")                     # knight: only the sentry's square
    assert pos.push_forbidden_squares() == ["f4"]
    pos = P("k7/8/8/8/5p2/8/8/2S1K3 w - - 0 1")
    pos.push_text("c1f5,f5f4")                     # a pushed pawn has no restriction
    assert pos.push_forbidden_squares() == []
