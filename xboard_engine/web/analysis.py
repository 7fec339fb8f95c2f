"""Learning from a game: a finished two-player game's computer analysis (our engine's score for
every position, and each move judged by how much it lost: an inaccuracy, a mistake or a blunder,
with the engine's better move), and our engine's lines on any position of a finished game or of a
person's own analysis board.

Analyses wait in a queue (kept in the store, so a restart loses none) and run one position at a
time on the bot pool, and only while a worker of the pool is free: a live game's bot never waits
for an analysis.  Each position gets ``SECONDS_PER_POSITION`` at full strength.  A person may have
``PER_PERSON`` analyses waiting, and asks for lines at a bounded rate (one search at a time).

Judgements follow lichess's: a move's loss is the fall in the mover's winning chances (from -1 to
1, ``2 / (1 + exp(-0.00368208 * cp)) - 1``, a mate counting as 1) between the position before it
and the position after it; 0.1 or more is an inaccuracy, 0.2 a mistake, 0.3 a blunder; a move the
engine would have played itself is never marked."""
import asyncio
import collections
import math
import time
from typing import TYPE_CHECKING, Any, Deque, Dict, List, Optional

from . import wire
from .bots import analyse_position
from .room import Room, Viewer
from .tables import Refused

if TYPE_CHECKING:
    from .hall import Hall

SECONDS_PER_POSITION = 0.3
LINE_SECONDS = 4.0              # one request for lines searches this long
MAX_PLIES = 400                 # longer games are analysed up to here
PER_PERSON = 2                  # analyses a person may have waiting
QUEUE_LIMIT = 200
JUDGEMENTS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))


def win_chance(cp: Optional[int], mate: Optional[int]) -> float:
    """White's winning chances from -1 to 1 for a score from White's view."""
    if mate is not None:
        return 1.0 if mate > 0 else -1.0
    return 2.0 / (1.0 + math.exp(-0.00368208 * (cp or 0))) - 1.0


def judge(before: Dict[str, Any], after: Dict[str, Any], white_moved: bool, played: str) -> Optional[str]:
    """The judgement of a move from the positions' evaluations before and after it."""
    if before.get("best") in (None, played):
        return None
    loss = win_chance(before["cp"], before["mate"]) - win_chance(after["cp"], after["mate"])
    if not white_moved:
        loss = -loss
    for threshold, words in JUDGEMENTS:
        if loss >= threshold - 1e-9:
            return words
    return None


def final_eval(result: Optional[str]) -> Dict[str, Any]:
    """A position with no legal move: the game's result says what it is worth."""
    if result in ("1-0", "0-1"):
        return {"best": None, "san": None, "cp": None, "mate": 1 if result == "1-0" else -1, "final": result}
    return {"best": None, "san": None, "cp": 0, "mate": None, "final": result}


def summarise(evals: List[Dict[str, Any]], moves: List[str], sans: List[str], start_white: bool) -> Dict[str, Any]:
    """The stored analysis: each ply's score after it, its judgement and the better move; and each
    side's count of inaccuracies, mistakes and blunders."""
    plies = []
    counts = [{"inaccuracy": 0, "mistake": 0, "blunder": 0}, {"inaccuracy": 0, "mistake": 0, "blunder": 0}]
    for i, move in enumerate(moves):
        white_moved = (i % 2 == 0) == start_white
        words = judge(evals[i], evals[i + 1], white_moved, move)
        if words:
            counts[0 if white_moved else 1][words] += 1
        plies.append({"ply": i + 1, "san": sans[i], "cp": evals[i + 1]["cp"], "mate": evals[i + 1]["mate"],
                      "final": evals[i + 1].get("final"), "judgement": words,
                      "best": evals[i]["san"] if words else None})
    return {"start": {"cp": evals[0]["cp"], "mate": evals[0]["mate"]}, "plies": plies, "counts": counts,
            "seconds": SECONDS_PER_POSITION, "engine": "xboard-engine"}


class Analyst:
    """The queue of analyses and the searches for lines, on the hall's bot pool."""

    def __init__(self, hall: "Hall", seconds: float = SECONDS_PER_POSITION) -> None:
        self.hall = hall
        self.seconds = seconds
        self.queue: Deque[int] = collections.deque()
        self.current: Optional[int] = None
        self.progress = (0, 0)
        self.looking: Dict[Any, Viewer] = {}        # a line search's job key -> the page that asked
        self.rates: Dict[Any, wire.RateLimit] = {}
        self.busy = 0                               # pool workers lent to analysis now
        self._wake: Optional[asyncio.Event] = None
        self._task: Optional["asyncio.Future[Any]"] = None

    # ----------------------------------------------------------------- the queue
    def start(self) -> None:
        self.queue.extend(g for g in self.hall.store.queued_analyses() if g not in self.queue)
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self._run())
        if self.queue:
            self._wake.set()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def request(self, viewer: Viewer, room: Room) -> None:
        """Anyone looking at a finished two-player game may ask for its analysis."""
        if room.kind != "two":
            raise Refused("computer analysis is for two-player games")
        if room.status != "over":
            raise Refused("a game is analysed once it is over")
        if not room.table.ply_count():
            raise Refused("the game has no moves to analyse")
        known = self.hall.store.analysis(room.id)
        if known is not None and known[0] in ("queued", "done"):
            raise Refused("this game's analysis is " + ("waiting its turn" if known[0] == "queued" else "done"))
        player = self.hall.ensure_player(viewer)
        mine = [g for g in self.queue if (self.hall.store.analysis(g) or ("", None, None))[2] == player["id"]]
        if len(mine) >= PER_PERSON:
            raise Refused(f"you have {len(mine)} analyses waiting (at most {PER_PERSON}): wait for one to finish")
        if len(self.queue) >= QUEUE_LIMIT:
            raise Refused("the analysis queue is full: try again later")
        self.hall.store.set_analysis(room.id, "queued", requester=player["id"])
        self.queue.append(room.id)
        if self._wake is not None:
            self._wake.set()
        self.tell(room)

    def state(self, game_id: int) -> Dict[str, Any]:
        """What a game page shows of the game's analysis."""
        known = self.hall.store.analysis(game_id)
        out: Dict[str, Any] = {"type": "analysis", "status": known[0] if known else None}
        if known and known[0] == "done":
            out["data"] = known[1]
        elif game_id == self.current:
            out["status"], out["done"], out["total"] = "running", self.progress[0], self.progress[1]
        elif game_id in self.queue:
            out["ahead"] = list(self.queue).index(game_id) + (1 if self.current is not None else 0)
        return out

    def tell(self, room: Room) -> None:
        text = wire.dumps(self.state(room.id))
        for v in list(room.viewers):
            v.send(text)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            if not self.queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            game_id = self.queue.popleft()
            self.current = game_id
            try:
                await self._analyse(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:                 # one bad game must not stop the queue
                print(f"xboard-engine serve: analysis of game {game_id} failed: {error!r}", flush=True)
                self.hall.store.set_analysis(game_id, "failed", {"error": str(error)})
            finally:
                self.current = None
            room = self.hall.rooms.get(game_id)
            if room is not None:
                self.tell(room)

    async def _free_worker(self) -> None:
        """Wait until a worker of the pool is free (no live game's bot is kept waiting)."""
        pool = self.hall.pool
        while sum(1 for r in self.hall.rooms.values() if r.bot_busy) + self.busy >= pool.workers:
            await asyncio.sleep(0.2)

    async def _search(self, *args: Any) -> Any:
        await self._free_worker()
        self.busy += 1
        try:
            return await self.hall.pool.run(analyse_position, *args)
        finally:
            self.busy -= 1

    async def _analyse(self, game_id: int) -> None:
        room = self.hall.room(game_id)
        if room is None or room.kind != "two":
            self.hall.store.set_analysis(game_id, "failed", {"error": "no such two-player game"})
            return
        g = room.table.game                            # type: ignore[attr-defined]
        moves = list(g.moves)[:MAX_PLIES]
        sans = list(g.snapshot()["sans"])[:MAX_PLIES]
        result = (room.result or {}).get("result")
        evals = []
        last_told = time.monotonic()
        for i in range(len(moves) + 1):
            self.progress = (i, len(moves) + 1)
            found = await self._search(g.variant, g.start_fen, moves[:i], self.seconds)
            if found["best"] is None:
                found = final_eval(result)
            evals.append(found)
            live = self.hall.rooms.get(game_id)
            if live is not None and live.viewers and time.monotonic() - last_told > 1.0:
                self.tell(live)
                last_told = time.monotonic()
        start_white = g.start_fen.split()[1:2] != ["b"]
        self.hall.store.set_analysis(game_id, "done", summarise(evals, moves, sans, start_white))

    # ----------------------------------------------------------------- lines on one position
    def lines(self, viewer: Viewer, room: Room, ply: Any) -> None:
        """Our engine's lines on the game's position after ``ply`` plies, streamed to this page:
        in a finished two-player game, or in a game where nobody but the asker plays."""
        if room.kind != "two":
            raise Refused("engine lines are for two-player games")
        if room.status not in ("over", "aborted") and not room.solo(viewer.player_id):
            raise Refused("engine lines are shown once the game is over (or on your own analysis board)")
        g = room.table.game                            # type: ignore[attr-defined]
        count = len(g.moves)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= count:
            raise Refused(f"ply: 0 to {count}")
        if any(job[1] == viewer.person for job in self.looking):
            raise Refused("your engine is still thinking: one search at a time")
        rate = self.rates.setdefault(viewer.person, wire.RateLimit(rate=1 / 5.0, burst=3.0))
        if not rate.allow():
            raise Refused("too many searches: wait a few seconds")
        job = ("lines", viewer.person, ply, time.monotonic())
        self.looking[job] = viewer
        asyncio.ensure_future(self._lines(job, viewer, list(g.moves[:ply]), g.variant, g.start_fen, ply))

    async def _lines(self, job: Any, viewer: Viewer, moves: List[str], variant: str, start_fen: str, ply: int) -> None:
        try:
            found = await self._search(variant, start_fen, moves, LINE_SECONDS, job)
            viewer.send(wire.dumps({"type": "lines", "ply": ply, "done": True, "best": found.get("san"),
                                    "cp": found.get("cp"), "mate": found.get("mate")}))
        except Exception as error:
            viewer.send(wire.dumps({"type": "error", "message": f"the engine could not search: {error}"}))
        finally:
            self.looking.pop(job, None)

    def line(self, job: Any, depth: int, score: str, pv: List[str]) -> None:
        """A line of a search for lines, to the page that asked."""
        viewer = self.looking.get(job)
        if viewer is not None:
            viewer.send(wire.dumps({"type": "lines", "ply": job[2], "depth": depth, "score": score, "pv": pv}))
