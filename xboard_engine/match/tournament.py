"""Tournaments: scheduling, running games in a process pool or on a Dask cluster, PGN output game by
game, live statistics, SPRT stopping and resuming an interrupted run from its PGN."""
import concurrent.futures
import os
import random
import signal
import sys
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, TextIO, Tuple

from ..core.position import Position
from ..core.variant import get_variant
from ..time_control import TimeControl
from .engines import EngineConfig, EngineFailure, UciClient, kill_all
from .keeper import worker_keeper
from .pgn import append_game, read_games
from .referee import Adjudication, GameRecord, play_game
from .stats import Score, Sprt, format_line


class Opening(NamedTuple):
    fen: Optional[str] = None
    moves: Tuple[str, ...] = ()
    label: str = ""


class GameSpec(NamedTuple):
    """One scheduled game: who plays which colour from which opening."""
    number: int                 # 1-based, unique in the tournament
    round_label: str            # "round.game" as written in the PGN Round tag
    white: int                  # engine indexes
    black: int
    opening: Opening


class MatchResult(NamedTuple):
    games: List[GameRecord]
    scores: Dict[Tuple[str, str], Score]       # (engine, opponent) -> score of engine
    stopped_by_sprt: Optional[str] = None


def load_openings(path: str, fmt: str, variant: str) -> List[Opening]:
    """Openings from an EPD file (one FEN per line) or the games of a PGN file (its moves)."""
    openings: List[Opening] = []
    try:
        handle = open(path, encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot read openings file {path!r}: {error.strerror}") from None
    with handle:
        if fmt == "epd":
            for number, line in enumerate(handle, 1):
                fields = line.split()
                if not fields or line.startswith("#"):
                    continue
                fen = " ".join(fields[:4]) + " 0 1" if len(fields) >= 4 else " ".join(fields)
                try:
                    Position.from_fen(fen, variant)
                except ValueError as error:
                    raise ValueError(f"{path}:{number}: {error}") from None
                openings.append(Opening(fen=fen, label=f"{path}:{number}"))
        elif fmt == "pgn":
            for index, game in enumerate(read_games(handle), 1):
                fen = game.tags.get("FEN")
                pos = Position.from_fen(fen, variant) if fen else Position(variant)
                texts = []
                try:
                    for san in game.moves:
                        move = pos.parse_san(san)
                        texts.append(pos.move_text(move))
                        pos.push(move)
                except ValueError as error:
                    raise ValueError(f"{path}: game {index}: {error}") from None
                openings.append(Opening(fen=fen, moves=tuple(texts), label=f"{path}#{index}"))
        else:
            raise ValueError(f"unknown openings format {fmt!r} (epd or pgn)")
    if not openings:
        raise ValueError(f"no openings in {path!r}")
    return openings


def schedule(engine_count: int, kind: str, games: int, rounds: int, repeat: bool,
             openings: Sequence[Opening], order: str, rng: random.Random,
             variant: str) -> List[GameSpec]:
    """Every game of the tournament in playing order.

    round-robin: every pair of engines; gauntlet: engine 0 against each other engine.  Each
    encounter is ``games`` games per round; with ``repeat`` consecutive pairs of games share an
    opening with colours reversed."""
    if kind == "round-robin":
        pairs = [(i, j) for i in range(engine_count) for j in range(i + 1, engine_count)]
    elif kind == "gauntlet":
        pairs = [(0, j) for j in range(1, engine_count)]
    else:
        raise ValueError(f"unknown tournament type {kind!r} (round-robin or gauntlet)")
    v = get_variant(variant)
    specs: List[GameSpec] = []
    next_opening = 0
    opening = Opening()
    for r in range(1, rounds + 1):
        game_in_round = 0
        for a, b in pairs:
            for g in range(games):
                if not repeat or g % 2 == 0:
                    if openings:
                        if order == "random":
                            opening = openings[rng.randrange(len(openings))]
                        else:
                            opening = openings[next_opening % len(openings)]
                            next_opening += 1
                    elif v.setup != "fixed":
                        number = rng.randrange(v.setup_count)
                        opening = Opening(fen=v.start_fen_for(number), label=f"setup {number}")
                    else:
                        opening = Opening()
                white, black = (a, b) if g % 2 == 0 else (b, a)
                game_in_round += 1
                specs.append(GameSpec(len(specs) + 1, f"{r}.{game_in_round}", white, black, opening))
    return specs


def play_kept(*positional, **keywords) -> GameRecord:
    """``play_game`` in a tournament worker, with the worker's engines kept between its games
    (``keeper.py``; each engine's ``restart`` key decides)."""
    return play_game(*positional, keeper=worker_keeper(), **keywords)


def _worker_init() -> None:
    """In each worker process: the tournament process alone decides on a Ctrl-C (it stops the
    workers), and a worker told to stop kills its engines before it exits."""
    signal.signal(signal.SIGINT, _worker_ignore)     # not SIG_IGN: the engines would inherit that
    signal.signal(signal.SIGTERM, _worker_stop)


def _worker_ignore(signum, frame) -> None:
    pass


def _worker_stop(signum, frame) -> None:
    kill_all()
    os._exit(128 + signum)


class Tournament:
    """A configured tournament; ``run()`` plays it (see ``run_match`` for the short form)."""

    def __init__(self, engines: Sequence[EngineConfig], variant: str, tcs: Sequence[TimeControl],
                 games: int = 2, rounds: int = 1, repeat: bool = True, kind: str = "round-robin",
                 concurrency: int = 1, openings: Sequence[Opening] = (), opening_order: str = "sequential",
                 adjudication: Adjudication = Adjudication(), pgnout: Optional[str] = None,
                 event: str = "?", seed: Optional[int] = None, sprt: Optional[Sprt] = None,
                 recover: bool = False, resume: bool = False, cluster: Optional[str] = None,
                 out: TextIO = sys.stdout) -> None:
        if len(engines) < 2:
            raise ValueError("a tournament needs at least two engines")
        names = [e.name for e in engines]
        if len(set(names)) != len(names):
            raise ValueError(f"engine names must differ: {', '.join(names)}")
        get_variant(variant)
        for engine in engines:
            if engine.proto == "uci" and variant not in ("normal", "fischerandom"):
                _check_uci_variant(engine, variant)
        self.engines = list(engines)
        self.variant = variant
        self.tcs = list(tcs)
        self.adjudication = adjudication
        self.concurrency = max(1, concurrency)
        self.pgnout = pgnout
        self.event = event
        self.sprt = sprt
        self.recover = recover
        self.resume = resume
        self.cluster = cluster
        self.out = out
        rng = random.Random(seed)
        self.specs = schedule(len(engines), kind, games, rounds, repeat, openings, opening_order, rng, variant)

    # ------------------------------------------------------------------ bookkeeping
    def _finished_rounds(self) -> Dict[str, GameRecord]:
        """Games already in the PGN file (``-resume``), by Round tag."""
        done: Dict[str, GameRecord] = {}
        if not (self.resume and self.pgnout):
            return done
        try:
            handle = open(self.pgnout, encoding="utf-8")
        except OSError:
            return done
        with handle:
            for game in read_games(handle):
                label = game.tags.get("Round", "")
                done[label] = GameRecord(game.tags.get("White", "?"), game.tags.get("Black", "?"),
                                         self.variant, game.tags.get("FEN"), [], game.moves, game.result,
                                         game.tags.get("Termination", ""), "", game.tags.get("TimeControl", ""),
                                         round=label)
        return done

    def _print(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    # ------------------------------------------------------------------ running
    def run(self) -> MatchResult:
        done = self._finished_rounds()
        records: List[GameRecord] = []
        scores: Dict[Tuple[str, str], List[int]] = {}
        for record in done.values():
            self._count(scores, record)
            records.append(record)
        todo = [s for s in self.specs if s.round_label not in done]
        if done:
            self._print(f"Resuming: {len(done)} games already played, {len(todo)} to go")
        total = len(self.specs)
        stopped = None
        crashed = False
        submit, shutdown = self._executor()
        pending: Dict[concurrent.futures.Future, GameSpec] = {}
        queue = list(todo)

        def fill() -> None:
            while queue and len(pending) < self.concurrency and not stopped and not crashed:
                spec = queue.pop(0)
                pending[submit(spec)] = spec

        aborted = True         # until the loop ends normally: an interrupt stops the games under way
        try:
            fill()
            while pending:
                finished, _ = concurrent.futures.wait(list(pending), return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    spec = pending.pop(future)
                    record = future.result()
                    records.append(record)
                    if self.pgnout:
                        append_game(self.pgnout, record)
                    self._count(scores, record)
                    self._report(spec, record, len(records), total, scores)
                    if record.engine_failure and not self.recover:
                        crashed = True
                        self._print(f"Engine failure ({record.reason}); stopping (use -recover to go on)")
                    if self.sprt and len(self.engines) == 2 and not stopped:
                        status = self.sprt.status(self._score(scores, 0, 1))
                        if status != "continue":
                            stopped = status
                            self._print(f"SPRT: {status}")
                fill()
            aborted = False
        finally:
            shutdown(aborted)
        final = {key: Score(*value) for key, value in scores.items()}
        self._standings(final)
        self._depth_report(records)
        return MatchResult(records, final, stopped)

    def _executor(self) -> Tuple[Callable[[GameSpec], concurrent.futures.Future], Callable[[bool], None]]:
        args = self._game_args
        if self.cluster:
            from .cluster import dask_executor
            submit_task, close = dask_executor(self.cluster, play_game, args)
            return submit_task, lambda aborted: close()
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.concurrency, initializer=_worker_init)

        def submit(spec: GameSpec) -> concurrent.futures.Future:
            positional, keywords = args(spec)
            return pool.submit(play_kept, *positional, **keywords)

        def shutdown(aborted: bool) -> None:
            if not aborted:
                pool.shutdown(wait=True, cancel_futures=True)
                return
            # Interrupted: waiting for the games under way would hang (the workers are busy, and a
            # SIGINT sent to this process alone reaches none of them), so they are stopped; each
            # kills its engines first.  The standard library has no public way to reach them.
            workers = list(getattr(pool, "_processes", None) or {})
            pool.shutdown(wait=False, cancel_futures=True)
            for pid in workers:
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass

        return submit, shutdown

    def _game_args(self, spec: GameSpec) -> Tuple[tuple, dict]:
        white, black = self.engines[spec.white], self.engines[spec.black]
        return ((white, black, self.variant, self.tcs[spec.white]),
                dict(tc_black=self.tcs[spec.black], start_fen=spec.opening.fen,
                     opening=list(spec.opening.moves), adjudication=self.adjudication,
                     event=self.event, round_label=spec.round_label))

    def _count(self, scores: Dict[Tuple[str, str], List[int]], record: GameRecord) -> None:
        if record.result not in ("1-0", "0-1", "1/2-1/2"):
            return
        w = scores.setdefault((record.white, record.black), [0, 0, 0])
        b = scores.setdefault((record.black, record.white), [0, 0, 0])
        if record.result == "1-0":
            w[0] += 1
            b[2] += 1
        elif record.result == "0-1":
            w[2] += 1
            b[0] += 1
        else:
            w[1] += 1
            b[1] += 1

    def _score(self, scores: Dict[Tuple[str, str], List[int]], a: int, b: int) -> Score:
        return Score(*scores.get((self.engines[a].name, self.engines[b].name), [0, 0, 0]))

    def _report(self, spec: GameSpec, record: GameRecord, done: int, total: int,
                scores: Dict[Tuple[str, str], List[int]]) -> None:
        self._print(f"Finished game {spec.number} ({record.white} vs {record.black}): "
                    f"{record.result} {{{record.reason}}}")
        a, b = sorted((spec.white, spec.black))
        sprt = self.sprt if len(self.engines) == 2 else None
        self._print(f"Score of {self.engines[a].name} vs {self.engines[b].name}: "
                    f"{format_line(self._score(scores, a, b), sprt)} ({done}/{total} games done)")

    def _depth_report(self, records: Sequence[GameRecord]) -> None:
        """The average search depth each engine reported for its moves (when it reported any)."""
        totals: Dict[str, List[int]] = {}
        for record in records:
            for name, depths in zip((record.white, record.black), record.depths):
                total = totals.setdefault(name, [0, 0])
                total[0] += sum(depths)
                total[1] += len(depths)
        parts = [f"{e.name} {totals[e.name][0] / totals[e.name][1]:.1f} ({totals[e.name][1]} moves)"
                 for e in self.engines if totals.get(e.name, [0, 0])[1]]
        if parts:
            self._print("Average depth per move: " + ", ".join(parts))

    def _standings(self, scores: Dict[Tuple[str, str], Score]) -> None:
        if len(self.engines) <= 2:
            return
        rows = []
        for engine in self.engines:
            total = [0, 0, 0]
            for (name, _), s in scores.items():
                if name == engine.name:
                    total = [total[0] + s.wins, total[1] + s.draws, total[2] + s.losses]
            rows.append((Score(*total), engine.name))
        rows.sort(key=lambda r: -r[0].points)
        self._print("Rank Name                 Points  Games")
        for rank, (score, name) in enumerate(rows, 1):
            self._print(f"{rank:>4} {name:<20} {score.points:>6.1f} {score.games:>6}")


def run_match(engines: Sequence[EngineConfig], variant: str, tc: TimeControl, **options) -> MatchResult:
    """Play a match or tournament and return every game record with the scores.

    >>> from xboard_engine.match import EngineConfig, TimeControl, run_match   # doctest: +SKIP
    >>> ours = EngineConfig("ours", "xboard-engine")                        # doctest: +SKIP
    >>> result = run_match([ours, ours._replace(name="ours2")], "chess80", TimeControl.parse("10+0.1"), games=2)  # doctest: +SKIP
    """
    return Tournament(engines, variant, [tc] * len(engines), **options).run()


def _check_uci_variant(config: EngineConfig, variant: str) -> None:
    """Raise ValueError before any game if a UCI engine's UCI_Variant option does not offer
    ``variant`` (an engine that does not start is left to the games, which record why)."""
    try:
        probe = UciClient(config)
    except EngineFailure:
        return
    offered = probe.variants
    probe.quit()
    if variant not in offered:
        raise ValueError(f"{config.name} speaks UCI and its UCI_Variant option offers "
                         f"{', '.join(offered) or 'no variants'}, not {variant}: use proto=xboard")
