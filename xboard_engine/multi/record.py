"""Game records of 8 Player Chess: tag lines, then the moves as the text writes them (E6).

::

    [Game "8 Player Chess"]
    [Mode "singles"]
    [Seed "1234"]
    [Result "White 57, Red 12, ..."]

    1 w. h3
    1 r. c7
    ...
    9 y. resigns
    {Yellow resigns, +25 to White}

Players may be named by colour letter or Roman numeral; ``{...}`` are comments (what the referee
said), read back as nothing: the moves alone replay the game.
"""
import re
from typing import TYPE_CHECKING, Dict, Optional, Type

from ..errors import IllegalMoveError, RulesError

if TYPE_CHECKING:
    from .game import Game

_LEAVE_WORDS = {"resigns": "resign", "runs out of time": "timeout", "times out": "timeout", "claims": "claim"}
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')


def write_record(game: "Game", numerals: bool = False, players: Optional[Dict[int, str]] = None) -> str:
    v = game.v
    tags = [("Game", "8 Player Chess"), ("Mode", game.mode)]
    opts = game.options.as_dict()
    if opts:
        tags.append(("Options", "; ".join(k if v_ is True else f"{k}={v_}" for k, v_ in opts.items())))
    tags.append(("Seed", str(game.seed)))
    start = game.to_dict()["start"]
    if start:
        tags.append(("Start", start))
    for s, name in sorted((players or {}).items()):
        tags.append((v.seats[s].colour, name))
    tags.append(("Scores", ", ".join(f"{v.seats[s].colour} {game.scores[s]}" for s in range(v.players))))
    if game.result:
        tags.append(("Result", ", ".join(v.seats[s].colour for s in game.result.winners) or "draw"))
        tags.append(("Termination", game.result.reason))
    else:
        tags.append(("Result", "*"))
    lines = [f'[{k} "{val}"]' for k, val in tags] + [""]
    notes: Dict[int, list] = {}
    for index, words in game.log:
        notes.setdefault(index, []).append(words)
    for words in notes.get(0, []):
        lines.append("{" + words + "}")
    set_number = 1
    last = -1
    for i, (seat, kind, text) in enumerate(game.actions):
        if kind == "move" and last >= 0 and seat <= last:
            set_number += 1
        if kind == "move":
            last = seat
        who = v.seats[seat].numeral if numerals else v.seats[seat].letter
        lines.append(f"{set_number} {who}. {text}")
        for words in notes.get(i + 1, []):
            lines.append("{" + words + "}")
    return "\n".join(lines) + "\n"


def read_record(cls: "Type[Game]", text: str) -> "Game":
    if not isinstance(text, str):
        raise RulesError("a record is text")
    tags: Dict[str, str] = {}
    actions = []
    body = re.sub(r"\{[^}]*\}", "", text)
    for number, raw in enumerate(body.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        m = _TAG.match(line)
        if m:
            tags[m.group(1)] = m.group(2)
            continue
        actions.append((number, line))
    options = {}
    for item in filter(None, (x.strip() for x in tags.get("Options", "").split(";"))):
        key, _, value = item.partition("=")
        options[key.strip()] = value.strip() if value else True
    seed = tags.get("Seed")
    try:
        game = cls(tags.get("Mode", "singles"), options, tags.get("Start"),
                   int(seed) if seed and seed.isdigit() else None)
    except RulesError as error:
        raise RulesError(f"record tags: {error}") from None
    v = game.v
    for number, line in actions:
        parts = line.split()
        try:
            if len(parts) < 2:
                raise IllegalMoveError(f"cannot read {line!r} (e.g. 1 w. h3)")
            start = 1 if parts[0].rstrip(".").isdigit() else 0
            seat = v.seat_by_text(parts[start])
            if seat is None:
                raise IllegalMoveError(f"{parts[start]!r} names no player")
            rest = " ".join(parts[start + 1:])
            if rest not in _LEAVE_WORDS and game.status(seat) == "zombie":
                continue                    # a Zombie King's moves are the game's own (its seed)
            if game.over:
                raise IllegalMoveError("the game is already over")
            if rest in _LEAVE_WORDS:
                game.replay([(seat, _LEAVE_WORDS[rest], rest)])
            else:
                game.replay([(seat, "move", rest)])
        except RulesError as error:
            raise RulesError(f"record line {number} ({line!r}): {error}") from None
    return game
