"""End-to-end: our engine against itself in a real XBoard (Debian's 4.9.1) under Xvfb, every variant.

For each variant XBoard plays an unattended 2-game match (`-mg 2`) between two copies of the engine,
started with `--log`. Checked afterwards:
- XBoard exits by itself; both games finish with an accepted ending (mate, stalemate, a draw rule, the
  move-count limit); nothing ends by forfeit, illegal move, time, a crash or a missing `setup`. One
  exception, confirmed from the logs: in 8piece/8piece-random XBoard 4.9.1 loses a pushed unit, or a
  jailer or lancer the king castles with, from its board and forfeits the side that later moves it
  (docs/XBOARD.md, "What XBoard 4.9.1 shows": 4.9.1 cannot draw pushes; issue 10);
- both engines' logs hold the same games, which replay through the rules core to the same final FEN,
  neither engine rejected a move or reported an error, and every result an engine claimed is the rules
  core's;
- for the variants XBoard can notate (normal, fischerandom, chess80, fullcavalry) the saved PGN replays
  through the rules core to the logs' moves (XBoard's SAN writes a lancer by its facing letter and leaves
  out some turn suffixes; the logs settle those), and a game ended by mate or a draw rule has the rules
  core's result.
Chess80 king-takes-own-rook castles (plain `e1a1`, what XBoard sends for a human's drag or typed move):
a scripted engine (tests/xboard_scripted_engine.py) plays them against ours, and a human types them
(xdotool), to check that XBoard and our engine read them the same way.
While a match runs, an engine's `Illegal move`/`Error` ends it after 5 s (XBoard without legality testing
waits for ever then).

Needs `xboard` and `xvfb-run` (Debian: `apt-get install -y xboard xvfb`; xboard lives in /usr/games).
A scripted human (tests/xboard_human.py: xdotool drags, clicks and typing) enters every move kind of the
the gesture table of docs/XBOARD.md, and XBoard sends the engine the moves it expects.
The engine's piece pictures (`--piece-images`): a screenshot of XBoard's start position in 8-Piece, Full
Cavalry and Chess80 shows each fairy piece's own picture (needs ImageMagick's `import`).
Set XBOARD_E2E_SCREENSHOTS=DIR to also save a screenshot of the board 25 s into the match (needs
imagemagick).
"""
import os
import pwd
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from needs import needs

from xboard_engine import Position
from xboard_engine.engine.xboard.launcher import XBOARD_CANNOT_DRAW
from xboard_engine.engine.xboard.launcher import FIRST_START_NOTE
from xboard_records import (CONVERT, IMPORT, flat_board_arguments, home_env, XBOARD, XVFB_RUN,
                            SquarePictures,
                            colours, find_program, parse_engine_log, parse_pgn, pieces, ppm, replay_log_game,
                            replay_pgn_game, run_session, same_moves, start_position, xboard_board,
                            xboard_lost_the_unit, xboard_shows)

ROOT = Path(__file__).resolve().parent.parent


pytestmark = [
    needs("xboard", "xvfb-run"),
    pytest.mark.slow,
]

# variant -> (XBoard legality testing, XBoard can notate its moves in PGN); docs/XBOARD.md, "Play in XBoard"
VARIANTS: Dict[str, Tuple[bool, bool]] = {
    "normal": (True, True),
    "fischerandom": (True, True),
    "chess80": (True, True),
    "fullcavalry": (False, True),
    "8piece": (False, False),
    "8piece-random": (False, False),
    "8piece-2019": (False, False),
}

TIME_CONTROL = ["-tc", "0:05", "-inc", "0.3"]   # 5 s + 0.3 s a move for each side
MAX_MOVES = 60                                  # XBoard adjudicates a draw ("long game") after this
MATCH_TIMEOUT = 240                             # seconds for the whole 2-game match

# How a game may end: the text XBoard writes in the PGN comment before the result.
ACCEPTED_ENDINGS = re.compile(
    r"^(Xboard adjudication: (Checkmate|Stalemate|long game|50-move rule|repetition|"
    r"Insufficient mating material|Trivial draw)"
    r"|(White|Black) mates|Stalemate|Draw by repetition|Draw by fifty-move rule|Insufficient material"
    r"|Draw claim: (3-fold repetition|50-move rule|insufficient mating material))$")
# Which endings say that the rules core must see the game as over, with this termination.
RULE_ENDINGS = {
    "Xboard adjudication: Checkmate": "checkmate",
    "White mates": "checkmate",
    "Black mates": "checkmate",
    "Xboard adjudication: Stalemate": "stalemate",
    "Stalemate": "stalemate",
    "Draw by repetition": "threefold_repetition",
    "Draw by fifty-move rule": "fifty_moves",
    "Insufficient material": "insufficient_material",
}
# 8-Piece push variants: XBoard 4.9.1 cannot draw a push (docs/XBOARD.md, "What XBoard 4.9.1 shows") and then forfeits a move
# of the pushed unit, which it no longer shows; the test excuses that ending when the logs confirm it.
PUSH_VARIANTS = ("8piece", "8piece-random")
FORFEIT_LOST_UNIT = re.compile(r"^Xboard: Forfeit due to invalid move: (\S+) \(")
XBOARD_TROUBLE = re.compile(r"illegal move|forfeit|did not send setup|exited unexpectedly|"
                            r"false (draw|win|illegal)|wins on time|time forfeit", re.I)


# ---------------------------------------------------------------------------------------- running
FILES = ("first.log", "second.log", "games.pgn", "xboard.debug", "settings", "xboard.out")


# As `xboard-engine play` starts XBoard: the engines avoid the moves 4.9.1 draws wrong.
MISDRAWN_OPTION = "Avoid_moves_XBoard_4.9.1_misdraws=1"


def run_match(variant: str, workdir: Path) -> None:
    legality, _ = VARIANTS[variant]
    home = workdir / "home"
    home.mkdir()
    files = {name: workdir / name for name in FILES}

    def engine(log: Path) -> str:
        return f"{sys.executable} -m xboard_engine --log {log}"

    args = [XBOARD,
            "-fcp", engine(files["first.log"]), "-fd", str(ROOT),
            "-scp", engine(files["second.log"]), "-sd", str(ROOT),
            "-variant", variant, "-mg", "2", *TIME_CONTROL,
            *(["-firstOptions", MISDRAWN_OPTION, "-secondOptions", MISDRAWN_OPTION]
              if variant in XBOARD_CANNOT_DRAW else []),
            "-adjudicateDrawMoves", str(MAX_MOVES), "-matchPause", "500",
            "-testLegality", "true" if legality else "false",
            "-saveGameFile", str(files["games.pgn"]),
            "-saveSettingsOnExit", "false", "-settingsFile", str(files["settings"]),
            "-debug", "-nameOfDebugFile", str(files["xboard.debug"]),
            "-popupExitMessage", "false", "-soundMove", "", "-soundProgram", ""]
    files["settings"].write_text("")
    command = [XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24"]
    shots = os.environ.get("XBOARD_E2E_SCREENSHOTS")
    if shots:
        shot = Path(shots) / f"{variant}.png"
        script = (f"{shlex.join(args)} & pid=$!; sleep 25; import -window root {shlex.quote(str(shot))}; "
                  f"wait $pid")
        command += ["sh", "-c", script]
    else:
        command += args
    env = home_env(home)
    with open(files["xboard.out"], "w") as out:
        process = subprocess.Popen(command, cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        failure = None
        deadline = time.monotonic() + MATCH_TIMEOUT
        trouble_seen = None
        while process.poll() is None:
            now = time.monotonic()
            if now > deadline:
                failure = f"XBoard did not finish the match within {MATCH_TIMEOUT} s"
            elif trouble_seen is None and _engine_trouble(files):
                trouble_seen = now          # XBoard without legality testing waits for ever then
            elif trouble_seen is not None and now > trouble_seen + 5:
                failure = "an engine reported a problem:\n" + "\n".join(_engine_trouble(files)[:10])
            if failure:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                pytest.fail(f"{variant}: {failure}\n(files in {workdir})")
            time.sleep(1)
    assert process.returncode == 0, f"{variant}: xboard-run exit code {process.returncode}: " + \
        files["xboard.out"].read_text(errors="replace")[-2000:]
    assert not (home / ".xboardrc").exists(), "XBoard wrote ~/.xboardrc"


def _engine_trouble(files: Dict[str, Path]) -> List[str]:
    found = []
    for name in ("first.log", "second.log"):
        if files[name].exists():
            found += [f"{name}: {line}" for game in parse_engine_log(files[name]) for line in game.trouble]
    return found


def check_outcome(pos: Position, game: Dict, where: str) -> None:
    """A game ended by a rule has the rules core's result; any result the rules core sees is the PGN's."""
    outcome = pos.outcome()
    expected = RULE_ENDINGS.get(game["ending"])
    if expected:
        assert outcome is not None and outcome.termination == expected, \
            f"{where}: ended by {game['ending']!r} but the rules core says {outcome} in {pos.fen()}"
    if outcome is not None and game["ending"] == "Xboard adjudication: long game" \
            and pos.fullmove > MAX_MOVES:
        return      # the move that reached XBoard's limit also ended the game: its adjudication won
                    # the race with the engine's claim (seen: a mate on move 61 of 60)
    if outcome is not None:
        assert game["result"] == outcome.result, f"{where}: PGN {game['result']}, rules core {outcome}"


# ---------------------------------------------------------------------------------------- the test
# A game of the CI run that found XBoard 4.9.1 losing a castling jailer: Black castles b8a8 (king c8,
# jailer d8) after White's push d3d2,d2e4 (sentry d3-e4 pushing the knight to d2).
JAILER_CASTLE_GAME = (
    "jknsbqrg/pppppppp/8/8/8/8/PPPPPPPP/JKNSBQRC w KQkq - 0 1",
    "d2d4 f7f5 c1d3 h7h5 b2b4 f8f6 e2e3 b7b5 f2f4 g7g5 g2g3 d7d5 h2h4 g5g4 h1h2o c8d6 h2e5d f6e6 "
    "d3c5 e6g6 d1e2 h8h6m e2d3 g6f7 b1a1 h6f6h f1e2 c7c6 a2a4 b5a4 c5a4 d8b6 a4c5 b8a8 c2c3 f6e5c "
    "f4e5 d6e4 e5e6 f7g6 d3d2,d2e4 d5e4".split())


@pytest.mark.parametrize("last,lost", [
    ("d8d6", True),         # the castled jailer: XBoard shows the black king on a8 and no jailer
    ("c8c7", True),         # the castled king (XBoard has it on a8)
    ("g6g7", False),        # the queen, drawn right
    ("e1d2", False),        # White captures the pushed knight: a move of a unit XBoard shows
])
def test_xboard_board_model_loses_castling_jailer(last, lost):
    fen, moves = JAILER_CASTLE_GAME
    start = Position.from_fen(fen, "8piece-random")
    shown, pos = xboard_board(start, moves)
    assert "d2" not in shown and colours(pos)["d2"] == "b"      # the pushed knight, lost
    assert shown["a8"] == "b" and "c8" not in shown and "d8" not in shown
    assert shown["a1"] == "w" and "c1" not in shown and "d1" not in shown \
        and colours(pos)["c1"] == colours(pos)["d1"] == "w"    # White's castle with a jailer too
    assert xboard_lost_the_unit(start, moves + [last]) is lost


def test_xboard_board_model_draws_rook_castles_and_en_passant():
    start = Position.from_fen("r3k2r/8/8/8/1p6/8/P7/R3K2R w KQkq - 0 1", "normal")
    moves = ["e1g1", "e8c8", "a2a4", "b4a3"]
    shown, pos = xboard_board(start, moves)
    assert shown == colours(pos)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_engine_match_in_xboard(variant, tmp_path):
    run_match(variant, tmp_path)
    check_match(variant, tmp_path)


def check_match(variant: str, workdir: Path) -> None:
    _, notated = VARIANTS[variant]
    files = {name: workdir / name for name in FILES}
    where = f"{variant} ({workdir})"

    # The PGN: two finished games.
    assert files["games.pgn"].exists(), f"{where}: no PGN saved"
    pgn = parse_pgn(files["games.pgn"].read_text(errors="replace"))
    assert len(pgn) == 2, f"{where}: {len(pgn)} games in the PGN"
    for k, game in enumerate(pgn, 1):
        assert game["result"] in ("1-0", "0-1", "1/2-1/2"), f"{where}: game {k} result {game['result']}"
        assert game["tags"].get("Result") == game["result"], f"{where}: game {k} Result tag"

    # Both engines' logs: no complaints, the same games, replaying to the same positions.
    names = ("first.log", "second.log")
    logs = [parse_engine_log(files[name]) for name in names]
    for name, games in zip(names, logs):
        problems = [line for g in games for line in g.trouble]
        assert not problems, f"{where}: {name} shows engine problems:\n" + "\n".join(problems[:20])
        assert len(games) == 2, f"{where}: {name} holds {len(games)} games"
    notes: List[str] = []
    excused: List[str] = []
    for k, game in enumerate(pgn):
        label = f"{where} game {k + 1}"
        announced = [games[k].setup_fen for games in logs]
        replays = [replay_log_game(games[k], f"{label} {name}", announced) for name, games in zip(names, logs)]
        starts = [start_position(games[k], announced) for games in logs]
        assert starts[0].fen() == starts[1].fen(), f"{label}: the engines started from different positions"
        (pos1, moves1), (pos2, moves2) = replays
        assert same_moves(moves1, moves2), f"{label}: the engines' move lists differ:\n{moves1}\n{moves2}"
        if len(moves1) == len(moves2):
            assert pos1.fen() == pos2.fen(), f"{label}: final FENs differ"
        final, moves = min(replays, key=lambda r: len(r[1]))

        ending = game["ending"] or ""
        lost = FORFEIT_LOST_UNIT.match(ending)
        if lost and variant in PUSH_VARIANTS:
            # XBoard 4.9.1 drops a pushed unit from its board and forfeits the side that moves it later.
            longer = max(zip((logs[0][k], logs[1][k]), (moves1, moves2)), key=lambda r: len(r[1]))
            (who, text), canonical = longer[0].moves[-1], longer[1]
            assert who == "engine" and xboard_shows(text) == lost.group(1) \
                and len(canonical) == len(moves) + 1, f"{label}: {ending!r} is not the last move of the logs"
            assert xboard_lost_the_unit(starts[0], canonical), \
                f"{label}: {ending!r}: XBoard forfeited a legal move of a unit it had not lost"
            excused.append(f"Forfeit due to invalid move: {lost.group(1)} (")
            notes.append(f"{label}: XBoard 4.9.1 lost a unit (a push or castle it draws wrong) and forfeited its move {text}")
        else:
            assert ACCEPTED_ENDINGS.match(ending), f"{label} ended by {ending!r} ({game['result']})"
            if ending == "Xboard adjudication: long game":
                assert game["result"] == "1/2-1/2"

        # each engine's claims against its own log's last position (XBoard may adjudicate a mate
        # before it passes the mating move on to the other engine)
        for name, games, (own, _) in zip(names, logs, replays):
            outcome = own.outcome()
            for claim in games[k].claims:
                assert outcome is not None and claim.split()[0] == outcome.result, \
                    f"{label}: {name} claims {claim!r}, rules core: {outcome} in {own.fen()}"
        if notated:
            # the hints: the longer log (XBoard may end a game before passing the last move on)
            longest = max(moves1, moves2, key=len)
            final, pgn_moves = replay_pgn_game(game, variant, starts[0], longest, f"{label} PGN", notes)
            assert same_moves(pgn_moves, moves) and len(pgn_moves) >= len(moves), \
                f"{label}: PGN moves differ from the engine logs:\n{pgn_moves}\n{moves}"
        else:       # XBoard cannot notate every 8-Piece move: the logs are the record
            assert len(game["tokens"]) in (len(moves), len(moves) + 1), f"{label}: PGN length"
        if not lost:
            check_outcome(final, game, label)

    debug = files["xboard.debug"].read_text(errors="replace") if files["xboard.debug"].exists() else ""
    trouble = [line for line in debug.splitlines()
               if XBOARD_TROUBLE.search(line) and not any(text in line for text in excused)]
    assert not trouble, f"{where}: XBoard debug file reports trouble:\n" + "\n".join(trouble[:20])
    for note in notes:
        print(note)


# ---------------------------------------------------------------------------------------- chess80 castles
C80_CASTLES = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"
SCRIPTED_ENGINE = ROOT / "tests" / "xboard_scripted_engine.py"


def test_R5_4_king_takes_rook_castle_keeps_xboard_and_engine_in_step(tmp_path):
    """R5.4 as XBoard reads it. A human's drag or typed move of the king onto its own rook reaches the
    engine as plain `usermove e1a1` and XBoard shows the Chess960 castle (K c1 R d1; towards j: K i1
    R h1), checked live with xdotool in XBoard 4.9.1. Here a scripted first engine plays that text
    (XBoard shows and relays an engine's `move e1a1` the same way) against our engine: as White
    e1a1, then c1b1; as Black e8j8, then i8j8. The second king move is legal only on the board XBoard
    shows, so our engine must accept it, and XBoard must accept our engine's replies."""
    home = tmp_path / "home"
    home.mkdir()
    settings = tmp_path / "settings"
    settings.write_text("")
    pgn, positions, debug = tmp_path / "games.pgn", tmp_path / "positions.fen", tmp_path / "xboard.debug"
    log = tmp_path / "engine.log"
    scripted = shlex.join([sys.executable, str(SCRIPTED_ENGINE), str(tmp_path / "scripted.log"),
                           C80_CASTLES, "e1a1 c1b1 resign", "e8j8 i8j8 resign"])
    args = [XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", XBOARD,
            "-fcp", scripted, "-fd", str(ROOT),
            "-scp", f"{sys.executable} -m xboard_engine --log {log}", "-sd", str(ROOT),
            "-variant", "chess80", "-mg", "2", *TIME_CONTROL, "-matchPause", "500",
            "-testLegality", "true", "-saveGameFile", str(pgn), "-savePositionFile", str(positions),
            "-saveSettingsOnExit", "false", "-settingsFile", str(settings),
            "-debug", "-nameOfDebugFile", str(debug),
            "-popupExitMessage", "false", "-soundMove", "", "-soundProgram", ""]
    done = run_session(args, 90, f"XBoard did not finish (files in {tmp_path})", cwd=tmp_path,
                       env=home_env(home), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]

    games = parse_engine_log(log)
    assert [line for g in games for line in g.trouble] == [], f"engine problems (files in {tmp_path})"
    assert len(games) == 2
    assert [text for who, text in games[0].moves if who == "gui"][:2] == ["e1a1", "c1b1"]
    assert [text for who, text in games[1].moves if who == "gui"][:2] == ["e8j8", "i8j8"]
    endings = [(g["ending"], g["result"]) for g in parse_pgn(pgn.read_text(errors="replace"))]
    assert endings == [("White resigns", "0-1"), ("Black resigns", "1-0")], \
        f"the scripted engine did not get to the end of its moves (files in {tmp_path})"
    xboard_boards = [line.split()[:2] for line in positions.read_text().splitlines() if line.strip()]
    for k, game in enumerate(games):
        assert game.setboard_fen == C80_CASTLES
        final, _ = replay_log_game(game, f"game {k + 1}")
        assert final.fen().split()[:2] == xboard_boards[k], f"game {k + 1}: engine and XBoard differ"
    trouble = [line for line in debug.read_text(errors="replace").splitlines() if XBOARD_TROUBLE.search(line)]
    assert not trouble, "\n".join(trouble[:20])


XDOTOOL = find_program("xdotool")
# A human types both sides' moves in XBoard's Edit Game mode (XBoard sends each to our engine in force
# mode): White clears b1-d1 and castles e1a1 (XBoard: K c1 R d1), then steps the king c1-b1; Black
# clears f8-i8 and castles e8j8 (XBoard: K i8 R h8), then steps the king i8-j8. The king steps are
# legal only on the board XBoard shows. Then "Machine White" (Ctrl+W) makes our engine move.
TYPED_GAME = ("b1a3 i8j6 b2b3 i7i6 c1b2 h8i7 d1d3 g8g6 e1a1 f7f5 c1b1 f8f7 j2j3 e8j8 j3j4 i8j8").split()


@needs("xdotool")
def test_R5_4_typed_king_takes_rook_castles_keep_xboard_and_engine_in_step(tmp_path):
    """R5.4 as XBoard reads it, with a human at the keyboard (a drag sends the same text, checked by
    hand): typed e1a1/e8j8 reach our engine unchanged, and engine and XBoard end on the same board."""
    home = tmp_path / "home"
    home.mkdir()
    settings = tmp_path / "settings"
    settings.write_text("")
    pgn, positions, debug = tmp_path / "games.pgn", tmp_path / "positions.fen", tmp_path / "xboard.debug"
    log = tmp_path / "engine.log"
    xboard = [XBOARD, "-fcp", f"{sys.executable} -m xboard_engine --log {log}", "-fd", str(ROOT),
              "-variant", "chess80", "-initialMode", "EditGame", "-tc", "1", "-testLegality", "true",
              "-saveGameFile", str(pgn), "-savePositionFile", str(positions),
              "-saveSettingsOnExit", "false", "-settingsFile", str(settings),
              "-debug", "-nameOfDebugFile", str(debug),
              "-popupExitMessage", "false", "-soundMove", "", "-soundProgram", ""]
    q = shlex.quote
    script = f"""
{shlex.join(xboard)} & pid=$!
for i in $(seq 60); do grep -q '< force' {q(str(log))} 2>/dev/null && break; sleep 0.5; done
sleep 1
xdotool mousemove 200 250 click 1; sleep 0.5
for m in {' '.join(TYPED_GAME)}; do xdotool type --delay 50 "$m"; xdotool key Return; sleep 0.7; done
xdotool key ctrl+w
for i in $(seq 60); do grep -q '> move ' {q(str(log))} && break; sleep 0.5; done
sleep 1
xdotool key ctrl+q
wait $pid
"""
    done = run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script], 120,
                       f"XBoard did not finish (files in {tmp_path})", cwd=tmp_path,
                       env=home_env(home), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]

    games = parse_engine_log(log)
    assert len(games) == 1 and games[0].trouble == [], f"engine problems (files in {tmp_path})"
    game = games[0]
    assert [text for who, text in game.moves if who == "gui"] == TYPED_GAME, f"files in {tmp_path}"
    assert [who for who, _ in game.moves][len(TYPED_GAME):] == ["engine"]
    final, _ = replay_log_game(game, "typed game")
    xboard_board = positions.read_text().split()[:2]
    assert final.fen().split()[:2] == xboard_board, f"engine and XBoard differ (files in {tmp_path})"
    trouble = [line for line in debug.read_text(errors="replace").splitlines() if XBOARD_TROUBLE.search(line)]
    assert not trouble, "\n".join(trouble[:20])


@needs("import", "convert", "rsvg-convert")
@pytest.mark.parametrize("variant", ["8piece", "fullcavalry", "chess80"])
def test_xboard_shows_the_engines_piece_pictures(variant, tmp_path):
    """XBoard 4.9.1 started with `-pieceImageDirectory` of the engine's pictures
    (`xboard-engine --piece-images DIR`) shows the start position with every unit's picture: each
    square of a screenshot is compared with every picture a unit of the variant can have there (the
    engine's drawings, XBoard's own orthodox pieces, an empty square), and the expected one must match
    best by a clear margin."""
    from xboard_engine import images
    pictures = tmp_path / "pieces"
    images.write_xboard_images(str(pictures))
    home, log, shot = tmp_path / "home", tmp_path / "engine.log", tmp_path / "board.ppm"
    home.mkdir()
    (tmp_path / "settings").write_text("")
    xboard = [XBOARD, "-fcp", f"{sys.executable} -m xboard_engine --log {log}", "-fd", str(ROOT),
              "-variant", variant, "-initialMode", "EditGame", "-testLegality", "false",
              "-pieceImageDirectory", str(pictures), "-messageSuppress", FIRST_START_NOTE] + \
        flat_board_arguments(tmp_path)
    q = shlex.quote
    script = f"""
{shlex.join(xboard)} & pid=$!
for i in $(seq 60); do grep -q '> setup' {q(str(log))} 2>/dev/null && break; sleep 0.5; done
sleep 3
{q(IMPORT)} -window root -depth 8 {q(str(shot))}
kill $pid
"""
    run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script], 120,
                f"XBoard did not start (files in {tmp_path})", cwd=tmp_path,
                env=home_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert shot.exists(), f"no screenshot (files in {tmp_path})"
    image = ppm(subprocess.run([CONVERT, str(shot), "-depth", "8", "ppm:-"], capture_output=True,
                               check=True).stdout)
    position = Position(variant)
    assert SquarePictures(variant, tmp_path).problems(image, pieces(position)) == [], f"files in {tmp_path}"
    fairy = [p for p in pieces(position).values() if images.picture_name(variant, p)]
    assert len(fairy) == {"8piece": 6, "fullcavalry": 4, "chess80": 4}[variant]


# ------------------------------------------------------------------ a human's mouse in XBoard
HUMAN = ROOT / "tests" / "xboard_human.py"
# (variant, steps for tests/xboard_human.py, the moves the engine must receive, the engine's answer
# lines to the last move that are expected): each gesture of the table in docs/XBOARD.md, "Entering every move kind".
GESTURES = {
    "lancer click and pull turns it": (
        "8piece", ["clickpull:b1:e4:2"], ["b1e4f"], []),
    "lancer drag is refused with how to move it": (
        "8piece", ["drag:b1:e4"], ["b1e4q"], ["telluser \\\\A lancer cannot be dragged", "Illegal move: b1e4q"]),
    "promotion by pulling the pawn back": (
        "8piece", ["type:h2h4 g7g5 h4g5 a7a6 g5g6 a6a5 g6h7 a5a4", "dragpull:h7:g8:3"],
        "h2h4 g7g5 h4g5 a7a6 g5g6 a6a5 g6h7 a5a4 h7g8e".split(), []),
    "push in two steps": (
        "8piece", ["type:d2d4 h7h6", "drag:c1:h6", "click:g7"], ["d2d4", "h7h6", "c1h6,h6g7"], []),
    "2019 jump in two steps": (
        "8piece-2019", ["type:d2d3 g7g5", "drag:c1:g5", "click:h6"], ["d2d3", "g7g5", "c1g5,g5h6"], []),
    "Full Cavalry lancer click and pull": (
        "fullcavalry", ["type:g1f3 g8f6", "clickpull:h1:g1:2"], ["g1f3", "g8f6", "h1g1c"], []),
    "Chess80 Duke by pulling the pawn back once (legality testing on)": (
        "chess80", ["type:h2h4 i7i5 h4i5 a7a6 i5i6 a6a5 i6j7 a5a4", "dragpull:j7:i8:1"],
        "h2h4 i7i5 h4i5 a7a6 i5i6 a6a5 i6j7 a5a4 j7i8d".split(), []),
}


@needs("import", "xdotool")
@pytest.mark.parametrize("gesture", list(GESTURES))
def test_human_enters_every_move_kind_with_the_mouse(gesture, tmp_path):
    """The gestures of docs/XBOARD.md, made with xdotool in XBoard 4.9.1 (Debian's default settings, e.g.
    -sweepPromotions true): XBoard sends the engine the move, the engine accepts it (or, for the
    dragged lancer, refuses it with the explanation), and the moves replay legally in the rules core."""
    variant, steps, expected, answer = GESTURES[gesture]
    done = run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", sys.executable, str(HUMAN),
                        str(tmp_path), variant, *steps], 120,
                       f"the scripted human did not finish (files in {tmp_path})", cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    log = (tmp_path / "engine.log").read_text()
    sent = [line.split("< usermove ", 1)[1] for line in log.splitlines() if "< usermove " in line]
    assert sent == expected, f"files in {tmp_path}"
    after_last = log.split(f"< usermove {expected[-1]}", 1)[1].splitlines()[1:]
    replies = [line.split("> ", 1)[1] for line in after_last if " > " in line and "highlight" not in line]
    for prefix, reply in zip(answer, replies):
        assert reply.startswith(prefix), (replies, f"files in {tmp_path}")
    assert len(replies) >= len(answer)
    if not answer:
        assert not [r for r in replies if r.startswith(("Illegal", "Error"))], replies
        pos = Position(variant)
        for move in expected:
            pos.push_text(move)          # raises if the rules core disagrees with the engine


# ------------------------------------------------------------------------------ the launcher
def test_play_prints_the_xboard_command_for_each_variant(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    for variant, legality in (("8piece", "false"), ("fullcavalry", "false"), ("chess80", "true")):
        out = subprocess.run([sys.executable, "-m", "xboard_engine", "play", variant, "--print", "--xboard",
                              "/opt/xb", "--", "-tc", "5"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        pictures = tmp_path / "xboard-engine" / "pieces-0.1.0"
        assert shlex.split(out.stdout) == [
            "/opt/xb", "-fcp", f"{sys.executable} -m xboard_engine", "-variant", variant,
            "-testLegality", legality, "-pieceImageDirectory", str(pictures), "-saveSettingsOnExit", "false",
            "-messageSuppress", "Right-clicking menu item or dialog text pops up help on it"] + \
            (["-firstOptions", "Avoid_moves_XBoard_4.9.1_misdraws=1"] if variant != "chess80" else []) + ["-tc", "5"]
        assert len(list(pictures.glob("*.svg"))) == 22


def test_play_joins_the_users_engine_options_to_its_own(tmp_path):
    """XBoard keeps only the last -firstOptions it is given: one after `--` is joined to the
    launcher's, so the user's options and "Avoid moves XBoard 4.9.1 misdraws" both reach the engine."""
    out = subprocess.run([sys.executable, "-m", "xboard_engine", "play", "8piece", "--print", "--xboard",
                          "/opt/xb", "--", "-firstOptions", "Hash=128,Skill_level=5", "-tc", "5"], cwd=ROOT,
                         env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path)), capture_output=True, text=True,
                         timeout=60)
    words = shlex.split(out.stdout)
    assert words.count("-firstOptions") == 1 and words[-2:] == ["-tc", "5"]
    assert words[words.index("-firstOptions") + 1] == "Avoid_moves_XBoard_4.9.1_misdraws=1,Hash=128,Skill_level=5"


def test_play_reports_a_missing_xboard_or_variant(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "xboard_engine", "play", "8piece", "--xboard", "/nonexistent"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr.split(":")[0]) == (2, "xboard-engine")
    assert "cannot start XBoard" in out.stderr and "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "xboard_engine", "play", "shogi"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "invalid choice: 'shogi'" in out.stderr


@needs("xdotool")
def test_play_starts_xboard_with_the_variant_and_leaves_the_settings_alone(tmp_path):
    """`xboard-engine play 8piece` in a real XBoard: the engine is asked for the variant and sends its
    setup; quitting XBoard (Ctrl+Q) leaves the user's ~/.xboardrc as it was.  XBoard finds that file
    through the password database, not $HOME, so the test watches the real one."""
    home = tmp_path / "home"
    home.mkdir()
    settings = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".xboardrc"

    def state():
        return (settings.stat().st_mtime_ns, settings.read_bytes()) if settings.exists() else None

    before = state()
    log = tmp_path / "engine.log"
    q = shlex.quote
    script = f"""
{q(sys.executable)} -m xboard_engine play 8piece --log {q(str(log))} -- -popupExitMessage false & pid=$!
for i in $(seq 60); do grep -q '> setup' {q(str(log))} 2>/dev/null && break; sleep 0.5; done
sleep 2
{q(XDOTOOL or "xdotool")} mousemove 200 300 click 1
sleep 0.5
{q(XDOTOOL or "xdotool")} key ctrl+q
wait $pid
"""
    env = dict(os.environ, HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script], 120,
                       f"XBoard did not quit (files in {tmp_path})", cwd=tmp_path, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    text = log.read_text()
    assert "< variant 8piece" in text and "> setup (PNBRQCDEFGHMOSJK" in text and "< accepted highlight" in text
    assert state() == before, f"XBoard rewrote {settings}"


@pytest.mark.parametrize("variant", ["8piece", "chess80"])
def test_engine_list_line_starts_the_variant_in_xboard(variant, tmp_path):
    """`xboard-engine play VARIANT --engine-line` prints a line for XBoard's engine list; registered
    there (-firstChessProgramNames, as Engine > Edit Engine List stores it), XBoard lists it as
    "xboard-engine (VARIANT)" and `-fe` with that name starts the engine in the variant with the
    options of the line."""
    log = tmp_path / "engine.log"
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    line = subprocess.run([sys.executable, "-m", "xboard_engine", "play", variant, "--engine-line", "--log",
                           str(log)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60).stdout.strip()
    assert line.startswith('"xboard-engine" -fcp ') and f"-variant {variant} " in line
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "settings").write_text("")
    xboard = [XBOARD, "-firstChessProgramNames", "{" + line + "\n}", "-fe", f"xboard-engine ({variant})",
              "-saveSettingsOnExit", "false", "-settingsFile", str(tmp_path / "settings"),
              "-popupExitMessage", "false"]
    q = shlex.quote
    script = f"""
{shlex.join(xboard)} & pid=$!
for i in $(seq 60); do grep -q '> pong' {q(str(log))} 2>/dev/null && break; sleep 0.5; done
kill $pid
"""
    run_session([XVFB_RUN, "-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script], 120,
                f"XBoard did not start (files in {tmp_path})", cwd=ROOT, env=dict(env, HOME=str(home)),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = log.read_text()
    assert f"< variant {variant}" in text and "> setup (" in text, f"files in {tmp_path}"
    assert ("< option Avoid_moves_XBoard_4.9.1_misdraws=1" in text) == (variant == "8piece")
