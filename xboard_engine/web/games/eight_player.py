"""8 Player Chess as the browser boards see it, without I/O: the bot levels, the armies' pictures,
the clock, the legal moves as clicks, ``EightGame`` (the rules' ``Game`` with players, clocks and
the scoreboard view) and the page's first message (``board_hello``).  The server's table adapter
(``tables.EightPlayerTable``) hosts it."""
import datetime
import time
from typing import Any, Dict, List, Optional, Tuple

from ...core.moves import CASTLE, Move
from ...images import ORTHODOX_DRAWINGS, drawing
from ...multi.game import MODES, OPTION_NAMES, Game
from ...multi.notation import move_text as notation_move_text
from ...multi.position import ACTIVE, ZOMBIE
from ...multi.rules import GREY, KIND_LETTERS, POINT_QUEEN
from ...time_control import parse_minutes_clock

HUMAN = "human"
# Bot levels: name -> (words, Bot keyword arguments; None: a random legal move, no search).
BOT_LEVELS: Dict[str, Tuple[str, Optional[Dict[str, Any]]]] = {
    "random": ("Random mover", None),
    "fast": ("Bot, fast (depth 1)", {"depth": 1, "movetime": 0.3}),
    "normal": ("Bot, 1 s a move", {"movetime": 1.0}),
    "strong": ("Bot, 3 s a move", {"movetime": 3.0}),
}
TIME_CONTROLS = ["none", "10+5", "5+3", "3+2", "1+1", "15+10"]
ARMY_FILLS = ["#ffffff", "#e0302a", "#2f6fe0", "#f5d312", "#9040c8", "#f58a14", "#2ea043", "#000000", "#9a9a9a"]
CREAM = "#ffffcc"
MAX_PACE = 10.0


# --------------------------------------------------------------------- pictures
def piece_picture(army: int, kind: int) -> str:
    """The SVG of unit ``kind`` (1..7) of ``army`` (0..7 a seat, 8 grey): the orthodox drawing with
    the army's body colour; the 1 Point Queen is a queen with a "1" on it.  Raises KeyError."""
    if not 0 <= army <= GREY or not 1 <= kind <= POINT_QUEEN:
        raise KeyError((army, kind))
    letter = "Q" if kind == POINT_QUEEN else KIND_LETTERS[kind]
    if army == 7:
        svg = drawing(ORTHODOX_DRAWINGS[letter], False)        # black body, cream details
    else:
        svg = drawing(ORTHODOX_DRAWINGS[letter], True).replace(CREAM, ARMY_FILLS[army])
    if kind == POINT_QUEEN:
        ink, paper = ("#ffffcc", "#000000") if army == 7 else ("#000000", "#ffffff")
        svg = svg.replace("</svg>", f'  <circle cx="50" cy="58" r="14" fill="{paper}" stroke="{ink}" stroke-width="2.5"/>\n'
                          f'  <text x="50" y="67" font-size="26" font-weight="bold" text-anchor="middle" '
                          f'font-family="sans-serif" fill="{ink}">1</text>\n</svg>')
    return svg


# --------------------------------------------------------------------- the game
def click_targets(game: Game) -> List[Dict[str, Any]]:
    """Each legal move of the seat to move as the squares clicked (from, to; a castle is the king
    and its destination) with the moves they may mean: several for a promotion (a chooser)."""
    pos = game.position
    names = game.v.names
    legal = game.legal_moves()
    by_path: Dict[Tuple[str, str], List[Dict[str, str]]] = {}
    for m in legal:
        text = notation_move_text(pos, m, legal=legal)
        promo = KIND_LETTERS[m.placed & 7] if m.kind != CASTLE and m.placed != pos.board[m.frm] else ""
        if promo == "D":
            promo = "Q"
        by_path.setdefault((names[m.frm], names[m.to]), []).append({"text": text, "promotion": promo})
    return [{"path": list(path), "options": options} for path, options in sorted(by_path.items())]


class EightGame:
    """One game of 8 Player Chess as the board hosts it: the rules' ``Game``, who plays each seat
    (``HUMAN`` or a bot level), the clocks (seconds, measured here) and the bots' pace."""

    def __init__(self, mode: str = "singles", options: Optional[Dict[str, Any]] = None,
                 players: Optional[List[str]] = None, tc: str = "none", pace: float = 0.5,
                 game_id: int = 1, seed: Optional[int] = None, game: Optional[Game] = None) -> None:
        players = list(players) if players is not None else [HUMAN] + ["fast"] * 7
        if len(players) != 8:
            raise ValueError(f"players: want 8 (one per seat), got {len(players)}")
        for p in players:
            if p != HUMAN and p not in BOT_LEVELS:
                raise ValueError(f"player {p!r}: want human or a bot level ({', '.join(BOT_LEVELS)})")
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= MAX_PACE:
            raise ValueError(f"pace: seconds a bot move shows for at least, 0 to {MAX_PACE:g}")
        self.game = game if game is not None else Game(mode, options or {}, seed=seed)
        self.players = players
        self.tc_text, self.tc = parse_minutes_clock(tc)
        self.pace = float(pace)
        self.id = game_id
        self.clocks = [self.tc.base] * 8
        self.turn_started = time.monotonic()
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.note = ""                  # the last bot's search, or what happened last
        self.version = 0                # grows with every change: a bot's answer for an old one is dropped
        self.moved = {seat for seat, kind, _ in self.game.actions if kind == "move"}   # seats whose clocks run

    # ----------------------------------------------------------------- reading
    def player_name(self, seat: int) -> str:
        p = self.players[seat]
        return "Human" if p == HUMAN else BOT_LEVELS[p][0]

    def human_to_move(self) -> bool:
        turn = self.game.turn
        return turn is not None and self.players[turn] == HUMAN

    def running(self) -> Optional[int]:
        """The seat whose clock runs, or None: no clock, the game is over, or the seat to move has
        yet to make its first move (no seat's first move is timed)."""
        turn = self.game.turn
        return turn if self.tc.has_clock and turn in self.moved else None

    def clock_left(self, seat: int, now: Optional[float] = None) -> float:
        if not self.tc.has_clock:
            return 0.0
        if seat == self.running():
            return self.clocks[seat] - ((now or time.monotonic()) - self.turn_started)
        return self.clocks[seat]

    # ----------------------------------------------------------------- changes
    def _charge(self, seat: int, moved: bool) -> None:
        """``seat``'s turn has just ended (the game has already passed the turn on, so its clock is
        no longer the running one): the time since the turn began comes off it."""
        now = time.monotonic()
        if self.tc.has_clock and seat in self.moved:
            self.clocks[seat] += (self.tc.inc if moved else 0.0) - (now - self.turn_started)
        self.turn_started = now
        self.version += 1

    def play(self, move: Move) -> None:
        """Make legal ``move`` for the seat to move and charge its clock (raises RulesError)."""
        seat = self.game.turn
        if seat is None:
            raise ValueError("the game is over")
        self.game.play(move)
        self._charge(seat, True)
        self.moved.add(seat)

    def resign(self) -> None:
        seat = self.game.turn
        if seat is None:
            raise ValueError("the game is over")
        self.game.resign()
        self._charge(seat, False)
        self.note = f"{self.game.seat_name(seat)} resigns"

    def claim(self) -> None:
        seat = self.game.turn
        if seat is None:
            raise ValueError("the game is over")
        self.game.claim()
        self._charge(seat, False)

    # ----------------------------------------------------------------- views
    def last_move(self) -> Optional[List[str]]:
        """The from and to squares of the last move made (a Zombie King's too)."""
        return last_move(self.game)

    def snapshot(self) -> Dict[str, Any]:
        """Everything a page needs to draw the game (JSON-ready)."""
        g = self.game
        v = g.v
        board = board_view(g)
        seats = []
        for s in range(8):
            credit = g.credit.get(s)
            seats.append({"player": self.players[s], "name": self.player_name(s), "score": g.scores[s],
                          "status": g.status(s),
                          "credit": None if credit is None else
                          {"creditor": credit[0], "kind": "mate" if credit[1] == "m" else "stalemate"},
                          "pairScore": g.pair_score(s), "clock": round(self.clock_left(s), 3)})
        moves = []
        set_number, last = 1, -1
        for seat, kind, text in g.actions:
            if kind == "move" and last >= 0 and seat <= last:
                set_number += 1
            if kind == "move":
                last = seat
            moves.append([set_number, seat, kind, text])
        result = g.result
        turn = g.turn
        return {
            "type": "state", "id": self.id, "version": self.version, "mode": g.mode,
            "options": g.options.as_dict(), "players": self.players, "seats": seats,
            "teamScores": [g.team_score(t) for t in range(len(v.teams))] if g.mode_rules.scores_by_team else None,
            "turn": turn, "pieces": board["pieces"], "lastMove": board["lastMove"], "check": board["check"],
            "targets": click_targets(g) if self.human_to_move() else [],
            "humanToMove": self.human_to_move(),
            "claimAllowed": turn is not None and self.players[turn] == HUMAN and g.claim_allowed(turn),
            "tc": self.tc_text, "hasClock": self.tc.has_clock, "running": self.running(),
            "moves": moves, "log": [[i, words] for i, words in g.log], "note": self.note,
            "result": None if result is None else {"reason": result.reason, "winners": list(result.winners),
                                                    "scores": list(result.scores), "draw": result.draw},
        }

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> Dict[str, Any]:
        return {"game": self.game.to_dict(), "players": self.players, "tc": self.tc_text, "pace": self.pace,
                "id": self.id, "date": self.date,
                "clocks": [self.clock_left(s) for s in range(8)]}

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "EightGame":
        """A saved game (raises ValueError, KeyError, TypeError or RulesError if it is not one)."""
        game = Game.from_dict(data["game"])
        out = cls(players=[str(p) for p in data["players"]], tc=str(data["tc"]), pace=float(data["pace"]),
                  game_id=int(data["id"]), game=game)
        clocks = [float(c) for c in data["clocks"]]
        if len(clocks) != 8:
            raise ValueError("eight clocks wanted")
        out.clocks = clocks
        out.date = str(data.get("date", out.date))
        return out


def last_move(g: Game) -> Optional[List[str]]:
    """The from and to squares of the last move made in ``g`` (a Zombie King's too)."""
    for entry in reversed(getattr(g.position, "_stack", [])):
        m = entry[0]
        if m is not None:
            return [g.v.names[m[0]], g.v.names[m[1]]]
    return None


def board_view(g: Game) -> Dict[str, Any]:
    """What the board shows of ``g`` now: each unit (square -> [army, kind]), the last move, the
    checked kings' squares, the seat to move and the points."""
    pos = g.position
    names = g.v.names
    pieces = {}
    for army in range(GREY + 1):
        for sq in pos.units[army]:
            pieces[names[sq]] = [army, pos.board[sq] & 7]
    checked = [names[pos.kings[s]] for s in range(8)
               if pos.state[s] in (ACTIVE, ZOMBIE) and pos.kings[s] and pos.in_check(s)]
    return {"pieces": pieces, "lastMove": last_move(g), "check": checked, "turn": g.turn, "scores": list(g.scores)}


def board_views(saved: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The board (``board_view``) after each number of actions of a saved game (``Game.to_dict``),
    from none to all.  A Zombie King's move is played by the game itself with the move before it,
    so the boards of the two are the same."""
    g = Game.from_dict(dict(saved, actions=[]))
    views = [board_view(g)]
    for action in saved["actions"]:
        g.replay([action])
        views.append(board_view(g))
    return views


def board_hello(v: Any) -> Dict[str, Any]:
    """What an 8 Player Chess page needs before its first state: modes, options, bot levels, clocks,
    the seats (colours, partners, teams, the way their pawns go) and the board's squares of
    multi-variant ``v``."""
    return {"type": "hello", "modes": list(MODES),
            "options": [{"name": n, "help": h, "modes": list(m),
                         "kind": "points" if n == "custom_points" else "number" if n == "checkmates_needed"
                         else "flag"} for n, (h, m) in OPTION_NAMES.items()],
            "levels": [{"name": k, "words": w} for k, (w, _) in BOT_LEVELS.items()],
            "timeControls": TIME_CONTROLS,
            "seats": [{"colour": s.colour, "letter": s.letter, "numeral": s.numeral, "fill": ARMY_FILLS[i],
                       "partner": v.partner[i], "team": v.team_of[i], "direction": s.direction}
                      for i, s in enumerate(v.seats)],
            "teamNames": list(v.team_names), "files": v.files, "ranks": v.ranks,
            "squares": [[v.names[sq], v.file_of[sq], v.rank_of[sq]] for sq in v.squares]}
