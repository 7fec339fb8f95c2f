
"""What players ask of each other: a draw (two-player games), a takeback (two-player games: at
once against a bot or in a game of one's own, else the opponent accepts or declines), a rematch
(the same people, colours swapped or 8 Player seats turned one place on; bots always agree), and
an abort before one's first move: the methods of ``Offers``, one of the hall's services."""
from typing import TYPE_CHECKING, Any, Dict, List

from ..games.tables import Refused
from ..store.records import StoredSeat
from .room import Room, Viewer

if TYPE_CHECKING:
    from .services import HallServices


def _two_player(room: Room, what: str) -> None:
    if room.kind != "two":
        raise Refused(f"{what} are not offered in 8 Player Chess: each player's moves are their own")


def _back_to_a_person(room: Room, owned: List[int]) -> int:
    """Plies back to the last position where one of ``owned`` was to move with a move of theirs
    undone (a bot's reply goes with the move it answered)."""
    g = room.table.game                     # type: ignore[attr-defined]
    loaded = room.table.loaded              # type: ignore[attr-defined]
    plies = 1
    while len(g.moves) - plies >= loaded:
        if (g.side + plies) % 2 in owned:   # the side to move after taking ``plies`` back
            return plies
        plies += 1
    return 0


class Offers:
    """Draw, takeback, rematch and abort: each method takes the asking page, its room and the
    message, and is called with the room's lock held."""

    def __init__(self, hall: "HallServices") -> None:
        self.hall = hall

    def _seat(self, viewer: Viewer, room: Room) -> int:
        owned = room.owned_by(viewer.player_id)
        if not owned:
            raise Refused("you do not play in this game (watchers cannot act)")
        turn = room.table.seat_to_move()
        return turn if turn in owned else owned[0]

    async def offer_draw(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        self.hall.check_playing(room)
        _two_player(room, "draw offers")
        await self.hall.apply(room, self._seat(viewer, room), "offer")

    async def accept_draw(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        self.hall.check_playing(room)
        _two_player(room, "draw offers")
        await self.hall.apply(room, self._seat(viewer, room), "draw")

    async def decline(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        """No to the other side's draw offer, takeback request or rematch."""
        what = data.get("what")
        seat = self._seat(viewer, room)
        if what == "draw":
            self.hall.check_playing(room)
            await self.hall.apply(room, seat, "decline")
        elif what == "takeback":
            if room.takeback_by is None or room.takeback_by == seat:
                raise Refused("there is no takeback request to decline")
            room.takeback_by = None
            room.table.game.note = f"{room.table.seat_labels[seat]} declines the takeback"  # type: ignore[attr-defined]
            room.table.changes += 1
            room.broadcast()
        elif what == "rematch":
            if not room.rematch:
                raise Refused("there is no rematch to decline")
            room.rematch.clear()
            room.broadcast()
        else:
            raise Refused("decline: what is draw, takeback or rematch")

    async def takeback(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        """Ask to take one's last move back, or accept the opponent's asking.  Against a bot or in a
        game of one's own it happens at once (back to the asker's move)."""
        self.hall.check_playing(room)
        _two_player(room, "takebacks")
        owned = room.owned_by(viewer.player_id)
        if not owned:
            raise Refused("you do not play in this game (watchers cannot act)")
        table = room.table
        if room.solo(viewer.player_id):
            plies = _back_to_a_person(room, owned)
            if not plies:
                raise Refused("nothing to take back")
            await self._take_back(room, table.seat_to_move(), plies)
            return
        seat = owned[0]
        if room.takeback_by is not None and room.takeback_by != seat:
            asker = room.takeback_by
            plies = table.moves_back_to(asker)      # type: ignore[attr-defined]
            if not plies:
                raise Refused("nothing to take back")
            await self._take_back(room, asker, plies)
            return
        if not table.moves_back_to(seat):           # type: ignore[attr-defined]
            raise Refused("you have no move to take back")
        room.takeback_by = seat
        table.game.note = f"{table.seat_labels[seat]} asks to take back a move"   # type: ignore[attr-defined]
        table.changes += 1
        room.broadcast()

    async def _take_back(self, room: Room, seat: Any, plies: int) -> None:
        self.hall.course.let_engines_go(room)              # an outside engine hears the game again from the start
        await self.hall.apply(room, seat, "takeback", str(plies))

    async def rematch(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        """Ask for (or agree to) a new game between the same players; it begins when every person of
        this one has asked."""
        if room.status != "over":
            raise Refused("a rematch follows a finished game")
        if room.config.get("tournament"):
            raise Refused("a tournament pairs its own games: no rematch")
        if room.next_game:
            raise Refused("the rematch has been made: it is at /g/" + room.next_game)
        if not room.owned_by(viewer.player_id):
            raise Refused("you do not play in this game (watchers cannot act)")
        room.rematch.add(viewer.player_id)
        if not room.people() <= room.rematch:
            room.broadcast()
            return
        if room.has_bot():
            self.hall.seating.check_bot_room(None)
        count = len(room.seats)
        seats: List[Any] = [None] * count             # each occupant one seat on (two players: colours swap)
        for s in room.seats:
            place = (s.seat + 1) % count
            seats[place] = StoredSeat(place, s.kind, s.player_id, s.bot, None)
        stored = await self.hall.store.add_game(room.kind, dict(room.config), seats, room.creator, room.listed)
        new = self.hall.new_room(stored, seats)
        async with new.lock:
            new.names = await self.hall.store.player_names(sorted(room.people()))    # their names now
            await self.hall.seating.start_game(new)
        await self.hall.place(new)
        room.next_game = new.slug
        room.rematch.clear()
        room.broadcast()
        self.hall.lobby_changed()

    async def abort(self, viewer: Viewer, room: Room, data: Dict[str, Any]) -> None:
        """A player who has not moved yet ends the game without a result."""
        self.hall.check_playing(room)
        owned = room.owned_by(viewer.player_id)
        if not owned:
            raise Refused("you do not play in this game (watchers cannot act)")
        if room.config.get("tournament"):
            raise Refused("a tournament game cannot be aborted: move, or resign")
        if not set(owned) & set(room.abortable()):
            raise Refused("you have made your first move: the game can no longer be aborted (resign instead)")
        name = room.name_of(room.seats[owned[0]])
        await self.hall.course.end_without_result(room, f"Aborted by {name} before their first move", by=owned[0])
