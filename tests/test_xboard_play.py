"""A human plays every move kind XBoard lets them enter against the engine, in Debian's XBoard 4.9.1
started as `xboard-engine play VARIANT` starts it (the engine's pictures, legality testing as the
variant needs, the engine option "Avoid moves XBoard 4.9.1 misdraws" in the 8-Piece variants), under
Xvfb, by xdotool (tests/xboard_human.py).

Each episode loads a position through File > Load Position (after the first, in the middle of the
session: the path where XBoard 4.9.1 used to redraw the start array), enters White's move with the
gesture docs/XBOARD.md gives for its kind, hands Black to the engine (Mode > Machine Black), and once
the engine has answered, takes a screenshot and resigns, so that XBoard saves the game. Checked:
- the engine received each move as docs/XBOARD.md says and accepted it (the dragged lancer: refused, with
  the message saying how to move it), answered with a move of its own, and the game replays legally
  through the rules core;
- XBoard saved one game per episode; where XBoard can notate the variant (Chess80, Full Cavalry), the
  saved game replays through the rules core to the engine's moves;
- every square of each screenshot shows the expected unit's picture: the true position where XBoard
  checks legality (Chess80), else what XBoard 4.9.1 draws (tests/xboard_records.py's model: it draws
  pushes, 8piece-random castles with a jailer and 2019 edge captures wrong).
"""
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple

import pytest

from needs import needs

from xboard_engine import Position
from xboard_engine.engine.xboard.launcher import XBOARD_CHECKS_LEGALITY
from xboard_records import (CONVERT, IMPORT, XBOARD, XVFB_RUN, SquarePictures,
                            flat_board_arguments, parse_engine_log,
                            home_env, parse_pgn, pieces, ppm, replay_pgn_game, run_session, xboard_pieces)

ROOT = Path(__file__).resolve().parent.parent
HUMAN = ROOT / "tests" / "xboard_human.py"

pytestmark = [
    needs("xboard", "xvfb-run", "xdotool", "import", "convert", "rsvg-convert"),
    pytest.mark.slow,
]


class Episode(NamedTuple):
    name: str
    fen: str               # White to move
    steps: List[str]       # tests/xboard_human.py steps: White's move, entered in Edit Game mode
    sent: str              # the move the engine must receive last (a regular expression)
    refused: str = ""      # the start of the engine's telluser text when it must refuse the move
    then: List[str] = []   # White's next move, entered against the engine (Machine Black)


START_8PIECE = "jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQKBNR w KQkq - 0 1"
CHESS80_CASTLES = "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"

EPISODES: Dict[str, List[Episode]] = {
    "8piece": [
        Episode("move: drag", START_8PIECE, ["drag:d2:d4"], "d2d4"),
        Episode("capture: click, click", "jfsqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/JDSQKBNR w KQkq d6 0 2",
                ["click:e4", "click:d5"], "e4d5"),
        Episode("lancer move and turn: click, press on the destination and pull", START_8PIECE,
                ["clickpull:b1:e4:2"], "b1e4[ce-ho]"),
        Episode("promotion to a lancer with its facing: drag, pulling back", "jfsqkbn1/pppppppP/8/8/8/8/PPPPPPP1/JDSQKBNR w KQq - 0 1",
                ["dragpull:h7:g8:3"], "h7g8[a-z]"),
        Episode("castle O-O: drag the king", "jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/JDSQK2R w KQkq - 0 1",
                ["drag:e1:g1"], "e1g1"),
        Episode("castle O-O-O with the jailer: drag the king", "jfsqkbnr/pppppppp/8/8/8/8/PPPPPPPP/J3KBNR w KQkq - 0 1",
                ["drag:e1:c1"], "e1c1"),
        # the jailer d1 holds the white king and cannot move: after a2a3 and a black king move,
        # White passes (in Edit Game mode XBoard 4.9.1 sends a pass as a setboard instead)
        Episode("pass: type @@@@", "7k/8/8/8/8/8/P2P4/2BjK3 w - - 0 1", ["drag:a2:a3"], "@@@@",
                then=["type:@@@@"]),
        Episode("push, one destination: drag the sentry onto the unit",
                "jfsqkbnr/pppppp2/7p/8/3P4/8/PPP1PPPP/JDSQKBNR w KQkq - 0 2", ["drag:c1:h6"], "c1h6"),
        Episode("push, several destinations: drag, then click the destination",
                "jfsqkbnr/ppppppp1/7p/8/3P4/8/PPP1PPPP/JDSQKBNR w KQkq - 0 2", ["drag:c1:h6", "click:g7"],
                "c1h6,h6g7"),
        Episode("push nudging a lancer: drag, then click the square",
                "j1sqkbnr/ppppppp1/7g/8/3P4/8/PPP1PPPP/JDSQKBNR w KQkq - 0 2", ["drag:c1:h6", "click:g5"],
                "c1h6,h6g5"),
        Episode("lancer dragged: refused with how to move it", START_8PIECE, ["drag:b1:e4"], "b1e4q",
                "A lancer cannot be dragged"),
    ],
    "8piece-2019": [
        Episode("jump capture: drag onto the unit, click the landing square",
                "jfsqkbnr/pppppp1p/8/6p1/8/3P4/PPP1PPPP/JDSQKBNR w KQkq g6 0 2", ["drag:c1:g5", "click:h6"],
                "c1g5,g5h6"),
        Episode("edge capture: drag onto the edge unit", "jfsqkbnr/1ppppppp/p7/8/8/3S4/PPPPPPPP/JD1QKBNR w KQkq - 0 2",
                ["drag:d3:a6"], "d3a6"),
    ],
    "8piece-random": [
        Episode("castle with the jailer: drag the king onto it",
                "jkbsqngr/pppppppp/8/8/8/8/PPPPPPPP/JK2QNCR w KQkq - 0 1", ["drag:b1:a1"], "b1a1"),
    ],
    "fullcavalry": [
        Episode("move: drag", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq - 0 1", ["drag:e2:e4"], "e2e4"),
        Episode("lancer move and turn: click, press on the destination and pull",
                "enbqkbnm/pppppppp/8/8/8/5N2/PPPPPPPP/ENBQKB1M w KQkq - 0 1", ["clickpull:h1:g1:2"], "h1g1[cdefhno]"),
        Episode("lancer capture keeping its facing: click, press on the unit, release",
                "enbqkbnm/pppppppp/8/8/8/8/1PPPPPPP/CNBQKBNM w Kkq - 0 1", ["clickpull:a1:a7:0"], "a1a7c?"),
        # a human's click is a press, a pause and a release: XBoard takes the engine's answer to the
        # press (the facings it may choose) before the release and sends the move without a facing
        Episode("lancer capture by two clicks: it keeps its facing",
                "enbqkbnm/pppppppp/8/8/8/8/1PPPPPPP/CNBQKBNM w Kkq - 0 1", ["click:a1", "click:a7"], "a1a7"),
        Episode("castle O-O: drag the king", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQK2M w KQkq - 0 1",
                ["drag:e1:g1"], "e1g1"),
        Episode("castle O-O-O: drag the king", "enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/EN2KBNM w KQkq - 0 1",
                ["drag:e1:c1"], "e1c1"),
        Episode("promotion to a lancer with its facing: drag, pulling back",
                "enbqkbn1/pppppppP/8/8/8/8/PPPPPPP1/ENBQKBNM w Qq - 0 1", ["dragpull:h7:g8:3"], "h7g8[a-z]"),
    ],
    "chess80": [
        Episode("move: drag", "rnbdkqdbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBDKQDBNR w KQkq - 0 1",
                ["drag:e2:e4"], "e2e4"),
        Episode("en passant: drag", "rnbdkqdbnr/pppp1ppppp/10/3Pp5/10/10/PPP1PPPPPP/RNBDKQDBNR w KQkq e6 0 3",
                ["drag:d5:e6"], "d5e6"),
        Episode("castle 2-2-2: drag the king to g1", CHESS80_CASTLES, ["drag:e1:g1"], "e1g1"),
        Episode("castle 3-3-3: drag the king to h1", CHESS80_CASTLES, ["drag:e1:h1"], "e1h1"),
        Episode("castle 4-4-4: drag the king to i1", CHESS80_CASTLES, ["drag:e1:i1"], "e1i1"),
        Episode("castle 2-2: drag the king to c1", CHESS80_CASTLES, ["drag:e1:c1"], "e1c1"),
        Episode("castle 3-3: drag the king to b1", CHESS80_CASTLES, ["drag:e1:b1"], "e1b1"),
        # the castle onto the rook's square cannot be entered: XBoard makes the drop on j1 the
        # castle with the king beside the rook, and the engine does not mark j1 (issue 24)
        Episode("castle 4-4-4 by dropping the king on its rook", CHESS80_CASTLES, ["drag:e1:j1"], "e1j1"),
        Episode("promotion to a Duke: drag, pulling back once",
                "rnbdkqdbn1/pppppppppP/10/10/10/10/PPPPPPPPP1/RNBDKQDBNR w KQq - 0 1", ["dragpull:j7:j8:1"],
                "j7j8d"),
        Episode("promotion to a queen: drag", "rnbdkqdbn1/pppppppppP/10/10/10/10/PPPPPPPPP1/RNBDKQDBNR w KQq - 0 1",
                ["drag:j7:j8"], "j7j8q"),
    ],
}


@pytest.mark.parametrize("variant", list(EPISODES))
def test_episodes_are_legal_in_the_rules_core(variant):
    """The moves each episode expects are legal in its position (the dragged lancer's is not: XBoard
    adds a queen to it)."""
    for episode in EPISODES[variant]:
        pos = Position.from_fen(episode.fen, variant)
        assert pos.stm == 0, episode.name
        if episode.then:        # the first move, and any answer: then White's move must be legal
            pos.push_text(episode.steps[0].split(":")[1] + episode.steps[0].split(":")[2])
            for answer in pos.legal_moves():
                pos.push(answer)
                pos.parse_move(episode.sent)
                pos.pop()
            continue
        sent = episode.sent.rstrip("?")
        legal = [pos.move_text(m) for m in pos.legal_moves()]
        if episode.refused:
            assert sent not in legal and sent[:-1] in [t[:len(sent) - 1] for t in legal], episode.name
        elif re.search(r"[\[?]", episode.sent):
            assert any(re.fullmatch(episode.sent, t) for t in legal), episode.name
        else:
            pos.parse_move(sent)


@pytest.mark.parametrize("variant", list(EPISODES))
def test_human_plays_every_move_kind_against_the_engine(variant, tmp_path):
    episodes = EPISODES[variant]
    plan = tmp_path / "episodes.json"
    plan.write_text(json.dumps([{"fen": e.fen, "steps": e.steps, "then": e.then} for e in episodes]))
    done = run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", sys.executable, str(HUMAN),
                        str(tmp_path), variant, "--episodes", str(plan)], 60 + 40 * len(episodes),
                       f"the scripted human did not finish (files in {tmp_path})", cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    where = f"{variant} (files in {tmp_path})"
    assert done.returncode == 0, where + "\n" + done.stdout.decode(errors="replace")[-2000:]

    log = (tmp_path / "engine.log").read_text(errors="replace")
    if variant == "chess80":            # the king's castles onto its rooks are not marked
        lifted = re.findall(r"< lift e1\n\S+ > highlight (\S+)", log)
        assert lifted and all(marked_files(h.split("/")[-1]) == set("bcdfghi") for h in lifted), lifted
    games = [g for g in parse_engine_log(tmp_path / "engine.log") if g.setboard_fen]
    assert len(games) == len(episodes), f"{where}: {len(games)} games in the engine log"
    pictures = SquarePictures(variant, tmp_path)
    # Resign is no command in Edit Game mode, where a refused move leaves XBoard: no game is saved
    saved = iter(parse_pgn((tmp_path / "games.pgn").read_text(errors="replace")))
    records = [None if e.refused else next(saved, None) for e in episodes]
    assert None not in [r for r, e in zip(records, episodes) if not e.refused] and next(saved, None) is None, \
        f"{where}: not one saved game per episode"
    for n, (episode, game, record) in enumerate(zip(episodes, games, records)):
        label = f"{where}, episode {n} ({episode.name})"
        start = Position.from_fen(episode.fen, variant)
        assert Position.from_fen(game.setboard_fen, variant).fen().split()[:2] == episode.fen.split()[:2], label
        texts = [text for _, text in game.moves]
        received = [text for who, text in game.moves if who == "gui"]
        assert received and re.fullmatch(episode.sent, received[-1]), f"{label}: the engine received {received}"
        if episode.refused:
            assert len(texts) == 1 and [line for line in game.trouble if "Illegal move" in line], label
            assert f"> telluser \\\\{episode.refused}" in log, label
            texts = []
        else:
            assert not game.trouble, f"{label}: {game.trouble}"
            assert [who for who, _ in game.moves] == ["gui", "engine"] * (1 + bool(episode.then)), \
                f"{label}: {game.moves}"
        pos = start.copy()
        for text in texts:
            pos.push_text(text)               # raises if the rules core disagrees
        if variant in XBOARD_CHECKS_LEGALITY:
            shown = pieces(pos)
        else:
            shown, _ = xboard_pieces(start, texts)
        shot = tmp_path / f"episode-{n}.ppm"
        image = ppm(subprocess.run([CONVERT, str(shot), "-depth", "8", "ppm:-"], capture_output=True,
                                   check=True).stdout)
        assert pictures.problems(image, shown) == [], label
        if record is None:
            continue
        assert record["result"] == "0-1", f"{label}: saved with {record['result']}"
        if variant in ("chess80", "fullcavalry"):
            canonical = pos_text(start, texts)
            _, moves = replay_pgn_game(record, variant, start, canonical, label, [])
            assert moves == canonical, label
        else:
            assert len(record["tokens"]) == len(texts), f"{label}: saved {record['tokens']}"


def marked_files(row: str) -> set:
    """The files a row of a `highlight` line marks."""
    files, file = set(), 0
    for char in re.findall(r"\d+|.", row):
        if char.isdigit():
            file += int(char)
        else:
            files.add("abcdefghij"[file])
            file += 1
    return files


def pos_text(start: Position, texts: List[str]) -> List[str]:
    """The moves as the rules core writes them."""
    pos = start.copy()
    out = []
    for text in texts:
        move = pos.parse_move(text)
        out.append(pos.move_text(move))
        pos.push(move)
    return out


def test_refused_first_move_of_a_game_begun_from_a_position_file(tmp_path):
    """XBoard started on a position file (`-lpf`; orthodox chess, since in the hosted variants XBoard
    reads the file before the engine has named its pieces) sends the human's first move followed at
    once by `go`.  The human types an illegal move (legality testing off, so XBoard passes it on):
    the engine refuses it and waits; the human's next move gets the engine's answer, which XBoard
    plays (before the fix the engine moved for White and XBoard called its move impossible)."""
    home, log, shot = tmp_path / "home", tmp_path / "engine.log", tmp_path / "board.ppm"
    home.mkdir()
    (tmp_path / "settings").write_text("")
    position = tmp_path / "start.fen"
    position.write_text("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n")
    xboard = [XBOARD, "-fcp", f"{sys.executable} -m xboard_engine --log {log}", "-fd", str(ROOT),
              "-lpf", str(position), "-testLegality", "false", "-firstOptions", "Nodes_per_move=3000"] + \
        flat_board_arguments(tmp_path)
    q = shlex.quote
    script = f"""
{shlex.join(xboard)} & pid=$!
for i in $(seq 60); do grep -q '< setboard' {q(str(log))} 2>/dev/null && break; sleep 0.5; done
sleep 2
xdotool mousemove 330 420 click 1; sleep 0.5
xdotool type --delay 50 e4e6; xdotool key Return; sleep 3
xdotool type --delay 50 g1f3; xdotool key Return
for i in $(seq 60); do grep -q '> move' {q(str(log))} 2>/dev/null && break; sleep 0.5; done
sleep 2
{q(IMPORT)} -window root -depth 8 {q(str(shot))}
kill $pid
"""
    run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script], 120,
                f"XBoard did not finish (files in {tmp_path})", cwd=tmp_path,
                env=home_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    where = f"files in {tmp_path}"
    said = [line.split(" ", 1)[1] for line in log.read_text().splitlines()
            if line.split(" ", 2)[1:2] in (["<"], [">"]) and not re.match(r"^\S+ > \d", line)]
    start = said.index("< usermove e4e6")
    assert said[start:start + 3] == ["< usermove e4e6", "> Illegal move: e4e6", "< go"], where
    replies = [text[len("> move "):] for text in said[start:] if text.startswith("> move ")]
    assert "< usermove g1f3" in said and len(replies) == 1, f"the engine moved without waiting ({where})"
    assert said.index("< usermove g1f3") < said.index("> move " + replies[0]), where
    pos = Position.from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    pos.push_text(replies[0])                       # Black's answer
    assert "Impossible move" not in (tmp_path / "xboard.debug").read_text(errors="replace"), where
    image = ppm(subprocess.run([CONVERT, str(shot), "-depth", "8", "ppm:-"], capture_output=True,
                               check=True).stdout)
    assert SquarePictures("normal", tmp_path).problems(image, pieces(pos)) == [], where
