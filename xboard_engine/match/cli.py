"""xboard-match: engine matches and tournaments for every variant, with cutechess-cli's options.

    xboard-match -engine name=A cmd=xboard-engine -engine name=B cmd="pypy3 -m xboard_engine" \\
        -each proto=xboard tc=10+0.1 -variant chess80 -games 20 -repeat -concurrency 2 -pgnout out.pgn

Options: -engine KEY=VALUE..., -each KEY=VALUE... (keys: name cmd dir proto tc st nodes depth
timemargin restart=auto|on|off option.NAME), -variant NAME, -games N, -rounds N, -repeat, -tournament round-robin|gauntlet,
-concurrency N, -openings file=F format=epd|pgn order=random|sequential, -tc TC, -draw movenumber=N
movecount=N score=CP, -resign movecount=N score=CP [twosided=true], -maxmoves N,
-sprt elo0=E elo1=E alpha=A beta=B, -pgnout FILE, -recover, -resume, -event NAME, -seed N,
-cluster ADDRESS (Dask scheduler), -help.
"""
import signal
import shlex
import sys
import threading
from typing import Dict, List, Optional, Tuple

from ..core.errors import UnknownVariantError
from ..core.variant import variant_name
from ..time_control import TimeControl
from .engines import EngineConfig
from .keeper import RESTART_CHOICES
from .referee import Adjudication
from .stats import Sprt
from .tournament import Tournament, load_openings

FLAGS = {"-repeat", "-recover", "-resume", "-help", "--help", "-h"}
OPTIONS = {"-engine", "-each", "-variant", "-games", "-rounds", "-tournament", "-concurrency", "-openings",
           "-tc", "-draw", "-resign", "-maxmoves", "-sprt", "-pgnout", "-event", "-seed", "-cluster"}
ENGINE_KEYS = {"name", "cmd", "arg", "dir", "proto", "tc", "st", "nodes", "depth", "timemargin", "restart"}


class UsageError(Exception):
    pass


def parse_arguments(argv: List[str]) -> Tuple[List[Dict[str, str]], Dict[str, str], Dict[str, List[str]]]:
    """Split the command line into engine key sets, -each keys and the other options."""
    engines: List[Dict[str, str]] = []
    each: Dict[str, str] = {}
    options: Dict[str, List[str]] = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in FLAGS:
            options[word] = []
            i += 1
            continue
        if word not in OPTIONS:
            raise UsageError(f"unknown option {word!r}")
        values = []
        i += 1
        while i < len(argv) and not _is_option(argv[i]):
            values.append(argv[i])
            i += 1
        if word in ("-engine", "-each"):
            keys = _key_values(word, values)
            if word == "-engine":
                engines.append(keys)
            else:
                each.update(keys)
        else:
            if word in options and word not in ("-draw", "-resign"):
                raise UsageError(f"option {word} given twice")
            options[word] = values
    return engines, each, options


def _is_option(word: str) -> bool:
    """Option names start with '-' (negative numbers are values)."""
    return word.startswith("-") and not word[1:2].isdigit()


def _key_values(option: str, values: List[str]) -> Dict[str, str]:
    keys: Dict[str, str] = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            raise UsageError(f"{option}: expected KEY=VALUE, got {value!r}")
        if key not in ENGINE_KEYS and not key.startswith("option.") and option in ("-engine", "-each"):
            raise UsageError(f"{option}: unknown key {key!r}")
        if key == "arg":                # cutechess-cli: one argument of cmd each, repeatable
            rest = (keys["arg"] + " " if "arg" in keys else "") + shlex.quote(rest)
        keys[key] = rest
    return keys


def _single(options: Dict[str, List[str]], name: str, default: Optional[str] = None) -> Optional[str]:
    values = options.get(name)
    if values is None:
        return default
    if len(values) != 1:
        raise UsageError(f"{name} takes one value")
    return values[0]


def _int(options: Dict[str, List[str]], name: str, default: int, minimum: int = 1) -> int:
    text = _single(options, name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{name} needs a whole number, got {text!r}") from None
    if value < minimum:
        raise UsageError(f"{name} must be at least {minimum}")
    return value


def build(argv: List[str]) -> Tournament:
    engines, each, options = parse_arguments(argv)
    if len(engines) < 2:
        raise UsageError("give at least two -engine options")
    configs: List[EngineConfig] = []
    tcs: List[TimeControl] = []
    global_tc = _single(options, "-tc")
    for keys in engines:
        merged = dict(each)
        merged.update(keys)
        if "cmd" not in merged:
            raise UsageError("every engine needs cmd=")
        name = merged.get("name") or merged["cmd"].split()[0]
        proto = merged.get("proto", "xboard")
        if proto not in ("xboard", "uci"):
            raise UsageError(f"unknown proto {proto!r} (xboard or uci)")
        restart = merged.get("restart", "auto")
        if restart not in RESTART_CHOICES:
            raise UsageError(f"engine {name}: unknown restart {restart!r} ({', '.join(RESTART_CHOICES)})")
        engine_options = tuple((k[7:], v) for k, v in merged.items() if k.startswith("option."))
        command = merged["cmd"] + (" " + merged["arg"] if merged.get("arg") else "")
        configs.append(EngineConfig(name, command, merged.get("dir", ""), proto, engine_options,
                                    restart=restart))
        try:
            tcs.append(TimeControl.parse(merged.get("tc", global_tc), merged.get("st"), merged.get("nodes"),
                                         merged.get("depth"), merged.get("timemargin")))
        except ValueError as error:
            raise UsageError(f"engine {name}: {error}") from None
    try:
        variant = variant_name(_single(options, "-variant", "normal") or "normal")   # cutechess's "standard" too
    except UnknownVariantError as error:
        raise UsageError(str(error)) from None
    openings = []
    order = "sequential"
    if "-openings" in options:
        keys = _key_values("-openings", options["-openings"])
        if "file" not in keys:
            raise UsageError("-openings needs file=")
        fmt = keys.get("format", "pgn" if keys["file"].endswith(".pgn") else "epd")
        order = keys.get("order", "sequential")
        if order not in ("sequential", "random"):
            raise UsageError(f"unknown openings order {order!r}")
        try:
            openings = load_openings(keys["file"], fmt, variant)
        except ValueError as error:
            raise UsageError(str(error)) from None
    adjudication = _adjudication(options)
    sprt = None
    if "-sprt" in options:
        keys = _key_values("-sprt", options["-sprt"])
        try:
            sprt = Sprt(float(keys["elo0"]), float(keys["elo1"]), float(keys.get("alpha", 0.05)),
                        float(keys.get("beta", 0.05)))
        except (KeyError, ValueError) as error:
            raise UsageError(f"-sprt needs elo0= elo1= [alpha= beta=]: {error}") from None
    seed_text = _single(options, "-seed")
    try:
        seed = int(seed_text) if seed_text is not None else None
    except ValueError:
        raise UsageError(f"-seed needs a number, got {seed_text!r}") from None
    kind = _single(options, "-tournament", "round-robin") or "round-robin"
    try:
        return Tournament(configs, variant, tcs, games=_int(options, "-games", 1),
                          rounds=_int(options, "-rounds", 1), repeat="-repeat" in options, kind=kind,
                          concurrency=_int(options, "-concurrency", 1), openings=openings,
                          opening_order=order, adjudication=adjudication,
                          pgnout=_single(options, "-pgnout"), event=_single(options, "-event", "?") or "?",
                          seed=seed, sprt=sprt, recover="-recover" in options, resume="-resume" in options,
                          cluster=_single(options, "-cluster"))
    except ValueError as error:
        raise UsageError(str(error)) from None


def _adjudication(options: Dict[str, List[str]]) -> Adjudication:
    fields: Dict[str, object] = {}
    try:
        if "-draw" in options:
            keys = _key_values("-draw", options["-draw"])
            fields.update(draw_movenumber=int(keys["movenumber"]), draw_movecount=int(keys["movecount"]),
                          draw_score=int(keys["score"]))
        if "-resign" in options:
            keys = _key_values("-resign", options["-resign"])
            fields.update(resign_movecount=int(keys["movecount"]), resign_score=int(keys["score"]),
                          resign_twosided=keys.get("twosided", "false") == "true")
    except (KeyError, ValueError) as error:
        raise UsageError(f"bad adjudication option: {error}") from None
    if "-maxmoves" in options:
        fields["maxmoves"] = _int(options, "-maxmoves", 0)
    return Adjudication(**fields)  # type: ignore[arg-type]


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-help", "--help", "-h"):
        print(__doc__)
        return 0
    # `kill PID` stops the match as Ctrl-C does: the games under way end, their engines with them.
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        tournament = build(argv)
        tournament.run()
    except UsageError as error:
        sys.stderr.write(f"xboard-match: error: {error}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("xboard-match: interrupted; finished games are in the PGN (use -resume)\n")
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print("Finished match")
    return 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
