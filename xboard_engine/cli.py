"""xboard-engine: the chess engine for 8-Piece Chess, Full Cavalry, Chess80, chess and Chess960.

It speaks XBoard/CECP (protocol 2) and UCI on standard input and output, chosen by the first command
it receives (`xboard` or `uci`, as Fairy-Stockfish does) or fixed by --protocol.  Load it in XBoard or
WinBoard as a CECP engine, or in any UCI GUI or tool (variants: the UCI_Variant option).  See the
docs/XBOARD.md for each variant's XBoard command line and docs/UCI_AND_TOOLS.md for UCI use.  Where PyPy's pypy3 is installed, the
engine runs itself under it, the fast path (--interpreter; its name says which, e.g. "(PyPy 7.3.11)").

`xboard-engine play VARIANT` starts XBoard against the engine, set up for the variant
(`xboard-engine play --help`); `xboard-engine web` a board in the browser for every variant
(`xboard-engine web --help`); `xboard-engine serve` the live server where people play each other
online (`xboard-engine serve --help`); `xboard-engine 8pc` unattended games of 8 Player Chess between bots,
writing game records and a results table (`xboard-engine 8pc --help`); `xboard-engine bot` any CECP
or UCI engine playing on such a server as a bot account (`xboard-engine bot --help`);
`xboard-engine copy-database FROM TO` a server's database into another (SQLite to PostgreSQL);
`xboard-engine admin` a club administrator's commands (password-reset links, roles)."""
import argparse
import gc
import os
import platform
import sys
from typing import List, Optional

from . import __version__
from .core.variant import variant_names
from .search.runtime import interpreter_name, tune_jit


def main(argv: Optional[List[str]] = None) -> int:
    """The program.  Without a subcommand it is the engine, which first moves itself to the
    interpreter chosen (PyPy where installed: interpreter.py) when run as a program (``argv`` None);
    a call with ``argv`` given runs in this process."""
    as_program = argv is None
    if argv is None:
        argv = sys.argv[1:]
    tune_jit()
    if argv[:1] == ["play"]:
        from .engine.xboard.launcher import main as play
        return play(argv[1:])
    if argv[:1] in (["web"], ["serve"]):
        from .web.app.cli import main as web
        return web(argv[1:], local=argv[0] == "web")
    if argv[:1] == ["admin"]:
        from .web.app.admin import main as admin
        return admin(argv[1:])
    if argv[:1] == ["copy-database"]:
        from .web.app.cli import copy_main
        return copy_main(argv[1:])
    if argv[:1] == ["8pc"]:
        from .multi.cli import main as eight_player
        return eight_player(argv[1:])
    if argv[:1] == ["bot"]:
        from .botclient.program import main as bot
        return bot(argv[1:])
    parser = argparse.ArgumentParser(prog="xboard-engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--log", metavar="FILE", help="record the whole dialogue with timestamps")
    parser.add_argument("--protocol", choices=("auto", "xboard", "uci"), default="auto",
                        help="the protocol to speak (default auto: UCI if the first command is `uci`, "
                             "else XBoard/CECP)")
    parser.add_argument("--interpreter", metavar="WHICH",
                        help="the Python that runs the engine: auto (the default: PyPy's pypy3 where it is "
                             "on PATH and works, else the one that started it), pypy (pypy3, or an error), "
                             "current (the one that started it), or an interpreter's path; default from "
                             "the environment variable XBOARD_ENGINE_INTERPRETER")
    parser.add_argument("--piece-images", metavar="DIR",
                        help="write the pictures of the jailer, sentry, Duke and the lancer's eight "
                             "facings into DIR (for XBoard's -pieceImageDirectory) and exit")
    args = parser.parse_args(argv)
    if as_program:
        from .engine.interpreter import InterpreterError, run_under_chosen
        try:
            run_under_chosen(args.interpreter, argv)     # returns if this interpreter stays
        except InterpreterError as error:
            sys.stderr.write(f"xboard-engine: {error}\n")
            return 2
    if args.version:
        print(f"xboard-engine {__version__} under {interpreter_name()} (variants: {' '.join(variant_names())})")
        return 0
    if args.piece_images:
        from .images import write_xboard_images
        try:
            written = write_xboard_images(args.piece_images)
        except OSError as error:
            sys.stderr.write(f"xboard-engine: cannot write the piece images: {error}\n")
            return 2
        print(f"{len(written)} piece images written to {os.path.abspath(args.piece_images)}; "
              f"start XBoard with -pieceImageDirectory {os.path.abspath(args.piece_images)}")
        return 0
    from .search.searcher import SEARCH_OFF_VARIABLE, features_off
    try:
        features_off()
    except ValueError as error:
        sys.stderr.write(f"xboard-engine: {SEARCH_OFF_VARIABLE}: {error}\n")
        return 2
    log = None
    if args.log:
        try:
            log = open(args.log, "a", encoding="utf-8")
        except OSError as error:
            sys.stderr.write(f"xboard-engine: cannot open log file: {error}\n")
            return 2
    try:
        serve(args.protocol, log)
    except KeyboardInterrupt:
        pass
    finally:
        if log:
            log.close()
    # The stdin reader thread may sit in a blocking read; leave without waiting for it (a normal
    # interpreter shutdown would abort on the lock that read holds).
    sys.stdout.flush()
    os._exit(0)


# The command thread must get the interpreter within milliseconds while a search runs: a thread
# that wants it waits at most this long (CPython's default is 5 ms) ...
SWITCH_INTERVAL = 0.001
# ... and no full garbage collection may stop every thread (one over a filled transposition table
# takes tens of milliseconds): the oldest generation is never collected, since the search leaves
# almost no reference cycles to old objects.  The young generations still collect.  PyPy's
# collector is incremental and left as it is.  Figures: docs/ENGINE.md, "Runtime settings".
NO_FULL_COLLECTION = 10 ** 9


def quiet_runtime() -> None:
    """Keep the command thread prompt while the worker thread searches (see the notes above)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    if platform.python_implementation() == "CPython":
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, NO_FULL_COLLECTION)


def serve(protocol: str, log) -> None:
    """Read commands until `quit` or end of input, in ``protocol`` (auto: by the first command)."""
    from .engine.textio import Channel
    quiet_runtime()
    channel = Channel(log=log)
    channel.start()
    while protocol == "auto":
        first = channel.peek(None)
        if first == "":
            channel.next_line()                      # blank lines before the first command
            continue
        protocol = "uci" if first is not None and first.split()[0] == "uci" else "xboard"
    if protocol == "uci":
        from .engine.uci import UciEngine
        UciEngine(channel).run()
    else:
        from .engine.cecp.protocol import CecpEngine
        CecpEngine(channel=channel).run(started=True)


if __name__ == "__main__":
    sys.exit(main())
