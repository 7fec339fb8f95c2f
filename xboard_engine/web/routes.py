"""The local browser board's HTTP side: the pages, the piece pictures, the current games' PGN and
record, and the two WebSockets (``/ws`` the two-player room, ``/ws8`` the 8 Player Chess room)."""
import asyncio
import os
from typing import Set

from aiohttp import WSCloseCode, WSMsgType, web

from .eight import EightRoom
from .pictures import add_picture_routes
from .server import MAX_MESSAGE, STATIC, Room


def make_app(room: Room, allowed_hosts: Set[str]) -> web.Application:
    """The web application: the page, its script and style, the piece pictures, the current game's
    PGN and the WebSocket.  Requests whose Host is not one of ``allowed_hosts`` are refused (a
    page of another site that a DNS trick points at 127.0.0.1 cannot read or play)."""

    @web.middleware
    async def host_check(request: web.Request, handler):
        if request.host not in allowed_hosts:
            return web.Response(status=403, text="forbidden host\n")
        return await handler(request)

    async def index(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-cache"})

    async def pgn(request: web.Request) -> web.Response:
        return web.Response(text=room.game.pgn(), content_type="application/x-chess-pgn",
                            headers={"Content-Disposition": f'attachment; filename="game-{room.game.id}.pgn"'})

    def foreign_origin(request: web.Request) -> bool:
        """A WebSocket opened by a page of another site (browsers send its Origin)."""
        origin = request.headers.get("Origin")
        return origin is not None and origin not in {f"http://{h}" for h in allowed_hosts}

    sockets: Set[web.WebSocketResponse] = set()     # the pages' open sockets, both boards

    async def socket(request: web.Request) -> web.StreamResponse:
        if foreign_origin(request):
            return web.Response(status=403, text="forbidden origin\n")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        sockets.add(ws)
        await room.attach(ws)
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await room.handle(ws, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await ws.send_json({"type": "error", "message": "messages are JSON text"})
        finally:
            room.clients.discard(ws)
            sockets.discard(ws)
        return ws

    eight = EightRoom(room.data_dir)           # 8 Player Chess: its page, pictures and WebSocket

    async def eight_page(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(os.path.join(STATIC, "8pc.html"), headers={"Cache-Control": "no-cache"})

    async def eight_record(request: web.Request) -> web.Response:
        return web.Response(text=eight.game.record(), content_type="text/plain",
                            headers={"Content-Disposition": f'attachment; filename="8pc-{eight.game.id}.txt"'})

    async def eight_socket(request: web.Request) -> web.StreamResponse:
        if foreign_origin(request):
            return web.Response(status=403, text="forbidden origin\n")
        try:
            seat = eight.seat_of_letter(request.query.get("seat"))
        except ValueError as error:
            return web.Response(status=400, text=f"{error}\n")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        sockets.add(ws)
        send = ws.send_str
        await eight.attach(send, seat)
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await eight.handle(send, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await ws.send_json({"type": "error", "message": "messages are JSON text"})
        finally:
            eight.detach(send)
            sockets.discard(ws)
        return ws

    async def on_startup(app: web.Application) -> None:
        await room.resume()
        await eight.resume()

    async def on_shutdown(app: web.Application) -> None:
        """The server stops (Ctrl-C, SIGTERM): both games are saved with their clocks as they are
        now, then the pages' sockets are closed (aiohttp waits for open ones before it exits)."""
        room.stop()
        eight.stop()
        closing = [asyncio.ensure_future(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping"))
                   for ws in list(sockets)]
        if closing:
            await asyncio.wait(closing, timeout=1.0)      # a page that does not answer is cut off

    async def on_cleanup(app: web.Application) -> None:
        await room.shutdown()
        await eight.shutdown()

    app = web.Application(middlewares=[host_check], client_max_size=MAX_MESSAGE)
    app.router.add_get("/", index)
    app.router.add_static("/static/", STATIC)
    add_picture_routes(app)
    app.router.add_get("/game.pgn", pgn)
    app.router.add_get("/ws", socket)
    app.router.add_get("/8pc", eight_page)
    app.router.add_get("/8pc.txt", eight_record)
    app.router.add_get("/ws8", eight_socket)
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
