"""Learning from a game: a finished game's computer analysis (our engine's score for every
position, and each move judged by how much it lost: an inaccuracy, a mistake or a blunder, with the
engine's better move), and our engine's lines on any position of a finished game or of a person's
own analysis board.

Analyses wait in a queue (kept in the store, so a restart loses none) and run one position at a
time on the bot pool, and only while a worker of the pool is free: a live game's bot never waits
for an analysis.  The queue is shared round robin between the addresses that asked: each address's
oldest waiting game in turn, the address served longest ago first (one address's many cookies
share one turn), so nobody waits behind another's whole list.  Each position gets ``SECONDS_PER_POSITION`` at full strength.  A person may have
``PER_PERSON`` analyses waiting, and asks for lines at a bounded rate (one search at a time).

Judgements follow lichess's: a move's loss is the fall in the mover's winning chances (from -1 to
1, ``2 / (1 + exp(-0.00368208 * cp)) - 1``, a mate counting as 1) between the position before it
and the position after it; 0.1 or more is an inaccuracy, 0.2 a mistake, 0.3 a blunder; a move the
engine would have played itself is never marked.

8 Player Chess is not zero-sum, so a position has no one score: each move is judged from its
mover's side alone (the seat, or its pair or team), by our 8 Player bots' search of the position
before it (as in a bot's move: Best-Reply Search in Singles and Pairs, the team search in Teams).
The best move's score and the played move's score, searched to the same depth, are both the mover's
side's centipawns (points count 40 each; an elimination of the side counts as a lost game), and
the fall in winning chances between them is judged with the same thresholds.  The graph has a line
per seat: its side's chances at each of its moves."""
import asyncio
import collections
import math
import time
from typing import TYPE_CHECKING, Any, Deque, Dict, List, Optional

from ...multi.bots.values import STALEMATED_CP
from ..games.eight_player import board_views
from ..games.tables import Refused
from ..rooms import wire
from ..rooms.room import Room, Viewer
from .pool import analyse_eight_action, analyse_position, eight_lines

if TYPE_CHECKING:
    from ..rooms.hall import Hall

SECONDS_PER_POSITION = 0.3
LINE_SECONDS = 4.0              # one request for lines searches this long
MAX_PLIES = 400                 # longer games are analysed up to here
PER_PERSON = 2                  # analyses a person may have waiting
PER_ADDRESS = 10                # analyses waiting that were asked for from one address
QUEUE_LIMIT = 200
BOARDS_KEPT = 16                # 8 Player games whose past boards are kept
JUDGEMENTS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))
ELIMINATION_CP = STALEMATED_CP // 2  # an 8 Player bot's score this large: its side is out (or wins)


def win_chance(cp: Optional[int], mate: Optional[int]) -> float:
    """White's winning chances from -1 to 1 for a score from White's view."""
    if mate is not None:
        return 1.0 if mate > 0 else -1.0
    return 2.0 / (1.0 + math.exp(-0.00368208 * (cp or 0))) - 1.0


def side_chance(cp: int) -> float:
    """An 8 Player side's winning chances from -1 to 1 for its bots' score (an elimination: -1 or 1)."""
    if abs(cp) >= ELIMINATION_CP:
        return 1.0 if cp > 0 else -1.0
    return win_chance(cp, None)


def judge(before: Dict[str, Any], after: Dict[str, Any], white_moved: bool, played: str) -> Optional[str]:
    """The judgement of a move from the positions' evaluations before and after it."""
    if before.get("best") in (None, played):
        return None
    loss = win_chance(before["cp"], before["mate"]) - win_chance(after["cp"], after["mate"])
    return words_for(loss if white_moved else -loss)


def words_for(loss: float) -> Optional[str]:
    """A move's judgement for the winning chances it lost (None: none)."""
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


def summarise_eight(looks: List[Dict[str, Any]], actions: List[List[Any]]) -> Dict[str, Any]:
    """The stored analysis of an 8 Player game: each action with, for a judged move, the mover's
    side's score of the best move and of the move played, its judgement and the better move; and
    each seat's counts of inaccuracies, mistakes and blunders."""
    plies = []
    counts = [{"inaccuracy": 0, "mistake": 0, "blunder": 0} for _ in range(8)]
    for i, look in enumerate(looks):
        seat, kind, text = actions[i]
        entry: Dict[str, Any] = {"ply": i + 1, "seat": seat, "kind": kind, "san": text}
        if "score" in look:
            words = None if look["best"] == text else words_for(side_chance(look["score"]) - side_chance(look["played"]))
            if words:
                counts[seat][words] += 1
            entry.update(score=look["score"], played=look["played"], chance=round(side_chance(look["played"]), 4),
                         judgement=words, best=look["best"] if words else None)
        plies.append(entry)
    return {"eight": True, "plies": plies, "counts": counts, "seconds": SECONDS_PER_POSITION,
            "engine": "xboard-engine 8 Player bots"}


def _board_texts(saved: Dict[str, Any]) -> List[str]:
    """Each past board of an 8 Player game as the message a page is sent."""
    return [wire.dumps(dict(view, type="position", ply=n)) for n, view in enumerate(board_views(saved))]


class Analyst:
    """The queue of analyses and the searches for lines, on the hall's bot pool."""

    def __init__(self, hall: "Hall", seconds: float = SECONDS_PER_POSITION) -> None:
        self.hall = hall
        self.seconds = seconds
        self.queue: Deque[int] = collections.deque()
        self.asked_from: Dict[int, str] = {}        # a waiting game -> the address that asked (this run)
        self.served: Dict[str, int] = {}            # an address with games waiting -> the turn its last began
        self.turns = 0
        self.current: Optional[int] = None
        self.progress = (0, 0)
        self.looking: Dict[Any, Viewer] = {}        # a line search's job key -> the page that asked
        self.rates: Dict[Any, wire.RateLimit] = {}
        self.busy = 0                               # pool workers lent to analysis now
        self.boards: "collections.OrderedDict[int, Any]" = collections.OrderedDict()  # 8 Player boards by game
        self._wake: Optional[asyncio.Event] = None
        self._task: Optional["asyncio.Future[Any]"] = None

    # ----------------------------------------------------------------- the queue
    def start(self) -> None:
        """At start-up (the store read at once: nobody is served yet)."""
        shared = self.hall.shared                   # (several processes: the lobby's resumes the queue)
        if shared is None or shared.lobby:
            self.queue.extend(g for g in self.hall.store.sync.queued_analyses() if g not in self.queue)
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self._run())
        if self.queue:
            self._wake.set()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def request(self, viewer: Viewer, room: Room) -> None:
        """Anyone looking at a finished game may ask for its analysis."""
        if room.status != "over":
            raise Refused("a game is analysed once it is over")
        if not room.table.ply_count():
            raise Refused("the game has no moves to analyse")
        known = await self.hall.store.analysis(room.id)
        if known is not None and known[0] in ("queued", "done"):
            raise Refused("this game's analysis is " + ("waiting its turn" if known[0] == "queued" else "done"))
        player = await self.hall.people.ensure_player(viewer)
        waiting = list(self.queue)
        asked = await asyncio.gather(*[self.hall.store.analysis(g) for g in waiting])
        mine = [g for g, known_g in zip(waiting, asked) if (known_g or ("", None, None))[2] == player["id"]]
        if room.id in self.queue or room.id == self.current:      # asked for by another page meanwhile
            raise Refused("this game's analysis is waiting its turn")
        if len(mine) >= PER_PERSON:
            raise Refused(f"you have {len(mine)} analyses waiting (at most {PER_PERSON}): wait for one to finish")
        from_here = [g for g in self.queue if self.asked_from.get(g) == viewer.address]
        if len(from_here) >= PER_ADDRESS:
            raise Refused(f"{len(from_here)} analyses asked for from your address are waiting (at most "
                          f"{PER_ADDRESS}): wait for one to finish")
        if len(self.queue) >= QUEUE_LIMIT:
            raise Refused("the analysis queue is full: try again later")
        await self.hall.store.set_analysis(room.id, "queued", requester=player["id"])
        if room.id in self.queue or room.id == self.current:      # asked for by another page meanwhile
            return
        self.queue.append(room.id)
        self.asked_from[room.id] = viewer.address
        if self._wake is not None:
            self._wake.set()
        await self.tell(room)

    async def state(self, game_id: int) -> Dict[str, Any]:
        """What a game page shows of the game's analysis."""
        known = await self.hall.store.analysis(game_id)
        out: Dict[str, Any] = {"type": "analysis", "status": known[0] if known else None}
        if known and known[0] == "done":
            out["data"] = known[1]
        elif game_id == self.current:
            out["status"], out["done"], out["total"] = "running", self.progress[0], self.progress[1]
        elif game_id in self.queue:
            out["ahead"] = self.running_order().index(game_id) + (1 if self.current is not None else 0)
        return out

    def _asker(self, game_id: int) -> str:
        """Whose turn a waiting game takes: the address that asked (a game queued before a restart
        is a turn of its own)."""
        return self.asked_from.get(game_id) or f"game {game_id}"

    def running_order(self) -> List[int]:
        """The waiting games in the order they will run: round robin over the askers, the one served
        longest ago (or never) first, each asker's games oldest first."""
        by_asker: Dict[str, List[int]] = {}
        for game_id in self.queue:
            by_asker.setdefault(self._asker(game_id), []).append(game_id)
        first = {asker: n for n, asker in enumerate(by_asker)}
        askers = sorted(by_asker, key=lambda a: (self.served.get(a, -1), first[a]))
        longest = max((len(games) for games in by_asker.values()), default=0)
        return [by_asker[a][r] for r in range(longest) for a in askers if r < len(by_asker[a])]

    def take_next(self) -> int:
        """The waiting game whose turn it is, out of the queue."""
        game_id = self.running_order()[0]
        self.queue.remove(game_id)
        asker = self._asker(game_id)
        self.asked_from.pop(game_id, None)
        self.turns += 1
        if any(self._asker(g) == asker for g in self.queue):
            self.served[asker] = self.turns
        else:                               # nothing more of theirs waits: the same as never served
            self.served.pop(asker, None)
        return game_id

    async def tell(self, room: Room) -> None:
        text = wire.dumps(await self.state(room.id))
        for v in list(room.viewers):
            v.send(text)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            if not self.queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            game_id = self.take_next()
            self.current = game_id
            try:
                await self._analyse(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:                 # one bad game must not stop the queue
                print(f"xboard-engine serve: analysis of game {game_id} failed: {error!r}", flush=True)
                await self.hall.store.set_analysis(game_id, "failed", {"error": str(error)})
            finally:
                self.current = None
            room = self.hall.rooms.get(game_id)
            if room is not None:
                await self.tell(room)

    async def _free_worker(self) -> None:
        """Wait until a worker of the pool is free (no live game's bot is kept waiting)."""
        pool = self.hall.pool
        while sum(1 for r in self.hall.rooms.values() if r.bot_busy) + self.busy >= pool.workers:
            await asyncio.sleep(0.2)

    async def _search(self, function: Any, *args: Any) -> Any:
        """``function(*args)`` on the pool once a worker is free."""
        await self._free_worker()
        self.busy += 1
        try:
            return await self.hall.pool.run(function, *args)
        finally:
            self.busy -= 1

    async def _analyse(self, game_id: int) -> None:
        room = await self.hall.room(game_id)
        if room is None:
            await self.hall.store.set_analysis(game_id, "failed", {"error": "no such game"})
            return
        if room.kind == "eight":
            await self._analyse_eight(room)
            return
        g = room.table.game                            # type: ignore[attr-defined]
        moves = list(g.moves)[:MAX_PLIES]
        sans = list(g.snapshot()["sans"])[:MAX_PLIES]
        result = (room.result or {}).get("result")
        evals = []
        last_told = time.monotonic()
        for i in range(len(moves) + 1):
            self.progress = (i, len(moves) + 1)
            found = await self._search(analyse_position, g.variant, g.start_fen, moves[:i], self.seconds)
            if found["best"] is None:
                found = final_eval(result)
            evals.append(found)
            live = self.hall.rooms.get(game_id)
            if live is not None and live.viewers and time.monotonic() - last_told > 1.0:
                await self.tell(live)
                last_told = time.monotonic()
        start_white = g.start_fen.split()[1:2] != ["b"]
        await self.hall.store.set_analysis(game_id, "done", summarise(evals, moves, sans, start_white))

    async def _analyse_eight(self, room: Room) -> None:
        game = room.table.game.game.to_dict()          # type: ignore[attr-defined]
        actions = game["actions"][:MAX_PLIES]
        looks = []
        last_told = time.monotonic()
        for i in range(len(actions)):
            self.progress = (i, len(actions))
            if actions[i][1] == "move":
                looks.append(await self._search(analyse_eight_action, game, i, self.seconds, ("analysis", room.id)))
            else:
                looks.append({"seat": actions[i][0], "kind": actions[i][1]})
            live = self.hall.rooms.get(room.id)
            if live is not None and live.viewers and time.monotonic() - last_told > 1.0:
                await self.tell(live)
                last_told = time.monotonic()
        await self.hall.store.set_analysis(room.id, "done", summarise_eight(looks, actions))

    # ----------------------------------------------------------------- lines on one position
    def lines(self, viewer: Viewer, room: Room, ply: Any) -> None:
        """Our engine's lines on the game's position after ``ply`` plies (8 Player Chess: actions),
        streamed to this page: in a finished game, or in a game where nobody but the asker plays."""
        if room.status not in ("over", "aborted") and not room.solo(viewer.player_id):
            raise Refused("engine lines are shown once the game is over (or on your own analysis board)")
        count = room.table.ply_count()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= count:
            raise Refused(f"ply: 0 to {count}")
        if any(job[1] == viewer.person for job in self.looking):
            raise Refused("your engine is still thinking: one search at a time")
        rate = self.rates.setdefault(viewer.person, wire.RateLimit(rate=1 / 5.0, burst=3.0))
        if not rate.allow():
            raise Refused("too many searches: wait a few seconds")
        job = ("lines", viewer.person, ply, time.monotonic())
        self.looking[job] = viewer
        if room.kind == "eight":
            search = (eight_lines, room.table.game.game.to_dict(), ply, LINE_SECONDS, job)  # type: ignore[attr-defined]
        else:
            g = room.table.game                        # type: ignore[attr-defined]
            search = (analyse_position, g.variant, g.start_fen, list(g.moves[:ply]), LINE_SECONDS, job)
        asyncio.ensure_future(self._lines(job, viewer, ply, search))

    async def _lines(self, job: Any, viewer: Viewer, ply: int, search: Any) -> None:
        try:
            found = await self._search(*search)
            if "seat" in found:                        # 8 Player Chess: the mover's side's score
                done = {"best": found["best"], "cp": found["score"], "mate": None, "seat": found["seat"]}
            else:
                done = {"best": found.get("san"), "cp": found.get("cp"), "mate": found.get("mate")}
            viewer.send(wire.dumps(dict({"type": "lines", "ply": ply, "done": True}, **done)))
        except Exception as error:
            viewer.send(wire.dumps({"type": "error", "message": f"the engine could not search: {error}"}))
        finally:
            self.looking.pop(job, None)

    # ----------------------------------------------------------------- an 8 Player game's past boards
    async def position(self, viewer: Viewer, room: Room, ply: Any) -> None:
        """The board of a finished 8 Player game after its first ``ply`` actions, to this page (the
        page cannot replay the rules itself).  A game's boards are worked out once, off the loop,
        and kept for the last ``BOARDS_KEPT`` games asked about."""
        if room.kind != "eight":
            raise Refused("past boards are sent for 8 Player games (a two-player page replays its own)")
        if room.status not in ("over", "aborted"):
            raise Refused("past boards are shown once the game is over")
        count = room.table.ply_count()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= count:
            raise Refused(f"ply: 0 to {count}")
        boards = self.boards.get(room.id)
        if boards is None:
            saved = room.table.game.game.to_dict()     # type: ignore[attr-defined]
            boards = asyncio.get_event_loop().run_in_executor(None, _board_texts, saved)
            self.boards[room.id] = boards
            while len(self.boards) > BOARDS_KEPT:
                self.boards.popitem(last=False)
        self.boards.move_to_end(room.id)
        try:
            texts = await asyncio.shield(boards)
        except Exception as error:                   # not kept: the next request tries again
            self.boards.pop(room.id, None)
            raise Refused(f"the game's boards could not be shown: {error}")
        viewer.send(texts[ply])

    def line(self, job: Any, depth: int, score: str, pv: List[str]) -> None:
        """A line of a search for lines, to the page that asked."""
        viewer = self.looking.get(job)
        if viewer is not None:
            viewer.send(wire.dumps({"type": "lines", "ply": job[2], "depth": depth, "score": score, "pv": pv}))
