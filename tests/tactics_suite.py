"""The tactics suite: forced mates and material wins in every variant, with a brute-force mate
checker over the rules core (independent of the search).  Used by tests/test_search.py (fixed depths)
and scripts/tactics.py (fixed time per position)."""
from xboard_engine import Position


def forces_mate(pos: Position, moves: int) -> bool:
    """Whether the side to move mates within ``moves`` of its moves, whatever the defence."""
    for m in pos.legal_moves():
        pos.push(m)
        try:
            replies = pos.legal_moves()
            if not replies:
                if pos.is_check():
                    return True
                continue
            if moves > 1 and all(_mates_after(pos, r, moves - 1) for r in replies):
                return True
        finally:
            pos.pop()
    return False


def _mates_after(pos: Position, reply, moves: int) -> bool:
    pos.push(reply)
    try:
        return forces_mate(pos, moves)
    finally:
        pos.pop()


def played_mate(pos: Position, move, moves: int) -> bool:
    """Whether ``move`` starts a forced mate in ``moves`` (the engine's move, checked by brute force)."""
    pos.push(move)
    try:
        replies = pos.legal_moves()
        if not replies:
            return pos.is_check()
        return moves > 1 and all(_mates_after(pos, r, moves - 1) for r in replies)
    finally:
        pos.pop()


# (variant, FEN, moves to mate, what it is)
MATES = [
    ("normal", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1, "back-rank rook mate"),
    ("normal", "k7/8/2K5/8/8/8/8/7Q w - - 0 1", 2, "K+Q mate in 2"),
    ("normal", "7k/2p1R3/8/8/p7/4R3/5K2/8 w - - 0 1", 2, "two rooks mate in 2"),
    ("chess80", "4k5/3ppp4/10/10/10/10/10/R3K5 w - - 0 1", 1, "Chess80 back-rank mate"),
    ("chess80", "1k8/10/2K7/2D7/10/10/10/10 w - - 0 1", 2, "king and Duke mate in 2"),
    ("fullcavalry", "7k/6pp/8/8/8/8/8/C3K3 w - - 0 1", 1, "lancer mate that turns on arrival"),
    ("fullcavalry", "k7/8/1K6/8/8/8/8/7C w - - 0 1", 1, "single lancer mates (seed text)"),
    ("fullcavalry", "8/8/8/8/8/k5C1/2K5/8 w - - 0 1", 2, "king and lancer mate in 2"),
    ("8piece", "3Jk3/8/4K3/8/8/8/8/8 w - - 0 1", 1, "king + jailer mate of the held king (seed)"),
    ("8piece", "8/8/8/3S4/8/p1K5/k7/7R w - - 0 1", 1, "sentry pushes the king onto a1 (seed)"),
    ("8piece", "2k5/K7/8/8/1J6/8/8/8 w - - 0 1", 2, "king + jailer mate in 2 (pass rule)"),
    ("8piece", "8/8/6J1/8/4p3/8/2K5/k7 w - - 0 1", 3, "king + jailer mate in 3 against a pawn"),
    ("8piece-2019", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1, "2019 rules: rook mate"),
    ("8piece-random", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1, "randomized setup: rook mate"),
]


# (variant, FEN, the winning move, what it is)
WINS = [
    ("normal", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5", "takes the undefended queen"),
    ("normal", "r3k3/8/8/8/8/8/8/4K1N1 w - - 0 1", None, "no blunder of the knight"),
    ("normal", "4k3/8/2r5/8/1N6/8/8/4K3 w - - 0 1", None, "knight stays out of reach"),
    ("8piece", "4k3/8/2r5/8/8/2q5/8/S3K3 w - - 0 1", "a1c6,c6c3", "sentry pushes the queen onto its rook"),
]
