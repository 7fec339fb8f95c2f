"""Helpers shared by the 8-Piece rule tests (8piece and 8piece-2019 use the same board and letters)."""

START = "jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w KQkq - 0 1"
# Lancer facing letters (R3.6) and their (file, rank) steps.
FACINGS = {"c": (0, 1), "d": (1, 1), "e": (1, 0), "f": (1, -1),
           "g": (0, -1), "h": (-1, -1), "m": (-1, 0), "o": (-1, 1)}


def texts_from(pos, square):
    return {t for t in pos.legal_texts() if t.startswith(square)}


def play(pos, *texts):
    for t in texts:
        pos.push_text(t)
    return pos


def facings_on_board(square):
    """Facing letters that point at a square on the board (R3.2)."""
    f, r = ord(square[0]) - 97, int(square[1]) - 1
    return {k for k, (df, dr) in FACINGS.items() if 0 <= f + df < 8 and 0 <= r + dr < 8}


def lancer_texts(frm, dests, current):
    """All ordinary lancer moves frm->dest with every on-board facing; suffix only on a turn."""
    out = set()
    for d in dests:
        for k in facings_on_board(d):
            out.add(frm + d + ("" if k == current else k))
    return out


def outcome_termination(pos):
    o = pos.outcome()
    return None if o is None else o.termination
