
"""The lists people find games in: the lobby (open challenges; games being played, the newest
first; recent games; your own) and a player's page (their games and results per variant).
A game that is not open to anyone (invite links, bots, a player's own) is listed only to the
people in it.

Open challenges are listed so that no one floods them (issue 52): those of accounts in good
standing (no sanction in force) first, then the others; within each, every address's newest
challenge before anyone's second, and so on (one address's cookies share its turn), the newest
first among equals.  A page may ask for them filtered (variant, speed, rated or casual) and paged
(``challenges``)."""
import asyncio
import time
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ...core.variant import get_variant, variant_names
from ...multi.game import MODES, OPTION_NAMES, Game
from ..community import rated
from ..community.ratings import PROVISIONAL_DEVIATION, SKILL_PROVISIONAL_SIGMA
from ..games.eight_player import BOT_LEVELS as EIGHT_LEVELS, board_hello
from ..games.tables import EIGHT_PLAYER_CLOCKS, LOCAL_CLOCKS, TWO_LEVELS, TWO_PLAYER_CLOCKS, Refused
from ..store.records import StoredGame, StoredSeat
from ..identity.moderation import REASONS as REPORT_REASONS
from .room import Room, Viewer
from .seating import OWN_ENGINE

if TYPE_CHECKING:
    from .services import HallServices

SHOWN = 50              # challenges and games in progress listed at most (the newest), and a page's
FINISHED_SHOWN = 30
STANDING_SECONDS = 30.0  # how long a creator's good standing is taken as read
SPEEDS = ("bullet", "blitz", "rapid", "classical", "untimed")


def speed_of(kind: str, tc: Any) -> str:
    """A clock's speed as lichess names them, by its expected length (base + 40 increments):
    bullet under 3 minutes, blitz under 8, rapid under 25, else classical; untimed without a clock."""
    text = str(tc or "none")
    try:
        base, _, inc = text.partition("+")
        seconds = float(base) * (60 if kind == "eight" else 1) + 40 * float(inc or 0)
    except ValueError:
        return "untimed" if text == "none" or text.startswith(("st=", "depth=")) else "classical"
    return "bullet" if seconds < 180 else "blitz" if seconds < 480 else "rapid" if seconds < 1500 else "classical"


def _setups() -> Dict[str, int]:
    """Each random-setup variant's number of setups (the others have one)."""
    return {name: get_variant(name).setup_count for name in variant_names() if get_variant(name).setup != "fixed"}


@lru_cache(maxsize=1)
def _eight_seats() -> List[Dict[str, Any]]:
    """The 8 Player seats as the create form names them: colour, fill, partner, team."""
    return board_hello(Game("singles", {}).v)["seats"]


def seat_labels(kind: str) -> List[str]:
    return ["White", "Black"] if kind == "two" else [s["colour"] for s in _eight_seats()]


def _count(results: Dict[str, Dict[str, int]], stored: StoredGame, seats: List[StoredSeat], player_id: int) -> None:
    held = [s.seat for s in seats if s.player_id == player_id]
    if not held or stored.result is None:
        return
    if stored.kind == "two":
        name = stored.config.get("variant", "?")
        if len(held) > 1:                               # a game with oneself counts once, as played
            outcome = "played"
        else:
            text = stored.result.get("result")
            won = "1-0" if held[0] == 0 else "0-1"
            outcome = "drawn" if text == "1/2-1/2" else "won" if text == won else "lost"
    else:
        name = f"8 Player Chess, {stored.config.get('mode', '?')}"
        winners = stored.result.get("winners") or []
        outcome = "drawn" if stored.result.get("draw") else "won" if set(held) & set(winners) else "lost"
    row = results.setdefault(name, {"won": 0, "drawn": 0, "lost": 0, "played": 0})
    row["played"] += 1
    if outcome != "played":
        row[outcome] += 1


# --------------------------------------------------------------------- leaderboards
LEADERS = 50


def _established(key: str) -> float:
    return PROVISIONAL_DEVIATION if key.startswith("two:") else SKILL_PROVISIONAL_SIGMA


class Lobby:
    """What the lobby, a person's own games, a player's page and the leaderboards show."""

    def __init__(self, hall: "HallServices") -> None:
        self.hall = hall
        self._standing: Dict[int, Tuple[bool, float]] = {}     # creator -> (in good standing, when read)

    def lobby_hello(self, viewer: Viewer) -> Dict[str, Any]:
        """The lobby page's first message: who you are and what a challenge may be."""
        policy = self.hall.policy
        return {"type": "hello", "you": viewer.player, "variants": variant_names(),
                "engines": [OWN_ENGINE] + sorted(self.hall.engines),
                "twoLevels": [{"name": k, "words": w} for k, (w, _, _) in TWO_LEVELS.items()],
                "eightLevels": [{"name": k, "words": w} for k, (w, _) in EIGHT_LEVELS.items()],
                "twoClocks": LOCAL_CLOCKS if policy.local else TWO_PLAYER_CLOCKS,
                "eightClocks": EIGHT_PLAYER_CLOCKS, "modes": list(MODES),
                "options": [{"name": n, "help": h, "modes": list(m)} for n, (h, m) in OPTION_NAMES.items()],
                "maxBotGames": self.hall.pool.max_games, "setups": _setups(), "eightSeats": _eight_seats(),
                "local": policy.local,
                "limits": {"challenges": policy.max_challenges, "botGames": policy.max_bot_games_each,
                           "challengeMinutes": policy.challenge_minutes, "firstMove": policy.first_move}}

    def entry(self, stored: StoredGame, seats: Optional[List[StoredSeat]] = None) -> Dict[str, Any]:
        """A game as the lists show it (``seats``: read from the store, for a game not in memory)."""
        room = self.hall.rooms.get(stored.id)
        out: Dict[str, Any] = {"gameId": stored.slug, "kind": stored.kind, "tc": stored.config.get("tc"),
                               "variant": stored.config.get("variant") if stored.kind == "two" else "8 Player Chess",
                               "mode": stored.config.get("mode"), "created": stored.created, "status": stored.status,
                               "rated": bool(stored.config.get("rated")), "botsAfter": stored.config.get("botsAfter")}
        if room is not None:
            out["seats"] = room.seat_view()
            out["free"] = [s.seat for s in room.seats if s.kind == "open"]
            out["plies"] = room.table.ply_count()
            result = room.result
        else:                         # a finished game out of memory: its players from the store
            seats = seats or []
            labels = seat_labels(stored.kind)
            out["seats"] = [{"seat": s.seat, "label": labels[s.seat], "kind": s.kind, "player": s.player_id,
                             "name": s.name or "?" if s.kind == "player"
                             else self.hall.bot_words(stored.kind, s.bot) if s.kind == "bot" else None}
                            for s in seats]
            result = stored.result
        self.hall.bot_accounts.mark_seats(out["seats"])
        if result:
            out["result"] = result.get("result") or result.get("reason")
            out["winners"] = result.get("winners")
            out["draw"] = result.get("draw")
        return out

    def _room_entry(self, room: Room) -> Dict[str, Any]:
        return self.entry(StoredGame(room.id, room.kind, room.config, room.status, room.created, room.result, None,
                                      room.slug, room.creator, room.listed))

    async def lobby_view(self) -> Dict[str, Any]:
        """Open challenges with a seat free for anyone (the newest first), games in progress (the
        newest first), recent finished games: only games open to everyone.  The store is read first
        (the finished games, and the seats of those not in memory); the rest is memory as it is then."""
        finished = await self.hall.store.games("over", limit=FINISHED_SHOWN, listed_only=True)
        seats: Dict[int, List[StoredSeat]] = {}
        away = [g.id for g in finished if g.id not in self.hall.rooms]
        while away:                               # (again for a game that left memory meanwhile)
            seats.update(zip(away, await asyncio.gather(*[self.hall.store.seats(game_id) for game_id in away])))
            away = [g.id for g in finished if g.id not in self.hall.rooms and g.id not in seats]
        games = self._unfinished()
        challenges = await self._ordered_challenges(games)
        playing = [g for g in games if g[1].status == "playing" and g[1].listed]
        return {"type": "lobby", "challenges": [self._entry_of(g) for g in challenges[:SHOWN]],
                "challengeCount": len(challenges),
                "playing": [self._entry_of(g) for g in playing[:SHOWN]], "playingCount": len(playing),
                "finished": [self.entry(g, seats.get(g.id)) for g in finished], "tournaments": self.hall.tournaments.lobby_part(),
                "bots": self.hall.bot_accounts.lobby_part(), **self.hall.seek_board.lobby_part()}

    async def challenges_page(self, data: Dict[str, Any]) -> Dict[str, Any]:
        """A page's ``challenges`` request: the open challenges of a variant, speed and kind
        (rated, casual; each optional), in the lobby's order, ``SHOWN`` a page."""
        variant, speed, kind, page = data.get("variant") or "", data.get("speed") or "", data.get("rated") or "", data.get("page") or 0
        if variant and variant not in variant_names() + ["8 Player Chess"]:
            raise Refused(f"variant: one of {', '.join(variant_names())} or 8 Player Chess")
        if speed and speed not in SPEEDS:
            raise Refused(f"speed: one of {', '.join(SPEEDS)}")
        if kind and kind not in ("rated", "casual"):
            raise Refused('rated: "rated" or "casual"')
        if not 0 <= page <= 1000:
            raise Refused("page: 0 to 1000")
        found = []
        for game in await self._ordered_challenges(self._unfinished()):
            stored = game[1]
            name = stored.config.get("variant") if stored.kind == "two" else "8 Player Chess"
            if (not variant or name == variant) and (not speed or speed_of(stored.kind, stored.config.get("tc")) == speed) \
                    and (not kind or bool(stored.config.get("rated")) == (kind == "rated")):
                found.append(game)
        return {"type": "challenges", "challenges": [self._entry_of(g) for g in found[page * SHOWN:(page + 1) * SHOWN]],
                "count": len(found), "page": page, "pages": max(1, -(-len(found) // SHOWN)),
                "filter": {"variant": variant, "speed": speed, "rated": kind}}

    async def _ordered_challenges(self, games: List[Any]) -> List[Any]:
        """The open challenges among ``games`` in the lobby's order (the module's docstring)."""
        challenges = [g for g in games if g[1].status == "open" and g[1].listed and any(s.kind == "open" for s in g[2])]
        turns: Dict[Any, int] = {}
        keyed = []
        for game in challenges:                   # (newest first already)
            room, stored = game[0], game[1]
            group = getattr(room, "address", None) or f"player {stored.creator}"
            turn = turns[group] = turns.get(group, -1) + 1
            keyed.append(((0 if await self._in_good_standing(stored.creator) else 1, turn, -stored.created), game))
        keyed.sort(key=lambda k: k[0])
        return [game for _, game in keyed]

    async def _in_good_standing(self, player_id: Optional[int]) -> bool:
        """An account with no sanction in force (read again after ``STANDING_SECONDS``)."""
        if player_id is None:
            return False
        now = time.monotonic()
        known = self._standing.get(player_id)
        if known is None or now - known[1] > STANDING_SECONDS:
            if len(self._standing) > 20000:
                self._standing.clear()
            good = await self.hall.store.account(player_id) is not None and \
                not await self.hall.moderation.sanctions(player_id)
            known = self._standing[player_id] = (good, now)
        return known[0]

    def _unfinished(self) -> List[Any]:
        """The games not over, the newest first: (room or None, game, seats), the rooms in memory
        here and (several processes) the games other processes host, as the lobby's process last read
        them."""
        games: List[Any] = [(r, r, r.seats) for r in self.hall.rooms.values() if r.status in ("open", "playing")]
        if self.hall.shared is not None:
            games += [(None, g, seats) for g, seats in self.hall.shared.directory.values() if g.id not in self.hall.rooms]
        games.sort(key=lambda g: -g[1].created)
        return games

    def _entry_of(self, game: Any) -> Dict[str, Any]:
        room, stored, seats = game
        return self._room_entry(room) if room is not None else self.entry(stored, seats)

    def your_games(self, viewer: Viewer) -> List[Dict[str, Any]]:
        """The unfinished games where the viewer has a seat or that they made (an invite-only
        challenge is listed nowhere else until it starts)."""
        pid = viewer.player_id
        if pid is None:
            return []
        out = []
        for game in self._unfinished():
            if game[1].creator == pid or any(s.kind == "player" and s.player_id == pid for s in game[2]):
                item = self._entry_of(game)
                item["creator"] = game[1].creator == pid
                out.append(item)
        return out

    # --------------------------------------------------------------------- a player's page
    async def player_page(self, player_id: int, viewer_id: Optional[int]) -> Optional[Dict[str, Any]]:
        """A player's name, games (those listed to everyone, and all of them to the player) and results
        per variant (two-player: won, drawn, lost; 8 Player Chess per mode: won, drawn, lost, points)."""
        player = await self.hall.store.player(player_id)
        if player is None:
            return None
        played, pools_read, history_read, bot = await asyncio.gather(
            self.hall.store.games_of(player_id, limit=400), self.hall.store.ratings_of(player_id),
            self.hall.store.rating_history(player_id), self.hall.bot_accounts.player_part(player_id))
        games, results = [], {}          # type: List[Dict[str, Any]], Dict[str, Dict[str, int]]
        for stored, seats in played:
            if stored.status in ("over",) and stored.result:
                _count(results, stored, seats, player_id)
            if stored.listed or viewer_id == player_id:
                item = self.entry(stored, seats)
                item["seatsHeld"] = [s.seat for s in seats if s.player_id == player_id]
                games.append(item)
        now = time.time()
        pools = [dict(rated.shown(rated.aged(player_id, r.key, r, now)), key=r.key,
                      words=rated.pool_words(r.key)) for r in pools_read]
        history = [{"key": h.key, "at": h.at, "rating": round(h.rating), "game": h.game_id}
                   for h in history_read]
        account, held = await asyncio.gather(self.hall.store.account(player_id),
                                             self.hall.moderation.sanctions(player_id))
        marked = bool({"engine", "booster"} & set(held))
        if marked:                           # a marked player's ratings are not shown
            pools, history = [], []
        return {"id": player["id"], "name": player["name"], "since": player["created"],
                "account": account is not None, "roles": account["roles"] if account else [],
                "closed": account["closed"] if account else None, "marked": marked,
                "reasons": list(REPORT_REASONS),
                "ratings": pools, "history": history,
                "playing": [g for g in games if g["status"] in ("open", "playing")][:100],
                "finished": [g for g in games if g["status"] == "over"][:100], "results": results,
                "you": viewer_id == player_id, "bot": bot}

    async def leaderboards(self, key: Optional[str] = None, keys: Optional[List[str]] = None) -> Dict[str, Any]:
        """The rating pools that have ratings, and one pool's best players: established ratings only,
        of players with ``rated.LEADERBOARD_OPPONENTS`` different opponents or more (a provisional
        rating, or one won from a few accounts, is not listed).  Without ``key``: every pool's top
        ten.  ``keys``: the pools, if already read."""
        if keys is None:
            keys = await self.hall.store.rating_keys()
        now = time.time()
        chosen = [key] if key else keys
        read = await asyncio.gather(*[self.hall.store.leaderboard(k, LEADERS if key else 10, _established(k),
                                                                 rated.LEADERBOARD_OPPONENTS) for k in chosen])
        boards = []
        for k, board in zip(chosen, read):
            rows = []
            for r, name in board:
                rows.append(dict(rated.shown(rated.aged(r.player_id, k, r, now)), player=r.player_id, name=name))
            boards.append({"key": k, "words": rated.pool_words(k), "players": rows})
        return {"pools": [{"key": k, "words": rated.pool_words(k)} for k in keys], "boards": boards,
                "rule": f"Listed: established ratings of players who have played {rated.LEADERBOARD_OPPONENTS} "
                        "different opponents or more in rated games."}
