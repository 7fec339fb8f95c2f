"""The server's storage: players, games, seats, every action and chat line.  ``Store`` is the
interface the server uses (small on purpose: a PostgreSQL store is a new module implementing it);
``SqliteStore`` is the embedded default (standard library ``sqlite3``, WAL mode).  Every write is
committed before the method returns, so a move the server acknowledges is on disk.

Schema versions: 1 (the first live server), 2 (games have an unguessable address, a creator and a
listed flag; seats keep the name their player had when the game began; player names have a unique
look-alike key; a game may be ``aborted``), 3 (ratings: each player's rating per variant or 8 Player
Chess mode and its history, written with the game's last action; tournaments, their entrants, and
their rounds' games and byes; bot accounts: the players an engine plays for, and their rules), 4 (the
process that hosts each game, and the table of processes: several ``serve --shared`` processes on
one PostgreSQL), 5 (accounts: a player with a password, its signed-in sessions, and password-reset
links; ``accounts.py``; and moderation's reports, sanctions, log and blocks), 6 (the owners of bot
accounts).  An older database is brought up to date when opened."""
import secrets
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple


SLUG_LETTERS = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/l/I
SLUG_LENGTH = 10                                                          # 56^10: about 2^58


def new_slug() -> str:
    """A game's public address: random, so a game not listed anywhere cannot be found by trying."""
    return "".join(secrets.choice(SLUG_LETTERS) for _ in range(SLUG_LENGTH))


class StoredSeat(NamedTuple):
    seat: int
    kind: str                   # "open" (anyone may take it), "invite" (the link's secret), "bot", "player"
    player_id: Optional[int]    # the owner, once taken
    bot: Optional[str]          # the bot's engine and level, for kind "bot"
    invite_hash: Optional[str]  # the invite secret's hash until the invite is used
    name: Optional[str] = None  # the player's name as it was when the game began (the record keeps it)


class StoredAction(NamedTuple):
    n: int                      # 0, 1, 2 ... in the game
    seat: int
    kind: str                   # "move", "resign", "draw", "claim", "timeout", "takeback", ...
    text: str                   # a move's text, or words
    clocks: List[float]         # every seat's clock after the action (seconds; empty without a clock)
    at: float                   # wall-clock time


class StoredGame(NamedTuple):
    id: int
    kind: str                   # "two" or "eight"
    config: Dict[str, Any]      # what the challenge said: variant, mode, options, clock, ...
    status: str                 # "open" (seats free), "playing", "over", "aborted" (no result)
    created: float
    result: Optional[Dict[str, Any]]
    paused_clocks: Optional[List[float]]    # clocks saved at a clean stop after the last action
    slug: str = ""              # the public address (/g/SLUG)
    creator: Optional[int] = None
    listed: bool = True         # shown in the lobby and on player pages (a challenge open to anyone)


class StoredRating(NamedTuple):
    """A player's rating in one pool: ``key`` is "two:VARIANT" (Glicko-2: rating, deviation,
    volatility) or "eight:MODE" (OpenSkill: mu, sigma; ``rating`` is the number shown)."""
    player_id: int
    key: str
    rating: float
    deviation: float
    volatility: float
    mu: float
    sigma: float
    games: int
    updated: float              # wall-clock time of the last rated game


class RatingPoint(NamedTuple):
    """One step of a player's rating history: after game ``game_id`` ended."""
    key: str
    game_id: int
    at: float
    rating: float
    deviation: float


class StoredTournament(NamedTuple):
    id: int
    slug: str                   # its public address (/t/SLUG)
    kind: str                   # "arena", "swiss" or "eight" (8 Player Chess rounds)
    config: Dict[str, Any]      # variant or mode, clock, rated, minutes or rounds, name
    creator: Optional[int]
    status: str                 # "waiting" (before its start), "running", "over", "cancelled"
    starts: float               # wall-clock time it begins
    created: float
    ended: Optional[float]


class Entrant(NamedTuple):
    player_id: int
    name: str                   # the name when they joined
    joined: float
    withdrawn: int              # 0 playing, 1 withdrew, 2 withdrawn by the server (for not moving: for good)


class ChatLine(NamedTuple):
    id: int
    game_id: int
    player_id: Optional[int]
    seat: Optional[int]
    channel: str                # "all", or "team:N" for a partner or team chat
    name: str
    text: str
    at: float


class Store:
    """What the server needs from a database.  Methods raise ``StoreError`` if the database fails
    (``NameTaken`` if a player name's key is another player's)."""

    def add_player(self, token_hash: str, name: str, key: str) -> int: raise NotImplementedError
    def player_by_token(self, token_hash: str) -> Optional[Dict[str, Any]]: raise NotImplementedError
    def player(self, player_id: int) -> Optional[Dict[str, Any]]: raise NotImplementedError
    def player_names(self, ids: List[int]) -> Dict[int, str]: raise NotImplementedError
    def rename_player(self, player_id: int, name: str, key: str) -> None: raise NotImplementedError
    def name_owner(self, key: str) -> Optional[int]: raise NotImplementedError
    def add_game(self, kind: str, config: Dict[str, Any], seats: List[StoredSeat], creator: Optional[int],
                 listed: bool, status: str = "open") -> StoredGame: raise NotImplementedError
    def set_seat(self, game_id: int, seat: StoredSeat) -> None: raise NotImplementedError
    def start_game(self, game_id: int, names: Dict[int, str]) -> None: raise NotImplementedError
    def set_status(self, game_id: int, status: str, result: Optional[Dict[str, Any]] = None) -> None:
        raise NotImplementedError
    def add_action(self, game_id: int, action: StoredAction, status: Optional[str] = None,
                   result: Optional[Dict[str, Any]] = None, ratings: Optional[List[StoredRating]] = None) -> None:
        """The action (with the game's end, if it ends it, and the new ratings it makes: all in one
        commit, so a game is never over without its rating change or rated twice)."""
        raise NotImplementedError
    def rating(self, player_id: int, key: str) -> Optional[StoredRating]: raise NotImplementedError
    def set_analysis(self, game_id: int, status: str, data: Optional[Dict[str, Any]] = None,
                     requester: Optional[int] = None) -> None:
        """A game's computer analysis: "queued", then "done" with its data (kept for good)."""
        raise NotImplementedError
    def analysis(self, game_id: int) -> Optional[Tuple[str, Optional[Dict[str, Any]], Optional[int]]]:
        """(status, data, requester) of a game's analysis; None if nobody asked for one."""
        raise NotImplementedError
    def queued_analyses(self) -> List[int]: raise NotImplementedError
    def add_tournament(self, kind: str, config: Dict[str, Any], creator: int, starts: float) -> StoredTournament:
        raise NotImplementedError
    def set_tournament_status(self, tournament_id: int, status: str, ended: Optional[float] = None) -> None:
        raise NotImplementedError
    def set_tournament_start(self, tournament_id: int, starts: float) -> None: raise NotImplementedError
    def tournament(self, tournament_id: int) -> Optional[StoredTournament]: raise NotImplementedError
    def tournament_id(self, slug: str) -> Optional[int]: raise NotImplementedError
    def tournaments(self, statuses: List[str], limit: int = 100) -> List[StoredTournament]:
        """Tournaments of these statuses, the latest start first."""
        raise NotImplementedError
    def set_entrant(self, tournament_id: int, entrant: Entrant) -> None: raise NotImplementedError
    def entrants(self, tournament_id: int) -> List[Entrant]: raise NotImplementedError
    def add_round(self, tournament_id: int, round_number: int, games: List[Tuple[str, Dict[str, Any], List[StoredSeat]]],
                  byes: List[int]) -> List[StoredGame]:
        """A round's (or an arena pairing's) games, begun ("playing", seats named), and its byes: one
        commit, so a round is never half made."""
        raise NotImplementedError
    def tournament_games(self, tournament_id: int) -> List[Tuple[int, Optional[StoredGame], List[StoredSeat], Optional[int]]]:
        """(round, game, seats, None) per game and (round, None, [], player) per bye, by round."""
        raise NotImplementedError
    def ratings_of(self, player_id: int) -> List[StoredRating]: raise NotImplementedError
    def rating_history(self, player_id: int, limit: int = 2000) -> List[RatingPoint]: raise NotImplementedError
    def leaderboard(self, key: str, limit: int = 50, established: float = 1e9,
                    opponents: int = 0) -> List[Tuple[StoredRating, str]]:
        """The best ratings of a pool with the players' names, by rating: only established ones
        (deviation at most ``established``) of players who had at least ``opponents`` different
        opponents in its rated games, and none marked engine or booster."""
        raise NotImplementedError
    def rating_keys(self) -> List[str]: raise NotImplementedError
    def set_bot_account(self, player_id: int, info: Dict[str, Any]) -> None:
        """The player is a bot account with these rules (``since`` is kept from the first time)."""
        raise NotImplementedError
    def bot_account(self, player_id: int) -> Optional[Tuple[Dict[str, Any], float]]:
        """A bot account's rules and since when it is one; None for a person."""
        raise NotImplementedError
    def bot_account_ids(self) -> List[int]: raise NotImplementedError
    def pause_clocks(self, clocks: Dict[int, List[float]]) -> None: raise NotImplementedError
    def add_chat(self, line: ChatLine) -> int: raise NotImplementedError
    def game(self, game_id: int) -> Optional[StoredGame]: raise NotImplementedError
    def game_id(self, slug: str) -> Optional[int]: raise NotImplementedError
    def seats(self, game_id: int) -> List[StoredSeat]: raise NotImplementedError
    def actions(self, game_id: int) -> List[StoredAction]: raise NotImplementedError
    def chat(self, game_id: int, limit: int = 200) -> List[ChatLine]: raise NotImplementedError
    def games(self, status: str, limit: int = 50, listed_only: bool = False) -> List[StoredGame]:
        raise NotImplementedError
    def games_of(self, player_id: int, limit: int = 100,
                 aborted: bool = False) -> List[Tuple[StoredGame, List[StoredSeat]]]:
        raise NotImplementedError
    def meta(self, key: str) -> Optional[str]: raise NotImplementedError
    def set_meta(self, key: str, value: str) -> None: raise NotImplementedError
    def server_lock(self) -> "ServerLock":
        """The lock one serving process holds on this database (``ServerLock``)."""
        raise NotImplementedError
    def close(self) -> None: raise NotImplementedError


class ServerLock:
    """One database, one serving process: ``take`` holds the lock for as long as this process lives
    (the operating system or the database lets go of it the moment the process dies, however it
    dies), and another process's ``take`` waits until then: a standby server takes over.  ``watch``
    calls ``lost`` from a thread of its own if the lock is ever lost (the database went away): the
    process must then stop serving at once, since another may take over."""

    def take(self, wait: bool, note: str) -> bool:
        """The lock, waiting for it if ``wait`` (else False if another holds it); ``note`` says who
        holds it (shown to a process waiting for it)."""
        raise NotImplementedError

    def holder(self) -> str:
        """What the holder's note says ("" if unknown)."""
        raise NotImplementedError

    def watch(self, lost: Callable[[], None]) -> None: raise NotImplementedError
    def release(self) -> None: raise NotImplementedError


class StoreError(Exception):
    """The database refused or failed (the message says why)."""


class GameMoved(StoreError):
    """A write to a game this process no longer hosts (another process took it over): refused."""


class NameTaken(StoreError):
    """Another player has this name (or one that looks the same)."""
