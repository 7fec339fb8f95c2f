"""The accounts' part of the SQL both databases speak (schema 6; the moderators' part: moderation.py): an account is a player with a
password (``accounts``); a signed-in browser is a session (``sessions``: the hash of its cookie's
token, so a stolen database gives no cookie); an administrator's password-reset link is a
``resets`` row, used once; a bot account an account made is its ``bot_owners`` row, and the
browsers each account signed in from are ``browsers`` rows (the hash of a cookie no sign-out
changes; schema 6).
``SqlStore`` inherits these methods."""
import time
from typing import Any, Dict, List, Optional, Tuple

ACCOUNT_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (player_id INTEGER NOT NULL PRIMARY KEY, username TEXT NOT NULL,
    password TEXT NOT NULL, created REAL NOT NULL, closed TEXT, totp TEXT, recovery TEXT,
    roles TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS sessions (token_hash TEXT NOT NULL PRIMARY KEY, player_id INTEGER NOT NULL,
    created REAL NOT NULL, seen REAL NOT NULL, device TEXT NOT NULL, address TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_player ON sessions (player_id);
CREATE TABLE IF NOT EXISTS resets (token_hash TEXT NOT NULL PRIMARY KEY, player_id INTEGER NOT NULL,
    expires REAL NOT NULL, used REAL);
CREATE TABLE IF NOT EXISTS bot_owners (player_id INTEGER NOT NULL PRIMARY KEY, owner INTEGER NOT NULL,
    made REAL NOT NULL);
CREATE INDEX IF NOT EXISTS bot_owners_by_owner ON bot_owners (owner);
CREATE TABLE IF NOT EXISTS browsers (browser_hash TEXT NOT NULL, player_id INTEGER NOT NULL, seen REAL NOT NULL,
    PRIMARY KEY (browser_hash, player_id));
"""
ACCOUNT_TABLES = ["accounts", "sessions", "resets", "bot_owners", "browsers"]
_ACCOUNT_COLUMNS = "a.player_id, a.username, a.password, a.created, a.closed, a.totp, a.recovery, a.roles, p.name"


def _account(row: tuple) -> Dict[str, Any]:
    keys = ("id", "username", "password", "created", "closed", "totp", "recovery", "roles", "name")
    account = dict(zip(keys, row))
    account["roles"] = [r for r in (account["roles"] or "").split(",") if r]
    return account


class AccountRows:
    """The account methods of ``SqlStore`` (which gives ``_write``, ``_rows``, ``_transaction``,
    ``_run`` and ``_read``)."""

    def _write(self, statements: List[tuple], game: Optional[int] = None) -> None: raise NotImplementedError
    def _rows(self, sql: str, args: tuple = ()) -> List[tuple]: raise NotImplementedError
    def _transaction(self, work: Any) -> Any: raise NotImplementedError
    def _run(self, sql: str, args: tuple = ()) -> None: raise NotImplementedError
    def _read(self, sql: str, args: tuple = ()) -> List[tuple]: raise NotImplementedError

    def session_player(self, token_hash: str) -> Optional[Dict[str, Any]]:
        """The account a signed-in browser's token names (None: no such session)."""
        rows = self._rows("SELECT p.id, p.name FROM sessions s JOIN players p ON p.id = s.player_id "
                          "WHERE s.token_hash=?", (token_hash,))
        return {"id": rows[0][0], "name": rows[0][1], "account": True} if rows else None

    def add_account(self, player_id: int, username: str, password_hash: str, session_hash: str,
                    device: str, address: str) -> None:
        """The player becomes an account, signed in by the session ``session_hash``; the guest
        cookie that named it names it no more (the player is reached through sessions only)."""
        now = time.time()
        self._write([
            ("INSERT INTO accounts (player_id, username, password, created) VALUES (?, ?, ?, ?)",
             (player_id, username, password_hash, now)),
            ("UPDATE players SET token_hash=? WHERE id=?", (f"account:{session_hash}", player_id)),
            ("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)", (session_hash, player_id, now, now, device, address)),
        ])

    def account(self, player_id: int) -> Optional[Dict[str, Any]]:
        rows = self._rows(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts a JOIN players p ON p.id = a.player_id "
                          "WHERE a.player_id=?", (player_id,))
        return _account(rows[0]) if rows else None

    def account_by_key(self, name_key: str) -> Optional[Dict[str, Any]]:
        """The account whose name has this look-alike key (``names.fold``)."""
        rows = self._rows(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts a JOIN players p ON p.id = a.player_id "
                          "WHERE p.name_key=?", (name_key,))
        return _account(rows[0]) if rows else None

    def add_session(self, token_hash: str, player_id: int, device: str, address: str) -> None:
        now = time.time()
        self._write([("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)",
                      (token_hash, player_id, now, now, device, address))])

    def sessions_of(self, player_id: int) -> List[Dict[str, Any]]:
        """The account's sessions, the latest seen first."""
        rows = self._rows("SELECT token_hash, created, seen, device, address FROM sessions WHERE player_id=? "
                          "ORDER BY seen DESC", (player_id,))
        return [dict(zip(("token_hash", "created", "seen", "device", "address"), row)) for row in rows]

    def touch_session(self, token_hash: str, seen: float) -> None:
        self._write([("UPDATE sessions SET seen=? WHERE token_hash=?", (seen, token_hash))])

    def end_sessions(self, player_id: int, hashes: Optional[List[str]] = None,
                     keep: Optional[str] = None) -> List[str]:
        """Ends the account's sessions (those of ``hashes``, else all but ``keep``); the hashes ended."""
        def work() -> List[str]:
            ended = [h for (h,) in self._read("SELECT token_hash FROM sessions WHERE player_id=?", (player_id,))
                     if h != keep and (hashes is None or h in hashes)]
            for h in ended:
                self._run("DELETE FROM sessions WHERE token_hash=?", (h,))
            return ended
        return self._transaction(work)

    def set_password(self, player_id: int, password_hash: str, keep: Optional[str] = None) -> List[str]:
        """A new password; every session but ``keep`` ends (the hashes ended)."""
        def work() -> List[str]:
            self._run("UPDATE accounts SET password=? WHERE player_id=?", (password_hash, player_id))
            ended = [h for (h,) in self._read("SELECT token_hash FROM sessions WHERE player_id=?", (player_id,))
                     if h != keep]
            for h in ended:
                self._run("DELETE FROM sessions WHERE token_hash=?", (h,))
            return ended
        return self._transaction(work)

    def set_two_factor(self, player_id: int, secret: Optional[str], recovery: List[str]) -> None:
        """Two-factor codes on (``secret`` and the recovery codes' hashes) or off (None)."""
        self._write([("UPDATE accounts SET totp=?, recovery=? WHERE player_id=?",
                      (secret, ",".join(recovery) if secret else None, player_id))])

    def use_recovery_code(self, player_id: int, code_hash: str) -> bool:
        """Spends one recovery code (False: not one of the account's, or spent)."""
        def work() -> bool:
            rows = self._read("SELECT recovery FROM accounts WHERE player_id=?", (player_id,))
            codes = [c for c in ((rows[0][0] or "") if rows else "").split(",") if c]
            if code_hash not in codes:
                return False
            codes.remove(code_hash)
            self._run("UPDATE accounts SET recovery=? WHERE player_id=?", (",".join(codes), player_id))
            return True
        return self._transaction(work)

    def rename_account(self, player_id: int, username: str) -> None:
        """A moderator's forced rename: the username follows the new name."""
        self._write([("UPDATE accounts SET username=? WHERE player_id=?", (username, player_id))])

    def set_roles(self, player_id: int, roles: List[str]) -> None:
        self._write([("UPDATE accounts SET roles=? WHERE player_id=?", (",".join(sorted(set(roles))), player_id))])

    def add_reset(self, token_hash: str, player_id: int, expires: float) -> None:
        self._write([("INSERT INTO resets VALUES (?, ?, ?, NULL)", (token_hash, player_id, expires))])

    def reset_player(self, token_hash: str, now: float) -> Optional[int]:
        """The account a reset link is for, if it is unused and not expired."""
        rows = self._rows("SELECT player_id FROM resets WHERE token_hash=? AND used IS NULL AND expires>?",
                          (token_hash, now))
        return rows[0][0] if rows else None

    def use_reset(self, token_hash: str, password_hash: str, now: float) -> Optional[Tuple[int, List[str]]]:
        """Spends a reset link on a new password, ending every session of the account: its player
        and the sessions ended (None: unknown, used or expired: nothing changes)."""
        def work() -> Optional[Tuple[int, List[str]]]:
            rows = self._read("SELECT player_id FROM resets WHERE token_hash=? AND used IS NULL AND expires>?",
                              (token_hash, now))
            if not rows:
                return None
            player_id = rows[0][0]
            self._run("UPDATE resets SET used=? WHERE token_hash=?", (now, token_hash))
            self._run("UPDATE accounts SET password=? WHERE player_id=?", (password_hash, player_id))
            ended = [h for (h,) in self._read("SELECT token_hash FROM sessions WHERE player_id=?", (player_id,))]
            self._run("DELETE FROM sessions WHERE player_id=?", (player_id,))
            return player_id, ended
        return self._transaction(work)

    # ----------------------------------------------------------------- bot accounts' owners
    def add_owned_bot(self, token_hash: str, name: str, key: str, owner: int) -> int:
        """A new player for a bot account ``owner`` made, in one commit with its owner's row; its id
        (``NameTaken`` if the name is)."""
        def work() -> int:
            now = time.time()
            player_id = self._insert("INSERT INTO players (token_hash, name, created, name_key) VALUES (?, ?, ?, ?)",
                                     (token_hash, name, now, key))
            self._run("INSERT INTO bot_owners VALUES (?, ?, ?)", (player_id, owner, now))
            return player_id
        return self._transaction(work)

    def owned_bots(self, owner: int) -> List[Dict[str, Any]]:
        """The bot accounts ``owner`` made, oldest first."""
        rows = self._rows("SELECT o.player_id, p.name, o.made FROM bot_owners o JOIN players p ON p.id = o.player_id "
                          "WHERE o.owner=? ORDER BY o.made, o.player_id", (owner,))
        return [{"id": r[0], "name": r[1], "made": r[2]} for r in rows]

    def bot_owner(self, player_id: int) -> Optional[int]:
        rows = self._rows("SELECT owner FROM bot_owners WHERE player_id=?", (player_id,))
        return rows[0][0] if rows else None

    def set_player_token(self, player_id: int, token_hash: str) -> Optional[str]:
        """The player's cookie token replaced (a bot account's new token): the old one's hash."""
        def work() -> Optional[str]:
            rows = self._read("SELECT token_hash FROM players WHERE id=?", (player_id,))
            self._run("UPDATE players SET token_hash=? WHERE id=?", (token_hash, player_id))
            return rows[0][0] if rows else None
        return self._transaction(work)

    # ----------------------------------------------------------------- the browsers accounts signed in from
    def note_browser(self, browser_hash: str, player_id: int) -> None:
        self._write([("DELETE FROM browsers WHERE browser_hash=? AND player_id=?", (browser_hash, player_id)),
                     ("INSERT INTO browsers VALUES (?, ?, ?)", (browser_hash, player_id, time.time()))])

    def browser_partners(self, player_id: int) -> List[int]:
        """The other players signed in from a browser this one signed in from."""
        rows = self._rows("SELECT DISTINCT b.player_id FROM browsers a JOIN browsers b ON b.browser_hash = a.browser_hash "
                          "WHERE a.player_id=? AND b.player_id != ? ORDER BY b.player_id", (player_id, player_id))
        return [r[0] for r in rows]
