"""The moderators' part of the SQL both databases speak (schema 5): reports of players, the
sanctions in force (a chat timeout until a time, a mute, the engine, booster and troll marks), the
moderator log (who did what to whom, when and why), each person's blocks, and (schema 6) the
points given back to the opponents of a player marked engine or booster, and the addresses a closed
account was used from (``address_bans``: no sign-ups or guests' chat from them for a while).  ``SqlStore`` inherits
these methods."""
import json
import time
from typing import Any, Dict, List, Optional, Tuple

MODERATION_SCHEMA = """
CREATE TABLE IF NOT EXISTS reports (id INTEGER PRIMARY KEY, reporter INTEGER NOT NULL, player INTEGER NOT NULL,
    reason TEXT NOT NULL, game_id INTEGER, note TEXT NOT NULL, at REAL NOT NULL, handled_by INTEGER, handled REAL);
CREATE INDEX IF NOT EXISTS reports_open ON reports (handled, id);
CREATE TABLE IF NOT EXISTS sanctions (player_id INTEGER NOT NULL, kind TEXT NOT NULL, until REAL,
    reason TEXT NOT NULL, by INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (player_id, kind));
CREATE TABLE IF NOT EXISTS mod_log (id INTEGER PRIMARY KEY, at REAL NOT NULL, moderator INTEGER NOT NULL,
    player INTEGER NOT NULL, action TEXT NOT NULL, reason TEXT NOT NULL, details TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (player_id INTEGER NOT NULL, blocked INTEGER NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (player_id, blocked));
CREATE TABLE IF NOT EXISTS refunds (player_id INTEGER NOT NULL, game_id INTEGER NOT NULL, key TEXT NOT NULL,
    points REAL NOT NULL, at REAL NOT NULL, PRIMARY KEY (player_id, game_id, key));
CREATE TABLE IF NOT EXISTS address_bans (address TEXT NOT NULL, player_id INTEGER NOT NULL, until REAL NOT NULL,
    PRIMARY KEY (address, player_id));
"""
MODERATION_TABLES = ["reports", "sanctions", "mod_log", "blocks", "refunds", "address_bans"]
MODERATION_COUNTED = ["reports", "mod_log"]


class ModerationRows:
    """The moderation methods of ``SqlStore``."""

    def _write(self, statements: List[tuple], game: Optional[int] = None) -> None: raise NotImplementedError
    def _rows(self, sql: str, args: tuple = ()) -> List[tuple]: raise NotImplementedError
    def _transaction(self, work: Any) -> Any: raise NotImplementedError
    def _insert(self, sql: str, args: tuple) -> int: raise NotImplementedError
    def _run(self, sql: str, args: tuple = ()) -> None: raise NotImplementedError
    def _read(self, sql: str, args: tuple = ()) -> List[tuple]: raise NotImplementedError

    def add_report(self, reporter: int, player: int, reason: str, game_id: Optional[int], note: str) -> int:
        return self._transaction(lambda: self._insert(
            "INSERT INTO reports (reporter, player, reason, game_id, note, at) VALUES (?, ?, ?, ?, ?, ?)",
            (reporter, player, reason, game_id, note, time.time())))

    def open_reports(self, limit: int = 200) -> List[Dict[str, Any]]:
        """The reports no moderator has handled, the oldest first."""
        rows = self._rows("SELECT id, reporter, player, reason, game_id, note, at FROM reports "
                          "WHERE handled IS NULL ORDER BY id LIMIT ?", (limit,))
        return [dict(zip(("id", "reporter", "player", "reason", "game", "note", "at"), row)) for row in rows]

    def reports_since(self, player: int, since: float) -> int:
        return self._rows("SELECT COUNT(*) FROM reports WHERE player=? AND at>=?", (player, since))[0][0]

    def sanctions_of(self, player_id: int) -> Dict[str, Tuple[Optional[float], str]]:
        """kind -> (until, reason) of the player's sanctions (some may have run out)."""
        rows = self._rows("SELECT kind, until, reason FROM sanctions WHERE player_id=?", (player_id,))
        return {kind: (until, reason) for kind, until, reason in rows}

    def marked_players(self, kinds: List[str]) -> List[int]:
        marks = ",".join("?" * len(kinds))
        return [p for (p,) in self._rows(f"SELECT DISTINCT player_id FROM sanctions WHERE kind IN ({marks})",
                                         tuple(kinds))]

    def moderate(self, moderator: int, player: int, action: str, reason: str, details: Dict[str, Any],
                 sanction: Optional[Tuple[str, Optional[float]]] = None, lift: Optional[str] = None,
                 closed: Any = False, handled: Optional[List[int]] = None,
                 refunds: Optional[List[Tuple[int, str, int, float]]] = None,
                 barred: Optional[Tuple[List[str], float]] = None) -> int:
        """One moderator action in one commit: the sanction set (kind, until) or lifted, the account
        closed (a reason) or reopened (None), the reports it answers marked handled, ``refunds``
        given (player, rating pool, game, points: each game's once, ever; ``details["refunded"]``
        counts those given now), ``barred`` addresses (until a time: a closed account's; a reopened
        one's bans go), and its line in the moderator log (its id)."""
        now = time.time()

        def work() -> int:
            if refunds:
                given = 0
                for player_id, key, game_id, points in refunds:
                    if self._read("SELECT 1 FROM refunds WHERE player_id=? AND game_id=? AND key=?",
                                  (player_id, game_id, key)):
                        continue
                    self._run("INSERT INTO refunds VALUES (?, ?, ?, ?, ?)", (player_id, game_id, key, points, now))
                    self._run("UPDATE ratings SET rating=rating+? WHERE player_id=? AND key=?", (points, player_id, key))
                    given += 1
                details["refunded"] = given
            if sanction is not None:
                self._run("DELETE FROM sanctions WHERE player_id=? AND kind=?", (player, sanction[0]))
                self._run("INSERT INTO sanctions VALUES (?, ?, ?, ?, ?, ?)",
                          (player, sanction[0], sanction[1], reason, moderator, now))
            if lift is not None:
                self._run("DELETE FROM sanctions WHERE player_id=? AND kind=?", (player, lift))
            if closed is not False:
                self._run("UPDATE accounts SET closed=? WHERE player_id=?", (closed, player))
                self._run("DELETE FROM address_bans WHERE player_id=?", (player,))
                for address in (barred[0] if barred and closed is not None else []):
                    self._run("INSERT INTO address_bans VALUES (?, ?, ?)", (address, player, barred[1]))
                if closed is not None:
                    self._run("DELETE FROM sessions WHERE player_id=?", (player,))
            for report in handled or []:
                self._run("UPDATE reports SET handled_by=?, handled=? WHERE id=? AND handled IS NULL",
                          (moderator, now, report))
            return self._insert("INSERT INTO mod_log (at, moderator, player, action, reason, details) "
                                "VALUES (?, ?, ?, ?, ?, ?)", (now, moderator, player, action, reason,
                                                              json.dumps(details, sort_keys=True)))
        return self._transaction(work)

    def mod_log(self, player: Optional[int] = None, limit: int = 200) -> List[Dict[str, Any]]:
        """The moderator log, the latest first (of one player, or everyone)."""
        where, args = ("WHERE player=? ", (player, limit)) if player is not None else ("", (limit,))
        rows = self._rows(f"SELECT id, at, moderator, player, action, reason, details FROM mod_log {where}"
                          "ORDER BY id DESC LIMIT ?", args)
        return [dict(zip(("id", "at", "moderator", "player", "action", "reason", "details"), row[:6]),
                     details=json.loads(row[6])) for row in rows]

    def set_block(self, player_id: int, blocked: int, on: bool) -> None:
        if on:
            self._write([("DELETE FROM blocks WHERE player_id=? AND blocked=?", (player_id, blocked)),
                         ("INSERT INTO blocks VALUES (?, ?, ?)", (player_id, blocked, time.time()))])
        else:
            self._write([("DELETE FROM blocks WHERE player_id=? AND blocked=?", (player_id, blocked))])

    def blocks_of(self, player_id: int) -> List[int]:
        """Whom the player blocks, and who blocks the player (a block keeps both apart)."""
        rows = self._rows("SELECT blocked FROM blocks WHERE player_id=? UNION SELECT player_id FROM blocks "
                          "WHERE blocked=?", (player_id, player_id))
        return sorted(p for (p,) in rows)

    def address_barred(self, address: str, now: float) -> bool:
        """Whether a closed account's ban on this address is in force."""
        return bool(self._rows("SELECT 1 FROM address_bans WHERE address=? AND until>?", (address, now)))
