"""The server's HTTP side (the one room that knows aiohttp): pages, the player cookie, the Host
and Origin checks, the pages' security headers, per-address connection caps, and the WebSockets
of the lobby and of each game, whose messages go to the hall."""
import asyncio
import html
import os
import secrets
from typing import Any, Dict, Optional, Set

from aiohttp import WSCloseCode, WSMsgType, web

from ..identity import names
from ..rooms import dispatch, wire
from ..rooms.hall import Hall
from ..rooms.room import Room, Viewer
from ..rooms.shared import Elsewhere
from .account_routes import add_account_routes
from .collector import Collector
from .pictures import add_picture_routes

STATIC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "static")    # web/static
COOKIE = "xbe_player"
BROWSER_COOKIE = "xbe_browser"         # one browser's mark, kept across sign-outs: the moderators' flags
SEND_QUEUE = 256          # messages waiting for a slow page before it is dropped
MAX_REFUSALS = 100        # refused messages before a connection is closed (a flood)
SWEEP_SECONDS = 5.0       # how often challenges are checked for expiry
# The pages load only this server's scripts, styles, pictures and sockets, and no page of another
# site may frame them.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'")
SLUG = "{slug:[A-Za-z0-9]{1,40}}"


class Gate:
    """Who may come in: the Host names and page Origins of this server, connections per address.
    ``owner_token`` (one person's server): every page is that person's."""

    def __init__(self, hosts: Set[str], origins: Set[str], secure: bool, per_address: int,
                 proxies: Optional[Set[str]] = None, owner_token: Optional[str] = None) -> None:
        self.hosts = {h.lower() for h in hosts}
        self.proxies = proxies or set()
        self.origins = {o.lower() for o in origins}
        self.secure = secure
        self.per_address = per_address
        self.owner_token = owner_token
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
        return origin is not None and origin.lower() not in self.origins

    def token(self, request: web.Request) -> Optional[str]:
        return self.owner_token or request.cookies.get(COOKIE)


def not_found(text: str = "There is no such page here.") -> web.Response:
    body = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Not found</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="/static/site.css"></head><body class="plain"><main>'
            f'<h1>Not found</h1><p>{html.escape(text)}</p><p><a href="/">To the lobby</a></p></main></body></html>')
    return web.Response(status=404, text=body, content_type="text/html")


def elsewhere(what: str) -> web.Response:
    """Several processes share the database and another serves this (the proxy asks the next one;
    a page that still gets this reloads by itself)."""
    body = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>One moment</title>'
            f'<meta http-equiv="refresh" content="2"><link rel="stylesheet" href="/static/site.css"></head>'
            f'<body class="plain"><main><h1>One moment</h1><p>{html.escape(what)} is served by another server '
            f'process, which is starting; this page reloads in 2 seconds.</p></main></body></html>')
    return web.Response(status=503, text=body, content_type="text/html", headers={"Retry-After": "2"})


def make_app(hall: Hall, gate: Gate) -> web.Application:
    lobby_dirty = {"pending": False}
    collector = Collector()
    sockets: Set[web.WebSocketResponse] = set()

    def lobby_changed() -> None:
        if not lobby_dirty["pending"]:
            lobby_dirty["pending"] = True
            asyncio.get_event_loop().call_later(0.3, push_lobby)

    def push_lobby() -> None:
        lobby_dirty["pending"] = False
        if hall.lobby_viewers:
            hall.spawn(send_lobby())

    async def send_lobby() -> None:
        shared = await hall.lobby.lobby_view()
        for v in list(hall.lobby_viewers):
            v.send(wire.dumps(dict(shared, mine=hall.lobby.your_games(v))))

    hall.on_lobby_change = lobby_changed

    game_paths = ("/g/", "/ws/g/", "/static/", "/piece/", "/piece8/")

    @web.middleware
    async def host_check(request: web.Request, handler):
        if request.host.lower() not in gate.hosts:
            return web.Response(status=403, text="forbidden host\n")
        shared = hall.shared
        if shared is not None and not shared.lobby and not request.path.startswith(game_paths):
            response = elsewhere("The lobby")
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = not_found()
            except Elsewhere:
                response = elsewhere("This game")
        if isinstance(response, web.Response) and (response.content_type or "").startswith("text/html"):
            if COOKIE not in request.cookies and not gate.owner_token:
                set_cookie(response, secrets.token_urlsafe(24))
            if BROWSER_COOKIE not in request.cookies and not gate.owner_token:
                response.set_cookie(BROWSER_COOKIE, secrets.token_urlsafe(18), max_age=10 * 365 * 86400, path="/",
                                    httponly=True, samesite="Lax", secure=gate.secure or None)
            response.headers.setdefault("Content-Security-Policy", POLICY)
            response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    def set_cookie(response: web.StreamResponse, token: str) -> None:
        """The browser's token: sent to this site's pages only, read by no script."""
        response.set_cookie(COOKIE, token, max_age=10 * 365 * 86400, path="/",
                            httponly=True, samesite="Lax", secure=gate.secure or None)

    def page(name: str) -> web.Response:
        with open(os.path.join(STATIC, name), encoding="utf-8") as f:
            return web.Response(text=f.read(), content_type="text/html", headers={"Cache-Control": "no-cache"})

    async def lobby_page(request: web.Request) -> web.Response:
        return page("lobby.html")

    async def room_of(request: web.Request) -> Optional[Room]:
        return await hall.room_at(request.match_info["slug"])

    async def game_page(request: web.Request) -> web.Response:
        room = await room_of(request)
        if room is None:
            return not_found("There is no game at this address (or its address was mistyped).")
        return page("play.html" if room.kind == "two" else "play8.html")

    async def record(request: web.Request) -> web.Response:
        room = await room_of(request)
        if room is None:
            return not_found("There is no game at this address.")
        if room.saving:                     # an action not in the store yet is not in the record either
            async with room.lock:
                pass
        text, content_type, filename = room.table.record([room.name_of(s) or "?" for s in room.seats])
        return web.Response(text=text, content_type=content_type,
                            headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def viewer_id(request: web.Request) -> Optional[int]:
        token = gate.token(request)
        viewer = Viewer(lambda text: None, token, gate.address(request))
        await hall.people.identify(viewer)
        return viewer.player_id

    async def named(request: web.Request) -> Optional[int]:
        """The player whose name (or one the server reads as the same) is in the address."""
        name = request.match_info["name"]
        return await hall.store.name_owner(names.fold(name)) if 0 < len(name) <= 100 else None

    async def player_html(request: web.Request) -> web.Response:
        if await named(request) is None:
            return not_found("There is no such player.")
        return page("player.html")

    async def player_data(request: web.Request) -> web.Response:
        player = await named(request)
        data = None if player is None else await hall.lobby.player_page(player, await viewer_id(request))
        if data is None:
            return web.json_response({"error": "no such player"}, status=404)
        return web.json_response(data, dumps=wire.dumps)

    async def leaders_html(request: web.Request) -> web.Response:
        return page("leaders.html")

    async def leaders_data(request: web.Request) -> web.Response:
        key = request.query.get("pool") or None
        keys = await hall.store.rating_keys()
        if key is not None and key not in keys:
            return web.json_response({"error": "no such rating pool"}, status=404)
        return web.json_response(await hall.lobby.leaderboards(key, keys), dumps=wire.dumps)

    async def tournament_html(request: web.Request) -> web.Response:
        if await hall.tournament_at(request.match_info["slug"]) is None:
            return not_found("There is no tournament at this address.")
        return page("tournament.html")

    async def tournament_socket(request: web.Request) -> web.StreamResponse:
        t = await hall.tournament_at(request.match_info["slug"])
        if t is None:
            return web.Response(status=404, text="no such tournament\n")
        return await socket(request, None, t)

    async def socket(request: web.Request, room: Optional[Room], tournament: Any = None) -> web.StreamResponse:
        if gate.foreign_origin(request):
            return web.Response(status=403, text="forbidden origin\n")
        address = gate.address(request)
        if gate.open.get(address, 0) >= gate.per_address:
            return web.Response(status=429, text=f"too many connections from {address}\n")
        # Up to a quarter megabyte a message gets a reply saying why it is refused; beyond, the
        # connection is closed (1009, message too big).
        # (a message longer than parse() takes, in UTF-8's widest case, closes the connection unread)
        ws = web.WebSocketResponse(max_msg_size=4 * wire.MAX_MESSAGE_BYTES + 1024, heartbeat=30)
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

        viewer = Viewer(send, gate.token(request), address)
        viewer.close = lambda code, reason: queue.put_nowait((code, reason.encode()))
        writing = asyncio.ensure_future(writer())
        hall.people.connected(viewer)
        try:
            await hall.people.identify(viewer)
            if room is not None:
                await hall.join(viewer, room)
            elif tournament is not None:
                shown = await hall.tournaments.view(tournament, viewer)
                tournament.viewers.add(viewer)
                send(wire.dumps(shown))
            else:
                shared = await hall.lobby.lobby_view()
                hall.lobby_viewers.add(viewer)
                send(wire.dumps(hall.lobby.lobby_hello(viewer)))
                send(wire.dumps(dict(shared, mine=hall.lobby.your_games(viewer))))
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await dispatch.handle(hall, viewer, "game" if room is not None else
                                          "tournament" if tournament is not None else "lobby",
                                          room if room is not None else tournament, msg.data)
                    if viewer.refusals > MAX_REFUSALS:
                        queue.put_nowait((WSCloseCode.POLICY_VIOLATION, b"flood"))
                        await asyncio.wait([writing], timeout=5)
                        break
                elif msg.type == WSMsgType.BINARY:
                    send(wire.dumps({"type": "error", "message": "messages are JSON text"}))
        finally:
            hall.people.disconnected(viewer)
            hall.leave(viewer)
            sockets.discard(ws)
            writing.cancel()
            gate.open[address] -= 1
            if not gate.open[address]:
                del gate.open[address]
        return ws

    async def lobby_socket(request: web.Request) -> web.StreamResponse:
        return await socket(request, None)

    async def game_socket(request: web.Request) -> web.StreamResponse:
        room = await room_of(request)
        if room is None:
            return web.Response(status=404, text="no such game\n")
        return await socket(request, room)

    async def sweeping() -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await hall.sweep()
            except Exception as error:              # the sweep must not stop for a bad game
                print(f"xboard-engine serve: sweep failed: {error!r}", flush=True)

    async def collecting() -> None:
        while True:
            await asyncio.sleep(collector.period)
            collector.tick()

    async def on_startup(app: web.Application) -> None:
        count = hall.resume()
        if count:
            print(f"xboard-engine serve: {count} unfinished games resumed", flush=True)
        if hall.shared is not None:
            hall.shared.start()
            if hall.shared.lobby:
                await hall.shared.become_lobby()
        app["sweeper"] = asyncio.ensure_future(sweeping())
        app["collector"] = asyncio.ensure_future(collecting())
        hall.analyst.start()
        collector.start()

    async def on_shutdown(app: web.Application) -> None:
        app["sweeper"].cancel()
        if hall.shared is not None:
            hall.shared.stop()
        app["collector"].cancel()
        hall.analyst.stop()
        await hall.pause()
        hall.pool.shutdown()
        closing = [asyncio.ensure_future(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping"))
                   for ws in list(sockets)]
        if closing:
            await asyncio.wait(closing, timeout=1.0)      # a page that does not answer is cut off

    async def on_cleanup(app: web.Application) -> None:
        hall.store.drain()           # the store calls already made finish before cli.py closes the store

    app = web.Application(middlewares=[host_check], client_max_size=64 * 1024)
    app.router.add_get("/", lobby_page)
    app.router.add_get(f"/g/{SLUG}", game_page)
    app.router.add_get(f"/g/{SLUG}.pgn", record)
    app.router.add_get(f"/g/{SLUG}.txt", record)
    # A player's public address is their name (/@/NAME, as lichess): the database's numbers are not
    # addresses, so nobody walks /p/1, /p/2, ... through every player.
    app.router.add_get("/@/{name:[^/]+}.json", player_data)
    app.router.add_get("/@/{name:[^/]+}", player_html)
    app.router.add_get(f"/t/{SLUG}", tournament_html)
    app.router.add_get(f"/ws/t/{SLUG}", tournament_socket)
    app.router.add_get("/leaderboard", leaders_html)
    app.router.add_get("/leaderboard.json", leaders_data)
    app.router.add_get("/ws/lobby", lobby_socket)
    app.router.add_get(f"/ws/g/{SLUG}", game_socket)
    app.router.add_static("/static/", STATIC)
    add_picture_routes(app)
    add_account_routes(app, hall, gate, page, set_cookie)
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app

