"""What players say in a game: the chat (everyone's, or a partner's or team's in 8 Player Pairs
and Teams; stored before it is sent) and the board arrows (to the partner or team, else private).
A partner's or team's words reach only people whose every seat is on that team: someone who sits
on two sides of a game of their own has no private channel.  A moderator's sanctions hold here
(``moderation.py``): a timed-out or muted person's line is refused, a troll's is stored on a
channel of its own that only the troll reads, and the lines of people a block keeps apart are not
shown to each other."""
import time
from typing import TYPE_CHECKING, Any, Dict

from . import wire
from ..games.tables import Refused
from ..store.records import ChatLine
from .room import Room, Viewer

if TYPE_CHECKING:
    from ..store.thread import AsyncStore
    from ..identity.moderation import Moderation
    from ..identity.people import People


def may_read(room: Room, viewer: Viewer, channel: str) -> bool:
    if channel == "all":
        return True
    if channel.startswith("troll:"):
        return viewer.player_id is not None and channel == f"troll:{viewer.player_id}"
    team = int(channel.split(":", 1)[1])
    return room.team_of_player(viewer.player_id) == team


async def chat(store: "AsyncStore", people: "People", moderation: "Moderation", viewer: Viewer, room: Room,
               text: Any, channel: Any) -> None:
    """A chat line, stored, then sent (the caller holds ``room.lock``: a page opening meanwhile gets
    the line once, in the chat it is sent on opening or after)."""
    if not viewer.chats.allow():
        raise Refused("too many chat lines: wait a moment")
    text = wire.check_chat(text)
    if channel not in ("all", "team"):
        raise Refused("channel: all or team")
    player = await people.ensure_player(viewer)
    troll = await moderation.chat_channel(player["id"], None if player.get("account") else viewer.address) == "troll"
    apart = set(await moderation.blocks(player["id"]))
    owned = room.owned_by(player["id"])
    stored_channel = f"troll:{player['id']}" if troll else "all"
    if channel == "team" and not troll:
        team = room.team_of_player(player["id"])
        if team is None:
            raise Refused("a partner or team chat is for the players of one side of 8 Player Pairs and Teams")
        stored_channel = f"team:{team}"
    line = ChatLine(0, room.id, player["id"], owned[0] if owned else None, stored_channel, player["name"],
                    text, time.time())
    line = line._replace(id=await store.add_chat(line))
    message = wire.dumps(chat_message(line))
    if troll:
        for v in list(room.viewers):
            if v.player_id == player["id"]:
                v.send(message)
    elif apart:
        for v in list(room.viewers):
            if v.player_id not in apart and may_read(room, v, stored_channel):
                v.send(message)
    elif stored_channel == "all":
        room.broadcast(message)
    else:
        room.send_team(int(stored_channel.split(":")[1]), viewer, message)


def arrows(viewer: Viewer, room: Room, arrows: Any) -> None:
    """A player's arrows (pairs of square names): to the partner or team in 8 Player Pairs and
    Teams, else only to the player's own pages."""
    owned = room.owned_by(viewer.player_id)
    if not owned:
        raise Refused("arrows are for the players")
    names = set(room.table.square_names())
    if not isinstance(arrows, list) or len(arrows) > 32 or not all(
            isinstance(a, list) and len(a) == 2 and all(isinstance(x, str) and len(x) <= 4 for x in a)
            for a in arrows):
        raise Refused("arrows: want at most 32 [from, to] square pairs")
    if not all(x in names for a in arrows for x in a):
        raise Refused("arrows: unknown square")
    room.arrows[viewer.player_id] = (owned[0], arrows)
    room.send_team(room.team_of_player(viewer.player_id), viewer,
                   wire.dumps({"type": "arrows", "seat": owned[0], "arrows": arrows}))


def send_arrows_to(room: Room, viewer: Viewer) -> None:
    """A page that opens gets the arrows it may see: its player's own and their team's."""
    team = room.team_of_player(viewer.player_id)
    for pid, (seat, drawn) in room.arrows.items():
        if pid == viewer.player_id or (team is not None and room.team_of_player(pid) == team):
            viewer.send(wire.dumps({"type": "arrows", "seat": seat, "arrows": drawn}))


def chat_message(line: ChatLine) -> Dict[str, Any]:
    return {"type": "chat", "id": line.id, "channel": "team" if line.channel.startswith("team:") else "all",
            "name": line.name, "player": line.player_id, "seat": line.seat, "text": line.text, "at": line.at}
