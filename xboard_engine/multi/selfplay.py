"""Unattended games of 8 Player Chess between players in Python: one game (``play_game``) or a run of
games with records and a results table (``run_games``).

A player is any object with a ``name`` and a ``choose(game)`` method that returns a legal move for
``game.turn`` without changing the game (the bots of ``bots.py``, or ``RandomPlayer``).  The referee
here never lets a player end the run: a player that raises, returns something that is not a legal move,
changes the game it was shown, or (with a per-move time limit) thinks too long is timed out
(``game.timeout()``), the reason goes into the game's log and record, and the game goes on.

>>> from xboard_engine.multi.selfplay import play_game, RandomPlayer
>>> game = play_game({seat: RandomPlayer(seed=seat) for seat in range(8)}, mode="pairs", seed=3)
>>> game.over
True
"""
import csv
import io
import json
import os
import random
import time
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from ..core.errors import RulesError
from ..core.moves import Move
from .game import Game
from .record import write_record

__all__ = ["RandomPlayer", "Incident", "GameSummary", "MatchResults", "play_game", "run_games",
           "summarise", "MatchError"]


class MatchError(ValueError):
    """Bad arguments to ``play_game`` or ``run_games`` (a missing seat, a bad output directory)."""


class RandomPlayer:
    """Plays a legal move chosen at random (seeded: the same seed and game give the same moves)."""

    def __init__(self, seed: Optional[int] = None, name: str = "random") -> None:
        self.rng = random.Random(seed)
        self.name = name
        self.last: Dict[str, Any] = {}

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class Incident(NamedTuple):
    """A player the referee timed out: who, after how many actions, and why."""
    seat: int
    action_index: int
    reason: str


class GameSummary(NamedTuple):
    """One finished (or abandoned) game, for the results table."""
    number: int                      # 1-based, as in the record's file name
    mode: str
    seed: int
    reason: str                      # the result's reason, "unfinished ..." or "error: ..." (a rule-core bug)
    winners: Tuple[int, ...]
    scores: Tuple[int, ...]
    draw: bool
    moves: int                       # moves played (zombie moves included), not resignations
    seconds: float
    players: Tuple[str, ...]         # name per seat
    incidents: Tuple[Incident, ...]
    record_file: Optional[str]
    error: Optional[str]             # a rule-core error that stopped the game, else None
    think: Tuple[Tuple[float, int, int], ...]   # per seat: seconds thinking, moves chosen, nodes searched
    game: Optional[Game] = None      # the game itself (not written to JSON)


def _player_name(player: Any) -> str:
    return str(getattr(player, "name", None) or type(player).__name__)


def _seat_players(players: Union[Mapping[int, Any], Sequence[Any]], seats: int) -> Dict[int, Any]:
    table = dict(players) if isinstance(players, Mapping) else dict(enumerate(players))
    missing = [s for s in range(seats) if s not in table]
    if missing or len(table) != seats:
        raise MatchError(f"a player is needed for each of the {seats} seats (0-{seats - 1}); "
                         f"missing: {missing or 'none'}, extra: {sorted(set(table) - set(range(seats))) or 'none'}")
    for seat, player in table.items():
        if not callable(getattr(player, "choose", None)):
            raise MatchError(f"the player of seat {seat} ({player!r}) has no choose(game) method")
    return table


def _fingerprint(game: Game) -> Tuple[int, Optional[int], int, int]:
    pos = game.position
    return pos.hash, game.turn, len(game.actions), len(getattr(pos, "_stack", ()))


def play_game(players: Union[Mapping[int, Any], Sequence[Any]], mode: str = "singles",
              options: Optional[Dict[str, object]] = None, seed: Optional[int] = None,
              on_move: Optional[Callable[[Game, int, str], None]] = None, max_moves: Optional[int] = None,
              move_time_limit: Optional[float] = None, position: Optional[str] = None,
              incidents: Optional[List[Incident]] = None,
              think: Optional[List[List[float]]] = None) -> Game:
    """Play one game between ``players`` (a player per seat 0..7, as a dict or a list) to its end.

    ``on_move(game, seat, text)`` is called after each action of a player (text: the move, or
    ``timed out: reason``).  ``max_moves`` stops the game unfinished after that many actions.
    ``move_time_limit`` (seconds) times out a player whose ``choose`` took longer (measured when it
    returns: a player is not interrupted).  Timeouts are appended to ``incidents`` and noted in
    ``game.log`` (so in the record); ``think[seat]`` accumulates [seconds, moves, nodes].
    Raises RulesOptionError for a bad mode or option, MatchError for bad players; a rule-core error
    during the game propagates (``run_games`` catches it)."""
    game = Game(mode=mode, options=options, position=position, seed=seed)
    table = _seat_players(players, game.v.players)
    if incidents is None:
        incidents = []
    if think is None:
        think = [[0.0, 0, 0] for _ in range(game.v.players)]
    trusted: List[Tuple[int, str, str]] = list(game.actions)   # a copy the players cannot touch
    notes: List[Tuple[int, str]] = []                            # the referee's own words for the log
    while not game.over and (max_moves is None or len(game.actions) < max_moves):
        seat = game.turn
        assert seat is not None
        player = table[seat]
        before = _fingerprint(game)
        failure: Optional[str] = None
        move: Any = None
        started = time.perf_counter()
        try:
            move = player.choose(game)
        except Exception as error:  # noqa: BLE001 - any failure of a player is a timeout, not a crash
            failure = f"its player raised {type(error).__name__}: {error}"
        elapsed = time.perf_counter() - started
        think[seat][0] += elapsed
        think[seat][1] += 1
        last = getattr(player, "last", None)
        if isinstance(last, dict) and isinstance(last.get("nodes"), int):
            think[seat][2] += last["nodes"]
        if _fingerprint(game) != before:
            # The player changed the game (or crashed inside its search): rebuild it from the record.
            data = game.to_dict()
            data["actions"] = [list(a) for a in trusted]
            game = Game.from_dict(data)
            game.log.extend(notes)
            failure = (failure + "; " if failure else "") + "its player changed the game it was shown"
        if failure is None and move_time_limit is not None and elapsed > move_time_limit:
            failure = f"its player took {elapsed:.2f} s, over the limit of {move_time_limit:g} s"
        if failure is None:
            try:
                game.play(move)             # checks the move first and changes nothing if it is illegal
            except RulesError:
                failure = f"its player chose {move!r}, not a legal move"
        if failure is None:
            said = game.actions[len(trusted)][2]
        else:
            index = len(game.actions)
            game.timeout()
            words = f"{game.seat_name(seat)} was timed out by the match referee: {failure}"
            notes.append((index + 1, words))
            game.log.append(notes[-1])
            incidents.append(Incident(seat, index, failure))
            said = "timed out: " + failure
        trusted.extend(game.actions[len(trusted):])
        if on_move is not None:
            on_move(game, seat, said)
    return game


def _moves_played(game: Game) -> int:
    return sum(1 for _, kind, _ in game.actions if kind == "move")


def run_games(player_factory: Callable[[int, int], Any], mode: str = "singles", games: int = 1,
              options: Optional[Dict[str, object]] = None, seed: Optional[int] = None,
              out_dir: Optional[str] = None, numerals: bool = False, max_moves: Optional[int] = None,
              move_time_limit: Optional[float] = None,
              on_game: Optional[Callable[[GameSummary], None]] = None,
              on_move: Optional[Callable[[Game, int, str], None]] = None,
              keep_games: bool = False) -> "MatchResults":
    """Play ``games`` games; ``player_factory(game_number, seat)`` gives each seat's player (game
    numbers from 1).  Game k has seed ``seed + k - 1`` (``seed`` None: random).  With ``out_dir``, each
    game's record goes to ``out_dir/game-001.txt`` etc. and the table (rewritten after every game) to
    ``results.txt``, ``.csv`` and ``.json`` there.  ``on_game(summary)`` is called after each game.  A rule-core error ends that game
    (reported in the table), not the run."""
    if games < 1:
        raise MatchError("the number of games is at least 1")
    Game(mode=mode, options=options)          # a bad mode or option fails here, before anything runs
    if out_dir is not None:
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as error:
            raise MatchError(f"cannot create the output directory {out_dir!r}: {error.strerror or error}") \
                from None
    base = seed if seed is not None else random.randrange(1 << 30)
    results = MatchResults(mode, options or {})
    for number in range(1, games + 1):
        game_seed = base + number - 1
        players = {seat: player_factory(number, seat) for seat in range(8)}
        names = tuple(_player_name(players[s]) for s in range(8))
        incidents: List[Incident] = []
        think = [[0.0, 0, 0] for _ in range(8)]
        started = time.perf_counter()
        error: Optional[str] = None
        game: Optional[Game] = None
        latest: List[Game] = []

        def moved(current: Game, seat: int, text: str) -> None:
            latest[:] = [current]
            if on_move is not None:
                on_move(current, seat, text)
        try:
            game = play_game(players, mode, options, game_seed, on_move=moved, max_moves=max_moves,
                             move_time_limit=move_time_limit, incidents=incidents, think=think)
        except MatchError:
            raise
        except Exception as failure:  # noqa: BLE001 - a rule-core bug: report it, go on with the run
            error = f"{type(failure).__name__}: {failure}"
        seconds = time.perf_counter() - started
        record_file = None
        recorded = game if game is not None else (latest[0] if latest else None)
        if recorded is not None and out_dir is not None:
            record_file = os.path.join(out_dir, f"game-{number:03d}.txt")
            try:
                text = write_record(recorded, numerals, dict(enumerate(names)))
            except Exception as failure:  # noqa: BLE001 - the game that failed may not write either
                text = f"{{the record could not be written: {type(failure).__name__}: {failure}}}\n"
            if error:
                text += f"{{stopped by an error: {error}}}\n"
            with open(record_file, "w", encoding="utf-8") as handle:
                handle.write(text)
        if game is None:
            summary = GameSummary(number, mode, game_seed, f"error: {error}", (), (0,) * 8, False,
                                  _moves_played(recorded) if recorded else 0,
                                  seconds, names, tuple(incidents), record_file, error,
                                  tuple((t[0], int(t[1]), int(t[2])) for t in think))
        else:
            result = game.result
            reason = result.reason if result else f"unfinished after {len(game.actions)} actions"
            summary = GameSummary(number, mode, game_seed, reason, result.winners if result else (),
                                  tuple(game.scores), bool(result and result.draw), _moves_played(game),
                                  seconds, names, tuple(incidents), record_file, None,
                                  tuple((t[0], int(t[1]), int(t[2])) for t in think),
                                  game if keep_games else None)
        results.add(summary, game)
        if out_dir is not None:
            results.write(out_dir)          # after every game: a long run stopped early still has its table
        if on_game is not None:
            on_game(summary)
    return results


def summarise(summary: GameSummary, seat_names: Sequence[str]) -> str:
    """One line for a game: number, result, winners, scores, moves, time."""
    winners = ", ".join(seat_names[s] for s in summary.winners) or "-"
    scores = " ".join(str(x) for x in summary.scores)
    extra = f"; {len(summary.incidents)} timed out by the referee" if summary.incidents else ""
    return (f"game {summary.number:3d}: {summary.reason}; winners {winners}; scores {scores}; "
            f"{summary.moves} moves; {summary.seconds:.1f} s{extra}")


class _Tally:
    """Totals of one seat or one player name."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0
        self.points = 0
        self.draws = 0
        self.seconds = 0.0
        self.moves = 0
        self.nodes = 0
        self.timeouts = 0

    def row(self) -> Dict[str, object]:
        return {"games": self.games, "wins": round(self.wins, 3), "draws": self.draws,
                "mean_points": round(self.points / self.games, 2) if self.games else 0.0,
                "moves": self.moves,
                "ms_per_move": round(1000 * self.seconds / self.moves, 1) if self.moves else 0.0,
                "nodes_per_second": int(self.nodes / self.seconds) if self.seconds and self.nodes else 0,
                "timeouts": self.timeouts}


class MatchResults:
    """The games of a run and the totals per seat and per player name."""

    def __init__(self, mode: str, options: Dict[str, object]) -> None:
        self.mode = mode
        self.options = dict(options)
        self.games: List[GameSummary] = []
        self.by_seat: Dict[int, _Tally] = {}
        self.by_player: Dict[str, _Tally] = {}
        self.seat_names: List[str] = [Game().v.seats[s].colour for s in range(8)]
        self._teams: List[object] = list(Game(mode=mode).teams)

    def add(self, summary: GameSummary, game: Optional[Game]) -> None:
        """Count one game: a win is shared among the winning sides (a pair or team counts once)."""
        self.games.append(summary)
        sides = {self._teams[s] for s in summary.winners}
        timed_out = {i.seat for i in summary.incidents}
        for seat in range(8):
            for tally in (self.by_seat.setdefault(seat, _Tally()),
                          self.by_player.setdefault(summary.players[seat], _Tally())):
                tally.games += 1
                if seat in summary.winners:
                    tally.wins += 1.0 / len(sides)
                tally.draws += int(summary.draw)
                tally.points += summary.scores[seat]
                tally.seconds += summary.think[seat][0]
                tally.moves += summary.think[seat][1]
                tally.nodes += summary.think[seat][2]
                tally.timeouts += int(seat in timed_out)

    @property
    def errors(self) -> List[GameSummary]:
        """Games stopped by a rule-core error."""
        return [g for g in self.games if g.error]

    def game_rows(self, flat: bool = True) -> List[Dict[str, object]]:
        """A dict per game; ``flat``: lists joined into text (for CSV and the table)."""
        def join(items: Sequence[object], sep: str) -> object:
            return sep.join(str(x) for x in items) if flat else list(items)
        return [{"game": g.number, "mode": g.mode, "seed": g.seed, "reason": g.reason,
                 "winners": join([self.seat_names[s] for s in g.winners], " "), "draw": g.draw,
                 "scores": join(g.scores, " "), "moves": g.moves,
                 "seconds": round(g.seconds, 2), "timeouts": len(g.incidents),
                 "players": join(g.players, " | "), "record": g.record_file or "",
                 "error": g.error or ""} for g in self.games]

    def totals(self) -> Dict[str, Dict[str, Dict[str, object]]]:
        return {"seats": {self.seat_names[s]: t.row() for s, t in sorted(self.by_seat.items())},
                "players": {name: t.row() for name, t in self.by_player.items()}}

    def table(self) -> str:
        """The results as text: the games, then totals per seat and per player."""
        out = io.StringIO()
        out.write(f"{len(self.games)} games of 8 Player Chess, {self.mode}"
                  + (f", options {self.options}" if self.options else "") + "\n\n")
        out.write(f"{'game':>4}  {'moves':>5}  {'sec':>7}  {'scores':<31}  {'winners':<28}  reason\n")
        for row in self.game_rows():
            out.write(f"{row['game']:>4}  {row['moves']:>5}  {row['seconds']:>7.1f}  {row['scores']:<31}  "
                      f"{str(row['winners']) or '-':<28}  {row['reason']}"
                      + (f" ({row['timeouts']} timed out)" if row["timeouts"] else "") + "\n")
        lengths = sorted(g.moves for g in self.games)
        if lengths:
            out.write(f"\nmoves per game: min {lengths[0]}, median {lengths[len(lengths) // 2]}, "
                      f"mean {sum(lengths) / len(lengths):.0f}, max {lengths[-1]}; "
                      f"time {sum(g.seconds for g in self.games):.0f} s in all\n")
        reasons: Dict[str, int] = {}
        for g in self.games:
            key = g.reason.split(":")[0] if g.error else g.reason
            reasons[key] = reasons.get(key, 0) + 1
        out.write("results: " + "; ".join(f"{r} x{n}" for r, n in sorted(reasons.items(), key=lambda x: -x[1]))
                  + "\n")
        if self.errors:
            out.write(f"ERRORS (rule core or callbacks) in {len(self.errors)} games\n")
        for title, rows in (("seat", self.totals()["seats"]), ("player", self.totals()["players"])):
            width = max([len(title)] + [len(k) for k in rows])
            out.write(f"\n{title:<{width}}  games    wins  draws  mean pts  ms/move   nodes/s  timeouts\n")
            for key, r in rows.items():
                out.write(f"{key:<{width}}  {r['games']:>5}  {r['wins']:>6.2f}  {r['draws']:>5}  "
                          f"{r['mean_points']:>8.2f}  {r['ms_per_move']:>7.1f}  {r['nodes_per_second']:>8}  "
                          f"{r['timeouts']:>8}\n")
        return out.getvalue()

    def csv(self) -> str:
        """One CSV row per game."""
        out = io.StringIO()
        rows = self.game_rows()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["game"])
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()

    def json(self) -> str:
        """Games and totals as JSON."""
        return json.dumps({"mode": self.mode, "options": self.options, "games": self.game_rows(flat=False),
                           "totals": self.totals()}, indent=1)

    def write(self, out_dir: str) -> None:
        """results.txt, results.csv and results.json in ``out_dir``."""
        for name, text in (("results.txt", self.table()), ("results.csv", self.csv()),
                           ("results.json", self.json())):
            with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
