"""Who a page is: the player its cookie names, made when the page first needs one (a guest with a
number until it chooses a name).  One player a cookie: the pages of one cookie that ask at once wait
for each other."""
import asyncio
import secrets
from typing import Any, Dict, List, Optional

from ..community import names
from ..games.tables import Refused
from ..store.records import NameTaken
from ..store.thread import AsyncStore
from .room import Viewer, token_hash


class People:
    """The players behind the pages, read from and made in the store."""

    def __init__(self, store: AsyncStore) -> None:
        self.store = store
        self._locks: Dict[str, List[Any]] = {}        # token hash -> [lock, pages using it] while its player is made

    async def identify(self, viewer: Viewer) -> None:
        if viewer.token:
            viewer.player = await self.store.player_by_token(token_hash(viewer.token))

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
        return {"id": player_id, "name": given}
