"""The piece pictures both browser servers give their pages: ``/piece/NAME-white.svg`` (the
drawings the engine gives XBoard) and ``/piece8/ARMY-KIND.svg`` (8 Player Chess armies)."""
from aiohttp import web

from ...images import drawing, drawing_names
from ..games.eight_player import piece_picture

CACHE = {"Cache-Control": "max-age=3600"}


async def piece(request: web.Request) -> web.Response:
    base, _, colour = request.match_info["name"].rpartition("-")
    if colour not in ("white", "black") or base not in drawing_names():
        raise web.HTTPNotFound()
    return web.Response(text=drawing(base, colour == "white"), content_type="image/svg+xml", headers=CACHE)


async def eight_player_piece(request: web.Request) -> web.Response:
    try:
        text = piece_picture(int(request.match_info["army"]), int(request.match_info["kind"]))
    except (KeyError, ValueError):
        raise web.HTTPNotFound() from None
    return web.Response(text=text, content_type="image/svg+xml", headers=CACHE)


def add_picture_routes(app: web.Application) -> None:
    app.router.add_get("/piece/{name}.svg", piece)
    app.router.add_get("/piece8/{army:\\d+}-{kind:\\d+}.svg", eight_player_piece)
