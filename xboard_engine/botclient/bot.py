"""The bot's connections to the server: the lobby (challenges, game starts) and one task per game,
each played by an engine process of its own."""
import argparse
import asyncio
import concurrent.futures
import json
import re
import signal
from typing import Any, Dict, List, Optional, Tuple

from ..core.errors import RulesError
from ..match.engines import EngineConfig, EngineFailure, kill_all
from ..match.seat import EngineSeat
from ..time_control import clock_seconds
from ..web.rooms.wire import whole_state
from .game_book import GameBook

PROG = "xboard-engine bot"
COOKIE = "xbe_player"
FIRST_BACKOFF, MAX_BACKOFF = 1.0, 30.0
GAME_RETRIES = 5                  # reconnections to one game's page before it is left
REPLY_SECONDS = 15.0              # the server's answer to a message we wait for


class BotError(Exception):
    """Something that stops the bot before it plays (the text says what to do)."""


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
