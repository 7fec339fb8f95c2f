"""Moderation: reports, the moderators' actions and what they do, and each person's blocks.

Anyone with a player reports another (a reason from ``REASONS``, a game attached, a note); the
moderators' page (``/mod``, for the roles ``moderator`` and ``administrator``) lists the open
reports with their evidence (the game, its chat, the player's recent games and whom they played)
and the server's own flags.  An action is written to the moderator log with its reason, in the
same commit as what it changes:

- ``timeout`` (10, 60 or 1440 minutes) and ``mute`` (until lifted): the player's chat is refused;
- ``troll``: their chat lines are stored and shown to themselves only (a shadow ban);
- ``engine`` and ``booster``: the player's ratings are hidden and left out of leaderboards, and
  the opponents get back the points they lost to them (each game's once);
- ``rename``: a new name, forced (an account's username with it);
- ``close``: the account cannot sign in (the page says why), its sessions end now, and for a week
  its addresses make no new accounts and their guests do not chat (no coming back as another);
  ``reopen`` (which lifts those);
- ``lift``: a sanction ends early.

With ``serve --shared`` the other processes forget what they knew of the player at once (the
bus's ``sanction``), so a ban takes effect everywhere."""
import time
from typing import Any, Dict, List, Optional, Tuple

from . import names
from ..community import rated
from ..games.tables import Refused
from .accounts import Limited, Window

REASONS = ("insult", "cheating", "sandbagging/boosting", "stalling/abandoning", "offensive name", "other")
ACTIONS = ("timeout", "mute", "troll", "engine", "booster", "rename", "close", "reopen", "lift")
MARKS = ("timeout", "mute", "troll", "engine", "booster")
TIMEOUT_MINUTES = (10, 60, 1440)
MAX_NOTE = 500
REPORTS_PER_PERSON = (10, 3600)
MODERATOR_ROLES = {"moderator", "administrator"}
RECENT_REPORTS = (5, 24 * 3600)            # a flood of reports about one player is flagged
BAR_DAYS = 7                               # a closed account's addresses: no sign-ups, no guests' chat
REFUND_GAMES = 200                         # a cheat's games whose opponents' losses are given back
SAME_OPPONENT = 5                          # of the last 20 games, rated ones against one opponent


class Moderation:
    """The moderation service (``services.py``)."""

    def __init__(self, hall: Any) -> None:
        self.hall = hall
        self._sanctions: Dict[int, Dict[str, Tuple[Optional[float], str]]] = {}
        self._blocks: Dict[int, List[int]] = {}
        self._barred: Dict[str, Tuple[bool, float]] = {}        # address -> (barred, when read)
        self.reports_from = Window(REPORTS_PER_PERSON)

    # ----------------------------------------------------------------- what is in force
    async def sanctions(self, player_id: int) -> Dict[str, Tuple[Optional[float], str]]:
        """The player's sanctions in force: kind -> (until, reason)."""
        known = self._sanctions.get(player_id)
        if known is None:
            if len(self._sanctions) > 50000:
                self._sanctions.clear()
            known = self._sanctions[player_id] = await self.hall.store.sanctions_of(player_id)
        now = time.time()
        return {k: v for k, v in known.items() if v[0] is None or v[0] > now}

    async def address_barred(self, address: Optional[str]) -> bool:
        """Whether an account closed by a moderator was used from this address lately (``BAR_DAYS``):
        no sign-ups and no guests' chat from it (a closed person does not come back as a guest)."""
        if not address:
            return False
        now = time.monotonic()
        known = self._barred.get(address)
        if known is None or now - known[1] > 30.0:
            if len(self._barred) > 50000:
                self._barred.clear()
            known = self._barred[address] = (await self.hall.store.address_barred(address, time.time()), now)
        return known[0]

    async def chat_channel(self, player_id: int, guest_address: Optional[str] = None) -> Optional[str]:
        """None if the player may chat as usual, ``"troll"`` if their lines reach only themselves;
        Refused if they may not chat now (``guest_address``: a guest's, barred after a closed
        account used it)."""
        if await self.address_barred(guest_address):
            raise Refused("chat: guests from your address may not chat for now (an account used from it was closed "
                          "by the moderators): sign in")
        held = await self.sanctions(player_id)
        if "mute" in held:
            raise Refused("chat: you are muted by a moderator")
        if "timeout" in held:
            minutes = max(1, int((held["timeout"][0] - time.time()) // 60) + 1)
            raise Refused(f"chat: a moderator gave you a timeout ({minutes} more minutes)")
        return "troll" if "troll" in held else None

    async def blocks(self, player_id: int) -> List[int]:
        """Those the player blocks or is blocked by."""
        known = self._blocks.get(player_id)
        if known is None:
            if len(self._blocks) > 50000:
                self._blocks.clear()
            known = self._blocks[player_id] = await self.hall.store.blocks_of(player_id)
        return known

    async def apart(self, a: Optional[int], b: Optional[int]) -> bool:
        """Whether a block keeps the two apart."""
        return a is not None and b is not None and b in await self.blocks(a)

    def forget(self, player_id: int) -> None:
        self._sanctions.pop(player_id, None)
        self._blocks.pop(player_id, None)

    async def _changed(self, *players: int) -> None:
        for p in players:
            self.forget(p)
        if self.hall.shared is not None:
            await self.hall.shared.send(t="sanction", players=list(players))

    # ----------------------------------------------------------------- anyone
    async def block(self, token: Optional[str], data: Dict[str, Any]) -> None:
        me = await self._player(token)
        other = await self._target(data.get("player"))
        if other["id"] == me["id"]:
            raise Refused("player: that is you")
        await self.hall.store.set_block(me["id"], other["id"], bool(data.get("on", True)))
        await self._changed(me["id"], other["id"])

    async def report(self, token: Optional[str], data: Dict[str, Any]) -> int:
        me = await self._player(token)
        other = await self._target(data.get("player"))
        if other["id"] == me["id"]:
            raise Refused("player: that is you")
        reason = data.get("reason")
        if reason not in REASONS:
            raise Refused(f"reason: one of {', '.join(REASONS)}")
        note = data.get("note", "")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise Refused(f"note: text of at most {MAX_NOTE} characters")
        game_id = None
        if data.get("game"):
            game_id = await self.hall.store.game_id(str(data["game"])[:40])
            if game_id is None:
                raise Refused("game: no such game")
        if not self.reports_from.allow(me["id"], time.time()):
            raise Limited("you have sent many reports this hour; the moderators have them")
        return await self.hall.store.add_report(me["id"], other["id"], reason, game_id, names.clean_chat(note))

    # ----------------------------------------------------------------- moderators
    async def moderator(self, token: Optional[str]) -> Dict[str, Any]:
        """The signed-in moderator's account; Refused for anyone else."""
        _, account = await self.hall.accounts.signed_in(token)
        if account is None or not MODERATOR_ROLES & set(account["roles"]):
            raise Refused("this is for the club's moderators")
        return account

    async def page(self, token: Optional[str]) -> Dict[str, Any]:
        """The moderators' page: open reports with their evidence, the server's flags, the log."""
        await self.moderator(token)
        store = self.hall.store
        reports = await store.open_reports()
        ids = {r["player"] for r in reports} | {r["reporter"] for r in reports}
        evidence: Dict[int, Any] = {}
        for player in {r["player"] for r in reports}:
            evidence[player] = await self._evidence(player)
        chats: Dict[int, Any] = {}
        for game in {r["game"] for r in reports if r["game"]}:
            stored = await store.game(game)
            chats[game] = {"slug": stored.slug if stored else None,
                           "chat": [{"name": c.name, "player": c.player_id, "text": c.text, "at": c.at,
                                     "channel": c.channel} for c in await store.chat(game)]}
        log = await store.mod_log()
        ids |= {e["player"] for e in log} | {e["moderator"] for e in log}
        shown = await store.player_names(sorted(ids))
        return {"reports": [dict(r, playerName=shown.get(r["player"]), reporterName=shown.get(r["reporter"]),
                                 game=chats.get(r["game"]), evidence=evidence[r["player"]]) for r in reports],
                "log": [dict(e, playerName=shown.get(e["player"]), moderatorName=shown.get(e["moderator"]))
                        for e in log],
                "reasons": list(REASONS), "actions": list(ACTIONS), "timeouts": list(TIMEOUT_MINUTES)}

    async def _evidence(self, player: int) -> Dict[str, Any]:
        """A player's recent games (results, opponents, moves), sanctions and flags."""
        games = []
        for stored, seats in await self.hall.store.games_of(player, limit=20, aborted=True):
            games.append({"slug": stored.slug, "status": stored.status, "result": stored.result,
                          "rated": bool(stored.config.get("rated")), "quit": rated.quit_by(stored, seats, player),
                          "opponents": [s.player_id for s in seats if s.player_id not in (None, player)]})
        held = await self.sanctions(player)
        return {"games": games, "sanctions": {k: {"until": u, "reason": r} for k, (u, r) in held.items()},
                "flags": await self.flags(player, games)}

    async def flags(self, player: int, games: List[Dict[str, Any]]) -> List[str]:
        """What the server notices by itself: resignations or abandonments in a row, a flood of
        reports, rated games against the same opponent again and again, or against an account
        signed in from the same address or the same browser."""
        found = []
        recent = await self.hall.store.reports_since(player, time.time() - RECENT_REPORTS[1])
        if recent >= RECENT_REPORTS[0]:
            found.append(f"{recent} reports in a day")
        quits = 0
        for g in games:
            if g["status"] not in ("over", "aborted"):
                continue
            if not g["quit"]:
                break
            quits += 1
        if quits >= rated.QUITS_IN_A_ROW:
            found.append(f"{quits} games in a row resigned, abandoned or aborted")
        faced = [o for g in games if g["rated"] for o in g["opponents"]]
        mine = {s["address"] for s in await self.hall.store.sessions_of(player)}
        one_browser = set(await self.hall.store.browser_partners(player))
        for opponent in sorted(set(faced)):
            if opponent in one_browser:
                found.append(f"rated games against player {opponent}, signed in from the same browser")
            if faced.count(opponent) >= SAME_OPPONENT:
                found.append(f"{faced.count(opponent)} of the last rated games against player {opponent}")
            shared = mine & {s["address"] for s in await self.hall.store.sessions_of(opponent)}
            if shared:
                found.append(f"rated games against player {opponent}, signed in from the same address "
                             f"({', '.join(sorted(shared))})")
        return found

    async def act(self, token: Optional[str], data: Dict[str, Any]) -> int:
        """A moderator's action (``ACTIONS``); its line in the log."""
        moderator = await self.moderator(token)
        target = await self._target(data.get("player"))
        action, reason = data.get("action"), data.get("reason")
        if action not in ACTIONS:
            raise Refused(f"action: one of {', '.join(ACTIONS)}")
        if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_NOTE:
            raise Refused("reason: say why (at most 500 characters)")
        reason = names.clean_chat(reason)
        account = await self.hall.store.account(target["id"])
        if account is not None and MODERATOR_ROLES & set(account["roles"]) and "administrator" not in moderator["roles"]:
            raise Refused("a moderator is moderated by an administrator")
        details: Dict[str, Any] = {}
        change: Dict[str, Any] = {}
        if action == "timeout":
            minutes = data.get("minutes")
            if minutes not in TIMEOUT_MINUTES:
                raise Refused(f"minutes: one of {', '.join(map(str, TIMEOUT_MINUTES))}")
            details["minutes"] = minutes
            change["sanction"] = ("timeout", time.time() + 60 * minutes)
        elif action in ("mute", "troll", "engine", "booster"):
            change["sanction"] = (action, None)
            if action in ("engine", "booster"):
                change["refunds"] = await self.refunds(target["id"])
        elif action == "lift":
            kind = data.get("kind")
            if kind not in MARKS:
                raise Refused(f"kind: one of {', '.join(MARKS)}")
            details["kind"] = kind
            change["lift"] = kind
        elif action in ("close", "reopen"):
            if account is None:
                raise Refused("a guest has no account to close (a timeout or a mute silences a guest)")
            change["closed"] = reason if action == "close" else None
        elif action == "rename":
            details["from"] = target["name"]
            details["to"] = await self._rename(target, data.get("name"))
        handled = [r for r in data.get("reports", []) if isinstance(r, int)] if isinstance(data.get("reports"), list) else []
        sessions = await self.hall.store.sessions_of(target["id"]) if action == "close" else []
        if sessions:
            change["barred"] = (sorted({s["address"] for s in sessions}), time.time() + BAR_DAYS * 86400)
        entry = await self.hall.store.moderate(moderator["id"], target["id"], action, reason, details,
                                               handled=handled, **change)
        await self._changed(target["id"])
        if action in ("close", "reopen"):
            self._barred.clear()               # (other processes read it again within 30 s)
        if sessions:
            await self.hall.accounts.close_pages([s["token_hash"] for s in sessions], "account closed")
        return entry

    async def refunds(self, player: int) -> List[Tuple[int, str, int, float]]:
        """What the opponents of a player marked engine or booster get back: the points each lost in
        their rated two-player games with them (of the last ``REFUND_GAMES``), as (opponent, pool,
        game, points); the store gives each game's once."""
        found = []
        for stored, seats in await self.hall.store.games_of(player, limit=REFUND_GAMES):
            changes = (stored.result or {}).get("ratings") or {}
            if stored.kind != "two" or "key" not in changes:
                continue
            for s in seats:
                before, after = changes.get("seats", {}).get(str(s.seat), (0, 0))
                if s.player_id not in (None, player) and after < before:
                    found.append((s.player_id, changes["key"], stored.id, float(before - after)))
        return found

    async def _rename(self, target: Dict[str, Any], name: Any) -> str:
        try:
            name = names.check_name(name, self.hall.engines, self.hall.policy.name_scripts)
        except names.BadName as error:
            raise Refused(str(error)) from None
        owner = await self.hall.store.name_owner(names.fold(name))
        if owner is not None and owner != target["id"]:
            raise Refused(f"name: {name!r} is taken (or one that looks the same)")
        await self.hall.store.rename_player(target["id"], name, names.fold(name))
        await self.hall.store.rename_account(target["id"], name)
        self.hall.renamed(target["id"], name)
        return name

    # ----------------------------------------------------------------- helpers
    async def _player(self, token: Optional[str]) -> Dict[str, Any]:
        player, _ = await self.hall.accounts.signed_in(token)
        if player is None:
            raise Refused("you have no player yet: play or choose a name first")
        return player

    async def _target(self, player: Any) -> Dict[str, Any]:
        if isinstance(player, bool) or not isinstance(player, int):
            raise Refused("player: want a player's number")
        found = await self.hall.store.player(player)
        if found is None:
            raise Refused("player: no such player")
        return found

