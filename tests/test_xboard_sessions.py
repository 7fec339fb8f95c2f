"""Sessions a human meets in Debian's XBoard 4.9.1 against the engine (issue 24, "never a frozen
game"), started as `xboard-engine play VARIANT` starts it and played by xdotool under Xvfb
(tests/xboard_human.py, --session):

- a human's push, which XBoard shows without the pushed unit, then the game on to its end: the engine
  moves only units XBoard shows, so XBoard takes every move, and the game ends in mate;
- a push that leaves the engine no move XBoard can take: the engine says so and waits; the way out it
  gives (File > New Game, File > Load Position of the file it wrote, Mode > Machine Black) works;
- positions with Black to move: Edit > Paste Position, and Load Position after New Game, work; a
  Load Position in the middle of a session makes XBoard fall back to orthodox chess, and the
  engine says how to load it instead;
- every popup of the engine's is narrower than the board.
"""
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from needs import needs

from xboard_engine import Position
from xboard_records import (CONVERT, XVFB_RUN, SquarePictures,
                            parse_pgn, pieces, ppm, run_session)

ROOT = Path(__file__).resolve().parent.parent
HUMAN = ROOT / "tests" / "xboard_human.py"
SQUARE = 72                                     # flat_board_arguments: -size 72

pytestmark = [
    needs("xboard", "xvfb-run", "xdotool", "xclip", "import", "convert", "rsvg-convert"),
    pytest.mark.slow,
]

# White's sentry d8 pushes Black's rook b6 to h6 (the rook guards the back rank); Black's king and
# pawns have three moves, after each of which Qc8 mates
ROOK_PUSHED = "3S3k/5ppp/1r6/8/8/2Q5/3K4/8 w - - 0 1"
# White's sentry c1 pushes Black's lone king e3 to d4
KING_PUSHED = "8/8/8/8/8/4k3/8/2S1K3 w - - 0 1"
BLACK_TO_MOVE = "jfsqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/JDSQKB1R b Kk - 1 2"


def session(tmp_path: Path, variant: str, steps: List[str]) -> Dict:
    """Run the steps in XBoard against the engine; the engine's log, XBoard's own output, the
    popups' sizes and the saved games."""
    plan = tmp_path / "steps.json"
    plan.write_text(json.dumps(steps))
    done = run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", sys.executable, str(HUMAN),
                        str(tmp_path), variant, "--session", str(plan)], 240,
                       f"the scripted human did not finish (files in {tmp_path})", cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert done.returncode == 0, f"files in {tmp_path}\n" + done.stdout.decode(errors="replace")[-2000:]
    popups = tmp_path / "popups.txt"
    games = tmp_path / "games.pgn"
    groups = popups.read_text().split("#\n")[1:] if popups.exists() else []
    return {"log": (tmp_path / "engine.log").read_text(errors="replace"),
            "stderr": (tmp_path / "xboard.out").read_text(errors="replace"),
            "popups": [[line.split() for line in group.splitlines()] for group in groups],
            "games": parse_pgn(games.read_text(errors="replace")) if games.exists() else []}


def said(log: str, direction: str) -> List[str]:
    """The lines of the engine's log in one direction ("<" from XBoard, ">" from the engine)."""
    return [line.split(f" {direction} ", 1)[1] for line in log.splitlines() if f" {direction} " in line]


def popups_fit(groups: List[List[List[str]]], files: int = 8) -> bool:
    """Every popup (title, width, height) is narrower than the board."""
    return all(int(width) < files * SQUARE for group in groups for _, width, _ in group)


def titles(groups: List[List[List[str]]]) -> List[List[str]]:
    return [[popup[0] for popup in group] for group in groups]


def fen_file(tmp_path: Path, name: str, fen: str) -> str:
    path = tmp_path / name
    path.write_text(fen + "\n")
    return str(path)


def board_shows(tmp_path: Path, shot: str, variant: str, pos: Position) -> List[str]:
    image = ppm(subprocess.run([CONVERT, str(tmp_path / f"{shot}.ppm"), "-depth", "8", "ppm:-"],
                               capture_output=True, check=True).stdout)
    return SquarePictures(variant, tmp_path).problems(image, pieces(pos))


def test_a_human_push_then_the_game_to_its_end(tmp_path):
    """The human pushes Black's rook with the sentry (drag onto it, click its destination): XBoard
    shows the sentry on h6 and no rook.  Black's best defence is a rook move, which XBoard would drop
    (today's XBoard froze there, the engine's clock running); the engine says once that XBoard's
    board is wrong and plays a move XBoard shows, and the human mates.  XBoard saves the whole game."""
    result = session(tmp_path, "8piece", [
        f"load:{fen_file(tmp_path, 'start.fen', ROOK_PUSHED)}", "waitlog:1:< setboard", "popups",
        "drag:d8:b6", "click:h6", "waitlog:1:XBoard cannot show this move", "popups",
        "key:ctrl+b", "waitlog:1:> move ", "drag:c3:c8", "waitlog:1:> 1-0 {White mates}", "popups"])
    log, where = result["log"], f"files in {tmp_path}"
    moves = [line[len("move "):] for line in said(log, ">") if line.startswith("move ")]
    received = [line[len("usermove "):] for line in said(log, "<") if line.startswith("usermove ")]
    assert received == ["d8b6,b6h6", "c3c8"] and len(moves) == 1 and not moves[0].startswith("h6"), where
    pos = Position.from_fen(ROOK_PUSHED, "8piece")
    for text in ["d8b6,b6h6", moves[0], "c3c8"]:
        pos.push_text(text)
    assert pos.outcome().result == "1-0", where
    game, = result["games"]
    assert game["result"] == "1-0" and len(game["tokens"]) == 3, (game, where)
    notes = [line for line in said(log, ">") if line.startswith("telluser")]
    assert len(notes) == 2, notes          # "Position loaded..." and the push's note, once each
    assert not re.search(r"\(R\d", log) and popups_fit(result["popups"]), (result["popups"], where)
    assert titles(result["popups"]) == [["Note"], ["Note"], []], (result["popups"], where)


def test_with_no_move_xboard_can_take_the_engine_waits_and_its_way_out_works(tmp_path):
    """The human pushes Black's lone king: XBoard shows no black king, and would drop any move of
    it.  The engine sends none and says what to do; done (File > New Game, File > Load Position of
    the file it names, Mode > Machine Black), the engine moves and XBoard shows the true board."""
    saved = tmp_path / ".cache" / "xboard-engine" / "position.fen"     # XBoard's HOME is tmp_path
    result = session(tmp_path, "8piece", [
        f"load:{fen_file(tmp_path, 'start.fen', KING_PUSHED)}", "waitlog:1:< setboard", "popups",
        "drag:c1:e3", "click:d4", "waitlog:1:XBoard cannot show this move", "popups",
        "key:ctrl+b", "waitlog:1:XBoard's board no longer shows this game", "popups",
        "key:ctrl+n", "waitlog:2:< new", f"load:{saved}", "waitlog:2:< setboard", "popups",
        "key:ctrl+b", "waitlog:1:> move ", "sleep:1", "shot:after", "popups"])
    log, where = result["log"], f"files in {tmp_path}"
    assert "~/.cache/xboard-engine/position.fen" in log.replace("\\n", " "), where
    out = said(log, ">")
    stuck = next(i for i, line in enumerate(out) if "no longer shows this game" in line)
    assert not [line for line in out[:stuck] if line.startswith("move ")], where
    move, = [line[len("move "):] for line in out if line.startswith("move ")]
    pos = Position.from_fen(KING_PUSHED, "8piece")
    pos.push_text("c1e3,e3d4")
    assert saved.read_text().split() == pos.fen().split()[:6], where
    pos.push_text(move)
    assert move.startswith("d4") and board_shows(tmp_path, "after", "8piece", pos) == [], where
    assert "Engine did not send setup" not in result["stderr"], where
    assert popups_fit(result["popups"]), (result["popups"], where)


def test_positions_with_black_to_move(tmp_path):
    """Edit > Paste Position of a position with Black to move, then Mode > Machine Black: the engine
    plays it (XBoard says nothing of a missing setup).  A Load Position with Black to move in the
    middle of the session then fails in XBoard 4.9.1 ("Engine did not send setup for non-standard
    variant"): the engine says how to load such a position."""
    result = session(tmp_path, "8piece", [
        "drag:e2:e4", "waitlog:1:> move ", "popups",
        f"paste:{BLACK_TO_MOVE}", "waitlog:1:< setboard", "popups",
        "key:ctrl+b", "waitlog:2:> move ", "popups",
        f"load:{fen_file(tmp_path, 'black.fen', BLACK_TO_MOVE)}", "waitlog:2:< setboard", "sleep:1", "popups"])
    log, where = result["log"], f"files in {tmp_path}"
    setboards = [line for line in said(log, "<") if line.startswith("setboard ")]
    assert [line.split()[1:3] for line in setboards] == [BLACK_TO_MOVE.split()[:2]] * 2, where
    moves = [line[len("move "):] for line in said(log, ">") if line.startswith("move ")]
    Position.from_fen(BLACK_TO_MOVE, "8piece").push_text(moves[1])        # Black's move, legal
    # after the paste, the note to choose a mode, once; after the load, XBoard's error (in its output:
    # the engine's note, which follows it, takes its place on the screen)
    assert titles(result["popups"]) == [[], ["Note"], [], ["Note"]], (result["popups"], where)
    assert result["stderr"].count("Engine did not send setup") == 1, where
    notes = [" ".join(line.split("\\n")) for line in said(log, ">") if line.startswith("telluser")]
    assert any("cannot load a position with Black to move in the middle of a session" in note
               for note in notes), (notes, where)
    assert popups_fit(result["popups"]), (result["popups"], where)
