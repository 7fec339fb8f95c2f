"""A game as the hall holds it: a ``Room`` (its table, seats, pages, away players, timer, outside
engines, arrows, offers), the ``Viewer`` of one page's connection, and ``Watched``, what a room and a
tournament have alike (the pages watching, the lock)."""
import asyncio
import hashlib
import secrets
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Set

from . import wire
from ...match.seat import EngineSeat
from ..games.eight_player import HUMAN
from ..games.tables import Table, make_table
from ..store.records import StoredGame, StoredSeat

if TYPE_CHECKING:
    from .services import HallServices


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(18)


class Viewer:
    """One page's connection: who it is (the player token's owner, if any) and how to reach it."""

    def __init__(self, send: Callable[[str], Any], token: Optional[str], address: str) -> None:
        self.send = send                 # queues text for the page (never blocks)
        self.close: Callable[[int, str], Any] = lambda code, reason: None     # closes it (after what was queued)
        self.token = token
        self.address = address
        self.player: Optional[Dict[str, Any]] = None     # {"id", "name"} once known
        self.room: Optional["Room"] = None
        self.messages = wire.RateLimit(rate=10.0, burst=30.0)
        self.characters = wire.RateLimit(rate=wire.CONNECTION_RATE, burst=wire.CONNECTION_BURST)
        self.chats = wire.RateLimit(rate=0.5, burst=5.0)
        self.refusals = 0

    @property
    def player_id(self) -> Optional[int]:
        return self.player["id"] if self.player else None

    @property
    def person(self) -> Any:
        """Who is behind the page, however many pages they have open: the player, else the cookie."""
        return self.player_id if self.player_id is not None else (self.token or id(self))


class Watched:
    """Something pages watch (``viewers``) and that changes only under its ``lock``."""

    def __init__(self) -> None:
        self.viewers: Set[Viewer] = set()
        self._lock: Optional[asyncio.Lock] = None

    @property
    def lock(self) -> asyncio.Lock:
        """Held by whatever changes it and awaits the store meanwhile; each change re-checks what it
        found once it holds it.  Made on first use (on the running loop: Python 3.9's locks keep the
        loop they were made on)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock


class Room(Watched):
    """A game being played or watched: its table, its seats and the pages watching it.  Its lock is
    held by an action, a seat taken, an offer, a timer's or a bot's move, the game's end."""

    def __init__(self, hall: "HallServices", stored: StoredGame, seats: List[StoredSeat]) -> None:
        super().__init__()
        self.hall = hall
        self.id = stored.id
        self.slug = stored.slug
        self.kind = stored.kind
        self.config = stored.config
        self.status = stored.status
        self.created = stored.created
        self.creator = stored.creator
        self.listed = stored.listed
        self.address: Optional[str] = None           # where its creator made it from (this process's own)
        self.result = stored.result
        self.seats = seats
        self.away_since: Dict[int, float] = {}   # player id -> when their last page here closed
        self.timer: Optional[asyncio.TimerHandle] = None
        self.bot_busy = False
        self.engines: Dict[int, EngineSeat] = {}     # outside engines playing seats, once started
        self.arrows: Dict[int, Any] = {}             # player id -> (seat, arrows) last drawn (a reload keeps them)
        self.actions = 0
        self.moved: Set[int] = set()                 # seats that have made a move in this game
        self.turn_since = time.monotonic()           # when the seat to move began its turn
        self.takeback_by: Optional[int] = None       # the seat asking to take back, until answered
        self.rematch: Set[int] = set()               # player ids asking for a rematch
        self.next_game: Optional[str] = None         # the rematch's address, once made
        self.thinking: Optional[Dict[str, Any]] = None    # the engine to move's last line
        self.table: Table = make_table(stored.kind, stored.config, self.players(), stored.id)
        self.names: Dict[int, str] = {}              # player id -> name now (before the game begins)
        self.saving = False                          # an action is on the table, not yet in the store
        self.gone = False                            # out of the hall's memory (its timers and bots stop)

    def players(self) -> List[str]:
        """What the table is told of each seat: a person ("human"), or the bot's level or engine."""
        players = []
        for s in self.seats:
            engine, _, level = (s.bot or "").partition(":")
            players.append((level or engine) if s.kind == "bot" else HUMAN)
        return players

    # ----------------------------------------------------------------- who is who
    def owned_by(self, player_id: Optional[int]) -> List[int]:
        return [s.seat for s in self.seats if s.kind == "player" and player_id is not None
                and s.player_id == player_id]

    def people(self) -> Set[int]:
        """The players holding seats."""
        return {s.player_id for s in self.seats if s.kind == "player" and s.player_id is not None}

    def has_bot(self) -> bool:
        return any(s.kind == "bot" for s in self.seats)

    def for_others(self) -> bool:
        """Seats are kept for other people (open or invited), or other people hold seats."""
        return any(s.kind in ("open", "invite") for s in self.seats) or len(self.people()) > 1

    def solo(self, player_id: Optional[int]) -> bool:
        """Nobody but this player (and bots) plays here: hot-seat, instant takebacks, the engine's
        thinking shown."""
        return not self.for_others() and self.people() <= {player_id}

    def connected(self, player_id: Optional[int]) -> bool:
        return any(v.player_id == player_id for v in self.viewers)

    def name_of(self, s: StoredSeat) -> str:
        if s.kind == "player":
            return s.name or self.names.get(s.player_id, "?")
        if s.kind == "bot":
            return s.name or self.hall.bot_words(self.kind, s.bot)
        return ""

    def seat_view(self) -> List[Dict[str, Any]]:
        out = []
        for s in self.seats:
            entry: Dict[str, Any] = {"seat": s.seat, "label": self.table.seat_labels[s.seat], "kind": s.kind}
            if s.kind == "player":
                entry["name"] = self.name_of(s)
                entry["player"] = s.player_id
                entry["connected"] = self.connected(s.player_id)
            elif s.kind == "bot":
                entry["name"] = self.name_of(s)
                entry["connected"] = True
            out.append(entry)
        return out

    def audience(self) -> int:
        """The people looking at this game now, each counted once however many pages they have open."""
        return len({v.person for v in self.viewers})

    def offers(self) -> Dict[str, Any]:
        return {"takeback": self.takeback_by, "rematch": sorted(s for s in range(len(self.seats))
                                                               if self.seats[s].player_id in self.rematch),
                "next": self.next_game}

    def state_text(self, since: Optional[Dict[str, int]] = None) -> str:
        """The game's state for a page: whole (a page opening), or ``since`` what every page has
        of its history (``Table.view_text``)."""
        return self.table.view_text({"gameId": self.slug, "status": self.status, "online": self.seat_view(),
                                     "watchers": self.audience(), "clockValues": self.table.clocks(),
                                     "offers": self.offers(), "abortable": self.abortable(),
                                     "outcome": self.result if self.status == "aborted" else None,
                                     "rated": bool(self.config.get("rated")),
                                     "ratingChanges": (self.result or {}).get("ratings")}, since)

    def abortable(self) -> List[int]:
        """The seats whose players may still abort the game (those who have not moved yet, while
        some person has not made a first move)."""
        if self.status != "playing" or self.table.over or self.config.get("tournament"):
            return []
        waiting = [s.seat for s in self.seats if s.kind == "player" and s.seat not in self.moved]
        return waiting

    def broadcast(self, text: Optional[str] = None) -> None:
        """``text`` to every page, or the room's state: only the end of its history that changed
        since the last state every page was sent (a page opening is sent the whole state).  The
        state is not sent while an action on the table is being saved (the action's own broadcast
        follows once it is in the store)."""
        if text is None:
            if self.saving:
                return
            text = self.state_text(self.table.unchanged_history())
            self.table.mark_history()
        for v in list(self.viewers):
            v.send(text)

    def may_see_thinking(self, viewer: Viewer) -> bool:
        """The engines' lines go to watchers and to a person playing only against engines, never to
        someone playing another person."""
        return not self.owned_by(viewer.player_id) or not len(self.people() - {viewer.player_id})

    def send_thinking(self) -> None:
        if self.thinking is None:
            return
        text = wire.dumps(self.thinking)
        for v in list(self.viewers):
            if self.may_see_thinking(v):
                v.send(text)

    def team_of_player(self, player_id: Optional[int]) -> Optional[int]:
        """The partner or team whose private talk this player shares: all their seats on one
        team; None for a watcher, a game without teams, or someone sitting on two sides."""
        teams = {self.table.team_of(seat) for seat in self.owned_by(player_id)}
        return teams.pop() if len(teams) == 1 else None

    def send_team(self, team: Optional[int], sender: Viewer, text: str) -> None:
        """To the pages of the players of ``team`` (None: only the sender's own pages)."""
        for v in list(self.viewers):
            if team is None:
                if v.player_id is not None and v.player_id == sender.player_id:
                    v.send(text)
            elif self.team_of_player(v.player_id) == team:
                v.send(text)
