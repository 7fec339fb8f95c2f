"""The hall: every game being played (each a ``Room``, in ``room.py``) and the store, the bot pool
and the services that hold the server's logic (``services.py`` says what they may use of the hall:
``seating``, ``course``, ``offers``, ``lobby``, and the community's seeks, tournaments and bot
accounts).  ``dispatch`` routes each page's message (declared in ``messages``) to the hall or a
service, with its ``Viewer``.  What is left here routes: rooms in and out of memory, pages joining and
leaving, who may act for which seat, and every action committed to the store before anyone hears of it."""
import asyncio
import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Set

from . import talk, wire
from ...match.engines import EngineConfig
from ..community import rated, tournaments
from ..community.bot_accounts import BotAccounts
from ..community.seeks import SeekBoard
from ..community.tournaments import Tournaments
from ..compute.analysis import Analyst
from ..compute.pool import BotPool
from ..games.eight_player import BOT_LEVELS as EIGHT_LEVELS
from ..games.tables import TWO_LEVELS, Refused
from ..store.records import GameMoved, Store, StoredAction, StoredGame, StoredSeat
from ..identity.accounts import Accounts
from ..identity.moderation import Moderation
from ..identity.people import People
from ..store.thread import AsyncStore
from .course import Course, show_thinking
from .lobby import Lobby
from .offers import Offers
from .room import Room, Viewer
from .seating import Seating
from .services import Policy
from .shared import Elsewhere


class _Unlimited(wire.RateLimit):
    """No limit (one person's server)."""

    def __init__(self) -> None:
        super().__init__(0.0, 0.0)

    def allow(self, cost: float = 1.0) -> bool:
        return True


UNLIMITED = _Unlimited()


class Hall:
    """Every room, the store and the bot pool.  Runs on the server's asyncio loop.

    The store is an ``AsyncStore``: each call is awaited on the store's own thread, so the loop never
    waits for the database (``store.sync``, the plain store, is for start-up and the clean stop).
    What a room's game is changes only under the room's ``lock`` (an action, its store write, and
    what everyone is told of it); see ``Room.lock``."""

    def __init__(self, store: Store, pool: BotPool, policy: Policy = Policy(),
                 engines: Optional[Dict[str, EngineConfig]] = None) -> None:
        self.store = AsyncStore(store)
        self.pool = pool
        self.policy = policy
        self.engines = dict(engines or {})      # outside engines by name (two-player seats)
        self.rooms: Dict[int, Room] = {}
        self.slugs: Dict[str, int] = {}                        # the addresses of the rooms in memory
        self.lobby_viewers: Set[Viewer] = set()
        self.people = People(self.store)                        # who a page is: its cookie's player
        self.loading: Dict[int, "asyncio.Future[Optional[Room]]"] = {}   # rooms being read from the store
        self.tasks: Set["asyncio.Future[Any]"] = set()         # work begun by timers and closed pages
        self.characters: Dict[str, wire.RateLimit] = {}        # address -> what its pages may still send
        self.analyst = Analyst(self)
        self.on_lobby_change: Optional[Callable[[], None]] = None
        self.stopping = False
        self.shared: Optional[Any] = None                      # shared.Shared: one of several processes on the database
        # the services (services.py): each owns its state and reaches the others through the hall
        self.seating = Seating(self)
        self.course = Course(self, max(2, pool.max_games))
        self.offers = Offers(self)
        self.lobby = Lobby(self)
        self.seek_board = SeekBoard(self)
        self.tournaments = Tournaments(self)
        self.bot_accounts = BotAccounts(self, store)
        self.accounts = Accounts(self)
        self.moderation = Moderation(self)
        pool.on_thinking = self._pool_thinking

    @property
    def grace(self) -> float:
        return self.policy.grace

    def lobby_changed(self) -> None:
        if self.on_lobby_change:
            self.on_lobby_change()

    def room_changed(self, room: Room) -> None:
        """What the lobby lists of a game changed (a seat taken): with several processes, the
        lobby's process reads it again."""
        self.lobby_changed()
        if self.shared is not None:
            self.spawn(self.shared.changed(room))

    def characters_from(self, address: str) -> wire.RateLimit:
        """The characters the pages of ``address`` may send between them (unlimited on one person's
        server); the buckets of addresses quiet lately are dropped now and then."""
        if self.policy.local:
            return UNLIMITED
        bucket = self.characters.get(address)
        if bucket is None:
            if len(self.characters) > 10000:
                for quiet in [a for a, b in self.characters.items() if b.full()]:
                    del self.characters[quiet]
            bucket = self.characters[address] = wire.RateLimit(wire.ADDRESS_RATE, wire.ADDRESS_BURST)
        return bucket

    def spawn(self, work: Awaitable[Any]) -> "asyncio.Future[Any]":
        """Work begun outside a page's message (a timer, a bot's move, a page closing): kept until it
        ends; a failure is printed (the server goes on)."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: "asyncio.Future[Any]") -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            print(f"xboard-engine serve: {task.exception()!r}", flush=True)

    # ----------------------------------------------------------------- players
    def renamed(self, player_id: int, name: str) -> None:
        """A player's new name in the challenges here (a game that has begun keeps the name it
        began with)."""
        for room in self.rooms.values():
            if player_id in room.names and room.status == "open":
                room.names[player_id] = name
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
    async def room(self, game_id: int) -> Optional[Room]:
        """The game's room, rebuilt from the store if it is not in memory; None if no such game.
        Pages asking for the same game at once share one reading of it (one room a game)."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        loading = self.loading.get(game_id)
        if loading is None:
            loading = self.loading[game_id] = asyncio.ensure_future(self._load(game_id))
            loading.add_done_callback(lambda _: self.loading.pop(game_id, None))
        return await asyncio.shield(loading)

    async def _load(self, game_id: int) -> Optional[Room]:
        """(Several processes: raises ``shared.Elsewhere`` if another live process hosts the game.)"""
        stored = await self.store.game(game_id)
        if stored is None:
            return None
        if self.shared is not None and not await self.shared.may_host(stored):
            raise Elsewhere(stored.slug)
        room = self._install(await self._rebuild(stored))
        if room.status == "playing":                   # read again (another process's, or a failed save)
            self._go_on(room, time.monotonic())
        return room

    def _install(self, room: Room) -> Room:
        self.rooms[room.id] = room
        self.slugs[room.slug] = room.id
        return room

    def new_room(self, stored: StoredGame, seats: List[StoredSeat]) -> Room:
        """The room of a game just written to the store (``add_game``, ``add_round``): made from
        what was written, without reading it back."""
        room = Room(self, stored, list(seats))
        room.table.restart_clock()
        return self._install(room)

    async def room_at(self, slug: str) -> Optional[Room]:
        """The game at the address ``/g/SLUG``; None if there is none."""
        if not isinstance(slug, str) or not 4 <= len(slug) <= 32:
            return None
        game_id = self.slugs.get(slug)
        if game_id is None:
            game_id = await self.store.game_id(slug)
        return await self.room(game_id) if game_id is not None else None

    def forget(self, room: Room) -> None:
        """A room out of memory (rebuilt from the store when someone looks again; with several
        processes, by whichever is asked)."""
        if self.rooms.get(room.id) is room:
            self.rooms.pop(room.id, None)
            self.slugs.pop(room.slug, None)
        room.gone = True
        if self.shared is not None:
            self.spawn(self.shared.release(room.id))

    async def _rebuild(self, stored: StoredGame) -> Room:
        seats, actions = await asyncio.gather(self.store.seats(stored.id), self.store.actions(stored.id))
        names = await self.store.player_names([s.player_id for s in seats if s.player_id is not None])
        return self._build(stored, seats, actions, names)

    def _build(self, stored: StoredGame, seats: List[StoredSeat], actions: List[StoredAction],
               names: Dict[int, str]) -> Room:
        """A game's room from what the store has of it: its actions played again on its table."""
        room = Room(self, stored, seats)
        for a in actions:
            room.table.act(a.seat, a.kind, a.text)
            if a.kind == "move":
                room.moved.add(a.seat)
        room.actions = len(actions)
        clocks = stored.paused_clocks or (actions[-1].clocks if actions else None)
        if clocks:
            room.table.set_clocks(clocks)
        room.table.restart_clock()
        room.names = names
        return room

    def _tournament_here(self, slug: str) -> Optional[Any]:
        for t in self.tournaments.by_id.values():
            if t.slug == slug:
                return t
        return None

    async def tournament_at(self, slug: Any) -> Optional[Any]:
        """The tournament at ``/t/SLUG`` (a finished one is read from the store); None if none."""
        if not isinstance(slug, str) or not 4 <= len(slug) <= 32:
            return None
        t = self._tournament_here(slug)
        if t is not None:
            return t
        tid = await self.store.tournament_id(slug)
        stored = await self.store.tournament(tid) if tid is not None else None
        if stored is None:
            return None
        entrants, games = await asyncio.gather(self.store.entrants(tid), self.store.tournament_games(tid))
        t = self._tournament_here(slug)        # read by another page meanwhile: one tournament object
        if t is None:
            t = self.tournaments.by_id[tid] = tournaments.Tournament(stored, entrants, games)
        return t

    async def game_over(self, room: Room) -> None:
        """A game has ended (with a result or aborted): a tournament's next pairings follow."""
        if room.config.get("botAccount"):
            self.bot_accounts.game_ended(room)
        if room.config.get("tournament"):
            await self.tournaments.game_ended(room)
        if self.shared is not None:
            await self.shared.changed(room)

    def started(self, room: Room) -> None:
        """A game has begun (its lock held)."""
        if self.shared is not None:
            self.shared.started(room)

    async def place(self, room: Room) -> None:
        """A game just made, before anyone is sent its address: with several processes, it may go
        to another."""
        if self.shared is not None:
            await self.shared.place(room)

    def _go_on(self, room: Room, now: float) -> None:
        """A game being played, read back into memory: nobody is connected yet (grace from now),
        its clock and bots go on."""
        for s in room.seats:
            if s.player_id is not None and not room.connected(s.player_id):
                room.away_since[s.player_id] = now
        self.course.next_turn(room)

    def resume(self) -> int:
        """After a start, before anyone is served (the plain store, read at once): every unfinished
        game back in memory, clocks and bots going.  The count.  (Several processes: nothing here;
        ``Shared`` takes the games without a host, and the lobby's process the tournaments.)"""
        if self.shared is not None:
            return 0
        self.tournaments.load()
        store = self.store.sync
        count = 0
        for status in ("open", "playing"):
            for stored in store.games(status, limit=100000):
                room = self.rooms.get(stored.id)
                if room is None:
                    seats = store.seats(stored.id)
                    names = store.player_names([s.player_id for s in seats if s.player_id is not None])
                    room = self._install(self._build(stored, seats, store.actions(stored.id), names))
                if room.status == "playing":
                    self._go_on(room, time.monotonic())
                count += 1
        return count

    async def pause(self) -> None:
        """A clean stop: every running clock stopped and saved (after the writes made before it),
        bots let go."""
        self.stopping = True
        clocks = {}
        for room in self.rooms.values():
            if room.timer:
                room.timer.cancel()
            if room.status == "playing" and not room.table.over and room.table.clocks():
                clocks[room.id] = room.table.clocks()
        await self.store.pause_clocks(clocks)
        if self.shared is not None:
            self.shared.stop()
            await self.store.release_games()        # the other processes take them at once
        for room in self.rooms.values():
            self.course.let_engines_go(room)
        self.course.engine_threads.shutdown(wait=False)

    async def sweep(self) -> None:
        """Every few seconds: 8 Player tables whose wait is over fill their free seats with bots;
        challenges past their time expire; finished games nobody looks at leave memory (they are
        rebuilt from the store when someone does)."""
        minutes = self.policy.challenge_minutes
        lobby = self.shared is None or self.shared.lobby
        for t in list(self.tournaments.by_id.values()) if lobby else []:
            if t.status in ("waiting", "running"):
                before = (t.status, len(t.games), len(t.byes))
                await self.tournaments.advance(t)
                if (t.status, len(t.games), len(t.byes)) != before:
                    await self.tournaments.broadcast(t)
                    self.lobby_changed()
            elif not t.viewers:
                self.tournaments.by_id.pop(t.id, None)

        def due(room: Room) -> Optional[str]:
            wait = room.config.get("botsAfter") if room.kind == "eight" else None
            now = time.time()
            if room.status == "open" and wait and now - room.created >= wait:
                return "bots"
            if room.status == "open" and minutes and now - room.created > minutes * 60:
                return "expired"
            if room.status in ("over", "aborted") and not room.viewers:
                return "forget"
            return None

        for room in list(self.rooms.values()):
            what = due(room)
            if what == "forget":
                self.forget(room)
            elif what is not None:
                async with room.lock:
                    if due(room) != what or self.rooms.get(room.id) is not room:
                        continue                       # the room moved on meanwhile
                    if what == "bots":
                        await self.seating.bots_take_free_seats(room)
                    else:
                        await self.course.end_without_result(room, f"The challenge expired after {minutes:g} minutes")

    # ----------------------------------------------------------------- viewers
    async def join(self, viewer: Viewer, room: Room) -> None:
        """A page opens on a game: the game as it is, its chat, arrows, analysis and thinking; then
        the others see the connection.  Under the room's lock: a chat line or action is either in
        what the page is sent first or sent to it after, never both nor neither."""
        async with room.lock:
            lines = await self.store.chat(room.id)
            apart = set(await self.moderation.blocks(viewer.player_id)) if viewer.player_id is not None else set()
            analysis = await self.analyst.state(room.id) if room.status == "over" else None
            viewer.room = room
            room.viewers.add(viewer)
            if viewer.player_id is not None:
                room.away_since.pop(viewer.player_id, None)
            viewer.send(wire.dumps(self.hello(room, viewer)))
            viewer.send(room.state_text())
            for line in lines:
                if talk.may_read(room, viewer, line.channel) and line.player_id not in apart:
                    viewer.send(wire.dumps(talk.chat_message(line)))
            talk.send_arrows_to(room, viewer)
            if analysis is not None:
                viewer.send(wire.dumps(analysis))
        if room.thinking is not None and room.may_see_thinking(viewer):
            viewer.send(wire.dumps(room.thinking))
        room.broadcast()             # the others see the connection

    def leave(self, viewer: Viewer) -> None:
        room = viewer.room
        if room is None:
            self.lobby_viewers.discard(viewer)
            self.seek_board.page_closed(viewer)
            self.bot_accounts.page_closed(viewer)
            for t in self.tournaments.by_id.values():
                t.viewers.discard(viewer)
            return
        room.viewers.discard(viewer)
        viewer.room = None
        pid = viewer.player_id
        if pid is not None and room.owned_by(pid) and not room.connected(pid):
            room.away_since[pid] = time.monotonic()
        if not self.stopping:
            room.broadcast()          # (not while an action is being saved: its own broadcast follows)
            self.course.arm(room)
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

    # ----------------------------------------------------------------- actions
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

    async def act(self, viewer: Viewer, room: Room, kind: str, text: str, wanted: Any = None) -> None:
        self.check_playing(room)
        seat = self.acting_seat(viewer, room, kind, wanted)
        if kind == "claim" and room.kind == "two":
            self.course.check_claim(room, seat)
        await self.apply(room, seat, kind, text)

    async def apply(self, room: Room, seat: int, kind: str, text: str = "") -> None:
        """Do an action on the table, store it (committed), then tell everyone.  The caller holds
        ``room.lock`` (from the table's change to the broadcast nothing else acts in the room, and
        the room's state is not sent to anyone until the action is saved)."""
        assert room.lock.locked(), "Hall.apply without the room's lock"
        stored_text = room.table.act(seat, kind, text)
        status = "over" if room.table.over else None
        result = room.table.result() if status else None
        room.saving = True
        try:
            changes: List[Any] = []
            if result is not None:
                result["ended"] = time.time()
                if kind == "move":
                    room.moved.add(seat)         # the last move counts as made (a rated game needs one a side)
                changes, kept = await rated.game_changes(self.store, room, result)
                if kept:
                    result["ratings"] = kept
            action = StoredAction(room.actions, seat, kind, stored_text, room.table.clocks(), time.time())
            await self.store.add_action(room.id, action, status, result, changes)
        except GameMoved:
            self.shared.unload(room)              # another process took the game: the pages go there
            raise Refused("the game moved to another server process; this page connects to it again") from None
        except Exception:
            self.forget(room)                     # memory is ahead of the store: rebuild from it
            raise Refused("the server could not save that; try again") from None
        finally:
            room.saving = False
        room.actions += 1
        room.turn_since = time.monotonic()
        room.takeback_by = None
        if kind == "move":
            room.moved.add(seat)
        if kind in ("move", "takeback"):
            room.thinking = None
        if status:
            room.status, room.result = status, result
            self.course.let_engines_go(room)
        room.broadcast()
        self.course.next_turn(room)
        if status:
            await self.game_over(room)
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
            show_thinking(room, seat, depth, score, pv)

