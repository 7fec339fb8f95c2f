
"""Who sits where: a new game from a challenge (any variant or 8 Player Chess; each seat the
creator's, open to anyone, kept for an invite link, or a bot), taking a seat, the start of a game,
and the limits that keep one person from holding what everyone shares: the bots' capacity is held
only by games being played, a person has at most a few challenges waiting and a few bot games
going, creates games at a bounded rate, and sits once in a game with other people (several
seats only in a game of their own, alone or with bots).  A challenge can be withdrawn, and
expires."""
import secrets
import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from . import wire
from ...multi.game import Game
from ..community import rated
from ..games.eight_player import BOT_LEVELS as EIGHT_LEVELS
from ..games.tables import TWO_LEVELS, Refused, check_eight_player_config, check_two_player_config, make_table
from ..store.records import StoredSeat
from .room import Room, Viewer, new_secret, token_hash

if TYPE_CHECKING:
    from .services import HallServices

OWN_ENGINE = "xboard-engine"
MAX_BOARDS = 5         # analysis boards a person keeps open; a new one closes the oldest
SEAT_KINDS = ("me", "open", "invite", "bot", "account")     # account: a bot account challenged (bot_accounts)
# Games a person may create: 5 at once, then one in 3 s; an address (people who mint new cookies, or
# a club behind one router): 30 at once, then one a second.
PERSON_RATE, PERSON_BURST = 1 / 3.0, 5.0
ADDRESS_RATE, ADDRESS_BURST = 1.0, 30.0


class Seating:
    """New games and their seats: creation (and the limits on it: ``creations``, what each address
    or player may still create), taking a seat, bots filling free seats, the start and cancelling."""

    def __init__(self, hall: "HallServices") -> None:
        self.hall = hall
        self.creations: Dict[str, wire.RateLimit] = {}       # address or player -> games it may create

    async def create(self, viewer: Viewer, data: Dict[str, Any]) -> Dict[str, Any]:
        """A new game from a challenge message; the reply names its page and its invite secrets."""
        kind = data.get("kind", "two")
        if kind == "two":
            config = check_two_player_config(data)
            count = 2
        elif kind == "eight":
            config = check_eight_player_config(data)
            count = 8
        else:
            raise Refused("kind: two (a two-player variant) or eight (8 Player Chess)")
        wanted = data.get("seats")
        if not isinstance(wanted, list) or len(wanted) != count:
            raise Refused(f"seats: want {count} entries, each {{kind: me, open, invite or bot}}")
        if not isinstance(data.get("rated", False), bool):
            raise Refused("rated: true or false")
        challenge = await self.hall.bot_accounts.prepare_challenge(viewer, kind, config, wanted, bool(data.get("rated")))
        if data.get("rated"):
            seat_kinds = [e.get("kind") if isinstance(e, dict) else None for e in wanted]
            why = ("this server is one person's: its games are not rated" if self.hall.policy.local else
                   rated.why_unrated(kind, config) or
                   rated.seats_why_unrated(kind, seat_kinds, self.hall.bot_accounts.seat_flags(viewer, wanted)))
            if why:
                raise Refused(f"rated: {why}")
            await self.check_rated_player(viewer)
            config["rated"] = True
        seats: List[StoredSeat] = []
        invites: List[Tuple[int, str]] = []
        player = await self.hall.people.ensure_player(viewer)
        for number, entry in enumerate(wanted):
            if not isinstance(entry, dict) or entry.get("kind") not in SEAT_KINDS:
                raise Refused(f"seat {number}: kind is one of {', '.join(SEAT_KINDS)}")
            seat_kind = entry["kind"]
            if seat_kind == "me":
                seats.append(StoredSeat(number, "player", player["id"], None, None))
            elif seat_kind == "open":
                seats.append(StoredSeat(number, "open", None, None, None))
            elif seat_kind == "invite":
                secret = new_secret()
                invites.append((number, secret))
                seats.append(StoredSeat(number, "invite", None, None, token_hash(secret)))
            elif seat_kind == "account" and challenge is not None:      # kept for the bot by its own secret
                seats.append(StoredSeat(number, "invite", None, None, token_hash(challenge.secret)))
            else:
                seats.append(StoredSeat(number, "bot", None, self._bot(kind, number, entry), None))
        mine = sum(1 for s in seats if s.kind == "player")
        if mine > 1 and any(s.kind in ("open", "invite") for s in seats):
            raise Refused("you can take one seat of a game with other people (several only in a game "
                          "of your own, alone or with bots)")
        waiting = any(s.kind in ("open", "invite") for s in seats)
        self._check_limits(viewer, player["id"], challenge=waiting, bots=not waiting and any(s.kind == "bot" for s in seats))
        listed = any(s.kind == "open" for s in seats)
        stored = await self.hall.store.add_game(kind, config, seats, player["id"], listed)
        room = self.hall.new_room(stored, seats)
        room.address = viewer.address
        async with room.lock:             # (its address is known to no one else yet)
            room.names[player["id"]] = player["name"]
            if challenge is not None:
                self.hall.bot_accounts.send_challenge(room, challenge, player)
            if not waiting:
                await self.start_game(room)
        self.hall.lobby_changed()
        await self.hall.place(room)
        return {"type": "created", "gameId": room.slug, "path": f"/g/{room.slug}",
                "invites": [{"seat": s, "label": room.table.seat_labels[s], "path": f"/g/{room.slug}#seat={s}&invite={secret}"}
                            for s, secret in invites]}

    def _bot(self, kind: str, number: int, entry: Dict[str, Any]) -> str:
        """A bot seat's engine and level as stored ("xboard-engine:medium", "fsf:")."""
        engine = entry.get("engine", OWN_ENGINE)
        if engine != OWN_ENGINE and (kind != "two" or engine not in self.hall.engines):
            names = ", ".join([OWN_ENGINE] + sorted(self.hall.engines) if kind == "two" else [OWN_ENGINE])
            raise Refused(f"no engine named {engine!r} on this server for this game (engines: {names})")
        if engine != OWN_ENGINE:
            return f"{engine}:"
        level = entry.get("level", "medium" if kind == "two" else "fast")
        levels = TWO_LEVELS if kind == "two" else EIGHT_LEVELS
        if level not in levels:
            raise Refused(f"seat {number}: no bot level {level!r} (levels: {', '.join(levels)})")
        return f"{engine}:{level}"

    # --------------------------------------------------------------------- limits
    def unfinished(self, player_id: int, boards: bool = False) -> List[Room]:
        """The games not yet over that the player plays in or made (an engine game, a challenge for
        others); their analysis boards only if ``boards`` (those have a limit of their own)."""
        mine = [r for r in self.hall.rooms.values() if r.status in ("open", "playing")
                and (player_id in r.people() or r.creator == player_id) and boards == bool(r.config.get("analysis"))]
        if self.hall.shared is not None and not boards:        # (an analysis board stays with its maker)
            mine += [g for g in self.hall.shared.elsewhere() if player_id in g.people() or g.creator == player_id]
        return mine

    def bot_games(self) -> int:
        """Games with bots being played now (a challenge still waiting for players holds no bot); with
        several processes, this process's (each has its bot workers)."""
        return sum(1 for room in self.hall.rooms.values() if room.status == "playing" and room.has_bot())

    async def check_rated_player(self, viewer: Viewer) -> None:
        """Refused unless the page may play rated games: an account signed in (or a bot account),
        where the server wants accounts for them (``serve --rated-needs-account``), and not cooling
        down after quitting rated games in a row (``rated.cool_down_left``)."""
        player = viewer.player
        if self.hall.policy.rated_needs_account and not (player is not None and (
                player.get("account") or self.hall.bot_accounts.registry.is_bot(player["id"]))):
            raise Refused("rated: rated games are for accounts: sign up or sign in (Account, at the top of the "
                          "lobby); guests play casual games")
        if player is not None:
            wait = await rated.cool_down_left(self.hall.store, player["id"], time.time())
            if wait > 0:
                raise Refused(f"rated: you resigned early, abandoned or aborted your last {rated.QUITS_IN_A_ROW} or "
                              f"more rated games in a row: rated games are open to you again in "
                              f"{max(1, round(wait / 60))} minutes (casual games now)")

    def count_creation(self, viewer: Viewer, player_id: int) -> None:
        """One more game made by this person from this page's address (a challenge, or a seek that
        pairs): refused past the rates each may create at."""
        if self.hall.policy.local:
            return
        person = self.creations.setdefault(f"player {player_id}", wire.RateLimit(PERSON_RATE, PERSON_BURST))
        address = self.creations.setdefault(viewer.address, wire.RateLimit(ADDRESS_RATE, ADDRESS_BURST))
        if not person.allow():
            raise Refused("you are creating games too fast: wait a few seconds")
        if not address.allow():
            raise Refused("too many games are being created from your address: wait a few seconds")

    def _check_limits(self, viewer: Viewer, player_id: int, challenge: bool, bots: bool) -> None:
        policy = self.hall.policy
        self.count_creation(viewer, player_id)
        games = self.unfinished(player_id)
        if len(games) >= policy.max_games_each:
            raise Refused(f"you have {len(games)} unfinished games: finish, resign or cancel some first")
        if challenge:
            waiting = [r for r in games if r.status == "open" and r.creator == player_id]
            if len(waiting) >= policy.max_challenges:
                raise Refused(f"you have {len(waiting)} challenges waiting for players (at most "
                              f"{policy.max_challenges}): cancel one or wait for it to be taken")
        if bots:
            self.check_bot_room(player_id)

    def check_bot_room(self, player_id: Optional[int]) -> None:
        """A game with bots may begin now: the pool has room, and the person is not at their share."""
        if self.bot_games() >= self.hall.pool.max_games:
            raise Refused(f"the server is at capacity: {self.hall.pool.max_games} games with bots are being played; "
                          "try again later or play a person")
        if player_id is not None:
            mine = [r for r in self.unfinished(player_id) if r.status == "playing" and r.has_bot()]
            if len(mine) >= self.hall.policy.max_bot_games_each:
                raise Refused(f"you play {len(mine)} games with bots already (at most "
                              f"{self.hall.policy.max_bot_games_each} at once): finish one first")

    # --------------------------------------------------------------------- seats
    async def take_seat(self, viewer: Viewer, room: Room, seat: Any, secret: Any) -> None:
        """A page takes a seat (the caller holds ``room.lock``)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
            raise Refused(f"no seat {seat!r}")
        s = room.seats[seat]
        if s.kind == "player":
            if s.player_id == viewer.player_id:
                return
            raise Refused(f"{room.table.seat_labels[seat]} is taken")
        if room.status != "open":
            raise Refused("the game was aborted" if room.status == "aborted" else "the game is over")
        if s.kind == "bot":
            raise Refused(f"{room.table.seat_labels[seat]} is a bot's seat")
        if s.kind == "invite":
            if not isinstance(secret, str) or not s.invite_hash or \
                    not secrets.compare_digest(token_hash(secret), s.invite_hash):
                raise Refused("this seat is kept for an invited player: the invite link is wrong or used")
        if room.config.get("rated"):
            await self.check_rated_player(viewer)
        player = await self.hall.people.ensure_player(viewer)
        self.hall.bot_accounts.check_take(room, seat, player["id"])
        for other in {x.player_id for x in room.seats if x.player_id is not None}:
            if await self.hall.moderation.apart(player["id"], other):
                raise Refused("a block keeps you and a player of this game apart")
        if room.owned_by(player["id"]):
            raise Refused("you already play in this game (one seat a person where others play)")
        if len(self.unfinished(player["id"])) >= self.hall.policy.max_games_each:
            raise Refused("you have too many unfinished games: finish, resign or cancel some first")
        last = all(x.kind in ("player", "bot") for i, x in enumerate(room.seats) if i != seat)
        if last and room.has_bot():
            self.check_bot_room(player["id"])
        taken = StoredSeat(seat, "player", player["id"], None, None)
        await self.hall.store.set_seat(room.id, taken)
        room.seats[seat] = taken
        room.names[player["id"]] = player["name"]
        if last:
            await self.start_game(room)
        viewer.send(wire.dumps(self.hall.hello(room, viewer)))
        room.broadcast()
        self.hall.room_changed(room)

    async def bots_take_free_seats(self, room: Room) -> None:
        """An 8 Player table whose creator let bots fill it: after the stated wait, the seats still free
        (open or kept for an invite) become bots of the fast level and the game begins, if the bots'
        capacity allows (else it is tried again at the next sweep).  The caller holds ``room.lock``."""
        try:
            self.check_bot_room(None)
        except Refused:
            return
        for s in room.seats:
            if s.kind in ("open", "invite"):
                bot = StoredSeat(s.seat, "bot", None, f"{OWN_ENGINE}:fast", None)
                await self.hall.store.set_seat(room.id, bot)
                room.seats[s.seat] = bot
        room.table = make_table(room.kind, room.config, room.players(), room.id)
        await self.start_game(room)
        room.broadcast()
        self.hall.lobby_changed()

    async def analysis_board(self, viewer: Viewer, room: Room, ply: Any) -> Dict[str, Any]:
        """A person's own board from a position of a finished game (its start and its first ``ply``
        moves; 8 Player Chess: actions): every seat theirs, no clock, not listed, engine lines on
        request.  A person keeps ``MAX_BOARDS`` open (not counted among their unfinished games): a new
        one closes the oldest.  The finished game is only read (its lock is not taken); the boards
        closed are, each under its own lock."""
        if room.status not in ("over", "aborted"):
            raise Refused("an analysis board opens once the game is over")
        count = room.table.ply_count()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= count:
            raise Refused(f"ply: 0 to {count}")
        if room.kind == "eight":
            game = room.table.game.game.to_dict()          # type: ignore[attr-defined]
            game["actions"] = game["actions"][:ply]
            if Game.from_dict(game).over:
                raise Refused("the game is over in that position: choose an earlier one")
            config: Dict[str, Any] = {"mode": game["mode"], "options": game["options"], "tc": "none",
                                      "seed": game["seed"], "replay": game, "analysis": True}
        else:
            g = room.table.game                            # type: ignore[attr-defined]
            config = {"variant": g.variant, "tc": "none", "number": None, "fen": g.start_fen, "analysis": True}
            if ply:
                config["moves"] = list(g.moves[:ply])
        player = await self.hall.people.ensure_player(viewer)
        self.hall.bot_accounts.refuse_as_person(player["id"], "open an analysis board")
        self._check_limits(viewer, player["id"], challenge=False, bots=False)
        boards = sorted(self.unfinished(player["id"], boards=True), key=lambda r: r.id)
        for old in boards[:max(0, len(boards) - MAX_BOARDS + 1)]:     # the oldest make room for the new one
            async with old.lock:
                if old.status in ("open", "playing"):
                    await self.hall.course.end_without_result(old, f"closed: at most {MAX_BOARDS} analysis boards are kept "
                                                        "open a person")
        seats = [StoredSeat(s, "player", player["id"], None, None) for s in range(room.table.seat_count)]
        stored = await self.hall.store.add_game(room.kind, config, seats, player["id"], False)
        board = self.hall.new_room(stored, seats)
        async with board.lock:
            board.names[player["id"]] = player["name"]
            await self.start_game(board)
        return {"type": "created", "gameId": board.slug, "path": f"/g/{board.slug}", "invites": []}

    async def start_game(self, room: Room) -> None:
        """Every seat is filled: the players' names are kept for the record, the clocks start; a
        player not here yet is away from now.  The caller holds ``room.lock``."""
        names = {s.seat: room.names.get(s.player_id, "?") for s in room.seats if s.kind == "player"}
        await self.hall.store.start_game(room.id, names)
        room.seats = [s._replace(name=names[s.seat]) if s.seat in names else s for s in room.seats]
        room.status = "playing"
        room.table.restart_clock()
        now = time.monotonic()
        room.turn_since = now
        for s in room.seats:
            if s.kind == "player" and not room.connected(s.player_id):
                room.away_since.setdefault(s.player_id, now)
        self.hall.course.next_turn(room)
        self.hall.bot_accounts.game_started(room)
        self.hall.started(room)

    async def cancel(self, viewer: Viewer, room: Room) -> None:
        """The creator withdraws a challenge no one has taken up yet (its invite links die with it).
        The caller holds ``room.lock``."""
        if room.creator is None or room.creator != viewer.player_id:
            raise Refused("only the game's creator can cancel it")
        if room.status != "open":
            raise Refused("the game has begun: abort it before your first move, or resign")
        await self.hall.course.end_without_result(room, "The challenge was withdrawn")
