"""A scripted human at XBoard's board: run inside an X display (xvfb-run), it starts XBoard with our
engine in Edit Game mode (legality testing as `xboard-engine play` sets it), types moves, and drags or clicks pieces with xdotool where the board's
squares are on the screen (found by their flat colours in a screenshot).  The engine's `--log` is
the record the tests read.

    xvfb-run -a python tests/xboard_human.py WORKDIR VARIANT "type:d2d4 h7h6" "drag:c1:h6" "click:g7"

Steps: ``type:MOVES`` (typed, Return after each), ``drag:FROM:TO``, ``click:SQ``,
``clickpull:FROM:TO:N`` (click FROM, press on TO, pull the mouse N steps of 30 pixels down,
release), ``dragpull:FROM:TO:N`` (press on FROM, pull N steps down, move to TO, release).
"""
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from xboard_engine.launcher import XBOARD_CHECKS_LEGALITY  # noqa: E402  (legality as `play` sets it)
LIGHT, DARK = (0xd2, 0xe6, 0xc8), (0x6e, 0x96, 0x60)


def tool(name: str) -> str:
    for folder in ("/usr/bin", "/usr/games"):
        if (Path(folder) / name).is_file():
            return str(Path(folder) / name)
    return name


class Board:
    def __init__(self, workdir: Path, variant: str, files: int, ranks: int) -> None:
        self.workdir, self.files, self.ranks = workdir, files, ranks
        self.log = workdir / "engine.log"
        (workdir / "settings").write_text("")
        args = [tool("xboard"), "-fcp", f"{sys.executable} -m xboard_engine --log {self.log}",
                "-fd", str(ROOT), "-variant", variant, "-initialMode", "EditGame",
                "-testLegality", "true" if variant in XBOARD_CHECKS_LEGALITY else "false",
                "-liteBackTextureFile", "", "-darkBackTextureFile", "",
                "-lightSquareColor", "#%02x%02x%02x" % LIGHT, "-darkSquareColor", "#%02x%02x%02x" % DARK,
                "-size", "72", "-showCoords", "false", "-saveSettingsOnExit", "false",
                "-settingsFile", str(workdir / "settings"), "-popupExitMessage", "false",
                "-debug", "-nameOfDebugFile", str(workdir / "xboard.debug")]
        self.xboard = subprocess.Popen(args, stdout=open(workdir / "xboard.out", "w"),
                                       stderr=subprocess.STDOUT, env=dict(os.environ, HOME=str(workdir)))
        for _ in range(120):
            if self.log.exists() and "< force" in self.log.read_text():
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
        self.xdo("click", 1)

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

    def close(self) -> None:
        self.xboard.kill()
        self.xboard.wait()


def main(argv) -> int:
    workdir, variant, steps = Path(argv[0]), argv[1], argv[2:]
    files = 10 if variant == "chess80" else 8
    board = Board(workdir, variant, files, 8)
    try:
        board.click("d5" if variant != "chess80" else "e5")     # focus the board (an empty square)
        time.sleep(0.5)
        for step in steps:
            kind, _, rest = step.partition(":")
            parts = rest.split(":")
            if kind == "type":
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
    finally:
        board.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
