"""Messages in and out of the server: a page's JSON text checked (size, depth, shape) before the
hall sees it, the per-connection rate limit, the chat text check, and states made whole.  The
messages themselves, every type and field in both directions, are declared in ``messages.py``
(docs/WEB_PROTOCOL.md is written from it); ``dispatch.py`` routes them."""
import json
import time
from typing import Any, Dict, Optional

from ..identity.names import clean_chat

MAX_MESSAGE_BYTES = 16 * 1024       # a move, a chat line or a challenge is far less
MAX_DEPTH = 8                       # brackets nested in a message at most
# What a connection, and all connections of one address, may send: characters a second on average,
# and at once (a page's messages are tens of characters; a loaded game's challenge a few thousand).
CONNECTION_RATE, CONNECTION_BURST = 8 * 1024, 64 * 1024
ADDRESS_RATE, ADDRESS_BURST = 64 * 1024, 512 * 1024
MAX_CHAT = 300


class BadMessage(ValueError):
    """A message refused before it reached a game (the text says why)."""


def parse(text: str) -> Dict[str, Any]:
    """A page's message as a dict with a text ``type``; BadMessage otherwise (too long, not JSON,
    nested too deeply, not an object)."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too long ({len(text)} characters; at most {MAX_MESSAGE_BYTES})")
    if _depth(text) > MAX_DEPTH:
        raise BadMessage("message nested too deeply")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("a message is JSON text") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage('a message is a JSON object with a "type"')
    return data


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a cheap bound before parsing: about 0.3 ms
    for the longest message under CPython)."""
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
                if deepest > MAX_DEPTH:
                    break
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

    def allow(self, cost: float = 1.0) -> bool:
        """Whether an event of ``cost`` tokens may happen now (then they are spent)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def full(self) -> bool:
        """Whether the bucket has refilled: nothing spent lately."""
        return min(self.burst, self.tokens + (time.monotonic() - self.last) * self.rate) >= self.burst


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
