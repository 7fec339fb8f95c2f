"""A game as the hall holds it: a ``Room`` (its table, seats, pages, away players, timer, outside
engines, arrows) and the ``Viewer`` of one page's connection."""
import asyncio
import hashlib
import secrets
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Set

from ..web.eight_game import HUMAN
from . import wire
from .engines import EngineSeat
from .store import StoredGame, StoredSeat
from .tables import Table, make_table

if TYPE_CHECKING:
    from .hall import Hall


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(18)


class Viewer:
    """One page's connection: who it is (the player token's owner, if any) and how to reach it."""

    def __init__(self, send: Callable[[str], Any], token: Optional[str], address: str) -> None:
        self.send = send                 # queues text for the page (never blocks)
        self.token = token
        self.address = address
        self.player: Optional[Dict[str, Any]] = None     # {"id", "name"} once known
        self.room: Optional["Room"] = None
        self.messages = wire.RateLimit(rate=10.0, burst=30.0)
        self.chats = wire.RateLimit(rate=0.5, burst=5.0)
        self.refusals = 0

    @property
    def player_id(self) -> Optional[int]:
        return self.player["id"] if self.player else None


class Room:
    """A game being played or watched: its table, its seats and the pages watching it."""

    def __init__(self, hall: "Hall", stored: StoredGame, seats: List[StoredSeat]) -> None:
        self.hall = hall
        self.id = stored.id
        self.kind = stored.kind
        self.config = stored.config
        self.status = stored.status
        self.seats = seats
        self.viewers: Set[Viewer] = set()
        self.away_since: Dict[int, float] = {}   # player id -> when their last page here closed
        self.timer: Optional[asyncio.TimerHandle] = None
        self.bot_busy = False
        self.engines: Dict[int, EngineSeat] = {}     # outside engines playing seats, once started
        self.arrows: Dict[int, Any] = {}             # player id -> (seat, arrows) last drawn (a reload keeps them)
        self.actions = 0
        self.table: Table = make_table(stored.kind, stored.config, self._players(), stored.id)
        self.names: Dict[int, str] = {}

    def _players(self) -> List[str]:
        players = []
        for s in self.seats:
            engine, _, level = (s.bot or "").partition(":")
            players.append((level or engine) if s.kind == "bot" else HUMAN)
        return players

    # ----------------------------------------------------------------- who is who
    def owned_by(self, player_id: Optional[int]) -> List[int]:
        return [s.seat for s in self.seats if s.kind == "player" and player_id is not None
                and s.player_id == player_id]

    def connected(self, player_id: Optional[int]) -> bool:
        return any(v.player_id == player_id for v in self.viewers)

    def seat_view(self) -> List[Dict[str, Any]]:
        out = []
        for s in self.seats:
            entry: Dict[str, Any] = {"seat": s.seat, "label": self.table.seat_labels[s.seat], "kind": s.kind}
            if s.kind == "player":
                entry["name"] = self.names.get(s.player_id, "?")
                entry["connected"] = self.connected(s.player_id)
            elif s.kind == "bot":
                entry["name"] = self.hall.bot_words(self.kind, s.bot)
                entry["connected"] = True
            out.append(entry)
        return out

    def state_text(self) -> str:
        return self.table.view_text({"gameId": self.id, "status": self.status, "online": self.seat_view(),
                                     "watchers": len(self.viewers), "clockValues": self.table.clocks()})

    def broadcast(self, text: Optional[str] = None) -> None:
        text = text or self.state_text()
        for v in list(self.viewers):
            v.send(text)

    def send_team(self, team: Optional[int], sender: Viewer, text: str) -> None:
        """To the pages of the players of ``team`` (None: only the sender's own pages)."""
        for v in list(self.viewers):
            if team is None:
                if v.player_id is not None and v.player_id == sender.player_id:
                    v.send(text)
            elif any(self.table.team_of(seat) == team for seat in self.owned_by(v.player_id)):
                v.send(text)
