"""The SQL both databases speak: the schema, written once in SQLite's words, every ``Store`` method
(``SqlStore``) and the copy of one database into another."""
import json
import time
from typing import Any, Dict, List, Optional, Tuple

from .accounts import ACCOUNT_SCHEMA, ACCOUNT_TABLES, AccountRows
from .moderation import MODERATION_COUNTED, MODERATION_SCHEMA, MODERATION_TABLES, ModerationRows
from .records import (ChatLine, Entrant, NameTaken, RatingPoint, Store, StoreError, StoredAction,
                      StoredGame, StoredRating, StoredSeat, StoredTournament, new_slug)

SCHEMA_VERSION = 6         # the schema versions: records.py's docstring

# The schema, written once in SQLite's words; ``PostgresStore`` turns the types into its own.
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL,
    name TEXT NOT NULL, created REAL NOT NULL, name_key TEXT);
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, config TEXT NOT NULL,
    status TEXT NOT NULL, created REAL NOT NULL, result TEXT, paused_clocks TEXT, paused_after INTEGER,
    slug TEXT, creator INTEGER, listed INTEGER NOT NULL DEFAULT 1, host INTEGER);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, id);
CREATE TABLE IF NOT EXISTS seats (game_id INTEGER NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
    player_id INTEGER, bot TEXT, invite_hash TEXT, name TEXT, PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS actions (game_id INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
    kind TEXT NOT NULL, text TEXT NOT NULL, clocks TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n));
CREATE TABLE IF NOT EXISTS chat (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, player_id INTEGER,
    seat INTEGER, channel TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS chat_by_game ON chat (game_id, id);
CREATE TABLE IF NOT EXISTS ratings (player_id INTEGER NOT NULL, key TEXT NOT NULL, rating REAL NOT NULL,
    deviation REAL NOT NULL, volatility REAL NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    games INTEGER NOT NULL, updated REAL NOT NULL, PRIMARY KEY (player_id, key));
CREATE INDEX IF NOT EXISTS ratings_by_pool ON ratings (key, rating);
CREATE TABLE IF NOT EXISTS tournaments (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL, kind TEXT NOT NULL,
    config TEXT NOT NULL, creator INTEGER, status TEXT NOT NULL, starts REAL NOT NULL, created REAL NOT NULL,
    ended REAL);
CREATE TABLE IF NOT EXISTS entrants (tournament_id INTEGER NOT NULL, player_id INTEGER NOT NULL, name TEXT NOT NULL,
    joined REAL NOT NULL, withdrawn INTEGER NOT NULL, PRIMARY KEY (tournament_id, player_id));
CREATE TABLE IF NOT EXISTS tournament_games (tournament_id INTEGER NOT NULL, round INTEGER NOT NULL, game_id INTEGER,
    bye INTEGER);
CREATE INDEX IF NOT EXISTS tournament_games_by_tournament ON tournament_games (tournament_id, round);
CREATE TABLE IF NOT EXISTS analysis (game_id INTEGER PRIMARY KEY, status TEXT NOT NULL, data TEXT,
    requester INTEGER, requested REAL NOT NULL, finished REAL);
CREATE TABLE IF NOT EXISTS rating_history (player_id INTEGER NOT NULL, key TEXT NOT NULL, game_id INTEGER NOT NULL,
    at REAL NOT NULL, rating REAL NOT NULL, deviation REAL NOT NULL, PRIMARY KEY (player_id, game_id, key));
CREATE TABLE IF NOT EXISTS bots (player_id INTEGER PRIMARY KEY, info TEXT NOT NULL, since REAL NOT NULL);
CREATE TABLE IF NOT EXISTS hosts (id INTEGER PRIMARY KEY, note TEXT NOT NULL, started REAL NOT NULL);
""" + ACCOUNT_SCHEMA + MODERATION_SCHEMA
# Made after a version 1 database has its new columns (CREATE TABLE IF NOT EXISTS leaves it as it was).
INDEXES = """
CREATE UNIQUE INDEX IF NOT EXISTS games_by_slug ON games (slug);
CREATE UNIQUE INDEX IF NOT EXISTS players_by_name ON players (name_key);
CREATE INDEX IF NOT EXISTS seats_by_player ON seats (player_id, game_id);
"""
# Every table, in an order a copy can fill them in; the ones with a counted id.
TABLES = ["meta", "players", "games", "seats", "actions", "chat", "ratings", "rating_history", "tournaments",
          "entrants", "tournament_games", "analysis", "bots"] + ACCOUNT_TABLES + MODERATION_TABLES
COUNTED = ["players", "games", "chat", "tournaments"] + MODERATION_COUNTED
_TOURNAMENT_COLUMNS = "id, slug, kind, config, creator, status, starts, created, ended"
_GAME_COLUMNS = "id, kind, config, status, created, result, paused_clocks, paused_after, slug, creator, listed"
_RATING_COLUMNS = "player_id, key, rating, deviation, volatility, mu, sigma, games, updated"


class SqlStore(AccountRows, ModerationRows, Store):
    """Every ``Store`` method in SQL both databases speak (``?`` marks the arguments).  A database
    gives the few things that differ: how to run a statement, begin a transaction, read an inserted
    row's id, and which error is a taken name."""

    errors: Tuple[type, ...] = ()                     # the driver's exceptions
    where = ""                                        # what to call the database in messages

    # ----------------------------------------------------------------- what each database gives
    def _run(self, sql: str, args: tuple = ()) -> None: raise NotImplementedError
    def _read(self, sql: str, args: tuple = ()) -> List[tuple]: raise NotImplementedError
    def _insert(self, sql: str, args: tuple) -> int:
        """An INSERT into a table with a counted id; the new row's id."""
        raise NotImplementedError
    def _begin(self) -> None: raise NotImplementedError
    def _is_name_taken(self, error: Exception) -> bool: raise NotImplementedError

    # ----------------------------------------------------------------- schema
    def _open_schema(self, upgrades: Dict[int, Any]) -> None:
        """The tables made if missing; a database of an older schema brought up to date, one step
        at a time (``upgrades[v]`` takes version v-1 to v, in one transaction); a newer one refused."""
        rows = self._read("SELECT value FROM meta WHERE key='schema'")
        if not rows:
            self._transaction(lambda: self._run("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)))
            return
        version = int(rows[0][0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.where} was written by a newer version (schema {version})")
        for step in range(version + 1, SCHEMA_VERSION + 1):
            def upgrade(step: int = step) -> None:
                if step in upgrades:
                    upgrades[step]()
                self._run("UPDATE meta SET value=? WHERE key='schema'", (str(step),))
            self._transaction(upgrade)

    def _refold_names(self, fold: Any) -> None:
        """Schema 4 -> 5: every name's look-alike key made again by today's ``fold`` (it made "I",
        "i" and "l" one); a later player whose key is now an earlier one's keeps its name, under a
        key no name folds to (``KEY#ID``), so neither can be taken by a third."""
        rows = self._read("SELECT id, name FROM players ORDER BY id")
        self._run("UPDATE players SET name_key=NULL")
        taken = set()
        for player_id, name in rows:
            key = fold(name)
            if key in taken:
                key = f"{key}#{player_id}"
            taken.add(key)
            self._run("UPDATE players SET name_key=? WHERE id=?", (key, player_id))

    def _transaction(self, work: Any) -> Any:
        """``work()`` in one committed transaction; its answer.  The driver's errors become
        ``StoreError`` (``NameTaken`` for a taken name)."""
        try:
            self._begin()
            try:
                out = work()
                self._run("COMMIT")
            except BaseException:
                self._run("ROLLBACK")
                raise
        except self.errors as error:
            if self._is_name_taken(error):
                raise NameTaken("that name is taken") from None
            raise StoreError(f"database write failed: {error}") from None
        return out

    host_id: Optional[int] = None                     # this process's number when it shares the database

    def _write(self, statements: List[tuple], game: Optional[int] = None) -> None:
        """Run ``(sql, args)`` statements in one committed transaction.  ``game``: they change that
        game (a store shared by several processes, ``PostgresStore``, writes them only while this
        process hosts the game, else raises ``GameMoved``)."""
        def work() -> None:
            for sql, args in statements:
                self._run(sql, args)
        self._transaction(work)

    def _rows(self, sql: str, args: tuple = ()) -> List[tuple]:
        try:
            return self._read(sql, args)
        except self.errors as error:
            raise StoreError(f"database read failed: {error}") from None

    # ----------------------------------------------------------------- copying
    def table_rows(self, table: str) -> Tuple[List[str], List[tuple]]:
        """A table's column names and every row (for copying a database)."""
        raise NotImplementedError

    def fill(self, tables: Dict[str, Tuple[List[str], List[tuple]]]) -> None:
        """An empty database filled with these tables' rows, in one transaction (its schema row kept)."""
        def work() -> None:
            for table in TABLES:
                if table not in tables:
                    continue
                if self._read(f"SELECT 1 FROM {table} LIMIT 1") and table != "meta":
                    raise StoreError(f"{self.where} is not empty (its table {table} has rows)")
                columns, rows = tables[table]
                marks = ", ".join("?" * len(columns))
                for row in rows:
                    if table == "meta" and row[columns.index("key")] == "schema":
                        continue
                    self._run(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", tuple(row))
            self._after_fill()
        self._transaction(work)

    def _after_fill(self) -> None:
        """What the database must do after rows with ids were copied in (PostgreSQL: its counters)."""

    # ----------------------------------------------------------------- players
    def add_player(self, token_hash: str, name: str, key: str) -> int:
        return self._transaction(lambda: self._insert(
            "INSERT INTO players (token_hash, name, created, name_key) VALUES (?, ?, ?, ?)",
            (token_hash, name, time.time(), key)))

    def player_by_token(self, token_hash: str) -> Optional[Dict[str, Any]]:
        """The player a cookie's token names: a signed-in session's account, else the guest the
        cookie made (``account`` says which)."""
        signed_in = self.session_player(token_hash)
        if signed_in is not None:
            return signed_in
        rows = self._rows("SELECT id, name FROM players WHERE token_hash=?", (token_hash,))
        return {"id": rows[0][0], "name": rows[0][1], "account": False} if rows else None

    def player(self, player_id: int) -> Optional[Dict[str, Any]]:
        rows = self._rows("SELECT id, name, created FROM players WHERE id=?", (player_id,))
        return {"id": rows[0][0], "name": rows[0][1], "created": rows[0][2]} if rows else None

    def player_names(self, ids: List[int]) -> Dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self._rows(f"SELECT id, name FROM players WHERE id IN ({marks})", tuple(ids)))

    def rename_player(self, player_id: int, name: str, key: str) -> None:
        self._write([("UPDATE players SET name=?, name_key=? WHERE id=?", (name, key, player_id))])

    def name_owner(self, key: str) -> Optional[int]:
        rows = self._rows("SELECT id FROM players WHERE name_key=?", (key,))
        return rows[0][0] if rows else None

    # ----------------------------------------------------------------- games
    def add_game(self, kind: str, config: Dict[str, Any], seats: List[StoredSeat], creator: Optional[int],
                 listed: bool, status: str = "open") -> StoredGame:
        return self._transaction(lambda: self._insert_game(kind, config, seats, creator, listed, status))

    def _new_slug(self, table: str) -> str:
        while True:
            slug = new_slug()
            if not self._read(f"SELECT 1 FROM {table} WHERE slug=?", (slug,)):
                return slug

    def _insert_game(self, kind: str, config: Dict[str, Any], seats: List[StoredSeat], creator: Optional[int],
                     listed: bool, status: str) -> StoredGame:
        created = time.time()
        slug = self._new_slug("games")
        game_id = self._insert("INSERT INTO games (kind, config, status, created, slug, creator, listed, host) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (kind, json.dumps(config), status, created, slug, creator, int(listed), self.host_id))
        for s in seats:
            self._run("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                      (game_id, s.seat, s.kind, s.player_id, s.bot, s.invite_hash, s.name))
        return StoredGame(game_id, kind, config, status, created, None, None, slug, creator, listed)

    # ----------------------------------------------------------------- tournaments
    def add_tournament(self, kind: str, config: Dict[str, Any], creator: int, starts: float) -> StoredTournament:
        def work() -> StoredTournament:
            slug = self._new_slug("tournaments")
            created = time.time()
            tid = self._insert("INSERT INTO tournaments (slug, kind, config, creator, status, starts, created) "
                               "VALUES (?, ?, ?, ?, 'waiting', ?, ?)",
                               (slug, kind, json.dumps(config), creator, starts, created))
            return StoredTournament(tid, slug, kind, config, creator, "waiting", starts, created, None)
        return self._transaction(work)

    def set_tournament_status(self, tournament_id: int, status: str, ended: Optional[float] = None) -> None:
        self._write([("UPDATE tournaments SET status=?, ended=? WHERE id=?", (status, ended, tournament_id))])

    def set_tournament_start(self, tournament_id: int, starts: float) -> None:
        self._write([("UPDATE tournaments SET starts=? WHERE id=?", (starts, tournament_id))])

    def _tournament(self, row: tuple) -> StoredTournament:
        tid, slug, kind, config, creator, status, starts, created, ended = row
        return StoredTournament(tid, slug, kind, json.loads(config), creator, status, starts, created, ended)

    def tournament(self, tournament_id: int) -> Optional[StoredTournament]:
        rows = self._rows(f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id=?", (tournament_id,))
        return self._tournament(rows[0]) if rows else None

    def tournament_id(self, slug: str) -> Optional[int]:
        rows = self._rows("SELECT id FROM tournaments WHERE slug=?", (slug,))
        return rows[0][0] if rows else None

    def tournaments(self, statuses: List[str], limit: int = 100) -> List[StoredTournament]:
        marks = ",".join("?" * len(statuses))
        rows = self._rows(f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE status IN ({marks}) "
                          "ORDER BY starts DESC, id DESC LIMIT ?", tuple(statuses) + (limit,))
        return [self._tournament(row) for row in rows]

    def set_entrant(self, tournament_id: int, entrant: Entrant) -> None:
        self._write([("INSERT INTO entrants VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, player_id) "
                      "DO UPDATE SET name=excluded.name, joined=excluded.joined, withdrawn=excluded.withdrawn",
                      (tournament_id, entrant.player_id, entrant.name, entrant.joined, int(entrant.withdrawn)))])

    def entrants(self, tournament_id: int) -> List[Entrant]:
        rows = self._rows("SELECT player_id, name, joined, withdrawn FROM entrants WHERE tournament_id=? "
                          "ORDER BY joined, player_id", (tournament_id,))
        return [Entrant(p, n, j, int(w)) for p, n, j, w in rows]

    def add_round(self, tournament_id: int, round_number: int, games: List[Tuple[str, Dict[str, Any], List[StoredSeat]]],
                  byes: List[int]) -> List[StoredGame]:
        def work() -> List[StoredGame]:
            made = []
            for kind, config, seats in games:
                stored = self._insert_game(kind, config, seats, None, True, "playing")
                self._run("INSERT INTO tournament_games VALUES (?, ?, ?, NULL)", (tournament_id, round_number, stored.id))
                made.append(stored)
            for player_id in byes:
                self._run("INSERT INTO tournament_games VALUES (?, ?, NULL, ?)", (tournament_id, round_number, player_id))
            return made
        return self._transaction(work)

    def tournament_games(self, tournament_id: int) -> List[Tuple[int, Optional[StoredGame], List[StoredSeat], Optional[int]]]:
        rows = self._rows("SELECT round, game_id, bye FROM tournament_games WHERE tournament_id=? "
                          "ORDER BY round, game_id", (tournament_id,))
        out = []
        for round_number, game_id, bye in rows:
            game = self.game(game_id) if game_id is not None else None
            out.append((round_number, game, self.seats(game_id) if game_id is not None else [], bye))
        return out

    def set_seat(self, game_id: int, seat: StoredSeat) -> None:
        self._write([("UPDATE seats SET kind=?, player_id=?, bot=?, invite_hash=?, name=? WHERE game_id=? AND seat=?",
                      (seat.kind, seat.player_id, seat.bot, seat.invite_hash, seat.name, game_id, seat.seat))],
                    game_id)

    def start_game(self, game_id: int, names: Dict[int, str]) -> None:
        """The game begins: its status, and the names its seats' players have now, kept for good."""
        statements = [("UPDATE games SET status='playing' WHERE id=?", (game_id,))]
        statements += [("UPDATE seats SET name=? WHERE game_id=? AND seat=?", (name, game_id, seat))
                       for seat, name in names.items()]
        self._write(statements, game_id)

    def set_status(self, game_id: int, status: str, result: Optional[Dict[str, Any]] = None) -> None:
        self._write([("UPDATE games SET status=?, result=? WHERE id=?",
                      (status, json.dumps(result) if result is not None else None, game_id))], game_id)

    def add_action(self, game_id: int, action: StoredAction, status: Optional[str] = None,
                   result: Optional[Dict[str, Any]] = None, ratings: Optional[List[StoredRating]] = None) -> None:
        statements = [("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, action.n, action.seat, action.kind, action.text, json.dumps(action.clocks),
                        action.at))]
        if status is not None:
            statements.append(("UPDATE games SET status=?, result=? WHERE id=?",
                               (status, json.dumps(result) if result is not None else None, game_id)))
        for r in ratings or ():
            statements.append((f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT (player_id, key) DO UPDATE SET rating=excluded.rating, "
                               "deviation=excluded.deviation, volatility=excluded.volatility, mu=excluded.mu, "
                               "sigma=excluded.sigma, games=excluded.games, updated=excluded.updated", tuple(r)))
            statements.append(("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT (player_id, game_id, key) DO UPDATE SET at=excluded.at, "
                               "rating=excluded.rating, deviation=excluded.deviation",
                               (r.player_id, r.key, game_id, r.updated, r.rating, r.deviation)))
        self._write(statements, game_id)

    def pause_clocks(self, clocks: Dict[int, List[float]]) -> None:
        statements = []
        for game_id, values in clocks.items():
            statements.append(("UPDATE games SET paused_clocks=?, paused_after="
                               "(SELECT COUNT(*) FROM actions WHERE game_id=?) WHERE id=?",
                               (json.dumps(values), game_id, game_id)))
        if statements:
            self._write(statements)

    def add_chat(self, line: ChatLine) -> int:
        return self._transaction(lambda: self._insert(
            "INSERT INTO chat (game_id, player_id, seat, channel, name, text, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (line.game_id, line.player_id, line.seat, line.channel, line.name, line.text, line.at)))

    # ----------------------------------------------------------------- reading
    def _game(self, row: tuple) -> StoredGame:
        game_id, kind, config, status, created, result, paused, paused_after, slug, creator, listed = row
        if paused is not None:
            count = self._rows("SELECT COUNT(*) FROM actions WHERE game_id=?", (game_id,))[0][0]
            if count != paused_after:           # saved before later actions: stale
                paused = None
        return StoredGame(game_id, kind, json.loads(config), status, created,
                          json.loads(result) if result else None, json.loads(paused) if paused else None,
                          slug, creator, bool(listed))

    def game(self, game_id: int) -> Optional[StoredGame]:
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?", (game_id,))
        return self._game(rows[0]) if rows else None

    def game_id(self, slug: str) -> Optional[int]:
        rows = self._rows("SELECT id FROM games WHERE slug=?", (slug,))
        return rows[0][0] if rows else None

    def seats(self, game_id: int) -> List[StoredSeat]:
        return [StoredSeat(*row) for row in
                self._rows("SELECT seat, kind, player_id, bot, invite_hash, name FROM seats WHERE game_id=? "
                           "ORDER BY seat", (game_id,))]

    def actions(self, game_id: int) -> List[StoredAction]:
        return [StoredAction(n, seat, kind, text, json.loads(clocks), at) for n, seat, kind, text, clocks, at in
                self._rows("SELECT n, seat, kind, text, clocks, at FROM actions WHERE game_id=? ORDER BY n",
                           (game_id,))]

    def chat(self, game_id: int, limit: int = 200) -> List[ChatLine]:
        rows = self._rows("SELECT id, game_id, player_id, seat, channel, name, text, at FROM chat "
                          "WHERE game_id=? ORDER BY id DESC LIMIT ?", (game_id, limit))
        return [ChatLine(*row) for row in reversed(rows)]

    def games(self, status: str, limit: int = 50, listed_only: bool = False) -> List[StoredGame]:
        """Games of ``status``: the newest first for finished ones, else the oldest first."""
        order = "DESC" if status in ("over", "aborted") else "ASC"
        listed = " AND listed=1" if listed_only else ""
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM games WHERE status=?{listed} ORDER BY id {order} LIMIT ?",
                          (status, limit))
        return [self._game(row) for row in rows]

    def games_of(self, player_id: int, limit: int = 100,
                 aborted: bool = False) -> List[Tuple[StoredGame, List[StoredSeat]]]:
        """The newest ``limit`` games where the player holds a seat (aborted ones left out unless
        ``aborted``), each with its seats."""
        rows = self._rows(f"SELECT {', '.join('g.' + c for c in _GAME_COLUMNS.split(', '))} FROM games g "
                          "WHERE (g.status != 'aborted' OR ?) AND g.id IN (SELECT game_id FROM seats WHERE player_id=?) "
                          "ORDER BY g.id DESC LIMIT ?", (bool(aborted), player_id, limit))
        return [(self._game(row), self.seats(row[0])) for row in rows]

    # ----------------------------------------------------------------- analysis
    def set_analysis(self, game_id: int, status: str, data: Optional[Dict[str, Any]] = None,
                     requester: Optional[int] = None) -> None:
        now = time.time()
        if status == "queued":
            self._write([("INSERT INTO analysis VALUES (?, 'queued', NULL, ?, ?, NULL) ON CONFLICT (game_id) "
                          "DO UPDATE SET status='queued', data=NULL, requester=excluded.requester, "
                          "requested=excluded.requested, finished=NULL", (game_id, requester, now))])
        else:
            self._write([("UPDATE analysis SET status=?, data=?, finished=? WHERE game_id=?",
                          (status, json.dumps(data) if data is not None else None, now, game_id))])

    def analysis(self, game_id: int) -> Optional[Tuple[str, Optional[Dict[str, Any]], Optional[int]]]:
        rows = self._rows("SELECT status, data, requester FROM analysis WHERE game_id=?", (game_id,))
        if not rows:
            return None
        status, data, requester = rows[0]
        return status, json.loads(data) if data else None, requester

    def queued_analyses(self) -> List[int]:
        return [row[0] for row in self._rows("SELECT game_id FROM analysis WHERE status='queued' ORDER BY requested")]

    # ----------------------------------------------------------------- ratings
    def rating(self, player_id: int, key: str) -> Optional[StoredRating]:
        rows = self._rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_id=? AND key=?", (player_id, key))
        return StoredRating(*rows[0]) if rows else None

    def ratings_of(self, player_id: int) -> List[StoredRating]:
        return [StoredRating(*row) for row in
                self._rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_id=? ORDER BY key", (player_id,))]

    def rating_history(self, player_id: int, limit: int = 2000) -> List[RatingPoint]:
        rows = self._rows("SELECT key, game_id, at, rating, deviation FROM rating_history WHERE player_id=? "
                          "ORDER BY at DESC LIMIT ?", (player_id, limit))
        return [RatingPoint(*row) for row in reversed(rows)]

    def leaderboard(self, key: str, limit: int = 50, established: float = 1e9,
                    opponents: int = 0) -> List[Tuple[StoredRating, str]]:
        columns = ", ".join("r." + c for c in _RATING_COLUMNS.split(", "))
        rows = self._rows(f"SELECT {columns}, p.name FROM ratings r JOIN players p ON p.id = r.player_id "
                          "WHERE r.key=? AND r.deviation <= ? AND r.player_id NOT IN (SELECT player_id FROM sanctions "
                          "WHERE kind IN ('engine', 'booster')) AND (SELECT COUNT(DISTINCT s.player_id) FROM "
                          "rating_history h JOIN seats s ON s.game_id = h.game_id WHERE h.player_id = r.player_id "
                          "AND h.key = r.key AND s.player_id IS NOT NULL AND s.player_id != r.player_id) >= ? "
                          "ORDER BY r.rating DESC, r.player_id LIMIT ?", (key, established, opponents, limit))
        return [(StoredRating(*row[:9]), row[9]) for row in rows]

    def rating_keys(self) -> List[str]:
        return [row[0] for row in self._rows("SELECT DISTINCT key FROM ratings ORDER BY key")]

    # ----------------------------------------------------------------- bot accounts
    def set_bot_account(self, player_id: int, info: Dict[str, Any]) -> None:
        self._write([("INSERT INTO bots VALUES (?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET info=excluded.info",
                      (player_id, json.dumps(info), time.time()))])

    def bot_account(self, player_id: int) -> Optional[Tuple[Dict[str, Any], float]]:
        rows = self._rows("SELECT info, since FROM bots WHERE player_id=?", (player_id,))
        return (json.loads(rows[0][0]), rows[0][1]) if rows else None

    def bot_account_ids(self) -> List[int]:
        return [row[0] for row in self._rows("SELECT player_id FROM bots ORDER BY player_id")]

    def meta(self, key: str) -> Optional[str]:
        rows = self._rows("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._write([("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                      (key, value))])


def copy_database(source: SqlStore, target: SqlStore) -> Dict[str, int]:
    """Every row of ``source`` into the empty ``target`` (one transaction: all or nothing); the rows
    copied per table.  Both are opened first, so both are of the current schema."""
    tables = {table: source.table_rows(table) for table in TABLES}
    target.fill(tables)
    return {table: len(rows) for table, (_, rows) in tables.items() if table != "meta"}
