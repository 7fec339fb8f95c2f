"""Helpers for the 8 Player Chess rule tests: build position texts from a few units, name squares
and moves, and drive a ``Game`` by move texts.

Seats: 0 White w, 1 Red r, 2 Blue b, 3 Yellow y, 4 Purple p, 5 Orange o, 6 Green g, 7 Black n.
"""
from typing import Dict, Iterable, List, Optional, Set

from xboard_engine.multi.game import Game
from xboard_engine.multi.position import MultiPosition
from xboard_engine.multi.rules import get_multi_variant

V = get_multi_variant("8player")
LETTERS = "wrbypogn"
W, R, B, Y, P, O, G, N = range(8)
# Every seat's king at its start square: far apart, no two on an open line (holes cut the lines).
HOME_KINGS = {"h1": "wK", "a7": "rK", "a17": "bK", "g24": "yK", "q24": "pK", "x18": "oK", "x8": "gK",
              "r1": "nK"}
START_TEXT = MultiPosition().text()


def sq(name: str) -> int:
    """The board index of a square name such as ``h3``."""
    return V.by_name[name]


def name(square: int) -> str:
    return V.names[square]


def position_text(units: Dict[str, str], turn: str = "w", active: str = "wrbypogn",
                  states: Optional[str] = None, castling: str = "-", ep: str = "-", clock: int = 0,
                  moves: int = 0, home_kings: bool = True) -> str:
    """A position text with ``units`` ({square: "wK"}), the seats of ``active`` (colour letters) in
    the game and every other seat stalemated out of it (``states`` overrides).  The king of each
    active seat without one in ``units`` stands on its start square (``home_kings``)."""
    board: Dict[str, str] = {}
    if home_kings:
        for square, unit in HOME_KINGS.items():
            letter = unit[0]
            if letter in active and not any(u == letter + "K" for u in units.values()):
                board[square] = unit
    board.update(units)
    if states is None:
        states = "".join("a" if letter in active else "s" for letter in LETTERS)
    rows = []
    for r in range(V.ranks - 1, -1, -1):
        row, run = "", 0
        for f in range(V.files):
            square = V.square(f, r)
            if V.rank_of[square] < 0:
                continue
            unit = board.get(V.names[square])
            if unit is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += unit
        if run:
            row += str(run)
        rows.append(row)
    return " ".join(["/".join(rows), turn, states, castling, ep, str(clock), str(moves)])


def make_game(units: Dict[str, str], mode: str = "singles", options: Optional[dict] = None,
              seed: int = 1, **kw) -> Game:
    """A game from ``position_text(units, **kw)``."""
    return Game(mode=mode, options=options, position=position_text(units, **kw), seed=seed)


def make_position(units: Dict[str, str], teams=None, capture_the_king: bool = False, **kw) -> MultiPosition:
    return MultiPosition.from_text(position_text(units, **kw), teams=teams, capture_the_king=capture_the_king)


def targets(pos: MultiPosition, frm: str, seat: Optional[int] = None) -> Set[str]:
    """Names of the squares the unit on ``frm`` can go to (legal moves of ``seat``)."""
    return {name(m.to) for m in pos.legal_moves(seat) if m.frm == sq(frm)}


def texts(pos: MultiPosition, seat: Optional[int] = None) -> Set[str]:
    """Move texts of the legal moves of the seat to move."""
    return {pos.move_text(m) for m in pos.legal_moves(seat)}


def play_all(game: Game, moves: Iterable[str]) -> None:
    """Play move texts in turn order (``resign``/``timeout``/``claim`` are actions)."""
    for text in moves:
        if text in ("resign", "timeout", "claim"):
            getattr(game, text)()
        else:
            game.play_text(text)


def unit_at(game_or_pos, square: str) -> Optional[str]:
    pos = game_or_pos.position if isinstance(game_or_pos, Game) else game_or_pos
    return pos.piece_at(square)


def seats_out(game: Game) -> List[int]:
    return [s for s in range(8) if game.status(s) not in ("active", "zombie")]
