"""The browser board's two-player room: one game at a time, kept here (a reload or a second tab
shows it), engines driven by the tournament runner's engine code, pages spoken to over a WebSocket
(the HTTP side is ``routes.py``).

Messages from a page are JSON objects with a ``type``: ``new`` (variant, number, fen, white,
black, tc), ``move`` (move: coordinate text), ``takeback``, ``resign``, ``draw`` (offer or accept),
``load`` (pgn or fen, with white, black, tc).  The server answers with ``state`` (the whole game),
``thinking`` (an engine's depth, score and principal variation) and ``error`` (the reason a message
was refused; the game is unchanged).
"""
import asyncio
import concurrent.futures
import json
import os
import time
from typing import Any, Dict, List, Optional, Set

from aiohttp import web

from ..errors import RulesError
from ..match.engines import Engine, EngineConfig, EngineFailure, UciEngine, start_engine
from ..match.pgn import append_game
from ..match.referee import failure_ending, judge_reply, loss, uci_go_line, uci_tokens
from ..moves import Move
from ..position import Position
from ..variant import get_variant, variant_names
from .game import HUMAN, WebGame, all_variant_infos, load_pgn, parse_time_control

STATIC = os.path.join(os.path.dirname(__file__), "static")
TIME_CONTROLS = ["300+3", "60+1", "180+2", "600+5", "900+10", "40/300", "st=2", "depth=2"]
MAX_MESSAGE = 1 << 20


class Room:
    """The one game the server hosts, the pages watching it and the engines playing in it."""

    def __init__(self, engines: Dict[str, EngineConfig], data_dir: str, default_engine: str) -> None:
        self.engines = engines
        self.default_engine = default_engine
        self.data_dir = data_dir
        self.pgn_path = os.path.join(data_dir, "games.pgn")
        self.state_path = os.path.join(data_dir, "current-game.json")
        self.clients: Set[web.WebSocketResponse] = set()
        self.seats: List[Optional[Engine]] = [None, None]
        self.known = [0, 0]          # plies of the game each seat's CECP engine has been told
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=6, thread_name_prefix="engine")
        self.thinking_side: Optional[int] = None
        self.thinking: Optional[Dict[str, Any]] = None
        self.flag_timer: Optional[asyncio.TimerHandle] = None
        self.pgn_written = False
        self.stopped = False         # the server is stopping: the game stays as it was saved then
        self.game = self._resume() or WebGame("normal", [HUMAN, default_engine], parse_time_control("300+3"),
                                              "300+3")
        self.resumed = bool(self.game.moves) and not self.game.over

    # ----------------------------------------------------------------- persistence
    def _resume(self) -> Optional[WebGame]:
        try:
            with open(self.state_path, encoding="utf-8") as f:
                data = json.load(f)
            game = WebGame.from_json(data)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, RulesError) as error:
            print(f"xboard-engine web: cannot resume the saved game ({error}); starting a new one")
            return None
        for side in (0, 1):
            if game.players[side] != HUMAN and game.players[side] not in self.engines:
                game.players[side] = HUMAN       # an engine not named this time: a human takes its seat
        self.pgn_written = bool(data.get("pgn_written"))
        return game

    def save(self) -> None:
        """Write the game's state (atomically: a crash never leaves half a file); nothing once the
        server is stopping (the file keeps the game as it was at the stop)."""
        if self.stopped:
            return
        data = self.game.to_json()
        data["pgn_written"] = self.pgn_written
        tmp = self.state_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, self.state_path)

    def _append_pgn(self) -> None:
        if not self.pgn_written and self.game.moves:          # a game that never began is not kept
            append_game(self.pgn_path, self.game.record())
            self.pgn_written = True

    # ----------------------------------------------------------------- pages
    async def attach(self, ws: web.WebSocketResponse) -> None:
        self.clients.add(ws)
        await ws.send_json({"type": "hello", "variants": all_variant_infos(),
                            "engines": sorted(self.engines), "defaultEngine": self.default_engine,
                            "timeControls": TIME_CONTROLS})
        await ws.send_json(self._state())
        if self.thinking:
            await ws.send_json(self.thinking)

    def _state(self) -> Dict[str, Any]:
        state = self.game.snapshot()
        state["thinkingSide"] = self.thinking_side
        return state

    def broadcast(self, message: Optional[Dict[str, Any]] = None) -> None:
        text = json.dumps(message or self._state())
        for ws in list(self.clients):
            if ws.closed:
                self.clients.discard(ws)
            else:
                asyncio.ensure_future(_send(ws, text))

    async def handle(self, ws: web.WebSocketResponse, text: str) -> None:
        """One message from a page; a refused one gets an ``error`` reply and changes nothing."""
        try:
            if self.stopped:
                raise ValueError("the server is stopping")
            try:
                data = json.loads(text)
            except RecursionError:
                raise ValueError("a message is nested too deep") from None
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise ValueError("a message is a JSON object with a \"type\"")
            handler = _HANDLERS.get(data["type"])
            if handler is None:
                raise ValueError(f"unknown message type {data['type']!r}")
            await handler(self, data)
        except (ValueError, RulesError, TypeError, KeyError) as error:
            message = str(error) if not isinstance(error, KeyError) else f"missing field {error}"
            await ws.send_json({"type": "error", "message": message})

    # ----------------------------------------------------------------- messages
    async def on_new(self, data: Dict[str, Any]) -> None:
        variant = _text(data, "variant", "normal")
        if variant not in variant_names():
            raise ValueError(f"unknown variant {variant!r}")
        players = self._players(data)
        tc_text = _text(data, "tc", "300+3")
        tc = parse_time_control(tc_text)
        number = data.get("number")
        if number not in (None, ""):
            count = get_variant(variant).setup_count if get_variant(variant).setup != "fixed" else 0
            if not count:
                raise ValueError(f"{variant} has one setup; a setup number is for 8piece-random and fischerandom")
            if not isinstance(number, int) and not (isinstance(number, str) and number.strip().isdigit()):
                raise ValueError(f"setup number {number!r} is not a number")
            number = int(number)
            if not 0 <= number < count:
                raise ValueError(f"setup number {number} is out of range: {variant} has 0..{count - 1}")
        else:
            number = None
        fen = _text(data, "fen", "") or None
        if fen is not None:
            Position.from_fen(str(fen), variant)             # RulesError names what is wrong
        game = WebGame(variant, players, tc, tc_text, start_fen=fen, number=number, game_id=self.game.id + 1)
        await self.start(game)

    async def on_load(self, data: Dict[str, Any]) -> None:
        players = self._players(data)
        tc_text = _text(data, "tc", "300+3")
        tc = parse_time_control(tc_text)
        pgn_text, fen_text = _text(data, "pgn", ""), _text(data, "fen", "")
        if pgn_text:
            variant, fen, moves, _ = load_pgn(pgn_text)
        elif fen_text:
            variant, fen, moves = _text(data, "variant", "normal"), fen_text, []
            if variant not in variant_names():
                raise ValueError(f"unknown variant {variant!r}")
        else:
            raise ValueError("nothing to load: paste a PGN game or a FEN")
        game = WebGame(variant, players, tc, tc_text, start_fen=fen, game_id=self.game.id + 1)
        for text in moves:
            game.play_move(game.pos.parse_move(text), elapsed=0.0)
        await self.start(game)

    async def on_move(self, data: Dict[str, Any]) -> None:
        game = self.game
        text = _text(data, "move", "")
        if game.over:
            raise ValueError("the game is over")
        if not game.human_to_move():
            raise ValueError("it is the engine's move")
        move = game.pos.parse_text(text)              # coordinate text or SAN; IllegalMoveError says why
        game.play_move(move)
        await self._after_move()

    async def on_takeback(self, data: Dict[str, Any]) -> None:
        game = self.game
        if self.thinking_side is not None:
            raise ValueError("wait for the engine's move, then take back")
        if HUMAN not in game.players:
            raise ValueError("no human plays in this game")
        if not game.moves:
            raise ValueError("nothing to take back")
        plies = 1
        while plies < len(game.moves) and game.players[(game.side + plies) % 2] != HUMAN:
            plies += 1                                # back to a position where a human is to move
        if game.players[(game.side + plies) % 2] != HUMAN:
            raise ValueError("nothing to take back")
        game.take_back(plies)
        self.pgn_written = False
        await self._restart_engines()

    async def on_resign(self, data: Dict[str, Any]) -> None:
        game = self.game
        if game.over:
            raise ValueError("the game is over")
        humans = [s for s in (0, 1) if game.players[s] == HUMAN]
        if not humans:
            raise ValueError("no human plays in this game")
        side = game.side if len(humans) == 2 else humans[0]
        game.resign(side)
        await self.finish()

    async def on_draw(self, data: Dict[str, Any]) -> None:
        game = self.game
        if game.over:
            raise ValueError("the game is over")
        if not game.human_to_move():
            raise ValueError("offer a draw on your move")
        side = game.side
        colour = "wb"[side]
        if game.draw_offer and game.draw_offer != colour:        # accepting the other human's offer
            game.end("1/2-1/2", "normal", "Draw by agreement")
            await self.finish()
            return
        opponent = game.players[1 - side]
        if opponent == HUMAN:
            game.draw_offer = colour
            game.note = f"{('White', 'Black')[side]} offers a draw"
            self.save()
            self.broadcast()
            return
        engine = self.seats[1 - side]
        if isinstance(engine, UciEngine) or engine is None:
            game.note = f"{opponent} declines: UCI engines cannot accept draw offers"
            self.broadcast()
            return
        try:
            accepted = await self._run(engine.offer_draw)
        except EngineFailure as failure:
            if game is self.game and not game.over:
                game.end(*failure_ending(1 - side, failure))
                await self.finish()
            return
        if game is not self.game or game.over:
            return
        if accepted:
            game.end("1/2-1/2", "normal", "Draw by agreement")
            await self.finish()
        else:
            game.note = f"{opponent} declines the draw"
            self.broadcast()

    def _players(self, data: Dict[str, Any]) -> List[str]:
        players = [_text(data, "white", HUMAN), _text(data, "black", self.default_engine)]
        for p in players:
            if p != HUMAN and p not in self.engines:
                raise ValueError(f"no engine named {p!r} (engines: {', '.join(sorted(self.engines))}; "
                                 "the server's --engine options name them)")
        return players

    # ----------------------------------------------------------------- the game's course
    async def start(self, game: WebGame) -> None:
        """Replace the current game (kept in the PGN file if it had begun) and start the engines."""
        self._append_pgn()
        await self._close_engines()
        self.game = game
        self.pgn_written = False
        if game.over:
            await self.finish()
            return
        await self._restart_engines()

    async def _restart_engines(self) -> None:
        game = self.game
        await self._close_engines()
        self.save()
        self.broadcast()
        fen = game.start_fen if game.custom_start else None
        for side in (0, 1):
            name = game.players[side]
            if name == HUMAN:
                continue
            config = self.engines[name]
            try:
                engine = await self._run(start_engine, config)
                if game is not self.game or self.stopped:
                    self.pool.submit(engine.quit)
                    return
                self.seats[side] = engine
                moves = game.moves if not isinstance(engine, UciEngine) else []
                await self._run(engine.new_game, game.variant, fen, moves, game.tc.xboard_commands())
                self.known[side] = len(moves)
            except EngineFailure as failure:
                if game is self.game and not game.over and not self.stopped:
                    game.end(*failure_ending(side, failure))
                    await self.finish()
                return
        if game is self.game and not self.stopped:
            game.turn_started = time.monotonic()
            self._next_turn()

    async def resume(self) -> None:
        """After a server start: start the engines of the saved game."""
        if not self.game.over:
            await self._restart_engines()

    async def _after_move(self) -> None:
        self.save()
        if self.game.over:
            await self.finish()
            return
        self.broadcast()
        self._next_turn()

    def _next_turn(self) -> None:
        game = self.game
        if self.flag_timer:
            self.flag_timer.cancel()
            self.flag_timer = None
        if game.over:
            return
        if game.running_clock() is not None:
            allowance = game.tc.margin + 0.05 if game.players[game.side] != HUMAN else 0.01
            self.flag_timer = asyncio.get_event_loop().call_later(
                max(0.0, game.clock_left(game.side) + allowance), self._check_flag, game)
        if game.players[game.side] != HUMAN:
            asyncio.ensure_future(self._engine_move(game, len(game.moves)))

    def _check_flag(self, game: WebGame) -> None:
        if game is self.game and game.flag():
            asyncio.ensure_future(self.finish())
        elif game is self.game and not game.over:
            self._next_turn_timer_only()

    def _next_turn_timer_only(self) -> None:
        game = self.game
        self.flag_timer = asyncio.get_event_loop().call_later(
            max(0.01, game.clock_left(game.side)), self._check_flag, game)

    async def _engine_move(self, game: WebGame, ply: int) -> None:
        side = game.side
        engine = self.seats[side]
        if engine is None:
            return
        loop = asyncio.get_event_loop()
        tcs = (game.tc, game.tc)
        tc = game.tc
        uci = isinstance(engine, UciEngine)
        clocks = [game.clock_left(0), game.clock_left(1)]
        if uci:
            tokens = uci_tokens(game.variant, game.pos.root_fen(), game.moves)
            go = uci_go_line(tcs, side, clocks, game.moves_done)
        # a CECP engine hears the opponent's last move unless it was given with the game
        last_move = game.moves[-1] if len(game.moves) > self.known[side] else None
        pos_copy = game.pos.copy()

        def report(depth: int, score: int, pv: List[str]) -> None:
            loop.call_soon_threadsafe(self._thinking_report, game, ply, side, depth, score, pv, pos_copy, uci)

        engine.on_info = report
        self.thinking_side = side
        self.thinking = None
        self.broadcast()
        started = time.monotonic()
        budget = tc.budget(clocks[side], uci)
        try:
            if uci:
                reply = await self._run(engine.play_uci, tokens, go, started + budget)
            elif tc.has_clock:
                reply = await self._run(engine.play, last_move, clocks[side], clocks[1 - side], started + budget)
            else:
                reply = await self._run(engine.play, last_move, None, None, started + budget)
        except EngineFailure as failure:        # (an engine quit as the server stops is no loss)
            if game is self.game and not game.over and len(game.moves) == ply and not self.stopped:
                self.thinking_side = None
                if failure.kind == "stall":
                    game.end(*loss(side, "time forfeit", f"{('White', 'Black')[side]} loses on time"))
                else:
                    game.end(*failure_ending(side, failure))
                await self.finish()
            return
        finally:
            engine.on_info = None
        if game is not self.game or game.over or len(game.moves) != ply or self.stopped:
            return
        self.thinking_side = None
        self.thinking = None                  # its last line goes with its move (a new page gets none)
        elapsed = time.monotonic() - started
        if tc.has_clock and clocks[side] - elapsed < -tc.margin:
            game.end(*loss(side, "time forfeit", f"{('White', 'Black')[side]} loses on time"))
            await self.finish()
            return
        move = judge_reply(game.pos, reply, uci)
        if not isinstance(move, Move):
            game.end(*move)
            await self.finish()
            return
        game.play_move(move, elapsed)
        self.known[side] = len(game.moves)
        await self._after_move()

    def _thinking_report(self, game: WebGame, ply: int, side: int, depth: int, score: int,
                         pv: List[str], pos: Position, uci: bool) -> None:
        if game is not self.game or len(game.moves) != ply or game.over:
            return
        sans = []
        board = pos.copy()
        for token in pv[:12]:
            try:
                move = board.parse_uci(token) if uci else board.parse_text(token)
            except RulesError:
                break
            sans.append(board.san(move))
            board.push(move)
        white_view = score if side == 0 else -score
        if abs(score) >= 90000:
            plies = 100000 - abs(score)
            shown = f"#{'' if white_view > 0 else '-'}{(plies + 1) // 2}"
        else:
            shown = f"{white_view / 100:+.2f}"
        self.thinking = {"type": "thinking", "id": game.id, "side": side, "depth": depth,
                         "score": shown, "pv": sans, "engine": game.players[side]}
        self.broadcast(self.thinking)

    async def finish(self) -> None:
        """The game is over: say so, keep it in the PGN file, let the engines go."""
        if self.flag_timer:
            self.flag_timer.cancel()
            self.flag_timer = None
        self.thinking_side = None
        self._append_pgn()
        self.save()
        self.broadcast()
        await self._close_engines()

    async def _close_engines(self) -> None:
        seats, self.seats = self.seats, [None, None]
        self.thinking_side = None
        for engine in seats:
            if engine is not None:
                self.pool.submit(engine.quit)

    async def _run(self, function, *args):
        return await asyncio.get_event_loop().run_in_executor(self.pool, function, *args)

    def stop(self) -> None:
        """The server is stopping: save the game with its clocks as they are now (it resumes from
        there at the next start; the PGN gets it when it ends) and change it no more."""
        if self.flag_timer:
            self.flag_timer.cancel()
            self.flag_timer = None
        if not self.game.over:
            self.save()
        self.stopped = True

    async def shutdown(self) -> None:
        """After ``stop``: let the engines go."""
        for engine in self.seats:
            if engine is not None:
                engine.quit()
        self.pool.shutdown(wait=False)


_HANDLERS = {"new": Room.on_new, "load": Room.on_load, "move": Room.on_move, "takeback": Room.on_takeback,
             "resign": Room.on_resign, "draw": Room.on_draw}


def _text(data: Dict[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"{key} must be text")
    return value


async def _send(ws: web.WebSocketResponse, text: str) -> None:
    try:
        await ws.send_str(text)
    except (ConnectionError, RuntimeError):
        pass
