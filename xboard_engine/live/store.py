"""The live server's storage: players, games, seats, every action and chat line.  ``Store`` is the
interface the server uses (small on purpose: a PostgreSQL store is a new module implementing it);
``SqliteStore`` is the embedded default (standard library ``sqlite3``, WAL mode).  Every write is
committed before the method returns, so a move the server acknowledges is on disk."""
import json
import sqlite3
import time
from typing import Any, Dict, List, NamedTuple, Optional

SCHEMA_VERSION = 1


class StoredSeat(NamedTuple):
    seat: int
    kind: str                   # "open" (anyone may take it), "invite" (the link's secret), "bot", "player"
    player_id: Optional[int]    # the owner, once taken
    bot: Optional[str]          # the bot's engine and level, for kind "bot"
    invite_hash: Optional[str]  # the invite secret's hash until the invite is used


class StoredAction(NamedTuple):
    n: int                      # 0, 1, 2 ... in the game
    seat: int
    kind: str                   # "move", "resign", "draw", "claim", "timeout", "abandon", ...
    text: str                   # a move's text, or words
    clocks: List[float]         # every seat's clock after the action (seconds; empty without a clock)
    at: float                   # wall-clock time


class StoredGame(NamedTuple):
    id: int
    kind: str                   # "two" or "eight"
    config: Dict[str, Any]      # what the challenge said: variant, mode, options, clock, ...
    status: str                 # "open" (seats free), "playing", "over"
    created: float
    result: Optional[Dict[str, Any]]
    paused_clocks: Optional[List[float]]    # clocks saved at a clean stop after the last action


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
    """What the server needs from a database.  Methods raise ``StoreError`` if the database fails."""

    def add_player(self, token_hash: str, name: str) -> int: raise NotImplementedError
    def player_by_token(self, token_hash: str) -> Optional[Dict[str, Any]]: raise NotImplementedError
    def player_names(self, ids: List[int]) -> Dict[int, str]: raise NotImplementedError
    def rename_player(self, player_id: int, name: str) -> None: raise NotImplementedError
    def add_game(self, kind: str, config: Dict[str, Any], seats: List[StoredSeat]) -> int: raise NotImplementedError
    def set_seat(self, game_id: int, seat: StoredSeat) -> None: raise NotImplementedError
    def set_status(self, game_id: int, status: str, result: Optional[Dict[str, Any]] = None) -> None:
        raise NotImplementedError
    def add_action(self, game_id: int, action: StoredAction, status: Optional[str] = None,
                   result: Optional[Dict[str, Any]] = None) -> None: raise NotImplementedError
    def pause_clocks(self, clocks: Dict[int, List[float]]) -> None: raise NotImplementedError
    def add_chat(self, line: ChatLine) -> int: raise NotImplementedError
    def game(self, game_id: int) -> Optional[StoredGame]: raise NotImplementedError
    def seats(self, game_id: int) -> List[StoredSeat]: raise NotImplementedError
    def actions(self, game_id: int) -> List[StoredAction]: raise NotImplementedError
    def chat(self, game_id: int, limit: int = 200) -> List[ChatLine]: raise NotImplementedError
    def games(self, status: str, limit: int = 50) -> List[StoredGame]: raise NotImplementedError
    def close(self) -> None: raise NotImplementedError


class StoreError(Exception):
    """The database refused or failed (the message says why)."""


_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL,
    name TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, config TEXT NOT NULL,
    status TEXT NOT NULL, created REAL NOT NULL, result TEXT, paused_clocks TEXT, paused_after INTEGER);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, id);
CREATE TABLE IF NOT EXISTS seats (game_id INTEGER NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
    player_id INTEGER, bot TEXT, invite_hash TEXT, PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS actions (game_id INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
    kind TEXT NOT NULL, text TEXT NOT NULL, clocks TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n));
CREATE TABLE IF NOT EXISTS chat (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, player_id INTEGER,
    seat INTEGER, channel TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS chat_by_game ON chat (game_id, id);
"""


class SqliteStore(Store):
    """The embedded store: one SQLite file in WAL mode.  ``durable`` makes every commit wait for the
    disk (``synchronous=FULL``); without it a commit survives the server being killed but a power
    cut may lose the last moments (``synchronous=NORMAL``, SQLite's advice for WAL)."""

    def __init__(self, path: str, durable: bool = False) -> None:
        try:
            self.path = path
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL").close()
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}").close()
            self.db.execute("PRAGMA foreign_keys=OFF").close()
            self.db.executescript(_TABLES).close()
            rows = self._read("SELECT value FROM meta WHERE key='schema'")
            if not rows:
                self._run("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(rows[0][0]) > SCHEMA_VERSION:
                raise StoreError(f"{path} was written by a newer version (schema {rows[0][0]})")
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}: {error}") from None

    def _run(self, sql: str, args: tuple = ()) -> Optional[int]:
        """One statement, its cursor closed at once (PyPy's sqlite3 resets a statement only when its
        cursor is collected, and COMMIT refuses while one is in progress); the last row id."""
        cursor = self.db.execute(sql, args)
        try:
            return cursor.lastrowid
        finally:
            cursor.close()

    def _write(self, statements: List[tuple]) -> Optional[int]:
        """Run ``(sql, args)`` statements in one committed transaction; the last one's row id."""
        try:
            self._run("BEGIN IMMEDIATE")
            try:
                last = None
                for sql, args in statements:
                    last = self._run(sql, args)
                self._run("COMMIT")
            except BaseException:
                self._run("ROLLBACK")
                raise
            return last
        except sqlite3.Error as error:
            raise StoreError(f"database write failed: {error}") from None

    def _read(self, sql: str, args: tuple = ()) -> List[tuple]:
        try:
            cursor = self.db.execute(sql, args)
            try:
                return cursor.fetchall()
            finally:
                cursor.close()
        except sqlite3.Error as error:
            raise StoreError(f"database read failed: {error}") from None

    # ----------------------------------------------------------------- players
    def add_player(self, token_hash: str, name: str) -> int:
        return self._write([("INSERT INTO players (token_hash, name, created) VALUES (?, ?, ?)",
                             (token_hash, name, time.time()))])

    def player_by_token(self, token_hash: str) -> Optional[Dict[str, Any]]:
        rows = self._read("SELECT id, name FROM players WHERE token_hash=?", (token_hash,))
        return {"id": rows[0][0], "name": rows[0][1]} if rows else None

    def player_names(self, ids: List[int]) -> Dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self._read(f"SELECT id, name FROM players WHERE id IN ({marks})", tuple(ids)))

    def rename_player(self, player_id: int, name: str) -> None:
        self._write([("UPDATE players SET name=? WHERE id=?", (name, player_id))])

    # ----------------------------------------------------------------- games
    def add_game(self, kind: str, config: Dict[str, Any], seats: List[StoredSeat]) -> int:
        try:
            self._run("BEGIN IMMEDIATE")
            game_id = self._run("INSERT INTO games (kind, config, status, created) VALUES (?, ?, 'open', ?)",
                                (kind, json.dumps(config), time.time()))
            for s in seats:
                self._run("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                          (game_id, s.seat, s.kind, s.player_id, s.bot, s.invite_hash))
            self._run("COMMIT")
            return game_id
        except sqlite3.Error as error:
            try:
                self._run("ROLLBACK")
            except sqlite3.Error:
                pass
            raise StoreError(f"database write failed: {error}") from None

    def set_seat(self, game_id: int, seat: StoredSeat) -> None:
        self._write([("UPDATE seats SET kind=?, player_id=?, bot=?, invite_hash=? WHERE game_id=? AND seat=?",
                      (seat.kind, seat.player_id, seat.bot, seat.invite_hash, game_id, seat.seat))])

    def set_status(self, game_id: int, status: str, result: Optional[Dict[str, Any]] = None) -> None:
        self._write([("UPDATE games SET status=?, result=? WHERE id=?",
                      (status, json.dumps(result) if result is not None else None, game_id))])

    def add_action(self, game_id: int, action: StoredAction, status: Optional[str] = None,
                   result: Optional[Dict[str, Any]] = None) -> None:
        statements = [("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, action.n, action.seat, action.kind, action.text, json.dumps(action.clocks),
                        action.at))]
        if status is not None:
            statements.append(("UPDATE games SET status=?, result=? WHERE id=?",
                               (status, json.dumps(result) if result is not None else None, game_id)))
        self._write(statements)

    def pause_clocks(self, clocks: Dict[int, List[float]]) -> None:
        statements = []
        for game_id, values in clocks.items():
            statements.append(("UPDATE games SET paused_clocks=?, paused_after="
                               "(SELECT COUNT(*) FROM actions WHERE game_id=?) WHERE id=?",
                               (json.dumps(values), game_id, game_id)))
        if statements:
            self._write(statements)

    def add_chat(self, line: ChatLine) -> int:
        return self._write([("INSERT INTO chat (game_id, player_id, seat, channel, name, text, at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (line.game_id, line.player_id, line.seat, line.channel, line.name, line.text,
                              line.at))])

    # ----------------------------------------------------------------- reading
    def _game(self, row: tuple) -> StoredGame:
        game_id, kind, config, status, created, result, paused, paused_after = row
        if paused is not None:
            count = self._read("SELECT COUNT(*) FROM actions WHERE game_id=?", (game_id,))[0][0]
            if count != paused_after:           # saved before later actions: stale
                paused = None
        return StoredGame(game_id, kind, json.loads(config), status, created,
                          json.loads(result) if result else None, json.loads(paused) if paused else None)

    def game(self, game_id: int) -> Optional[StoredGame]:
        rows = self._read("SELECT id, kind, config, status, created, result, paused_clocks, paused_after "
                          "FROM games WHERE id=?", (game_id,))
        return self._game(rows[0]) if rows else None

    def seats(self, game_id: int) -> List[StoredSeat]:
        return [StoredSeat(*row) for row in
                self._read("SELECT seat, kind, player_id, bot, invite_hash FROM seats WHERE game_id=? ORDER BY seat",
                           (game_id,))]

    def actions(self, game_id: int) -> List[StoredAction]:
        return [StoredAction(n, seat, kind, text, json.loads(clocks), at) for n, seat, kind, text, clocks, at in
                self._read("SELECT n, seat, kind, text, clocks, at FROM actions WHERE game_id=? ORDER BY n",
                           (game_id,))]

    def chat(self, game_id: int, limit: int = 200) -> List[ChatLine]:
        rows = self._read("SELECT id, game_id, player_id, seat, channel, name, text, at FROM chat "
                          "WHERE game_id=? ORDER BY id DESC LIMIT ?", (game_id, limit))
        return [ChatLine(*row) for row in reversed(rows)]

    def games(self, status: str, limit: int = 50) -> List[StoredGame]:
        order = "DESC" if status == "over" else "ASC"
        rows = self._read("SELECT id, kind, config, status, created, result, paused_clocks, paused_after "
                          f"FROM games WHERE status=? ORDER BY id {order} LIMIT ?", (status, limit))
        return [self._game(row) for row in rows]

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass
