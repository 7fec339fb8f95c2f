"""Invariant fuzzing: thousands of random plies per variant, checking after every ply that

* make/unmake restores FEN and hash exactly,
* the incremental hash equals a from-scratch hash,
* the FEN round-trips,
* every legal move's coordinate text parses back to the same move (and SAN, on every third ply),
* the fast legality filter agrees with the plain make-and-test definition of a legal move.
"""
import random

import pytest

from needs import need_module

from xboard_engine import Move, MoveKind, Position, variant_names
from xboard_engine.core.attacks import held
from xboard_engine.core.moves import PASS_MOVE
from xboard_engine.core.movegen import _pseudo_moves

PLIES_PER_VARIANT = 2400
GAME_LENGTH = 120


def _check_position(pos: Position, variant: str, check_san: bool) -> None:
    fen = pos.fen()
    assert pos.hash == pos.compute_hash(), fen
    assert pos.score == pos.compute_score(), fen
    again = Position.from_fen(fen, variant)
    assert again.fen() == fen
    assert again.hash == pos.hash, fen
    legal = pos.legal_moves()
    assert len(set(legal)) == len(legal), f"duplicate moves in {fen}"
    reference = {m for m in _pseudo_moves(pos, False) if pos.is_safe_after(m)}
    if pos.v.has_jailers and held(pos, pos.kings[pos.stm], pos.stm) and not pos.is_check():
        reference.add(PASS_MOVE)
    assert set(legal) == reference, fen
    captures = set(pos.legal_captures())
    assert captures == {m for m in legal if pos.is_capture(m) or _promotes(pos, m)}, fen
    texts = set()
    for m in legal:
        text = pos.move_text(m)
        assert text not in texts, f"two moves share the text {text} in {fen}"
        texts.add(text)
        assert pos.parse_move(text) == m, f"{text} in {fen}"
        if check_san:
            san = pos.san(m)
            assert pos.parse_san(san) == m, f"{san} in {fen}"
        before_hash = pos.hash
        pos.push(m)
        pos.pop()
        assert pos.hash == before_hash
        assert pos.fen() == fen


def _random_setup(variant: str, rng: random.Random) -> Position:
    return Position(variant, rng=rng) if variant in ("fischerandom", "8piece-random") else Position(variant)


@pytest.mark.parametrize("variant", variant_names())
def test_random_play_invariants(variant: str) -> None:
    rng = random.Random(20261121 + len(variant))
    pos = _random_setup(variant, rng)
    plies = 0
    while plies < PLIES_PER_VARIANT:
        _check_position(pos, variant, check_san=plies % 3 == 0)
        legal = pos.legal_moves()
        if not legal or pos.outcome() is not None or pos.fullmove > GAME_LENGTH:
            pos = _random_setup(variant, rng)
            continue
        # Prefer special moves now and then so pushes, castles and promotions are well covered.
        special = [m for m in legal if m.kind >= MoveKind.CASTLE or m.placed != pos.board[m.frm]]
        move = rng.choice(special if special and rng.random() < 0.3 else legal)
        pos.push(move)
        plies += 1
    # Unwind the last game completely: every pop must restore the earlier hash.
    while pos.ply:
        pos.pop()
        assert pos.hash == pos.compute_hash()
        assert pos.score == pos.compute_score()
    assert pos.fen() == pos.root_fen()


def _uci(pos: Position, m, chess960: bool) -> str:
    """Our move as python-chess writes it (Chess960 castles as king takes rook)."""
    if m.kind == MoveKind.CASTLE:
        return pos.v.names[m.frm] + pos.v.names[m.square2 if chess960 else m.to]
    return pos.move_text(m)


def _promotes(pos: Position, m: Move) -> bool:
    """A pawn that becomes another unit (not a push: a pushed pawn never promotes, R8.3)."""
    return m.kind == MoveKind.NORMAL and pos.v.is_pawn[pos.board[m.frm]] and m.placed != pos.board[m.frm]


@pytest.mark.parametrize("variant", ["normal", "fischerandom"])
def test_legal_moves_agree_with_python_chess(variant: str) -> None:
    """Orthodox and Chess960 legal move sets and FENs equal python-chess's over random games."""
    chess = need_module("chess")
    chess960 = variant == "fischerandom"
    rng = random.Random(7)
    for _ in range(12):
        pos = _random_setup(variant, rng)
        board = chess.Board(pos.fen(), chess960=chess960)
        for _ in range(150):
            ours = {_uci(pos, m, chess960): m for m in pos.legal_moves()}
            assert set(ours) == {board.uci(m) for m in board.legal_moves}, pos.fen()
            assert pos.is_check() == board.is_check()
            if not ours:
                break
            text = rng.choice(sorted(ours))
            pos.push(ours[text])
            board.push_uci(text)
            assert pos.fen() == board.fen(en_passant="legal") or chess960, pos.fen()
            assert pos.fen().split()[:2] == board.fen().split()[:2]
