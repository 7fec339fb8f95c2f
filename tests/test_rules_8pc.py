"""Named rule tests of 8 Player Chess (issue 13).

Rule text: the 8 Player Chess article (tests ``test_text_*``, named after its sentences);
rulings: docs/EIGHT_PLAYER_RULES.md (tests ``test_E*``).  Where the text leaves a choice and the core made
a reading (xboard_engine/multi/game.py), the test's docstring names the reading.

Positions are built with ``eightplayer_helpers.position_text``: a few units, the seats in the game
(``active``, colour letters) with their kings on their start squares unless placed, every other
seat out.  Seats: 0 White w, 1 Red r, 2 Blue b, 3 Yellow y, 4 Purple p, 5 Orange o, 6 Green g,
7 Black n.

Recurring set-ups (checked by the tests that use them):

* RED_MATE: White rooks b4 and d11; ``Ra11`` mates the Red king a7 (b4 covers b6-b8, the a-file rook
  covers a8 and, through the king, a6).
* RED_STALEMATE: Red king a4 (its neighbours are only a5, b4, b5: a3 and b3 are holes); ``Qc5`` from
  c10 covers all three without check.
* YELLOW_MATE: White rook k23 covers rank 23; ``Rd24`` from d20 checks the Yellow king g24 along
  rank 24 (f24, and h24 through the king).  Red and Blue move before Yellow: the mate waits (E4.1).
"""
import random
import re
from typing import Dict, List, Optional

import pytest

from eightplayer_helpers import (B, G, LETTERS, N, O, P, R, START_TEXT, V, W, Y, make_game,
                                 make_position, name, play_all, position_text, sq, targets, texts)
from xboard_engine.core.errors import (IllegalMoveError, InvalidFenError, RulesError)
from xboard_engine.core.moves import CASTLE, EP, Move
from xboard_engine.multi.game import MODES, OPTION_NAMES, Game, InvalidSeatError, RulesOptionError
from xboard_engine.multi.position import MultiPosition

RED_MATE = {"b4": "wR", "d11": "wR"}
RED_STALEMATE = {"a4": "rK", "c10": "wQ"}
YELLOW_MATE = {"k23": "wR", "d20": "wR"}
SEATS = range(8)


# ====================================================================== E1 the board

def test_E1_board_has_516_squares_on_a_24_by_24_grid():
    assert (V.files, V.ranks) == (24, 24)
    assert len(V.squares) == 516
    assert len(V.by_name) == 516


@pytest.mark.parametrize("hole", ["a1", "c3", "v1", "x3", "a24", "c22", "x24", "v22", "l1", "m3", "l24",
                                  "m22", "a12", "c13", "x12", "v13"])
def test_E1_corners_and_side_notches_are_not_squares(hole):
    assert hole not in V.by_name


@pytest.mark.parametrize("square", ["d1", "k1", "n1", "u1", "a4", "a11", "a14", "a21", "d24", "u24", "x4",
                                    "x21", "d12", "u13", "l12", "m13", "l4", "m21", "c11", "c14"])
def test_E1_arms_and_centre_are_squares(square):
    assert square in V.by_name


# ====================================================================== E2 armies

ARMIES = {  # seat: (back line from the owner's left, king square, a pawn square)
    W: (["d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1"], "h1", "h2"),
    R: (["a11", "a10", "a9", "a8", "a7", "a6", "a5", "a4"], "a7", "b7"),
    B: (["a21", "a20", "a19", "a18", "a17", "a16", "a15", "a14"], "a17", "b17"),
    Y: (["k24", "j24", "i24", "h24", "g24", "f24", "e24", "d24"], "g24", "g23"),
    P: (["u24", "t24", "s24", "r24", "q24", "p24", "o24", "n24"], "q24", "q23"),
    O: (["x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21"], "x18", "w18"),
    G: (["x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11"], "x8", "w8"),
    N: (["n1", "o1", "p1", "q1", "r1", "s1", "t1", "u1"], "r1", "r2"),
}


@pytest.mark.parametrize("seat", SEATS)
def test_E2_each_army_is_RNBQKBNR_from_its_owners_left_with_pawns_in_front(seat):
    pos = MultiPosition()
    back, king, pawn = ARMIES[seat]
    letter = LETTERS[seat]
    assert [pos.piece_at(s) for s in back] == [letter + k for k in "RNBQKBNR"]
    assert pos.kings[seat] == sq(king)
    forward = V.seats[seat].forward
    assert all(pos.board[sq(s) + forward] == seat * 8 + 1 for s in back)
    assert pos.piece_at(pawn) == letter + "P"
    assert len(pos.units[seat]) == 16


def test_E2_colours_letters_and_numerals_of_the_seats():
    assert [s.colour for s in V.seats] == ["White", "Red", "Blue", "Yellow", "Purple", "Orange", "Green",
                                            "Black"]
    assert "".join(s.letter for s in V.seats) == "wrbypogn"
    assert [s.numeral for s in V.seats] == ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii"]


# ====================================================================== E3.1 turns

def test_E3_1_the_game_starts_with_white_and_goes_clockwise_through_the_texts_examples():
    """The text's notation examples are each army's first move, in turn order."""
    g = Game(seed=1)
    examples = ["1 w. h3", "1 r. c7", "1 b. c17", "1 y. g22", "1 p. q22", "1 o. v18", "1 g. v8", "1 n. r3"]
    for seat, text in enumerate(examples):
        assert g.turn == seat
        g.play_text(text)
    assert g.turn == W
    assert g.record().splitlines()[-8:] == examples


def test_text_roman_numeral_indication_plays_the_same_moves():
    g = Game(seed=1)
    for text in ["1 i. h3", "1 ii. c7", "1 iii. c17", "1 iv. g22", "1 v. q22", "1 vi. v18", "1 vii v8",
                 "1 viii. r3"]:
        g.play_text(text)
    assert g.record(numerals=True).splitlines()[-2:] == ["1 vii. v8", "1 viii. r3"]
    assert g.record(numerals=True).splitlines()[-8] == "1 i. h3"


def test_E3_1_eliminated_players_are_skipped_in_turn_order():
    g = make_game({"d5": "wR"}, active="wbpogn")          # Red and Yellow are out
    assert g.turn == W
    g.play_text("Kh2")
    assert g.turn == B
    g.play_text("Kb17")
    assert g.turn == P
    assert [g.position.next_seat(s) for s in (P, O, G, N)] == [O, G, N, W]


def test_E3_1_a_player_eliminated_in_play_loses_its_turns():
    g = make_game(RED_MATE, active="wrb")
    g.play_text("Ra11")
    assert g.status(R) == "checkmated"
    assert g.turn == B
    g.play_text("Kb17")
    assert g.turn == W


def test_E3_1_sets_are_numbered_in_the_record():
    g = Game(seed=2)
    play_all(g, ["h3", "c7", "c17", "g22", "q22", "v18", "v8", "r3", "h4"])
    assert g.record().splitlines()[-1] == "2 w. h4"


# ====================================================================== E3.2 moves and enemies

def test_E3_2_pieces_move_as_in_chess_knight_bishop_rook_queen_king():
    pos = make_position({"l12": "wN", "h8": "wB", "p8": "wR", "p16": "wQ"}, active="w")
    assert targets(pos, "l12") == {"m14", "n13", "n11", "m10", "k10", "j11", "j13", "k14"}
    assert {"g7", "d4", "i9", "k11", "e11", "d12"} <= targets(pos, "h8")
    assert "h9" not in targets(pos, "h8")
    assert {"p1", "p7", "o8", "i8", "x8"} <= targets(pos, "p8") and "q9" not in targets(pos, "p8")
    assert {"p24", "d16", "x16", "u21", "m13"} <= targets(pos, "p16")
    assert targets(pos, "h1") == {"g1", "i1", "g2", "h2", "i2"}


def test_E3_2_holes_stop_sliding_pieces():
    pos = make_position({"d12": "wR"}, active="w")
    assert "c12" not in targets(pos, "d12") and "c11" not in targets(pos, "d12")
    assert {"d4", "d24", "u12"} <= targets(pos, "d12")
    assert "v12" not in targets(pos, "d12")


@pytest.mark.parametrize("seat", SEATS)
def test_E3_2_in_singles_every_other_player_is_an_enemy(seat):
    """A rook of ``seat`` on l12 may capture a unit of every other seat on the l-file or rank 12."""
    others = [s for s in SEATS if s != seat]
    spots = ["l14", "l10", "n12", "j12", "l16", "l6", "q12"]
    units = {spot: LETTERS[o] + "P" for spot, o in zip(spots, others)}
    units["l12"] = LETTERS[seat] + "R"
    pos = make_position(units, turn=LETTERS[seat])
    assert {"l14", "l10", "n12", "j12"} <= targets(pos, "l12")


def test_E3_2_in_pairs_and_teams_a_teammates_pieces_cannot_be_captured():
    units = {"l12": "wR", "l14": "pP", "l10": "bP", "n12": "rP"}
    pairs = Game("pairs", position=position_text(units), seed=1)
    assert targets(pairs.position, "l12") >= {"l10", "n12"} and "l14" not in targets(pairs.position, "l12")
    teams = Game("teams", position=position_text(units), seed=1)
    assert "l14" not in targets(teams.position, "l12") and "l10" not in targets(teams.position, "l12")
    assert "n12" in targets(teams.position, "l12")


# ====================================================================== E3.3 pawns

def _pawn_probe(seat: int) -> Dict[str, object]:
    """A pawn of ``seat`` in the middle, enemies on both forward diagonals and both backward ones."""
    middle = sq("l12")
    seat_data = V.seats[seat]
    f = seat_data.forward
    caps = seat_data.captures
    enemy = LETTERS[(seat + 1) % 8]
    units = {"l12": LETTERS[seat] + "P"}
    for c in caps:
        units[name(middle + c)] = enemy + "N"          # capturable forward diagonals
        units[name(middle - c)] = enemy + "N"          # backward diagonals: never captured
    expect = {name(middle + f)} | {name(middle + c) for c in caps}
    return {"units": units, "expect": expect, "seat": seat}


@pytest.mark.parametrize("seat", SEATS)
def test_E3_3_pawn_directions_of_all_eight_armies(seat):
    """One step toward the opposite edge, captures one step diagonally forward, never backward."""
    probe = _pawn_probe(seat)
    pos = make_position(probe["units"], turn=LETTERS[seat])
    assert targets(pos, "l12") == probe["expect"]


@pytest.mark.parametrize("seat", SEATS)
def test_E3_3_pawns_step_one_or_two_from_their_starting_line(seat):
    pos = MultiPosition()
    pos.turn = seat
    pawn = ARMIES[seat][2]
    f = V.seats[seat].forward
    assert targets(pos, pawn) == {name(sq(pawn) + f), name(sq(pawn) + 2 * f)}


def test_E3_3_the_double_step_needs_both_squares_empty():
    pos = make_position({"h2": "wP", "h4": "rN", "e2": "wP", "e3": "rN"}, active="wr")
    assert targets(pos, "h2") == {"h3"}
    assert targets(pos, "e2") == set()


def test_E3_3_no_double_step_off_the_starting_line():
    pos = make_position({"h3": "wP"}, active="w")
    assert targets(pos, "h3") == {"h4"}


PROMOTION = {  # seat: (a pawn one step before its 11th line, the square it promotes on)
    W: ("e10", "e11"), R: ("j6", "k6"), B: ("j17", "k17"), Y: ("g15", "g14"),
    P: ("q15", "q14"), O: ("o18", "n18"), G: ("o8", "n8"), N: ("r10", "r11"),
}


@pytest.mark.parametrize("seat", SEATS)
def test_E3_3_promotion_on_the_owners_11th_line_all_eight_armies(seat):
    frm, to = PROMOTION[seat]
    letter = LETTERS[seat]
    pos = make_position({frm: letter + "P"}, turn=letter)
    promotions = sorted(pos.move_text(m) for m in pos.legal_moves() if m.frm == sq(frm))
    assert promotions == sorted(f"{to}=" + k for k in "QRBN")
    g = make_game({frm: letter + "P"}, turn=letter)
    g.play_text(f"{to}=N")
    assert g.position.piece_at(to) == letter + "N"


@pytest.mark.parametrize("seat", SEATS)
def test_E3_3_no_promotion_on_the_10th_line(seat):
    frm, to = PROMOTION[seat]
    back = sq(frm) - V.seats[seat].forward
    pos = make_position({name(back): LETTERS[seat] + "P"}, turn=LETTERS[seat])
    assert [pos.move_text(m) for m in pos.legal_moves() if m.frm == back] == [frm]


def test_E3_3_promotion_line_is_a_whole_line_across_the_board():
    pos = make_position({"p10": "wP"}, active="w")
    assert sorted(pos.move_text(m) for m in pos.legal_moves() if m.frm == sq("p10")) == \
        ["p11=B", "p11=N", "p11=Q", "p11=R"]


def test_E3_3_promotion_by_capture():
    pos = make_position({"e10": "wP", "f11": "rR"}, active="wr")
    assert {pos.move_text(m) for m in pos.legal_moves() if m.frm == sq("e10")} >= {"f11=Q", "f11=N"}


def test_text_promoted_pieces_are_worth_their_usual_points():
    g = make_game({"e10": "wP", "e15": "rR"}, active="wr")
    play_all(g, ["e11=Q", "Re11"])
    assert g.scores[R] == 10


EP_UNITS = {"e2": "wP", "d4": "rP", "f4": "gP", "d2": "nP", "f2": "nP"}


def _ep_moves(g: Game) -> List[str]:
    return [g.move_text(m) for m in g.legal_moves() if m.kind == EP]


def test_E3_3_en_passant_each_enemy_gets_one_chance_on_its_next_turn():
    """White e2-e4 passes e3: Red (d4), Green (f4) and Black (d2) may each take it on their turn."""
    g = make_game(EP_UNITS, active="wrbgn")
    g.play_text("e4")
    assert g.position.text().split()[4] == "e4:e3"
    assert _ep_moves(g) == ["e3"]                      # Red, pawn d4
    g.play_text("Ka6")
    g.play_text("Kb17")                                 # Blue: no pawn near
    assert g.turn == G and _ep_moves(g) == ["e3"]
    g.play_text("Kw8")
    assert g.turn == N and sorted(_ep_moves(g)) == ["de3", "fe3"]


def test_E3_3_en_passant_capture_removes_the_passing_pawn():
    g = make_game(EP_UNITS, active="wrbgn")
    play_all(g, ["e4", "e3"])
    assert g.position.piece_at("e3") == "rP"
    assert g.position.piece_at("e4") is None
    assert g.scores[R] == 1
    assert g.position.text().split()[4] == "-"


def test_E3_3_en_passant_chance_is_gone_once_the_owner_moves_again():
    g = make_game(EP_UNITS, active="wrbgn")
    play_all(g, ["e4", "Ka6", "Kb17", "Kw8", "Kr2", "Kh2"])
    assert g.turn == R
    assert _ep_moves(g) == []
    play_all(g, ["Ka7", "Kb16"])
    assert g.turn == G and _ep_moves(g) == []


def test_E3_3_en_passant_chance_is_not_taken_twice_by_the_same_player():
    """Red declines on its next turn; after White's next move (its owner) it cannot take any more."""
    g = make_game({"e2": "wP", "d4": "rP", "h10": "wR"}, active="wr")
    play_all(g, ["e4", "Ka6"])
    assert g.turn == W
    g.play_text("Rh9")
    assert _ep_moves(g) == []


def test_E3_3_teammates_cannot_take_en_passant():
    """Pairs: Purple (White's partner, pawn f4 moving south) has no en-passant capture on e3, while
    Red (an enemy pair, pawn d4) has one."""
    units = {"e2": "wP", "f4": "pP", "d4": "rP"}
    g = make_game(units, mode="pairs", active="wrp")
    g.play_text("e4")
    assert _ep_moves(g) == ["e3"]                     # Red: an enemy
    g.play_text("Ka6")
    assert g.turn == P
    assert _ep_moves(g) == []


def test_E3_3_en_passant_by_a_south_moving_enemy():
    g = make_game({"e2": "wP", "f4": "pP"}, active="wp")
    g.play_text("e4")
    assert g.turn == P and _ep_moves(g) == ["e3"]


# ====================================================================== E3.4 castling (side armies)

def _castles(pos: MultiPosition) -> Dict[str, tuple]:
    return {pos.move_text(m): (name(m.to), name(m.to2)) for m in pos.legal_moves() if m.kind == CASTLE}


RED_CASTLE = {"a7": "rK", "a11": "rR", "a4": "rR"}
ORANGE_CASTLE = {"x18": "oK", "x14": "oR", "x21": "oR"}


def test_E3_4_red_castles_both_sides_along_the_a_file():
    pos = make_position(RED_CASTLE, active="wr", turn="r", castling="a11,a4")
    assert _castles(pos) == {"O-O-O": ("a9", "a8"), "O-O": ("a5", "a6")}
    g = Game(position=position_text(RED_CASTLE, active="wr", turn="r", castling="a11,a4"), seed=1)
    g.play_text("O-O")
    assert [g.position.piece_at(s) for s in ("a4", "a5", "a6", "a7")] == [None, "rK", "rR", None]
    assert g.position.text().split()[3] == "-"


def test_E3_4_orange_castles_both_sides_along_the_x_file():
    pos = make_position(ORANGE_CASTLE, active="wo", turn="o", castling="x14,x21")
    assert _castles(pos) == {"O-O-O": ("x16", "x17"), "O-O": ("x20", "x19")}
    g = Game(position=position_text(ORANGE_CASTLE, active="wo", turn="o", castling="x14,x21"), seed=1)
    g.play_text("O-O-O")
    assert [g.position.piece_at(s) for s in ("x14", "x16", "x17", "x18")] == [None, "oK", "oR", None]


@pytest.mark.parametrize("attacker,refused,allowed", [
    ("e7", {"O-O", "O-O-O"}, set()),              # out of check: rook on rank 7 attacks a7
    ("e8", {"O-O-O"}, {"O-O"}),                  # through a8
    ("e9", {"O-O-O"}, {"O-O"}),                  # into a9
    ("e6", {"O-O"}, {"O-O-O"}),                  # through a6
    ("e5", {"O-O"}, {"O-O-O"}),                  # into a5
    ("e10", set(), {"O-O", "O-O-O"}),            # a10 is crossed by the rook only: no matter
])
def test_E3_4_castling_not_out_of_through_or_into_attack(attacker, refused, allowed):
    units = dict(RED_CASTLE)
    units[attacker] = "wR"
    pos = make_position(units, active="wr", turn="r", castling="a11,a4")
    assert set(_castles(pos)) == allowed


def test_E3_4_castling_needs_empty_squares_between_and_the_right():
    units = dict(RED_CASTLE)
    units["a10"] = "rN"
    pos = make_position(units, active="wr", turn="r", castling="a11,a4")
    assert set(_castles(pos)) == {"O-O"}
    pos = make_position(RED_CASTLE, active="wr", turn="r", castling="a11")
    assert set(_castles(pos)) == {"O-O-O"}


def test_E3_4_moving_the_king_or_a_rook_loses_the_right():
    g = make_game(RED_CASTLE, active="wr", turn="r", castling="a11,a4")
    play_all(g, ["Ra5", "Kh2", "Ra4"])
    assert g.position.text().split()[3] == "a11"
    play_all(g, ["Kh1", "Kb7"])
    assert g.position.text().split()[3] == "-"


def test_E3_4_castling_from_the_start_position_after_clearing():
    g = Game(seed=3)
    # White clears i1/j1 (bishop, knight) and castles short: king h1 -> j1, rook k1 -> i1.
    moves = ["j3", "c7", "c17", "g22", "q22", "v18", "v8", "r3", "Bj2", "Nc6", "Nc16", "Nf22", "Np22", "Nv16",
             "Nv6", "Np3", "Ni3", "Nc9", "Nc19", "Ni22", "Ns22", "Nv19", "Nv9", "Ns3", "O-O"]
    play_all(g, moves)
    assert [g.position.piece_at(s) for s in ("h1", "i1", "j1", "k1")] == [None, "wR", "wK", None]


# ====================================================================== E3.5 check

@pytest.mark.parametrize("king,checker", [(k, c) for k in SEATS for c in SEATS if k != c])
def test_E3_5_check_by_every_other_player(king, checker):
    """A rook of ``checker`` two lines in front of ``king``'s home king checks it in Singles; in Pairs
    unless they are partners; in Teams unless they are teammates."""
    home = ARMIES[king][1]
    spot = name(sq(home) + 2 * V.seats[king].forward)
    pos = make_position({spot: LETTERS[checker] + "R"}, turn=LETTERS[king])
    assert pos.in_check(king)
    pairs = make_position({spot: LETTERS[checker] + "R"}, turn=LETTERS[king],
                          teams=[min(s, V.partner[s]) for s in SEATS])
    assert pairs.in_check(king) == (V.partner[king] != checker)
    teams = make_position({spot: LETTERS[checker] + "R"}, turn=LETTERS[king], teams=list(V.team_of))
    assert teams.in_check(king) == (V.team_of[king] != V.team_of[checker])


def test_E3_5_no_move_may_leave_the_own_king_in_check_pinned_piece():
    pos = make_position({"h2": "wR", "h10": "rR"}, active="wr")
    assert targets(pos, "h2") == {"h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10"}


def test_E3_5_a_checked_player_must_answer_the_check():
    pos = make_position({"h10": "gR", "d5": "wR", "k3": "wB"}, active="wg")
    assert pos.in_check(W)
    assert texts(pos) == {"Kg1", "Kg2", "Ki1", "Ki2", "Rh5", "Bh6"}


def test_E3_5_the_king_may_not_step_onto_a_square_any_enemy_covers():
    pos = make_position({"g10": "rR", "i10": "nR"}, active="wrn")
    assert targets(pos, "h1") == {"h2"}


# ====================================================================== E4.1 mate and stalemate

def test_E4_1_checkmate_is_judged_at_the_start_of_the_mated_players_own_turn():
    g = make_game(YELLOW_MATE, active="wrby")
    g.play_text("Rd24")
    assert g.status(Y) == "active"
    assert g.credit == {Y: (W, "m")}
    play_all(g, ["Ka6", "Kb17"])
    assert g.status(Y) == "checkmated"
    assert g.turn == W


def test_text_checkmating_an_opponent_gives_25():
    g = make_game(RED_MATE, active="wrb")
    g.play_text("Ra11")
    assert g.status(R) == "checkmated"
    assert g.scores == [25, 0, 0, 0, 0, 0, 0, 0]


def test_E4_1_no_legal_move_and_not_in_check_is_stalemate():
    g = make_game(RED_STALEMATE, active="wrb")
    g.play_text("Qc5")
    assert g.status(R) == "stalemated"


# ====================================================================== E4.2 credit, steal, save

def test_E4_2_mate_credit_goes_to_the_player_who_made_it_even_if_others_move_first():
    g = make_game(YELLOW_MATE, active="wrby")
    play_all(g, ["Rd24", "Ka6", "Kb17"])
    assert g.scores[W] == 25 and g.scores[R] == g.scores[B] == 0


def test_E4_2_stealing_a_checkmate_by_covering_an_escape_the_first_mater_no_longer_covers():
    """Red's rook e24 blocks White's rook d24 (which covered f24 and h24) and covers them itself."""
    units = dict(YELLOW_MATE)
    units["e20"] = "rR"
    g = make_game(units, active="wrby")
    g.play_text("Rd24")
    assert g.credit[Y] == (W, "m")
    g.play_text("Re24")
    assert g.credit[Y] == (R, "m")
    assert "steals" in g.log[-1][1]
    g.play_text("Kb17")
    assert g.status(Y) == "checkmated"
    assert g.scores[R] == 25 and g.scores[W] == 0


def test_E4_2_covering_an_escape_the_mater_still_covers_steals_nothing():
    units = dict(YELLOW_MATE)
    units["e20"] = "rR"
    g = make_game(units, active="wrby")
    play_all(g, ["Rd24", "Rf20"])              # Red now covers f23 and f24 too, White still does
    assert g.credit[Y] == (W, "m")
    g.play_text("Kb17")
    assert g.scores[W] == 25 and g.scores[R] == 0


def test_E4_2_saving_a_player_in_waiting_clears_the_credit():
    """Red's knight takes White's checking rook: Yellow can move again and plays on."""
    units = dict(YELLOW_MATE)
    units["e22"] = "rN"
    g = make_game(units, active="wrby")
    play_all(g, ["Rd24", "Nd24"])
    assert Y not in g.credit
    assert "saves" in g.log[-1][1]
    g.play_text("Kb17")
    assert g.turn == Y and g.status(Y) == "active"
    assert g.scores == [0, 7, 0, 0, 0, 0, 0, 0]


def test_E4_2_a_stalemate_that_becomes_a_mate_is_credited_to_the_mover():
    """Reading: a stalemate in waiting turned into a mate (still no move) is the mover's mate."""
    g = make_game({"a14": "bK", "c20": "wQ", "d21": "rR"}, active="wrb")
    g.play_text("Qc15")
    assert g.credit == {B: (W, "s")}
    g.play_text("Ra21")
    assert g.status(B) == "checkmated"
    assert g.scores == [0, 25, 0, 0, 0, 0, 0, 0]


def test_E4_2_a_stalemate_in_waiting_can_be_stolen_too():
    """Blue's king a14 is stalemated by White's queen c15 (it covers a15, b15, b14); Red's rook b15
    cuts the queen off a15 and covers a15 itself: the stalemate is now Red's."""
    g = make_game({"a14": "bK", "c20": "wQ", "b18": "rR"}, active="wrb")
    g.play_text("Qc15")
    assert g.credit == {B: (W, "s")}
    g.play_text("Rb15")                       # Blue is next: out at once, with Red's credit
    assert [words for _, words in g.log] == ["Red steals the stalemate of Blue from White",
                                             "Blue is stalemated (credit: Red), +12 to each of 2"]
    assert g.status(B) == "stalemated"
    assert g.scores == [12, 12, 0, 0, 0, 0, 0, 0]


def test_E4_2_stalemating_oneself_gives_25():
    """Reading: a player whose own move leaves itself without a legal move is credited with it."""
    units = {"a4": "rK", "c5": "wQ", "d7": "rP", "f7": "wP"}
    g = make_game(units, active="wrn", turn="r")
    g.play_text("e7")
    assert g.credit == {R: (R, "s")}
    play_all(g, ["Kr2", "Kh2"])
    assert g.status(R) == "stalemated"
    assert g.scores[R] == 25 and g.scores[W] == g.scores[N] == 0


# ====================================================================== E4.3 grey pieces

GREY = {"h10": "xR", "h2": "xQ", "d10": "wR", "h20": "bR"}


def test_E4_3_grey_pieces_do_not_attack_or_give_check():
    pos = make_position(GREY, active="wb", states="amasssss")
    assert not pos.in_check(W)
    assert "h2" in targets(pos, "h1")                  # the grey queen next to the king can be taken
    assert {"g1", "i1", "g2", "i2"} <= targets(pos, "h1")


def test_E4_3_grey_pieces_still_block_lines():
    pos = make_position(GREY, active="wb", states="amasssss")
    assert not pos.in_check(W)                         # the blue rook h20 is blocked by the grey rook h10
    assert targets(pos, "d10") >= {"e10", "f10", "g10", "h10"} and "i10" not in targets(pos, "d10")


def test_E4_3_grey_pieces_are_captured_for_nothing():
    g = make_game(GREY, active="wb", states="amasssss")
    g.play_text("Rh10")
    assert g.scores == [0] * 8
    assert g.position.piece_at("h10") == "wR"


def test_E4_3_an_eliminated_players_pieces_turn_grey_and_never_move():
    g = make_game(dict(RED_MATE, **{"j9": "rB", "e7": "rP"}), active="wrb")
    g.play_text("Ra11")
    assert [g.position.piece_at(s) for s in ("a7", "j9", "e7")] == ["xK", "xB", "xP"]
    assert g.position.units[R] == {}
    for _ in range(3):
        assert g.turn != R
        g.play_text(g.move_text(g.legal_moves()[0]))


def test_text_capturing_grey_pieces_of_a_mated_player_gives_no_points():
    g = make_game(dict(RED_MATE, **{"j9": "rB"}), active="wrb")
    play_all(g, ["Ra11", "Kb17", "Rj4", "Kb16", "Rj9"])
    assert g.scores[W] == 25


# ====================================================================== E4.4 king capture

# Issue 24's first defect: Blue's king a17, a Red rook a20 behind a White knight a19.  Any knight move uncovers
# the rook (a discovered attack); Red moves before Blue, so Blue has not had a turn to answer it.
DISCOVERY = {"a19": "wN", "a20": "rR", "c16": "bB"}


def test_E4_4_a_discovered_attack_lets_the_next_enemy_capture_the_king():
    g = make_game(DISCOVERY, active="wrby")
    g.play_text("Nc20")
    assert "Ra17" in texts(g.position)
    g.play_text("Ra17")
    assert g.status(B) == "king captured"
    assert g.scores == [0, 25, 0, 0, 0, 0, 0, 0]
    assert [g.position.piece_at(s) for s in ("a17", "c16")] == ["rR", "xB"]     # Blue's units grey
    assert g.position.units[B] == {}
    assert g.log == [(2, "Blue's king is captured by Red, +25 Red")]
    assert g.turn == Y                                                  # Blue's turn is skipped


def test_E4_4_a_check_not_yet_answered_can_be_taken_two_moves_later():
    """White's Re24 checks Yellow's king g24 and uncovers Blue's bishop c20 (c20-d21-e22-f23-g24);
    Red moves; Blue, still before Yellow, takes the king.  White's check scores nothing."""
    g = make_game({"e22": "wR", "c20": "bB"}, active="wrby")
    play_all(g, ["Re24", "Kb7"])
    assert g.position.in_check(Y)
    g.play_text("Bg24")
    assert g.status(Y) == "king captured" and g.scores == [0, 0, 25, 0, 0, 0, 0, 0]
    assert g.turn == W


def test_E4_4_a_king_captured_while_its_mate_waits_takes_the_mate_with_it():
    """YELLOW_MATE: White's Rd24 mates Yellow in waiting.  Red's knight e22 leaves and uncovers Blue's
    bishop c20 on g24: Blue takes the king (+25); White's mate, never completed, scores nothing."""
    g = make_game(dict(YELLOW_MATE, **{"e22": "rN", "c20": "bB"}), active="wrby")
    g.play_text("Rd24")
    assert g.credit == {Y: (W, "m")}
    play_all(g, ["Nc21", "Bg24"])
    assert g.status(Y) == "king captured"
    assert g.credit == {} and g.scores == [0, 0, 25, 0, 0, 0, 0, 0]
    assert not any("saves" in words for _, words in g.log)


def test_E4_4_E3_5_a_king_capture_may_not_leave_the_own_king_attacked():
    """Red's bishop d7 attacks Blue's king g10 on Red's turn.  Pinned on rank 7 against Red's king a7
    by Yellow's rook h7, it may not take it; pinned by Blue's own rook h7 it may, since taking the
    king turns that rook grey (E3.5 counts active enemies' units only)."""
    pinned = make_position({"d7": "rB", "g10": "bK", "h7": "yR"}, active="wrby", turn="r")
    assert "g10" not in targets(pinned, "d7")
    freed = make_game({"d7": "rB", "g10": "bK", "h7": "bR"}, active="wrby", turn="r")
    assert "g10" in targets(freed.position, "d7")
    freed.play_text("Bg10")
    assert freed.status(B) == "king captured" and freed.position.piece_at("h7") == "xR"
    assert not freed.position.in_check(R)


def test_E4_4_E3_2_in_pairs_a_partners_king_is_never_taken():
    """Green (Blue's partner) uncovered on a17 neither checks nor may take Blue's king; Red may."""
    partner = make_game({"a19": "wN", "a20": "gR"}, mode="pairs", active="wrbg")
    play_all(partner, ["Nc20", "Kb7"])
    assert not partner.position.in_check(B)
    assert "a17" not in targets(partner.position, "a20", G)
    enemy = make_game(DISCOVERY, mode="pairs", active="wrbg")
    play_all(enemy, ["Nc20", "Ra17"])
    assert enemy.status(B) == "king captured" and enemy.pair_score(R) == 25


def test_E4_4_teams_a_captured_king_counts_as_a_checkmate():
    g = make_game(DISCOVERY, mode="teams", active="wrby")
    play_all(g, ["Nc20", "Ra17"])
    assert g.status(B) == "king captured"
    assert g.team_mates == [1, 0]              # team Odd (White, Blue, Purple, Green) lost one
    assert not g.over


def test_E4_4_a_zombie_king_can_be_captured_too():
    g = make_game({"a19": "wN", "a20": "rR"}, active="wrb", states="aazsssss",
                  options={"zombie_king": True})
    play_all(g, ["Nc20", "Ra17"])
    assert g.status(B) == "king captured" and g.scores[R] == 25


def test_E4_4_a_king_capture_is_one_move_that_pop_undoes_with_the_hash():
    pos = make_position(DISCOVERY, active="wrby")
    pos.push(pos.parse_move("Nc20"))
    text, h = pos.text(), pos.hash
    pos.push(pos.parse_move("Ra17"))
    assert pos.state[B] == "k" and pos.turn == Y and pos.piece_at("c16") == "xB"
    assert pos.hash == pos.compute_hash()
    assert pos.text().split()[2] == "aaka" + "ssss"
    pos.pop()
    assert pos.text() == text and pos.hash == h and pos.kings[B] == sq("a17")
    assert MultiPosition.from_text(text).hash == h


def test_perft_E4_4_king_captures_are_counted_as_moves():
    """DISCOVERY with White, Red and Blue: each of the White knight's 4 moves (b17, b21, c18, c20)
    uncovers the rook, and Red's replies then include Ra17: 253 + 4 = 257 at depth 2 (253 before
    E4.4).  At depth 3 those four lines go on with White's moves, Blue being out: 988 -> 1033."""
    pos = make_position({"a19": "wN", "a20": "rR"}, active="wrb")
    assert [pos.perft(d) for d in (1, 2, 3)] == [9, 257, 1033]


# ====================================================================== E4.5 partners never score from each other

# Issue 24's second defect: Orange's Rh17 checks Blue's king a17 along rank 17 (b17 with it); Green, Blue's
# partner, holds a18, b18 and b16 and fills the last escape a16 with Nc15-a16.
PARTNER_MATE = {"h10": "oR", "a18": "gR", "b18": "gR", "b16": "gN", "c15": "gN", "x21": "oK"}


@pytest.mark.parametrize("mode", ["pairs", "teams"])
def test_E4_5_a_mate_completed_by_the_partner_is_the_checking_enemys(mode):
    g = make_game(PARTNER_MATE, mode=mode, active="bog", turn="o")
    play_all(g, ["Rh17", "Na16"])
    assert g.status(B) == "checkmated"
    if mode == "pairs":
        assert g.log == [(2, "Blue is checkmated (credit: Orange), +25 Orange")]
        assert g.scores[O] == 25 and g.pair_score(B) == 0
    else:
        assert g.log == [(2, "Blue is checkmated (credit: Orange)")]


def test_E4_5_with_several_checks_the_last_one_is_credited():
    """As PARTNER_MATE without the knight b16: Green's Nc15-a16 also uncovers Red's bishop e13 on
    a17 (e13-d14-c15-b16-a17), which covers b16.  Orange's check came first, Red's with Green's move:
    the mate is Red's (and Red, moving before Blue, may take the king instead: E4.4)."""
    units = dict(PARTNER_MATE, e13="rB")
    del units["b16"]
    g = make_game(units, mode="pairs", active="rbog", turn="o")
    play_all(g, ["Rh17", "Na16"])
    assert g.credit == {B: (R, "m")}
    assert "Ba17" in texts(g.position)
    g.play_text("Kb7")
    assert g.status(B) == "checkmated"
    assert g.log[-1] == (3, "Blue is checkmated (credit: Red), +25 Red")


def test_E4_2_a_resignation_that_frees_a_player_in_waiting_ends_its_credit():
    """White's Rd24 mates Yellow in waiting, Red's rook k23 holding rank 23.  Red resigns: its rook
    turns grey and Yellow can step to rank 23 again, so the mate (credited to White) is gone at once;
    nobody "saves" Yellow later."""
    g = make_game({"d20": "wR", "k23": "rR"}, active="wrby")
    g.play_text("Rd24")
    assert g.credit == {Y: (W, "m")}
    g.resign()
    assert g.credit == {}
    assert g.log[-1] == (2, "Yellow can move again: its checkmate in waiting is gone (was credited to White)")
    play_all(g, ["Kb16", "Kg23"])
    assert g.status(Y) == "active" and g.scores == [0, 0, 0, 0, 0, 0, 0, 0]
    assert not any("saves" in words for _, words in g.log)


def test_E4_5_of_checks_that_come_with_one_move_the_movers_counts_as_the_last():
    """Orange's Rc15-c17 checks Blue's king a17 along rank 17 and uncovers Purple's bishop e13 on it
    (e13-d14-c15-b16-a17): two checks with one move.  Green, Blue's partner, fills a16 (Nb14-a16):
    the mate is Orange's, the mover's check counting as the later of the two."""
    units = {"c15": "oR", "e13": "pB", "a18": "gR", "b18": "gR", "b14": "gN", "x21": "oK"}
    g = make_game(units, mode="pairs", active="bpog", turn="o")
    g.play_text("Rc17")
    assert set(g.checks[B]) == {O, P}
    g.play_text("Na16")
    assert g.status(B) == "checkmated"
    assert g.log == [(2, "Blue is checkmated (credit: Orange), +25 Orange")]


def test_E4_4_a_captured_king_is_no_checkmate_for_partner_knockout():
    """Reading: Partner Knockout follows a checkmate; Blue's king captured leaves Green (its partner)
    in the game."""
    g = make_game(DISCOVERY, mode="pairs", active="wrbg", options={"partner_knockout": True})
    play_all(g, ["Nc20", "Ra17"])
    assert g.status(B) == "king captured" and g.status(G) == "active"


def test_E4_2_a_resignation_that_lifts_the_check_of_a_waiting_mate_leaves_a_stalemate_credited_to_nobody():
    """White's Bd23 uncovers Red's rook d24 on Yellow's king g24; White's rook k23 and knight g22 hold
    every escape: a mate in waiting, White's (the mover's, E4.2).  Red resigns: its rook turns grey,
    the check is gone but Yellow still cannot move.  Nobody made that stalemate: it is credited to
    nobody and shared by the others, not White's."""
    g = make_game({"d24": "rR", "e24": "wB", "k23": "wR", "g22": "wN"}, active="wrby")
    g.play_text("Bd23")
    assert g.credit == {Y: (W, "m")}
    g.resign()
    assert g.credit == {Y: (None, "s")}
    g.play_text("Kb16")
    assert g.status(Y) == "stalemated"
    assert g.log[-1] == (3, "Yellow is stalemated, +12 to each of 2")

# ====================================================================== E5 points: captures

@pytest.mark.parametrize("kind,value", [("P", 1), ("N", 2), ("B", 5), ("R", 7), ("Q", 10)])
def test_text_capture_values(kind, value):
    g = make_game({"d10": "wR", "h10": "r" + kind}, active="wr")
    g.play_text("Rh10")
    assert g.scores[W] == value


def test_text_capturing_the_king_is_worth_25_under_capture_the_king():
    g = make_game({"d10": "wR", "h10": "rK"}, active="wrb", options={"capture_the_king": True})
    g.play_text("Rh10")
    assert g.status(R) == "king captured"
    assert g.scores[W] == 25


# ====================================================================== E5 points: stalemate shares

@pytest.mark.parametrize("left,each", [(1, 25), (2, 12), (3, 8), (4, 6), (5, 5), (6, 4), (7, 3)])
def test_text_singles_stalemate_shares_by_players_left(left, each):
    """Red is stalemated by White; each of the ``left`` players still in the game gets ``each``."""
    active = "wr" + "bypogn"[:left - 1]
    g = make_game(RED_STALEMATE, active=active)
    g.play_text("Qc5")
    assert g.status(R) == "stalemated"
    expect = [each if LETTERS[s] in active and s != R else 0 for s in SEATS]
    assert g.scores == expect


@pytest.mark.parametrize("left,each", [(1, 25), (2, 12), (3, 8), (4, 6), (5, 5), (6, 4)])
def test_text_pairs_stalemate_shares_exclude_the_partner(left, each):
    """Red (partner Orange) is stalemated by White: every player left but Orange gets ``each``."""
    active = "wro" + "bypgn"[:left - 1]
    g = make_game(RED_STALEMATE, mode="pairs", active=active)
    g.play_text("Qc5")
    assert g.status(R) == "stalemated"
    expect = [each if LETTERS[s] in active and s not in (R, O) else 0 for s in SEATS]
    assert g.scores == expect


def test_text_pairs_stalemating_oneself_gives_25_to_the_pair():
    units = {"a4": "rK", "c5": "wQ", "d7": "rP", "f7": "wP"}
    g = make_game(units, mode="pairs", active="wron", turn="r")
    play_all(g, ["e7", "Kw18", "Kr2", "Kh2"])
    assert g.status(R) == "stalemated"
    assert g.pair_score(R) == 25 and g.pair_score(W) == 0 and g.pair_score(N) == 0


def test_text_pairs_stalemated_by_the_partner_gives_25_to_the_pair():
    """Orange walls in its partner Red's king (a4) with its own rooks: Red's pair gets 25."""
    units = {"a4": "rK", "a5": "oR", "b5": "oR", "e4": "oR"}
    g = make_game(units, mode="pairs", active="wron", turn="o")
    g.play_text("Reb4")
    assert g.credit[R] == (O, "s")
    play_all(g, ["Kr2", "Kh2"])
    assert g.status(R) == "stalemated"
    assert g.scores[O] == 25 and g.pair_score(R) == 25
    assert g.scores[W] == g.scores[N] == 0


def test_text_pairs_a_partner_cannot_check_or_capture_its_partner():
    g = make_game({"h10": "pR", "h5": "pN", "d5": "wR"}, mode="pairs", active="wp")
    assert not g.position.in_check(W)
    assert "h5" not in targets(g.position, "d5")
    assert targets(g.position, "d5") >= {"e5", "f5", "g5"}


def test_text_pairs_a_player_whose_partner_is_eliminated_plays_on():
    g = make_game(RED_MATE, mode="pairs", active="wrbo")
    g.play_text("Ra11")
    assert g.status(R) == "checkmated" and g.status(O) == "active"
    assert not g.over
    g.play_text("Kb16")
    assert g.turn == O


def test_text_pairs_team_gets_nothing_when_its_member_is_stalemated_by_another():
    g = make_game(RED_STALEMATE, mode="pairs", active="wrob")
    g.play_text("Qc5")
    assert g.pair_score(R) == 0 and g.scores[O] == 0


# ====================================================================== E5 points: resignation, time-out

RESIGN = {"i5": "wR", "i10": "rR", "e15": "bR", "e12": "rN"}


def test_text_resignation_gives_25_to_the_player_who_took_most_from_the_resigner():
    g = make_game(RESIGN, active="wrb")
    play_all(g, ["Ri10", "Ka6", "Re12", "Kh2", "resign"])
    assert g.status(R) == "resigned"
    assert g.scores[W] == 7 + 25 and g.scores[B] == 2


def test_text_time_out_gives_25_to_the_player_who_took_most():
    g = make_game(RESIGN, active="wrb")
    play_all(g, ["Ri10", "Ka6", "Re12", "Kh2", "timeout"])
    assert g.status(R) == "timed out"
    assert g.scores[W] == 32 and g.scores[B] == 2


@pytest.mark.parametrize("takers,each", [(2, 12), (3, 8)])
def test_text_resignation_points_are_shared_evenly_on_ties(takers, each):
    units = {"i5": "wR", "i10": "rP", "e15": "bR", "e12": "rP", "p19": "yR", "p14": "rP"}
    active = "wrby"
    g = make_game(units, active=active)
    play_all(g, ["Ri10", "Ka6", "Re12" if takers >= 2 else "Kb17",
                 "Rp14" if takers >= 3 else "Kg23", "Kh2", "resign"])
    got = [g.scores[W], g.scores[B], g.scores[Y]]
    assert got == ([1 + each, 1 + each, 1 + each] if takers == 3 else [1 + each, 1 + each, 0])


def test_text_resignation_gives_nothing_when_nobody_took_anything():
    """Reading: nobody took points from the resigner, so nobody gets the 25."""
    g = make_game({"d5": "wR"}, active="wrb")
    play_all(g, ["Kh2", "resign"])
    assert g.scores == [0] * 8


def test_text_resignation_points_never_go_to_an_eliminated_player():
    """White took most from Red, then resigned itself: Red's resignation gives White nothing.
    Reading: the 25 go to the active player(s) who took most (here nobody active took any)."""
    g = make_game(RESIGN, active="wrby")
    play_all(g, ["Ri10", "Ka6", "Kb17", "Kg23", "resign"])
    assert g.status(W) == "resigned"
    play_all(g, ["resign"])
    assert g.status(R) == "resigned"
    assert g.scores == [7, 0, 0, 0, 0, 0, 0, 0]


def test_text_resignation_points_go_to_the_best_active_taker_when_the_top_taker_is_out():
    """Reading: White (7 taken) resigned, so Blue (2 taken, active) is the top taker and gets 25."""
    g = make_game(RESIGN, active="wrby")
    play_all(g, ["Ri10", "Ka6", "Re12", "Kg23", "resign", "resign"])
    assert g.scores[B] == 2 + 25 and g.scores[W] == 7


def test_text_a_player_can_only_resign_on_its_move():
    g = Game(seed=1)
    with pytest.raises(IllegalMoveError, match="own move"):
        g.resign(R)
    with pytest.raises(IllegalMoveError, match="own move"):
        g.timeout(B)
    assert g.status(R) == "active"


@pytest.mark.parametrize("pairs,each", [(1, 25), (2, 12), (3, 8)])
def test_text_pairs_resignation_shares_by_tied_pairs(pairs, each):
    """Red resigns; the pairs of White, Blue and Yellow took one pawn each (first ``pairs`` of them)."""
    units = {"i5": "wR", "i10": "rP", "e15": "bR", "e12": "rP", "p19": "yR", "p14": "rP"}
    g = make_game(units, mode="pairs", active="wrby")
    play_all(g, ["Ri10", "Ka6", "Re12" if pairs >= 2 else "Kb17", "Rp14" if pairs >= 3 else "Kg23", "Kh2",
                 "resign"])
    got = [g.pair_score(W), g.pair_score(B), g.pair_score(Y)]
    expect = [1 + each] + [1 + each if pairs > i else 0 for i in (1, 2)]
    assert got == expect


def test_text_pairs_resignation_goes_to_the_pair_with_most_taken_in_total():
    """Blue and Green (a pair) took 1 + 1 = 2, White took 1 alone: Blue's pair gets 25."""
    units = {"i5": "wR", "i10": "rP", "e15": "bR", "e12": "rP", "t16": "gR", "t11": "rP"}
    g = make_game(units, mode="pairs", active="wrbg")
    play_all(g, ["Ri10", "Ka6", "Re12", "Rt11", "Kh2", "resign"])
    assert g.pair_score(B) == 2 + 25 and g.pair_score(W) == 1


# ====================================================================== draws

def test_text_threefold_repetition_is_a_draw_with_25_for_every_active_player():
    g = make_game({"d5": "wR"}, active="wrb")
    for _ in range(2):
        play_all(g, ["Kh2", "Ka6", "Kb17", "Kh1", "Ka7", "Ka17"])
    assert g.over and g.result.draw
    assert "repetition" in g.result.reason
    assert g.scores[:3] == [25, 25, 25]


def test_text_insufficient_material_is_a_draw():
    """Reading: insufficient material = every active player has only its king."""
    g = make_game({"d10": "wR", "h10": "rN"}, active="wrb")
    assert not g.over
    g.play_text("Rh10")
    assert g.over is False                     # White still has its rook
    g2 = make_game({"d10": "wN", "e12": "rN"}, active="wrb")
    g2.play_text("Ne12")
    assert not g2.over
    g3 = make_game({"h2": "wK", "h3": "rN", "a7": "rK"}, active="wrb")
    g3.play_text("Kh3")
    assert g3.over and g3.result.draw and "insufficient" in g3.result.reason
    assert g3.scores[:3] == [25 + 2, 25, 25]


def test_text_grey_pieces_do_not_count_as_material():
    g = make_game({"h10": "xQ"}, active="wr", states="aamsssss")
    assert g.over and "insufficient" in g.result.reason


def test_text_fifty_set_rule_is_a_draw_with_25_for_every_active_player():
    """Reading: the 50-set rule = 50 x (active players) moves without a capture or pawn move."""
    g = make_game({"d5": "wR"}, active="wrb", clock=149)
    assert not g.over
    g.play_text("Kh2")
    assert g.over and g.result.draw and "50-set" in g.result.reason
    assert g.scores[:3] == [25, 25, 25]


def test_text_fifty_set_rule_counter_resets_on_a_pawn_move():
    g = make_game({"d5": "wP"}, active="wrb", clock=149)
    g.play_text("d6")
    assert not g.over and g.position.clock == 0


# ====================================================================== game end

def test_text_the_game_ends_when_seven_players_are_eliminated():
    g = make_game(RED_MATE, active="wr")
    g.play_text("Ra11")
    assert g.over and g.result.winners == (W,)
    assert g.turn is None and g.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        g.play_text("Kh2")


def test_text_two_left_the_leader_by_26_claims_the_game():
    g = make_game({"i5": "wR", "i10": "rQ"}, active="wr", options={"custom_points": "Q30"})
    play_all(g, ["Ri10", "Ka6"])
    assert g.claim_allowed(W)
    g.claim()
    assert g.over and g.status(W) == "claimed"
    assert g.scores[:2] == [30, 25]
    assert g.result.winners == (W,)


def test_text_no_claim_when_ahead_by_only_25():
    g = make_game({"i5": "wR", "i10": "rQ"}, active="wr", options={"custom_points": "Q25"})
    play_all(g, ["Ri10", "Ka6"])
    assert not g.claim_allowed(W)
    with pytest.raises(IllegalMoveError, match="cannot claim"):
        g.claim()
    assert not g.over


def test_text_no_claim_with_three_players_left():
    g = make_game({"i5": "wR", "i10": "rQ"}, active="wrb", options={"custom_points": "Q50"})
    play_all(g, ["Ri10", "Ka6", "Kb17"])
    assert not g.claim_allowed(W)


def test_E5_pairs_game_ends_when_only_partners_are_left():
    """Reading: in Pairs the game ends when only one pair's players are left."""
    g = make_game(RED_MATE, mode="pairs", active="wrp")
    g.play_text("Ra11")
    assert g.over and g.result.reason == "only partners left"
    assert set(g.result.winners) == {W, P}


# ====================================================================== Teams

def test_text_teams_are_odd_and_even_seats():
    assert V.teams == [(0, 2, 4, 6), (1, 3, 5, 7)]
    g = Game("teams", seed=1)
    assert [g.teams[s] for s in SEATS] == [0, 1, 0, 1, 0, 1, 0, 1]


def test_text_teams_first_team_to_checkmate_three_wins_resignations_count():
    g = Game("teams", seed=1)
    play_all(g, ["h3", "resign", "c17", "resign", "q22", "v18", "v8"])
    assert not g.over
    play_all(g, ["resign"])
    assert g.over and set(g.result.winners) == {W, B, P, G}
    assert not g.result.draw


def test_text_teams_a_time_out_counts_as_a_checkmate():
    g = Game("teams", options={"checkmates_needed": 1}, seed=1)
    play_all(g, ["h3", "timeout"])
    assert g.over and set(g.result.winners) == {W, B, P, G}


def test_text_teams_a_real_checkmate_counts():
    g = make_game(RED_MATE, mode="teams", active="wrbo", options={"checkmates_needed": 1})
    g.play_text("Ra11")
    assert g.over and set(g.result.winners) == {W, B, P, G}


@pytest.mark.parametrize("needed", [1, 2, 4])
def test_text_custom_checkmate_requirements(needed):
    g = Game("teams", options={"checkmates_needed": needed}, seed=1)
    resigned = 0
    # Each even seat resigns on its move, odd seats push a pawn; count when the game ends.
    moves = {W: "h3", B: "c17", P: "q22", G: "v8"}
    while not g.over:
        if g.turn % 2:
            g.resign()
            resigned += 1
        else:
            g.play_text(moves[g.turn])
            moves[g.turn] = g.move_text(g.legal_moves()[0])
    assert resigned == needed
    assert set(g.result.winners) == {W, B, P, G}


def test_text_teams_stalemates_do_not_count_as_checkmates():
    g = make_game(RED_STALEMATE, mode="teams", active="wrbo", options={"checkmates_needed": 1})
    g.play_text("Qc5")
    assert g.status(R) == "stalemated"
    assert not g.over


def test_text_teams_two_stalemated_members_is_a_draw():
    units = dict(RED_STALEMATE)
    units.update({"x21": "oK", "v16": "bQ"})
    g = make_game(units, mode="teams", active="wrbyo")
    play_all(g, ["Qc5", "Qv20", "Kg23"])
    assert g.status(R) == g.status(O) == "stalemated"
    assert g.over and g.result.draw and g.result.winners == ()


# ====================================================================== options

def test_option_immediate_checkmate_eliminates_at_once():
    g = make_game(YELLOW_MATE, active="wrby", options={"immediate_checkmate": True})
    g.play_text("Rd24")
    assert g.status(Y) == "checkmated"
    assert g.scores[W] == 25
    assert g.turn == R


def test_option_immediate_checkmate_leaves_stalemate_to_the_players_turn():
    g = make_game({"a14": "bK", "c20": "wQ"}, active="wrb", options={"immediate_checkmate": True})
    g.play_text("Qc15")
    assert g.status(B) == "active" and g.credit == {B: (W, "s")}
    g.play_text("Ka6")
    assert g.status(B) == "stalemated"


def test_option_capture_the_king_has_no_check():
    pos = make_position({"h10": "rR"}, active="wr", capture_the_king=True)
    assert targets(pos, "h1") == {"g1", "g2", "h2", "i1", "i2"}          # h2 is attacked: allowed
    g = make_game({"h10": "rR", "h2": "wN"}, active="wr", options={"capture_the_king": True})
    g.play_text("Nf3")                                                  # exposes the king: allowed
    g.play_text("Rh1")
    assert g.status(W) == "king captured" and g.scores[R] == 25 and g.over


def test_option_capture_the_king_castling_ignores_attacks():
    units = dict(RED_CASTLE)
    units["e7"] = "wR"
    pos = make_position(units, active="wr", turn="r", castling="a11,a4", capture_the_king=True)
    assert set(_castles(pos)) == {"O-O", "O-O-O"}


def test_option_capture_the_king_a_player_without_any_move_is_stalemated():
    """Reading: under Capture The King a player with no move at all is stalemated.  In Pairs the Red
    king a4 is walled in by its partner Orange's rooks (they cannot be taken)."""
    units = {"a4": "rK", "a5": "oR", "b5": "oR", "e4": "oR"}
    g = make_game(units, mode="pairs", active="wron", turn="o", options={"capture_the_king": True})
    play_all(g, ["Reb4", "Kr2", "Kh2"])
    assert g.status(R) == "stalemated"


def test_option_last_king_standing_winner_is_the_last_player_left():
    units = dict(RED_MATE, **{"s20": "wQ", "s15": "rR"})
    plain = make_game(units, active="wr", turn="r", options={"custom_points": "Q50"})
    play_all(plain, ["Rs20", "Ra11"])
    assert plain.over and plain.result.winners == (R,)          # most points: Red 50 to 25
    lks = make_game(units, active="wr", turn="r", options={"custom_points": "Q50", "last_king_standing": True})
    play_all(lks, ["Rs20", "Ra11"])
    assert lks.over and lks.result.winners == (W,)
    assert lks.scores[:2] == [25, 50]


def test_option_last_king_standing_has_no_claim():
    g = make_game({"i5": "wR", "i10": "rQ"}, active="wr",
                  options={"custom_points": "Q30", "last_king_standing": True})
    play_all(g, ["Ri10", "Ka6"])
    assert not g.claim_allowed(W)


def test_option_last_king_standing_in_teams_plays_past_the_checkmate_count():
    """Reading: with Last King Standing a team loses only when all its players are out."""
    g = make_game(RED_MATE, mode="teams", active="wrbo",
                  options={"checkmates_needed": 1, "last_king_standing": True})
    g.play_text("Ra11")
    assert g.status(R) == "checkmated" and not g.over


def test_option_only_king_worth_points_captures_give_nothing():
    g = make_game({"d10": "wR", "h10": "rQ"}, active="wr", options={"only_king_points": True})
    g.play_text("Rh10")
    assert g.scores[W] == 0


def test_option_only_king_worth_points_keeps_25_for_checkmate_and_king():
    """Reading: the checkmate's 25 is kept (it is the king's worth)."""
    g = make_game(RED_MATE, active="wrb", options={"only_king_points": True})
    g.play_text("Ra11")
    assert g.scores[W] == 25
    g = make_game({"d10": "wR", "h10": "rK"}, active="wrb",
                  options={"only_king_points": True, "capture_the_king": True})
    g.play_text("Rh10")
    assert g.scores[W] == 25


@pytest.mark.parametrize("given", ["P1,N3,B3,R5,Q9,K25", {"R": 5, "Q": 9}, "R5"])
def test_option_custom_points(given):
    g = make_game({"d10": "wR", "h10": "rR"}, active="wr", options={"custom_points": given})
    g.play_text("Rh10")
    assert g.scores[W] == 5
    assert g.values[1:6] == ([1, 3, 3, 5, 9] if isinstance(given, str) and "P1" in given else
                             [1, 2, 5, 5, 9] if isinstance(given, dict) else [1, 2, 5, 5, 10])


def test_option_one_point_queen_promotion_is_automatic_and_worth_1():
    g = make_game({"e10": "wP", "e15": "rR"}, active="wr", options={"one_point_queen": True})
    pawn = [g.move_text(m) for m in g.legal_moves() if m.frm == sq("e10")]
    assert pawn == ["e11=Q"]
    g.play_text("e11")
    assert g.position.piece_at("e11") == "wD"
    g.play_text("Re11")
    assert g.scores[R] == 1


def test_option_one_point_queen_moves_as_a_queen():
    pos = MultiPosition.from_text(position_text({"l12": "wD"}, active="w"), one_point_queen=True)
    assert targets(pos, "l12") >= {"l21", "l4", "d12", "u12", "u21", "e5", "s5", "e19"}
    assert len(targets(pos, "l12")) == len(targets(make_position({"l12": "wQ"}, active="w"), "l12"))


@pytest.mark.parametrize("kings,points", [(1, 1), (2, 4), (3, 16), (4, 64), (5, 256), (6, 1012)])
def test_option_checkpoints_table(kings, points):
    """White's knight to l12 checks ``kings`` kings at once (they stand on its knight squares)."""
    spots = ["m14", "n13", "n11", "m10", "j11", "j13", "k14"]
    units = {"k10": "wN"}
    for seat, spot in zip(range(1, kings + 1), spots):
        units[spot] = LETTERS[seat] + "K"
    g = make_game(units, options={"checkpoints": True})
    g.play_text("Nl12")
    assert g.scores[W] == points


def test_option_checkpoints_seven_kings_at_once_wins():
    units = {"k10": "wN"}
    for seat, spot in zip(range(1, 8), ["m14", "n13", "n11", "m10", "j11", "j13", "k14"]):
        units[spot] = LETTERS[seat] + "K"
    g = make_game(units, options={"checkpoints": True})
    g.play_text("Nl12")
    assert g.over and g.result.winners == (W,)


def test_option_checkpoints_a_check_already_given_is_not_counted_again():
    """Reading: only kings the move newly puts in check count (Red was in check from d5 before)."""
    g = make_game({"d5": "wR", "d20": "rK", "k10": "wN", "m14": "bK"}, active="wrb",
                  options={"checkpoints": True})
    g.play_text("Nl12")                              # Red was already in check from d5
    assert g.scores[W] == 1


def test_option_checkpoints_in_pairs_the_partners_king_does_not_count():
    units = {"k10": "wN", "m14": "rK", "n13": "pK"}
    g = make_game(units, mode="pairs", options={"checkpoints": True})
    g.play_text("Nl12")
    assert g.scores[W] == 1


def test_option_partner_knockout_a_mated_players_partner_is_mated_too():
    g = make_game(RED_MATE, mode="pairs", active="wrbo", options={"partner_knockout": True})
    g.play_text("Ra11")
    assert g.status(R) == g.status(O) == "checkmated"
    assert g.scores[W] == 50


def test_option_partner_knockout_a_stalemated_players_partner_stays():
    g = make_game(RED_STALEMATE, mode="pairs", active="wrbo", options={"partner_knockout": True})
    g.play_text("Qc5")
    assert g.status(R) == "stalemated" and g.status(O) == "active"


def test_option_zombie_king_a_resigner_keeps_a_king_that_moves_at_random():
    g = make_game(RESIGN, active="wrb", options={"zombie_king": True})
    play_all(g, ["Ri10", "resign"])
    assert g.status(R) == "zombie"
    assert g.scores[W] == 7                         # no 25 to the top taker
    assert g.position.piece_at("e12") == "xN"
    king = g.position.kings[R]
    assert g.position.board[king] == R * 8 + 6
    assert king != sq("a7")                         # the zombie has already made its move
    assert g.turn == B
    assert g.actions[-1][0] == R and g.actions[-1][1] == "move"


def test_option_zombie_king_games_replay_from_the_seed():
    g = make_game(RESIGN, active="wrb", options={"zombie_king": True}, seed=99)
    play_all(g, ["Ri10", "resign", "Kb16", "Kh2", "Kb17"])
    again = Game.from_record(g.record())
    assert again.position.text() == g.position.text()


def test_options_are_listed_with_their_modes():
    assert set(OPTION_NAMES) == {"immediate_checkmate", "capture_the_king", "last_king_standing",
                                 "only_king_points", "custom_points", "one_point_queen", "checkpoints",
                                 "partner_knockout", "checkmates_needed", "zombie_king"}
    assert MODES == ("singles", "pairs", "teams")


# ====================================================================== errors

@pytest.mark.parametrize("mode,options,message", [
    ("chess", None, "unknown mode"),
    ("singles", {"no_such_option": True}, "unknown option"),
    ("singles", {"partner_knockout": True}, "not singles"),
    ("singles", {"checkmates_needed": 2}, "not singles"),
    ("teams", {"one_point_queen": True}, "not teams"),
    ("teams", {"zombie_king": True}, "not teams"),
    ("teams", {"checkpoints": True}, "not teams"),
    ("teams", {"only_king_points": True}, "not teams"),
    ("teams", {"partner_knockout": True}, "not teams"),
    ("teams", {"checkmates_needed": 5}, "1, 2, 3 or 4"),
    ("teams", {"checkmates_needed": "many"}, "1, 2, 3 or 4"),
    ("singles", {"custom_points": "Z3"}, "not one of"),
    ("singles", {"custom_points": "Qx"}, "whole number"),
    ("singles", {"checkpoints": "maybe"}, "on or off"),
])
def test_errors_bad_modes_and_options_are_rules_errors(mode, options, message):
    with pytest.raises(RulesOptionError, match=message):
        Game(mode, options)


def test_errors_options_given_as_text_are_accepted():
    g = Game("singles", {"immediate-checkmate": "yes", "checkpoints": "off"})
    assert g.options.immediate_checkmate and not g.options.checkpoints


@pytest.mark.parametrize("text,message", [
    ("h5", "not a legal move"),
    ("Nh3", "not a legal move"),
    ("zz9", "cannot read"),
    ("x99", "no square"),
    ("1 r. c7", "Red"),
    ("1 q. h3", "cannot read"),
    ("", "no move"),
    ("O-O", "cannot castle"),
])
def test_errors_illegal_move_texts(text, message):
    g = Game(seed=1)
    with pytest.raises(IllegalMoveError, match=message):
        g.play_text(text)
    assert g.position.text() == START_TEXT


def test_errors_illegal_move_objects():
    g = Game(seed=1)
    with pytest.raises(IllegalMoveError):
        g.play(Move(sq("h2"), sq("h5"), 1))
    with pytest.raises(IllegalMoveError):
        g.position.push(("h2", "h3"))   # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        g.play_text(None)               # type: ignore[arg-type]


def test_errors_promotion_needs_a_piece_letter():
    g = make_game({"e10": "wP"}, active="w")
    with pytest.raises(IllegalMoveError, match="promotes"):
        g.play_text("e11")


def test_errors_ambiguous_move():
    g = make_game({"d10": "wR", "h10": "wR"}, active="w")
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        g.play_text("Rf10")
    g.play_text("Rdf10")
    assert g.position.piece_at("f10") == "wR"


BAD_TEXTS = [
    ("", "7 fields"),
    (START_TEXT.replace(" w ", " q "), "colour letter"),
    (START_TEXT.replace(" w ", " x "), "colour letter"),
    (START_TEXT.replace("aaaaaaaa", "aaaaaaa"), "seat states"),
    (START_TEXT.replace("aaaaaaaa", "aaaaaaaq"), "seat states"),
    (START_TEXT.replace("aaaaaaaa", "saaaaaaa"), "not grey"),
    (START_TEXT.replace("aaaaaaaa", "zaaaaaaa"), "Zombie"),
    (START_TEXT.replace("d1,k1", "e1,k1"), "no castling"),
    (START_TEXT.replace(" - 0 0", " h4:h3 0 0"), "no pawn passed"),
    (START_TEXT.replace(" - 0 0", " zz 0 0"), "en-passant"),
    (START_TEXT.replace(" 0 0", " a 0"), "numbers"),
    (START_TEXT.replace(" 0 0", " -1 0"), "not negative"),
    (START_TEXT.replace("/16/", "/15/", 1), "squares"),
    (START_TEXT.replace("/16/", "/17/", 1), "squares"),
    (START_TEXT.replace("/16/", "/", 1), "ranks"),
    (START_TEXT.replace("yRyN", "yRqN", 1), "colour letter"),
    (START_TEXT.replace("yRyN", "yR?N", 1), "cannot read"),
    (START_TEXT.replace("yK", "yQ", 1), "0 kings"),
    (START_TEXT.replace("yQ", "yK", 1), "2 kings"),
]


@pytest.mark.parametrize("text,message", BAD_TEXTS)
def test_errors_bad_position_text_is_an_invalid_fen_error(text, message):
    with pytest.raises(InvalidFenError, match=message):
        MultiPosition.from_text(text)
    if text:
        with pytest.raises(RulesError):
            Game(position=text)


def test_errors_a_seat_out_of_the_game_cannot_be_to_move():
    text = position_text({}, active="rb", turn="w")
    with pytest.raises(InvalidFenError, match="out of the game"):
        MultiPosition.from_text(text)


def test_errors_bad_records_are_rules_errors():
    with pytest.raises(RulesError, match="line"):
        Game.from_record('[Mode "singles"]\n1 w. h5\n')
    with pytest.raises(RulesError, match="record tags"):
        Game.from_record('[Mode "quads"]\n')
    with pytest.raises(RulesError):
        Game.from_record(None)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="names no player"):
        Game.from_record("1 z. h3\n")


def test_errors_take_back_with_no_moves():
    with pytest.raises(RulesError):
        MultiPosition().pop()


@pytest.mark.parametrize("method,seat", [
    ("resign", 9), ("timeout", -1), ("claim", 8), ("status", 8), ("status", -1), ("status", True),
    ("status", "w"), ("pair_score", 8), ("claim_allowed", 12), ("seat_name", 8), ("team_score", 2),
])
def test_errors_a_seat_the_game_does_not_have_is_an_invalid_seat_error(method, seat):
    """Seats are 0 (White) to 7 (Black): any other is named in an InvalidSeatError (a RulesError;
    an IndexError too, for callers that caught the IndexError raised before)."""
    g = Game(seed=1)
    with pytest.raises(InvalidSeatError, match=r"^no (seat|team) " + re.escape(repr(seat)) + ":"):
        getattr(g, method)(seat)
    assert g.position.text() == START_TEXT and g.actions == []


@pytest.mark.parametrize("options", ["x", ["checkpoints"], 3])
def test_errors_options_that_are_not_a_dict_are_an_option_error(options):
    with pytest.raises(RulesOptionError, match=re.escape(repr(options))):
        Game("singles", options)


@pytest.mark.parametrize("data,error,message", [
    ({"actions": [["w", "move", "h3"]]}, InvalidSeatError, "'w'"),
    ({"actions": [[None, "move", "h3"]]}, InvalidSeatError, "None"),
    ({"actions": [[8, "move", "h3"]]}, InvalidSeatError, "no seat 8"),
    ({"actions": [[0.5, "move", "h3"]]}, InvalidSeatError, "0.5"),
    ({"actions": [[0, "move"]]}, IllegalMoveError, "action 1"),
    ({"actions": "h3"}, IllegalMoveError, "'h3'"),
    ({"seed": "abc"}, RulesOptionError, "'abc'"),
    ("game", RulesError, "'game'"),
])
def test_errors_from_dict_names_the_field_at_fault(data, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Game.from_dict(data)


@pytest.mark.parametrize("points", ["Q-5", "Q+5", "Q5,Q6", "", {"Q": -1}, {"Q": True}, {"Q": 2.7}])
def test_errors_custom_points_are_whole_numbers_of_points_not_below_zero(points):
    with pytest.raises(RulesOptionError, match="custom_points"):
        Game("singles", {"custom_points": points})
    for given in ("P1,N3,B3,R5,Q9,K25", "Q0", {"Q": 9, "k": "30"}):
        Game("singles", {"custom_points": given})


@pytest.mark.parametrize("value", [True, 2.7, 2.0])
def test_errors_checkmates_needed_is_a_whole_number_not_a_flag_or_a_fraction(value):
    with pytest.raises(RulesOptionError, match="1, 2, 3 or 4"):
        Game("teams", {"checkmates_needed": value})
    assert Game("teams", {"checkmates_needed": "2"}).needed == Game("teams", {"checkmates_needed": 2}).needed == 2


@pytest.mark.parametrize("value", [2, 0.5, [1]])
def test_errors_an_on_off_option_is_on_or_off(value):
    with pytest.raises(RulesOptionError, match="on or off"):
        Game("singles", {"checkpoints": value})


def test_errors_a_seed_is_a_whole_number():
    with pytest.raises(RulesOptionError, match="'abc'"):
        Game(seed="abc")     # type: ignore[arg-type]
    with pytest.raises(RulesOptionError, match="True"):
        Game(seed=True)
    assert Game(seed=-5).seed == -5


# ====================================================================== notation (E6)

def test_E6_captures_may_be_written_with_a_colon_never_with_x():
    g = make_game({"d10": "wR", "h10": "rN"}, active="wr")
    m = g.parse_move("R:h10")
    assert g.move_text(m, colon=True) == "R:h10"
    assert g.move_text(m) == "Rh10"
    with pytest.raises(IllegalMoveError):
        g.parse_move("Rxh10")


def test_E6_moves_by_squares_are_accepted():
    g = Game(seed=1)
    assert g.parse_move("h2h3") == g.parse_move("h3")


@pytest.mark.parametrize("text", [":h3", "h2:h3", "N:f3", "1 w. :h3"])
def test_E6_a_colon_marks_a_capture_only(text):
    g = Game(seed=1)
    with pytest.raises(IllegalMoveError, match="marks a capture"):
        g.play_text(text)
    assert g.position.text() == START_TEXT


def test_E6_a_piece_letter_apart_from_its_square_is_not_a_player():
    """'N d3' is a knight's move written with a space, not Black's (n) move: the error says so."""
    g = Game(seed=1)
    for text in ("N d3", "1 N f3", "B c17"):
        with pytest.raises(IllegalMoveError, match="piece letter") as info:
            g.play_text(text)
        assert "a move of" not in str(info.value)
    g.play_text("1 w. Nf3")
    assert g.position.piece_at("f3") == "wN"


def _short_record() -> str:
    g = Game(seed=3)
    play_all(g, ["h3", "c7", "c17", "g22", "q22", "v18", "v8", "r3", "h4", "d7"])
    return g.record()


@pytest.mark.parametrize("old,new", [("1 r. c7", "2 r. c7"), ("2 w. h4", "1 w. h4"), ("2 r. d7", "3 r. d7")])
def test_E6_records_with_a_wrong_set_number_are_refused(old, new):
    text = _short_record()
    assert old in text
    with pytest.raises(RulesError, match=r"record line \d+ .*set"):
        Game.from_record(text.replace(old, new))
    unnumbered = re.sub(r"^\d+ ", "", text, flags=re.M)      # lines without a set number are read
    assert Game.from_record(unnumbered).position.text() == Game.from_record(text).position.text()


@pytest.mark.parametrize("tag,value", [("Scores", "White 5, Red 0, Blue 0, Yellow 0, Purple 0, Orange 0, Green 0, Black 0"),
                                       ("Result", "White"), ("Termination", "one player left")])
def test_records_tags_that_disagree_with_the_moves_are_refused(tag, value):
    text = _short_record()
    if f"[{tag} " in text:
        text = re.sub(rf'\[{tag} "[^"]*"\]', f'[{tag} "{value}"]', text)
    else:
        text = text.replace('[Result "*"]', f'[Result "*"]\n[{tag} "{value}"]')
    with pytest.raises(RulesError, match=f"the {tag} tag says"):
        Game.from_record(text)


def test_records_a_seed_tag_that_is_not_a_number_is_refused():
    """A Zombie King's moves come from the seed: a replaced seed would replay another game."""
    g = make_game(RESIGN, active="wrb", options={"zombie_king": True}, seed=99)
    play_all(g, ["Ri10", "resign", "Kb16"])
    text = g.record()
    assert '[Seed "99"]' in text
    with pytest.raises(RulesError, match="Seed.*'abc'"):
        Game.from_record(text.replace('[Seed "99"]', '[Seed "abc"]'))
    assert Game.from_record(text).position.text() == g.position.text()


# ====================================================================== perft

WHITE_FIRST_MOVES = ["d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4", "h3", "h4", "i3", "i4", "j3", "j4", "k3",
                     "k4", "Nd3", "Nf3", "Ni3", "Nk3"]


def test_perft_depth_1_white_has_these_20_moves():
    pos = MultiPosition()
    assert sorted(texts(pos)) == sorted(WHITE_FIRST_MOVES)
    assert pos.perft(1) == 20


@pytest.mark.parametrize("seat", SEATS)
def test_perft_depth_1_each_army_has_20_moves(seat):
    pos = MultiPosition()
    pos.turn = seat
    assert len(pos.legal_moves()) == 20        # 8 pawns x 2 steps + 2 knights x 2


def test_perft_depth_2_is_395_not_400():
    """White's 20 moves x Red's 20 replies = 400, less 5:
    * after f3 and after f4 the White queen on g1 sees the Red king a7 along g1-f2-e3-d4-c5-b6-a7,
      so Red's b6 pawn is pinned and loses its two steps (c6, d6): 2 x 2 = 4;
    * after d4 the White pawn stands on d4, blocking Red's b4 double step (b4-d4): 1.
    """
    pos = MultiPosition()
    replies = {}
    for m in pos.legal_moves():
        pos.push(m)
        replies[pos.v.names[m.to]] = len(pos.legal_moves())
        pos.pop()
    assert replies["f3"] == replies["f4"] == 18
    assert replies["d4"] == 19
    assert all(n == 20 for k, n in replies.items() if k not in ("f3", "f4", "d4"))
    assert pos.perft(2) == 395


MIDDLEGAME = ("yRyN2yQyByNyRpR2pKpQpB1pR/yP1yPyKyPyP1yPpP1pPpNpPpPpPpP/2bNyP2yP4pP4/bRbP2yP9pP5oP2oR/"
              "1bP19pNoBoN/bB1bP19oP1/bQbP20oPoK/bKbP20oPoQ/bB2bP17oP1oB/bNbP4pB15oPoN/bRbP18oP1oR1/18/18/"
              "rRrP19gNgPgR/2rP18gKgP1/rBrP19gP1gB/rQrK1rP18gP1/2rP19gNgQ/rB2rP18gPgB/rNrP19gP2/"
              "rRrP2wP2wP2wN8nP2gPgR/8nP2nBnP2nN/wP1wPwP1wPwPwP1nPnPnP1nP1nP/wRwNwBwQwKwR2nRnNnBnQnK2nR "
              "w aaaaaaaa d1,a21,a14,u24,n24,x21,n1,u1 e21:e22,u21:v21 2 48")


def test_perft_regression_start_depth_3_and_4():
    pos = MultiPosition()
    assert pos.perft(3) == 7900          # Blue's 20 replies are never hindered after two moves
    assert pos.perft(4) == 156025
    assert pos.text() == START_TEXT


def test_perft_regression_middlegame_depth_1_to_3():
    pos = MultiPosition.from_text(MIDDLEGAME)
    assert [pos.perft(d) for d in (1, 2, 3)] == [42, 1971, 58549]
    assert pos.text() == MIDDLEGAME


@pytest.mark.slow
def test_perft_regression_middlegame_depth_4():
    pos = MultiPosition.from_text(MIDDLEGAME)
    assert pos.perft(4) == 1724641


# ====================================================================== round trips and fuzzing

def _random_game(mode: str, options: Optional[dict], seed: int, check, leave_rate: float = 0.01,
                 max_actions: int = 400) -> Game:
    """A game of random actions; ``check(game)`` runs before each.  After ``max_actions`` every player
    resigns in turn, so the game always ends."""
    rng = random.Random(seed)
    g = Game(mode, options, seed=seed)
    actions = 0
    while not g.over:
        check(g)
        seat = g.turn
        r = rng.random()
        if g.claim_allowed(seat) and r < 0.5:
            g.claim()
        elif actions >= max_actions or r < leave_rate:
            g.resign() if rng.random() < 0.5 else g.timeout()
        else:
            moves = g.legal_moves()
            g.play(moves[rng.randrange(len(moves))])
        actions += 1
    return g


def _invariants(g: Game, rng: random.Random, capture_the_king: bool) -> None:
    pos = g.position
    assert pos.hash == pos.compute_hash()
    legal = pos.legal_moves()
    assert legal, "the seat to move always has a move (or was eliminated)"
    board = pos.board
    mover = pos.turn
    for m in legal:
        target = m[4] if m.kind == EP else m.to
        code = board[target] if m.kind != CASTLE else 0
        if code and code & 7 == 6 and code >> 3 < 8:
            # E4.4: only an enemy's king, standing attacked when the mover's turn comes, is taken.
            assert g.teams[code >> 3] != g.teams[mover], f"{pos.move_text(m)} takes a teammate's king"
            assert pos.in_check(code >> 3), f"{pos.move_text(m)} takes a king not in check"
        assert code >> 3 != mover or not code
    text, h = pos.text(), pos.hash
    for m in rng.sample(legal, min(3, len(legal))):
        pos.push(m)
        assert pos.hash == pos.compute_hash()
        if not capture_the_king:           # E3.5: never leaves the mover's own king attacked
            assert not pos.in_check(mover), f"{m} leaves {mover}'s king attacked in {text}"
        pos.pop()
        assert pos.hash == h
    assert pos.text() == text
    for m in rng.sample(legal, min(6, len(legal))):
        assert pos.parse_move(pos.move_text(m)) == m
        assert pos.parse_move(pos.move_text(m, colon=True)) == m


FUZZ = [
    ("singles", None, 11),
    ("singles", {"one_point_queen": True, "checkpoints": True}, 12),
    ("singles", {"capture_the_king": True}, 13),
    ("singles", {"immediate_checkmate": True, "zombie_king": True}, 14),
    ("pairs", None, 21),
    ("pairs", {"partner_knockout": True, "checkpoints": True}, 22),
    ("teams", None, 31),
    ("teams", {"checkmates_needed": 2, "last_king_standing": True}, 32),
]


@pytest.mark.parametrize("mode,options,seed", FUZZ)
def test_fuzz_random_games_keep_the_invariants_and_end_with_a_result(mode, options, seed):
    rng = random.Random(seed)
    ctk = bool(options and options.get("capture_the_king"))
    g = _random_game(mode, options, seed, lambda game: _invariants(game, rng, ctk), max_actions=250)
    assert g.over and isinstance(g.result.reason, str) and g.result.reason
    assert g.result.scores == tuple(g.scores)
    assert set(g.result.winners) <= set(SEATS)
    assert g.result.draw or g.result.winners


@pytest.mark.parametrize("mode,options,seed", FUZZ[:1] + FUZZ[4:5] + FUZZ[6:7] + FUZZ[3:4])
def test_fuzz_records_replay_in_both_notations(mode, options, seed):
    g = _random_game(mode, options, seed + 100, lambda game: None, max_actions=120)
    for numerals in (False, True):
        again = Game.from_record(g.record(numerals=numerals))
        assert again.position.text() == g.position.text()
        assert again.scores == g.scores
        assert again.result == g.result
    assert Game.from_dict(g.to_dict()).position.text() == g.position.text()


def test_fuzz_every_legal_moves_text_parses_back_across_random_games():
    rng = random.Random(5)
    for seed in (1, 2):
        g = Game(seed=seed)
        for _ in range(120):
            if g.over:
                break
            pos = g.position
            legal = pos.legal_moves()
            seat = V.seats[pos.turn]
            for m in legal:
                text = pos.move_text(m)
                assert pos.parse_move(text) == m
                assert pos.parse_move(f"{g.set_number} {seat.letter}. {text}") == m
                assert pos.parse_move(f"{g.set_number} {seat.numeral}. {text}") == m
            g.play(legal[rng.randrange(len(legal))])


def test_E4_3_elimination_and_turn_passing_are_undone_by_pop():
    pos = MultiPosition()
    text, h = pos.text(), pos.hash
    pos.eliminate(W, "r")
    assert pos.piece_at("h1") == "xK" and pos.turn == R and pos.text().split()[3].startswith("a11")
    assert pos.hash == pos.compute_hash()
    pos.pass_turn(Y)
    assert pos.turn == Y and pos.hash == pos.compute_hash()
    pos.pop()
    pos.pop()
    assert pos.text() == text and pos.hash == h


def test_position_text_round_trips_across_random_games():
    rng = random.Random(6)
    g = Game(seed=6)
    for i in range(150):
        if g.over:
            break
        if i % 10 == 0:
            text = g.position.text()
            again = MultiPosition.from_text(text)
            assert again.text() == text
            assert again.hash == g.position.hash == again.compute_hash()
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))])
    assert MultiPosition.from_text(START_TEXT).text() == START_TEXT
