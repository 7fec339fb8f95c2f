
"""Bot accounts: engines that play on the server as players of their own, through a program that
speaks for them (``xboard-engine bot``, or any client of docs/BOT_PROTOCOL.md).

A lobby connection of a named player says ``bot`` with its rules (variants, the range of clocks,
rated or casual games, games at once, the engine's name): the player becomes a bot account (kept
in the store, for good) and is online while that connection is open (in memory only).  A person
challenges an online bot account with a seat ``{"kind": "account", "name"}``: the seat is kept for
the bot by an invite secret that only the bot's connection is sent (``challenge``); the bot takes
the seat on the game's page with it, or declines (``decline``), or the challenge ends unanswered
after ``ANSWER_SECONDS``.  A challenge the bot's rules refuse, or to a bot that is offline or
busy, is refused at once with the reason.

People's and bots' ratings stay apart: a player who has played as a person cannot become a bot
account; a bot account takes no open seats, seeks, tournaments or games of its own but challenges
to other bot accounts; a game between a person and a bot account is never rated, one between two
bot accounts may be.  When a game with a bot account begins, or the bot comes online with games
unfinished (after a restart), its connection hears ``gameStart``."""
import asyncio
import math
import time
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Set, Tuple

from ..identity import names
from ...core.variant import variant_names
from ...time_control import INCREMENTS_COUNTED, MAX_CLOCK_SECONDS, clock_seconds
from ..games.tables import Refused
from ..rooms import wire
from ..rooms.room import Room, Viewer, new_secret, token_hash
from ..store.records import Store, StoredSeat

if TYPE_CHECKING:
    from ..rooms.services import HallServices

RATED_CHOICES = ("rated", "casual", "both")
MAX_GAMES_AT_ONCE = 10
MAX_ENGINE_TEXT = 80
MAX_REASON = 200
MAX_LISTED = 100                        # bots the lobby lists
ANSWER_SECONDS = 20.0                   # a challenge neither taken nor declined by then ends
UNPLAYED_WAIT = 120.0                   # a challenger who left a game with a bot unplayed waits this long


class OnlineBot:
    """A bot account whose lobby connection is open, and the rules it plays by."""

    def __init__(self, viewer: Viewer, info: Dict[str, Any]) -> None:
        self.viewer = viewer
        self.info = info

    @property
    def name(self) -> str:
        return self.viewer.player["name"] if self.viewer.player else "?"


class Challenge(NamedTuple):
    """A challenge to a bot account, before its game is stored."""
    seat: int
    player_id: int
    name: str
    secret: str


class Registry:
    """Which players are bot accounts (read from the store when the server starts, then kept) and
    which are online."""

    def __init__(self, store: Store) -> None:
        self.online: Dict[int, OnlineBot] = {}
        self.pending: Dict[int, str] = {}        # room id -> the invite hash its challenge waits with
        # (bot, challenger) -> until when that challenger may not challenge it
        self.waits: Dict[Tuple[int, Optional[int]], float] = {}
        self._ids: Set[int] = set(store.bot_account_ids())     # (the plain store: nobody is served yet)

    def is_bot(self, player_id: Optional[int]) -> bool:
        return player_id is not None and player_id in self._ids

    def add(self, player_id: int) -> None:
        self._ids.add(player_id)


# --------------------------------------------------------------------- rules
def _seconds(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= MAX_CLOCK_SECONDS:
        raise Refused(f"{what}: seconds (base + {INCREMENTS_COUNTED} increments), 0 to {MAX_CLOCK_SECONDS}")
    return float(value)


def check_rules(data: Dict[str, Any]) -> Dict[str, Any]:
    """A ``bot`` message's rules, checked: what the store keeps and the lobby shows."""
    known = variant_names()
    variants = data.get("variants", ["normal"])
    if not isinstance(variants, list) or not variants:
        raise Refused('variants: want a list of variant names, e.g. ["normal", "chess80"]')
    if len(variants) > len(known):
        raise Refused(f"variants: at most {len(known)} names (this server plays {', '.join(known)})")
    chosen: List[str] = []
    for v in variants:
        if not isinstance(v, str) or v not in known:
            raise Refused(f"variants: unknown variant {str(v)[:40]!r} (known: {', '.join(known)})")
        if v not in chosen:
            chosen.append(v)
    low = _seconds(data.get("minTc", 0), "minTc")
    high = _seconds(data.get("maxTc", MAX_CLOCK_SECONDS), "maxTc")
    if low > high:
        raise Refused("minTc is above maxTc: no clock would do")
    rated = data.get("rated", "both")
    if not isinstance(rated, str) or rated not in RATED_CHOICES:
        raise Refused('rated: "rated", "casual" or "both"')
    games = data.get("maxGames", 1)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES_AT_ONCE:
        raise Refused(f"maxGames: a whole number, 1 to {MAX_GAMES_AT_ONCE}")
    engine = data.get("engine", "")
    if not isinstance(engine, str):
        raise Refused("engine: want the engine's name and version as text")
    engine = names.clean_chat(engine)
    if len(engine) > MAX_ENGINE_TEXT or not engine.isprintable():
        raise Refused(f"engine: at most {MAX_ENGINE_TEXT} printable characters")
    return {"variants": chosen, "minTc": low, "maxTc": high, "rated": rated, "maxGames": games, "engine": engine}


def why_not(info: Dict[str, Any], config: Dict[str, Any], challenger_is_bot: bool) -> Optional[str]:
    """Why a bot with these rules does not play this game (words after its name); None: it does."""
    variant = config.get("variant")
    if variant not in info["variants"]:
        return f"does not play {variant} (it plays {', '.join(info['variants'])})"
    seconds = clock_seconds(config.get("tc"))
    if seconds is None:
        return "plays only games with a clock of seconds + increment, e.g. 300+3"
    if not info["minTc"] <= seconds <= info["maxTc"]:
        return (f"plays clocks of {info['minTc']:g} to {info['maxTc']:g} s (base + {INCREMENTS_COUNTED} "
                f"increments); {config.get('tc')} is {seconds:g} s")
    if config.get("rated"):
        if not challenger_is_bot:
            return "is a bot account: a game between a person and a bot account is never rated"
        if info["rated"] == "casual":
            return "plays casual games only"
    elif info["rated"] == "rated":
        return "plays rated games only (with other bot accounts)"
    return None


def _send_game_start(room: Room, viewer: Viewer, player_id: int) -> None:
    viewer.send(wire.dumps({"type": "gameStart", "gameId": room.slug, "seats": room.owned_by(player_id),
                            "variant": room.config.get("variant"), "tc": room.config.get("tc"),
                            "rated": bool(room.config.get("rated"))}))


class BotAccounts:
    """The bot accounts of the server and those online now (``registry``): their registration, the
    challenges sent to them and their answers, and what people may not do as a bot."""

    def __init__(self, hall: "HallServices", store: Store) -> None:
        self.hall = hall
        self.registry = Registry(store)        # read now, from the plain store (start-up)

    def games_held(self, player_id: int) -> int:
        """The games a bot account plays now or is challenged to (its ``maxGames`` counts them)."""
        return sum(1 for r in self.hall.rooms.values()
                   if r.status == "playing" and player_id in r.people()
                   or r.status == "open" and (r.config.get("botAccount") or {}).get("player") == player_id)

    # --------------------------------------------------------------------- a bot's connection
    async def register(self, viewer: Viewer, data: Dict[str, Any]) -> None:
        """A ``bot`` message: the connection's player becomes (or stays) a bot account with these
        rules, online through this connection; it hears ``botReady``, then ``gameStart`` for each
        game it plays that is not over, and the challenges still waiting for it."""
        if self.hall.policy.local:
            raise Refused("this server is one person's: bot accounts are for a server with other people")
        info = check_rules(data)
        player = viewer.player
        if player is None or names.fold(player["name"]).startswith("guest"):
            raise Refused("choose a name first (a name message): a bot account is known by its name")
        registry: Registry = self.registry
        pid = player["id"]
        if self.hall.policy.bots_need_owners and await self.hall.store.bot_owner(pid) is None:
            raise Refused("a bot account is made by its owner: sign in, then Account, Bot accounts, which gives "
                          "the token for xboard-engine bot --token-file")
        if not registry.is_bot(pid):
            if await self.hall.store.games_of(pid, limit=1):
                raise Refused("this player has played as a person: a bot account needs a player of its own "
                              "(a new cookie and name), so that people's and bots' ratings stay apart")
            if any(t.status in ("waiting", "running") and pid in t.entrants and not t.entrants[pid].withdrawn
                   for t in self.hall.tournaments.by_id.values()):
                raise Refused("this player has joined a tournament as a person: withdraw first")
        await self.hall.store.set_bot_account(pid, info)
        registry.add(pid)
        old = registry.online.get(pid)
        if old is not None and old.viewer is not viewer:
            old.viewer.send(wire.dumps({"type": "error", "message": "another connection now plays for this bot account"}))
        registry.online[pid] = OnlineBot(viewer, info)
        self.hall.seek_board.waiting[:] = [s for s in self.hall.seek_board.waiting if s.player_id != pid]
        viewer.send(wire.dumps({"type": "botReady", "you": player, "bot": info}))
        for room in sorted(self.hall.rooms.values(), key=lambda r: r.created):
            if room.status == "playing" and pid in room.people():
                _send_game_start(room, viewer, pid)
            elif self._waits_unsent(room, pid):
                async with room.lock:
                    if self._waits_unsent(room, pid):
                        await self._reissue(room)      # waiting since before a restart: a new secret for it
        self.hall.lobby_changed()

    def _waits_unsent(self, room: Room, pid: int) -> bool:
        """A challenge to the bot ``pid`` that waits with no secret sent (made before a restart)."""
        return room.status == "open" and (room.config.get("botAccount") or {}).get("player") == pid \
            and room.id not in self.registry.pending

    async def decline(self, viewer: Viewer, data: Dict[str, Any]) -> None:
        """A bot says no to a challenge made to it: the game ends unplayed, with the reason."""
        room = await self.hall.room_at(data.get("gameId"))
        if room is None:
            raise Refused("decline: no such game")
        async with room.lock:
            await self._decline(viewer, room, data)

    async def _decline(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        target = room.config.get("botAccount") or {}
        if viewer.player_id is None or target.get("player") != viewer.player_id:
            raise Refused("decline: that challenge is not to you")
        if room.status != "open":
            raise Refused("decline: the challenge is no longer waiting (taken, withdrawn or ended)")
        reason = data.get("reason", "")
        if not isinstance(reason, str):
            raise Refused("reason: want text")
        reason = names.clean_chat(reason)[:MAX_REASON]
        self.registry.pending.pop(room.id, None)
        name = viewer.player["name"] if viewer.player else target.get("name", "?")
        await self.hall.course.end_without_result(room, f"{name} declined the challenge" + (f": {reason}" if reason else ""))

    def page_closed(self, viewer: Viewer) -> None:
        """A lobby connection closed: if a bot was online through it, it is offline now, and the
        challenges still waiting for it end (not when the server itself is stopping)."""
        registry: Registry = self.registry
        pid = viewer.player_id
        online = registry.online.get(pid) if pid is not None else None
        if online is None or online.viewer is not viewer:
            return
        del registry.online[pid]
        if not self.hall.stopping:
            for room in list(self.hall.rooms.values()):
                if room.status == "open" and (room.config.get("botAccount") or {}).get("player") == pid:
                    registry.pending.pop(room.id, None)
                    self.hall.spawn(self._gone_offline(room, pid, online.name))
        self.hall.lobby_changed()

    async def _gone_offline(self, room: Room, pid: int, name: str) -> None:
        async with room.lock:
            if room.status == "open" and pid not in self.registry.online and not self.hall.stopping:
                await self.hall.course.end_without_result(room, f"{name} went offline before answering the challenge")

    # --------------------------------------------------------------------- challenges
    def seat_flags(self, viewer: Viewer, wanted: List[Any]) -> List[bool]:
        """Per seat of a challenge, whether a bot account will hold it (for the rated rule)."""
        creator_is_bot = self.registry.is_bot(viewer.player_id)
        kinds = [e.get("kind") if isinstance(e, dict) else None for e in wanted]
        return [creator_is_bot if k == "me" else k == "account" for k in kinds]

    async def prepare_challenge(self, viewer: Viewer, kind: str, config: Dict[str, Any],
                          wanted: List[Any], rated: bool) -> Optional[Challenge]:
        """A ``create`` message's seat ``{"kind": "account", "name"}`` checked against the bot's rules,
        state and load (Refused with the reason); the challenge (its seat kept by a new secret, noted
        in ``config``), or None when no bot account is challenged.  A bot account creates nothing else."""
        registry: Registry = self.registry
        kinds = [e.get("kind") if isinstance(e, dict) else None for e in wanted]
        challenger_is_bot = registry.is_bot(viewer.player_id)
        if "account" not in kinds:
            if challenger_is_bot:
                raise Refused("a bot account plays only challenges: it may challenge another bot account "
                              '(seats: me and {"kind": "account", "name"}), or wait to be challenged')
            return None
        if self.hall.policy.local:
            raise Refused("this server is one person's: it has no bot accounts")
        if kind != "two" or sorted(k for k in kinds if isinstance(k, str)) != ["account", "me"]:
            raise Refused('a challenge to a bot account is a two-player game with two seats: yours ("me") '
                          'and the bot\'s ({"kind": "account", "name": "..."})')
        seat = kinds.index("account")
        name = wanted[seat].get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > names.MAX_NAME * 4:
            raise Refused(f"seat {seat}: account: want the bot account's name")
        target = await self.hall.store.name_owner(names.fold(name))
        if target is None:
            raise Refused(f"there is no player named {name.strip()!r}")
        bot_name = (await self.hall.store.player_names([target])).get(target, name)
        if not registry.is_bot(target):
            raise Refused(f"{bot_name} is not a bot account")
        if target == viewer.player_id:
            raise Refused("a bot account cannot challenge itself")
        online = registry.online.get(target)
        if online is None:
            raise Refused(f"{bot_name} is not online now: try again later")
        why = why_not(online.info, dict(config, rated=rated), challenger_is_bot)
        if why:
            raise Refused(f"{bot_name} {why}")
        held = self.games_held(target)
        if held >= online.info["maxGames"]:
            raise Refused(f"{bot_name} is busy: it plays {held} games now (at most {online.info['maxGames']} "
                          "at once); try again later")
        self._check_challenger(viewer, target, bot_name, online.info["maxGames"])
        mine = registry.online.get(viewer.player_id) if viewer.player_id is not None else None
        if mine is not None and self.games_held(viewer.player_id) >= mine.info["maxGames"]:
            raise Refused(f"you play {mine.info['maxGames']} games already (your maxGames)")
        config["botAccount"] = {"seat": seat, "player": target, "name": bot_name}
        return Challenge(seat, target, bot_name, new_secret())

    def _check_challenger(self, viewer: Viewer, bot: int, bot_name: str, max_games: int) -> None:
        """A person holds at most half of a bot's games at once (at least one), and after leaving a game
        with it unplayed waits ``UNPLAYED_WAIT``.  (Per person, not per address: the people of a club
        share one; a stranger minting cookies is for accounts to stop.)"""
        now = time.monotonic()
        waits = self.registry.waits
        if len(waits) > 1000:
            for key in [k for k, until in waits.items() if until <= now]:
                del waits[key]
        until = waits.get((bot, viewer.player_id), 0.0)
        if until > now:
            raise Refused(f"your last game with {bot_name} ended before you moved: you may challenge it "
                          f"again in {math.ceil(until - now)} s")
        share = max(1, max_games // 2)
        yours = [r for r in self.hall.rooms.values() if r.status in ("open", "playing")
                 and (r.config.get("botAccount") or {}).get("player") == bot
                 and r.creator == viewer.player_id]
        if len(yours) >= share:
            raise Refused(f"{bot_name} plays {len(yours)} of its games with you already, at most {share} "
                          "at once: finish one first")

    def game_ended(self, room: Room) -> None:
        """A game has ended: if it was a challenge to a bot account that the bot took and its
        challenger left unplayed (aborted before their first move, or no move in time), the challenger
        waits before challenging that bot again."""
        target = room.config.get("botAccount") or {}
        bot_seat = target.get("seat")
        if room.status != "aborted" or bot_seat is None or room.seats[bot_seat].kind != "player":
            return
        challenger_seats = [s.seat for s in room.seats if s.seat != bot_seat and s.player_id == room.creator]
        if any(seat in room.moved for seat in challenger_seats):
            return
        self.registry.waits[(target["player"], room.creator)] = time.monotonic() + UNPLAYED_WAIT

    def send_challenge(self, room: Room, challenge: Challenge, challenger: Dict[str, Any]) -> None:
        """The stored challenge to the bot's connection; it ends if not answered in time."""
        online = self.registry.online.get(challenge.player_id)
        if online is None:
            return
        config = room.config
        online.viewer.send(wire.dumps({
            "type": "challenge", "gameId": room.slug, "variant": config.get("variant"), "tc": config.get("tc"),
            "rated": bool(config.get("rated")), "seat": challenge.seat, "secret": challenge.secret,
            "from": challenger["name"], "fromPlayer": challenger["id"],
            "fromBot": self.registry.is_bot(challenger["id"]),
            "fen": config.get("fen"), "number": config.get("number"), "moves": len(config.get("moves") or [])}))
        self._wait_for_answer(room, token_hash(challenge.secret))

    def _wait_for_answer(self, room: Room, invite_hash: str) -> None:
        self.registry.pending[room.id] = invite_hash
        try:
            asyncio.get_event_loop().call_later(ANSWER_SECONDS, self._unanswered, room.id, invite_hash)
        except RuntimeError:                    # no event loop (a hall driven by hand): the sweep expires it
            pass

    def _unanswered(self, room_id: int, invite_hash: str) -> None:
        registry: Registry = self.registry
        if registry.pending.get(room_id) != invite_hash:
            return
        del registry.pending[room_id]
        room = self.hall.rooms.get(room_id)
        if room is None or room.status != "open" or self.hall.stopping:
            return
        self.hall.spawn(self._end_unanswered(room, invite_hash))

    async def _end_unanswered(self, room: Room, invite_hash: str) -> None:
        async with room.lock:                   # the bot may be taking its seat now: looked at again
            if room.status != "open" or self.hall.stopping:
                return
            target = room.config.get("botAccount") or {}
            seat = room.seats[target.get("seat", 0)]
            if seat.kind == "invite" and seat.invite_hash == invite_hash:
                await self.hall.course.end_without_result(room, f"{target.get('name', 'The bot')} did not answer the challenge "
                                                     f"within {ANSWER_SECONDS:g} s")

    async def _reissue(self, room: Room) -> None:
        """A challenge made before a restart, sent again with a new secret to the bot now online (the
        caller holds ``room.lock``)."""
        target = room.config["botAccount"]
        secret = new_secret()
        seat = StoredSeat(target["seat"], "invite", None, None, token_hash(secret))
        await self.hall.store.set_seat(room.id, seat)
        room.seats[seat.seat] = seat
        challenger = {"id": room.creator, "name": room.names.get(room.creator, "?")}   # the creator sits: named
        self.send_challenge(room, Challenge(seat.seat, target["player"], target["name"], secret), challenger)

    def check_take(self, room: Room, seat: int, player_id: int) -> None:
        """A seat kept for a bot account is for it alone; a bot account takes no other seat."""
        target = room.config.get("botAccount") or {}
        if target and target.get("seat") == seat:
            if target.get("player") != player_id:
                raise Refused(f"this seat is kept for the bot account {target.get('name', '?')}")
        elif self.registry.is_bot(player_id):
            raise Refused("a bot account takes only the seats of challenges made to it")

    def refuse_as_person(self, player_id: Optional[int], what: str) -> None:
        """Refused: a bot account does not ``what`` (seek a game, join a tournament...)."""
        if self.registry.is_bot(player_id):
            raise Refused(f"a bot account cannot {what}: it plays challenges made to it, and challenges "
                          "other bot accounts")

    def game_started(self, room: Room) -> None:
        """A game has begun: the online bot accounts in it hear ``gameStart``."""
        registry: Registry = self.registry
        registry.pending.pop(room.id, None)
        if not registry.online:
            return
        for pid in room.people():
            online = registry.online.get(pid)
            if online is not None:
                _send_game_start(room, online.viewer, pid)

    # --------------------------------------------------------------------- what pages show
    def lobby_part(self) -> List[Dict[str, Any]]:
        """The bots online, by name: each one's rules, engine and games being played."""
        registry: Registry = self.registry
        bots = sorted(registry.online.items(), key=lambda item: names.fold(item[1].name))[:MAX_LISTED]
        out = []
        for pid, online in bots:
            info = online.info
            playing = sum(1 for r in self.hall.rooms.values() if r.status == "playing" and pid in r.people())
            out.append({"player": pid, "name": online.name, "variants": info["variants"], "minTc": info["minTc"],
                        "maxTc": info["maxTc"], "rated": info["rated"], "maxGames": info["maxGames"],
                        "engine": info["engine"], "playing": playing})
        return out

    async def player_part(self, player_id: int) -> Optional[Dict[str, Any]]:
        """A bot account's rules, since when it is one and whether it is online (None: a person)."""
        found = await self.hall.store.bot_account(player_id)
        if found is None:
            return None
        info, since = found
        owner = await self.hall.store.bot_owner(player_id)
        owner_player = await self.hall.store.player(owner) if owner is not None else None
        return dict(info, since=since, online=player_id in self.registry.online,
                    owner=owner_player and owner_player["name"])

    def mark_seats(self, seats: List[Dict[str, Any]]) -> None:
        """Seats of a game list held by bot accounts get ``botAccount: true`` (the pages' badge)."""
        for s in seats:
            if s.get("kind") == "player" and self.registry.is_bot(s.get("player")):
                s["botAccount"] = True
