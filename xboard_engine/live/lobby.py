"""The lobby: what a new challenge may say (any variant or 8 Player Chess; each seat the creator's,
open to anyone, kept for an invite link, or a bot), the games listed on the lobby page, and what a
game page needs to draw its board."""
from functools import lru_cache
from typing import Any, Dict, List, Tuple

from ..multi.game import MODES, OPTION_NAMES, Game
from ..variant import get_variant, variant_names
from ..web.eight_game import BOT_LEVELS as EIGHT_LEVELS, board_hello
from .hall import Hall
from .room import Viewer, new_secret, token_hash
from .store import StoredGame, StoredSeat
from .tables import (EIGHT_PLAYER_CLOCKS, TWO_LEVELS, TWO_PLAYER_CLOCKS, Refused, check_eight_player_config,
                     check_two_player_config)

OWN_ENGINE = "xboard-engine"
SEAT_KINDS = ("me", "open", "invite", "bot")


def lobby_hello(hall: Hall, viewer: Viewer) -> Dict[str, Any]:
    """The lobby page's first message: who you are and what a challenge may be."""
    return {"type": "hello", "you": viewer.player, "variants": variant_names(),
            "engines": [OWN_ENGINE] + sorted(hall.engines),
            "twoLevels": [{"name": k, "words": w} for k, (w, _, _) in TWO_LEVELS.items()],
            "eightLevels": [{"name": k, "words": w} for k, (w, _) in EIGHT_LEVELS.items()],
            "twoClocks": TWO_PLAYER_CLOCKS, "eightClocks": EIGHT_PLAYER_CLOCKS, "modes": list(MODES),
            "options": [{"name": n, "help": h, "modes": list(m)} for n, (h, m) in OPTION_NAMES.items()],
            "maxBotGames": hall.pool.max_games, "setups": _setups(), "eightSeats": _eight_seats()}


def _setups() -> Dict[str, int]:
    """Each random-setup variant's number of setups (the others have one)."""
    return {name: get_variant(name).setup_count for name in variant_names() if get_variant(name).setup != "fixed"}


@lru_cache(maxsize=1)
def _eight_seats() -> List[Dict[str, Any]]:
    """The 8 Player seats as the create form names them: colour, fill, partner, team."""
    return board_hello(Game("singles", {}).v)["seats"]


def create(hall: Hall, viewer: Viewer, data: Dict[str, Any]) -> Dict[str, Any]:
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
    seats: List[StoredSeat] = []
    invites: List[Tuple[int, str]] = []
    player = None
    for number, entry in enumerate(wanted):
        if not isinstance(entry, dict) or entry.get("kind") not in SEAT_KINDS:
            raise Refused(f"seat {number}: kind is one of {', '.join(SEAT_KINDS)}")
        seat_kind = entry["kind"]
        if seat_kind == "me":
            if player is not None and kind == "two":
                raise Refused("you can take one seat of a two-player game")
            player = hall.ensure_player(viewer)
            seats.append(StoredSeat(number, "player", player["id"], None, None))
        elif seat_kind == "open":
            seats.append(StoredSeat(number, "open", None, None, None))
        elif seat_kind == "invite":
            secret = new_secret()
            invites.append((number, secret))
            seats.append(StoredSeat(number, "invite", None, None, token_hash(secret)))
        else:
            engine = entry.get("engine", OWN_ENGINE)
            if engine != OWN_ENGINE and (kind != "two" or engine not in hall.engines):
                names = ", ".join([OWN_ENGINE] + sorted(hall.engines) if kind == "two" else [OWN_ENGINE])
                raise Refused(f"no engine named {engine!r} on this server for this game (engines: {names})")
            if engine != OWN_ENGINE:
                seats.append(StoredSeat(number, "bot", None, f"{engine}:", None))
                continue
            level = entry.get("level", "medium" if kind == "two" else "fast")
            levels = TWO_LEVELS if kind == "two" else EIGHT_LEVELS
            if level not in levels:
                raise Refused(f"seat {number}: no bot level {level!r} (levels: {', '.join(levels)})")
            seats.append(StoredSeat(number, "bot", None, f"{engine}:{level}", None))
    if all(s.kind == "bot" for s in seats):
        raise Refused("a game needs at least one seat for a person")
    if any(s.kind == "bot" for s in seats) and bot_games(hall) >= hall.pool.max_games:
        raise Refused(f"the server is at capacity: {hall.pool.max_games} games with bots are being played; "
                      "try again later or play a person")
    game_id = hall.store.add_game(kind, config, seats)
    room = hall.room(game_id)
    assert room is not None
    if all(s.kind in ("player", "bot") for s in seats):
        hall.start_game(room)
    if hall.on_lobby_change:
        hall.on_lobby_change()
    return {"type": "created", "gameId": game_id, "path": f"/g/{game_id}",
            "invites": [{"seat": s, "label": room.table.seat_labels[s], "path": f"/g/{game_id}#seat={s}&invite={secret}"}
                        for s, secret in invites]}


def bot_games(hall: Hall) -> int:
    return sum(1 for room in hall.rooms.values() if room.status in ("open", "playing") and not room.table.over
               and any(s.kind == "bot" for s in room.seats))


def _entry(hall: Hall, stored: StoredGame) -> Dict[str, Any]:
    room = hall.rooms.get(stored.id)
    entry: Dict[str, Any] = {"id": stored.id, "kind": stored.kind, "tc": stored.config.get("tc"),
                             "variant": stored.config.get("variant") if stored.kind == "two" else "8 Player Chess",
                             "mode": stored.config.get("mode")}
    if room is not None:
        entry["seats"] = room.seat_view()
        entry["free"] = [s.seat for s in room.seats if s.kind == "open"]
        entry["plies"] = room.table.ply_count()
    else:                         # a finished game out of memory: its players from the store
        seats = hall.store.seats(stored.id)
        names = hall.store.player_names([s.player_id for s in seats if s.player_id is not None])
        labels = ["White", "Black"] if stored.kind == "two" else [s["colour"] for s in _eight_seats()]
        entry["seats"] = [{"seat": s.seat, "label": labels[s.seat], "kind": s.kind,
                           "name": names.get(s.player_id, "?") if s.kind == "player"
                           else hall.bot_words(stored.kind, s.bot) if s.kind == "bot" else None}
                          for s in seats]
    if stored.result:
        entry["result"] = stored.result.get("result") or stored.result.get("reason")
    return entry


def lobby_view(hall: Hall) -> Dict[str, Any]:
    """Open challenges (a seat free for anyone), games in progress, recent finished games."""
    open_games = [g for g in hall.store.games("open", limit=200)]
    challenges = [_entry(hall, g) for g in open_games]
    challenges = [c for c in challenges if c.get("free")]
    playing = [_entry(hall, g) for g in hall.store.games("playing", limit=200)]
    finished = [_entry(hall, g) for g in hall.store.games("over", limit=30)]
    return {"type": "lobby", "challenges": challenges, "playing": playing, "finished": finished}


def your_games(hall: Hall, viewer: Viewer) -> List[Dict[str, Any]]:
    """The unfinished games where the viewer has a seat (an invite-only challenge is listed
    nowhere else until it starts)."""
    pid = viewer.player_id
    if pid is None:
        return []
    out = []
    for room in sorted(hall.rooms.values(), key=lambda r: r.id):
        if room.status in ("open", "playing") and room.owned_by(pid):     # from memory: no database read
            entry = _entry(hall, StoredGame(room.id, room.kind, room.config, room.status, 0.0, None, None))
            entry["status"] = room.status
            out.append(entry)
    return out
