"""The live server's HTTP side (the one room that knows aiohttp): pages, the player cookie, the
Host and Origin checks, per-address connection caps, and the WebSockets of the lobby and of each
game, whose messages go to the hall."""
import asyncio
import gc
import os
import secrets
from typing import Any, Dict, Optional, Set

from aiohttp import WSCloseCode, WSMsgType, web

from ..web.pictures import add_picture_routes
from . import wire
from .hall import Hall, Viewer
from .lobby import create, lobby_hello, lobby_view, your_games
from .tables import Refused

STATIC = os.path.join(os.path.dirname(os.path.dirname(__file__)), "web", "static")
COOKIE = "xbe_player"
SEND_QUEUE = 256          # messages waiting for a slow page before it is dropped
MAX_REFUSALS = 100        # refused messages before a connection is closed (a flood)


class Gate:
    """Who may come in: the Host names and page Origins of this server, connections per address."""

    def __init__(self, hosts: Set[str], origins: Set[str], secure: bool, per_address: int,
                 proxies: Optional[Set[str]] = None) -> None:
        self.hosts = hosts
        self.proxies = proxies or set()
        self.origins = origins
        self.secure = secure
        self.per_address = per_address
        self.open: Dict[str, int] = {}

    def address(self, request: web.Request) -> str:
        """Who is connecting: the peer's address; if the peer is a trusted proxy, the last address
        in X-Forwarded-For that is not a trusted proxy (proxies append the address they saw)."""
        address = request.remote or "?"
        if address not in self.proxies:
            return address
        for hop in reversed(request.headers.get("X-Forwarded-For", "").split(",")):
            address = hop.strip()
            if address and address not in self.proxies:
                return address
        return address or "?"

    def foreign_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")       # programs other than browsers may send none
        return origin is not None and origin not in self.origins


def make_app(hall: Hall, gate: Gate) -> web.Application:
    lobby_dirty = {"pending": False}
    sockets: Set[web.WebSocketResponse] = set()

    def lobby_changed() -> None:
        if not lobby_dirty["pending"]:
            lobby_dirty["pending"] = True
            asyncio.get_event_loop().call_later(0.3, push_lobby)

    def push_lobby() -> None:
        lobby_dirty["pending"] = False
        if hall.lobby_viewers:
            shared = lobby_view(hall)
            for v in list(hall.lobby_viewers):
                v.send(wire.dumps(dict(shared, mine=your_games(hall, v))))

    hall.on_lobby_change = lobby_changed

    @web.middleware
    async def host_check(request: web.Request, handler):
        if request.host not in gate.hosts:
            return web.Response(status=403, text="forbidden host\n")
        response = await handler(request)
        if isinstance(response, web.Response) and COOKIE not in request.cookies and \
                (response.content_type or "").startswith("text/html"):
            response.set_cookie(COOKIE, secrets.token_urlsafe(24), max_age=10 * 365 * 86400, path="/",
                                httponly=True, samesite="Lax", secure=gate.secure or None)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    def page(name: str) -> web.Response:
        with open(os.path.join(STATIC, name), encoding="utf-8") as f:
            return web.Response(text=f.read(), content_type="text/html",
                                headers={"Cache-Control": "no-cache", "X-Frame-Options": "DENY"})

    async def lobby_page(request: web.Request) -> web.Response:
        return page("lobby.html")

    def game_id(request: web.Request) -> int:
        try:
            return int(request.match_info["id"])
        except ValueError:
            raise web.HTTPNotFound() from None

    async def game_page(request: web.Request) -> web.Response:
        room = hall.room(game_id(request))
        if room is None:
            raise web.HTTPNotFound(text="no such game\n")
        return page("play.html" if room.kind == "two" else "play8.html")

    async def record(request: web.Request) -> web.Response:
        room = hall.room(game_id(request))
        if room is None:
            raise web.HTTPNotFound(text="no such game\n")
        text, content_type, filename = room.table.record([s.get("name", "?") for s in room.seat_view()])
        return web.Response(text=text, content_type=content_type,
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def socket(request: web.Request, room_id: Optional[int]) -> web.StreamResponse:
        if gate.foreign_origin(request):
            return web.Response(status=403, text="forbidden origin\n")
        address = gate.address(request)
        if gate.open.get(address, 0) >= gate.per_address:
            return web.Response(status=429, text=f"too many connections from {address}\n")
        room = None
        if room_id is not None:
            room = hall.room(room_id)
            if room is None:
                return web.Response(status=404, text="no such game\n")
        # Up to a quarter megabyte a message gets a reply saying why it is refused; beyond, the
        # connection is closed (1009, message too big).
        ws = web.WebSocketResponse(max_msg_size=256 * 1024, heartbeat=30)
        await ws.prepare(request)
        sockets.add(ws)
        gate.open[address] = gate.open.get(address, 0) + 1
        queue: "asyncio.Queue[Any]" = asyncio.Queue()

        def send(text: str) -> None:
            if queue.qsize() >= SEND_QUEUE:         # a page this far behind is dropped
                queue.put_nowait((WSCloseCode.POLICY_VIOLATION, b"too slow"))
            else:
                queue.put_nowait(text)

        async def writer() -> None:
            """Sends in order; a close (code, reason) goes after what was queued before it."""
            while True:
                item = await queue.get()
                if ws.closed:
                    return
                try:
                    if isinstance(item, tuple):
                        await ws.close(code=item[0], message=item[1])
                        return
                    await ws.send_str(item)
                except (ConnectionError, RuntimeError):
                    return

        viewer = Viewer(send, request.cookies.get(COOKIE), address)
        writing = asyncio.ensure_future(writer())
        try:
            hall.identify(viewer)
            if room is not None:
                hall.join(viewer, room)
            else:
                hall.lobby_viewers.add(viewer)
                send(wire.dumps(lobby_hello(hall, viewer)))
                send(wire.dumps(dict(lobby_view(hall), mine=your_games(hall, viewer))))
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    if room is not None:
                        await hall.handle(viewer, msg.data)
                    else:
                        await lobby_message(viewer, msg.data)
                    if viewer.refusals > MAX_REFUSALS:
                        queue.put_nowait((WSCloseCode.POLICY_VIOLATION, b"flood"))
                        await asyncio.wait([writing], timeout=5)
                        break
                elif msg.type == WSMsgType.BINARY:
                    send(wire.dumps({"type": "error", "message": "messages are JSON text"}))
        finally:
            hall.leave(viewer)
            sockets.discard(ws)
            writing.cancel()
            gate.open[address] -= 1
            if not gate.open[address]:
                del gate.open[address]
        return ws

    async def lobby_message(viewer: Viewer, text: str) -> None:
        try:
            if not viewer.messages.allow():
                viewer.refusals += 1
                raise wire.BadMessage("too many messages: slow down")
            data = wire.parse(text)
            if data["type"] == "name":
                hall.rename(viewer, data.get("name"))
                viewer.send(wire.dumps({"type": "you", "you": viewer.player}))
            elif data["type"] == "create":
                viewer.send(wire.dumps(create(hall, viewer, data)))
            else:
                raise wire.BadMessage(f"unknown message type {data['type']!r}")
        except (wire.BadMessage, Refused) as error:
            viewer.send(wire.dumps({"type": "error", "message": str(error)}))

    async def lobby_socket(request: web.Request) -> web.StreamResponse:
        return await socket(request, None)

    async def game_socket(request: web.Request) -> web.StreamResponse:
        return await socket(request, game_id(request))

    async def on_startup(app: web.Application) -> None:
        count = hall.resume()
        if count:
            print(f"xboard-engine serve: {count} unfinished games resumed", flush=True)
        # What is here now (modules, rules tables, resumed games) stays: the collector's full passes
        # need not look at it again (they took 40-80 ms under load, a pause in every game at once).
        if hasattr(gc, "freeze"):
            gc.collect()
            gc.freeze()

    async def on_shutdown(app: web.Application) -> None:
        hall.pause()
        hall.pool.shutdown()
        closing = [asyncio.ensure_future(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping"))
                   for ws in list(sockets)]
        if closing:
            await asyncio.wait(closing, timeout=1.0)      # a page that does not answer is cut off

    app = web.Application(middlewares=[host_check], client_max_size=64 * 1024)
    app.router.add_get("/", lobby_page)
    app.router.add_get("/g/{id:\\d+}", game_page)
    app.router.add_get("/g/{id:\\d+}.pgn", record)
    app.router.add_get("/g/{id:\\d+}.txt", record)
    app.router.add_get("/ws/lobby", lobby_socket)
    app.router.add_get("/ws/g/{id:\\d+}", game_socket)
    app.router.add_static("/static/", STATIC)
    add_picture_routes(app)
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    return app
