
"""Tournaments the server plays by itself: an **arena** (a fixed time; players are paired again as
soon as their game ends, by points and rating, lichess's scoring with streaks), a **Swiss** (a fixed
number of rounds, pairing within score groups, no pair twice, colours balanced, a bye for an odd
player) and **8 Player Chess rounds** (each round's tables seated from the standings, bots in the
seats nobody fills).  The pairing and scoring rules are in ``pairing``; this room keeps the
tournaments going: who has joined or withdrawn, when rounds begin, what a game's end changes.

Everything a tournament is follows from the store: its entrants, and its rounds' games and byes
(a round is written in one commit).  After a restart, or a SIGKILL in the middle of a round, the
standings are computed again from the stored games and the tournament goes on where it was.

How people come and go:
* Joining: an arena until its end; a Swiss or 8 Player tournament until its last round begins (a
  late joiner scores nothing for the rounds before).
* Withdrawing: at any time; a game being played goes on and counts; a withdrawn player is not
  paired again, and may join again under the same rule as joining.
* Arena players are paired only while one of their pages is open (the tournament's page, or the
  page of their last tournament game): closing them pauses the player.  Swiss and 8 Player rounds
  pair everyone who has not withdrawn.
* A person who makes no first move in a tournament game loses it (the game is aborted by the
  server's first-move limit, 30 s when the server has none) and is withdrawn, for good: they may
  not join it again.  A Swiss bye goes to someone who has played a game of it, if anyone can take it.
* The creator or a moderator may cancel a tournament (``cancel``): no more pairings.  Where rated
  games need accounts (``serve --rated-needs-account``), a long tournament (an arena over
  ``LONG_ARENA_MINUTES``, over ``LONG_ROUNDS`` rounds, or starting over ``LONG_WAIT_HOURS`` from now)
  is made by an account.
* An arena stops pairing at its end; games still being played then count when they finish, and the
  standings are final when the last one has.

Who may make one: a person has at most ``MAX_OWN`` tournaments waiting or running that they made,
and one network address (many cookies, or a club behind one router) at most
``MAX_OWN_PER_ADDRESS``.  The creator's address is not stored: it is kept in memory for this run
of the server only, so tournaments loaded after a restart count for no address."""
import random
import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from . import eight_pairing, pairing, rated, ratings
from ..games.tables import Refused, check_eight_player_config, check_two_player_config
from ..rooms import wire
from ..rooms.room import Room, Viewer, Watched
from ..store.records import Entrant, StoredGame, StoredSeat, StoredTournament
from .standings import ratings_now, standings, two_score

if TYPE_CHECKING:
    from ..rooms.services import HallServices

KINDS = ("arena", "swiss", "eight")
MAX_OWN = 2                       # tournaments a person may have waiting or running that they made
MAX_OWN_PER_ADDRESS = 10          # tournaments waiting or running made from one address (this run)
MAX_ENTRANTS = 500
WITHDRAWN_FOR_NOT_MOVING = 2           # an entrant's ``withdrawn``: 0 playing, 1 withdrew, 2 withdrawn by the server
LONG_ARENA_MINUTES = 120
LONG_ROUNDS = 9
LONG_WAIT_HOURS = 24


class Tournament(Watched):
    """A tournament in memory: what the store says, and the pages watching it.  Its lock is held
    while its entrants or rounds change (one pairing at a time, each from what the last one left)."""

    def __init__(self, stored: StoredTournament, entrants: List[Entrant],
                 games: List[Tuple[int, Optional[StoredGame], List[StoredSeat], Optional[int]]]) -> None:
        super().__init__()
        self.id = stored.id
        self.slug = stored.slug
        self.kind = stored.kind
        self.config = stored.config
        self.creator = stored.creator
        self.status = stored.status
        self.starts = stored.starts
        self.ended = stored.ended
        self.entrants: Dict[int, Entrant] = {e.player_id: e for e in entrants}
        # per game: round, game id, slug, seats' player ids (None: a bot), status, result
        self.games: Dict[int, Dict[str, Any]] = {}
        self.byes: List[Tuple[int, int]] = []        # (round, player)
        for round_number, game, seats, bye in games:
            if game is None:
                self.byes.append((round_number, bye))
            else:
                self.games[game.id] = {"round": round_number, "slug": game.slug, "status": game.status,
                                       "result": game.result,
                                       "seats": [s.player_id if s.kind == "player" else None for s in seats]}
        # the address it was made from, kept for this run of the server only (not in the store:
        # None for a tournament made before a restart)
        self.address: Optional[str] = None

    # ----------------------------------------------------------------- facts
    @property
    def ends(self) -> Optional[float]:
        return self.starts + 60.0 * self.config["minutes"] if self.kind == "arena" else None

    @property
    def rounds(self) -> int:
        return int(self.config.get("rounds", 0))

    def round(self) -> int:
        """The last round begun (an arena's pairings are not rounds: 0)."""
        numbers = [g["round"] for g in self.games.values()] + [r for r, _ in self.byes]
        return max(numbers) if numbers else 0

    def playing(self) -> Set[int]:
        """Entrants in a tournament game not over yet."""
        return {p for g in self.games.values() if g["status"] == "playing" for p in g["seats"] if p is not None}

    def active(self) -> List[int]:
        return [p for p, e in self.entrants.items() if not e.withdrawn]

    def not_played(self) -> Set[int]:
        """Entrants none of whose games of the tournament was played to a result (aborted games,
        byes and no games at all count as not played)."""
        played = {p for g in self.games.values() if g["status"] == "over" for p in g["seats"] if p is not None}
        return set(self.entrants) - played

    def pool(self) -> str:
        return rated.pool_key("two" if self.kind != "eight" else "eight", self.config)

    def game_kind(self) -> str:
        return "eight" if self.kind == "eight" else "two"


# --------------------------------------------------------------------- making and joining
def check_settings(data: Dict[str, Any]) -> Tuple[str, Dict[str, Any], float]:
    """A new tournament's kind, settings and start time from the page's message."""
    kind = data.get("kind")
    if kind not in KINDS:
        raise Refused("kind: arena, swiss or eight (8 Player Chess rounds)")
    name = data.get("name") or ""
    if not isinstance(name, str) or len(name) > 40 or not name.isprintable():
        raise Refused("name: up to 40 printable characters")
    is_rated = data.get("rated", False)
    if not isinstance(is_rated, bool):
        raise Refused("rated: true or false")
    if kind == "eight":
        config = check_eight_player_config({"mode": data.get("mode", "singles"), "tc": data.get("tc", "5+3")})
        if config["tc"] == "none":
            raise Refused("a tournament needs a clock")
    else:
        config = check_two_player_config({"variant": data.get("variant", "normal"), "tc": data.get("tc", "180+2")})
        if config["tc"] == "none" or not all(c.isdigit() or c in "+." for c in config["tc"]):
            raise Refused("a tournament's clock is seconds + increment, e.g. 180+2")
        config.pop("number", None)               # each game draws its own setup
    if is_rated:
        if kind == "eight" and not ratings.multiplayer_available():
            raise Refused("rated: 8 Player Chess ratings need the openskill package on the server")
        config["rated"] = True
    if kind == "arena":
        minutes = data.get("minutes", 30)
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 1 <= minutes <= 360:
            raise Refused("minutes: how long the arena lasts, 1 to 360")
        config["minutes"] = float(minutes)
    else:
        rounds = data.get("rounds", 5)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 20:
            raise Refused("rounds: 1 to 20")
        config["rounds"] = rounds
    wait = data.get("startsIn", 5)
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 <= wait <= 7 * 24 * 60:
        raise Refused("startsIn: minutes from now, 0 to a week")
    config["name"] = name.strip() or {"arena": "Arena", "swiss": "Swiss", "eight": "8 Player rounds"}[kind]
    return kind, config, time.time() + 60.0 * float(wait)


def is_long(config: Dict[str, Any], starts: float) -> bool:
    """A tournament only an account may make: a long arena, many rounds, or a start far ahead."""
    return (config.get("minutes", 0) > LONG_ARENA_MINUTES or config.get("rounds", 0) > LONG_ROUNDS
            or starts - time.time() > 3600 * LONG_WAIT_HOURS)


def may_join(t: Tournament) -> Optional[str]:
    """Why nobody may join now (None: they may)."""
    if t.status not in ("waiting", "running"):
        return "the tournament is over"
    if t.kind == "arena" and t.ends is not None and time.time() >= t.ends:
        return "the arena has ended"
    if t.kind != "arena" and t.round() >= t.rounds:
        return "the last round has begun"
    return None


def _two_config(t: Tournament, round_number: int) -> Dict[str, Any]:
    config = check_two_player_config({"variant": t.config["variant"], "tc": t.config["tc"]})
    if t.config.get("rated"):
        config["rated"] = True
    config.update(tournament=t.slug, round=round_number)
    return config


def _seat(number: int, player_id: int, names: Dict[int, str]) -> StoredSeat:
    return StoredSeat(number, "player", player_id, None, None, names.get(player_id, "?"))


def view_with(t: Tournament, lines: List[Dict[str, Any]], viewer: Optional[Viewer] = None) -> Dict[str, Any]:
    """What a tournament page shows, with the standings ``lines``."""
    pid = viewer.player_id if viewer is not None else None
    current = [{"gameId": g["slug"], "round": g["round"], "players": g["seats"],
                "names": [t.entrants[p].name if p in t.entrants else "bot" for p in g["seats"]]}
               for _, g in sorted(t.games.items()) if g["status"] == "playing"]
    mine = next((g["slug"] for _, g in sorted(t.games.items(), reverse=True)
                 if g["status"] == "playing" and pid in g["seats"]), None)
    out = {"type": "tournament", "id": t.slug, "kind": t.kind, "config": t.config, "status": t.status,
           "starts": t.starts, "ends": t.ends, "ended": t.ended, "round": t.round(), "rounds": t.rounds,
           "standings": lines, "playing": current, "creator": t.creator,
           "joinable": may_join(t) is None, "now": time.time(), "you": pid,
           "entered": pid in t.entrants and not t.entrants[pid].withdrawn, "yourGame": mine,
           "games": [{"gameId": g["slug"], "round": g["round"], "players": g["seats"], "status": g["status"],
                      "result": (g["result"] or {}).get("result") or (g["result"] or {}).get("reason")}
                     for _, g in sorted(t.games.items())][-300:],
           "byes": [{"round": r, "player": p} for r, p in t.byes]}
    return out


class Tournaments:
    """The tournaments in memory (``by_id``: those not over, and those viewed lately), their
    entrants, rounds and games."""

    def __init__(self, hall: "HallServices") -> None:
        self.hall = hall
        self.by_id: Dict[int, Tournament] = {}

    async def create(self, viewer: Viewer, data: Dict[str, Any]) -> Dict[str, Any]:
        if self.hall.policy.local:
            raise Refused("this server is one person's: tournaments are for a server with other people")
        kind, config, starts = check_settings(data)
        if is_long(config, starts) and self.hall.policy.rated_needs_account and not (
                viewer.player is not None and viewer.player.get("account")):
            raise Refused(f"an arena over {LONG_ARENA_MINUTES} minutes, a tournament of over {LONG_ROUNDS} rounds "
                          f"or one starting over {LONG_WAIT_HOURS} hours from now is made by an account: sign up or sign in")
        player = await self.hall.people.ensure_player(viewer)
        self.hall.bot_accounts.refuse_as_person(player["id"], "create a tournament")
        own = [t for t in self.by_id.values() if t.creator == player["id"] and t.status in ("waiting", "running")]
        if len(own) >= MAX_OWN:
            raise Refused(f"you have {len(own)} tournaments waiting or running (at most {MAX_OWN})")
        from_here = [t for t in self.by_id.values()
                     if t.address == viewer.address and t.status in ("waiting", "running")]
        if len(from_here) >= MAX_OWN_PER_ADDRESS:
            raise Refused(f"{len(from_here)} tournaments made from your address are waiting or running "
                          f"(at most {MAX_OWN_PER_ADDRESS})")
        stored = await self.hall.store.add_tournament(kind, config, player["id"], starts)
        t = Tournament(stored, [], [])
        t.address = viewer.address
        self.by_id[t.id] = t
        self.hall.lobby_changed()
        return {"type": "tournamentCreated", "id": t.slug, "path": f"/t/{t.slug}"}

    async def join(self, viewer: Viewer, t: Tournament) -> None:
        why = may_join(t)
        if why:
            raise Refused(why)
        if t.config.get("rated"):
            await self.hall.seating.check_rated_player(viewer)
        player = await self.hall.people.ensure_player(viewer)
        async with t.lock:                     # checked again where no pairing is being made
            why = may_join(t)
            if why:
                raise Refused(why)
            self.hall.bot_accounts.refuse_as_person(player["id"], "join a tournament")
            old = t.entrants.get(player["id"])
            if old is not None and not old.withdrawn:
                return
            if old is not None and old.withdrawn == WITHDRAWN_FOR_NOT_MOVING:
                raise Refused("you were withdrawn from this tournament for not moving in one of its games")
            if old is None and len(t.entrants) >= MAX_ENTRANTS:
                raise Refused(f"the tournament is full ({MAX_ENTRANTS} players)")
            entrant = Entrant(player["id"], player["name"], old.joined if old else time.time(), False)
            await self.hall.store.set_entrant(t.id, entrant)
            t.entrants[player["id"]] = entrant
        await self.changed(t)

    async def withdraw(self, viewer: Viewer, t: Tournament, player_id: Optional[int] = None) -> None:
        pid = player_id if player_id is not None else viewer.player_id
        async with t.lock:
            old = t.entrants.get(pid) if pid is not None else None
            if old is None or old.withdrawn:
                raise Refused("you are not playing in this tournament")
            entrant = old._replace(withdrawn=True)
            await self.hall.store.set_entrant(t.id, entrant)
            t.entrants[pid] = entrant
        await self.changed(t)

    async def cancel(self, viewer: Viewer, t: Tournament) -> None:
        """The creator (or a moderator) cancels a tournament not over: no more pairings; games being
        played go on to their end."""
        pid = viewer.player_id
        if pid is None:
            raise Refused("only the tournament's creator or a moderator can cancel it")
        if pid != t.creator:
            account = await self.hall.store.account(pid) if viewer.player.get("account") else None
            if account is None or not {"moderator", "administrator"} & set(account["roles"]):
                raise Refused("only the tournament's creator or a moderator can cancel it")
        async with t.lock:
            if t.status not in ("waiting", "running"):
                raise Refused("the tournament is over")
            await self.set_status(t, "cancelled")
        await self.changed(t, pair=False)

    async def start_now(self, viewer: Viewer, t: Tournament) -> None:
        """The creator begins a waiting tournament before its time (everyone who has joined plays)."""
        async with t.lock:
            if viewer.player_id is None or viewer.player_id != t.creator:
                raise Refused("only the tournament's creator can start it early")
            if t.status != "waiting":
                raise Refused("the tournament has begun")
            if len(t.active()) < 2:
                raise Refused("a tournament needs at least two players")
            starts = time.time()
            await self.hall.store.set_tournament_start(t.id, starts)
            t.starts = starts
        await self.changed(t)

    # --------------------------------------------------------------------- the course of a tournament
    async def changed(self, t: Tournament, pair: bool = True) -> None:
        """Something happened: pair whoever may be paired now, then show everyone.  ``pair`` False: an
        arena waits for the next sweep (a few seconds) to pair, so that a game's two players, free at
        the same moment, are not paired together again before others come free."""
        await self.advance(t, pair)
        await self.broadcast(t)
        self.hall.lobby_changed()

    async def advance(self, t: Tournament, pair: bool = True) -> None:
        """Start, pair, or finish, as the time and the games say: under the tournament's lock, so a
        sweep and a game's end at once make one round, not two."""
        async with t.lock:
            await self._advance(t, pair)

    async def _advance(self, t: Tournament, pair: bool) -> None:
        now = time.time()
        if t.status == "waiting" and now >= t.starts:
            if len(t.active()) < 2:
                await self.set_status(t, "cancelled")
                return
            await self.set_status(t, "running")
        if t.status != "running":
            return
        busy = t.playing()
        if t.kind == "arena":
            if now >= (t.ends or 0):
                if not busy:
                    await self.set_status(t, "over")
                return
            waiting = [p for p in t.active() if p not in busy and self.present(t, p)]
            if pair and len(waiting) >= 2:
                await self._pair_arena(t, waiting)
            return
        if busy:
            return                                   # the round is still being played
        if t.round() >= t.rounds or len(t.active()) < 2:
            await self.set_status(t, "over")
            return
        if t.kind == "swiss":
            await self._pair_swiss(t)
        else:
            await self._pair_eight(t)

    async def set_status(self, t: Tournament, status: str) -> None:
        ended = time.time() if status in ("over", "cancelled") else None
        await self.hall.store.set_tournament_status(t.id, status, ended)
        t.status, t.ended = status, ended

    def present(self, t: Tournament, player_id: int) -> bool:
        """An arena player counts as here while a page of theirs is open on the tournament or on one of
        its games."""
        if any(v.player_id == player_id for v in t.viewers):
            return True
        for game_id, g in t.games.items():
            if player_id in g["seats"]:
                room = self.hall.rooms.get(game_id)
                if room is not None and room.connected(player_id):
                    return True
        return False

    async def _names(self, people: List[int]) -> Dict[int, str]:
        return await self.hall.store.player_names(people)

    async def _start_games(self, t: Tournament, round_number: int,
                           games: List[Tuple[str, Dict[str, Any], List[StoredSeat]]], byes: List[int]) -> None:
        """Write the games (and byes) in one commit, then start each and send its players to it."""
        made = await self.hall.store.add_round(t.id, round_number, games, byes)
        t.byes += [(round_number, p) for p in byes]
        for stored, (_, _, seats) in zip(made, games):
            room = self.hall.new_room(stored, seats)
            async with room.lock:
                t.games[stored.id] = {"round": round_number, "slug": stored.slug, "status": "playing", "result": None,
                                      "seats": [s.player_id if s.kind == "player" else None for s in seats]}
                room.names = {s.player_id: s.name for s in seats if s.kind == "player"}
                await self.hall.seating.start_game(room)
            message = wire.dumps({"type": "paired", "gameId": stored.slug, "path": f"/g/{stored.slug}",
                                  "tournament": t.slug})
            people = {s.player_id for s in seats if s.kind == "player"}
            for v in list(t.viewers):
                if v.player_id in people:
                    v.send(message)
            for other in list(self.hall.rooms.values()):             # players still on their last game's page
                if other.config.get("tournament") == t.slug and other.id != stored.id:
                    for v in list(other.viewers):
                        if v.player_id in people:
                            v.send(message)

    async def _pair_arena(self, t: Tournament, waiting: List[int]) -> None:
        lines = {line["player"]: line for line in standings(t, await ratings_now(self.hall.store, t))}
        last: Dict[int, Optional[int]] = {}
        colours: Dict[int, int] = {}
        for _, g in sorted(t.games.items()):
            white, black = g["seats"]
            last[white], last[black] = black, white
            colours[white] = colours.get(white, 0) + 1
            colours[black] = colours.get(black, 0) - 1
        blocked = {p: set(await self.hall.moderation.blocks(p)) for p in waiting}
        pairs = pairing.arena_pairs(waiting, {p: int(lines[p]["points"]) for p in waiting},
                                    {p: lines[p]["rating"] for p in waiting}, last, colours, random.Random(),
                                    apart=lambda p, q: q in blocked[p] or p in blocked[q])
        if not pairs:
            return
        names = await self._names([p for pair in pairs for p in pair])
        games = [("two", _two_config(t, 0), [_seat(0, w, names), _seat(1, b, names)]) for w, b in pairs]
        await self._start_games(t, 0, games, [])

    async def _pair_swiss(self, t: Tournament) -> None:
        round_number = t.round() + 1
        lines = standings(t, await ratings_now(self.hall.store, t))
        history = []
        for r in range(1, round_number):
            for _, g in sorted(t.games.items()):
                if g["round"] == r:
                    history.append(pairing.Game(g["seats"][0], g["seats"][1], two_score(g)))
            history += [pairing.Game(p, None, None) for rr, p in t.byes if rr == r]
        players = [line["player"] for line in lines if not line["withdrawn"]]
        try:
            pairs, bye = pairing.swiss_round(players, {line["player"]: line["rating"] for line in lines}, history,
                                             final=round_number == t.rounds, no_bye=t.not_played())
        except pairing.NoPairing:
            await self.set_status(t, "over")        # nobody left who has not met: the tournament ends
            return
        names = await self._names(players)
        games = [("two", _two_config(t, round_number), [_seat(0, p.white, names), _seat(1, p.black, names)])
                 for p in pairs]
        await self._start_games(t, round_number, games, [bye] if bye is not None else [])

    async def _pair_eight(self, t: Tournament) -> None:
        round_number = t.round() + 1
        lines = standings(t, await ratings_now(self.hall.store, t))
        players = [line["player"] for line in lines if not line["withdrawn"]]
        tables = eight_pairing.eight_tables(players, players, round_number)
        names = await self._names(players)
        games = []
        for table in tables:
            config = check_eight_player_config({"mode": t.config["mode"], "tc": t.config["tc"]})
            if t.config.get("rated"):
                config["rated"] = True
            config.update(tournament=t.slug, round=round_number)
            seats = [_seat(n, p, names) if p is not None else StoredSeat(n, "bot", None, "xboard-engine:fast", None)
                     for n, p in enumerate(table)]
            games.append(("eight", config, seats))
        await self._start_games(t, round_number, games, [])

    async def game_ended(self, room: Room) -> None:
        """A tournament game is over (or was aborted): its result counts; a player who made no first
        move is withdrawn; the next pairings follow.  (The room's lock is held; the tournament's is
        taken after it, never the other way round.)"""
        t = await self.hall.tournament_at(room.config.get("tournament"))
        if t is None or room.id not in t.games:
            return
        async with t.lock:
            g = t.games[room.id]
            g["status"], g["result"] = room.status, room.result
            absent = (room.result or {}).get("absent")
            if room.status == "aborted" and absent is not None:
                pid = room.seats[absent].player_id
                if pid in t.entrants and t.entrants[pid].withdrawn != WITHDRAWN_FOR_NOT_MOVING:
                    entrant = t.entrants[pid]._replace(withdrawn=WITHDRAWN_FOR_NOT_MOVING)
                    await self.hall.store.set_entrant(t.id, entrant)
                    t.entrants[pid] = entrant
        await self.changed(t, pair=False)

    # --------------------------------------------------------------------- what pages see
    async def shown(self, t: Tournament) -> List[Dict[str, Any]]:
        """The standings the pages show: players marked engine or booster last, with no place."""
        marked = [p for p in t.entrants if {"engine", "booster"} & set(await self.hall.moderation.sanctions(p))]
        return standings(t, await ratings_now(self.hall.store, t), marked)

    async def view(self, t: Tournament, viewer: Optional[Viewer] = None) -> Dict[str, Any]:
        return view_with(t, await self.shown(t), viewer)

    async def broadcast(self, t: Tournament) -> None:
        if not t.viewers:
            return
        lines = await self.shown(t)                        # the ratings read once for every page
        for v in list(t.viewers):
            v.send(wire.dumps(view_with(t, lines, v)))

    def lobby_part(self) -> List[Dict[str, Any]]:
        """The tournaments the lobby lists: waiting and running ones, the soonest first."""
        out = []
        for t in sorted(self.by_id.values(), key=lambda x: x.starts):
            if t.status in ("waiting", "running"):
                out.append({"id": t.slug, "kind": t.kind, "name": t.config.get("name"), "status": t.status,
                            "starts": t.starts, "ends": t.ends, "variant": t.config.get("variant"),
                            "mode": t.config.get("mode"), "tc": t.config.get("tc"), "rated": bool(t.config.get("rated")),
                            "rounds": t.rounds, "round": t.round(), "players": len(t.active())})
        return out

    def load(self) -> int:
        """After a start, before anyone is served (the store read at once): every tournament not over,
        back in memory (its games are resumed by the hall)."""
        store = self.hall.store.sync
        for stored in store.tournaments(["waiting", "running"], limit=10000):
            self.by_id[stored.id] = Tournament(stored, store.entrants(stored.id), store.tournament_games(stored.id))
        return len(self.by_id)
