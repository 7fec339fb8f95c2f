"""Accounts: signing up (a guest keeps its games, ratings and name), signing in on any browser,
sessions (listed, ended one by one or everywhere), password changes, two-factor codes and the
administrator's one-hour reset links; the bot accounts an account owns (made on its page, each with a
token for ``xboard-engine bot``, which its owner may replace: the old one stops at once).

A browser is its cookie's token.  A guest's token names its player directly; an account is
reached through sessions only: signing up or in gives the browser a new token (a token someone
planted before cannot become the account's) whose hash is a session, and signing out ends the
session and gives a fresh token.  The pages of an ended session are closed at once, on every
process (``serve --shared``: the bus).

Guessing is refused before any hash is made: sign-in attempts are limited per username (typed,
whether it exists or not), per address and overall, sign-ups per address and overall.  A wrong
name and a wrong password get the same answer after the same work (a hash is made either way).
The hashing runs on two worker threads, never on the event loop, with a bounded queue."""
import asyncio
import collections
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

from . import names, passwords
from ..community.bot_accounts import check_rules
from ..games.tables import Refused
from ..store.records import NameTaken
from ..rooms.room import Viewer, token_hash

SIGN_IN_PER_NAME = (20, 15 * 60)          # (attempts, seconds): lichess's limits
SIGN_IN_PER_ADDRESS = (300, 10 * 60)
SIGN_IN_OVERALL = (3000, 10 * 60)
SIGN_UP_PER_ADDRESS = (10, 24 * 3600)
SIGN_UP_OVERALL = (2000, 3600)
HASH_THREADS = 2
HASH_QUEUE = 32                            # hashes waiting before a new request is turned away
RESET_SECONDS = 3600
TWO_FACTOR_PENDING = 600                   # seconds to confirm a new authenticator
WRONG = "wrong username or password"
MAX_OWNED_BOTS = 5                         # bot accounts one account may own


class Limited(Refused):
    """Refused for too many attempts (HTTP 429)."""


class Window:
    """At most ``limit`` events per key in any ``seconds``."""

    def __init__(self, limit_seconds: Tuple[int, int]) -> None:
        self.limit, self.seconds = limit_seconds
        self.events: Dict[Any, Deque[float]] = {}

    def allow(self, key: Any, now: float) -> bool:
        """Counts an event for ``key`` if it is within the limit; whether it was."""
        times = self.events.get(key)
        if times is None:
            if len(self.events) > 100000:              # forget the keys quiet for a whole window
                for k in [k for k, t in self.events.items() if not t or t[-1] < now - self.seconds]:
                    del self.events[k]
            times = self.events[key] = collections.deque()
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True

    def wait(self, key: Any, now: float) -> int:
        """Minutes until ``key`` may try again."""
        times = self.events.get(key)
        return max(1, int((times[0] + self.seconds - now) // 60) + 1) if times else 1


def device_of(agent: str) -> str:
    """A short name of the browser behind a User-Agent header ("Chrome on Linux")."""
    browser = next((shown for mark, shown in (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
                                                ("Safari/", "Safari"), ("python", "a program"), ("curl", "curl"))
                    if mark in agent), "a browser")
    system = next((shown for mark, shown in (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
                                               ("Windows", "Windows"), ("Mac OS", "macOS"), ("Linux", "Linux"))
                   if mark in agent), "")
    return f"{browser} on {system}" if system else browser


class Accounts:
    """The accounts service (``services.py``: it uses the hall's store and people)."""

    def __init__(self, hall: Any, now: Callable[[], float] = time.time) -> None:
        self.hall = hall
        self.now = now
        self.sign_in_names = Window(SIGN_IN_PER_NAME)
        self.sign_in_addresses = Window(SIGN_IN_PER_ADDRESS)
        self.sign_in_all = Window(SIGN_IN_OVERALL)
        self.sign_up_addresses = Window(SIGN_UP_PER_ADDRESS)
        self.sign_up_all = Window(SIGN_UP_OVERALL)
        self._hasher = ThreadPoolExecutor(HASH_THREADS, thread_name_prefix="passwords")
        self._hashing = 0
        self._pending_two_factor: Dict[int, Tuple[str, float]] = {}

    # ----------------------------------------------------------------- hashing off the loop
    async def _hash_work(self, work: Callable[[], Any]) -> Any:
        if self._hashing >= HASH_QUEUE:
            raise Limited("the server is busy signing people in; try again in a minute")
        self._hashing += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._hasher, work)
        finally:
            self._hashing -= 1

    async def _hash(self, password: str) -> str:
        return await self._hash_work(lambda: passwords.hash_password(password))

    async def _verify(self, password: str, stored: Optional[str]) -> bool:
        return await self._hash_work(lambda: passwords.verify_password(password, stored))

    # ----------------------------------------------------------------- who a request is
    async def signed_in(self, token: Optional[str]) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
        """(the token's player, its account if signed in)."""
        if not token:
            return None, None
        player = await self.hall.store.player_by_token(token_hash(token))
        if player is None or not player.get("account"):
            return player, None
        return player, await self.hall.store.account(player["id"])

    async def _need_account(self, token: Optional[str]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        player, account = await self.signed_in(token)
        if account is None:
            raise Refused("you are not signed in")
        return player, account

    # ----------------------------------------------------------------- signing up and in
    async def sign_up(self, token: Optional[str], address: str, agent: str, username: Any,
                      password: Any) -> Tuple[str, Dict[str, Any]]:
        """Makes the browser's guest (or a new player) an account named ``username``: (the new
        token of the browser's session, the player)."""
        if not token:
            raise Refused("this browser sends no cookie: allow cookies for this site to sign up")
        try:
            username = names.check_name(username, self.hall.engines, self.hall.policy.name_scripts)
        except names.BadName as error:
            raise Refused(str(error).replace("name:", "username:", 1)) from None
        try:
            password = passwords.check_password(password, username)
        except passwords.BadPassword as error:
            raise Refused(str(error)) from None
        player, account = await self.signed_in(token)
        if account is not None:
            raise Refused(f"you are signed in as {player['name']}: sign out first to make another account")
        owner = await self.hall.store.name_owner(names.fold(username))
        if owner is not None and (player is None or owner != player["id"]):
            raise Refused(f"username: {username!r} is taken (or one that looks the same)")
        if await self.hall.moderation.address_barred(address):
            raise Refused("sign-ups from your address are closed for now: an account used from it was closed by the "
                          "moderators")
        now = self.now()
        if not self.sign_up_all.allow(None, now):
            raise Limited("too many sign-ups on this server just now; try again later")
        if not self.sign_up_addresses.allow(address, now):
            raise Limited(f"too many sign-ups from your address; try again in {self.sign_up_addresses.wait(address, now)} minutes")
        stored = await self._hash(password)
        new_token = secrets.token_urlsafe(24)
        try:
            if player is None:
                player_id = await self.hall.store.add_player(token_hash(token), username, names.fold(username))
                player = {"id": player_id, "name": username}
            elif player["name"] != username:
                await self.hall.store.rename_player(player["id"], username, names.fold(username))
                self.hall.renamed(player["id"], username)
            await self.hall.store.add_account(player["id"], username, stored, token_hash(new_token),
                                              device_of(agent), address)
        except NameTaken:
            raise Refused(f"username: {username!r} is taken (or one that looks the same)") from None
        await self.close_pages([token_hash(token)], "signed in")
        return new_token, {"id": player["id"], "name": username}

    async def sign_in(self, token: Optional[str], address: str, agent: str, username: Any, password: Any,
                      code: Any = None) -> Tuple[str, Dict[str, Any]]:
        """(the new token of the browser's session, the player) for the right name and password
        (and two-factor code, if the account has them)."""
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > passwords.MAX_PASSWORD:
            raise Refused(WRONG)
        key = names.fold(" ".join(username.split()))[:64]
        now = self.now()
        if not self.sign_in_all.allow(None, now):
            raise Limited("too many sign-ins on this server just now; try again in a few minutes")
        if not self.sign_in_addresses.allow(address, now):
            raise Limited(f"too many sign-in attempts from your address; try again in "
                          f"{self.sign_in_addresses.wait(address, now)} minutes")
        if not self.sign_in_names.allow(key, now):
            raise Limited(f"too many sign-in attempts for this username; try again in "
                          f"{self.sign_in_names.wait(key, now)} minutes")
        account = await self.hall.store.account_by_key(key) if key else None
        if not await self._verify(password, account["password"] if account else None) or account is None:
            raise Refused(WRONG)
        if account["closed"]:
            raise Refused(f"this account is closed: {account['closed']}")
        if account["totp"]:
            if not code:
                raise Refused("two-factor code: enter the code your authenticator app shows (or a recovery code)")
            if not passwords.totp_matches(account["totp"], code) and not (
                    isinstance(code, str) and await self.hall.store.use_recovery_code(
                        account["id"], passwords.recovery_hash(code))):
                raise Refused("two-factor code: that code is not right (or was used)")
        new_token = secrets.token_urlsafe(24)
        await self.hall.store.add_session(token_hash(new_token), account["id"], device_of(agent), address)
        if token:
            await self.close_pages([token_hash(token)], "signed in")
        return new_token, {"id": account["id"], "name": account["name"]}

    async def note_browser(self, browser: str, player_id: int) -> None:
        """The account signed in from this browser (its ``xbe_browser`` cookie, which no sign-out
        changes): two accounts of one browser are flagged to the moderators when they play rated."""
        if 8 <= len(browser) <= 200:
            await self.hall.store.note_browser(token_hash(browser), player_id)

    # ----------------------------------------------------------------- sessions
    async def sign_out(self, token: Optional[str], everywhere: bool = False) -> None:
        player, account = await self._need_account(token)
        ended = await self.hall.store.end_sessions(player["id"], None if everywhere else [token_hash(token)])
        await self.close_pages(ended, "signed out")

    async def sessions(self, token: Optional[str]) -> Dict[str, Any]:
        """What the account page shows: who this browser is, and an account's sessions."""
        player, account = await self.signed_in(token)
        if account is None:
            return {"signedIn": False, "player": player and {"id": player["id"], "name": player["name"]}}
        mine = token_hash(token or "")
        return {"signedIn": True, "player": {"id": player["id"], "name": player["name"]},
                "account": {"username": account["username"], "created": account["created"],
                            "twoFactor": bool(account["totp"]), "roles": account["roles"]},
                "sessions": [{"id": s["token_hash"][:16], "device": s["device"], "seen": s["seen"],
                              "created": s["created"], "address": s["address"], "current": s["token_hash"] == mine}
                             for s in await self.hall.store.sessions_of(player["id"])],
                "bots": [dict(b, online=b["id"] in self.hall.bot_accounts.registry.online)
                         for b in await self.hall.store.owned_bots(player["id"])]}

    # ----------------------------------------------------------------- names
    async def rename(self, viewer: Viewer, name: Any) -> None:
        """A page's ``name`` message: its player's new name (made now if it has none); an account's
        only in the case of its letters."""
        try:
            name = names.check_name(name, self.hall.engines, self.hall.policy.name_scripts)
        except names.BadName as error:
            raise Refused(str(error)) from None
        if viewer.player is not None and viewer.player.get("account") and (
                name.casefold() != viewer.player["name"].casefold()):
            raise Refused("name: an account's name is its username; only its letters' case may change")
        owner = await self.hall.store.name_owner(names.fold(name))
        if owner is not None and owner != viewer.player_id:
            raise Refused(f"name: {name!r} is taken (or one that looks the same)")
        player = await self.hall.people.ensure_player(viewer, name)
        if player["name"] != name:
            try:
                await self.hall.store.rename_player(player["id"], name, names.fold(name))
            except NameTaken:
                raise Refused(f"name: {name!r} is taken (or one that looks the same)") from None
            player["name"] = name
        self.hall.renamed(player["id"], name)
        if self.hall.shared is not None:                  # the challenges other processes host
            await self.hall.shared.send(t="rename", player=player["id"], name=name)

    # ----------------------------------------------------------------- bot accounts an account owns
    async def make_bot(self, token: Optional[str], name: Any) -> Dict[str, Any]:
        """A new bot account owned by the signed-in account: its player and its token (shown once;
        ``xboard-engine bot --token-file`` reads it)."""
        player, _ = await self._need_account(token)
        registry = self.hall.bot_accounts.registry
        if registry.is_bot(player["id"]):
            raise Refused("a bot account cannot own bot accounts")
        if len(await self.hall.store.owned_bots(player["id"])) >= MAX_OWNED_BOTS:
            raise Refused(f"you own {MAX_OWNED_BOTS} bot accounts, the most one account may")
        try:
            name = names.check_name(name, self.hall.engines, self.hall.policy.name_scripts)
        except names.BadName as error:
            raise Refused(str(error)) from None
        secret = secrets.token_urlsafe(24)
        try:
            bot = await self.hall.store.add_owned_bot(token_hash(secret), name, names.fold(name), player["id"])
        except NameTaken:
            raise Refused(f"name: {name!r} is taken (or one that looks the same)") from None
        await self.hall.store.set_bot_account(bot, check_rules({}))    # a bot from the start, its rules when it comes
        registry.add(bot)
        return {"bot": {"id": bot, "name": name}, "token": secret}

    async def new_bot_token(self, token: Optional[str], bot: Any) -> Dict[str, Any]:
        """A new token for one of the account's bot accounts: the old one stops now (its pages close,
        here and on every process)."""
        player, _ = await self._need_account(token)
        if isinstance(bot, bool) or not isinstance(bot, int) or await self.hall.store.bot_owner(bot) != player["id"]:
            raise Refused("bot: not one of your bot accounts")
        secret = secrets.token_urlsafe(24)
        old = await self.hall.store.set_player_token(bot, token_hash(secret))
        if old:
            await self.close_pages([old], "the owner gave this bot account a new token")
        return {"bot": {"id": bot}, "token": secret}

    async def end_session(self, token: Optional[str], session: Any) -> None:
        player, _ = await self._need_account(token)
        if not isinstance(session, str) or len(session) != 16:
            raise Refused("session: want a session's id from the list")
        hashes = [s["token_hash"] for s in await self.hall.store.sessions_of(player["id"])
                  if s["token_hash"].startswith(session)]
        if not hashes:
            raise Refused("session: no such session (it ended already?)")
        await self.close_pages(await self.hall.store.end_sessions(player["id"], hashes), "signed out")

    async def change_password(self, token: Optional[str], old: Any, new: Any) -> None:
        """A new password for the right old one; the account's other sessions end."""
        player, account = await self._need_account(token)
        if not isinstance(old, str) or not await self._verify(old, account["password"]):
            raise Refused("current password: that is not it")
        try:
            new = passwords.check_password(new, account["username"])
        except passwords.BadPassword as error:
            raise Refused(str(error)) from None
        stored = await self._hash(new)
        await self.close_pages(await self.hall.store.set_password(player["id"], stored, keep=token_hash(token)),
                               "password changed")

    async def reset(self, secret: Any, new: Any) -> str:
        """A new password through an administrator's link (once, within the hour): the name."""
        if not isinstance(secret, str) or not secret:
            raise Refused("this reset link is not valid")
        player = await self.hall.store.reset_player(token_hash(secret), self.now())
        account = player is not None and await self.hall.store.account(player)
        if not account:
            raise Refused("this reset link is not valid: it was used, it is over an hour old, or it was mistyped")
        try:
            new = passwords.check_password(new, account["username"])
        except passwords.BadPassword as error:
            raise Refused(str(error)) from None
        used = await self.hall.store.use_reset(token_hash(secret), await self._hash(new), self.now())
        if used is None:
            raise Refused("this reset link is not valid: it was used a moment ago")
        await self.close_pages(used[1], "password reset")
        return account["name"]

    # ----------------------------------------------------------------- two-factor codes
    async def begin_two_factor(self, token: Optional[str]) -> Dict[str, str]:
        player, account = await self._need_account(token)
        if account["totp"]:
            raise Refused("two-factor codes are on already")
        secret = passwords.new_totp_secret()
        self._pending_two_factor[player["id"]] = (secret, self.now() + TWO_FACTOR_PENDING)
        return {"secret": secret, "link": passwords.totp_link(secret, account["username"], "xboard-engine")}

    async def confirm_two_factor(self, token: Optional[str], code: Any) -> List[str]:
        """Two-factor codes on once a code of the new secret is right: the recovery codes (shown once)."""
        player, _ = await self._need_account(token)
        secret, until = self._pending_two_factor.get(player["id"], ("", 0.0))
        if until < self.now():
            raise Refused("begin again: no new authenticator is waiting to be confirmed")
        if not passwords.totp_matches(secret, code):
            raise Refused("two-factor code: that code is not right (is the phone's clock right?)")
        del self._pending_two_factor[player["id"]]
        shown, kept = passwords.new_recovery_codes()
        await self.hall.store.set_two_factor(player["id"], secret, kept)
        return shown

    async def end_two_factor(self, token: Optional[str], password: Any) -> None:
        player, account = await self._need_account(token)
        if not isinstance(password, str) or not await self._verify(password, account["password"]):
            raise Refused("password: that is not it")
        await self.hall.store.set_two_factor(player["id"], None, [])

    # ----------------------------------------------------------------- the pages of ended sessions
    async def close_pages(self, hashes: List[str], why: str) -> None:
        """Closes the pages of these tokens here and on every other process."""
        if not hashes:
            return
        self.hall.people.close_pages(hashes, why)
        if self.hall.shared is not None:
            await self.hall.shared.send(t="signout", hashes=hashes, why=why)


def make_reset(store: Any, username: str, now: Optional[float] = None) -> str:
    """(for ``xboard-engine admin reset-password``, on the plain store) a reset link's secret for
    the account ``username``; LookupError if there is none."""
    account = store.account_by_key(names.fold(username))
    if account is None:
        raise LookupError(f"no account is named {username!r}")
    secret = secrets.token_urlsafe(24)
    store.add_reset(token_hash(secret), account["id"], (time.time() if now is None else now) + RESET_SECONDS)
    return secret
