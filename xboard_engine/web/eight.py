"""8 Player Chess in the browser board: the game as pages see it (``EightGame``: players, clocks,
the legal moves as clicks, the scoreboard) and the room that hosts it (``EightRoom``: one game, its
bots thinking in threads, its clocks, its pages, its file on disk).  No aiohttp here: ``server.py``
hands the room each page's messages and a function that sends text back.

Messages from a page are JSON objects with a ``type``: ``new`` (mode, options, players: eight of
``human`` or a bot level, tc, pace), ``move`` (move: the text's notation or squares such as ``h2h3``;
seat: optional, the seat the page thinks is to move), ``resign`` and ``claim`` (for the seat to move).
The room answers ``hello`` (modes, options, levels, seats, board squares), ``state`` (the whole game)
and ``error`` (why a message was refused; nothing changed).
"""
import asyncio
import concurrent.futures
import datetime
import json
import os
import random
import re
import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from ..errors import RulesError
from ..images import ORTHODOX_DRAWINGS, drawing
from ..moves import CASTLE, Move
from ..multi.game import MODES, OPTION_NAMES, Game
from ..multi.notation import move_text as notation_move_text
from ..multi.position import ACTIVE, ZOMBIE
from ..multi.record import write_record
from ..multi.rules import GREY, KIND_LETTERS, POINT_QUEEN

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


# --------------------------------------------------------------------- clocks
class Clock:
    """A time control of minutes + seconds added per move (``10+5``), or ``none``."""

    def __init__(self, text: str) -> None:
        text = text.strip().lower()
        self.text = text
        if text in ("", "none", "-"):
            self.text, self.base, self.increment = "none", 0.0, 0.0
            return
        match = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(?:\+([0-9]+(?:\.[0-9]+)?))?", text)
        if not match:
            raise ValueError(f"time control {text!r}: want MINUTES+SECONDS (e.g. 10+5) or none")
        self.base = float(match.group(1)) * 60
        self.increment = float(match.group(2) or 0)
        if not 0 < self.base <= 24 * 3600 or self.increment > 3600:
            raise ValueError(f"time control {text!r} is out of range (up to 1440 minutes, 3600 s a move)")

    @property
    def on(self) -> bool:
        return self.base > 0


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
        self.clock = Clock(tc)
        self.pace = float(pace)
        self.id = game_id
        self.clocks = [self.clock.base] * 8
        self.turn_started = time.monotonic()
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.note = ""                  # the last bot's search, or what happened last
        self.version = 0                # grows with every change: a bot's answer for an old one is dropped

    # ----------------------------------------------------------------- reading
    def player_name(self, seat: int) -> str:
        p = self.players[seat]
        return "Human" if p == HUMAN else BOT_LEVELS[p][0]

    def human_to_move(self) -> bool:
        turn = self.game.turn
        return turn is not None and self.players[turn] == HUMAN

    def running(self) -> Optional[int]:
        """The seat whose clock runs, or None (no clock or the game is over)."""
        return self.game.turn if self.clock.on else None

    def clock_left(self, seat: int, now: Optional[float] = None) -> float:
        if not self.clock.on:
            return 0.0
        if seat == self.running():
            return self.clocks[seat] - ((now or time.monotonic()) - self.turn_started)
        return self.clocks[seat]

    # ----------------------------------------------------------------- changes
    def _charge(self, seat: int, moved: bool) -> None:
        """``seat``'s turn has just ended (the game has already passed the turn on, so its clock is
        no longer the running one): the time since the turn began comes off it."""
        now = time.monotonic()
        if self.clock.on:
            self.clocks[seat] += (self.clock.increment if moved else 0.0) - (now - self.turn_started)
        self.turn_started = now
        self.version += 1

    def play(self, move: Move) -> None:
        """Make legal ``move`` for the seat to move and charge its clock (raises RulesError)."""
        seat = self.game.turn
        if seat is None:
            raise ValueError("the game is over")
        self.game.play(move)
        self._charge(seat, True)

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

    def flag(self) -> bool:
        """The seat to move loses on time if its clock has run out; True if it did."""
        seat = self.running()
        if seat is None or self.clock_left(seat) > 0:
            return False
        self.game.timeout()
        self.clocks[seat] = 0.0
        self._charge(seat, False)
        self.clocks[seat] = 0.0
        self.note = f"{self.game.seat_name(seat)} runs out of time"
        return True

    # ----------------------------------------------------------------- views
    def last_move(self) -> Optional[List[str]]:
        """The from and to squares of the last move made (a Zombie King's too)."""
        for entry in reversed(getattr(self.game.position, "_stack", [])):
            m = entry[0]
            if m is not None:
                return [self.game.v.names[m[0]], self.game.v.names[m[1]]]
        return None

    def record(self) -> str:
        return write_record(self.game, players={s: self.player_name(s) for s in range(8)})

    def snapshot(self) -> Dict[str, Any]:
        """Everything a page needs to draw the game (JSON-ready)."""
        g = self.game
        v = g.v
        pos = g.position
        names = v.names
        pieces = {}
        for army in range(GREY + 1):
            for sq in pos.units[army]:
                code = pos.board[sq]
                pieces[names[sq]] = [army, code & 7]
        checked = [names[pos.kings[s]] for s in range(8)
                   if pos.state[s] in (ACTIVE, ZOMBIE) and pos.kings[s] and pos.in_check(s)]
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
            "teamScores": [g.team_score(t) for t in range(len(v.teams))] if g.mode == "teams" else None,
            "turn": turn, "pieces": pieces, "lastMove": self.last_move(), "check": checked,
            "targets": click_targets(g) if self.human_to_move() else [],
            "humanToMove": self.human_to_move(),
            "claimAllowed": turn is not None and self.players[turn] == HUMAN and g.claim_allowed(turn),
            "tc": self.clock.text, "hasClock": self.clock.on, "running": self.running(),
            "moves": moves, "log": [[i, words] for i, words in g.log], "note": self.note,
            "result": None if result is None else {"reason": result.reason, "winners": list(result.winners),
                                                    "scores": list(result.scores), "draw": result.draw},
        }

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> Dict[str, Any]:
        return {"game": self.game.to_dict(), "players": self.players, "tc": self.clock.text, "pace": self.pace,
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


def _bot_class():
    """The search bots (``xboard_engine.multi.bots.Bot``) if they are there, else None."""
    try:
        from ..multi.bots import Bot
    except ImportError:
        return None
    return Bot


# --------------------------------------------------------------------- the room
Sender = Callable[[str], Awaitable[None]]


class EightRoom:
    """The one 8 Player Chess game the server hosts, its pages (each bound to one seat or to every
    human seat) and its bots.  Runs on the server's asyncio loop; bots think in worker threads."""

    def __init__(self, data_dir: str) -> None:
        self.data_dir = data_dir
        self.state_path = os.path.join(data_dir, "8pc-current.json")
        self.records_path = os.path.join(data_dir, "8pc-games.txt")
        self.clients: Dict[Sender, Optional[int]] = {}
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="8pc-bot")
        self.bots: Dict[int, Any] = {}
        self.thinking: Optional[Any] = None
        self.flag_timer: Optional[asyncio.TimerHandle] = None
        self.record_written = False
        self.stopped = False             # the server is stopping: the game stays as it was saved then
        self.rng = random.Random()
        self.game = self._resume() or EightGame()

    # ----------------------------------------------------------------- persistence
    def _resume(self) -> Optional[EightGame]:
        try:
            with open(self.state_path, encoding="utf-8") as f:
                data = json.load(f)
            game = EightGame.from_json(data)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, IndexError, RulesError) as error:
            print(f"xboard-engine web: cannot resume the saved 8 Player Chess game ({error}); starting a new one")
            return None
        self.record_written = bool(data.get("record_written"))
        return game

    def save(self) -> None:
        """Write the game's state (atomically); nothing once the server is stopping."""
        if self.stopped:
            return
        data = self.game.to_json()
        data["record_written"] = self.record_written
        tmp = self.state_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, self.state_path)

    def _append_record(self) -> None:
        if not self.record_written and self.game.game.actions:
            with open(self.records_path, "a", encoding="utf-8") as f:
                f.write(self.game.record() + "\n")
            self.record_written = True

    # ----------------------------------------------------------------- pages
    def hello(self) -> Dict[str, Any]:
        return board_hello(self.game.game.v)

    def seat_of_letter(self, letter: Optional[str]) -> Optional[int]:
        """The seat a page is bound to (``w``, ``r``, ... or ``i``, ``ii``, ...; None or "" for every
        human seat).  Raises ValueError for an unknown one."""
        if letter in (None, "", "all"):
            return None
        for i, s in enumerate(self.game.game.v.seats):
            if letter.lower() in (s.letter, s.numeral, s.colour.lower()):
                return i
        raise ValueError(f"unknown seat {letter!r}: want one of w r b y p o g n (or i..viii)")

    async def attach(self, send: Sender, seat: Optional[int]) -> None:
        self.clients[send] = seat
        await send(json.dumps(dict(self.hello(), seat=seat)))
        await send(json.dumps(self.game.snapshot()))

    def detach(self, send: Sender) -> None:
        self.clients.pop(send, None)

    def broadcast(self) -> None:
        text = json.dumps(self.game.snapshot())
        for send in list(self.clients):
            asyncio.ensure_future(_quietly(send(text)))

    async def handle(self, send: Sender, text: str) -> None:
        """One message from a page; a refused one gets an ``error`` reply and changes nothing."""
        try:
            if self.stopped:
                raise ValueError("the server is stopping")
            try:
                data = json.loads(text)
            except ValueError:
                raise ValueError("a message is JSON text") from None
            except RecursionError:
                raise ValueError("a message is nested too deep") from None
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise ValueError("a message is a JSON object with a \"type\"")
            handler = _HANDLERS.get(data["type"])
            if handler is None:
                raise ValueError(f"unknown message type {data['type']!r}")
            handler(self, data, self.clients.get(send))
        except (ValueError, RulesError, TypeError, KeyError) as error:
            message = str(error) if not isinstance(error, KeyError) else f"missing field {error}"
            await _quietly(send(json.dumps({"type": "error", "message": message})))

    # ----------------------------------------------------------------- messages
    def _acting_seat(self, data: Dict[str, Any], bound: Optional[int]) -> int:
        g = self.game
        turn = g.game.turn
        if turn is None:
            raise ValueError("the game is over")
        names = g.game.v.seats
        if g.players[turn] != HUMAN:
            raise ValueError(f"it is {names[turn].colour}'s move, a bot's")
        if bound is not None and bound != turn:
            raise ValueError(f"this page plays {names[bound].colour}; it is {names[turn].colour}'s move")
        expected = data.get("seat")
        if expected is not None and expected != turn:
            raise ValueError(f"it is {names[turn].colour}'s move now")
        return turn

    def on_new(self, data: Dict[str, Any], bound: Optional[int]) -> None:
        if bound is not None:
            raise ValueError("a page bound to one seat cannot start a game; use the page without ?seat=")
        mode = data.get("mode", "singles")
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
        options = data.get("options")
        options = {} if options is None else options
        players = data.get("players")
        tc = data.get("tc", "none")
        pace = data.get("pace", 0.5)
        if not isinstance(options, dict):
            raise ValueError("options: want an object of option names and values")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("players: want a list of 8 names (human or a bot level)")
        if not isinstance(tc, str):
            raise ValueError("tc must be text")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError("seed: want a whole number")
        game = EightGame(mode, options, players, tc, pace, game_id=self.game.id + 1, seed=seed)
        self._append_record()
        self._stop_bots()
        self.game = game
        self.record_written = False
        self.bots = {}
        self._after_change()

    def on_move(self, data: Dict[str, Any], bound: Optional[int]) -> None:
        text = data.get("move")
        if not isinstance(text, str) or not text.strip():
            raise ValueError("move: want the move's text, e.g. h3, Nf3, O-O")
        self._acting_seat(data, bound)
        move = self.game.game.parse_move(text.strip())
        self.game.play(move)
        self.game.note = ""
        self._after_change()

    def on_resign(self, data: Dict[str, Any], bound: Optional[int]) -> None:
        self._acting_seat(data, bound)
        self.game.resign()
        self._after_change()

    def on_claim(self, data: Dict[str, Any], bound: Optional[int]) -> None:
        seat = self._acting_seat(data, bound)
        if not self.game.game.claim_allowed(seat):
            raise ValueError("no claim now: two players left, on your move, ahead by 26 or more")
        self.game.claim()
        self._after_change()

    # ----------------------------------------------------------------- the game's course
    def _after_change(self) -> None:
        if self.flag_timer:
            self.flag_timer.cancel()
            self.flag_timer = None
        self.save()
        g = self.game
        if g.game.over:
            self._append_record()
            self.save()
            self._stop_bots()
            self.broadcast()
            return
        self.broadcast()
        seat = g.running()
        if seat is not None:
            self.flag_timer = asyncio.get_event_loop().call_later(
                max(0.0, g.clock_left(seat)) + 0.02, self._check_flag, g)
        if not g.human_to_move():
            asyncio.ensure_future(self._bot_move(g, g.version))

    def _check_flag(self, game: EightGame) -> None:
        self.flag_timer = None
        if game is not self.game or game.game.over:
            return
        if game.flag():
            self._stop_bots()
            self._after_change()
        elif game.running() is not None:
            self.flag_timer = asyncio.get_event_loop().call_later(
                max(0.01, game.clock_left(game.running())), self._check_flag, game)

    def _bot(self, seat: int) -> Optional[Any]:
        """The search bot of ``seat`` (made on first use), or None for a random mover or without bots."""
        level = BOT_LEVELS[self.game.players[seat]][1]
        bot_class = _bot_class()
        if level is None or bot_class is None:
            return None
        if seat not in self.bots:
            self.bots[seat] = bot_class(seed=self.rng.randrange(1 << 30), **level)
        return self.bots[seat]

    async def _bot_move(self, game: EightGame, version: int) -> None:
        seat = game.game.turn
        if seat is None:
            return
        started = time.monotonic()
        bot = None
        try:
            bot = self._bot(seat)
            snapshot = game.game.copy()     # the bot reads it in another thread
            if bot is None:
                moves = snapshot.legal_moves()
                move = moves[self.rng.randrange(len(moves))]
            else:
                if game.clock.on and hasattr(bot, "movetime"):
                    level = BOT_LEVELS[game.players[seat]][1] or {}
                    budget = game.clock_left(seat) / 25 + game.clock.increment * 0.7
                    bot.movetime = max(0.05, min(float(level.get("movetime", 1.0)), budget))
                self.thinking = bot
                move = await asyncio.get_event_loop().run_in_executor(self.pool, bot.choose, snapshot)
        except Exception as error:                       # a bot's fault must not stop the game
            moves = game.game.legal_moves() if game is self.game and game.version == version else []
            if not moves:
                return
            print(f"xboard-engine web: the bot of {game.game.seat_name(seat)} failed ({error!r}); "
                  "it plays a random move")
            move = moves[self.rng.randrange(len(moves))]
        finally:
            self.thinking = None
        rest = game.pace - (time.monotonic() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        if game is not self.game or game.version != version or game.game.over or self.stopped:
            return                                    # the game changed meanwhile: the answer is stale
        if move not in game.game.legal_moves():
            move = self.rng.choice(game.game.legal_moves())
        text = notation_move_text(game.game.position, move)
        game.play(move)
        last = getattr(bot, "last", None) if bot is not None else None
        game.note = f"{game.game.seat_name(seat)} played {text}" + _search_words(last)
        self._after_change()

    def _stop_bots(self) -> None:
        bot = self.thinking
        if bot is not None and hasattr(bot, "stop"):
            try:
                bot.stop()
            except Exception:
                pass

    async def resume(self) -> None:
        """After a server start: the clocks start again and the bots play on."""
        self.game.turn_started = time.monotonic()
        if not self.game.game.over:
            self._after_change()

    def stop(self) -> None:
        """The server is stopping: save the game with its clocks as they are now (it resumes from
        there at the next start), stop the bots and change the game no more."""
        if self.flag_timer:
            self.flag_timer.cancel()
            self.flag_timer = None
        self.save()
        self.stopped = True
        self._stop_bots()

    async def shutdown(self) -> None:
        """After ``stop``."""
        self.pool.shutdown(wait=False)


def _search_words(last: Any) -> str:
    """A bot's last search (``Bot.last``: depth, nodes, seconds) in words, or nothing."""
    if not isinstance(last, dict) or "depth" not in last:
        return ""
    try:
        return f" (depth {int(last['depth'])}, {int(last.get('nodes', 0))} nodes, {float(last.get('seconds', 0)):.2f} s)"
    except (TypeError, ValueError):
        return ""


async def _quietly(sending: Awaitable[None]) -> None:
    try:
        await sending
    except (ConnectionError, RuntimeError):
        pass


_HANDLERS = {"new": EightRoom.on_new, "move": EightRoom.on_move, "resign": EightRoom.on_resign,
             "claim": EightRoom.on_claim}
