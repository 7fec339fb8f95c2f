"""The live server's logic, without the network: the games being played (each a ``Room``, in
``room.py``), who may act for which seat, clocks, bots, and the store behind it all.
Every action is committed to the store before anyone hears of it.  ``routes`` feeds the hall each
page's messages through a ``Viewer``; ``lobby`` creates games."""
import asyncio
import concurrent.futures
import secrets
import time
from typing import Any, Callable, Dict, List, Optional, Set

from ..errors import RulesError
from ..match.engines import EngineConfig
from ..web.eight_game import BOT_LEVELS as EIGHT_LEVELS
from . import talk, wire
from .engines import EngineSeat, Turn
from .bots import BotPool, budget, eight_player_move, seed_now, two_player_move
from .room import Room, Viewer, token_hash
from .store import Store, StoredAction, StoredGame, StoredSeat
from .tables import TWO_LEVELS, Refused

GRACE_SECONDS = 60.0


class Hall:
    """Every room, the store and the bot pool.  Runs on the server's asyncio loop."""

    def __init__(self, store: Store, pool: BotPool, grace: float = GRACE_SECONDS,
                 engines: Optional[Dict[str, EngineConfig]] = None) -> None:
        self.store = store
        self.pool = pool
        self.engines = dict(engines or {})      # outside engines by name (two-player seats)
        self.engine_threads = concurrent.futures.ThreadPoolExecutor(max_workers=max(2, pool.max_games),
                                                                    thread_name_prefix="engine")
        self.grace = grace
        self.rooms: Dict[int, Room] = {}
        self.lobby_viewers: Set[Viewer] = set()
        self.on_lobby_change: Optional[Callable[[], None]] = None
        self.stopping = False

    # ----------------------------------------------------------------- players
    def identify(self, viewer: Viewer) -> None:
        if viewer.token:
            viewer.player = self.store.player_by_token(token_hash(viewer.token))

    def ensure_player(self, viewer: Viewer, name: Optional[str] = None) -> Dict[str, Any]:
        """The viewer's player, made now if it has none (a page without a token cannot play)."""
        if viewer.player is None:
            if not viewer.token:
                raise Refused("this page has no player cookie: allow cookies for this site to play")
            name = name or f"Guest {secrets.randbelow(9000) + 1000}"
            player_id = self.store.add_player(token_hash(viewer.token), name)
            viewer.player = {"id": player_id, "name": name}
        return viewer.player

    def rename(self, viewer: Viewer, name: Any) -> None:
        name = wire.check_name(name)
        player = self.ensure_player(viewer, name)
        if player["name"] != name:
            self.store.rename_player(player["id"], name)
            player["name"] = name
        for room in self.rooms.values():
            if player["id"] in room.names:
                room.names[player["id"]] = name
                room.broadcast()

    def bot_words(self, kind: str, bot: Optional[str]) -> str:
        engine, _, level = (bot or ":").partition(":")
        if engine in self.engines:
            return engine
        if kind == "two":
            return TWO_LEVELS[level][0] if level in TWO_LEVELS else level
        return EIGHT_LEVELS[level][0] if level in EIGHT_LEVELS else level

    # ----------------------------------------------------------------- rooms
    def room(self, game_id: int) -> Optional[Room]:
        """The game's room, rebuilt from the store if it is not in memory; None if no such game."""
        room = self.rooms.get(game_id)
        if room is None:
            stored = self.store.game(game_id)
            if stored is None:
                return None
            room = self._rebuild(stored)
            self.rooms[game_id] = room
        return room

    def _rebuild(self, stored: StoredGame) -> Room:
        room = Room(self, stored, self.store.seats(stored.id))
        actions = self.store.actions(stored.id)
        for a in actions:
            room.table.act(a.seat, a.kind, a.text)
        room.actions = len(actions)
        clocks = stored.paused_clocks or (actions[-1].clocks if actions else None)
        if clocks:
            room.table.set_clocks(clocks)
        room.table.restart_clock()
        owners = [s.player_id for s in room.seats if s.player_id is not None]
        room.names = self.store.player_names(owners)
        return room

    def resume(self) -> int:
        """After a start: every unfinished game back in memory, clocks and bots going.  The count."""
        count = 0
        for status in ("open", "playing"):
            for stored in self.store.games(status, limit=100000):
                room = self.room(stored.id)
                if room is not None and room.status == "playing":
                    now = time.monotonic()
                    for s in room.seats:                # nobody is connected yet: grace from now
                        if s.player_id is not None:
                            room.away_since[s.player_id] = now
                    self.next_turn(room)
                count += 1
        return count

    def pause(self) -> None:
        """A clean stop: every running clock stopped and saved, bots let go."""
        self.stopping = True
        clocks = {}
        for room in self.rooms.values():
            if room.timer:
                room.timer.cancel()
            if room.status == "playing" and not room.table.over and room.table.clocks():
                clocks[room.id] = room.table.clocks()
        self.store.pause_clocks(clocks)
        for room in self.rooms.values():
            self._let_engines_go(room)
        self.engine_threads.shutdown(wait=False)

    def _let_engines_go(self, room: Room) -> None:
        engines, room.engines = list(room.engines.values()), {}
        for engine in engines:
            self.engine_threads.submit(engine.close)

    # ----------------------------------------------------------------- viewers
    def join(self, viewer: Viewer, room: Room) -> None:
        viewer.room = room
        room.viewers.add(viewer)
        if viewer.player_id is not None:
            room.away_since.pop(viewer.player_id, None)
        viewer.send(wire.dumps(self.hello(room, viewer)))
        viewer.send(room.state_text())
        for line in self.store.chat(room.id):
            if talk.may_read(room, viewer, line.channel):
                viewer.send(wire.dumps(talk.chat_message(line)))
        mine = room.owned_by(viewer.player_id)
        for pid, (seat, arrows) in room.arrows.items():
            team = room.table.team_of(seat)
            if pid == viewer.player_id or (team is not None and any(room.table.team_of(s) == team for s in mine)):
                viewer.send(wire.dumps({"type": "arrows", "seat": seat, "arrows": arrows}))
        room.broadcast()             # the others see the connection

    def leave(self, viewer: Viewer) -> None:
        room = viewer.room
        if room is None:
            self.lobby_viewers.discard(viewer)
            return
        room.viewers.discard(viewer)
        viewer.room = None
        pid = viewer.player_id
        if pid is not None and room.owned_by(pid) and not room.connected(pid):
            room.away_since[pid] = time.monotonic()
            if not self.stopping:
                room.broadcast()
                self._arm(room)
        if not room.viewers and room.table.over:
            self.rooms.pop(room.id, None)          # rebuilt from the store when someone looks again

    def hello(self, room: Room, viewer: Viewer) -> Dict[str, Any]:
        return {"type": "hello", "gameId": room.id, "kind": room.kind, "config": room.config,
                "info": room.table.board_info(), "you": viewer.player, "yourSeats": room.owned_by(viewer.player_id),
                "openSeats": [s.seat for s in room.seats if s.kind == "open"],
                "seatLabels": room.table.seat_labels, "grace": self.grace,
                "teams": [room.table.team_of(s) for s in range(room.table.seat_count)]}

    # ----------------------------------------------------------------- messages
    async def handle(self, viewer: Viewer, text: str) -> None:
        """One message from a game page; a refused one gets an ``error`` reply, nothing changes."""
        try:
            if not viewer.messages.allow():
                viewer.refusals += 1
                raise wire.BadMessage("too many messages: slow down")
            data = wire.parse(text)
            room = viewer.room
            if room is None:
                raise wire.BadMessage("not in a game")
            kind = data["type"]
            if kind == "name":
                self.rename(viewer, data.get("name"))
                viewer.send(wire.dumps({"type": "you", "you": viewer.player}))
            elif kind == "take":
                self.take_seat(viewer, room, data.get("seat"), data.get("secret"))
            elif kind == "chat":
                talk.chat(self, viewer, room, data.get("text"), data.get("channel", "all"))
            elif kind == "arrows":
                talk.arrows(viewer, room, data.get("arrows"))
            elif kind in ("move", "resign", "offer", "draw", "claim"):
                move = data.get("move", "")
                if kind == "move" and (not isinstance(move, str) or not move.strip() or len(move) > 40):
                    raise Refused("move: want the move's text, e.g. e2e4")
                self.act(viewer, room, kind, move.strip() if isinstance(move, str) else "", data.get("seat"))
            else:
                raise wire.BadMessage(f"unknown message type {kind!r}")
        except (wire.BadMessage, Refused, RulesError) as error:
            viewer.send(wire.dumps({"type": "error", "message": str(error)}))

    def _acting_seat(self, viewer: Viewer, room: Room, kind: str, wanted: Any) -> int:
        owned = room.owned_by(viewer.player_id)
        if not owned:
            raise Refused("you do not play in this game (watchers cannot act)")
        if wanted is not None:
            if wanted not in owned:
                raise Refused(f"seat {wanted!r} is not yours")
            return int(wanted)
        turn = room.table.seat_to_move()
        if turn in owned:
            return int(turn)
        if kind == "move" or room.kind == "eight":
            label = room.table.seat_labels[turn] if turn is not None else "nobody"
            raise Refused(f"it is {label}'s move, not yours")
        return owned[0]

    def act(self, viewer: Viewer, room: Room, kind: str, text: str, wanted: Any = None) -> None:
        if room.status != "playing":
            raise Refused("the game has not begun: seats are still free" if room.status == "open"
                          else "the game is over")
        seat = self._acting_seat(viewer, room, kind, wanted)
        if kind == "claim" and room.kind == "two":
            self._check_claim(room, seat)
        self.apply(room, seat, kind, text)

    def _check_claim(self, room: Room, seat: int) -> None:
        other = room.seats[1 - seat]
        if other.kind != "player" or room.connected(other.player_id):
            raise Refused("your opponent is here: no claim")
        away = time.monotonic() - room.away_since.get(other.player_id, time.monotonic())
        if away < self.grace:
            raise Refused(f"your opponent has been away {away:.0f} s; you may claim after {self.grace:.0f} s")

    def apply(self, room: Room, seat: int, kind: str, text: str = "") -> None:
        """Do an action on the table, store it (committed), then tell everyone."""
        stored_text = room.table.act(seat, kind, text)
        status = "over" if room.table.over else None
        action = StoredAction(room.actions, seat, kind, stored_text, room.table.clocks(), time.time())
        try:
            self.store.add_action(room.id, action, status, room.table.result() if status else None)
        except Exception:
            self.rooms.pop(room.id, None)         # memory is ahead of the store: rebuild from it
            raise Refused("the server could not save that; try again") from None
        room.actions += 1
        if status:
            room.status = status
            self._let_engines_go(room)
        room.broadcast()
        self.next_turn(room)
        if status and self.on_lobby_change:
            self.on_lobby_change()

    # ----------------------------------------------------------------- seats
    def take_seat(self, viewer: Viewer, room: Room, seat: Any, secret: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
            raise Refused(f"no seat {seat!r}")
        s = room.seats[seat]
        if s.kind == "player":
            if s.player_id == viewer.player_id:
                return
            raise Refused(f"{room.table.seat_labels[seat]} is taken")
        if s.kind == "bot":
            raise Refused(f"{room.table.seat_labels[seat]} is a bot's seat")
        if s.kind == "invite":
            if not isinstance(secret, str) or not s.invite_hash or \
                    not secrets.compare_digest(token_hash(secret), s.invite_hash):
                raise Refused("this seat is kept for an invited player: the invite link is wrong or used")
        player = self.ensure_player(viewer)
        if room.kind == "two" and room.owned_by(player["id"]):
            raise Refused("you already play in this game")
        taken = StoredSeat(seat, "player", player["id"], None, None)
        self.store.set_seat(room.id, taken)
        room.seats[seat] = taken
        room.names[player["id"]] = player["name"]
        if all(x.kind in ("player", "bot") for x in room.seats) and room.status == "open":
            self.start_game(room)
        viewer.send(wire.dumps(self.hello(room, viewer)))
        room.broadcast()
        if self.on_lobby_change:
            self.on_lobby_change()

    def start_game(self, room: Room) -> None:
        """Every seat is filled: the clocks start; a player not here yet is away from now."""
        room.status = "playing"
        self.store.set_status(room.id, "playing")
        room.table.restart_clock()
        now = time.monotonic()
        for s in room.seats:
            if s.kind == "player" and not room.connected(s.player_id):
                room.away_since.setdefault(s.player_id, now)
        self.next_turn(room)

    # ----------------------------------------------------------------- the course of a game
    def next_turn(self, room: Room) -> None:
        if room.timer:
            room.timer.cancel()
            room.timer = None
        if room.status != "playing" or room.table.over or self.stopping:
            return
        seat = room.table.seat_to_move()
        if seat is not None and room.seats[seat].kind == "bot" and not room.bot_busy:
            asyncio.ensure_future(self._bot_move(room, seat, room.actions))
        self._arm(room)

    def _arm(self, room: Room) -> None:
        """The room's timer: at the running clock's fall, or when an away player's grace ends."""
        if room.timer:
            room.timer.cancel()
            room.timer = None
        if room.status != "playing" or room.table.over:
            return
        waits = []
        left = room.table.time_left()
        if left is not None:
            waits.append(left + 0.02)
        for _, since in self._away_seats(room):
            waits.append(since + self.grace - time.monotonic() + 0.02)
        if waits:
            room.timer = asyncio.get_event_loop().call_later(max(0.0, min(waits)), self._on_timer, room)

    def _away_seats(self, room: Room) -> List[Any]:
        """(seat, away since) of the people whose absence ends something: in 8 Player Chess the
        seat to move (it times out, as the text says for time-outs); in a two-player game against
        a bot, the person (the bot wins: the game is abandoned)."""
        out = []
        if room.kind == "eight":
            turn = room.table.seat_to_move()
            if turn is not None and room.seats[turn].kind == "player":
                since = room.away_since.get(room.seats[turn].player_id)
                if since is not None:
                    out.append((turn, since))
        else:
            for s in room.seats:
                if s.kind == "player" and room.seats[1 - s.seat].kind == "bot" and s.player_id in room.away_since:
                    out.append((s.seat, room.away_since[s.player_id]))
        return out

    def _on_timer(self, room: Room) -> None:
        room.timer = None
        if room.status != "playing" or room.table.over or self.stopping:
            return
        seat = room.table.flag()
        if seat is not None:
            self.apply(room, seat, "timeout")
            return
        now = time.monotonic()
        for away, since in self._away_seats(room):
            if now - since >= self.grace:
                if room.kind == "eight":
                    self.apply(room, away, "timeout")
                else:
                    self.apply(room, 1 - away, "claim")
                return
        self._arm(room)

    async def _bot_move(self, room: Room, seat: int, at: int) -> None:
        room.bot_busy = True
        try:
            engine, _, level = (room.seats[seat].bot or ":").partition(":")
            left = room.table.time_left()
            if engine in self.engines:
                text = await self._engine_move(room, seat, engine)
            elif room.kind == "two":
                g = room.table.game          # type: ignore[attr-defined]
                words, seconds, skill = TWO_LEVELS.get(level, TWO_LEVELS["medium"])
                increment = g.tc.inc if room.table.clocks() else 0.0
                text = await self.pool.run(two_player_move, g.variant, g.start_fen, list(g.moves),
                                           budget(left, increment, seconds), skill, seed_now())
            else:
                g = room.table.game          # type: ignore[attr-defined]
                settings = EIGHT_LEVELS.get(level, EIGHT_LEVELS["fast"])[1]
                seconds = float((settings or {}).get("movetime") or 1.0)
                text = await self.pool.run(eight_player_move, g.game.to_dict(), settings,
                                           budget(left, g.clock.increment, seconds), seed_now())
        except Exception as error:                   # a worker's fault: the server goes on
            print(f"xboard-engine serve: bot of game {room.id} failed: {error!r}", flush=True)
            text = None
        finally:
            room.bot_busy = False
        if self.stopping or room.actions != at or room.table.over or room.table.seat_to_move() != seat:
            self.next_turn(room)
            return
        if text is None:
            return
        try:
            if isinstance(text, tuple):           # an outside engine resigned, claimed falsely or failed
                self.apply(room, seat, "ending", "|".join(text))
            else:
                self.apply(room, seat, "move", text)
        except (Refused, RulesError) as error:
            print(f"xboard-engine serve: bot move {text!r} of game {room.id} refused: {error}", flush=True)


    async def _engine_move(self, room: Room, seat: int, name: str) -> Any:
        g = room.table.game                  # type: ignore[attr-defined]
        clocks = room.table.clocks()
        turn = Turn(g.variant, g.start_fen, g.custom_start, list(g.moves), g.pos.copy(), seat, g.tc, clocks,
                    list(g.moves_done))
        player = room.engines.get(seat)
        if player is None:
            player = room.engines[seat] = EngineSeat(self.engines[name])
        return await asyncio.get_event_loop().run_in_executor(self.engine_threads, player.move, turn)
