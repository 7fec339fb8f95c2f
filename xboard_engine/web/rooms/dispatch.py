"""The one table that routes each page message (``messages.PAGE``) to its handler, and the path
every message takes to it: the connection's rate, the JSON checks (``wire.parse``), the declared
kinds (``messages.check``), then the handler; a refusal is one ``error`` reply and changes nothing."""
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict

from . import messages, talk, wire
from ...core.errors import RulesError
from ..games.tables import Refused
from .room import Viewer
from .shared import Elsewhere

if TYPE_CHECKING:
    from .hall import Hall

# A handler: (hall, viewer, what the socket is about: None, the Room or the Tournament, the message).
Handler = Callable[["Hall", Viewer, Any, Dict[str, Any]], Awaitable[None]]


async def _name(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
    await hall.accounts.rename(viewer, data.get("name"))
    viewer.send(wire.dumps({"type": "you", "you": viewer.player}))


# ------------------------------------------------------------------ the lobby
async def _create(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
    viewer.send(wire.dumps(await hall.seating.create(viewer, data)))


async def _cancel_challenge(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
    try:
        room = await hall.room_at(data.get("gameId"))
    except Elsewhere:                   # a challenge another process hosts: it is told
        await hall.shared.cancel(data.get("gameId"), viewer.player_id)
        return
    if room is None:
        raise Refused("no such game")
    async with room.lock:
        await hall.seating.cancel(viewer, room)


async def _unseek(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
    hall.seek_board.withdraw(viewer, data)


async def _tournament(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
    viewer.send(wire.dumps(await hall.tournaments.create(viewer, data)))


async def _challenges(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
    viewer.send(wire.dumps(await hall.lobby.challenges_page(data)))


def _lobby(method: Callable[["Hall"], Callable[[Viewer, Dict[str, Any]], Awaitable[None]]]) -> Handler:
    """A lobby message handled by a method of one of the hall's services (``method`` picks it)."""
    async def handler(hall: "Hall", viewer: Viewer, place: Any, data: Dict[str, Any]) -> None:
        await method(hall)(viewer, data)
    return handler


# ------------------------------------------------------------------ a game
async def _act(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    """move, resign, claim."""
    move = data.get("move") or ""
    if data["type"] == "move" and (not move.strip() or len(move) > 40):
        raise Refused("move: want the move's text, e.g. e2e4")
    await hall.act(viewer, room, data["type"], move.strip() if data["type"] == "move" else "", data.get("seat"))


async def _take(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    await hall.seating.take_seat(viewer, room, data.get("seat"), data.get("secret"))


async def _withdraw_challenge(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    await hall.seating.cancel(viewer, room)


async def _chat(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    await talk.chat(hall.store, hall.people, hall.moderation, viewer, room, data.get("text"), data.get("channel") or "all")


async def _arrows(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    talk.arrows(viewer, room, data.get("arrows"))


async def _analyse(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    await hall.analyst.request(viewer, room)


async def _lines(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    hall.analyst.lines(viewer, room, data.get("ply"))


async def _position(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    await hall.analyst.position(viewer, room, data.get("ply"))


async def _board(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
    """A finished game's position as one's own analysis board: read, not changed."""
    viewer.send(wire.dumps(await hall.seating.analysis_board(viewer, room, data.get("ply"))))


# ------------------------------------------------------------------ a tournament
def _entrant(method: Callable[["Hall"], Callable[[Viewer, Any], Awaitable[None]]]) -> Handler:
    async def handler(hall: "Hall", viewer: Viewer, t: Any, data: Dict[str, Any]) -> None:
        await method(hall)(viewer, t)
    return handler


# ------------------------------------------------------------------ an offer (a game's message)
def _offer(method: Callable[["Hall"], Callable[[Viewer, Any, Dict[str, Any]], Awaitable[None]]]) -> Handler:
    async def handler(hall: "Hall", viewer: Viewer, room: Any, data: Dict[str, Any]) -> None:
        await method(hall)(viewer, room, data)
    return handler


ROUTES: Dict[str, Dict[str, Handler]] = {
    "lobby": {"name": _name, "create": _create, "cancel": _cancel_challenge,
              "seek": _lobby(lambda hall: hall.seek_board.seek),
              "accept": _lobby(lambda hall: hall.seek_board.accept), "unseek": _unseek,
              "challenges": _challenges,
              "tournament": _tournament, "bot": _lobby(lambda hall: hall.bot_accounts.register),
              "decline": _lobby(lambda hall: hall.bot_accounts.decline)},
    "game": dict({"name": _name, "take": _take, "cancel": _withdraw_challenge, "move": _act, "resign": _act,
                  "claim": _act, "chat": _chat, "arrows": _arrows, "analyse": _analyse, "lines": _lines,
                  "board": _board, "position": _position,
                  "offer": _offer(lambda hall: hall.offers.offer_draw), "draw": _offer(lambda hall: hall.offers.accept_draw),
                  "decline": _offer(lambda hall: hall.offers.decline), "takeback": _offer(lambda hall: hall.offers.takeback),
                  "rematch": _offer(lambda hall: hall.offers.rematch), "abort": _offer(lambda hall: hall.offers.abort)}),
    "tournament": {"name": _name, "join": _entrant(lambda hall: hall.tournaments.join),
                   "withdraw": _entrant(lambda hall: hall.tournaments.withdraw),
                   "start": _entrant(lambda hall: hall.tournaments.start_now),
                   "cancel": _entrant(lambda hall: hall.tournaments.cancel)},
}


async def handle(hall: "Hall", viewer: Viewer, socket: str, place: Any, text: str) -> None:
    """One message from a page of ``socket`` ("lobby", "game" or "tournament"; ``place``: None, the
    game's Room or the Tournament).  A game's message that changes it runs under the room's lock,
    so its checks and its store write see the room as no one else changes it meanwhile."""
    try:
        if not viewer.messages.allow():
            viewer.refusals += 1
            raise wire.BadMessage("too many messages: slow down")
        # characters are paid for before the message is looked at: by the connection, and by all of
        # its address's connections together
        if not viewer.characters.allow(len(text)) or not hall.characters_from(viewer.address).allow(len(text)):
            viewer.refusals += 1
            raise wire.BadMessage(f"too much text sent: slow down (at most {wire.CONNECTION_RATE // 1024} KiB a "
                                  f"second from a page, {wire.ADDRESS_RATE // 1024} KiB from an address)")
        data = wire.parse(text)
        message = messages.check(socket, data)
        handler = ROUTES[socket][message.type]
        if message.locked:
            async with place.lock:
                await handler(hall, viewer, place, data)
        else:
            await handler(hall, viewer, place, data)
    except (wire.BadMessage, Refused, RulesError) as error:
        viewer.send(wire.dumps({"type": "error", "message": str(error)}))
