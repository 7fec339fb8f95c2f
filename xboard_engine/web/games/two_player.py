"""A two-player game as the pages see it: position, players, clocks, result, and the legal moves as
the clicks that make them; the time controls a game may have; a PGN game read in.  No I/O here:
``tables.TwoPlayerTable`` hosts it, ``course`` drives engines, ``routes`` talks to pages."""
import datetime
import io
import time
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ...core.errors import RulesError
from ...core.moves import CASTLE, PASS, PUSH, Move
from ...core.notation import san as san_text
from ...core.position import Position
from ...core.variant import get_variant, variant_names
from ...images import board_picture_name
from ...match.pgn import read_games, replay
from ...match.referee import GameRecord, loss, outcome_reason
from ...time_control import TimeControl, parse_time_control

HUMAN = "human"


class Ending(NamedTuple):
    result: str          # 1-0 0-1 1/2-1/2
    termination: str     # PGN Termination tag value
    reason: str          # the rule or event, in words


def click_paths(pos: Position, m: Move) -> List[Tuple[str, ...]]:
    """The squares a player clicks, in order, to make ``m``: from and to; a push adds where the
    pushed unit goes (select sentry, the enemy unit, its destination); a castle is the king and its
    destination, or the king and its partner.  A pass has none (it is a button)."""
    names = pos.variant.names
    if m.kind == PASS:
        return []
    if m.kind == PUSH:
        return [(names[m.frm], names[m.to], names[m.to2])]
    paths = [(names[m.frm], names[m.to])]
    if m.kind == CASTLE and m.square2 != m.to:
        paths.append((names[m.frm], names[m.square2]))
    return paths


def last_move_squares(pos: Position, m: Move) -> Tuple[str, str]:
    """The two squares marked as the last move ``m`` (before it is made): from and to; for a castle
    the king's square and its destination, or, where the king stays on its square (Chess960,
    8piece-random), the king's square and its partner's (the squares clicked to make it).  A pass
    marks none."""
    names = pos.variant.names
    if m.kind == PASS:
        return ("", "")
    if m.kind == CASTLE and m.to == m.frm:
        return (names[m.frm], names[m.square2])
    return (names[m.frm], names[m.to])


def move_targets(pos: Position) -> List[Dict[str, Any]]:
    """Every complete click path of the legal moves with the moves it may mean: one, or several
    that differ in what arrives (a promotion, a lancer's facing, a pushed or partner lancer's
    facing), offered by a chooser showing each one's picture.  A castle's second path (king onto
    its partner) is left out where it is another move's own path."""
    v = pos.variant
    by_path: Dict[Tuple[str, ...], List[Move]] = {}
    alternative: Dict[Tuple[str, ...], bool] = {}
    legal = pos.legal_moves()
    for m in legal:
        for i, path in enumerate(click_paths(pos, m)):
            if i and path in by_path and not alternative.get(path):
                continue
            if not i and alternative.get(path):       # a move's own path beats a castle's second one
                by_path[path] = []
                alternative[path] = False
            alternative.setdefault(path, bool(i))
            by_path.setdefault(path, []).append(m)
    out = []
    for path, moves in by_path.items():
        differ_in_placed = len({m.placed for m in moves}) > 1
        options = []
        for m in moves:
            code = m.placed if differ_in_placed or m.kind not in (PUSH, CASTLE) else m.placed2
            letter = v.letter[code] if code else ""
            options.append({"text": pos.move_text(m), "san": san_text(pos, m, legal),
                            "picture": picture_file(pos.variant.name, letter) if letter else None})
        out.append({"path": list(path), "options": options})
    out.sort(key=lambda t: t["path"])
    return out


def picture_file(variant: str, letter: str) -> str:
    """The file name (under /piece/) of the picture of the unit with FEN ``letter``."""
    return f"{board_picture_name(variant, letter)}-{'white' if letter.isupper() else 'black'}.svg"


def variant_info(name: str) -> Dict[str, Any]:
    v = get_variant(name)
    return {"name": name, "files": v.files, "ranks": v.ranks,
            "squares": [[v.names[sq], v.file_of[sq], v.rank_of[sq]] for sq in v.squares],
            "pictures": {v.letter[c]: picture_file(name, v.letter[c]) for c in range(len(v.letter)) if v.letter[c]},
            "setups": v.setup_count if v.setup != "fixed" else 0}


def all_variant_infos() -> List[Dict[str, Any]]:
    return [variant_info(name) for name in variant_names()]


class WebGame:
    """One game: its moves from a start position, who plays each side (``HUMAN`` or an engine's
    name), the clocks (seconds, measured here) and, once over, its ending."""

    def __init__(self, variant: str, players: Sequence[str], tc: TimeControl, tc_text: str,
                 start_fen: Optional[str] = None, number: Optional[int] = None, game_id: int = 1) -> None:
        self.variant = variant
        if start_fen:
            self.pos = Position.from_fen(start_fen, variant)
        else:
            self.pos = Position(variant, number=number) if get_variant(variant).setup != "fixed" \
                else Position(variant)
        self.start_fen = self.pos.fen()
        self.custom_start = bool(start_fen) or get_variant(variant).setup != "fixed"
        self.players = list(players)
        self.tc = tc
        self.tc_text = tc_text
        self.id = game_id
        self.moves: List[str] = []          # coordinate texts
        self.timed_from = 2                 # the ply from which clocks run (after each side's first move)
        self.sans: List[str] = []
        self.fens: List[str] = [self.start_fen]
        self.last_squares: List[Tuple[str, str]] = []
        self.clocks = [tc.base, tc.base]
        self.moves_done = [0, 0]
        self.turn_started = time.monotonic()
        self.ending: Optional[Ending] = None
        self.draw_offer: Optional[str] = None     # "w"/"b": that side offered a draw this move
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.note = ""                             # a message for the players (e.g. a declined offer)

    # ----------------------------------------------------------------- state
    @property
    def side(self) -> int:
        return self.pos.stm

    @property
    def over(self) -> bool:
        return self.ending is not None

    def human_to_move(self) -> bool:
        return not self.over and self.players[self.side] == HUMAN

    def running_clock(self) -> Optional[int]:
        """The side whose clock runs, or None: no clock, the game is over, or a side has yet to make
        its first move in this game (neither side's first move is timed, as on lichess)."""
        if not self.tc.has_clock or self.over or len(self.moves) < self.timed_from:
            return None
        return self.side

    def clock_left(self, side: int, now: Optional[float] = None) -> float:
        """Seconds left on ``side``'s clock now (the running clock counts down)."""
        if not self.tc.has_clock:
            return 0.0
        if side == self.running_clock():
            return self.clocks[side] - ((now or time.monotonic()) - self.turn_started)
        return self.clocks[side]

    # ----------------------------------------------------------------- changes
    def play(self, text: str, elapsed: Optional[float] = None) -> Move:
        """Make the move of coordinate (or SAN) ``text`` for the side to move and run its clock.
        Raises RulesError (illegal or malformed) or ValueError (the game is over)."""
        if self.over:
            raise ValueError("the game is over")
        move = self.pos.parse_text(text)
        self._make(move, elapsed)
        return move

    def play_move(self, move: Move, elapsed: Optional[float] = None) -> None:
        self._make(move, elapsed)

    def _make(self, move: Move, elapsed: Optional[float]) -> None:
        side = self.side
        now = time.monotonic()
        spent = now - self.turn_started if elapsed is None else elapsed
        if self.running_clock() is None:
            spent = 0.0
        if self.tc.has_clock:
            self.moves_done[side] += 1
            self.clocks[side] = self.tc.charge(self.clocks[side], spent, self.moves_done[side])
        self.sans.append(self.pos.san(move))
        self.moves.append(self.pos.move_text(move))
        self.last_squares.append(last_move_squares(self.pos, move))
        self.pos.push(move)
        self.fens.append(self.pos.fen())
        self.turn_started = now
        if self.draw_offer and self.draw_offer != "wb"[side]:   # offered a draw, the player moved instead
            self.note = "Draw offer declined"
            self.draw_offer = None
        elif not self.draw_offer:
            self.note = ""
        outcome = self.pos.outcome()
        if outcome is not None:
            self.ending = Ending(outcome.result, "normal", outcome_reason(outcome))

    def take_back(self, plies: int) -> None:
        """Undo ``plies`` moves (clocks keep their time: a takeback is a courtesy, not a refund)."""
        if plies < 1 or plies > len(self.moves):
            raise ValueError("nothing to take back")
        for _ in range(plies):
            self.pos.pop()
            self.moves.pop()
            self.sans.pop()
            self.fens.pop()
            self.last_squares.pop()
            side = self.pos.stm
            if self.tc.has_clock and self.moves_done[side]:
                self.moves_done[side] -= 1
        self.ending = None
        self.draw_offer = None
        self.turn_started = time.monotonic()

    def end(self, result: str, termination: str, reason: str) -> None:
        if not self.over:
            self.clocks = [self.clock_left(0), self.clock_left(1)]
            self.ending = Ending(result, termination, reason)

    def resign(self, side: int) -> None:
        self.end(*loss(side, "normal", f"{('White', 'Black')[side]} resigns"))

    # ----------------------------------------------------------------- views
    def record(self) -> GameRecord:
        ending = self.ending or Ending("*", "unterminated", "")
        return GameRecord(self._name(0), self._name(1), self.variant,
                          self.pos.root_fen() if self.custom_start else None, list(self.moves),
                          list(self.sans), ending.result, ending.termination, ending.reason,
                          self.tc.pgn(), "Browser game", "-", self.date)

    def _name(self, side: int) -> str:
        return "Human" if self.players[side] == HUMAN else self.players[side]

    def snapshot(self) -> Dict[str, Any]:
        """Everything a page needs to draw the game (JSON-ready)."""
        pos = self.pos
        v = pos.variant
        held = [v.names[sq] for sq in v.squares if pos.holder_of(v.names[sq])]
        check = v.names[pos.kings[pos.stm]] if pos.is_check() else None      # (the mated king too)
        targets = move_targets(pos) if self.human_to_move() else []
        can_pass = self.human_to_move() and any(m.kind == PASS for m in pos.legal_moves())
        return {
            "type": "state", "id": self.id, "variant": self.variant, "players": self.players,
            "names": [self._name(0), self._name(1)],
            "tc": self.tc_text, "hasClock": self.tc.has_clock,
            "clocks": [round(self.clock_left(0), 3), round(self.clock_left(1), 3)],
            "running": self.running_clock(),
            "turn": pos.turn, "fens": self.fens, "sans": self.sans,
            "lastSquares": [list(s) for s in self.last_squares],
            "held": held, "forbidden": pos.push_forbidden_squares(), "check": check,
            "targets": targets,
            "canPass": can_pass, "humanToMove": self.human_to_move(),
            "result": self.ending.result if self.ending else None,
            "reason": self.ending.reason if self.ending else None,
            "drawOffer": self.draw_offer, "note": self.note,
        }

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> Dict[str, Any]:
        return {"variant": self.variant, "start_fen": self.start_fen, "custom_start": self.custom_start,
                "players": self.players, "tc": self.tc_text, "moves": self.moves, "id": self.id,
                "clocks": [self.clock_left(0), self.clock_left(1)], "moves_done": self.moves_done,
                "ending": list(self.ending) if self.ending else None, "date": self.date}

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "WebGame":
        """A saved game (raises ValueError or RulesError if the data are not a game)."""
        tc_text = str(data["tc"])
        game = cls(str(data["variant"]), [str(p) for p in data["players"]], parse_time_control(tc_text),
                   tc_text, start_fen=str(data["start_fen"]), game_id=int(data.get("id", 1)))
        game.custom_start = bool(data.get("custom_start", True))
        for text in data["moves"]:
            game.play_move(game.pos.parse_move(str(text)), elapsed=0.0)
        game.clocks = [float(c) for c in data["clocks"]]
        game.moves_done = [int(n) for n in data["moves_done"]]
        if data.get("ending"):
            game.ending = Ending(*[str(x) for x in data["ending"]])
        game.date = str(data.get("date", game.date))
        game.turn_started = time.monotonic()
        return game




def load_pgn(text: str) -> Tuple[str, Optional[str], List[str], Dict[str, str]]:
    """The variant, start FEN, coordinate moves and tags of the first game of a PGN text; every
    move checked by the rules core.  Raises ValueError with a reason people can act on."""
    games = list(read_games(io.StringIO(text if text.rstrip().endswith(("1-0", "0-1", "1/2-1/2", "*"))
                                        else text.rstrip() + " *")))
    if not games:
        raise ValueError("no game found in the PGN text")
    game = games[0]
    try:
        end = replay(game)
    except RulesError as error:
        raise ValueError(str(error)) from None
    variant, fen = end.v.name, game.tags.get("FEN")
    pos = Position.from_fen(fen, variant) if fen else Position(variant)
    moves = []
    for move in end.move_stack:
        moves.append(pos.move_text(move))
        pos.push(move)
    return variant, fen, moves, game.tags
