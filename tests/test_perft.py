"""Perft (leaf counts of the legal-move tree) for every variant.

Orthodox numbers: chessprogramming wiki "Perft Results" (positions 1..6).
Chess960 numbers: chessprogramming wiki "Chess960 Perft Results"; every number below was re-checked
with python-chess (chess.Board(fen, chess960=True), push/pop perft).
chess80 / fullcavalry numbers are SELF-DERIVED (no published reference exists):
depth 1 and 2 by hand (reasoning in the comments), depth 3 by an independent scratch move generator
written for this purpose (not part of the repository) and, for fullcavalry, also by hand.
"""

import pytest

from xboard_engine import Position

# Depths whose leaf count exceeds this are marked slow (CI runs them, the quick suite skips them).
SLOW_LEAVES = 1_000_000


def _params(table):
    out = []
    for name, fen, counts in table:
        for depth, leaves in enumerate(counts, start=1):
            marks = [pytest.mark.slow] if leaves > SLOW_LEAVES else []
            out.append(pytest.param(fen, depth, leaves, id=f"{name}-d{depth}", marks=marks))
    return out


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

ORTHODOX = [
    ("start", START, [20, 400, 8902, 197281, 4865609]),
    ("kiwipete", KIWIPETE, [48, 2039, 97862, 4085603]),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238, 674624]),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     [6, 264, 9467, 422333]),
    ("pos4mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     [6, 264, 9467, 422333]),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379, 2103487]),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890, 3894594]),
]

# Shredder (file-letter) castling fields as published.
CHESS960 = [
    ("960-1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
     [21, 528, 12189, 326672]),
    ("960-2", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
     [21, 807, 18002, 667366]),
    ("960-3", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
     [20, 479, 10471, 273318]),
    ("960-4", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
     [22, 593, 13440, 382958]),
    ("960-5", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
     [28, 1120, 31058, 1171749]),
    ("960-6", "bqnr1kr1/pppppp1p/6p1/5n2/4B3/3N2PP/PbPPPP2/BQNR1KR1 w GDgd - 2 9",
     [31, 1132, 36559, 1261476]),
    ("960-7", "bnqbnr1r/p1p1ppkp/3p4/1p4p1/P7/3NP2P/1PPP1PP1/BNQB1RKR w HF - 0 9",
     [26, 889, 24353, 832956]),
    ("960-8", "nrbq2kr/ppppppb1/5n1p/5Pp1/8/P5P1/1PPPP2P/NRBQNBKR w HBhb - 0 9",
     [20, 520, 11745, 316332]),
    ("960-9", "1r1bkqbr/pppp1ppp/2nnp3/8/2P5/N4P2/PP1PP1PP/1RNBKQBR w Hh - 0 9",
     [28, 810, 22844, 694599]),
    ("960-10", "rkqnbbnr/ppppppp1/8/7p/3N4/6PP/PPPPPP2/RKQNBB1R w HAa - 0 9",
     [24, 484, 12495, 284570]),
    ("960-11", "rbqkr1bn/pp1ppp2/2p1n2p/6p1/8/4BPNP/PPPPP1P1/RBQKRN2 w EAea - 0 9",
     [23, 600, 15082, 410057]),
]


@pytest.mark.parametrize("fen,depth,leaves", _params(ORTHODOX))
def test_perft_normal_published(fen, depth, leaves):
    assert Position.from_fen(fen, "normal").perft(depth) == leaves


@pytest.mark.parametrize("fen,depth,leaves", _params(CHESS960))
def test_perft_fischerandom_published(fen, depth, leaves):
    assert Position.from_fen(fen, "fischerandom").perft(depth) == leaves


# Orthodox positions are Chess960 positions too (king e1, rooks a1/h1: same moves).
@pytest.mark.parametrize("fen,depth,leaves", _params([
    ("start", START, [20, 400, 8902]),
    ("kiwipete", KIWIPETE, [48, 2039, 97862]),
    ("pos4", ORTHODOX[3][1], [6, 264, 9467]),
]))
def test_perft_fischerandom_orthodox_positions(fen, depth, leaves):
    assert Position.from_fen(fen, "fischerandom").perft(depth) == leaves


def test_perft_normal_start_constructor():
    pos = Position("normal")
    assert pos.fen() == START
    assert pos.perft(3) == 8902


def test_perft_fischerandom_xfen_letters_equal_shredder_letters():
    # King g1: the h1 rook is the only (outermost) h-side rook -> K, the f1 rook the only a-side
    # rook -> Q. Same position in Shredder, X-FEN and mixed letters, same tree.
    shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    mixed = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KFkf - 2 9"
    for fen in (shredder, xfen, mixed):
        pos = Position.from_fen(fen, "fischerandom")
        assert pos.fen() == xfen
        assert pos.perft(3) == 12189


@pytest.mark.parametrize("variant,fen", [
    ("normal", KIWIPETE),
    ("fischerandom", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"),
    ("chess80", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"),
    ("fullcavalry", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"),
])
def test_perft_leaves_position_unchanged(variant, fen):
    pos = Position.from_fen(fen, variant)
    before = (pos.fen(), pos.hash, sorted(pos.legal_texts()))
    pos.perft(3)
    assert (pos.fen(), pos.hash, sorted(pos.legal_texts())) == before


# --- chess80 (self-derived numbers) -----------------------------------------------------------
# Start, depth 1 (hand): 10 pawns x 2 = 20; knights b1 -> a3 c3, i1 -> h3 j3 = 4;
# dukes (WFAD) d1 -> b3 d3 f3 (jumps over the pawns; b1/f1 are own pieces), g1 -> e3 g3 i3 = 6.
# Total 30. Depth 2: no White first move touches Black's options -> 30 * 30 = 900.
# Depth 3: 29908 (scratch generator).
CHESS80_START = "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1"
# Castling-heavy, depth 1 (hand): pawns 20; king d1 f1 = 2; castles towards a1: c1 b1 a1 = 3,
# towards j1: g1 h1 i1 j1 = 4; rook a1 -> b1 c1 d1 = 3; rook j1 -> i1 h1 g1 f1 = 4. Total 36.
# Depth 2: mirror image for Black, no interaction -> 36 * 36 = 1296. Depth 3: 43928 (scratch generator).
CHESS80_CASTLES = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"


# Depth 1..3 of a developed position and depth 4 of start/castles: scratch generator only.
CHESS80_DEVELOPED = "r1bdk4r/pp1p1ppppp/2n7/2p1p5/10/4P1N3/PPPP1PPPPP/R1BDK1DB1R w KQkq - 0 1"


@pytest.mark.parametrize("fen,depth,leaves", _params([
    ("start", CHESS80_START, [30, 900, 29908, 991657]),
    ("castles", CHESS80_CASTLES, [36, 1296, 43928, 1488890]),
    ("developed", CHESS80_DEVELOPED, [36, 1474, 53829]),
]))
def test_perft_chess80_self_derived(fen, depth, leaves):
    assert Position.from_fen(fen, "chess80").perft(depth) == leaves


def test_perft_chess80_start_constructor():
    pos = Position("chess80")
    assert pos.fen() == CHESS80_START
    assert pos.perft(2) == 900


# --- fullcavalry (self-derived numbers) -------------------------------------------------------
# Start, depth 1 (hand): 16 pawn moves + 4 knight moves = 20; lancers a1 (E) and h1 (W) see only
# friendly units up to the edge -> no move. Depth 2: 20 * 20 = 400.
# Depth 3 (hand, checked by the scratch generator): orthodox 8902 contains 200 rook leaves
# (Ra2 after a3; Ra2/Ra3 after a4; Rb1 after Na3/Nc3; the same on the h-side = 10 per Black reply).
# Here: after a knight leaves b1 (Na3, Nc3) BOTH lancers can land on b1 (a1 directly, h1 jumping
# g1..c1), 5 facings each on an edge square (N NE E W NW) = 10; same for g1 after Nf3/Nh3.
# 4 knight moves x 10 = 40 per Black reply -> 800 lancer leaves. 8902 - 200 + 800 = 9502.
FULLCAVALRY_START = "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"


# Lancer-heavy position, depth 1 by hand: pawns a4 b3 b4 dxe5 exd5 g3 g4 h4 = 8; Nc3 -> b1 a2 e2 a4
# b5 xd5 = 6; Nf3 -> g1 d2 h2 h4 xe5 g5 = 6; Qd1 -> c1 b1 d2 d3 e2 = 5; Ke1 -> d2 e2 f1 = 3;
# O-O with the lancer's 5 facings on f1 = 5 (O-O-O: d1 occupied); lancer a1 (E, jumps Q and K)
# -> b1 c1 f1 g1 and lancer h1 (W) -> g1 f1 c1 b1, 5 facings each = 40. Total 73.
# Depth 2 and 3: scratch generator.
FULLCAVALRY_LANCERS = "e2qk2m/1pp2pp1/p1n2n1p/3pp3/3PP3/P1N2N1P/1PP2PP1/E2QK2M w KQkq - 0 1"
# Pins by lancers through their own units (R3.1, R3.4): the h1 lancer pins the g1 knight through
# the black f1 knight, so Ng1-f3/h3 are illegal. Scratch generator, depth 1 checked by hand
# for the pinned knight.
FULLCAVALRY_PINS = "2b2b2/pp5o/2nCpk2/5p1p/5P2/P3q3/2PPB1PQ/1E2KnNm w - - 2 24"


@pytest.mark.parametrize("fen,depth,leaves", _params([
    ("start", FULLCAVALRY_START, [20, 400, 9502, 224873]),
    ("lancers", FULLCAVALRY_LANCERS, [73, 5331, 360421]),
    ("pins", FULLCAVALRY_PINS, [43, 2125, 87988]),
]))
def test_perft_fullcavalry_self_derived(fen, depth, leaves):
    assert Position.from_fen(fen, "fullcavalry").perft(depth) == leaves


def test_perft_fullcavalry_start_constructor():
    pos = Position("fullcavalry")
    assert pos.fen() == FULLCAVALRY_START
    assert pos.perft(2) == 400


# --- 8piece, 8piece-random, 8piece-2019 -------------------------------------------------------
# Regression values of this implementation. The 8piece start perft(4) was 5,131,620 (an independent
# implementation agreed) until R8.8 was clarified (P6 withdrawn: a pushed lancer moving along the
# facing it already has must end facing the board); that fix alone makes it 5,131,525 (95 fewer
# leaves, e.g. d3 Lf4 Sc1e3,e3f4 and no more Le3-c1 facing SW) and 8piece-random #1234 depth 3
# 90,605 (was 90,625): with the withdrawn move re-enabled both old numbers come back exactly.
EIGHTPIECE_MIDDLE = "j2q1bnr/p3ppQ1/s1k4p/8/2pP4/2P3P1/PP3K1P/J1S2BNR w - - 0 13"
EIGHTPIECE_2019_MIDDLE = "j1sq3r/ppp1kp1p/3b1n2/4p1p1/PP6/3P1K1N/1SP1m2P/1JQ2B1R w - - 0 13"
EIGHTPIECE_RANDOM_MIDDLE = "q2erskj/ppp2pp1/7p/n3P3/1P5P/N2P3P/P3P2J/Q1B1RSK1 w Qk - 1 13"


@pytest.mark.parametrize("variant,fen,depth,leaves", [
    pytest.param(variant, fen, depth, leaves, id=f"{name}-d{depth}",
                 marks=[pytest.mark.slow] if leaves > SLOW_LEAVES else [])
    for variant, name, fen, counts in [
        ("8piece", "start", None, [55, 2992, 124862, 5131525]),
        ("8piece", "middle", EIGHTPIECE_MIDDLE, [38, 1028, 38561]),
        ("8piece-2019", "start", None, [55, 2992, 124723]),
        ("8piece-2019", "middle", EIGHTPIECE_2019_MIDDLE, [28, 1426, 41326]),
        ("8piece-random", "setup0", "#0", [58, 2410, 87702]),
        ("8piece-random", "setup1234", "#1234", [58, 2467, 90605]),
        ("8piece-random", "middle", EIGHTPIECE_RANDOM_MIDDLE, [29, 722, 22003]),
    ]
    for depth, leaves in enumerate(counts, start=1)
])
def test_perft_eightpiece(variant, fen, depth, leaves):
    if fen is None:
        pos = Position(variant)
    elif fen.startswith("#"):
        pos = Position(variant, number=int(fen[1:]))
    else:
        pos = Position.from_fen(fen, variant)
    assert pos.perft(depth) == leaves
