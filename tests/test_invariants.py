"""Invariant fuzzing: thousands of random plies per variant, checking after every ply that

* make/unmake restores FEN and hash exactly,
* the incremental hash equals a from-scratch hash,
* the FEN round-trips,
* every legal move's coordinate text parses back to the same move (and SAN, on every third ply),
* the fast legality filter agrees with the plain make-and-test definition of a legal move.
"""
import random

import pytest

from xboard_engine import Position, variant_names

PLIES_PER_VARIANT = 2400
GAME_LENGTH = 120


def _check_position(pos: Position, variant: str, check_san: bool) -> None:
    fen = pos.fen()
    assert pos.hash == pos.compute_hash(), fen
    again = Position.from_fen(fen, variant)
    assert again.fen() == fen
    assert again.hash == pos.hash, fen
    legal = pos.legal_moves()
    assert len(set(legal)) == len(legal), f"duplicate moves in {fen}"
    reference = {m for m in pos._pseudo_moves() if pos._is_safe_after(m)}
    if pos.v.has_jailers and pos._held(pos.kings[pos.stm], pos.stm) and not pos.is_check():
        reference.add((0, 0, 0, 7))
    assert set(legal) == reference, fen
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
        special = [m for m in legal if m[3] >= 3 or m[2] != pos.board[m[0]]]
        move = rng.choice(special if special and rng.random() < 0.3 else legal)
        pos.push(move)
        plies += 1
    # Unwind the last game completely: every pop must restore the earlier hash.
    while pos._stack:
        pos.pop()
        assert pos.hash == pos.compute_hash()


def _uci(pos: Position, m, chess960: bool) -> str:
    """Our move as python-chess writes it (Chess960 castles as king takes rook)."""
    if m[3] == 3 and chess960:
        return pos.v.names[m[0]] + pos.v.names[m[4]]
    if m[3] == 3:
        return pos.v.names[m[0]] + pos.v.names[m[1]]
    return pos.move_text(m)


@pytest.mark.parametrize("variant", ["normal", "fischerandom"])
def test_legal_moves_agree_with_python_chess(variant: str) -> None:
    """Orthodox and Chess960 legal move sets and FENs equal python-chess's over random games."""
    chess = pytest.importorskip("chess")
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
