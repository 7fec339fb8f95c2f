"""The server's logic, without the network: the games being played (each a ``Room``, in
``room.py``), the players and their names, who may act for which seat, and the store behind it
all.  Every action is committed to the store before anyone hears of it.  ``routes`` feeds the hall
each page's messages through a ``Viewer``.  The rest of the logic is in rooms of its own:
``seating`` (new games, seats, limits), ``course`` (turns, clocks, timers, bots), ``offers`` (draw,
takeback, rematch, abort), ``talk`` (chat, arrows), ``lobby`` (the lists)."""
import concurrent.futures
import secrets
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Set

from ..errors import RulesError
from ..match.engines import EngineConfig
from . import bot_accounts, course, names, offers, rated, seating, seeks, talk, tournaments, wire
from .analysis import Analyst
from .bots import BotPool
from .eight_game import BOT_LEVELS as EIGHT_LEVELS
from .room import Room, Viewer, token_hash
from .store import NameTaken, Store, StoredAction, StoredGame
from .tables import TWO_LEVELS, Refused


class Policy(NamedTuple):
    """The server's rules for people (``serve`` defaults; ``xboard-engine web`` is one person's
    server: no first-move limit, no expiry, no per-person limits)."""
    grace: float = 60.0                 # seconds away before the opponent may claim (or a bot wins)
    first_move: float = 30.0            # seconds for a person's first move, else the game is aborted (0: none)
    challenge_minutes: float = 60.0     # an open challenge and its invite links expire (0: never)
    max_challenges: int = 3             # challenges a person has waiting for players
    max_bot_games_each: int = 2         # games with bots a person plays at once
    max_games_each: int = 20            # unfinished games a person has at once
    local: bool = False                 # xboard-engine web: the person at this computer


LOCAL = Policy(first_move=0.0, challenge_minutes=0.0, max_challenges=1000, max_bot_games_each=1000,
               max_games_each=1000, local=True)


class Hall:
    """Every room, the store and the bot pool.  Runs on the server's asyncio loop."""

    def __init__(self, store: Store, pool: BotPool, policy: Policy = Policy(),
                 engines: Optional[Dict[str, EngineConfig]] = None) -> None:
        self.store = store
        self.pool = pool
        self.policy = policy
        self.engines = dict(engines or {})      # outside engines by name (two-player seats)
        self.engine_threads = concurrent.futures.ThreadPoolExecutor(max_workers=max(2, pool.max_games),
                                                                    thread_name_prefix="engine")
        self.rooms: Dict[int, Room] = {}
        self.slugs: Dict[str, int] = {}                        # the addresses of the rooms in memory
        self.lobby_viewers: Set[Viewer] = set()
        self.seeks: List[Any] = []                              # seeks.Seek waiting, the oldest first
        self.tournaments: Dict[int, Any] = {}                   # tournaments.Tournament not over, and viewed ones
        self.bot_registry = bot_accounts.Registry(store)        # bot accounts, and those online now
        self.analyst = Analyst(self)
        self.on_lobby_change: Optional[Callable[[], None]] = None
        self.creations: Dict[str, wire.RateLimit] = {}        # address or player -> games it may create
        self.stopping = False
        pool.on_thinking = self._pool_thinking

    @property
    def grace(self) -> float:
        return self.policy.grace

    def lobby_changed(self) -> None:
        if self.on_lobby_change:
            self.on_lobby_change()

    # ----------------------------------------------------------------- players
    def identify(self, viewer: Viewer) -> None:
        if viewer.token:
            viewer.player = self.store.player_by_token(token_hash(viewer.token))

    def ensure_player(self, viewer: Viewer, name: Optional[str] = None) -> Dict[str, Any]:
        """The viewer's player, made now if it has none (a page without a token cannot play); a
        player without a chosen name is a guest with a number."""
        if viewer.player is None:
            if not viewer.token:
                raise Refused("this page has no player cookie: allow cookies for this site to play")
            for _ in range(50):
                given = name or f"Guest {secrets.randbelow(90000) + 10000}"
                try:
                    player_id = self.store.add_player(token_hash(viewer.token), given, names.fold(given))
                    break
                except NameTaken:
                    if name:
                        raise Refused(f"name: {name!r} is taken (or one that looks the same)") from None
            else:
                raise Refused("the server could not give you a name; try again")
            viewer.player = {"id": player_id, "name": given}
        return viewer.player

    def rename(self, viewer: Viewer, name: Any) -> None:
        try:
            name = names.check_name(name, self.engines)
        except names.BadName as error:
            raise Refused(str(error)) from None
        owner = self.store.name_owner(names.fold(name))
        if owner is not None and owner != viewer.player_id:
            raise Refused(f"name: {name!r} is taken (or one that looks the same)")
        player = self.ensure_player(viewer, name)
        if player["name"] != name:
            try:
                self.store.rename_player(player["id"], name, names.fold(name))
            except NameTaken:
                raise Refused(f"name: {name!r} is taken (or one that looks the same)") from None
            player["name"] = name
        for room in self.rooms.values():             # a game that has begun keeps the name it began with
            if player["id"] in room.names and room.status == "open":
                room.names[player["id"]] = name
                room.broadcast()
        self.lobby_changed()

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
            self.slugs[room.slug] = game_id
        return room

    def room_at(self, slug: str) -> Optional[Room]:
        """The game at the address ``/g/SLUG``; None if there is none."""
        if not isinstance(slug, str) or not 4 <= len(slug) <= 32:
            return None
        game_id = self.slugs.get(slug)
        if game_id is None:
            game_id = self.store.game_id(slug)
        return self.room(game_id) if game_id is not None else None

    def forget(self, room: Room) -> None:
        """A room out of memory (rebuilt from the store when someone looks again)."""
        self.rooms.pop(room.id, None)
        self.slugs.pop(room.slug, None)

    def _rebuild(self, stored: StoredGame) -> Room:
        room = Room(self, stored, self.store.seats(stored.id))
        actions = self.store.actions(stored.id)
        for a in actions:
            room.table.act(a.seat, a.kind, a.text)
            if a.kind == "move":
                room.moved.add(a.seat)
        room.actions = len(actions)
        clocks = stored.paused_clocks or (actions[-1].clocks if actions else None)
        if clocks:
            room.table.set_clocks(clocks)
        room.table.restart_clock()
        owners = [s.player_id for s in room.seats if s.player_id is not None]
        room.names = self.store.player_names(owners)
        return room

    def tournament_at(self, slug: Any) -> Optional[Any]:
        """The tournament at ``/t/SLUG`` (a finished one is read from the store); None if none."""
        if not isinstance(slug, str) or not 4 <= len(slug) <= 32:
            return None
        for t in self.tournaments.values():
            if t.slug == slug:
                return t
        tid = self.store.tournament_id(slug)
        stored = self.store.tournament(tid) if tid is not None else None
        if stored is None:
            return None
        t = tournaments.Tournament(stored, self.store.entrants(tid), self.store.tournament_games(tid))
        self.tournaments[tid] = t
        return t

    def game_over(self, room: Room) -> None:
        """A game has ended (with a result or aborted): a tournament's next pairings follow."""
        if room.config.get("tournament"):
            tournaments.game_ended(self, room)

    def resume(self) -> int:
        """After a start: every unfinished game back in memory, clocks and bots going.  The count."""
        tournaments.load(self)
        count = 0
        for status in ("open", "playing"):
            for stored in self.store.games(status, limit=100000):
                room = self.room(stored.id)
                if room is not None and room.status == "playing":
                    now = time.monotonic()
                    for s in room.seats:                # nobody is connected yet: grace from now
                        if s.player_id is not None:
                            room.away_since[s.player_id] = now
                    course.next_turn(self, room)
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
            course.let_engines_go(self, room)
        self.engine_threads.shutdown(wait=False)

    def sweep(self) -> None:
        """Every few seconds: 8 Player tables whose wait is over fill their free seats with bots;
        challenges past their time expire; finished games nobody looks at leave memory (they are
        rebuilt from the store when someone does)."""
        minutes = self.policy.challenge_minutes
        now = time.time()
        for t in list(self.tournaments.values()):
            if t.status in ("waiting", "running"):
                before = (t.status, len(t.games), len(t.byes))
                tournaments.advance(self, t)
                if (t.status, len(t.games), len(t.byes)) != before:
                    tournaments.broadcast(self, t)
                    self.lobby_changed()
            elif not t.viewers:
                del self.tournaments[t.id]
        for room in list(self.rooms.values()):
            wait = room.config.get("botsAfter") if room.kind == "eight" else None
            if room.status == "open" and wait and now - room.created >= wait:
                seating.bots_take_free_seats(self, room)
            elif room.status == "open" and minutes and now - room.created > minutes * 60:
                course.end_without_result(self, room, f"The challenge expired after {minutes:g} minutes")
            elif room.status in ("over", "aborted") and not room.viewers:
                self.forget(room)

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
        talk.send_arrows_to(room, viewer)
        if room.status == "over":
            viewer.send(wire.dumps(self.analyst.state(room.id)))
        if room.thinking is not None and room.may_see_thinking(viewer):
            viewer.send(wire.dumps(room.thinking))
        room.broadcast()             # the others see the connection

    def leave(self, viewer: Viewer) -> None:
        room = viewer.room
        if room is None:
            self.lobby_viewers.discard(viewer)
            seeks.page_closed(self, viewer)
            bot_accounts.page_closed(self, viewer)
            for t in self.tournaments.values():
                t.viewers.discard(viewer)
            return
        room.viewers.discard(viewer)
        viewer.room = None
        pid = viewer.player_id
        if pid is not None and room.owned_by(pid) and not room.connected(pid):
            room.away_since[pid] = time.monotonic()
        if not self.stopping:
            room.broadcast()
            course.arm(self, room)
        if not room.viewers and room.status in ("over", "aborted"):
            self.forget(room)

    def hello(self, room: Room, viewer: Viewer) -> Dict[str, Any]:
        return {"type": "hello", "gameId": room.slug, "kind": room.kind, "config": room.config,
                "info": room.table.board_info(), "you": viewer.player, "yourSeats": room.owned_by(viewer.player_id),
                "openSeats": [s.seat for s in room.seats if s.kind == "open"],
                "seatLabels": room.table.seat_labels, "grace": self.grace, "firstMove": self.policy.first_move,
                "creator": room.creator == viewer.player_id and viewer.player_id is not None,
                "solo": room.solo(viewer.player_id), "local": self.policy.local,
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
                seating.take_seat(self, viewer, room, data.get("seat"), data.get("secret"))
            elif kind == "cancel":
                seating.cancel(self, viewer, room)
            elif kind == "chat":
                talk.chat(self, viewer, room, data.get("text"), data.get("channel", "all"))
            elif kind == "arrows":
                talk.arrows(viewer, room, data.get("arrows"))
            elif kind == "analyse":
                self.analyst.request(viewer, room)
            elif kind == "lines":
                self.analyst.lines(viewer, room, data.get("ply"))
            elif kind == "position":
                await self.analyst.position(viewer, room, data.get("ply"))
            elif kind == "board":
                viewer.send(wire.dumps(seating.analysis_board(self, viewer, room, data.get("ply"))))
            elif kind in offers.HANDLERS:
                offers.HANDLERS[kind](self, viewer, room, data)
            elif kind in ("move", "resign", "claim"):
                move = data.get("move", "")
                if kind == "move" and (not isinstance(move, str) or not move.strip() or len(move) > 40):
                    raise Refused("move: want the move's text, e.g. e2e4")
                self.act(viewer, room, kind, move.strip() if isinstance(move, str) else "", data.get("seat"))
            else:
                raise wire.BadMessage(f"unknown message type {kind!r}")
        except (wire.BadMessage, Refused, RulesError) as error:
            viewer.send(wire.dumps({"type": "error", "message": str(error)}))

    def acting_seat(self, viewer: Viewer, room: Room, kind: str, wanted: Any) -> int:
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

    def check_playing(self, room: Room) -> None:
        if room.status != "playing":
            raise Refused({"open": "the game has not begun: seats are still free",
                           "aborted": "the game was aborted"}.get(room.status, "the game is over"))

    def act(self, viewer: Viewer, room: Room, kind: str, text: str, wanted: Any = None) -> None:
        self.check_playing(room)
        seat = self.acting_seat(viewer, room, kind, wanted)
        if kind == "claim" and room.kind == "two":
            course.check_claim(self, room, seat)
        self.apply(room, seat, kind, text)

    def apply(self, room: Room, seat: int, kind: str, text: str = "") -> None:
        """Do an action on the table, store it (committed), then tell everyone."""
        stored_text = room.table.act(seat, kind, text)
        status = "over" if room.table.over else None
        result = room.table.result() if status else None
        changes: List[Any] = []
        if result is not None:
            if kind == "move":
                room.moved.add(seat)         # the last move counts as made (a rated game needs one a side)
            changes, kept = rated.game_changes(self.store, room, result)
            if kept:
                result["ratings"] = kept
        action = StoredAction(room.actions, seat, kind, stored_text, room.table.clocks(), time.time())
        try:
            self.store.add_action(room.id, action, status, result, changes)
        except Exception:
            self.forget(room)                     # memory is ahead of the store: rebuild from it
            raise Refused("the server could not save that; try again") from None
        room.actions += 1
        room.turn_since = time.monotonic()
        room.takeback_by = None
        if kind == "move":
            room.moved.add(seat)
        if kind in ("move", "takeback"):
            room.thinking = None
        if status:
            room.status, room.result = status, result
            course.let_engines_go(self, room)
        room.broadcast()
        course.next_turn(self, room)
        if status:
            self.game_over(room)
            self.lobby_changed()

    # ----------------------------------------------------------------- engines' lines
    def _pool_thinking(self, job: Any, depth: int, score: str, pv: List[str]) -> None:
        """A line from a bot thinking in the worker pool (``job``: the room's id and its action count)."""
        if job[0] == "lines":
            self.analyst.line(job, depth, score, pv)
            return
        room_id, at, seat = job
        room = self.rooms.get(room_id)
        if room is not None and room.actions == at and room.status == "playing":
            course.show_thinking(room, seat, depth, score, pv)

