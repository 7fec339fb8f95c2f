"""Error behaviour (docs/API.md): every bad input raises a subclass of RulesError (a ValueError) -
UnknownVariantError, InvalidFenError or IllegalMoveError - whose message names the offending text,
and never another exception type."""

import re

import pytest

from xboard_engine import (IllegalMoveError, InvalidFenError, Position, RulesError,
                           UnknownVariantError)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
C80_START = "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1"
FC_START = "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1"


def names(msg, token):
    """A one-character token must appear as a word of its own (e.g. 'X' or "X"), longer ones as text."""
    if len(token) == 1:
        return re.search(r"(?<![A-Za-z0-9])" + re.escape(token) + r"(?![A-Za-z0-9])", msg) is not None
    return token in msg


def raises(exc_type, fn, *tokens):
    # pytest.raises(RulesError) lets any other exception type escape: the test then errors.
    with pytest.raises(RulesError) as info:
        fn()
    err = info.value
    assert isinstance(err, exc_type), f"{type(err).__name__}: {err}"
    if tokens:
        assert any(names(str(err), t) for t in tokens), f"message {str(err)!r} names none of {tokens}"
    return err


def test_error_hierarchy():
    for cls in (UnknownVariantError, InvalidFenError, IllegalMoveError):
        assert issubclass(cls, RulesError)
    assert issubclass(RulesError, ValueError)


# ---------------------------------------------------------------- malformed FEN

BAD_FEN = [
    # variant, fen, tokens that may name the offence (the whole FEN always qualifies)
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     ["rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR"]),
    ("normal", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["ppppppp"]),
    ("normal", "rnbqkbnr/pppppppp/8/p7p/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["p7p"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", ["Z", "RNBQKBNZ"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/3D4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["D", "3D4"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/3C4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["C", "3C4"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", ["white"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", ["KQxq"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", ["e9"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z6 0 1", ["z6"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", ["e3"]),  # wrong rank
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", ["e6"]),  # no pawn on e5 (P4)
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", ["-1"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - abc 1", ["abc"]),
    ("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", ["1.5"]),
    ("normal", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     ["rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "king", "King"]),
    ("normal", "8/8/8/8/8/8/8/8 w - - 0 1", ["8/8/8/8/8/8/8/8", "king", "King"]),
    ("normal", "hello", ["hello"]),
    ("fischerandom", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", ["x"]),
    ("fischerandom", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq j6 0 1", ["j6"]),
    ("fischerandom", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq1 - 0 1", ["KQkq1"]),
    ("chess80", START, ["rnbqkbnr", "pppppppp"]),                       # 8 files on a 10-file board
    ("chess80", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNRR w KQkq - 0 1",
     ["RNBDKQDBNRR"]),
    ("chess80", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq k6 0 1", ["k6"]),
    ("chess80", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1 junk", ["junk"]),
    ("chess80", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR x KQkq - 0 1", ["x"]),
    ("chess80", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDQQDBNR w kq - 0 1",
     ["RNBDQQDBNR", "king", "King"]),                                   # no white king
    ("fullcavalry", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNJ w KQkq - 0 1", ["J", "ENBQKBNJ"]),
    ("fullcavalry", "enbqkbnm/pppppppp/8/8/3r4/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1", ["r", "3r4"]),
    ("fullcavalry", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM b KQkq - 0 -3", ["-3"]),
    ("fullcavalry", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNMM w KQkq - 0 1", ["ENBQKBNMM"]),
]


@pytest.mark.parametrize("variant,fen,tokens", BAD_FEN)
def test_invalid_fen(variant, fen, tokens):
    raises(InvalidFenError, lambda: Position.from_fen(fen, variant), fen, *tokens)


@pytest.mark.parametrize("variant", ["normal", "fischerandom", "chess80", "fullcavalry"])
@pytest.mark.parametrize("fen", ["", " ", "w", "8/8/8/8/8/8/8/8", "/ / / / / / / /", "k/K w", "10/10 w - - 0 1"])
def test_invalid_fen_garbage(variant, fen):
    raises(InvalidFenError, lambda: Position.from_fen(fen, variant))


def test_valid_fens_are_accepted():
    # controls for the cases above
    assert Position.from_fen(START, "normal").fen() == START
    assert Position.from_fen(C80_START, "chess80").fen() == C80_START
    assert Position.from_fen(FC_START, "fullcavalry").fen() == FC_START
    fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert Position.from_fen(fen, "normal").fen() == fen


# ---------------------------------------------------------------- moves

ILLEGAL = [
    # variant, fen, text
    ("normal", START, "e2e5"),
    ("normal", START, "e7e5"),      # not the side to move
    ("normal", START, "e1g1"),      # castle through own pieces
    ("normal", START, "g1g3"),
    ("normal", START, "@@@@"),      # pass: never legal here
    ("normal", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8"),     # promotion piece missing
    ("normal", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8k"),
    ("normal", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8d"),    # duke: chess80 only
    ("normal", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e3q"),    # promotion suffix on a plain move
    ("fischerandom", START, "O-O"),
    ("chess80", C80_START, "e1j1,j1j1"),   # castle through pieces
    ("chess80", C80_START, "d1d4"),        # duke jumps exactly two
    ("chess80", "4k5/P9/10/10/10/10/10/4K5 w - - 0 1", "a7a8c"),
    ("fullcavalry", FC_START, "a1b1"),     # b1 own knight
    ("fullcavalry", FC_START, "a1a1c"),    # turn without moving
    ("fullcavalry", FC_START, "e2e4e"),    # facing suffix on a pawn move
    ("fullcavalry", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8r"),   # no rooks
    ("fullcavalry", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8c"),   # lancer facing N on a8: off board
]

MALFORMED = [
    ("normal", START, "zz99"),
    ("normal", START, "e2"),
    ("normal", START, "e2e4qq"),
    ("normal", START, "e2e4x"),
    ("normal", START, "i2i4"),        # no i-file on 8x8
    ("normal", START, "e0e1"),
    ("normal", START, "e2e9"),
    ("normal", START, "e2-e4-e6"),
    ("chess80", C80_START, "k2k4"),   # no k-file on 10x8
    ("chess80", C80_START, "e2e4,"),
    ("fullcavalry", FC_START, "g1f3z"),
    ("fullcavalry", FC_START, "h1f1x,e1g1"),
]


@pytest.mark.parametrize("variant,fen,text", ILLEGAL + MALFORMED)
def test_illegal_or_malformed_move_text(variant, fen, text):
    pos = Position.from_fen(fen, variant)
    before = pos.fen()
    raises(IllegalMoveError, lambda: pos.push_text(text), text)
    raises(IllegalMoveError, lambda: pos.parse_move(text), text)
    assert pos.fen() == before


@pytest.mark.parametrize("variant", ["normal", "fischerandom", "chess80", "fullcavalry"])
def test_empty_move_text(variant):
    pos = Position(variant)
    raises(IllegalMoveError, lambda: pos.push_text(""))
    raises(IllegalMoveError, lambda: pos.parse_move(""))


@pytest.mark.parametrize("variant,fen,san", [
    ("normal", START, "Nf6"),
    ("normal", START, "Ke2"),
    ("normal", START, "O-O"),
    ("normal", START, "Qxd7"),
    ("normal", START, "e5"),
    ("normal", START, "Zz9"),
    ("normal", "4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1", "Nd2"),   # ambiguous
    ("chess80", C80_START, "Dd4"),
    ("chess80", C80_START, "2-2"),
    ("fullcavalry", FC_START, "Lb1"),
    ("fullcavalry", FC_START, "Rb1"),
])
def test_illegal_san(variant, fen, san):
    pos = Position.from_fen(fen, variant)
    raises(IllegalMoveError, lambda: pos.parse_san(san), san)


def test_push_text_illegal_in_every_form_names_text():
    pos = Position("normal")
    err = raises(IllegalMoveError, lambda: pos.push_text("Nf6"), "Nf6")
    assert isinstance(err, ValueError)


# ---------------------------------------------------------------- variants and setup numbers

@pytest.mark.parametrize("name", ["xiangqi", "chess81", "full-cavalry", "8-piece", "normal960"])
def test_unknown_variant(name):
    raises(UnknownVariantError, lambda: Position(name), name)
    raises(UnknownVariantError, lambda: Position.from_fen(START, name), name)


@pytest.mark.parametrize("variant,number", [
    ("fischerandom", 960),
    ("fischerandom", -1),
    ("fischerandom", 100000),
    ("8piece-random", 3840),
    ("8piece-random", -1),
])
def test_bad_setup_number(variant, number):
    raises(RulesError, lambda: Position(variant, number=number), str(number))


@pytest.mark.parametrize("variant,number", [
    ("fischerandom", 0), ("fischerandom", 959), ("8piece-random", 0), ("8piece-random", 3839),
])
def test_good_setup_number(variant, number):
    pos = Position(variant, number=number)
    assert len(pos.legal_texts()) > 0


# ---------------------------------------------------------------- positions no game can reach

@pytest.mark.parametrize("variant", ["normal", "fischerandom", "chess80", "fullcavalry", "8piece",
                                     "8piece-random", "8piece-2019"])
def test_P4_en_passant_square_must_be_passed_by_a_double_step(variant):
    """P4: the square must lie where the double step of the side that just moved passed, with that
    pawn beyond it and the square it came from empty (e5 is not such a square for a pawn on e4)."""
    files = 10 if variant == "chess80" else 8
    rest = str(files - 5)
    fen = f"4k{rest}/{files}/{files}/{files}/3Pp{rest}/{files}/{files}/4K{rest} w - e5 0 1"
    raises(InvalidFenError, lambda: Position.from_fen(fen, variant), "e5")
    good = f"4k{rest}/{files}/{files}/3Pp{rest}/{files}/{files}/{files}/4K{rest} w - e6 0 1"
    pos = Position.from_fen(good, variant)
    assert "d5e6" in pos.legal_texts()
    pos.push_text("d5e6")
    assert pos.piece_at("e5") is None and pos.piece_at("e6") == "P"
    # The square the pawn came from (e7) must be empty.
    blocked = f"4k{rest}/4n{rest}/{files}/3Pp{rest}/{files}/{files}/{files}/4K{rest} w - e6 0 1"
    raises(InvalidFenError, lambda: Position.from_fen(blocked, variant), "e6")


@pytest.mark.parametrize("variant", ["normal", "fischerandom", "fullcavalry", "8piece", "8piece-random",
                                     "8piece-2019"])
def test_R7_pawn_on_its_promotion_rank_is_impossible(variant):
    raises(InvalidFenError, lambda: Position.from_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", variant), "a8")
    raises(InvalidFenError, lambda: Position.from_fen("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", variant), "a1")


def test_R8_3_pawn_on_its_own_first_rank_only_where_pushes_exist():
    """R8.3: a pushed pawn may be moved back onto its own first rank (8piece, 8piece-random only)."""
    for variant in ("8piece", "8piece-random"):
        assert Position.from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", variant).piece_at("a1") == "P"
    for variant in ("normal", "8piece-2019", "fullcavalry"):
        raises(InvalidFenError, lambda: Position.from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", variant), "a1")


# ---------------------------------------------------------------- API edges (docs/API.md)

def test_pop_with_nothing_to_undo():
    from xboard_engine import EmptyHistoryError
    pos = Position()
    err = raises(EmptyHistoryError, pos.pop, "undo", "take back")
    assert isinstance(err, IndexError)          # as list.pop and python-chess's Board.pop


def test_bad_square_names():
    from xboard_engine import InvalidSquareError
    pos = Position()
    raises(InvalidSquareError, lambda: pos.is_attacked("z9", "w"), "z9")
    raises(InvalidSquareError, lambda: pos.piece_at("i1"), "i1")
    raises(InvalidSquareError, lambda: pos.is_attacked("e4", "white"), "white")
    raises(InvalidSquareError, lambda: pos.piece_at(None), "None")


@pytest.mark.parametrize("bad", ["e2e4", None, (), (12, 28), 5])
def test_push_and_move_text_want_a_move(bad):
    pos = Position()
    raises(IllegalMoveError, lambda: pos.push(bad), repr(bad))
    raises(IllegalMoveError, lambda: pos.move_text(bad), repr(bad))
    raises(IllegalMoveError, lambda: pos.san(bad), repr(bad))
    assert pos.fen() == START


def test_push_of_text_suggests_push_text():
    err = raises(IllegalMoveError, lambda: Position().push("e2e4"), "e2e4")
    assert "push_text" in str(err)
