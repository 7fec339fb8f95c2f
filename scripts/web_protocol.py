"""Writes docs/WEB_PROTOCOL.md from the browser protocol's tables (xboard_engine/web/rooms/messages.py):

    python scripts/web_protocol.py > docs/WEB_PROTOCOL.md

tests/test_web_protocol.py fails when the page and the tables differ."""
import os
import sys
from typing import List

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from xboard_engine.web.rooms.messages import PAGE, SERVER, SOCKETS, Message  # noqa: E402

INTRODUCTION = """# The browser protocol

The pages of `xboard-engine serve` (and `web`) talk to the server over three WebSockets. Every
message, in both directions, is a JSON object with a text `type`. This page is written from the
protocol's tables, `xboard_engine/web/rooms/messages.py`, by `python scripts/web_protocol.py >
docs/WEB_PROTOCOL.md`; a test fails when the two differ, and the tests' client checks every message
the server sends against the tables.

- **Checks.** A page's message is at most 16 KB of JSON nested at most 8 deep. Its type must be
  one of its socket's below, and each field it gives (`null` counts as not given) of the kind shown;
  the handler then checks the values (ranges, names, whose turn it is). Fields not listed are
  ignored.
- **Refusals.** Any refused message gets one reply, `{"type": "error", "message": "..."}` saying
  why, and changes nothing. A connection sends at most 10 messages a second on average (30 at once):
  past that each message is refused ("too many messages: slow down"), and after 100 such refusals
  the connection is closed. So is text: a connection sends at most 64 KiB of it at once and 8 KiB a
  second after that, the connections of one address 512 KiB and 64 KiB a second between them, and a
  message past that is refused unread ("too much text sent: slow down", a refusal like the others).
  Chat lines have a rate of their own (one in 2 s, 5 at once).
- **Games** are named by their address, `gameId`: the SLUG of `/g/SLUG`.
- **States.** The first `state` a game page gets is whole; the later ones leave out the lists that
  only grow with the game (two-player: fens, sans, lastSquares; 8 Player: moves, log) and carry
  `history` instead: per list, how many entries the page keeps of those it had and the entries after
  them (`xboard_engine.web.rooms.wire.whole_state` makes a state whole).
- **Bot accounts** use the lobby socket too: [BOT_PROTOCOL.md](BOT_PROTOCOL.md) tells a bot's whole
  conversation.
"""

TITLES = {"lobby": "The lobby", "game": "A game", "tournament": "A tournament"}


def _entries(messages: List[Message], locked_note: bool) -> List[str]:
    lines = []
    for m in messages:
        about = m.about + (" (run under the game's lock)" if locked_note and m.locked else "")
        lines.append(f"- **`{m.type}`**: {about}.")
        lines += [f"  - `{f.name}` ({f.kind}): {f.about}" for f in m.fields]
    return lines


def page() -> str:
    out = [INTRODUCTION]
    for socket, path in SOCKETS.items():
        out.append(f"## {TITLES[socket]}: `{path}`\n")
        out.append("### What the page sends\n")
        out += _entries(list(PAGE[socket].values()), socket == "game")
        out.append("\n### What the server sends\n")
        out += _entries(list(SERVER[socket].values()), False)
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(page())
