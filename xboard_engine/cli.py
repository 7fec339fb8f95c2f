"""xboard-engine: the XBoard/CECP engine for 8-Piece Chess, Full Cavalry, Chess80, chess and Chess960.

Load it in XBoard or WinBoard as a CECP (protocol 2) engine; it reads commands on standard input
and answers on standard output.  See the README for each variant's XBoard command line.

`xboard-engine play VARIANT` starts XBoard against the engine, set up for the variant
(`xboard-engine play --help`)."""
import argparse
import os
import sys
from typing import List, Optional

from . import __version__
from .variant import variant_names


def main(argv: Optional[List[str]] = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["play"]:
        from .launcher import main as play
        return play(argv[1:])
    parser = argparse.ArgumentParser(prog="xboard-engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--log", metavar="FILE", help="record the whole dialogue with timestamps")
    parser.add_argument("--piece-images", metavar="DIR",
                        help="write the pictures of the jailer, sentry, Duke and the lancer's eight "
                             "facings into DIR (for XBoard's -pieceImageDirectory) and exit")
    args = parser.parse_args(argv)
    if args.version:
        print(f"xboard-engine {__version__} (variants: {' '.join(variant_names())})")
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
    from .cecp import Engine
    from .search import FEATURES
    off = [f for f in os.environ.get("XBOARD_ENGINE_SEARCH_OFF", "").split(",") if f]
    if set(off) - set(FEATURES):
        sys.stderr.write(f"xboard-engine: XBOARD_ENGINE_SEARCH_OFF names unknown search features "
                         f"{','.join(sorted(set(off) - set(FEATURES)))}; known: {','.join(FEATURES)}\n")
        return 2
    log = None
    if args.log:
        try:
            log = open(args.log, "a", encoding="utf-8")
        except OSError as error:
            sys.stderr.write(f"xboard-engine: cannot open log file: {error}\n")
            return 2
    try:
        Engine(log=log).run()
    except KeyboardInterrupt:
        pass
    finally:
        if log:
            log.close()
    # The stdin reader thread may sit in a blocking read; leave without waiting for it (a normal
    # interpreter shutdown would abort on the lock that read holds).
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
