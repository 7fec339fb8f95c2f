
"""Seeks: "I want a game of this variant at this clock, rated or casual, against someone rated
between these numbers".  A seek is matched at once with the oldest compatible seek waiting, and
the two people's game begins (colours drawn at random); else it waits in the lobby, where anyone
may take it, until its page closes or its owner withdraws it.  A person has at most
``MAX_SEEKS`` seeks waiting (a seek like one they have replaces it) and never meets themselves;
the guests' lobby pages of one network address (many cookies, or a club behind one router) have at
most ``MAX_SEEKS_PER_ADDRESS`` waiting between them (an account's are its own).  Seeks live in memory only: a seek is a person
waiting at a page, and a restart closes the page."""
import itertools
import random
import time
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Tuple

from . import rated
from ..games.tables import Refused, check_two_player_config
from ..rooms import wire
from ..rooms.room import Viewer
from ..store.records import StoredSeat

if TYPE_CHECKING:
    from ..rooms.services import HallServices

MAX_SEEKS = 3
MAX_SEEKS_PER_ADDRESS = 20         # seeks waiting whose lobby page came from one address
# The quick-pairing buttons' clocks (seconds + increment): the lobby shows how many wait for each.
QUICK_CLOCKS = ["60+0", "180+2", "300+3", "600+5", "900+10", "1800+20"]


class Seek(NamedTuple):
    id: str
    viewer: Viewer              # the lobby page that waits (the seek ends when it closes)
    player_id: int
    name: str
    variant: str
    tc: str
    rated: bool
    low: Optional[int]          # the opponent's rating at least / at most (None: any)
    high: Optional[int]
    rating: int                 # the seeker's rating in the variant now
    provisional: bool
    created: float

    def pool(self) -> Tuple[str, str, bool]:
        return self.variant, self.tc, self.rated

    def accepts(self, rating: int) -> bool:
        return (self.low is None or rating >= self.low) and (self.high is None or rating <= self.high)


def _bound(value: Any, what: str) -> Optional[int]:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 4000:
        raise Refused(f"{what}: a rating from 0 to 4000, or nothing")
    return int(value)


def _compatible(waiting: Seek, new: Seek) -> bool:
    return (waiting.pool() == new.pool() and waiting.player_id != new.player_id
            and waiting.accepts(new.rating) and new.accepts(waiting.rating))


class SeekBoard:
    """The seeks waiting (the oldest first), and the pairing of new ones with them."""

    def __init__(self, hall: "HallServices") -> None:
        self.hall = hall
        self.waiting: List[Seek] = []
        self._numbers = itertools.count(1)      # the seeks' ids: s1, s2, ...

    async def seek(self, viewer: Viewer, data: Dict[str, Any]) -> None:
        """A new seek from the lobby: paired now if a compatible one waits, else added to the lobby.
        The store is read first (the player, their rating); from the choice of a partner to the
        seeks' removal nothing waits, so two seeks never take the same partner."""
        if self.hall.policy.local:
            raise Refused("this server is one person's: create a game instead")
        config = check_two_player_config({"variant": data.get("variant", "normal"), "tc": data.get("tc", "300+3")})
        is_rated = data.get("rated", False)
        if not isinstance(is_rated, bool):
            raise Refused("rated: true or false")
        if config["tc"] == "none" or config["tc"].startswith(("st=", "depth=")):
            raise Refused("a seek needs a clock (minutes + increment)")
        if "/" in config["tc"]:
            raise Refused("a seek's clock is seconds + increment, e.g. 300+3")
        if is_rated:
            await self.hall.seating.check_rated_player(viewer)
        low, high = _bound(data.get("min"), "min"), _bound(data.get("max"), "max")
        if low is not None and high is not None and low > high:
            raise Refused("min is above max: no one could match")
        player = await self.hall.people.ensure_player(viewer)
        self.hall.bot_accounts.refuse_as_person(player["id"], "seek a game")
        if len(self.hall.seating.unfinished(player["id"])) >= self.hall.policy.max_games_each:
            raise Refused("you have too many unfinished games: finish, resign or cancel some first")
        now = time.time()
        key = rated.pool_key("two", config)
        mine = await rated.current(self.hall.store, player["id"], key, now)
        new = Seek(f"s{next(self._numbers)}", viewer, player["id"], player["name"], config["variant"], config["tc"],
                   bool(is_rated), low, high, int(round(mine.rating)), rated.provisional(mine), now)
        apart = set(await self.hall.moderation.blocks(player["id"]))      # (read before the choice: nothing waits after it)
        partner = next((s for s in self.waiting if _compatible(s, new) and s.player_id not in apart), None)
        if partner is not None:
            # a game made by a seek counts as one its maker created (else puppets pairing their seeks
            # made games many times faster than ``create`` lets anyone)
            self.hall.seating.count_creation(viewer, new.player_id)
            await self._pair(partner, new)
            return
        same = [s for s in self.waiting if s.player_id == new.player_id]
        for old in same:
            if old.pool() == new.pool():
                self.waiting.remove(old)
                same.remove(old)
                break
        if len(same) >= MAX_SEEKS:
            raise Refused(f"you have {len(same)} seeks waiting (at most {MAX_SEEKS}): withdraw one first")
        # Guests share their address's seeks; an account has its own three (puppet cookies filling
        # an address's share do not keep a club's members behind the same router from seeking).
        if not player.get("account"):
            from_here = [s for s in self.waiting if s.viewer.address == viewer.address
                         and not (s.viewer.player or {}).get("account")]
            if len(from_here) >= MAX_SEEKS_PER_ADDRESS:
                raise Refused(f"{len(from_here)} guests' seeks from your address are waiting (at most "
                              f"{MAX_SEEKS_PER_ADDRESS}): withdraw one first, or sign in")
        self.waiting.append(new)
        viewer.send(wire.dumps({"type": "seeking", "seek": new.id}))
        self.hall.lobby_changed()

    async def accept(self, viewer: Viewer, data: Dict[str, Any]) -> None:
        """Take a seek shown in the lobby: a seek of the same kind with no rating range, paired at once."""
        target = next((s for s in self.waiting if s.id == data.get("seek")), None)
        if target is None:
            raise Refused("that seek is gone (taken or withdrawn)")
        player = await self.hall.people.ensure_player(viewer)
        if target.player_id == player["id"]:
            raise Refused("that seek is yours")
        key = rated.pool_key("two", {"variant": target.variant})
        mine = await rated.current(self.hall.store, player["id"], key, time.time())
        if not target.accepts(int(round(mine.rating))):
            raise Refused(f"that seek wants an opponent rated {target.low or 0}-{target.high or '…'}")
        await self.seek(viewer, {"variant": target.variant, "tc": target.tc, "rated": target.rated})

    def withdraw(self, viewer: Viewer, data: Dict[str, Any]) -> None:
        """Withdraw one of your seeks (``seek``: its id), or all of them (no id)."""
        wanted = data.get("seek")
        gone = [s for s in self.waiting if s.player_id == viewer.player_id and (wanted is None or s.id == wanted)]
        if wanted is not None and not gone:
            raise Refused("no such seek of yours")
        for s in gone:
            self.waiting.remove(s)
        if gone:
            self.hall.lobby_changed()

    def page_closed(self, viewer: Viewer) -> None:
        """A lobby page closed: its seeks go with it."""
        before = len(self.waiting)
        self.waiting[:] = [s for s in self.waiting if s.viewer is not viewer]
        if len(self.waiting) != before:
            self.hall.lobby_changed()

    async def _pair(self, waiting: Seek, new: Seek) -> None:
        """The two seekers' game, begun now; both pages are sent to it.  The seeks leave the lobby
        before the store is written."""
        self.waiting.remove(waiting)
        for s in [s for s in self.waiting if s.player_id in (waiting.player_id, new.player_id) and s.pool() == new.pool()]:
            self.waiting.remove(s)
        config = check_two_player_config({"variant": new.variant, "tc": new.tc})
        if new.rated:
            config["rated"] = True
        config["seek"] = True
        people = [waiting, new]
        random.shuffle(people)
        seats = [StoredSeat(i, "player", s.player_id, None, None) for i, s in enumerate(people)]
        stored = await self.hall.store.add_game("two", config, seats, None, True)
        room = self.hall.new_room(stored, seats)
        async with room.lock:
            room.names = {s.player_id: s.name for s in people}
            await self.hall.seating.start_game(room)
        await self.hall.place(room)
        message = wire.dumps({"type": "paired", "gameId": room.slug, "path": f"/g/{room.slug}"})
        for s in people:
            s.viewer.send(message)
        self.hall.lobby_changed()

    def lobby_part(self) -> Dict[str, Any]:
        """What the lobby shows of the seeks: each waiting seek, and how many wait per variant and clock."""
        counts: Dict[str, int] = {}
        for s in self.waiting:
            k = f"{s.variant} {s.tc} {'rated' if s.rated else 'casual'}"
            counts[k] = counts.get(k, 0) + 1
        return {"seeks": [{"id": s.id, "player": s.player_id, "name": s.name, "rating": s.rating,
                           "provisional": s.provisional, "variant": s.variant, "tc": s.tc, "rated": s.rated,
                           "min": s.low, "max": s.high} for s in self.waiting[:100]],
                "seekCount": len(self.waiting), "seekCounts": counts, "quickClocks": QUICK_CLOCKS}
