"""What the XBoard end-to-end tests share: finding XBoard, running a session under Xvfb, reading
the engines' logs and XBoard's PGN, a model of what XBoard 4.9.1 draws, and comparing screenshot
squares with pictures."""
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

from xboard_engine import Position, RulesError

from needs import find_program      # the one lookup: PATH, then /usr/games and /usr/sbin

BOARD_FILES = "abcdefghijklmnop"
ENGINE_TROUBLE = re.compile(r"^(Illegal move|Error|tellusererror)")


XBOARD = find_program("xboard")
XVFB_RUN = find_program("xvfb-run")


def home_env(home) -> Dict[str, str]:
    """The environment of an XBoard (and the engine it starts) whose HOME is ``home``: its files and the
    engine's cache and data folders all under it, whatever XDG folders the tests themselves were given."""
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME")}
    env["HOME"] = str(home)
    return env


def run_session(command: List[str], timeout: float, failure: str, **kwargs) -> subprocess.CompletedProcess:
    """Run an XBoard session (xvfb-run and everything it starts) in its own process group; on
    timeout kill the whole group, so no XBoard, Xvfb or engine outlives the test, and fail."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs)
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        pytest.fail(failure)
    return subprocess.CompletedProcess(command, process.returncode, out)


# ---------------------------------------------------------------------------------------- engine logs
LOG_LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} ([<>!]) ?(.*)$")


class LogGame:
    def __init__(self) -> None:
        self.variant = "normal"
        self.setup_fen: Optional[str] = None
        self.setboard_fen: Optional[str] = None
        self.moves: List[Tuple[str, str]] = []      # ("engine" | "gui", move text)
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
                game.moves.append(("engine", arg.strip()))     # may be logged after a `result`
            elif cmd in ("1-0", "0-1", "1/2-1/2"):
                game.claims.append(text)
            elif ENGINE_TROUBLE.match(text):
                game.trouble.append(raw)
    games.append(game)
    return [g for g in games if g.moves or g.trouble]


def start_position(game: LogGame, announced: Sequence[Optional[str]] = ()) -> Position:
    """Where the engine's game started: XBoard's setboard, or else the variant's start (the setup it sent).

    XBoard's FEN drops castling rights whose partner is no rook (seen in XBoard 4.9.1); a setboard of an
    array an engine announced in its `setup` therefore starts from the announced FEN, with full rights."""
    if game.setboard_fen:
        for fen in (game.setup_fen, *announced):
            if fen and fen.split()[:2] == game.setboard_fen.split()[:2]:
                return Position.from_fen(fen, game.variant)
        return Position.from_fen(game.setboard_fen, game.variant)
    if game.setup_fen:
        return Position.from_fen(game.setup_fen, game.variant)
    return Position(game.variant)


def replay_log_game(game: LogGame, where: str, announced: Sequence[Optional[str]] = ()
                    ) -> Tuple[Position, List[str]]:
    """Replay a logged game; returns the final position and the moves as canonical coordinate text."""
    pos = start_position(game, announced)
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


def xboard_san_moves(pos: Position, token: str) -> List:
    """The legal moves XBoard's SAN `token` can name. XBoard writes a unit by its FEN letter (a lancer
    facing north is `C`) and a lancer turn or promotion as `=LETTER`, but leaves out some turns (seen:
    Black's west-facing lancer `m`); a lancer move without a suffix therefore also names its turns."""
    try:
        return [pos.parse_san(token)]
    except RulesError:
        pass
    san = token.rstrip("+#!?")
    if re.fullmatch(r"O-O(-O)?(x[a-p]\d+)?", san):
        # XBoard's O-O/O-O-O in Chess80 does not say which flexible castle (seen: O-O for Black's
        # e8b8, O-O-Oxa8 for e8a8,a8a8, the king onto its rook); any castle it can name, the logs
        # settle which.
        return [move for move in pos.legal_moves() if pos.is_castle(move)]
    m = re.match(r"^([A-Z]?)([a-p]?)(\d*)(x?)([a-p]\d+)(?:=?([A-Za-z]))?$", san)
    if not m:
        raise RulesError(f"cannot read XBoard SAN {token!r}")
    letter, from_file, from_rank, capture, to, promo = m.groups()
    exact, loose = [], []
    for move in pos.legal_moves():
        mm = re.match(r"^([a-p])(\d+)([a-p]\d+)([a-z]?)$", pos.move_text(move))
        if not mm:
            continue
        f, r, dest, suffix = mm.groups()
        unit = (pos.piece_at(f + r) or "").upper()
        if (letter or "P") != unit or dest != to:
            continue
        if (from_file and from_file != f) or (from_rank and from_rank != r):
            continue
        if letter and bool(capture) != (pos.piece_at(dest) is not None):
            continue
        if (promo or "").lower() == suffix:
            exact.append(move)
        elif not promo and letter:
            loose.append(move)
    return exact + loose


def replay_pgn_game(game: Dict, variant: str, start: Position, log_moves: List[str], where: str,
                    notes: List[str]) -> Tuple[Position, List[str]]:
    """Replay a PGN game, reading each move as the one the engines' logs have when the SAN names it."""
    fen = game["tags"].get("FEN")
    if fen is None:
        pos = Position(variant)
    elif fen.split()[:2] == start.fen().split()[:2]:
        pos = start.copy()      # same array; XBoard's FEN drops castling rights of non-rook partners
    else:
        pos = Position.from_fen(fen, variant)
    canonical = []
    for n, token in enumerate(game["tokens"]):
        label = f"{n // 2 + 1}{'.' if n % 2 == 0 else '...'} {token}"
        try:
            moves = xboard_san_moves(pos, token)
        except RulesError as error:
            pytest.fail(f"{where}: PGN move {label} does not replay from {pos.fen()}: {error}")
        texts = [pos.move_text(m) for m in moves]
        if not texts:
            pytest.fail(f"{where}: PGN move {label} names no legal move in {pos.fen()}")
        hint = log_moves[n] if n < len(log_moves) else None
        if hint in texts:
            if texts[0] != hint:
                notes.append(f"{where}: XBoard wrote {label} for {hint}")
            text = hint
        elif len(texts) == 1:
            text = texts[0]
        else:
            pytest.fail(f"{where}: PGN move {label} is ambiguous in {pos.fen()}: {texts}")
        canonical.append(text)
        pos.push(pos.parse_move(text))
    return pos, canonical


# ---------------------------------------------------------------------------------------- XBoard's board
def pieces(pos: Position) -> Dict[str, str]:
    """The FEN letter of the unit on each occupied square."""
    v = pos.variant
    squares = (f + str(r) for f in BOARD_FILES[:v.files] for r in range(1, v.ranks + 1))
    return {sq: p for sq in squares for p in [pos.piece_at(sq)] if p}


def colours(pos: Position) -> Dict[str, str]:
    """The colour ('w'/'b') of the unit on each occupied square."""
    return {sq: ("w" if p.isupper() else "b") for sq, p in pieces(pos).items()}


def xboard_pieces(start: Position, moves: List[str]) -> Tuple[Dict[str, str], Position]:
    """What XBoard 4.9.1 shows after ``moves`` (the engines' canonical texts) as square -> FEN letter,
    and the true position. Modelled on its ApplyMove for a variant without legality testing, which
    draws some legal moves wrong:
    - a two-leg move ``c1h5,h5h6`` (sentry c1-h6 pushing the unit on h6 to h5) as the sentry capturing on
      h5 and landing on h6 (the second leg's destination; the first leg's is XBoard's kill square);
    - a king taking its own partner (``b8a8``, the Chess960-style castle) as a castle only when the
      partner is a rook; with a jailer or lancer, as the king capturing it;
    - a 2019 edge capture ``d3a6`` (the sentry leaves the board with its victim) as a plain capture.
    A letter after a move (promotion, a lancer's new facing) is the unit XBoard shows on arrival."""
    pos = start.copy()
    files, ranks = pos.variant.files, pos.variant.ranks
    shown = pieces(pos)
    double_step: Optional[int] = None         # the file of the double step XBoard drew last
    for text in moves:
        squares = re.findall(r"[a-p]\d+", text)
        mover = (pos.piece_at(squares[0]) or "?").upper() if squares else ""
        partner = (pos.piece_at(squares[-1]) or "").upper() if squares else ""
        pos.push_text(text)
        if not squares:
            double_step = None                  # the pass
            continue
        if squares[0] not in shown:
            continue                            # a unit XBoard has lost already: it refuses the move
        if len(squares) == 4:
            shown.pop(squares[1], None)         # XBoard's kill square, taken off first
        unit = shown.pop(squares[0], None)
        if unit is None:                        # the kill square was the origin (a push onto the
            shown.pop(squares[-1], None)        # sentry's square): XBoard moves the empty square
            continue
        white = unit.isupper()
        previous_double, double_step = double_step, None
        if unit.upper() == "P" and (int(squares[-1][1:]) - int(squares[0][1:])) * (1 if white else -1) >= 2:
            double_step = BOARD_FILES.index(squares[0][0])
        suffix = re.search(r"\d([a-z])$", text)
        if suffix:
            unit = suffix.group(1).upper() if white else suffix.group(1)
        origin, target = squares[0], squares[-1]
        ox, tx, rank = BOARD_FILES.index(origin[0]), BOARD_FILES.index(target[0]), origin[1:]
        one_leg = len(squares) == 2
        if one_leg and mover == "K" and target[1:] == rank and target in shown and shown[target].isupper() == white \
                and partner == "R":
            rook = shown.pop(target)            # king takes own rook: Chess960 castle
            left = tx < ox
            target = BOARD_FILES[2 if left else files - 2] + rank
            shown[BOARD_FILES[3 if left else files - 3] + rank] = rook
        elif one_leg and mover == "K" and target[1:] == rank and abs(tx - ox) >= 2 and 0 < ox < files - 1:
            step = 1 if tx > ox else -1         # a king's long step castles with the nearest unit
            x = ox + step
            while 0 < x < files - 1 and BOARD_FILES[x] + rank not in shown:
                x += step
            if BOARD_FILES[x] + rank in shown:  # XBoard puts it beside the king, then empties
                shown[BOARD_FILES[tx - step] + rank] = shown[BOARD_FILES[x] + rank]   # its square
                del shown[BOARD_FILES[x] + rank]
        elif one_leg and unit.upper() == "P" and ox != tx and target not in shown \
                and (int(rank) > ranks // 2 if white else int(rank) <= ranks // 2) \
                and (previous_double == tx or abs(tx - ox) > 4):
            shown.pop(target[0] + rank, None)   # en passant (after a double step to that file)
        shown[target] = unit
    return shown, pos


def xboard_board(start: Position, moves: List[str]) -> Tuple[Dict[str, str], Position]:
    """``xboard_pieces`` as square -> colour ('w'/'b')."""
    shown, pos = xboard_pieces(start, moves)
    return {sq: ("w" if p.isupper() else "b") for sq, p in shown.items()}, pos


def xboard_lost_the_unit(start: Position, moves: List[str]) -> bool:
    """XBoard's board differs from the true one on the square the last move starts from or (a push)
    first lands on: XBoard lost that unit through an earlier move it drew wrong."""
    shown, pos = xboard_board(start, moves[:-1])
    truth = colours(pos)
    squares = re.findall(r"[a-p]\d+", moves[-1])
    return any(shown.get(sq) != truth.get(sq) for sq in squares[:2 if "," in moves[-1] else 1])


def xboard_shows(text: str) -> str:
    """A move as XBoard names it in messages: a two-leg move ``b7b6,b6d5`` as ``b7d5``."""
    if "," not in text:
        return text
    squares = re.findall(r"[a-z]\d+", text)
    return squares[0] + squares[-1]


def same_moves(a: List[str], b: List[str]) -> bool:
    """Equal, but for one move the engine sent as XBoard was ending the game (XBoard ignores it)."""
    short, long_ = sorted((a, b), key=len)
    return long_[:len(short)] == short and len(long_) - len(short) <= 1


# ------------------------------------------------------------------------- piece pictures
def imagemagick(program: str) -> Optional[str]:
    """ImageMagick's own program (Debian's /usr/bin first: a machine may shadow it in PATH)."""
    path = Path("/usr/bin") / program
    return str(path) if path.is_file() else shutil.which(program)


IMPORT = imagemagick("import")
CONVERT = imagemagick("convert")
RSVG_CONVERT = find_program("rsvg-convert")          # librsvg, which XBoard draws pictures with
LIGHT_SQUARE, DARK_SQUARE = (0xd2, 0xe6, 0xc8), (0x6e, 0x96, 0x60)   # flat colours found nowhere else
GRID = 12                                                             # cells per square side compared


def ppm(data: bytes) -> Tuple[int, int, bytes]:
    """Width, height and RGB bytes of an 8-bit binary PPM."""
    magic, width, height, _, pixels = data.split(maxsplit=4)
    assert magic == b"P6"
    return int(width), int(height), pixels


def cells(image: Tuple[int, int, bytes], left: int, top: int, size: int) -> List[float]:
    """Mean brightness of each of GRID x GRID cells of the square at (left, top)."""
    width, _, pixels = image
    cells = []
    for gy in range(GRID):
        for gx in range(GRID):
            total = count = 0
            for y in range(top + gy * size // GRID, top + (gy + 1) * size // GRID):
                row = y * width * 3
                for x in range(left + gx * size // GRID, left + (gx + 1) * size // GRID):
                    i = row + x * 3
                    total += pixels[i] + pixels[i + 1] + pixels[i + 2]
                    count += 3
            cells.append(total / count)
    return cells


def flat_board_arguments(workdir: Path) -> List[str]:
    """XBoard arguments for screenshots and clicks: flat square colours (found in screenshots), 72-pixel
    squares, no coordinates, arrows or move highlights over the squares, no settings saved, a debug
    file in ``workdir``."""
    return ["-liteBackTextureFile", "", "-darkBackTextureFile", "",
            "-lightSquareColor", "#%02x%02x%02x" % LIGHT_SQUARE, "-darkSquareColor", "#%02x%02x%02x" % DARK_SQUARE,
            "-size", "72", "-showCoords", "false", "-highlightLastMove", "false",
            "-highlightMoveWithArrow", "false", "-saveSettingsOnExit", "false",
            "-settingsFile", str(workdir / "settings"), "-popupExitMessage", "false",
            "-debug", "-nameOfDebugFile", str(workdir / "xboard.debug")]


WHITE_PIECE_COLOR, BLACK_PIECE_COLOR = (0xff, 0xff, 0xcc), (0x20, 0x20, 0x20)   # XBoard's defaults


def rendered(svg: str, size: int, background: Tuple[int, int, int], tmp: Path, white: bool = True
             ) -> List[float]:
    """The cells of a piece picture as XBoard 4.9.1 draws it on a square of ``background``: drawn by
    librsvg, as XBoard draws it (ImageMagick's own SVG renderer draws XBoard's king with broad light
    bands), then recoloured as its draw.c does without -trueColors: the amount of black in a black
    piece becomes -blackPieceColor and its light details pure white; a white piece's light parts
    become -whitePieceColor."""
    source = tmp / "picture.svg"
    source.write_text(svg)
    png = subprocess.run([RSVG_CONVERT, "-w", str(size), "-h", str(size), str(source)], capture_output=True,
                         check=True).stdout
    out = subprocess.run([CONVERT, "png:-", "-depth", "8", "pam:-"],
                         input=png, capture_output=True, check=True).stdout
    header, _, data = out.partition(b"ENDHDR\n")
    fields = dict(line.split(None, 1) for line in header.decode().splitlines()[1:])
    width, height = int(fields["WIDTH"]), int(fields["HEIGHT"])
    assert fields["DEPTH"].strip() == "4", fields
    pixels = bytearray()
    colour = BLACK_PIECE_COLOR if not white else WHITE_PIECE_COLOR
    for i in range(0, width * height * 4, 4):
        alpha = data[i + 3]
        red = data[i] * alpha // 255                    # XBoard works on premultiplied pixels
        fraction = (alpha - red if not white else red) / 255
        for channel in range(3):
            value = fraction * colour[channel] + (red if not white else 0)
            pixels.append(min(255, int(value + (255 - alpha) * background[channel] / 255)))
    return cells((width, height, bytes(pixels)), 0, 0, size)


# XBoard's own pictures of the orthodox pieces (Debian's xboard package)
XBOARD_THEME = Path("/usr/share/games/xboard/themes/default")
ORTHODOX_PICTURES = {"P": "Pawn", "N": "Knight", "B": "Bishop", "R": "Rook", "Q": "Queen", "K": "King"}


def find_board(image: Tuple[int, int, bytes], files: int, ranks: int) -> Tuple[int, int, int, int]:
    """(left, top, square size, line gap) of the board in a screenshot, from the extent of its flat
    square colours: XBoard draws ``files`` squares of the size with a gap between each two."""
    width, _, pixels = image
    found = [(i // 3 % width, i // 3 // width) for i in range(0, len(pixels), 3)
             if tuple(pixels[i:i + 3]) in (LIGHT_SQUARE, DARK_SQUARE)]
    assert found, "no board in the screenshot"
    left, right = min(x for x, _ in found), max(x for x, _ in found)
    top, bottom = min(y for _, y in found), max(y for _, y in found)
    for gap in (1, 0, 2, 3):
        square, rest = divmod(right - left + 1 - (files - 1) * gap, files)
        if not rest and bottom - top + 1 == ranks * square + (ranks - 1) * gap:
            return left, top, square, gap
    raise AssertionError(f"no square size fits the board's extent {left, top, right, bottom}")


# Mean brightness difference per cell (0-255) within which a square shows a picture: XBoard's
# squares matched their pictures within 0.1 in every screenshot of the tests, the nearest other
# candidate was 7.9 or more away.
CLOSE = 3.0


class SquarePictures:
    """Compares each square of XBoard screenshots with every picture a unit of the variant can have
    there (the engine's drawings, XBoard's own orthodox pieces, an empty square)."""

    def __init__(self, variant: str, tmp: Path) -> None:
        from xboard_engine import get_variant
        self.variant, self.tmp = variant, tmp
        v = get_variant(variant)
        self.files, self.ranks = v.files, v.ranks
        self.letters = [c for c in v.xboard_pieces if c != "."] if v.xboard_pieces else list("PNBRQKpnbrqk")
        self._cache: Dict[Tuple[str, Tuple[int, int, int], int], List[List[float]]] = {}

    def svg(self, letter: str) -> str:
        from xboard_engine import images
        name = images.picture_name(self.variant, letter)
        if name is not None:
            return images.drawing(name, letter.isupper())
        colour = "White" if letter.isupper() else "Black"
        return (XBOARD_THEME / f"{colour}{ORTHODOX_PICTURES[letter.upper()]}.svg").read_text()

    def references(self, letter: str, background: Tuple[int, int, int], size: int) -> List[List[float]]:
        """The cells of the unit's picture on the background."""
        key = (letter, background, size)
        if key not in self._cache:
            if not letter:
                self._cache[key] = [[sum(background) / 3] * (GRID * GRID)]
            else:
                self._cache[key] = [rendered(self.svg(letter), size, background, self.tmp, letter.isupper())]
        return self._cache[key]

    def distance(self, seen: List[float], letter: str, background: Tuple[int, int, int], size: int) -> float:
        return min(sum(abs(a - b) for a, b in zip(seen, reference)) / len(seen)
                   for reference in self.references(letter, background, size))

    def problems(self, image: Tuple[int, int, bytes], expected: Dict[str, str]) -> List[str]:
        """The squares whose picture is not the expected unit's (``expected``: square -> FEN letter,
        empty squares left out): another candidate is nearer, or the expected one is not close."""
        width, _, pixels = image
        left, top, size, gap = find_board(image, self.files, self.ranks)
        found = []
        for rank_from_top in range(self.ranks):
            for file in range(self.files):
                square = BOARD_FILES[file] + str(self.ranks - rank_from_top)
                x, y = left + file * (size + gap), top + rank_from_top * (size + gap)
                corner = y * width * 3 + x * 3
                background = tuple(pixels[corner:corner + 3])
                if background not in (LIGHT_SQUARE, DARK_SQUARE):
                    found.append(f"{square}: no square colour at its corner")
                    continue
                seen = cells(image, x, y, size)
                distances = sorted((self.distance(seen, c, background, size), c) for c in self.letters + [""])
                want = expected.get(square, "")
                if distances[0][1] != want or distances[0][0] > CLOSE:
                    found.append(f"{square}: expected {want or 'empty'}, nearest {distances[:3]}")
        return found
