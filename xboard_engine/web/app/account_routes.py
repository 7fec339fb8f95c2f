"""The accounts' and moderators' HTTP side: the account, reset and moderators' pages, and the JSON
requests they send (``identity/accounts.py`` and ``identity/moderation.py`` do the work): reports and
blocks come from a player's page.  Every request is a POST of JSON from this site's pages
(another site's page is refused by its Origin, and the cookie is ``SameSite=Lax``); a new session's
token is given as the cookie (``HttpOnly``; ``Secure`` behind https)."""
import json
import secrets
from typing import Any, Awaitable, Callable, Dict

from aiohttp import web

from ..games.tables import Refused
from ..identity.accounts import Limited
from ..rooms.hall import Hall

MAX_BODY = 4096


def add_account_routes(app: web.Application, hall: Hall, gate: Any, page: Callable[[str], web.Response],
                       set_cookie: Callable[[web.StreamResponse, str], None]) -> None:
    accounts = hall.accounts

    def handler(work: Callable[[web.Request, Dict[str, Any]], Awaitable[Any]]) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            if gate.foreign_origin(request):
                return web.json_response({"error": "forbidden origin"}, status=403)
            if gate.owner_token:
                return web.json_response({"error": "this server is one person's: it has no accounts"}, status=400)
            body = await request.content.read(MAX_BODY + 1)
            if len(body) > MAX_BODY:
                return web.json_response({"error": "the request is too long"}, status=413)
            try:
                data = json.loads(body.decode("utf-8")) if body else {}
            except ValueError:                     # (UnicodeDecodeError is one)
                data = None
            if not isinstance(data, dict):
                return web.json_response({"error": "want a JSON object"}, status=400)
            try:
                answer = await work(request, data)
            except Limited as error:
                return web.json_response({"error": str(error)}, status=429)
            except Refused as error:
                return web.json_response({"error": str(error)}, status=400)
            if isinstance(answer, web.Response):
                return answer
            return web.json_response(dict(answer or {}, ok=True))
        return handle

    def signed_in(new_token: str, player: Dict[str, Any]) -> web.Response:
        response = web.json_response({"ok": True, "player": player})
        set_cookie(response, new_token)
        return response

    def fresh_browser(answer: Dict[str, Any]) -> web.Response:
        """A signed-out browser gets a new token: it is a new guest from now on."""
        response = web.json_response(dict(answer, ok=True))
        set_cookie(response, secrets.token_urlsafe(24))
        return response

    def who(request: web.Request) -> Any:
        return gate.token(request), gate.address(request), request.headers.get("User-Agent", "")

    async def from_browser(request: web.Request, player: Dict[str, Any]) -> None:
        browser = request.cookies.get("xbe_browser")
        if browser:
            await accounts.note_browser(browser, player["id"])

    async def sign_up(request: web.Request, data: Dict[str, Any]) -> Any:
        token, address, agent = who(request)
        new_token, player = await accounts.sign_up(token, address, agent, data.get("username"), data.get("password"))
        await from_browser(request, player)
        return signed_in(new_token, player)

    async def sign_in(request: web.Request, data: Dict[str, Any]) -> Any:
        token, address, agent = who(request)
        new_token, player = await accounts.sign_in(token, address, agent, data.get("username"),
                                                   data.get("password"), data.get("code"))
        await from_browser(request, player)
        return signed_in(new_token, player)

    async def sign_out(request: web.Request, data: Dict[str, Any]) -> Any:
        await accounts.sign_out(gate.token(request), everywhere=bool(data.get("everywhere")))
        return fresh_browser({})

    async def end_session(request: web.Request, data: Dict[str, Any]) -> Any:
        await accounts.end_session(gate.token(request), data.get("session"))

    async def change_password(request: web.Request, data: Dict[str, Any]) -> Any:
        await accounts.change_password(gate.token(request), data.get("old"), data.get("new"))

    async def reset(request: web.Request, data: Dict[str, Any]) -> Any:
        return {"name": await accounts.reset(data.get("secret"), data.get("password"))}

    async def two_factor(request: web.Request, data: Dict[str, Any]) -> Any:
        step = data.get("step")
        if step == "begin":
            return await accounts.begin_two_factor(gate.token(request))
        if step == "confirm":
            return {"recovery": await accounts.confirm_two_factor(gate.token(request), data.get("code"))}
        if step == "off":
            await accounts.end_two_factor(gate.token(request), data.get("password"))
            return {}
        raise Refused("step: begin, confirm or off")

    async def make_bot(request: web.Request, data: Dict[str, Any]) -> Any:
        return await accounts.make_bot(gate.token(request), data.get("name"))

    async def new_bot_token(request: web.Request, data: Dict[str, Any]) -> Any:
        return await accounts.new_bot_token(gate.token(request), data.get("bot"))

    async def report(request: web.Request, data: Dict[str, Any]) -> Any:
        return {"report": await hall.moderation.report(gate.token(request), data)}

    async def block(request: web.Request, data: Dict[str, Any]) -> Any:
        await hall.moderation.block(gate.token(request), data)

    async def moderate(request: web.Request, data: Dict[str, Any]) -> Any:
        return {"log": await hall.moderation.act(gate.token(request), data)}

    async def moderators_data(request: web.Request) -> web.Response:
        try:
            page_data = await hall.moderation.page(gate.token(request))
        except Refused as error:
            return web.json_response({"error": str(error)}, status=403)
        return web.json_response(page_data, headers={"Cache-Control": "no-store"})

    async def moderators_page(request: web.Request) -> web.Response:
        return page("mod.html")

    async def account_data(request: web.Request) -> web.Response:
        return web.json_response(await accounts.sessions(gate.token(request)),
                                 headers={"Cache-Control": "no-store"})

    async def account_page(request: web.Request) -> web.Response:
        return page("account.html")

    async def reset_page(request: web.Request) -> web.Response:
        return page("reset.html")

    app.router.add_get("/account", account_page)
    app.router.add_get("/account.json", account_data)
    app.router.add_get("/reset", reset_page)
    app.router.add_get("/mod", moderators_page)
    app.router.add_get("/mod.json", moderators_data)
    app.router.add_post("/report", handler(report))
    app.router.add_post("/account/bots", handler(make_bot))
    app.router.add_post("/account/bots/token", handler(new_bot_token))
    app.router.add_post("/block", handler(block))
    app.router.add_post("/mod/action", handler(moderate))
    for path, work in (("signup", sign_up), ("signin", sign_in), ("signout", sign_out),
                       ("sessions/end", end_session), ("password", change_password), ("reset", reset),
                       ("two-factor", two_factor)):
        app.router.add_post(f"/account/{path}", handler(work))
