"""The embedded store: SQLite (standard library ``sqlite3``, WAL mode) and its server lock."""
import sqlite3
from typing import Any, Callable, List, Tuple

from .records import ServerLock, StoreError, new_slug
from .sql import INDEXES, SCHEMA, SqlStore


class SqliteStore(SqlStore):
    """The embedded store: one SQLite file in WAL mode.  ``durable`` makes every commit wait for the
    disk (``synchronous=FULL``); without it a commit survives the server being killed but a power
    cut may lose the last moments (``synchronous=NORMAL``, SQLite's advice for WAL).  ``fold``
    makes a name's look-alike key (used when a version 1 database is brought up to date)."""

    errors = (sqlite3.Error,)

    def __init__(self, path: str, durable: bool = False, fold: Any = None) -> None:
        self.path = self.where = path
        try:
            # A write waits up to 5 s for another program's lock on the file (a backup, say).
            self.db = sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)
            self._run("PRAGMA journal_mode=WAL")
            self._run(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._run("PRAGMA foreign_keys=OFF")
            self.db.executescript(SCHEMA).close()
            fold = fold or (lambda name: name.casefold())
            self._open_schema({2: lambda: self._upgrade_to_2(fold),      # 2 -> 3: new tables only (made above)
                               4: lambda: self._add_column("games", "host INTEGER"),
                               5: lambda: self._refold_names(fold)})      # (and the account tables, made above;
            #                                                             5 -> 6: the bot_owners table, made above)
            self.db.executescript(INDEXES).close()
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}: {error}") from None

    def _upgrade_to_2(self, fold: Any) -> None:
        """Schema 1 -> 2: the new columns, a slug for every game, the names of started games frozen
        into their seats, and each player's name key (a later player whose name looks like an
        earlier one's gets a number after it)."""
        for table, column in (("games", "slug TEXT"), ("games", "creator INTEGER"),
                              ("games", "listed INTEGER NOT NULL DEFAULT 1"), ("seats", "name TEXT"),
                              ("players", "name_key TEXT")):
            self._add_column(table, column)
        for (game_id,) in self._read("SELECT id FROM games WHERE slug IS NULL"):
            self._run("UPDATE games SET slug=? WHERE id=?", (new_slug(), game_id))
        self._run("UPDATE seats SET name=(SELECT name FROM players WHERE players.id=seats.player_id) "
                  "WHERE player_id IS NOT NULL AND game_id IN (SELECT id FROM games WHERE status!='open')")
        taken = set()
        for player_id, name in self._read("SELECT id, name FROM players ORDER BY id"):
            key, number, new_name = fold(name), 1, name
            while key in taken:
                number += 1
                new_name = f"{name[:20]} {number}"
                key = fold(new_name)
            taken.add(key)
            self._run("UPDATE players SET name=?, name_key=? WHERE id=?", (new_name, key, player_id))

    def _add_column(self, table: str, column: str) -> None:
        """``column`` ("name TYPE") added to ``table`` unless it has it (a table made by this version)."""
        if column.split()[0] not in [r[1] for r in self._read(f"PRAGMA table_info({table})")]:
            self._run(f"ALTER TABLE {table} ADD COLUMN {column}")

    def _run(self, sql: str, args: tuple = ()) -> None:
        # The cursor is closed at once: PyPy's sqlite3 resets a statement only when its cursor is
        # collected, and COMMIT refuses while one is in progress.
        self.db.execute(sql, args).close()

    def _insert(self, sql: str, args: tuple) -> int:
        cursor = self.db.execute(sql, args)
        try:
            return cursor.lastrowid
        finally:
            cursor.close()

    def _read(self, sql: str, args: tuple = ()) -> List[tuple]:
        cursor = self.db.execute(sql, args)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()

    def _begin(self) -> None:
        self._run("BEGIN IMMEDIATE")

    def _is_name_taken(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "name_key" in str(error)

    def table_rows(self, table: str) -> Tuple[List[str], List[tuple]]:
        cursor = self.db.execute(f"SELECT * FROM {table}")
        try:
            return [d[0] for d in cursor.description], cursor.fetchall()
        finally:
            cursor.close()

    def server_lock(self) -> ServerLock:
        return FileLock(self.path + ".serving")

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass


class FileLock(ServerLock):
    """SQLite's server lock: an exclusive ``flock`` on a file beside the database (the kernel lets go
    of it when the process ends); the file holds the holder's note."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.file: Any = None

    def take(self, wait: bool, note: str) -> bool:
        import fcntl
        file = open(self.path, "a+")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            file.close()
            return False
        file.truncate(0)
        file.write(note)
        file.flush()
        self.file = file
        return True

    def holder(self) -> str:
        try:
            with open(self.path) as file:
                return file.read().strip()
        except OSError:
            return ""

    def watch(self, lost: Callable[[], None]) -> None:
        """(A kernel lock is not lost while its process lives.)"""

    def release(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
