"""Who a page is: the player its cookie names (a signed-in session's account, else the guest the
cookie made when the page first needed one: a guest with a number until it chooses a name).  One
player a cookie: the pages of one cookie that ask at once wait for each other.  The open pages of
each cookie are known, so an ended session's pages are closed (``accounts.py``)."""
import asyncio
import secrets
import time
from typing import Any, Dict, List, Optional, Set

from . import names
from ..games.tables import Refused
from ..store.records import NameTaken
from ..store.thread import AsyncStore
from ..rooms.room import Viewer, token_hash

SEEN_EVERY = 300.0                  # how often a session's "last seen" is written
SIGNED_OUT_CODE = 4002              # the close code of the pages of an ended session


class People:
    """The players behind the pages, read from and made in the store."""

    def __init__(self, store: AsyncStore) -> None:
        self.store = store
        self._locks: Dict[str, List[Any]] = {}        # token hash -> [lock, pages using it] while its player is made
        self.pages: Dict[str, Set[Viewer]] = {}        # token hash -> the open pages (sockets) of that cookie
        self._seen: Dict[str, float] = {}              # session token hash -> when its "last seen" was written

    async def identify(self, viewer: Viewer) -> None:
        if viewer.token:
            hashed = token_hash(viewer.token)
            viewer.player = await self.store.player_by_token(hashed)
            if viewer.player is not None and viewer.player.get("account"):
                now = time.time()
                if now - self._seen.get(hashed, 0.0) > SEEN_EVERY:
                    if len(self._seen) > 100000:
                        self._seen.clear()
                    self._seen[hashed] = now
                    await self.store.touch_session(hashed, now)

    def connected(self, viewer: Viewer) -> None:
        if viewer.token:
            self.pages.setdefault(token_hash(viewer.token), set()).add(viewer)

    def disconnected(self, viewer: Viewer) -> None:
        if viewer.token:
            hashed = token_hash(viewer.token)
            pages = self.pages.get(hashed)
            if pages is not None:
                pages.discard(viewer)
                if not pages:
                    del self.pages[hashed]

    def close_pages(self, hashes: List[str], why: str) -> None:
        """Closes the open pages of these cookies (they reconnect as whoever the cookie is now)."""
        for hashed in hashes:
            self._seen.pop(hashed, None)
            for viewer in list(self.pages.get(hashed, ())):
                viewer.player = None
                viewer.close(SIGNED_OUT_CODE, why)

    async def ensure_player(self, viewer: Viewer, name: Optional[str] = None) -> Dict[str, Any]:
        """The viewer's player, made now if it has none (a page without a token cannot play); a
        player without a chosen name is a guest with a number.  One player a cookie: the pages of
        one cookie that ask at once wait for each other, and a page whose cookie got its player on
        another page meanwhile takes that one."""
        if viewer.player is not None:
            return viewer.player
        if not viewer.token:
            raise Refused("this page has no player cookie: allow cookies for this site to play")
        hashed = token_hash(viewer.token)
        held = self._locks.get(hashed)
        if held is None:
            held = self._locks[hashed] = [asyncio.Lock(), 0]
        held[1] += 1
        try:
            async with held[0]:
                if viewer.player is None:
                    viewer.player = await self._make_player(viewer, hashed, name)
        finally:
            held[1] -= 1
            if not held[1]:
                del self._locks[hashed]
        return viewer.player

    async def _make_player(self, viewer: Viewer, hashed: str, name: Optional[str]) -> Dict[str, Any]:
        found = await self.store.player_by_token(hashed)       # made by another page of this cookie
        if found is not None:
            return found
        for _ in range(50):
            given = name or f"Guest {secrets.randbelow(90000) + 10000}"
            try:
                player_id = await self.store.add_player(hashed, given, names.fold(given))
                break
            except NameTaken:
                if name:
                    raise Refused(f"name: {name!r} is taken (or one that looks the same)") from None
        else:
            raise Refused("the server could not give you a name; try again")
        return {"id": player_id, "name": given, "account": False}
