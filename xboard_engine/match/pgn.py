"""PGN: writing game records game by game, and reading games back (resume, openings, tests)."""
import os
import re
from typing import Dict, Iterator, List, NamedTuple, Optional, TextIO

from ..core.errors import IllegalMoveError, InvalidFenError, RulesError
from ..core.position import Position
from ..core.variant import variant_name
from .referee import GameRecord

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\$\d+|\(|\)|\d+\.(?:\.\.)?|[^\s{}();]+")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def game_to_pgn(game: GameRecord, site: str = "?") -> str:
    """One game as PGN text (tags, SAN per R11.1, the reason as a final comment)."""
    tags = [("Event", game.event), ("Site", site), ("Date", game.date or "????.??.??"),
            ("Round", game.round), ("White", game.white), ("Black", game.black), ("Result", game.result)]
    if game.variant != "normal":
        tags.append(("Variant", game.variant))
    if game.start_fen:
        tags += [("FEN", game.start_fen), ("SetUp", "1")]
    if game.time_control_black:
        tags += [("WhiteTimeControl", game.time_control), ("BlackTimeControl", game.time_control_black)]
    tags += [("TimeControl", game.time_control if not game.time_control_black else "?"),
             ("PlyCount", str(len(game.sans))),
             ("Termination", game.termination)]
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in tags)
    black_first = bool(game.start_fen) and game.start_fen.split()[1] == "b"
    number = int(game.start_fen.split()[5]) if game.start_fen and len(game.start_fen.split()) > 5 else 1
    words: List[str] = []
    for i, san in enumerate(game.sans):
        white_move = (i % 2 == 0) != black_first
        if white_move:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(san)
        if not white_move:
            number += 1
    if game.reason:
        words.append("{" + game.reason.replace("}", ")") + "}")
    words.append(game.result)
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return head + "\n" + "\n".join(lines) + "\n\n"


def append_game(path: str, game: GameRecord) -> None:
    """Append one game and flush it to disk, so a killed run loses nothing already played."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(game_to_pgn(game))
        handle.flush()
        os.fsync(handle.fileno())


class PgnGame(NamedTuple):
    tags: Dict[str, str]
    moves: List[str]          # SAN tokens as written
    result: str
    comments: List[str] = []  # the comment after each move ("" if none), as many as moves


def read_games(handle: TextIO) -> Iterator[PgnGame]:
    """The games of a PGN file (tags, main-line SAN tokens, result); a truncated last game is skipped."""
    tags: Dict[str, str] = {}
    text: List[str] = []
    for raw in handle:
        line = raw.strip()
        m = _TAG.match(line)
        if m:
            if text:
                game = _finish(tags, text)
                if game:
                    yield game
                tags, text = {}, []
            tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        elif line and not line.startswith("%"):
            text.append(line)
    if tags or text:
        game = _finish(tags, text)
        if game:
            yield game


def _finish(tags: Dict[str, str], text: List[str]) -> Optional[PgnGame]:
    moves: List[str] = []
    comments: List[str] = []
    depth = 0
    result = None
    for token in _TOKEN.findall(" ".join(text)):
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif not depth and token[0] == "{" and moves and not comments[-1]:
            comments[-1] = token[1:-1].strip()
        elif depth or token[0] in "{;$" or token[0].isdigit() and token.rstrip(".").isdigit():
            continue
        elif token in RESULTS:
            result = token
        else:
            moves.append(token)
            comments.append("")
    if result is None:
        return None                     # unfinished (the writer was killed mid-game)
    return PgnGame(tags, moves, result, comments)


def replay(game: PgnGame) -> Position:
    """The final position of a PGN game, every move checked; its ``move_stack`` holds the moves.
    Raises a RulesError that says what is wrong: the variant, the FEN tag, or which move (SAN, or
    coordinate text as some tools write it)."""
    variant = variant_name(game.tags.get("Variant", "normal"))
    fen = game.tags.get("FEN")
    try:
        pos = Position.from_fen(fen, variant) if fen else Position(variant)
    except RulesError as error:
        raise InvalidFenError(f"bad FEN tag: {error}") from None
    for number, san in enumerate(game.moves):
        try:
            try:
                move = pos.parse_san(san)
            except RulesError:
                move = pos.parse_text(san)
        except RulesError as error:
            raise IllegalMoveError(f"move {number // 2 + 1}{'.' if number % 2 == 0 else '...'} {san}: {error}") from None
        pos.push(move)
    return pos
