"""Rated games on the server: which games count, what a finished game changes, and how ratings are
shown.  The numbers come from ``ratings`` (Glicko-2 for two-player variants, OpenSkill for 8 Player
Chess); the new ratings are written by the store in the same commit as the game's last action.

A two-player game is rated when its challenge said so, two different people played it (never a
bot, never someone against themselves; or two bot accounts, engines playing as players, but never a
person and a bot account), it began from the variant's own setup, it has a clock,
and each side made at least ``MIN_MOVES`` moves (a shorter game changes no rating: puppets resigning
at once farm nothing).  A provisional player wins at most ``ONE_OPPONENT_GAIN`` points, net, from
one opponent (a second account beaten again and again).  An 8 Player Chess game is
rated when its challenge said so and at least two people on different sides played it; bots'
seats are left out of the standing (each side is rated by its people), and a side held by one
person on several seats counts once."""
import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from . import ratings
from ..store.records import StoredRating

if TYPE_CHECKING:
    from ..rooms.room import Room
    from ..store.thread import AsyncStore

DAY = 86400.0
MIN_MOVES = 3                   # moves each side makes before a two-player game can change a rating
ONE_OPPONENT_GAIN = 200         # what a provisional player may win, net, from one opponent in a pool
LEADERBOARD_OPPONENTS = 5       # different opponents in a pool's rated games before a leaderboard lists one
QUITS_IN_A_ROW = 3              # rated games in a row resigned early, abandoned or aborted ...
COOL_DOWN = 600.0               # ... cost this many seconds without rated games (doubled for each more)


def pool_key(kind: str, config: Dict[str, Any]) -> str:
    """The rating pool of a game: "two:VARIANT" or "eight:MODE"."""
    if kind == "two":
        return f"two:{config.get('variant', 'normal')}"
    return f"eight:{config.get('mode', 'singles')}"


def pool_words(key: str) -> str:
    kind, _, name = key.partition(":")
    return name if kind == "two" else f"8 Player Chess, {name}"


def why_unrated(kind: str, config: Dict[str, Any]) -> Optional[str]:
    """Why a challenge with these settings cannot be rated (None: it can)."""
    if kind == "two":
        if config.get("fen") or config.get("moves"):
            return "a game from a set position cannot be rated"
        tc = str(config.get("tc", "none"))
        if tc == "none" or tc.startswith(("st=", "depth=")):
            return "a rated game needs a clock (minutes + increment)"
    return None


def seats_why_unrated(kind: str, seat_kinds: List[str], bot_accounts: Sequence[bool] = ()) -> Optional[str]:
    """Why a challenge with these seats cannot be rated: a rated game is played between people, or
    between bot accounts (``bot_accounts``: per seat, whether a bot account holds it; a person and
    a bot account never play a rated game), and 8 Player Chess needs the openskill package."""
    people = [k for k in seat_kinds if k in ("me", "open", "invite", "account")]
    if kind == "two" and ("bot" in seat_kinds or seat_kinds.count("me") > 1):
        return "a rated game is between two people (games against bots are never rated)"
    if any(bot_accounts) and not all(bot_accounts):
        return ("a game between a person and a bot account is never rated (bot accounts play rated games "
                "with each other)")
    if kind == "eight" and (seat_kinds.count("me") > 1 or len(people) < 2):
        return "a rated 8 Player Chess game needs at least two people, one seat each"
    if kind == "eight" and not ratings.multiplayer_available():
        return "8 Player Chess ratings need the openskill package on the server (pip install openskill)"
    return None


async def current(store: "AsyncStore", player_id: int, key: str, now: float) -> StoredRating:
    """A player's rating in a pool as it stands now (a new player's if they have none); a Glicko
    deviation grown by the days since their last rated game."""
    return aged(player_id, key, await store.rating(player_id, key), now)


def aged(player_id: int, key: str, r: Optional[StoredRating], now: float) -> StoredRating:
    """``current`` from the stored rating ``r`` (None: the player has none in this pool)."""
    if r is None:
        g, s = ratings.Glicko(), ratings.Skill()
        shown = g.rating if key.startswith("two:") else float(ratings.skill_shown(s))
        return StoredRating(player_id, key, shown, g.deviation, g.volatility, s.mu, s.sigma, 0, now)
    if key.startswith("two:"):
        g = ratings.aged(ratings.Glicko(r.rating, r.deviation, r.volatility), max(0.0, now - r.updated) / DAY)
        return r._replace(deviation=g.deviation)
    return r


def provisional(r: StoredRating) -> bool:
    if r.key.startswith("two:"):
        return ratings.provisional(ratings.Glicko(r.rating, r.deviation, r.volatility))
    return ratings.skill_provisional(ratings.Skill(r.mu, r.sigma))


def shown(r: StoredRating) -> Dict[str, Any]:
    """What pages show of a rating: the number, whether it is provisional, games played."""
    return {"rating": int(round(r.rating)), "provisional": provisional(r), "games": r.games,
            "deviation": round(r.deviation, 1)}


async def game_changes(store: "AsyncStore", room: "Room", result: Dict[str, Any]) -> Tuple[List[StoredRating], Dict[str, Any]]:
    """The rating changes a game's end makes (empty if it is not rated) and what the result keeps
    of them: ``{"key", "seats": {seat: [before, after]}}`` (or ``{"unrated": why}``)."""
    if not room.config.get("rated"):
        return [], {}
    now = time.time()
    key = pool_key(room.kind, room.config)
    if room.kind == "two":
        return await _two(store, room, result, key, now)
    return await _eight(store, room, result, key, now)


async def _two(store: "AsyncStore", room: "Room", result: Dict[str, Any], key: str,
         now: float) -> Tuple[List[StoredRating], Dict[str, Any]]:
    white, black = room.seats
    text = result.get("result")
    if white.kind != "player" or black.kind != "player" or white.player_id == black.player_id:
        return [], {"unrated": "not two people"}
    if (await store.bot_account(white.player_id) is None) != (await store.bot_account(black.player_id) is None):
        return [], {"unrated": "a person and a bot account"}
    if not {0, 1} <= room.moved:
        return [], {"unrated": "the game ended before each side moved"}
    if room.table.ply_count() < 2 * MIN_MOVES:
        return [], {"unrated": f"the game ended before each side made {MIN_MOVES} moves"}
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(text)
    if score is None:
        return [], {"unrated": "no result"}
    before = [await current(store, s.player_id, key, now) for s in (white, black)]
    glickos = [ratings.Glicko(r.rating, r.deviation, r.volatility) for r in before]
    new_white, new_black = ratings.rate_game(glickos[0], glickos[1], score)
    after = [r._replace(rating=g.rating, deviation=g.deviation, volatility=g.volatility, games=r.games + 1, updated=now)
             for r, g in zip(before, (new_white, new_black))]
    for i in (0, 1):
        if provisional(before[i]) and after[i].rating > before[i].rating:
            left = ONE_OPPONENT_GAIN - await gained_from(store, room.seats[i].player_id, room.seats[1 - i].player_id, key)
            after[i] = after[i]._replace(rating=before[i].rating + max(0.0, min(left, after[i].rating - before[i].rating)))
    return after, {"key": key, "seats": {str(i): [round(b.rating), round(a.rating)] for i, (b, a) in
                                         enumerate(zip(before, after))}}


async def gained_from(store: "AsyncStore", player_id: int, opponent: int, key: str, games: int = 200) -> float:
    """The points the player won in the pool, net, in their rated two-player games with ``opponent``
    among their last ``games`` (a loss to them takes its points off)."""
    gained = 0.0
    for stored, seats in await store.games_of(player_id, limit=games):
        changes = (stored.result or {}).get("ratings") or {}
        if stored.kind != "two" or changes.get("key") != key or len(seats) != 2:
            continue
        mine = [s.seat for s in seats if s.player_id == player_id]
        if len(mine) == 1 and any(s.seat != mine[0] and s.player_id == opponent for s in seats):
            before, after = changes.get("seats", {}).get(str(mine[0]), (0, 0))
            gained += after - before
    return gained


async def _eight(store: "AsyncStore", room: "Room", result: Dict[str, Any], key: str,
           now: float) -> Tuple[List[StoredRating], Dict[str, Any]]:
    seats = room.seats
    scores = result.get("scores") or [0] * len(seats)
    ranks = ratings.standing_ranks(scores, result.get("winners") or [], bool(result.get("draw")))
    # Sides: a team (Pairs, Teams) or a seat; each side's people and its best rank.
    sides: Dict[Any, Dict[str, Any]] = {}
    for s in seats:
        team = room.table.team_of(s.seat)
        side = sides.setdefault(("team", team) if team is not None else ("seat", s.seat), {"people": [], "rank": 99})
        side["rank"] = min(side["rank"], ranks[s.seat])
        if s.kind == "player" and s.player_id not in side["people"]:
            side["people"].append(s.player_id)
    rated = [side for side in sides.values() if side["people"]]
    everyone = [p for side in rated for p in side["people"]]
    if len(rated) < 2 or len(set(everyone)) != len(everyone):
        return [], {"unrated": "fewer than two sides of people (or one person on two sides)"}
    # A person holding several seats of one side counts once, at the side's place.
    order = sorted({side["rank"] for side in rated})
    places = [order.index(side["rank"]) + 1 for side in rated]
    before = {p: await current(store, p, key, now) for p in everyone}
    teams = [[ratings.Skill(before[p].mu, before[p].sigma) for p in side["people"]] for side in rated]
    try:
        new = ratings.rate_standing(teams, places)
    except ratings.RatingUnavailable as error:
        return [], {"unrated": str(error)}
    after: List[StoredRating] = []
    kept: Dict[str, List[int]] = {}
    for side, skills in zip(rated, new):
        for p, skill in zip(side["people"], skills):
            r = before[p]._replace(mu=skill.mu, sigma=skill.sigma, rating=float(ratings.skill_shown(skill)),
                                   deviation=skill.sigma, games=before[p].games + 1, updated=now)
            after.append(r)
    for s in seats:
        if s.kind == "player" and s.player_id in before:
            a = next(r for r in after if r.player_id == s.player_id)
            kept[str(s.seat)] = [round(before[s.player_id].rating), round(a.rating)]
    return after, {"key": key, "seats": kept}


def quit_by(stored: Any, seats: Sequence[Any], player: int) -> bool:
    """Whether the player's game ended by their quitting: aborted by them (or their first move not
    made in time), or lost (two-player) by resigning or by leaving (the opponent's claim, a bot
    winning an abandoned game)."""
    result = stored.result if isinstance(stored.result, dict) else {}
    mine = [s.seat for s in seats if s.player_id == player]
    if stored.status == "aborted":
        return bool(mine) and (result.get("by") in mine or result.get("absent") in mine)
    if stored.kind != "two" or len(mine) != 1 or result.get("result") not in ("1-0", "0-1"):
        return False
    lost = (result["result"] == "1-0") == (mine[0] == 1)
    reason = str(result.get("reason") or "").lower()
    return lost and any(word in reason for word in ("resign", "abandon", "left", "claim", "away"))


async def cool_down_left(store: "AsyncStore", player_id: int, now: float) -> float:
    """Seconds before the player may play rated games again: ``QUITS_IN_A_ROW`` rated games in a row
    that they quit (``quit_by``) cost ``COOL_DOWN`` from the end of the last, doubled for each
    further one, a day at most (0: they may now)."""
    quits, ended = 0, now
    for stored, seats in await store.games_of(player_id, limit=QUITS_IN_A_ROW + 7, aborted=True):
        if stored.status not in ("over", "aborted") or not stored.config.get("rated"):
            continue
        if not quit_by(stored, seats, player_id):
            break
        if not quits:
            ended = float((stored.result or {}).get("ended", stored.created))
        quits += 1
    if quits < QUITS_IN_A_ROW:
        return 0.0
    return max(0.0, ended + min(DAY, COOL_DOWN * 2 ** (quits - QUITS_IN_A_ROW)) - now)
