
"""The course of a game on the server: whose turn it is, the room's one timer (a clock's fall, the
end of an away player's grace time, a first move not made in time), the bots' and outside
engines' moves, and the lines they think aloud."""
import asyncio
import concurrent.futures
import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ...core.errors import RulesError
from ...match.seat import EngineSeat, Turn, line_words
from ...search.score import Score
from ..compute.pool import budget, eight_player_move, seed_now, two_player_move
from ..games.eight_player import BOT_LEVELS as EIGHT_LEVELS
from ..games.tables import TWO_LEVELS, Refused
from .room import Room

if TYPE_CHECKING:
    from .services import HallServices

FIRST_MOVE_IN_TOURNAMENTS = 30.0     # a tournament game's first-move limit on a server that has none


def away_seats(room: Room) -> List[Tuple[int, float]]:
    """(seat, away since) of the people whose absence ends something: in 8 Player Chess the seat
    to move (it times out, as the text says for time-outs); in a two-player game against a bot, the
    person (the bot wins: the game is abandoned)."""
    out = []
    if room.kind == "eight":
        turn = room.table.seat_to_move()
        if turn is not None and room.seats[turn].kind == "player":
            since = room.away_since.get(room.seats[turn].player_id)
            if since is not None:
                out.append((turn, since))
    else:
        for s in room.seats:
            if s.kind == "player" and room.seats[1 - s.seat].kind == "bot" and s.player_id in room.away_since:
                out.append((s.seat, room.away_since[s.player_id]))
    return out


def show_thinking(room: Room, seat: int, depth: int, score: str, pv: List[str]) -> None:
    """An engine's line (its depth, score from White's side in two-player games, and the moves it
    expects) to those who may see it."""
    room.thinking = {"type": "thinking", "gameId": room.slug, "seat": seat, "depth": depth, "score": score,
                     "pv": pv, "engine": room.name_of(room.seats[seat])}
    room.send_thinking()


def _engine_line(room: Room, at: int, seat: int, words: Tuple[int, str, List[str]]) -> None:
    if room.actions == at and room.status == "playing":
        show_thinking(room, seat, *words)


class Course:
    """A game's course: whose turn it is, the clocks and timers, the bots' and the outside engines'
    moves (an engine thinks on a thread of ``engine_threads``)."""

    def __init__(self, hall: "HallServices", engine_threads: int) -> None:
        self.hall = hall
        self.engine_threads = concurrent.futures.ThreadPoolExecutor(max_workers=engine_threads,
                                                                    thread_name_prefix="engine")

    def next_turn(self, room: Room) -> None:
        if room.timer:
            room.timer.cancel()
            room.timer = None
        if room.status != "playing" or room.table.over or self.hall.stopping or room.gone:
            return
        seat = room.table.seat_to_move()
        if seat is not None and room.seats[seat].kind == "bot" and not room.bot_busy:
            room.bot_busy = True              # from now: a second call before the bot begins starts no other
            self.hall.spawn(self._bot_move(room, seat, room.actions))
        self.arm(room)

    def arm(self, room: Room) -> None:
        """The room's timer: at the running clock's fall, when an away player's grace ends, or when the
        seat to move runs out of time for its first move."""
        if room.timer:
            room.timer.cancel()
            room.timer = None
        if room.status != "playing" or room.table.over or self.hall.stopping:
            return
        waits = []
        left = room.table.time_left()
        if left is not None:
            waits.append(left + 0.02)
        for _, since in away_seats(room):
            waits.append(since + self.hall.grace - time.monotonic() + 0.02)
        for deadline in (self.first_move_deadline(room), self.idle_deadline(room)):
            if deadline is not None:
                waits.append(deadline - time.monotonic() + 0.02)
        if waits:
            room.timer = asyncio.get_event_loop().call_later(max(0.0, min(waits)), self._on_timer, room)

    def first_move_deadline(self, room: Room) -> Optional[float]:
        """When the game is aborted if the person to move makes no first move (None: no such limit)."""
        seat = room.table.seat_to_move()
        limit = self.hall.policy.first_move or (FIRST_MOVE_IN_TOURNAMENTS if room.config.get("tournament") else 0.0)
        if room.config.get("analysis"):
            return None                    # a person's own analysis board waits for them
        if not limit or seat is None or room.seats[seat].kind != "player" or seat in room.moved:
            return None
        return room.turn_since + limit

    def idle_deadline(self, room: Room) -> Optional[float]:
        """When a game with bots that waits on a person with no clock running ends (None: never): it
        holds one of the server's bot places, which an idle player must not keep from others."""
        idle = self.hall.policy.idle_bot_game
        seat = room.table.seat_to_move()
        if not idle or room.config.get("analysis") or seat is None or room.seats[seat].kind != "player" \
                or not room.has_bot() or room.table.time_left() is not None:
            return None
        return room.turn_since + idle

    def _on_timer(self, room: Room) -> None:
        room.timer = None
        if room.status != "playing" or room.table.over or self.hall.stopping:
            return
        self.hall.spawn(self._timer(room))

    async def _timer(self, room: Room) -> None:
        """The timer's work, under the room's lock: what is due is worked out again there (a move made
        meanwhile may have stopped the clock, or the game may have ended)."""
        async with room.lock:
            if room.status != "playing" or room.table.over or self.hall.stopping or room.gone:
                return
            seat = room.table.flag()
            if seat is not None:
                await self.hall.apply(room, seat, "timeout")
                return
            now = time.monotonic()
            deadline = self.first_move_deadline(room)
            if deadline is not None and now >= deadline:
                seat = room.table.seat_to_move()
                await self.end_without_result(room, f"{room.table.seat_labels[seat]} made no first move within "
                                                     f"{deadline - room.turn_since:g} s: the game is aborted",
                                         absent=seat)
                return
            deadline = self.idle_deadline(room)
            if deadline is not None and now >= deadline:
                seat = room.table.seat_to_move()
                others = {s.player_id for s in room.seats if s.kind == "player"} - {room.seats[seat].player_id}
                if room.kind == "eight" and others:     # other people play on: the idle seat is out
                    await self.hall.apply(room, seat, "timeout")
                    return
                await self.end_without_result(room, f"{room.table.seat_labels[seat]} made no move for "
                                                     f"{(deadline - room.turn_since) / 60:g} minutes: a game with a "
                                                     "bot ends when its player is idle")
                return
            for away, since in away_seats(room):
                if now - since >= self.hall.grace:
                    if room.kind == "eight":
                        await self.hall.apply(room, away, "timeout")
                    else:
                        await self.hall.apply(room, 1 - away, "claim")
                    return
            self.arm(room)

    def check_claim(self, room: Room, seat: int) -> None:
        """A two-player claim of the win: the opponent, a person, away past the grace time."""
        other = room.seats[1 - seat]
        if other.kind != "player" or room.connected(other.player_id):
            raise Refused("your opponent is here: no claim")
        away = time.monotonic() - room.away_since.get(other.player_id, time.monotonic())
        if away < self.hall.grace:
            raise Refused(f"your opponent has been away {away:.0f} s; you may claim after {self.hall.grace:.0f} s")

    async def end_without_result(self, room: Room, reason: str, absent: Optional[int] = None,
                                 by: Optional[int] = None) -> None:
        """The game ends unplayed or aborted: no result, no winner; seats still free or kept for an
        invite are closed (their links no longer work).  ``absent``: the seat that made no first move
        (a tournament counts the game lost for it); ``by``: the seat whose player aborted it (both
        count as that player's quitting, ``rated.quit_by``).  The caller holds ``room.lock``."""
        assert room.lock.locked(), "end_without_result without the room's lock"
        closed = [s._replace(kind="closed", invite_hash=None) if s.kind in ("open", "invite") else s for s in room.seats]
        for old, new in zip(room.seats, closed):
            if old is not new:
                await self.hall.store.set_seat(room.id, new)
        room.seats = closed
        result: Dict[str, Any] = {"reason": reason, "aborted": True, "ended": time.time()}
        if absent is not None:
            result["absent"] = absent
        if by is not None:
            result["by"] = by
        await self.hall.store.set_status(room.id, "aborted", result)
        room.status, room.result = "aborted", result
        if room.timer:
            room.timer.cancel()
            room.timer = None
        room.thinking = None
        self.let_engines_go(room)
        room.broadcast()
        await self.hall.game_over(room)
        self.hall.lobby_changed()

    def let_engines_go(self, room: Room) -> None:
        engines, room.engines = list(room.engines.values()), {}
        for engine in engines:
            self.engine_threads.submit(engine.close)

    # --------------------------------------------------------------------- bots and engines
    async def _bot_move(self, room: Room, seat: int, at: int) -> None:
        """The bot thinks (the room's lock is not held: people may act meanwhile), then plays under the
        lock if the room is where it was (``at``, the action count); else the next turn is looked at
        again."""
        room.bot_busy = True
        try:
            engine, _, level = (room.seats[seat].bot or ":").partition(":")
            left = room.table.time_left()
            if engine in self.hall.engines:
                text = await self._engine_move(room, seat, engine)
            elif room.kind == "two":
                g = room.table.game          # type: ignore[attr-defined]
                words, seconds, skill = TWO_LEVELS.get(level, TWO_LEVELS["medium"])
                increment = g.tc.inc if room.table.clocks() else 0.0
                seconds = g.tc.st if g.tc.st else budget(left, increment, seconds)
                text = await self.hall.pool.run(two_player_move, g.variant, g.start_fen, list(g.moves), seconds, skill,
                                           seed_now(), g.tc.depth, (room.id, at, seat))
            else:
                g = room.table.game          # type: ignore[attr-defined]
                settings = EIGHT_LEVELS.get(level, EIGHT_LEVELS["fast"])[1]
                seconds = float((settings or {}).get("movetime") or 1.0)
                text = await self.hall.pool.run(eight_player_move, g.game.to_dict(), settings,
                                           budget(left, g.tc.inc, seconds), seed_now(), room.slug)
        except Exception as error:                   # a worker's fault: the server goes on
            print(f"xboard-engine serve: bot of game {room.slug} failed: {error!r}", flush=True)
            text = None
        finally:
            room.bot_busy = False
        async with room.lock:
            if room.gone:                              # read again elsewhere (or here) meanwhile: its own bots play
                return
            if self.hall.stopping or room.actions != at or room.table.over or room.table.seat_to_move() != seat \
                    or room.status != "playing":
                self.next_turn(room)
                return
            if text is None:
                return
            try:
                if isinstance(text, tuple):           # an outside engine resigned, claimed falsely or failed
                    await self.hall.apply(room, seat, "ending", "|".join(text))
                else:
                    await self.hall.apply(room, seat, "move", text)
            except (Refused, RulesError) as error:
                print(f"xboard-engine serve: bot move {text!r} of game {room.slug} refused: {error}", flush=True)

    async def _engine_move(self, room: Room, seat: int, name: str) -> Any:
        g = room.table.game                  # type: ignore[attr-defined]
        clocks = room.table.clocks()
        turn = Turn(g.variant, g.start_fen, g.custom_start, list(g.moves), g.pos.copy(), seat, g.tc, clocks,
                    list(g.moves_done))
        player = room.engines.get(seat)
        if player is None:
            player = room.engines[seat] = EngineSeat(self.hall.engines[name])
        loop = asyncio.get_event_loop()
        at = room.actions
        pos = g.pos.copy()

        def report(depth: int, score: Score, pv: List[str], uci: bool) -> None:
            words = line_words(pos, seat, depth, score, pv, uci)
            loop.call_soon_threadsafe(_engine_line, room, at, seat, words)

        return await loop.run_in_executor(self.engine_threads, player.move, turn, report)
