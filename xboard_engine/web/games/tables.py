"""One adapter per kind of game over the rules core: ``TwoPlayerTable`` (chess, Chess960, 8-Piece,
Full Cavalry, Chess80: the rules core's ``Position`` through the browser board's ``WebGame``) and
``EightPlayerTable`` (8 Player Chess through ``EightGame``).  A table takes actions of a seat
(``move``, ``resign``, ``offer``, ``draw``, ``claim``, ``timeout``, ``abandon``), replays stored
ones, keeps the clocks and gives the view every page gets.  No I/O: ``hall`` stores and sends."""
import random
import time
from typing import Any, Dict, List, Optional, Tuple

from ...core.errors import RulesError
from ...core.variant import get_variant, variant_names
from ...match.pgn import game_to_pgn
from ...match.referee import loss
from ...multi.game import MODES, Game
from ...multi.notation import move_text as eight_move_text
from ...multi.record import write_record
from ...time_control import parse_minutes_clock, parse_time_control
from ..rooms.wire import dumps
from .eight_player import BOT_LEVELS as EIGHT_LEVELS, HUMAN, EightGame, board_hello
from .two_player import WebGame, load_pgn, variant_info

TWO_PLAYER_CLOCKS = ["300+3", "60+1", "180+2", "600+5", "900+10", "1800+20", "none"]
# One person's server (xboard-engine web) offers the tournament runner's controls too: moves in a
# session, and engines' seconds a move or search depth without a clock.
LOCAL_CLOCKS = ["300+3", "60+1", "180+2", "600+5", "900+10", "40/300", "none", "st=2", "depth=2"]
EIGHT_PLAYER_CLOCKS = ["10+5", "5+3", "3+2", "1+1", "15+10", "none"]
# Our engine's levels in two-player games: name -> (words, seconds a move, skill 0..20).
TWO_LEVELS: Dict[str, Tuple[str, float, int]] = {
    "easy": ("Engine, easy (skill 4)", 0.3, 4),
    "medium": ("Engine, medium (skill 12)", 0.5, 12),
    "strong": ("Engine, 1 s a move", 1.0, 20),
    "max": ("Engine, 3 s a move", 3.0, 20),
}


class Refused(ValueError):
    """An action the game does not allow now (the message says why; nothing changed)."""


class Table:
    """What the hall needs of a game of any kind."""
    kind = ""
    seat_count = 0
    seat_labels: List[str] = []

    def seat_to_move(self) -> Optional[int]: raise NotImplementedError
    @property
    def over(self) -> bool: raise NotImplementedError
    def clocks(self) -> List[float]: raise NotImplementedError
    def set_clocks(self, clocks: List[float]) -> None: raise NotImplementedError
    def restart_clock(self) -> None: raise NotImplementedError
    def time_left(self) -> Optional[float]: raise NotImplementedError
    def flag(self) -> Optional[int]: raise NotImplementedError
    def board_info(self) -> Dict[str, Any]: raise NotImplementedError  # what the page draws from
    def result(self) -> Optional[Dict[str, Any]]: raise NotImplementedError
    def view(self) -> Dict[str, Any]: raise NotImplementedError
    def fresh(self, view: Dict[str, Any]) -> Dict[str, Any]: raise NotImplementedError

    changes = 0                        # counts act calls: a view built since is still good
    _text_at = -1
    _texts: Dict[bool, str] = {}
    # The view's lists that only grow with the game (a takeback shortens them): a page that has them
    # is sent only what changed at their end (``view_text``'s ``since``).
    history_keys: Tuple[str, ...] = ()
    _low: Optional[Dict[str, int]] = None

    def _act(self, seat: int, kind: str, text: str) -> str: raise NotImplementedError
    def history_lengths(self) -> Dict[str, int]: raise NotImplementedError

    def act(self, seat: int, kind: str, text: str = "") -> str:
        """Do ``kind`` for ``seat``; the text to store (a move's coordinates).  Raises Refused or
        RulesError (an illegal move) and changes nothing then."""
        self.changes += 1
        try:
            return self._act(seat, kind, text)
        finally:
            if self._low is not None:             # the history every page has kept, since the mark
                now = self.history_lengths()
                self._low = {k: min(n, now[k]) for k, n in self._low.items()}

    def unchanged_history(self) -> Optional[Dict[str, int]]:
        """How much of each history list is as it was at ``mark_history`` (None: not marked)."""
        return self._low

    def mark_history(self) -> None:
        """Every page now has the history as it is (the state was sent to all of them)."""
        self._low = self.history_lengths()

    def view_text(self, extra: Dict[str, Any], since: Optional[Dict[str, int]] = None) -> str:
        """``view()`` and ``extra`` as one JSON object's text.  The view changes only with an action
        (its legal moves, SANs and FENs are the dear part): it is built and encoded once per action,
        and the parts that change with time (``fresh``: the clocks) are encoded anew each call.
        With ``since`` (a page has the first ``since[key]`` entries of each history list), the
        history lists are left out for ``"history": {key: [since, the entries after]}``."""
        if self._text_at != self.changes:
            self._view = self.view()
            self._text_at = self.changes
            self._texts = {}
        live = self.fresh(self._view)
        live.update(extra)
        bare = since is not None
        if bare:
            live["history"] = {k: [n, self._view[k][n:]] for k, n in since.items()}
        text = self._texts.get(bare)
        if text is None:
            fixed = {k: v for k, v in self._view.items() if k not in live and not (bare and k in self.history_keys)}
            text = self._texts[bare] = dumps(fixed)[:-1]
        return text + "," + dumps(live)[1:]

    def record(self, names: List[str]) -> Tuple[str, str, str]: raise NotImplementedError
    def team_of(self, seat: int) -> Optional[int]: return None
    def square_names(self) -> List[str]: raise NotImplementedError
    def summary(self) -> str: raise NotImplementedError
    def ply_count(self) -> int: raise NotImplementedError


# --------------------------------------------------------------------- two players
def check_two_player_config(config: Dict[str, Any]) -> Dict[str, Any]:
    """The challenge's game settings, checked: variant, clock, setup number, and a start position
    (a FEN, or a PGN game whose moves are played before the game begins)."""
    variant = config.get("variant", "normal")
    if not isinstance(variant, str) or variant not in variant_names():
        raise Refused(f"unknown variant {variant!r} (known: {', '.join(variant_names())})")
    tc = config.get("tc", "300+3")
    if not isinstance(tc, str) or len(tc) > 40:
        raise Refused("tc: want a time control such as 300+3 (seconds + increment) or none")
    if tc != "none":
        try:
            parse_time_control(tc)
        except ValueError as error:
            raise Refused(f"time control {tc!r}: {error}") from None
    fen, moves = config.get("fen") or None, []
    pgn = config.get("pgn") or None
    if pgn is not None:
        if not isinstance(pgn, str) or len(pgn) > 12000:
            raise Refused("pgn: want the text of one PGN game (at most 12000 characters)")
        try:
            variant, fen, moves, _ = load_pgn(pgn)
        except ValueError as error:
            raise Refused(f"PGN: {error}") from None
    number = config.get("number")
    v = get_variant(variant)
    if fen is not None:
        if not isinstance(fen, str) or len(fen) > 200:
            raise Refused("fen: want a FEN of the variant")
        try:
            WebGame(variant, [HUMAN, HUMAN], parse_time_control("300+3"), "300+3", start_fen=fen)
        except RulesError as error:
            raise Refused(f"bad FEN: {error}") from None
        number = None
    elif number not in (None, ""):
        count = v.setup_count if v.setup != "fixed" else 0
        if not count:
            raise Refused(f"{variant} has one setup; a setup number is for random-setup variants")
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < count:
            raise Refused(f"setup number: want 0..{count - 1}")
    elif v.setup != "fixed":
        number = random.randrange(v.setup_count)      # fixed now: a restart replays the same setup
    else:
        number = None
    out: Dict[str, Any] = {"variant": variant, "tc": tc, "number": number, "fen": fen}
    if moves:
        game = WebGame(variant, [HUMAN, HUMAN], parse_time_control("300+3"), "300+3", start_fen=fen, number=number)
        for text in moves:
            game.play_move(game.pos.parse_move(text), elapsed=0.0)
        if game.over:
            raise Refused(f"the PGN's game is over ({game.ending.reason}): nothing is left to play")
        out["moves"] = moves
    return out


class TwoPlayerTable(Table):
    kind = "two"
    seat_count = 2
    seat_labels = ["White", "Black"]

    def __init__(self, config: Dict[str, Any], players: List[str], game_id: int) -> None:
        tc_text = config["tc"] if config["tc"] != "none" else "st=1"
        self.has_clock = config["tc"] not in ("none",) and not tc_text.startswith(("st=", "depth="))
        self.variant = config["variant"]
        self.game = WebGame(config["variant"], players, parse_time_control(tc_text), config["tc"],
                            start_fen=config.get("fen"), number=config.get("number"), game_id=game_id)
        for text in config.get("moves") or []:          # a loaded game's moves, before anyone's
            self.game.play_move(self.game.pos.parse_move(text), elapsed=0.0)
        self.game.timed_from = len(self.game.moves) + 2
        self.loaded = len(self.game.moves)

    def board_info(self) -> Dict[str, Any]:
        return variant_info(self.variant)

    def seat_to_move(self) -> Optional[int]:
        return None if self.game.over else self.game.side

    @property
    def over(self) -> bool:
        return self.game.over

    history_keys = ("fens", "sans", "lastSquares")

    def history_lengths(self) -> Dict[str, int]:
        return {"fens": len(self.game.fens), "sans": len(self.game.sans), "lastSquares": len(self.game.last_squares)}

    def _act(self, seat: int, kind: str, text: str) -> str:
        g = self.game
        if g.over:
            raise Refused("the game is over")
        colour = ("White", "Black")[seat]
        if kind == "move":
            if seat != g.side:
                raise Refused(f"it is {self.seat_labels[g.side]}'s move")
            move = g.pos.parse_text(text)
            stored = g.pos.move_text(move)
            g.play_move(move)
            return stored
        if kind == "takeback":          # back ``text`` plies (agreed, or against a bot)
            plies = int(text)
            if not 1 <= plies <= len(g.moves):
                raise Refused("nothing to take back")
            g.take_back(plies)
            g.note = f"{plies} move{'s' if plies > 1 else ''} taken back"
            return text
        if kind == "resign":
            g.resign(seat)
        elif kind == "offer":
            if g.draw_offer == "wb"[1 - seat]:
                raise Refused("your opponent offers a draw: accept it (draw) or move on")
            g.draw_offer = "wb"[seat]
            g.note = f"{colour} offers a draw"
        elif kind == "draw":
            if g.draw_offer != "wb"[1 - seat]:
                raise Refused("there is no draw offer to accept")
            g.end("1/2-1/2", "normal", "Draw by agreement")
        elif kind == "decline":
            if g.draw_offer != "wb"[1 - seat]:
                raise Refused("there is no draw offer to decline")
            g.draw_offer = None
            g.note = f"{colour} declines the draw"
        elif kind == "claim":           # the opponent has been away longer than the grace time
            g.end(*loss(1 - seat, "abandoned", f"{self.seat_labels[1 - seat]} left the game"))
        elif kind == "timeout":
            g.end(*loss(seat, "time forfeit", f"{colour} loses on time"))
            g.clocks[seat] = 0.0
        elif kind == "ending":          # an outside engine's resignation, false claim or failure
            result, termination, reason = text.split("|", 2)
            g.end(result, termination, reason)
            return text
        else:
            raise Refused(f"unknown action {kind!r}")
        return kind

    def moves_back_to(self, seat: int) -> int:
        """Plies to take back so that ``seat`` is to move again with its last move undone (0 if
        it has made none since the game was loaded)."""
        g = self.game
        plies = 1 if g.side != seat else 2
        return plies if len(g.moves) - plies >= self.loaded else 0

    def clocks(self) -> List[float]:
        return [round(self.game.clock_left(s), 3) for s in (0, 1)] if self.has_clock else []

    def set_clocks(self, clocks: List[float]) -> None:
        if self.has_clock and len(clocks) == 2:
            self.game.clocks = [float(c) for c in clocks]

    def restart_clock(self) -> None:
        self.game.turn_started = time.monotonic()

    def time_left(self) -> Optional[float]:
        """Seconds until the running clock falls, or None."""
        if not self.has_clock or self.game.running_clock() is None:
            return None
        return self.game.clock_left(self.game.side)

    def flag(self) -> Optional[int]:
        """The seat whose clock has run out (the caller stores its timeout), or None."""
        if self.has_clock and self.game.running_clock() is not None and self.game.clock_left(self.game.side) <= 0:
            return self.game.side
        return None

    def result(self) -> Optional[Dict[str, Any]]:
        e = self.game.ending
        return None if e is None else {"result": e.result, "termination": e.termination, "reason": e.reason}

    def view(self) -> Dict[str, Any]:
        state = self.game.snapshot()
        if not self.has_clock:
            state["hasClock"] = False
        return state

    def fresh(self, view: Dict[str, Any]) -> Dict[str, Any]:
        g = self.game
        return {"clocks": [round(g.clock_left(0), 3), round(g.clock_left(1), 3)], "running": g.running_clock()}

    def record(self, names: List[str]) -> Tuple[str, str, str]:
        """The PGN text with the seats' names, its content type and file name."""
        record = self.game.record()._replace(white=names[0], black=names[1], event="Online game")
        return (game_to_pgn(record, site="xboard-engine serve"), "application/x-chess-pgn",
                f"game-{self.game.id}.pgn")

    def summary(self) -> str:
        return self.game.variant

    def square_names(self) -> List[str]:
        v = self.game.pos.variant
        return [v.names[sq] for sq in v.squares]

    def ply_count(self) -> int:
        return len(self.game.moves)


def two_player_info(variant: str) -> Dict[str, Any]:
    return variant_info(variant)


# --------------------------------------------------------------------- 8 Player Chess
def check_eight_player_config(config: Dict[str, Any]) -> Dict[str, Any]:
    mode = config.get("mode", "singles")
    if mode not in MODES:
        raise Refused(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    options = config.get("options") or {}
    if not isinstance(options, dict):
        raise Refused("options: want an object of option names and values")
    tc = config.get("tc", "10+5")
    if not isinstance(tc, str):
        raise Refused("tc: want MINUTES+SECONDS (e.g. 10+5) or none")
    try:
        parse_minutes_clock(tc)
        game = Game(mode, options)
    except (ValueError, RulesError) as error:
        raise Refused(str(error)) from None
    out = {"mode": mode, "options": game.options.as_dict(), "tc": tc, "seed": game.seed}
    wait = config.get("botsAfter")
    if wait not in (None, 0):
        if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 10 <= wait <= 3600:
            raise Refused("botsAfter: seconds (10 to 3600) before bots take the seats still free, or 0")
        out["botsAfter"] = int(wait)
    return out


class EightPlayerTable(Table):
    kind = "eight"
    seat_count = 8

    def __init__(self, config: Dict[str, Any], players: List[str], game_id: int) -> None:
        earlier = Game.from_dict(config["replay"]) if config.get("replay") else None   # an imported game
        self.game = EightGame(config["mode"], config["options"], players, config["tc"], pace=0.0,
                              game_id=game_id, seed=config["seed"], game=earlier)
        self.seat_labels = [s.colour for s in self.game.game.v.seats]

    def board_info(self) -> Dict[str, Any]:
        return board_hello(self.game.game.v)

    def seat_to_move(self) -> Optional[int]:
        return self.game.game.turn

    @property
    def over(self) -> bool:
        return self.game.game.over

    history_keys = ("moves", "log")

    def history_lengths(self) -> Dict[str, int]:
        return {"moves": len(self.game.game.actions), "log": len(self.game.game.log)}

    def _act(self, seat: int, kind: str, text: str) -> str:
        g = self.game
        turn = g.game.turn
        if turn is None:
            raise Refused("the game is over")
        if seat != turn:
            raise Refused(f"it is {self.seat_labels[turn]}'s move")
        if kind == "move":
            move = g.game.parse_move(text)
            stored = eight_move_text(g.game.position, move)
            g.play(move)
            g.note = ""
            return stored
        if kind == "resign":
            g.resign()
        elif kind == "claim":
            if not g.game.claim_allowed(seat):
                raise Refused("no claim now: two players left, on your move, ahead by 26 or more")
            g.claim()
        elif kind == "timeout":              # the clock ran out, or the owner was away past the grace time
            g.game.timeout()
            g.clocks[seat] = 0.0
            g.turn_started = time.monotonic()
            g.version += 1
            g.note = f"{self.seat_labels[seat]} runs out of time"
        else:
            raise Refused(f"unknown action {kind!r}")
        return kind

    def clocks(self) -> List[float]:
        return [round(self.game.clock_left(s), 3) for s in range(8)] if self.game.tc.has_clock else []

    def set_clocks(self, clocks: List[float]) -> None:
        if self.game.tc.has_clock and len(clocks) == 8:
            self.game.clocks = [float(c) for c in clocks]

    def restart_clock(self) -> None:
        self.game.turn_started = time.monotonic()

    def time_left(self) -> Optional[float]:
        seat = self.game.running()
        return None if seat is None else self.game.clock_left(seat)

    def flag(self) -> Optional[int]:
        seat = self.game.running()
        return seat if seat is not None and self.game.clock_left(seat) <= 0 else None

    def result(self) -> Optional[Dict[str, Any]]:
        r = self.game.game.result
        return None if r is None else {"reason": r.reason, "winners": list(r.winners),
                                       "scores": list(r.scores), "draw": r.draw}

    def view(self) -> Dict[str, Any]:
        return self.game.snapshot()

    def fresh(self, view: Dict[str, Any]) -> Dict[str, Any]:
        g = self.game
        return {"seats": [dict(seat, clock=round(g.clock_left(s), 3)) for s, seat in enumerate(view["seats"])],
                "running": g.running()}

    def record(self, names: List[str]) -> Tuple[str, str, str]:
        text = write_record(self.game.game, players=dict(enumerate(names)))
        return text, "text/plain", f"8pc-{self.game.id}.txt"

    def team_of(self, seat: int) -> Optional[int]:
        g = self.game.game
        return g.teams[seat] if g.mode_rules.has_teammates else None

    def summary(self) -> str:
        return f"8 Player Chess, {self.game.game.mode}"

    def square_names(self) -> List[str]:
        v = self.game.game.v
        return [v.names[sq] for sq in v.squares]

    def ply_count(self) -> int:
        return len(self.game.game.actions)


def make_table(kind: str, config: Dict[str, Any], players: List[str], game_id: int) -> Table:
    return (TwoPlayerTable if kind == "two" else EightPlayerTable)(config, players, game_id)


def bot_levels(kind: str) -> Dict[str, str]:
    """The bot levels of a kind of game: name -> words."""
    if kind == "two":
        return {name: words for name, (words, _, _) in TWO_LEVELS.items()}
    return {name: words for name, (words, _) in EIGHT_LEVELS.items()}
