"""xboard-engine 8pc: unattended games of 8 Player Chess between bots, with game records and a
results table.  (Humans play 8 Player Chess in the browser: xboard-engine web.)

Every seat is a player: a search bot (depth, time per move and algorithm as set by --depth,
--movetime and --algorithm) or a random mover.  --bots N makes the first N seats in turn order
(White, Red, Blue, Yellow, Purple, Orange, Green, Black) search bots and the others random movers;
--seat gives chosen seats their own player, e.g. for depth against depth:

  xboard-engine 8pc --games 100 --seat w,b,p,g=depth2 --seat r,y,o,n=depth1 --swap-halfway

Seats are named by colour letter (w r b y p o g n), Roman numeral (i..viii), colour name or number
1-8.  A player SPEC is comma-separated: random | depthN | movetimeS | an algorithm
(auto, brs, paranoid, team) | bot (the defaults); e.g. depth2,brs or movetime0.5.

Each game's record goes to OUT/game-001.txt etc. (read back with Game.from_record) and the results
to OUT/results.txt, .csv and .json.  Exit status: 0 when every game ended with a result, 1 if a game
was stopped by a rule error, 2 for bad arguments."""
import argparse
import os
import sys
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from ..core.errors import RulesError
from .game import MODES, OPTION_NAMES, Game
from .selfplay import MatchError, RandomPlayer, run_games, summarise

PROG = "xboard-engine 8pc"
ALGORITHMS = ("auto", "brs", "paranoid", "team")
DEFAULT_MOVETIME = 1.0


class UsageError(Exception):
    """A bad argument: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


class PlayerSpec(NamedTuple):
    """What plays a seat: a random mover or a search bot with its settings."""
    random: bool
    depth: Optional[int]
    movetime: Optional[float]
    algorithm: str

    def label(self) -> str:
        if self.random:
            return "random"
        parts = []
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.movetime is not None:
            parts.append(f"{self.movetime:g} s")
        if self.algorithm != "auto":
            parts.append(self.algorithm)
        return "bot" + (f" ({', '.join(parts)})" if parts else "")


def parse_spec(text: str, default: PlayerSpec) -> PlayerSpec:
    """A player SPEC such as ``random``, ``depth2``, ``depth=2,brs`` or ``movetime0.5``."""
    spec = default._replace(random=False)
    items = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not items:
        raise UsageError(f"empty player spec {text!r}")
    for item in items:
        word = item.replace("=", "").replace(":", "")
        if word == "random":
            spec = spec._replace(random=True)
        elif word == "bot":
            pass
        elif word in ALGORITHMS:
            spec = spec._replace(algorithm=word)
        elif word.startswith("algorithm") and word[len("algorithm"):] in ALGORITHMS:
            spec = spec._replace(algorithm=word[len("algorithm"):])
        elif word.startswith("depth"):
            try:
                depth = int(word[5:])
            except ValueError:
                raise UsageError(f"bad depth in {item!r} (e.g. depth2)") from None
            if depth < 1:
                raise UsageError(f"depth is at least 1, not {depth}")
            spec = spec._replace(depth=depth)
        elif word.startswith("movetime"):
            try:
                movetime = float(word[8:].rstrip("s"))
            except ValueError:
                raise UsageError(f"bad time in {item!r} (e.g. movetime0.5)") from None
            if not movetime > 0:
                raise UsageError(f"movetime is more than 0 seconds, not {movetime:g}")
            spec = spec._replace(movetime=movetime)
        else:
            raise UsageError(f"unknown word {item!r} in player spec {text!r}; use random, depthN, movetimeS, "
                             f"bot or an algorithm ({', '.join(ALGORITHMS)})")
    return with_time(spec)


def with_time(spec: PlayerSpec) -> PlayerSpec:
    """A bot with neither depth nor time thinks for the default time per move."""
    if not spec.random and spec.depth is None and spec.movetime is None:
        return spec._replace(movetime=DEFAULT_MOVETIME)
    return spec


def parse_seats(text: str) -> List[int]:
    """Seats named by letter, numeral, colour or number, comma-separated (``all`` for every seat)."""
    v = Game().v
    if text.strip().lower() == "all":
        return list(range(v.players))
    seats = []
    for name in text.split(","):
        seat = v.seat_by_text(name) if name.strip() else None
        if seat is None:
            raise UsageError(f"{name.strip()!r} names no seat; use a colour letter ("
                             f"{' '.join(s.letter for s in v.seats)}), Roman numeral, colour name or 1-8")
        seats.append(seat)
    return seats


def parse_option(text: str) -> Dict[str, object]:
    name, sep, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if name not in OPTION_NAMES:
        raise UsageError(f"unknown option {name!r}; known: {', '.join(OPTION_NAMES)}")
    return {name: value.strip() if sep else True}


class _Labelled:
    """A player under the name the results table counts it by."""

    def __init__(self, player: Any, name: str) -> None:
        self.player = player
        self.name = name

    @property
    def last(self) -> Any:
        return getattr(self.player, "last", None)

    def choose(self, game: Game) -> Any:
        return self.player.choose(game)


def _bot_class() -> Any:
    try:
        from .bots.bot import Bot
    except ImportError as error:
        raise UsageError(f"the search bots are not available ({error}); use --bots 0 or random seats") from None
    return Bot


def make_player(spec: PlayerSpec, seed: int) -> Any:
    """A fresh player for ``spec``, seeded."""
    if spec.random:
        return _Labelled(RandomPlayer(seed=seed), spec.label())
    settings: Dict[str, Any] = {"algorithm": spec.algorithm, "seed": seed}
    if spec.depth is not None:
        settings["depth"] = spec.depth
    if spec.movetime is not None or spec.depth is not None:
        settings["movetime"] = spec.movetime       # a depth without a time: the depth alone decides
    bot = _bot_class()(**settings)
    return _Labelled(bot, spec.label())


def seat_assignment(specs: Sequence[PlayerSpec], games: int, swap_halfway: bool,
                    rotate: bool) -> Callable[[int], List[PlayerSpec]]:
    """game number -> the spec of each seat (swapped or rotated by one seat per turn as asked)."""
    n = len(specs)

    def for_game(number: int) -> List[PlayerSpec]:
        shift = 0
        if rotate:
            shift = (number - 1) % n
        elif swap_halfway and number > games // 2:
            shift = 1
        return [specs[(seat + shift) % n] for seat in range(n)]
    return for_game


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=8, metavar="N",
                        help="the first N seats in turn order are search bots, the others random movers "
                             "(default 8; --seat overrides)")
    parser.add_argument("--mode", default="singles", choices=MODES, help="singles, pairs or teams (default singles)")
    parser.add_argument("--games", type=int, default=1, metavar="N", help="number of games (default 1)")
    parser.add_argument("--depth", type=int, metavar="D", help="search depth of the bots (default: by time)")
    parser.add_argument("--movetime", type=float, metavar="S", help="seconds per move of the bots "
                        "(default 1 s; with --depth and no --movetime, the depth alone decides)")
    parser.add_argument("--algorithm", default="auto", choices=ALGORITHMS + ("random",),
                        help="the bots' search (default auto: best-reply search, team search in teams)")
    parser.add_argument("--seat", action="append", default=[], metavar="SEATS=SPEC",
                        help="give seats their own player, e.g. w=depth2, r,y,o,n=depth1, black=random "
                             "(repeatable)")
    parser.add_argument("--swap-halfway", action="store_true",
                        help="in the second half of the games each seat takes the player of the next seat "
                             "(with alternating players, each plays every seat's army)")
    parser.add_argument("--rotate", action="store_true",
                        help="in game k each seat takes the player of the seat k-1 places on")
    parser.add_argument("--option", action="append", default=[], metavar="NAME[=VALUE]",
                        help="a rule variation: " + ", ".join(OPTION_NAMES) + " (repeatable)")
    parser.add_argument("--seed", type=int, help="seed of game 1 (game k: seed+k-1); default random")
    parser.add_argument("--out", metavar="DIR", help="directory for the records and results "
                        "(default ./8pc-DATE-TIME)")
    parser.add_argument("--numerals", action="store_true", help="name players by Roman numerals in the records")
    parser.add_argument("--move-limit", type=float, metavar="S",
                        help="a player that takes longer than S seconds for a move is timed out")
    parser.add_argument("--max-moves", type=int, metavar="N", help="stop a game unfinished after N actions")
    parser.add_argument("--quiet", action="store_true", help="print only the results table")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        sys.stderr.write(f"{PROG}: {error}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130


def _main(argv: List[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1:
        raise UsageError("--games is at least 1")
    if not 0 <= args.bots <= 8:
        raise UsageError("--bots is 0 to 8")
    if args.depth is not None and args.depth < 1:
        raise UsageError("--depth is at least 1")
    if args.movetime is not None and not args.movetime > 0:
        raise UsageError("--movetime is more than 0 seconds")
    if args.move_limit is not None and not args.move_limit > 0:
        raise UsageError("--move-limit is more than 0 seconds")
    if args.max_moves is not None and args.max_moves < 1:
        raise UsageError("--max-moves is at least 1")
    if args.swap_halfway and args.rotate:
        raise UsageError("--swap-halfway and --rotate do not go together")
    options: Dict[str, object] = {}
    for text in args.option:
        options.update(parse_option(text))
    try:
        Game(mode=args.mode, options=options)
    except RulesError as error:
        raise UsageError(str(error)) from None
    default = PlayerSpec(args.algorithm == "random", args.depth, args.movetime,
                         "auto" if args.algorithm == "random" else args.algorithm)
    specs = [with_time(default) if seat < args.bots else PlayerSpec(True, None, None, "auto") for seat in range(8)]
    for text in args.seat:
        seats, sep, spec_text = text.partition("=")
        if not sep:
            raise UsageError(f"--seat wants SEATS=SPEC (e.g. w=depth2), not {text!r}")
        spec = parse_spec(spec_text, default)
        for seat in parse_seats(seats):
            specs[seat] = spec
    for spec in set(specs):                 # each kind of player is made once, so bad settings fail here
        try:
            make_player(spec, 0)
        except ValueError as error:
            raise UsageError(f"player {spec.label()}: {error}") from None
    out_dir = args.out or os.path.join(os.getcwd(), time.strftime("8pc-%Y%m%d-%H%M%S"))
    v = Game().v
    names = [s.colour for s in v.seats]
    assignment = seat_assignment(specs, args.games, args.swap_halfway, args.rotate)
    base_seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")

    def factory(number: int, seat: int) -> Any:
        return make_player(assignment(number)[seat], (base_seed + number - 1) * 8 + seat)

    if not args.quiet:
        print(f"{args.games} game(s) of 8 Player Chess, {args.mode}, seed {base_seed}; "
              f"records in {out_dir}")
        for seat in range(8):
            print(f"  {names[seat]:<7} {assignment(1)[seat].label()}"
                  + (f"  (then {assignment(args.games)[seat].label()})"
                     if assignment(args.games)[seat] != assignment(1)[seat] else ""))
        sys.stdout.flush()

    def report(summary: Any) -> None:
        if not args.quiet:
            print(summarise(summary, names), flush=True)
            for incident in summary.incidents:
                print(f"    {names[incident.seat]} timed out: {incident.reason}", flush=True)

    try:
        results = run_games(factory, args.mode, args.games, options, base_seed, out_dir,
                            numerals=args.numerals, max_moves=args.max_moves,
                            move_time_limit=args.move_limit, on_game=report)
    except (MatchError, RulesError) as error:
        raise UsageError(str(error)) from None
    print()
    print(results.table(), end="")
    if not args.quiet:
        print(f"\nrecords and results (txt, csv, json) in {out_dir}")
    return 1 if results.errors else 0
