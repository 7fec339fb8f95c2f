"""Several ``serve --shared`` processes on one PostgreSQL database (on one machine or several,
behind a reverse proxy such as nginx; ``scripts/nginx_front.py`` writes its site).

- **Games.**  Each game is played by one process at a time, its *host* (``games.host``).  A process
  asked for a game another live process hosts answers 503, and the proxy asks the next process.  A
  game whose host is gone (or none) is taken by the process asked for it, or, if nobody asks, by the
  sweep here.  Every write of a game checks in its transaction that this process still hosts it
  (``SqlStore._write``), so two processes never both play one.
- **The lobby.**  One process, the one holding the database's server lock, serves the lobby,
  seeks, tournaments, bot accounts and player pages; the others answer those pages with 503 (the
  proxy asks the next).  When it stops, another process takes the lock and the
  lobby over.  A game just made (a challenge, a paired seek, a game with bots, a rematch) is given
  to the next live process in turn before anyone has its address, so the games are spread over
  the processes; tournament games and games with bot accounts stay with the lobby.
- **The bus** (PostgreSQL LISTEN/NOTIFY): ``adopt`` (a process is given a game), ``game`` (a game
  was made, began, ended or moved: the lobby process reads it again for its lists), ``cancel`` (the
  lobby page withdraws a challenge another process hosts), ``rename`` (a player's new name, for the
  challenges every process hosts), ``signout`` (sessions ended: their pages are closed everywhere), ``sanction`` (a moderator's action
  or a block: what each process knew of those players is read again)."""
import asyncio
import json
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Set, Tuple

from ..community import tournaments
from ..games.tables import Refused
from ..store.records import StoredGame, StoredSeat
from .room import Room, Viewer

if TYPE_CHECKING:
    from .hall import Hall

LIVE_SECONDS = 1.0          # how often the live processes are looked up
ORPHAN_SECONDS = 2.0        # how often games whose host is gone are looked for
MOVED = 4001                # the WebSocket close code that sends a page to the game's new host


class Elsewhere(Exception):
    """The game is hosted by another live process (the pages' requests go there: answer 503)."""


def stays_with_lobby(config: Dict[str, Any]) -> bool:
    """Games the lobby process keeps: tournament games and games with bot accounts (their pairings,
    answers and ``gameStart`` are the lobby's)."""
    return bool(config.get("tournament") or config.get("botAccount"))


class Remote(NamedTuple):
    """A game another process hosts, as the lobby's process last read it (what the per-person
    limits ask of a room)."""
    game: StoredGame
    seats: List[StoredSeat]

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def creator(self) -> Optional[int]:
        return self.game.creator

    def people(self) -> Set[int]:
        return {s.player_id for s in self.seats if s.kind == "player" and s.player_id is not None}

    def has_bot(self) -> bool:
        return any(s.kind == "bot" for s in self.seats)


class Shared:
    """This process's part among several sharing the database (``hall.shared``)."""

    def __init__(self, hall: Optional["Hall"], host_id: int) -> None:
        self.hall: "Hall" = hall          # type: ignore[assignment]   (set once the hall is made)
        self.host_id = host_id
        self.lobby = False                  # this process serves the lobby now
        self.live: List[int] = [host_id]    # the live processes, by number
        self.turn = 0                       # round robin over ``live`` for games that begin
        # The lobby process's view of the games not over that other processes host (for its lists and
        # the per-person limits): id -> (game, seats).
        self.directory: Dict[int, Tuple[StoredGame, List[StoredSeat]]] = {}
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.tasks: List["asyncio.Future[Any]"] = []
        self.keep: List[Any] = []           # the locks and the bus, held while the process lives

    # ----------------------------------------------------------------- running
    def start(self) -> None:
        """On the serving loop: the bus's messages go to it; the live processes and the games left
        without a host are looked at from now on."""
        self.loop = asyncio.get_event_loop()
        self.tasks = [asyncio.ensure_future(self._every(LIVE_SECONDS, self._look_live)),
                      asyncio.ensure_future(self._every(ORPHAN_SECONDS, self._adopt_orphans))]

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()

    async def _every(self, seconds: float, work: Any) -> None:
        while True:
            try:
                await work()
            except Exception as error:          # the database may be busy: try again next time
                print(f"xboard-engine serve: {work.__name__}: {error!r}", flush=True)
            await asyncio.sleep(seconds)

    async def _look_live(self) -> None:
        live = sorted(await self.hall.store.live_hosts())
        self.live = live if self.host_id in live else sorted(live + [self.host_id])

    def heard(self, payload: str) -> None:
        """A bus message (on the bus's thread): handled on the loop."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._message, payload)

    def _message(self, payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        kind = message.get("t")
        if kind == "adopt" and message.get("host") == self.host_id:
            self.hall.spawn(self.adopt(int(message["game"])))
        elif kind == "game" and self.lobby:
            self.hall.spawn(self._refresh(int(message["game"])))
        elif kind == "sanction" and message.get("by") != self.host_id and isinstance(message.get("players"), list):
            for player in message["players"]:
                if isinstance(player, int):
                    self.hall.moderation.forget(player)
        elif kind == "signout" and message.get("by") != self.host_id and isinstance(message.get("hashes"), list):
            self.hall.people.close_pages([h for h in message["hashes"] if isinstance(h, str)], str(message.get("why", "")))
        elif kind == "rename" and message.get("by") != self.host_id and isinstance(message.get("player"), int) and isinstance(message.get("name"), str):
            self.hall.renamed(message["player"], message["name"])
        elif kind == "cancel" and int(message.get("game", 0)) in self.hall.rooms:
            self.hall.spawn(self._cancel(self.hall.rooms[int(message["game"])], message.get("player")))

    async def send(self, **message: Any) -> None:
        await self.hall.store.notify(json.dumps(dict(message, by=self.host_id)))

    # ----------------------------------------------------------------- the lobby
    async def become_lobby(self) -> None:
        """This process took the server lock: the tournaments not over, the bot accounts and the
        games other processes host are read, and the lobby is served from now on."""
        store = self.hall.store
        for stored in await store.tournaments(["waiting", "running"], limit=10000):
            if stored.id not in self.hall.tournaments.by_id:
                entrants, games = await store.entrants(stored.id), await store.tournament_games(stored.id)
                self.hall.tournaments.by_id[stored.id] = tournaments.Tournament(stored, entrants, games)
        for player_id in await store.bot_account_ids():
            self.hall.bot_accounts.registry.add(player_id)
        for status in ("open", "playing"):
            for game in await store.games(status, limit=100000):
                if game.id not in self.hall.rooms:
                    self.directory[game.id] = (game, await store.seats(game.id))
        self.lobby = True
        await self._adopt_orphans()
        self.hall.lobby_changed()

    async def _refresh(self, game_id: int) -> None:
        """A game another process hosts began, ended or moved: the lobby's lists read it again."""
        game = await self.hall.store.game(game_id)
        if game is not None and game.status in ("open", "playing") and game_id not in self.hall.rooms:
            self.directory[game_id] = (game, await self.hall.store.seats(game_id))
        else:
            self.directory.pop(game_id, None)
        self.hall.lobby_changed()

    async def changed(self, room: Room) -> None:
        """A game of this process began, ended or came here: the lobby process hears of it."""
        if self.lobby:
            self.directory.pop(room.id, None)
            self.hall.lobby_changed()
        else:
            await self.send(t="game", game=room.id)

    def elsewhere(self) -> List[Remote]:
        """The games not over that other processes host (known to the lobby's process)."""
        return [Remote(g, seats) for g, seats in self.directory.values() if g.id not in self.hall.rooms
                and g.status in ("open", "playing") and not g.config.get("analysis")]

    # ----------------------------------------------------------------- games
    async def may_host(self, game: StoredGame) -> bool:
        """Whether this process plays ``game`` (read from the store, not in memory): it is this
        process's, or its host is gone and this process takes it (not a game the lobby keeps, unless
        this process is the lobby's)."""
        store = self.hall.store
        host, alive = await store.game_host(game.id)
        if host == self.host_id:
            return True
        if host is not None and alive:
            return False
        if game.status in ("open", "playing") and stays_with_lobby(game.config) and not self.lobby:
            return False
        return await store.claim_game(game.id, host)

    async def adopt(self, game_id: int) -> None:
        """A game given to this process, or left without a host: into memory, its clocks going."""
        try:
            room = await self.hall.room(game_id)
        except Elsewhere:
            return
        if room is not None and room.status in ("open", "playing"):
            await self.changed(room)

    async def _adopt_orphans(self) -> None:
        """Games not over whose host is gone: the lobby's own kind to the lobby process, the others
        shared out by number among the live processes.  One at a time (the games players ask for
        are taken meanwhile, as they ask)."""
        rank = self.live.index(self.host_id)
        count = len(self.live)
        for game_id, _, config in await self.hall.store.orphans():
            if game_id in self.hall.rooms or game_id in self.hall.loading:
                continue
            if stays_with_lobby(config):
                if not self.lobby:
                    continue
            elif game_id % count != rank:
                continue
            await self.adopt(game_id)

    def started(self, room: Room) -> None:
        """A game of this process began: the lobby hears of it."""
        self.hall.spawn(self.changed(room))

    def _next_host(self) -> int:
        self.turn += 1
        return self.live[self.turn % len(self.live)]

    async def place(self, room: Room) -> None:
        """A game just made here (a challenge, a paired seek, a game with bots, a rematch), before
        anyone is sent its address: it goes to the next live process in turn (unless the lobby keeps
        it), so the games are spread over the processes and no page has to move."""
        if stays_with_lobby(room.config):
            return
        await self._look_live()
        target = self._next_host()
        if target == self.host_id:
            return
        async with room.lock:
            if self.hall.rooms.get(room.id) is not room or room.status not in ("open", "playing") \
                    or self.hall.stopping:
                return
            if not await self.hall.store.give_game(room.id, target):
                return
            self.unload(room)
        await self.send(t="adopt", game=room.id, host=target)
        await self.send(t="game", game=room.id)

    def unload(self, room: Room) -> None:
        """The room leaves this process (another hosts it now): its timer, bots and memory let go,
        and its pages told to connect again (the proxy sends them to the new host)."""
        if room.timer:
            room.timer.cancel()
            room.timer = None
        self.hall.course.let_engines_go(room)
        self.hall.forget(room)
        for viewer in list(room.viewers):
            viewer.close(MOVED, "the game moved to another server process")

    async def cancel(self, slug: Any, player_id: Optional[int]) -> None:
        """The lobby page's ``cancel`` of a challenge another process hosts: sent to it."""
        game_id = await self.hall.store.game_id(slug) if isinstance(slug, str) else None
        if game_id is None or game_id not in self.directory:
            raise Refused("no such game")
        await self.send(t="cancel", game=game_id, player=player_id)

    async def _cancel(self, room: Room, player_id: Any) -> None:
        viewer = Viewer(lambda text: None, None, "")
        viewer.player = {"id": player_id, "name": ""} if isinstance(player_id, int) else None
        async with room.lock:
            try:
                await self.hall.seating.cancel(viewer, room)
            except Refused:
                pass

    async def release(self, game_id: int) -> None:
        """A room this process forgot: the next process asked for it may take it (not if this
        process read it again meanwhile: the store runs calls in order, so a reading begun after
        this sees the release and takes the game back)."""
        if game_id not in self.hall.rooms and game_id not in self.hall.loading:
            await self.hall.store.release_game(game_id)
