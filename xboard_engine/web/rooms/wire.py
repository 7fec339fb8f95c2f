"""Messages in and out of the server: a page's JSON text checked (size, depth, shape) before the
hall sees it, the per-connection rate limit, and the chat text check.

The protocol (JSON objects with a ``type``; every refusal is ``{"type": "error", "message"}`` and
changes nothing).  Games are named by their address, ``gameId`` (the SLUG of ``/g/SLUG``).

Lobby, ``/ws/lobby``.  Server: ``hello`` (you, variants, engines, twoLevels, eightLevels, twoClocks,
eightClocks, modes, options, maxBotGames, setups: the random-setup variants' setup counts,
eightSeats: the 8 Player seats' colour, letter, fill, partner, team; local: one person's server;
limits), ``lobby`` (challenges: the newest open ones first, with their total; playing, finished:
each gameId, kind, variant, mode, tc, seats, free, plies, result, created; mine: your unfinished
games), ``you`` (after a name), ``created`` (gameId, path, invites: seat, label, path with
``#seat=N&invite=SECRET``).  Page: ``name`` (name), ``create`` (kind "two": variant, tc, number,
fen or pgn; kind "eight": mode, options, tc; seats: one entry per seat, ``{"kind": "me" | "open" |
"invite" | "bot" | "account", "level", "engine", "name"}``; rated: true or false; 8 Player:
botsAfter, seconds), ``cancel`` (gameId: a challenge of yours), ``seek`` (variant, tc, rated, min,
max: the opponent's rating range; answered by ``seeking`` (seek: its id) or ``paired`` (gameId,
path)), ``accept`` (seek: a seek in the list), ``unseek`` (seek, or none: all yours),
``tournament`` (kind arena/swiss/eight, name, variant or mode, tc, rated, minutes or rounds,
startsIn; answered by ``tournamentCreated``), and for bot accounts ``bot`` and ``decline``
(docs/BOT_PROTOCOL.md).  The ``lobby`` message also carries seeks, seekCount, seekCounts (per
"variant tc rated|casual"), quickClocks, tournaments and bots.

Game, ``/ws/g/SLUG``.  Server: ``hello`` (gameId, kind, config, info: the board's geometry and
pictures, you, yourSeats, openSeats, seatLabels, grace, firstMove, creator, solo, local, teams),
``state`` (the table's view, as the board pages draw it, plus gameId, status open/playing/over/
aborted, online: each seat's label, kind, name, player, connected; watchers: the people looking;
clockValues; offers: takeback (the asking seat), rematch (seats asking), next (the rematch's
gameId); abortable: seats that may still abort; outcome: why an aborted game ended),
``thinking`` (seat, depth, score, pv, engine: an engine's line, to watchers and to a person
playing only engines), ``chat`` (id, channel all/team, name, player, seat, text, at), ``arrows``
(seat, arrows: [from, to] pairs), ``you``.  Page: ``take`` (seat, secret for an invite seat),
``cancel``, ``move`` (move, seat optional), ``resign``, ``abort``, ``offer`` and ``draw`` (accept)
in two-player games, ``takeback`` (ask or accept), ``rematch`` (ask or accept), ``decline`` (what:
draw, takeback or rematch), ``claim`` (two-player: the opponent away past the grace time; 8
Player: the 26-point claim), ``chat`` (text, channel all or team), ``arrows`` (arrows), ``name``;
in a finished game ``analyse`` (the computer analysis: the server answers ``analysis``,
status queued/running/done with its data), ``lines`` (ply: the engine's lines on that position,
streamed as ``lines`` messages, also on one's own analysis board), ``board`` (ply: one's own
analysis board from there; answered by ``created``) and, in 8 Player Chess, ``position`` (ply: the
board after that many actions; answered by ``position``: pieces, lastMove, check, turn, scores).  The state also carries rated and
ratingChanges (seats: [before, after], or unrated: why).  A tournament's game has ``config.tournament``.
The first state a page gets is whole; the later ones leave out the lists that only grow with the
game (two-player: fens, sans, lastSquares; 8 Player: moves, log) and carry ``history`` instead: per list, how
many entries the page keeps of those it had and the entries after them (``whole_state``).

Tournament, ``/ws/t/SLUG``.  Server: ``tournament`` (its settings, status waiting/running/over/
cancelled, starts, ends, round, rounds, standings, playing, games, byes, entered, yourGame),
``paired`` (gameId, path: your next game; also sent to your page of the last game).  Page: ``join``,
``withdraw``, ``start`` (the creator, before the start time), ``name``.
"""
import json
import time
from typing import Any, Dict, Optional

from ..community.names import clean_chat

MAX_MESSAGE_BYTES = 16 * 1024       # a move, a chat line or a challenge is far less
MAX_CHAT = 300


class BadMessage(ValueError):
    """A message refused before it reached a game (the text says why)."""


def parse(text: str) -> Dict[str, Any]:
    """A page's message as a dict with a text ``type``; BadMessage otherwise (too long, not JSON,
    nested too deeply, not an object)."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too long ({len(text)} characters; at most {MAX_MESSAGE_BYTES})")
    if _depth(text) > 8:
        raise BadMessage("message nested too deeply")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("a message is JSON text") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage('a message is a JSON object with a "type"')
    return data


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a cheap bound before parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def check_chat(text: Any) -> str:
    """A chat line: 1..300 characters of text (shown as text, so "a<b" is fine), without the
    invisible controls that would reorder what it shows."""
    if not isinstance(text, str):
        raise BadMessage("chat: want text")
    text = clean_chat(text)
    if not text:
        raise BadMessage("chat: empty")
    if len(text) > MAX_CHAT:
        raise BadMessage(f"chat: at most {MAX_CHAT} characters")
    return text


class RateLimit:
    """A token bucket: ``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def dumps(message: Dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def whole_state(state: Dict[str, Any], last: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """A ``state`` message made whole from the last one a page had: its ``history`` (each list's
    kept length and new entries) applied to the last state's lists.  None if the page lacks what
    it should have kept (it must then open the game again for the whole state)."""
    history = state.pop("history", None)
    if history is None:
        return state
    for key, (kept, tail) in history.items():
        had = (last or {}).get(key)
        if had is None or len(had) < kept:
            return None
        state[key] = had[:kept] + tail
    return state
