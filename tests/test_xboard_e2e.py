"""End-to-end: our engine against itself in a real XBoard (Debian's 4.9.1) under Xvfb, every variant.

For each variant XBoard plays an unattended 2-game match (`-mg 2`) between two copies of the engine,
started with `--log`. Checked afterwards:
- XBoard exits by itself; both games finish with an accepted ending (mate, stalemate, a draw rule, the
  move-count limit); nothing ends by forfeit, illegal move, time, a crash or a missing `setup`;
- both engines' logs hold the same games, which replay through the rules core to the same final FEN,
  and neither engine rejected a move or reported an error;
- for the variants XBoard can notate, the saved PGN replays through the rules core, gives the same
  moves as the logs, and a game ended by mate or a draw rule has the rules core's result.

Needs `xboard` and `xvfb-run` (Debian: `apt-get install -y xboard xvfb`; xboard lives in /usr/games).
Set XBOARD_E2E_SCREENSHOTS=DIR to also save a screenshot of the board mid-game (needs imagemagick).
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from xboard_engine import Position, RulesError

ROOT = Path(__file__).resolve().parent.parent


def _find(program: str) -> Optional[str]:
    found = shutil.which(program)
    if found:
        return found
    for folder in ("/usr/games", "/usr/local/games"):
        path = Path(folder) / program
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


XBOARD = _find("xboard")
XVFB_RUN = _find("xvfb-run")

pytestmark = [
    pytest.mark.skipif(XBOARD is None or XVFB_RUN is None,
                       reason="xboard or xvfb-run not installed (CI installs them)"),
    pytest.mark.slow,
]

# variant -> (XBoard legality testing, XBoard can notate its moves in PGN); shared/XBOARD.md
VARIANTS: Dict[str, Tuple[bool, bool]] = {
    "normal": (True, True),
    "fischerandom": (True, True),
    "chess80": (True, True),
    "fullcavalry": (False, True),
    "8piece": (False, False),
    "8piece-random": (False, False),
    "8piece-2019": (False, False),
}

TIME_CONTROL = ["-tc", "0:08", "-inc", "0.1"]   # 8 s + 0.1 s a move for each side
MAX_MOVES = 70                                  # XBoard adjudicates a draw ("long game") after this
MATCH_TIMEOUT = 300                             # seconds for the whole 2-game match

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
XBOARD_TROUBLE = re.compile(r"illegal move|forfeit|did not send setup|exited unexpectedly|"
                            r"false (draw|win|illegal)|wins on time|time forfeit", re.I)
ENGINE_TROUBLE = re.compile(r"^(Illegal move|Error|tellusererror)")


# ---------------------------------------------------------------------------------------- running
def run_match(variant: str, workdir: Path) -> Dict[str, Path]:
    legality, _ = VARIANTS[variant]
    home = workdir / "home"
    home.mkdir()
    files = {name: workdir / name for name in
             ("first.log", "second.log", "games.pgn", "xboard.debug", "settings", "xboard.out")}

    def engine(log: Path) -> str:
        return f"{sys.executable} -m xboard_engine --log {log}"

    args = [XBOARD,
            "-fcp", engine(files["first.log"]), "-fd", str(ROOT),
            "-scp", engine(files["second.log"]), "-sd", str(ROOT),
            "-variant", variant, "-mg", "2", *TIME_CONTROL,
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
    env = dict(os.environ, HOME=str(home))
    with open(files["xboard.out"], "w") as out:
        process = subprocess.Popen(command, cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            process.wait(timeout=MATCH_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            pytest.fail(f"{variant}: XBoard did not finish the match within {MATCH_TIMEOUT} s; "
                        f"see {workdir}")
    assert process.returncode == 0, f"{variant}: xboard-run exit code {process.returncode}: " + \
        files["xboard.out"].read_text(errors="replace")[-2000:]
    assert not (home / ".xboardrc").exists(), "XBoard wrote ~/.xboardrc"
    return files


# ---------------------------------------------------------------------------------------- engine logs
LOG_LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} ([<>!]) ?(.*)$")


class LogGame:
    def __init__(self) -> None:
        self.variant = "normal"
        self.setup_fen: Optional[str] = None
        self.setboard_fen: Optional[str] = None
        self.moves: List[Tuple[str, str]] = []      # ("engine" | "gui", move text)
        self.late_moves: List[str] = []             # engine moves sent after the GUI's result
        self.result: Optional[str] = None
        self.claims: List[str] = []                 # the engine's own result lines
        self.trouble: List[str] = []


def parse_engine_log(path: Path) -> List[LogGame]:
    """The games in an engine log (a game starts at `new`); games without moves are left out."""
    games: List[LogGame] = []
    game = LogGame()
    for raw in path.read_text(errors="replace").splitlines():
        m = LOG_LINE.match(raw)
        if not m:
            continue
        direction, text = m.groups()
        if direction == "!":
            game.trouble.append(raw)
            continue
        cmd, _, arg = text.partition(" ")
        if direction == "<":
            if cmd == "new":
                games.append(game)
                game = LogGame()
            elif cmd == "variant":
                game.variant = arg.strip()
            elif cmd == "setboard":
                game.setboard_fen = arg.strip()
            elif cmd == "usermove" and game.result is None:
                game.moves.append(("gui", arg.strip()))
            elif cmd == "result":
                game.result = arg.strip()
        else:
            if cmd == "setup":
                game.setup_fen = arg.split(None, 2)[2]
            elif cmd == "move":
                (game.late_moves if game.result is not None else game.moves).append(("engine", arg.strip()))
            elif cmd in ("1-0", "0-1", "1/2-1/2"):
                game.claims.append(text)
            elif ENGINE_TROUBLE.match(text):
                game.trouble.append(raw)
    games.append(game)
    return [g for g in games if g.moves or g.trouble]


def start_position(game: LogGame) -> Position:
    """Where the engine's game started: XBoard's setboard, or else the variant's start (the setup it sent).

    XBoard's FEN drops castling rights whose partner is no rook (shared/XBOARD.md); a setboard of the
    array the engine itself announced therefore starts from the announced FEN, with its full rights."""
    if game.setboard_fen:
        if game.setup_fen and game.setup_fen.split()[:2] == game.setboard_fen.split()[:2]:
            return Position.from_fen(game.setup_fen, game.variant)
        return Position.from_fen(game.setboard_fen, game.variant)
    if game.setup_fen:
        return Position.from_fen(game.setup_fen, game.variant)
    return Position(game.variant)


def replay_log_game(game: LogGame, where: str) -> Tuple[Position, List[str]]:
    """Replay a logged game; returns the final position and the moves as canonical coordinate text."""
    pos = start_position(game)
    canonical = []
    for n, (who, text) in enumerate(game.moves):
        try:
            move = pos.parse_move(text)
        except RulesError as error:
            pytest.fail(f"{where}: ply {n + 1} ({who} move {text!r}) does not replay from "
                        f"{pos.fen()}: {error}")
        canonical.append(pos.move_text(move))
        pos.push(move)
    return pos, canonical


# ---------------------------------------------------------------------------------------- PGN
def parse_pgn(text: str) -> List[Dict]:
    """Games as {"tags": {...}, "tokens": [move text...], "ending": last comment or None, "result"}."""
    games = []
    tags: Dict[str, str] = {}
    body: List[str] = []

    def finish() -> None:
        if tags or "".join(body).strip():
            games.append(dict(tags=dict(tags), **parse_movetext("\n".join(body))))

    for line in text.splitlines():
        m = re.match(r'^\[(\w+)\s+"(.*)"\]\s*$', line)
        if m:
            if "".join(body).strip():
                finish()
                tags.clear()
                body.clear()
            tags[m.group(1)] = m.group(2)
        else:
            body.append(line)
    finish()
    return games


def parse_movetext(text: str) -> Dict:
    tokens: List[str] = []
    ending = None
    result = None
    i = 0
    last_comment = None
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            j = text.index("}", i)
            if depth == 0:
                last_comment = " ".join(text[i + 1:j].split())
            i = j + 1
            continue
        if c == ";":
            j = text.find("\n", i)
            i = len(text) if j < 0 else j
            continue
        if c == "(":
            depth += 1
            i += 1
            continue
        if c == ")":
            depth -= 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        j = i
        while j < len(text) and not text[j].isspace() and text[j] not in "{}();":
            j += 1
        token = text[i:j]
        i = j
        if depth:
            continue
        if token in ("1-0", "0-1", "1/2-1/2", "*"):
            result = token
            ending = last_comment
            break
        token = re.sub(r"^\d+\.+", "", token)
        if not token or token.startswith("$"):
            continue
        tokens.append(token)
        last_comment = None
    return {"tokens": tokens, "ending": ending, "result": result}


def xboard_san_move(pos: Position, token: str):
    """The legal move XBoard's SAN `token` names (XBoard writes a unit by its FEN letter, e.g. a lancer
    facing north `C`, and a lancer turn or promotion as `=LETTER`)."""
    try:
        return pos.parse_san(token)
    except RulesError:
        pass
    san = token.rstrip("+#!?")
    m = re.match(r"^([A-Z]?)([a-z]?)(\d*)(x?)([a-z]\d+)(?:=?([A-Za-z]))?$", san)
    if not m:
        raise RulesError(f"cannot read XBoard SAN {token!r}")
    letter, from_file, from_rank, capture, to, promo = m.groups()
    candidates = []
    for move in pos.legal_moves():
        text = pos.move_text(move)
        mm = re.match(r"^([a-z])(\d+)([a-z]\d+)([a-z]?)$", text)
        if not mm:
            continue
        f, r, dest, suffix = mm.groups()
        unit = pos.piece_at(f + r) or ""
        if (letter or "P") != unit.upper() or dest != to:
            continue
        if (from_file and from_file != f) or (from_rank and from_rank != r):
            continue
        if bool(capture) != (pos.piece_at(dest) is not None) and letter:
            continue
        if (promo or "").lower() != suffix:
            continue
        candidates.append(move)
    if len(candidates) != 1:
        raise RulesError(f"XBoard SAN {token!r} names {len(candidates)} legal moves in {pos.fen()}")
    return candidates[0]


def replay_pgn_game(game: Dict, variant: str, where: str) -> Tuple[Position, List[str]]:
    fen = game["tags"].get("FEN")
    pos = Position.from_fen(fen, variant) if fen else Position(variant)
    canonical = []
    for n, token in enumerate(game["tokens"]):
        try:
            move = xboard_san_move(pos, token)
        except RulesError as error:
            pytest.fail(f"{where}: PGN move {n // 2 + 1}{'.' if n % 2 == 0 else '...'} {token!r} does not "
                        f"replay from {pos.fen()}: {error}")
        canonical.append(pos.move_text(move))
        pos.push(move)
    return pos, canonical


# ---------------------------------------------------------------------------------------- the test
def same_moves(a: List[str], b: List[str]) -> bool:
    """Equal, but for one move the engine sent as XBoard was ending the game (XBoard ignores it)."""
    short, long_ = sorted((a, b), key=len)
    return long_[:len(short)] == short and len(long_) - len(short) <= 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_engine_match_in_xboard(variant, tmp_path):
    legality, notated = VARIANTS[variant]
    files = run_match(variant, tmp_path)
    where = f"{variant} ({tmp_path})"

    debug = files["xboard.debug"].read_text(errors="replace") if files["xboard.debug"].exists() else ""
    trouble = [line for line in debug.splitlines() if XBOARD_TROUBLE.search(line)]
    assert not trouble, f"{where}: XBoard debug file reports trouble:\n" + "\n".join(trouble[:20])

    # The PGN: two finished games with accepted endings.
    assert files["games.pgn"].exists(), f"{where}: no PGN saved"
    pgn = parse_pgn(files["games.pgn"].read_text(errors="replace"))
    assert len(pgn) == 2, f"{where}: {len(pgn)} games in the PGN"
    for k, game in enumerate(pgn, 1):
        assert game["result"] in ("1-0", "0-1", "1/2-1/2"), f"{where}: game {k} result {game['result']}"
        assert game["tags"].get("Result") == game["result"], f"{where}: game {k} Result tag"
        ending = game["ending"] or ""
        assert ACCEPTED_ENDINGS.match(ending), f"{where}: game {k} ended by {ending!r} ({game['result']})"
        if ending == "Xboard adjudication: long game":
            assert game["result"] == "1/2-1/2"

    # Both engines' logs: no complaints, the same games, replaying to the same positions.
    logs = [parse_engine_log(files[name]) for name in ("first.log", "second.log")]
    for name, games in zip(("first.log", "second.log"), logs):
        problems = [line for g in games for line in g.trouble]
        assert not problems, f"{where}: {name} shows engine problems:\n" + "\n".join(problems[:20])
        assert len(games) == 2, f"{where}: {name} holds {len(games)} games"
    log_moves, log_finals = [], []
    for k in range(2):
        replays = [replay_log_game(games[k], f"{where} {name} game {k + 1}")
                   for name, games in zip(("first.log", "second.log"), logs)]
        (pos1, moves1), (pos2, moves2) = replays
        assert same_moves(moves1, moves2), \
            f"{where}: game {k + 1}: the engines' move lists differ:\n{moves1}\n{moves2}"
        if len(moves1) == len(moves2):
            assert pos1.fen() == pos2.fen(), f"{where}: game {k + 1}: final FENs differ"
        final = pos1 if len(moves1) <= len(moves2) else pos2
        log_moves.append(min(moves1, moves2, key=len))
        log_finals.append(final)
        outcome = final.outcome()
        for name, games in zip(("first.log", "second.log"), logs):
            for claim in games[k].claims:
                assert outcome is not None and claim.split()[0] == outcome.result, \
                    f"{where}: game {k + 1}: {name} claims {claim!r}, rules core: {outcome}"

    for k, game in enumerate(pgn):
        if notated:
            pos, moves = replay_pgn_game(game, variant, f"{where} PGN game {k + 1}")
            assert same_moves(moves, log_moves[k]) and len(moves) >= len(log_moves[k]) - 1, \
                f"{where}: game {k + 1}: PGN moves differ from the engine logs:\n{moves}\n{log_moves[k]}"
            outcome = pos.outcome()
            expected = RULE_ENDINGS.get(game["ending"])
            if expected:
                assert outcome is not None and outcome.termination == expected, \
                    f"{where}: game {k + 1} ended by {game['ending']!r} but the rules core says {outcome}"
            if outcome is not None:
                assert game["result"] == outcome.result, \
                    f"{where}: game {k + 1}: PGN {game['result']}, rules core {outcome}"
        else:
            assert len(game["tokens"]) >= len(log_moves[k]) - 1, f"{where}: game {k + 1}: PGN too short"
            pos = log_finals[k]
            outcome = pos.outcome()
            expected = RULE_ENDINGS.get(game["ending"])
            if expected:
                assert outcome is not None and outcome.termination == expected, \
                    f"{where}: game {k + 1} ended by {game['ending']!r} but the rules core says {outcome}"
            if outcome is not None:
                assert game["result"] == outcome.result, \
                    f"{where}: game {k + 1}: PGN {game['result']}, rules core {outcome}"
