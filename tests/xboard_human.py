"""A scripted human at XBoard's board: run inside an X display (xvfb-run), it starts XBoard with our
engine, types moves, and drags or clicks pieces with xdotool where the board's squares are on the
screen (found by their flat colours in a screenshot).  The engine's `--log` is the record the tests
read.

Gestures in Edit Game mode (legality testing as `xboard-engine play` sets it):

    xvfb-run -a python tests/xboard_human.py WORKDIR VARIANT "type:d2d4 h7h6" "drag:c1:h6" "click:g7"

Games against the engine (XBoard started as `xboard-engine play VARIANT` starts it, the engine playing
at a fixed number of nodes per move): for each episode of the JSON file, File > Load Position of the
episode's FEN (White to move; XBoard is then in Edit Game mode), the steps (White's move), Mode >
Machine Black (XBoard 4.9.1 refuses it while White is to move) unless the engine refused the move,
once the engine has answered the steps of "then" if any (White's next move, now in Machine Black
mode) and the engine's answer, then a screenshot (WORKDIR/episode-N.ppm) and Action > Resign, so
that XBoard saves the game (WORKDIR/games.pgn):

    xvfb-run -a python tests/xboard_human.py WORKDIR VARIANT --episodes EPISODES.json

A session against the engine (XBoard started as for the episodes), its steps in a JSON list:

    xvfb-run -a python tests/xboard_human.py WORKDIR VARIANT --session STEPS.json

Steps: ``type:MOVES`` (typed, Return after each), ``drag:FROM:TO``, ``click:SQ``,
``clickpull:FROM:TO:N`` (click FROM, press on TO, pull the mouse N steps of 30 pixels down,
release), ``dragpull:FROM:TO:N`` (press on FROM, pull N steps down, move to TO, release).
"""
import json
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from xboard_engine.engine.xboard.launcher import XBOARD_CHECKS_LEGALITY, xboard_arguments  # noqa: E402
from xboard_records import DARK_SQUARE as DARK, LIGHT_SQUARE as LIGHT, flat_board_arguments, home_env  # noqa: E402
NODES_PER_MOVE = 3000            # the engine's answers: quick, and the same in every run


def tool(name: str) -> str:
    for folder in ("/usr/bin", "/usr/games"):
        if (Path(folder) / name).is_file():
            return str(Path(folder) / name)
    return name


class Board:
    def __init__(self, workdir: Path, variant: str, files: int, ranks: int, against_engine: bool = False) -> None:
        self.workdir, self.files, self.ranks = workdir, files, ranks
        self.log = workdir / "engine.log"
        (workdir / "settings").write_text("")
        engine = f"{sys.executable} -m xboard_engine --log {self.log}"
        looks = flat_board_arguments(workdir) + ["-fd", str(ROOT)]
        if against_engine:          # as `xboard-engine play` starts it
            options = "Nodes_per_move=%d" % NODES_PER_MOVE    # joined to the launcher's options
            args = [tool("xboard")] + xboard_arguments(variant, engine, str(workdir / "pieces"), looks + [
                "-firstOptions", options, "-saveGameFile", str(workdir / "games.pgn")])
            from xboard_engine.images import write_xboard_images
            write_xboard_images(str(workdir / "pieces"))
        else:
            args = [tool("xboard"), "-fcp", engine, "-variant", variant, "-initialMode", "EditGame",
                    "-testLegality", "true" if variant in XBOARD_CHECKS_LEGALITY else "false"] + looks
        (workdir / "xboard.command").write_text(shlex.join(args) + "\n")
        self.xboard = subprocess.Popen(args, stdout=open(workdir / "xboard.out", "w"),
                                       stderr=subprocess.STDOUT, env=home_env(workdir))
        for _ in range(120):
            if self.log.exists() and "> pong" in self.log.read_text():
                break
            time.sleep(0.25)
        time.sleep(2)
        self.locate()

    def locate(self) -> None:
        shot = self.workdir / "board.ppm"
        subprocess.run([tool("import"), "-window", "root", "-depth", "8", str(shot)], check=True)
        data = subprocess.run([tool("convert"), str(shot), "-depth", "8", "ppm:-"], capture_output=True,
                              check=True).stdout
        _, width, _, _, pixels = data.split(maxsplit=4)
        width = int(width)
        found = [(i // 3 % width, i // 3 // width) for i in range(0, len(pixels), 3)
                 if tuple(pixels[i:i + 3]) in (LIGHT, DARK)]
        xs, ys = [x for x, _ in found], [y for _, y in found]
        self.left, self.top = min(xs), min(ys)
        self.pitch_x = (max(xs) - self.left + 1) / self.files
        self.pitch_y = (max(ys) - self.top + 1) / self.ranks

    def xy(self, square: str) -> Tuple[int, int]:
        file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
        return (int(self.left + (file + 0.5) * self.pitch_x),
                int(self.top + (self.ranks - rank - 0.5) * self.pitch_y))

    @staticmethod
    def xdo(*args: object) -> None:
        subprocess.run([tool("xdotool"), *map(str, args)], check=True)

    def move_to(self, x: int, y: int, pause: float = 0.3) -> None:
        self.xdo("mousemove", x, y)
        time.sleep(pause)

    def drag(self, a: str, b: str) -> None:
        (x, y), (x2, y2) = self.xy(a), self.xy(b)
        self.move_to(x, y)
        self.xdo("mousedown", 1)
        time.sleep(0.3)
        self.move_to((x + x2) // 2, (y + y2) // 2, 0.1)
        self.move_to(x2, y2)
        self.xdo("mouseup", 1)

    def click(self, square: str) -> None:
        self.move_to(*self.xy(square))
        self.xdo("mousedown", 1)        # held as long as a human's click (xdotool's own lasts no time,
        time.sleep(0.1)                 # and XBoard then races the engine's answer to the press)
        self.xdo("mouseup", 1)

    def pull(self, x: int, y: int, steps: int) -> int:
        for _ in range(steps):
            y += 30
            self.move_to(x, y, 0.4)
        return y

    def clickpull(self, a: str, b: str, steps: int) -> None:
        self.click(a)
        time.sleep(0.5)
        x, y = self.xy(b)
        self.move_to(x, y)
        self.xdo("mousedown", 1)
        time.sleep(0.5)
        self.pull(x, y, steps)
        self.xdo("mouseup", 1)

    def dragpull(self, a: str, b: str, steps: int) -> None:
        x, y = self.xy(a)
        self.move_to(x, y)
        self.xdo("mousedown", 1)
        time.sleep(0.4)
        self.pull(x, y, steps)
        x2, y2 = self.xy(b)
        self.move_to(x2, y2 - 10, 0.2)
        self.move_to(x2, y2, 0.5)
        self.xdo("mouseup", 1)

    def type_moves(self, moves: str) -> None:
        for move in moves.split():
            self.xdo("type", "--delay", "50", move)
            self.xdo("key", "Return")
            time.sleep(0.8)

    def key(self, name: str) -> None:
        """A key press on the board window: without a window manager the key goes to the window
        under the pointer, so it rests on the board's bottom right square (XBoard's popups open at
        the top left of the screen)."""
        self.move_to(int(self.left + (self.files - 0.5) * self.pitch_x),
                     int(self.top + (self.ranks - 0.5) * self.pitch_y), 0.2)
        self.xdo("key", name)

    def screenshot(self, path: Path) -> None:
        subprocess.run([tool("import"), "-window", "root", "-depth", "8", str(path)], check=True)

    def load_position(self, fen_file: Path) -> None:
        """File > Load Position (Ctrl+Shift+O) of ``fen_file``: in GTK's file chooser, Ctrl+L opens
        the location line, which swallows a path's first slash (seen every time): typed twice."""
        self.key("ctrl+shift+o")
        wait_for(lambda: subprocess.run([tool("xdotool"), "search", "--onlyvisible", "--name",
                                         "Load position file name"], capture_output=True).returncode == 0,
                 15, "no Load Position dialog")
        time.sleep(0.7)
        self.move_to(450, 300)
        self.xdo("click", 1)            # the dialog takes the keys once clicked
        time.sleep(0.5)
        self.xdo("key", "ctrl+l")
        time.sleep(1)
        self.xdo("type", "--delay", "30", "/" + str(fen_file))
        time.sleep(0.4)
        self.xdo("key", "Return")

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def close(self) -> None:
        self.xboard.kill()
        self.xboard.wait()


def wait_for(condition: Callable[[], bool], seconds: float, failure: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(failure)
        time.sleep(0.25)


def answered(log: str) -> bool:
    """The engine has answered the human's last move: with its own move or a refusal."""
    last = log.rfind("< usermove ")
    return last >= 0 and any(mark in log[last:] for mark in ("> move ", "> Illegal move"))


def play_episodes(board: Board, episodes: List[dict]) -> None:
    for n, episode in enumerate(episodes):
        fen_file = board.workdir / f"episode-{n}.fen"
        fen_file.write_text(episode["fen"] + "\n")
        setboards = board.log_text().count("< setboard ")
        board.load_position(fen_file)
        wait_for(lambda: board.log_text().count("< setboard ") > setboards, 20,
                 f"episode {n}: XBoard sent no setboard")
        time.sleep(1)
        moves = board.log_text().count("< usermove ")
        run_steps(board, episode["steps"])     # in Edit Game mode, as XBoard is after loading
        wait_for(lambda: board.log_text().count("< usermove ") > moves, 20,
                 f"episode {n}: the move did not reach the engine")
        time.sleep(1)
        if "> Illegal move" not in board.log_text().rsplit("< usermove ", 1)[1]:
            board.key("ctrl+b")         # Mode > Machine Black: the engine answers
            wait_for(lambda: answered(board.log_text()), 30, f"episode {n}: no answer from the engine")
            time.sleep(1.5)
            if episode.get("then"):     # White's next move, now against the engine
                moves = board.log_text().count("< usermove ")
                run_steps(board, episode["then"])
                wait_for(lambda: board.log_text().count("< usermove ") > moves and answered(board.log_text()),
                         30, f"episode {n}: no answer to the second move")
                time.sleep(1.5)
        close_popups(board)             # the engine's notes cover the board's top left
        board.screenshot(board.workdir / f"episode-{n}.ppm")
        board.key("F9")                 # Action > Resign: XBoard saves the game
        time.sleep(1.5)


def close_popups(board: Board) -> None:
    """Close XBoard's message popups (titled Note or Error) with their OK button; each one's title,
    width and height are added to WORKDIR/popups.txt, after a line "#".  (Keys would go to the board: without a window
    manager a new popup does not take the keyboard.)"""
    found = subprocess.run([tool("xdotool"), "search", "--onlyvisible", "--name", "^(Note|Error)$"],
                           capture_output=True, text=True).stdout.split()
    with open(board.workdir / "popups.txt", "a") as f:
        f.write("#\n")                                     # each call's popups after a line "#"
    for window in found:
        name = subprocess.run([tool("xdotool"), "getwindowname", window], capture_output=True,
                              text=True).stdout.strip()
        geometry = subprocess.run([tool("xdotool"), "getwindowgeometry", window], capture_output=True,
                                  text=True).stdout
        x, y = map(int, re.search(r"Position: (\d+),(\d+)", geometry).groups())
        width, height = map(int, re.search(r"Geometry: (\d+)x(\d+)", geometry).groups())
        with open(board.workdir / "popups.txt", "a") as f:
            f.write(f"{name} {width} {height}\n")
        board.move_to(x + width - 50, y + height - 25)      # the OK button, bottom right
        board.xdo("click", 1)
        time.sleep(0.7)


def paste_position(board: Board, fen: str) -> None:
    """Edit > Paste Position of ``fen`` (put on the clipboard with xclip)."""
    for selection in ("clipboard", "primary"):
        subprocess.run([tool("xclip"), "-selection", selection], input=fen.encode(), check=True)
    board.key("ctrl+shift+v")


def run_steps(board: Board, steps: List[str]) -> None:
    """Steps: see the module's text; also ``key:NAME`` (a key on the board), ``popups`` (close the
    message popups), ``load:PATH`` (File > Load Position), ``paste:FEN`` (Edit > Paste Position),
    ``waitlog:N:TEXT`` (until the engine's log holds TEXT N times), ``shot:NAME`` (a screenshot,
    WORKDIR/NAME.ppm), ``sleep:SECONDS``."""
    for step in steps:
        kind, _, rest = step.partition(":")
        parts = rest.split(":")
        if kind == "key":
            board.key(rest)
        elif kind == "popups":
            close_popups(board)
        elif kind == "load":
            board.load_position(Path(rest))
        elif kind == "paste":
            paste_position(board, rest)
        elif kind == "waitlog":
            count, _, text = rest.partition(":")
            wait_for(lambda: board.log_text().count(text) >= int(count), 60, f"the engine's log lacks {text!r}")
        elif kind == "shot":
            board.screenshot(board.workdir / f"{rest}.ppm")
        elif kind == "sleep":
            time.sleep(float(rest))
        elif kind == "type":
            board.type_moves(rest)
        elif kind == "drag":
            board.drag(*parts)
        elif kind == "click":
            board.click(parts[0])
        elif kind == "clickpull":
            board.clickpull(parts[0], parts[1], int(parts[2]))
        elif kind == "dragpull":
            board.dragpull(parts[0], parts[1], int(parts[2]))
        else:
            raise SystemExit(f"unknown step {step!r}")
        time.sleep(1.5)


def main(argv) -> int:
    workdir, variant, steps = Path(argv[0]), argv[1], argv[2:]
    files = 10 if variant == "chess80" else 8
    episodes = steps[0] == "--episodes"
    session = steps[0] == "--session"
    board = Board(workdir, variant, files, 8, against_engine=episodes or session)
    try:
        board.click("d5" if variant != "chess80" else "e5")     # focus the board (an empty square)
        time.sleep(0.5)
        if episodes:
            play_episodes(board, json.loads(Path(steps[1]).read_text()))
        elif session:
            run_steps(board, json.loads(Path(steps[1]).read_text()))
        else:
            run_steps(board, steps)
    finally:
        board.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
