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
import json
import os
import random
import time
from typing import Any, Awaitable, Callable, Dict, Optional

from ..errors import RulesError
from ..multi.game import MODES
from ..multi.notation import move_text as notation_move_text
from .eight_game import BOT_LEVELS, HUMAN, EightGame, board_hello

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
