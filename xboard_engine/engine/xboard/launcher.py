"""``xboard-engine play VARIANT``: start XBoard with this engine, the variant, the engine's piece
pictures and legality testing set as the variant needs, without touching the user's XBoard settings
file (``-saveSettingsOnExit false``; everything else comes from the user's settings as usual)."""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
from typing import List, Optional

from ... import __version__
from ...core.variant import get_variant, variant_names
from ...paths import cache_path

# Variants XBoard can check the moves of itself (with the `piece` commands the engine sends); in the
# others XBoard would refuse legal moves, so its legality testing must be off (the engine's
# highlighting still refuses drops on squares it did not mark).
XBOARD_CHECKS_LEGALITY = tuple(name for name in variant_names() if get_variant(name).xboard_checks_legality)


def find_xboard() -> Optional[str]:
    found = shutil.which("xboard")
    if found:
        return found
    path = "/usr/games/xboard"                 # Debian and Ubuntu install it here, outside PATH
    return path if os.access(path, os.X_OK) else None


def picture_directory() -> str:
    """Where the piece pictures are written: the user's cache, one directory per engine version."""
    return cache_path(f"pieces-{__version__}")


# XBoard shows this note over the board at every start unless the settings file says it was seen,
# and the launcher does not let XBoard save its settings.
FIRST_START_NOTE = "Right-clicking menu item or dialog text pops up help on it"


# Variants with moves XBoard 4.9.1 cannot draw (pushes, 2019 edge captures, some castles: see
# xboard_picture.py): with the option below the engine avoids them, keeps to the moves XBoard's board
# can show, and says so when the human plays one.
XBOARD_CANNOT_DRAW = tuple(name for name in variant_names() if name not in XBOARD_CHECKS_LEGALITY)


def xboard_arguments(variant: str, engine: str, pictures: str, extra: List[str]) -> List[str]:
    """XBoard's arguments (after the program name) to play ``variant`` against ``engine``, then
    ``extra``.  XBoard keeps only the last -firstOptions it is given, so one in ``extra`` (engine
    options as "Name=value,...", names as the engine announces them) is joined to the launcher's."""
    extra = list(extra)
    options = ["Avoid_moves_XBoard_4.9.1_misdraws=1"] if variant in XBOARD_CANNOT_DRAW else []
    while "-firstOptions" in extra[:-1]:
        i = extra.index("-firstOptions")
        options += [word for word in extra[i + 1].split(",") if word]
        del extra[i:i + 2]
    first_options = ["-firstOptions", ",".join(options)] if options else []
    return ["-fcp", engine, "-variant", variant,
            "-testLegality", "true" if variant in XBOARD_CHECKS_LEGALITY else "false",
            "-pieceImageDirectory", pictures, "-saveSettingsOnExit", "false",
            "-messageSuppress", FIRST_START_NOTE] + first_options + extra


def engine_list_line(variant: str, engine: str, pictures: str) -> str:
    """A line for XBoard's (and WinBoard's) engine list (Engine > Edit Engine List, or the
    -firstChessProgramNames setting): the nickname, then the options that `play` sets.  XBoard lists
    it as "xboard-engine (VARIANT)"; `xboard -fe "xboard-engine (VARIANT)"` starts with it."""
    options = xboard_arguments(variant, engine, pictures, [])
    options = options[:options.index("-saveSettingsOnExit")] + options[options.index("-messageSuppress") + 2:]
    return '"xboard-engine" ' + " ".join(f'"{word}"' if " " in word or not word else word for word in options)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="xboard-engine play", description=__doc__,
        epilog="Arguments after -- go to XBoard unchanged, e.g. -- -tc 5 -inc 2 -mode MachineWhite.")
    parser.add_argument("variant", choices=variant_names(), metavar="VARIANT",
                        help="one of: " + ", ".join(variant_names()))
    parser.add_argument("--xboard", metavar="PATH", help="the XBoard program (default: found in PATH "
                        "or /usr/games)")
    parser.add_argument("--log", metavar="FILE", help="the engine records its dialogue with XBoard here")
    parser.add_argument("--interpreter", metavar="WHICH", help="the Python that runs the engine, as the "
                        "engine's own --interpreter: auto (default: PyPy where installed), pypy, current, "
                        "or a path")
    parser.add_argument("--print", action="store_true", help="write the piece pictures, print the XBoard "
                        "command line and exit (to copy into a script)")
    parser.add_argument("--engine-line", action="store_true", help="write the piece pictures, print a line "
                        "for XBoard's or WinBoard's engine list (Engine > Edit Engine List) and exit")
    own, _, extra = _split(argv)
    args = parser.parse_args(own)
    # The engine command runs this interpreter; the engine then moves itself to the one chosen
    # (PyPy where installed: interpreter.py), so XBoard talks to it as to any engine.
    engine = f"{shlex.quote(sys.executable)} -m xboard_engine"
    if args.interpreter:
        engine += f" --interpreter {shlex.quote(args.interpreter)}"
    if args.log:
        engine += f" --log {shlex.quote(os.path.abspath(args.log))}"
    pictures = picture_directory()
    xboard = args.xboard or find_xboard()
    command = [xboard or "xboard"] + xboard_arguments(args.variant, engine, pictures, extra)
    from ...images import write_xboard_images
    try:
        write_xboard_images(pictures)
    except OSError as error:
        sys.stderr.write(f"xboard-engine: cannot write the piece pictures: {error}\n")
        return 2
    if args.print:
        print(shlex.join(command))
        return 0
    if args.engine_line:
        print(engine_list_line(args.variant, engine, pictures))
        return 0
    if xboard is None:
        sys.stderr.write("xboard-engine: XBoard not found; install it (Debian, Ubuntu: "
                         "sudo apt install xboard) or name it with --xboard PATH\n")
        return 2
    try:
        return subprocess.call(command)
    except OSError as error:
        sys.stderr.write(f"xboard-engine: cannot start XBoard ({xboard}): {error}\n")
        return 2
    except KeyboardInterrupt:
        return 130


def _split(argv: List[str]):
    """(our arguments, "--", XBoard's arguments)."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], "--", argv[i + 1:]
    return argv, "", []
