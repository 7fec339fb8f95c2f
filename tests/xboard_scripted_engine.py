"""A scripted CECP engine for end-to-end tests in a real XBoard: it announces chess80 from a chosen start
position (the engine's real `setup` and `piece` lines), then plays fixed moves.

    python xboard_scripted_engine.py LOG FEN "WHITE MOVES" "BLACK MOVES"

It plays the White script when it moves first in a game and the Black script when it moves second; a
script's last word may be `resign`. Everything it reads and writes goes to LOG."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from xboard_engine import get_variant  # noqa: E402  (this checkout's engine, not an installed one)


def main() -> None:
    log_path, fen, white, black = sys.argv[1:5]
    v = get_variant("chess80")
    table, parent, pieces = v.xboard_pieces, v.xboard_parent, v.xboard_piece_lines
    log = open(log_path, "a", buffering=1)

    def out(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        log.write("> " + line + "\n")

    script: list = []
    plies = 0
    force = True
    for raw in sys.stdin:
        line = raw.strip()
        log.write("< " + line + "\n")
        cmd, _, arg = line.partition(" ")
        if cmd == "protover":
            out('feature done=0')
            out('feature myname="scripted" ping=1 setboard=1 usermove=1 san=0 sigint=0 sigterm=0 '
                'colors=0 variants="chess80"')
            out('feature done=1')
        elif cmd == "variant":
            out(f"setup ({table}) 10x8+0_{parent} {fen}")
            for piece in pieces:
                out(piece)
        elif cmd == "ping":
            out("pong " + arg)
        elif cmd == "new":
            plies, force, script = 0, False, []
        elif cmd in ("force", "result"):
            force = True
        elif cmd in ("setboard",):
            plies = 0
        elif cmd in ("usermove", "go"):
            if cmd == "usermove":
                plies += 1
            else:
                force = False
            if not force:
                if plies == 0 and not script:
                    script = white.split()
                elif plies == 1 and not script:
                    script = black.split()
                if script:
                    move = script.pop(0)
                    out("resign" if move == "resign" else "move " + move)
                    plies += 1
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
