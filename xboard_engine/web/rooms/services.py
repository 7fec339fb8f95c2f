"""What the hall's services may use of the hall (``HallServices``), and the server's rules for
people (``Policy``).

The hall (``hall.py``) holds the rooms, the store and the bot pool, and routes; the logic lives in
services, each an object owning its own state, made by the hall with itself as their
``HallServices``: ``seating.Seating`` (new games, seats, the creation limits), ``course.Course``
(turns, clocks, timers, bots' and engines' moves), ``offers.Offers`` (draw, takeback, rematch, abort),
``lobby.Lobby`` (the lists), and in ``community/``: ``seeks.SeekBoard`` (the seeks waiting),
``tournaments.Tournaments`` (those in memory), ``bot_accounts.BotAccounts`` (bot accounts and those
online).  A service reaches another only through the hall's attribute for it."""
from typing import TYPE_CHECKING, Any, Awaitable, Dict, List, NamedTuple, Optional, Protocol, Tuple

if TYPE_CHECKING:
    import asyncio
    from ...match.engines import EngineConfig
    from ..community.bot_accounts import BotAccounts
    from ..community.seeks import SeekBoard
    from ..community.tournaments import Tournaments
    from ..compute.pool import BotPool
    from ..store.records import StoredGame, StoredSeat
    from ..store.thread import AsyncStore
    from ..identity.accounts import Accounts
    from .course import Course
    from .lobby import Lobby
    from ..identity.moderation import Moderation
    from .offers import Offers
    from ..identity.people import People
    from .room import Room, Viewer
    from .seating import Seating
    from .shared import Shared


class Policy(NamedTuple):
    """The server's rules for people (``serve`` defaults; ``xboard-engine web`` is one person's
    server: no first-move limit, no expiry, no per-person limits)."""
    grace: float = 60.0                 # seconds away before the opponent may claim (or a bot wins)
    first_move: float = 30.0            # seconds for a person's first move, else the game is aborted (0: none)
    challenge_minutes: float = 60.0     # an open challenge and its invite links expire (0: never)
    max_challenges: int = 3             # challenges a person has waiting for players
    max_bot_games_each: int = 2         # games with bots a person plays at once
    max_games_each: int = 20            # unfinished games a person has at once
    rated_needs_account: bool = True    # rated games (and seeks, rated tournaments) are for accounts only
    bots_need_owners: bool = True       # a bot account is made by an account (its owner) on the account page
    name_scripts: Optional[Tuple[str, ...]] = ("LATIN",)     # the scripts names may be written in (None: any)
    idle_bot_game: float = 600.0        # seconds a person to move may sit in a game with bots and no
    #                                     clock running before it ends (it holds a bot place; 0: never)
    local: bool = False                 # xboard-engine web: the person at this computer


LOCAL = Policy(first_move=0.0, challenge_minutes=0.0, max_challenges=1000, max_bot_games_each=1000,
               max_games_each=1000, idle_bot_game=0.0, rated_needs_account=False, bots_need_owners=False, name_scripts=None,
               local=True)


class HallServices(Protocol):
    """The hall as its services see it."""
    # what everything is kept in, and the server's settings
    store: "AsyncStore"
    pool: "BotPool"
    policy: Policy
    engines: Dict[str, "EngineConfig"]       # outside engines by name (two-player seats)
    people: "People"
    rooms: Dict[int, "Room"]                 # the games in memory, by id
    shared: Optional["Shared"]               # one of several processes on the database (else None)
    stopping: bool
    # the services
    seating: "Seating"
    course: "Course"
    offers: "Offers"
    lobby: "Lobby"
    seek_board: "SeekBoard"
    tournaments: "Tournaments"
    bot_accounts: "BotAccounts"
    accounts: "Accounts"
    moderation: "Moderation"

    @property
    def grace(self) -> float:
        """Seconds a player may be away before the opponent may claim."""

    def spawn(self, work: Awaitable[Any]) -> "asyncio.Future[Any]":
        """Work begun outside a page's message, kept until it ends."""

    def lobby_changed(self) -> None:
        """What the lobby lists changed: its pages hear of it."""

    def room_changed(self, room: "Room") -> None:
        """What the lobby lists of one game changed."""

    def new_room(self, stored: "StoredGame", seats: List["StoredSeat"]) -> "Room":
        """The room of a game just stored, kept in memory."""

    async def place(self, room: "Room") -> None:
        """A game just made, before anyone is sent its address (another process may take it)."""

    async def room_at(self, slug: str) -> Optional["Room"]:
        """The room at an address, read from the store if need be."""

    async def tournament_at(self, slug: Any) -> Optional[Any]:
        """The tournament at an address, read from the store if need be."""

    def started(self, room: "Room") -> None:
        """A game has begun (its lock held)."""

    async def game_over(self, room: "Room") -> None:
        """A game has ended: a tournament's next pairings follow."""

    def hello(self, room: "Room", viewer: "Viewer") -> Dict[str, Any]:
        """The first message a game's page receives."""

    def bot_words(self, kind: str, bot: Optional[str]) -> str:
        """How a seat's bot is named to people."""

    def check_playing(self, room: "Room") -> None:
        """Refused unless the game is being played."""

    async def apply(self, room: "Room", seat: int, kind: str, text: str = "") -> None:
        """An action done on the table, stored, then told to everyone (``room.lock`` held)."""
