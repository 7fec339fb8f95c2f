"""Messages in and out of the live server: a page's JSON text checked (size, depth, shape) before
the hall sees it, the per-connection rate limit, and the text checks for names and chat.

The protocol (JSON objects with a ``type``; every refusal is ``{"type": "error", "message"}`` and
changes nothing):

Lobby, ``/ws/lobby``.  Server: ``hello`` (you, variants, engines, twoLevels, eightLevels, twoClocks,
eightClocks, modes, options, maxBotGames, setups: the random-setup variants' setup counts,
eightSeats: the 8 Player seats' colour, letter, fill, partner, team), ``lobby`` (challenges,
playing, finished: each id, kind, variant, mode, tc, seats, free, plies, result), ``you`` (after a
name), ``created`` (gameId, path, invites: seat, label, path with ``#seat=N&invite=SECRET``).  Page: ``name`` (name), ``create``
(kind "two": variant, tc, number, fen; kind "eight": mode, options, tc; seats: one entry per seat,
``{"kind": "me" | "open" | "invite" | "bot", "level", "engine"}``).

Game, ``/ws/g/ID``.  Server: ``hello`` (gameId, kind, config, info: the board's geometry and
pictures, you, yourSeats, openSeats, seatLabels, grace, teams), ``state`` (the table's view, as
the local board's state, plus gameId, status open/playing/over, online: each seat's label, kind,
name, connected; watchers; clockValues), ``chat`` (id, channel all/team, name, seat, text, at),
``arrows`` (seat, arrows: [from, to] pairs), ``you``.  Page: ``take`` (seat, secret for an invite
seat), ``move`` (move, seat optional), ``resign``, ``offer`` and ``draw`` (accept) in two-player
games, ``claim`` (two-player: the opponent away past the grace time; 8 Player: the 26-point
claim), ``chat`` (text, channel all or team), ``arrows`` (arrows), ``name``.
"""
import json
import re
import time
from typing import Any, Dict

MAX_MESSAGE_BYTES = 16 * 1024       # a move, a chat line or a challenge is far less
MAX_NAME = 24
MAX_CHAT = 300
MARKUP = re.compile(r"<\s*[a-zA-Z/!?]|&[#a-zA-Z0-9]+;|javascript:", re.IGNORECASE)
NAME_CHARS = re.compile(r"[\w .'\-()]+")


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


def check_name(name: Any) -> str:
    """A display name: 1..24 letters, digits, spaces and . ' - ( ); no markup."""
    if not isinstance(name, str):
        raise BadMessage("name: want text")
    name = " ".join(name.split())
    if not name:
        raise BadMessage("name: empty")
    if len(name) > MAX_NAME:
        raise BadMessage(f"name: at most {MAX_NAME} characters")
    if MARKUP.search(name) or not NAME_CHARS.fullmatch(name):
        raise BadMessage("name: letters, digits, spaces and . ' - ( ) only (no markup)")
    return name


def check_chat(text: Any) -> str:
    """A chat line: plain text, 1..300 characters, no markup (pages show it as text in any case)."""
    if not isinstance(text, str):
        raise BadMessage("chat: want text")
    text = " ".join(text.split())
    if not text:
        raise BadMessage("chat: empty")
    if len(text) > MAX_CHAT:
        raise BadMessage(f"chat: at most {MAX_CHAT} characters")
    if MARKUP.search(text):
        raise BadMessage("chat: plain text only (no markup)")
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
