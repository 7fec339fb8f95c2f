"""``xboard-engine bot``: any CECP (XBoard) or UCI engine plays on an ``xboard-engine serve`` server
as a bot account.

It keeps the engine connected to the server (reconnecting, 1 s to 30 s apart, when the server goes
away), accepts the challenges its owner's rules allow (variants, the range of clocks, rated or
casual games, games at once), declines the others with the reason, and plays each game on the
server's clocks with an engine process of its own (at most --max-games at once).  Draw offers and
takebacks are declined; an engine that resigns, fails or breaks the rules resigns the game.  One
line is printed per event.  Ctrl-C closes everything and resigns nothing.

The player the bot plays as is a token kept in --token-file (made at the first start; keep it:
it is the account).  A player who has played as a person cannot become a bot account, and games
between people and bots are never rated; bot accounts may play rated games with each other.
Clocks are counted as base + 40 increments, in seconds (300+3 is 420 s).  The protocol is in
docs/BOT_PROTOCOL.md."""
import argparse
import asyncio
import concurrent.futures
import json
import os
import re
import secrets
import shlex
import signal
import sys
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from .core.errors import RulesError
from .core.moves import Move
from .core.position import Position
from .core.variant import get_variant
from .match.engines import EngineConfig, EngineFailure, UciClient, kill_all, start_engine
from .match.seat import EngineSeat, Turn
from .paths import data_path
from .time_control import MAX_CLOCK_SECONDS, clock_seconds, parse_time_control
from .web.rooms.wire import whole_state

PROG = "xboard-engine bot"
COOKIE = "xbe_player"
FIRST_BACKOFF, MAX_BACKOFF = 1.0, 30.0
GAME_RETRIES = 5                  # reconnections to one game's page before it is left
REPLY_SECONDS = 15.0              # the server's answer to a message we wait for


class BotError(Exception):
    """Something that stops the bot before it plays (the text says what to do)."""


# --------------------------------------------------------------------- setting up
def _server_url(text: str) -> str:
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") \
            or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"want the server's address, e.g. https://chess.example.org, got {text!r}")
    return f"{parts.scheme}://{parts.netloc}"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_CLOCK_SECONDS:
        raise argparse.ArgumentTypeError(f"want seconds from 0 to {MAX_CLOCK_SECONDS}, got {text!r}")
    return value


def _command(text: str) -> str:
    try:
        if not shlex.split(text):
            raise ValueError("empty")
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"bad engine command {text!r}: {error}") from None
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, type=_server_url, metavar="URL",
                        help="the server's address, e.g. https://chess.example.org")
    parser.add_argument("--engine", required=True, type=_command, metavar="CMD",
                        help="the command that starts the engine (quoted if it has spaces)")
    parser.add_argument("--uci", action="store_true", help="the engine speaks UCI (default CECP/XBoard)")
    parser.add_argument("--name", help="the bot account's name (default: the engine's name and \"bot\")")
    parser.add_argument("--variants", metavar="LIST",
                        help="variants it plays, comma-separated (default: every one the engine and the "
                             "server both know)")
    parser.add_argument("--min-tc", type=_seconds, default=0.0, metavar="SECONDS",
                        help="the shortest clock it accepts, base + 40 increments (default %(default)s)")
    parser.add_argument("--max-tc", type=_seconds, default=float(MAX_CLOCK_SECONDS), metavar="SECONDS",
                        help="the longest clock it accepts, base + 40 increments (default %(default)s)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--rated", dest="rated", action="store_const", const="rated",
                        help="rated games only (with other bot accounts: people never play bots rated)")
    choice.add_argument("--casual", dest="rated", action="store_const", const="casual", help="casual games only")
    choice.add_argument("--both", dest="rated", action="store_const", const="both",
                        help="rated and casual games (the default)")
    parser.add_argument("--max-games", type=int, default=1, metavar="N",
                        help="games played at once, each with its own engine process (1 to 10; default 1)")
    parser.add_argument("--token-file", metavar="PATH",
                        help="where the account's token is kept (default "
                             "~/.local/share/xboard-engine/bot-NAME.token; made at the first start)")
    parser.set_defaults(rated="both")
    return parser


def default_token_file(name: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "bot"
    return data_path(f"bot-{safe}.token")


def load_token(path: str) -> str:
    """The account's token from ``path``; a new random one written there (mode 0600) if it has none."""
    try:
        with open(path, encoding="ascii") as f:
            token = f.read().strip()
    except FileNotFoundError:
        os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
        token = secrets.token_urlsafe(24)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
    except (OSError, UnicodeDecodeError) as error:
        raise BotError(f"cannot read the token file {path}: {error}") from None
    if not re.fullmatch(r"[A-Za-z0-9_-]{16,200}", token):
        raise BotError(f"{path} does not hold a token (16 or more letters, digits, - and _)")
    return token


def probe_engine(config: EngineConfig) -> Tuple[str, List[str]]:
    """The engine's own name and the variants it says it plays (started once, then quit)."""
    engine = start_engine(config)
    try:
        if isinstance(engine, UciClient):
            name = next((line[len("< id name "):] for line in engine.transcript if line.startswith("< id name ")), "")
            variants = ["normal"] + (["fischerandom"] if "UCI_Chess960" in engine.options_seen else [])
            variants += [v for v in engine.variants if v not in variants]
        else:
            name = engine.features.get("myname", "")
            listed = engine.features.get("variants")
            variants = [v.strip() for v in listed.split(",") if v.strip()] if listed else ["normal"]
    finally:
        engine.quit()
    return name.strip(), variants


def default_name(engine_name: str, command: str) -> str:
    """A name people may read: the engine's (letters, digits, spaces and . ' - _ kept) and "bot"."""
    words = re.sub(r"[^\w .'-]+", " ", engine_name or os.path.basename(shlex.split(command)[0])).split()
    kept: List[str] = []
    for word in words:                          # whole words, up to 20 characters (a name has 24)
        if len(" ".join(kept + [word])) > 20:
            break
        kept.append(word)
    return f"{' '.join(kept) or (words[0][:20] if words else 'Engine')} bot"


# --------------------------------------------------------------------- one game
class GameBook:
    """What the bot knows of one game from the server's messages: its settings, and the moves so
    far replayed on the rules core (the ``state`` messages give SANs and FENs)."""

    def __init__(self, hello: Dict[str, Any], seat: int) -> None:
        config = hello.get("config") or {}
        self.seat = seat
        self.variant = str(config.get("variant", "normal"))
        tc_text = str(config.get("tc", "none"))
        self.has_clock = tc_text != "none" and not tc_text.startswith(("st=", "depth="))
        self.tc = parse_time_control(tc_text if tc_text != "none" else "st=1")   # as the server's table
        self.custom_start = bool(config.get("fen")) or get_variant(self.variant).setup != "fixed"
        self.first_move_limit = float(hello.get("firstMove") or 0.0)
        self.start_fen = ""
        self.pos: Optional[Position] = None
        self.moves: List[str] = []
        self.sans: List[str] = []
        self.thinking: Optional["asyncio.Future[Any]"] = None
        self.moved_at = -1                  # the ply the bot last thought at
        self.answered_draw_at = -1
        self.answered_takeback_at = -1

    def follow(self, fens: List[str], sans: List[str]) -> None:
        """The game's moves as coordinates, from the state's FENs and SANs (raises RulesError)."""
        if not fens:
            raise RulesError("the state has no position")
        if fens[0] != self.start_fen or sans[:len(self.sans)] != self.sans or self.pos is None:
            self.start_fen = fens[0]
            self.pos = Position.from_fen(fens[0], self.variant)
            self.moves, self.sans = [], []
        for ply in range(len(self.sans), len(sans)):
            move = self._find(sans[ply], fens[ply + 1] if ply + 1 < len(fens) else None)
            self.moves.append(self.pos.move_text(move))
            self.pos.push(move)
            self.sans.append(sans[ply])

    def _find(self, san: str, fen_after: Optional[str]) -> Move:
        assert self.pos is not None
        pos = self.pos
        try:
            move: Optional[Move] = pos.parse_san(san)
        except RulesError:
            move = None
        candidates = ([move] if move is not None else []) + list(pos.legal_moves())
        for m in candidates:
            if fen_after is None:
                return m
            pos.push(m)
            fen = pos.fen()
            pos.pop()
            if fen == fen_after:
                return m
        raise RulesError(f"the move {san!r} does not follow from the position")

    def turn(self, state: Dict[str, Any]) -> Any:
        """The engine's ``Turn`` now: the game so far, and the clocks as the state gives them."""
        assert self.pos is not None
        start_side = Position.from_fen(self.start_fen, self.variant).stm
        done = [0, 0]
        for ply in range(len(self.moves)):
            done[(start_side + ply) % 2] += 1
        clocks: List[float] = []
        if self.has_clock:
            clocks = [float(c) for c in (state.get("clocks") or [0.0, 0.0])[:2]]
            if self.first_move_limit and not done[self.seat]:
                # The server aborts a game whose first move is late: the engine sees a clock it
                # spends well inside that limit.
                clocks[self.seat] = min(clocks[self.seat], self.first_move_limit * 10)
        return Turn(self.variant, self.start_fen, self.custom_start, list(self.moves), self.pos.copy(),
                    self.seat, self.tc, clocks, done)


# --------------------------------------------------------------------- the bot
class Bot:
    """The bot's connections: the lobby (challenges, game starts) and one task per game."""

    def __init__(self, args: argparse.Namespace, token: str, config: EngineConfig, engine_text: str,
                 engine_variants: List[str]) -> None:
        self.args = args
        self.name: str = args.name
        self.token = token
        self.config = config
        self.engine_text = engine_text
        self.engine_variants = engine_variants
        self.http = args.server
        self.ws_base = "ws" + args.server[4:]
        self.variants: List[str] = []
        self.games: Dict[str, "asyncio.Task[Any]"] = {}
        self.threads = concurrent.futures.ThreadPoolExecutor(max_workers=args.max_games + 2,
                                                             thread_name_prefix="engine")
        self.fatal: Optional[str] = None
        self.page_opened = False
        self.lobby_ws: Any = None
        self.session: Any = None

    def say(self, text: str) -> None:
        print(f"{PROG}: {text}", flush=True)

    async def main(self) -> int:
        """Runs until Ctrl-C (or SIGTERM), or until the server refuses the account (exit code 2)."""
        loop = asyncio.get_event_loop()
        me = asyncio.current_task()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, me.cancel)       # type: ignore[union-attr]
            except (NotImplementedError, RuntimeError, AttributeError):
                pass                                            # Windows: Ctrl-C is KeyboardInterrupt
        try:
            return await self.run()
        except asyncio.CancelledError:
            self.say("stopping: the engines are closed, no game is resigned")
            return 0
        finally:
            for task in list(self.games.values()):
                task.cancel()
            kill_all()
            if self.games:
                await asyncio.wait(list(self.games.values()), timeout=5)
            self.threads.shutdown(wait=False)

    async def run(self) -> int:
        import aiohttp
        headers = {"Cookie": f"{COOKIE}={self.token}", "Origin": self.http}
        timeout = aiohttp.ClientTimeout(total=None, connect=20, sock_connect=20)
        async with aiohttp.ClientSession(headers=headers, cookie_jar=aiohttp.DummyCookieJar(),
                                         timeout=timeout) as session:
            self.session = session
            delay = FIRST_BACKOFF
            while True:
                online = False
                try:
                    online = await self.lobby()
                except aiohttp.WSServerHandshakeError as error:
                    self.say(f"the server refused the connection ({error.status} {error.message})")
                except (aiohttp.ClientError, OSError, asyncio.TimeoutError, ValueError) as error:
                    self.say(f"cannot reach {self.http}: {error or type(error).__name__}")
                if self.fatal:
                    self.say(self.fatal)
                    return 2
                if online:
                    delay = FIRST_BACKOFF
                self.say(f"reconnecting in {delay:g} s")
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)

    async def _expect(self, ws: Any, kinds: Tuple[str, ...]) -> Dict[str, Any]:
        """The next message of one of ``kinds`` (others are passed over)."""
        import aiohttp
        while True:
            msg = await ws.receive(timeout=REPLY_SECONDS)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError("the server closed the connection")
            data = json.loads(msg.data)
            if isinstance(data, dict) and data.get("type") in kinds:
                return data

    def _choose_variants(self, server_variants: List[str]) -> None:
        """The variants offered: those asked for (or all) that the engine and the server play."""
        wanted = [v.strip() for v in self.args.variants.split(",") if v.strip()] if self.args.variants \
            else list(server_variants)
        chosen = []
        for v in wanted:
            if v not in server_variants:
                self.say(f"the server does not play {v!r}: left out")
            elif v not in self.engine_variants:
                if self.args.variants:
                    self.say(f"the engine does not say it plays {v!r}: left out")
            elif v not in chosen:
                chosen.append(v)
        if not chosen:
            raise BotError("no variant both the engine and the server play was asked for "
                           f"(the engine plays {', '.join(self.engine_variants)})")
        self.variants = chosen

    async def lobby(self) -> bool:
        """One connection to the lobby: name, registration, then challenges until it closes.
        True if the bot was online (so the next reconnection starts from the shortest wait)."""
        import aiohttp
        if not self.page_opened:
            async with self.session.get(self.http + "/") as response:
                await response.read()
                if response.status != 200:
                    raise ConnectionError(f"the server's front page answered {response.status}")
            self.page_opened = True
        async with self.session.ws_connect(self.ws_base + "/ws/lobby", heartbeat=30.0) as ws:
            hello = await self._expect(ws, ("hello",))
            if not self.variants:
                try:
                    self._choose_variants([v for v in hello.get("variants") or [] if isinstance(v, str)])
                except BotError as error:
                    self.fatal = str(error)
                    return False
            you = hello.get("you") or {}
            if you.get("name") != self.name:
                await ws.send_str(json.dumps({"type": "name", "name": self.name}))
                reply = await self._expect(ws, ("you", "error"))
                if reply["type"] == "error":
                    self.fatal = f"the server refused the name {self.name!r}: {reply.get('message')}"
                    return False
            rules = {"type": "bot", "variants": self.variants, "minTc": self.args.min_tc, "maxTc": self.args.max_tc,
                     "rated": self.args.rated, "maxGames": self.args.max_games, "engine": self.engine_text}
            await ws.send_str(json.dumps(rules))
            reply = await self._expect(ws, ("botReady", "error"))
            if reply["type"] == "error":
                self.fatal = f"the server refused the bot account: {reply.get('message')}"
                return False
            self.say(f"online at {self.http} as {self.name} ({self.engine_text}; {', '.join(self.variants)}; "
                     f"clocks {self.args.min_tc:g} to {self.args.max_tc:g} s; {self.args.rated}; "
                     f"at most {self.args.max_games} games)")
            self.lobby_ws = ws
            try:
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    await self.on_lobby_message(ws, json.loads(msg.data))
            finally:
                self.lobby_ws = None
        self.say("the connection to the server was lost")
        return True

    async def on_lobby_message(self, ws: Any, data: Any) -> None:
        if not isinstance(data, dict):
            return
        kind = data.get("type")
        if kind == "challenge":
            await self.on_challenge(ws, data)
        elif kind == "gameStart":
            seats = data.get("seats") or []
            game_id = data.get("gameId")
            if isinstance(game_id, str) and len(seats) == 1 and isinstance(seats[0], int):
                self.start_game(game_id, seats[0], None)
        elif kind == "error":
            self.say(f"the server says: {data.get('message')}")

    def why_decline(self, data: Dict[str, Any]) -> Optional[str]:
        """Why this bot does not take a challenge (None: it does)."""
        if not isinstance(data.get("gameId"), str) or not isinstance(data.get("secret"), str) \
                or not isinstance(data.get("seat"), int) or data.get("seat") not in (0, 1):
            return "the challenge message is malformed"
        if len(self.games) >= self.args.max_games:
            return f"busy: playing {len(self.games)} games (at most {self.args.max_games} at once)"
        if data.get("variant") not in self.variants:
            return f"this bot does not play {data.get('variant')} (it plays {', '.join(self.variants)})"
        seconds = clock_seconds(data.get("tc"))
        if seconds is None:
            return "this bot plays only games with a clock of seconds + increment"
        if not self.args.min_tc <= seconds <= self.args.max_tc:
            return (f"this bot plays clocks of {self.args.min_tc:g} to {self.args.max_tc:g} s "
                    f"(base + 40 increments); {data.get('tc')} is {seconds:g} s")
        if data.get("rated") and self.args.rated == "casual":
            return "this bot plays casual games only"
        if not data.get("rated") and self.args.rated == "rated":
            return "this bot plays rated games only"
        return None

    async def on_challenge(self, ws: Any, data: Dict[str, Any]) -> None:
        who = data.get("from", "?")
        what = f"{data.get('variant')} {data.get('tc')}, {'rated' if data.get('rated') else 'casual'}"
        reason = self.why_decline(data)
        if reason:
            if isinstance(data.get("gameId"), str):
                await ws.send_str(json.dumps({"type": "decline", "gameId": data["gameId"], "reason": reason}))
            self.say(f"declined {who}'s challenge ({what}): {reason}")
            return
        self.say(f"accepted {who}'s challenge ({what}): {self.http}/g/{data['gameId']}")
        self.start_game(data["gameId"], data["seat"], data["secret"])

    def start_game(self, game_id: str, seat: int, secret: Optional[str]) -> None:
        if game_id in self.games or not re.fullmatch(r"[A-Za-z0-9]{1,40}", game_id):
            return
        if secret is None:
            self.say(f"playing game {self.http}/g/{game_id} as {('White', 'Black')[seat]}")
        task = asyncio.ensure_future(self.play(game_id, seat, secret))
        self.games[game_id] = task
        task.add_done_callback(lambda _: self.games.pop(game_id, None))

    async def play(self, game_id: str, seat: int, secret: Optional[str]) -> None:
        """One game, with an engine process of its own, until it is over (its page reconnected to
        a few times if the connection drops)."""
        import aiohttp
        engine = EngineSeat(self.config)
        try:
            failures = 0
            while failures <= GAME_RETRIES:
                if failures:
                    await asyncio.sleep(min(MAX_BACKOFF, 2.0 ** failures))
                try:
                    if await self.play_on_page(game_id, seat, secret, engine):
                        return
                    self.say(f"game {game_id}: the connection was lost; reconnecting")
                    failures = 1               # it was playing: the waits start again from 2 s
                except aiohttp.WSServerHandshakeError as error:
                    if error.status == 404:
                        self.say(f"game {game_id}: no such game on the server")
                        return
                    failures += 1
                except (aiohttp.ClientError, OSError, asyncio.TimeoutError, ValueError) as error:
                    self.say(f"game {game_id}: cannot reach the game ({error or type(error).__name__})")
                    failures += 1
                secret = None                  # the seat, if taken, is ours now
            self.say(f"game {game_id}: left after {GAME_RETRIES} failed reconnections")
        except Exception as error:            # the bot goes on with its other games
            self.say(f"game {game_id}: stopped playing: {error!r}")
        finally:
            self.threads.submit(engine.close)

    async def play_on_page(self, game_id: str, seat: int, secret: Optional[str], engine: Any) -> bool:
        """The game's page: take the seat if a secret is given, then move whenever it is the bot's
        turn.  True when there is nothing more to do (the game is over, or the seat cannot be had)."""
        import aiohttp
        async with self.session.ws_connect(f"{self.ws_base}/ws/g/{game_id}", heartbeat=30.0) as ws:
            hello = await self._expect(ws, ("hello",))
            if seat not in (hello.get("yourSeats") or []):
                if not secret:
                    self.say(f"game {game_id}: this bot has no seat there")
                    return True
                await ws.send_str(json.dumps({"type": "take", "seat": seat, "secret": secret}))
                while seat not in (hello.get("yourSeats") or []):
                    hello = await self._expect(ws, ("hello", "error"))
                    if hello["type"] == "error":
                        self.say(f"game {game_id}: could not take the seat: {hello.get('message')}")
                        return True
            book = GameBook(hello, seat)
            last: Optional[Dict[str, Any]] = None
            try:
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    data = json.loads(msg.data)
                    if data.get("type") == "state":
                        last = whole_state(data, last)     # later states send only their history's end
                        if last is None:
                            self.say(f"game {game_id}: a state out of step with the last; opening the game again")
                            break
                        if await self.on_state(ws, game_id, book, engine, last):
                            return True
                    elif data.get("type") == "error":
                        self.say(f"game {game_id}: the server says: {data.get('message')}")
            finally:
                if book.thinking is not None:
                    book.thinking.cancel()
        return False

    async def on_state(self, ws: Any, game_id: str, book: GameBook, engine: Any, state: Dict[str, Any]) -> bool:
        """A ``state`` message: report the end, or answer offers and move when it is our turn."""
        status = state.get("status")
        if status == "aborted":
            why = (state.get("outcome") or {}).get("reason") or "aborted"
            self.say(f"game {game_id}: ended without a result: {why}")
            return True
        if status == "over":
            result = state.get("result")
            words = ("a draw" if result == "1/2-1/2" else "won" if {"1-0": 0, "0-1": 1}.get(result) == book.seat
                     else "lost")
            changes = (state.get("ratingChanges") or {}).get("seats", {}).get(str(book.seat))
            rating = f"; rating {changes[0]} -> {changes[1]}" if changes else ""
            self.say(f"game {game_id}: finished {result} ({state.get('reason')}): {words}{rating}")
            return True
        if status != "playing":
            return False
        plies = len(state.get("sans") or [])
        side = "wb"[book.seat]
        offer = state.get("drawOffer")
        if offer and offer != side and book.answered_draw_at != plies:
            book.answered_draw_at = plies
            await ws.send_str(json.dumps({"type": "decline", "what": "draw"}))
        takeback = (state.get("offers") or {}).get("takeback")
        if takeback is not None and takeback != book.seat and book.answered_takeback_at != plies:
            book.answered_takeback_at = plies
            await ws.send_str(json.dumps({"type": "decline", "what": "takeback"}))
        if state.get("turn") == side and book.thinking is None and book.moved_at != plies:
            book.moved_at = plies
            book.thinking = asyncio.ensure_future(self.think(ws, game_id, book, engine, state))
        return False

    async def think(self, ws: Any, game_id: str, book: GameBook, engine: Any, state: Dict[str, Any]) -> None:
        """The engine's move in a worker thread, sent as the bot's move (or its resignation)."""
        loop = asyncio.get_event_loop()
        try:
            try:
                book.follow(list(state.get("fens") or []), list(state.get("sans") or []))
                reply = await loop.run_in_executor(self.threads, engine.move, book.turn(state), None)
            except (RulesError, ValueError, EngineFailure) as error:
                reply = ("", "", f"the bot could not follow the game: {error}")
            if isinstance(reply, tuple):
                self.say(f"game {game_id}: the engine gives up ({reply[-1]}): resigning")
                await ws.send_str(json.dumps({"type": "resign"}))
            else:
                await ws.send_str(json.dumps({"type": "move", "move": reply}))
        except (ConnectionError, RuntimeError):
            pass                                # the page closed meanwhile: the next one goes on
        finally:
            book.thinking = None


# --------------------------------------------------------------------- the program
def main(argv: Optional[List[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not 1 <= args.max_games <= 10:
        parser.error("--max-games: 1 to 10")
    if args.min_tc > args.max_tc:
        parser.error("--min-tc is above --max-tc")
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.stderr.write(f"{PROG} needs aiohttp: pip install 'xboard-variant-engine[web]' (or pip install aiohttp)\n")
        return 2
    proto = "uci" if args.uci else "xboard"
    config = EngineConfig(args.name or "engine", args.engine, proto=proto, init_time=30.0)
    try:
        engine_name, engine_variants = probe_engine(config)
    except EngineFailure as error:
        sys.stderr.write(f"{PROG}: the engine does not start as a {proto.upper() if args.uci else 'CECP'} "
                         f"engine: {error}\n")
        return 2
    args.name = " ".join((args.name or default_name(engine_name, args.engine)).split())
    engine_text = " ".join((engine_name or os.path.basename(shlex.split(args.engine)[0])).split())[:80]
    try:
        token = load_token(args.token_file or default_token_file(args.name))
    except (BotError, OSError) as error:
        sys.stderr.write(f"{PROG}: {error}\n")
        return 2
    bot = Bot(args, token, config._replace(name=args.name), engine_text, engine_variants)
    try:
        return asyncio.run(bot.main())
    except KeyboardInterrupt:
        bot.say("stopped: no game is resigned")
        return 0
    finally:
        kill_all()
