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
said), read back as nothing: the moves alone replay the game.  Reading checks what the record states
against the replay: each line's set number (where given), and the ``Scores``, ``Result`` and
``Termination`` tags; the ``Seed`` tag is a whole number (a Zombie King's moves come from it).
"""
import re
from typing import TYPE_CHECKING, Dict, Optional, Tuple, Type

from ..core.errors import IllegalMoveError, RulesError

if TYPE_CHECKING:
    from .game import Game

_LEAVE_WORDS = {"resigns": "resign", "runs out of time": "timeout", "times out": "timeout", "claims": "claim"}
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')


def _result_tags(game: "Game") -> Dict[str, str]:
    """The tags that follow from the play: Scores, Result and (at the end) Termination."""
    v = game.v
    tags = {"Scores": ", ".join(f"{v.seats[s].colour} {game.scores[s]}" for s in range(v.players))}
    if game.result:
        tags["Result"] = ", ".join(v.seats[s].colour for s in game.result.winners) or "draw"
        tags["Termination"] = game.result.reason
    else:
        tags["Result"] = "*"
    return tags


def next_set_number(set_number: int, last: int, seat: int, kind: str) -> Tuple[int, int]:
    """The set number of an action and the seat of the last move after it, from those before it (a
    new set starts with a move by a seat at or before the last seat that moved)."""
    if kind == "move":
        if last >= 0 and seat <= last:
            set_number += 1
        last = seat
    return set_number, last


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
    tags.extend(_result_tags(game).items())
    lines = [f'[{k} "{val}"]' for k, val in tags] + [""]
    notes: Dict[int, list] = {}
    for index, words in game.log:
        notes.setdefault(index, []).append(words)
    for words in notes.get(0, []):
        lines.append("{" + words + "}")
    set_number = 1
    last = -1
    for i, (seat, kind, text) in enumerate(game.actions):
        set_number, last = next_set_number(set_number, last, seat, kind)
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
        if seed is not None and not re.fullmatch(r"-?[0-9]+", seed.strip()):
            raise RulesError(f"the Seed tag is a whole number, not {seed!r} (a Zombie King's moves come from it)")
        game = cls(tags.get("Mode", "singles"), options, tags.get("Start"),
                   int(seed) if seed is not None else None)
    except RulesError as error:
        raise RulesError(f"record tags: {error}") from None
    v = game.v
    set_number, last = 1, -1
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
            set_number, last = next_set_number(set_number, last, seat,
                                               "move" if rest not in _LEAVE_WORDS else _LEAVE_WORDS[rest])
            if start and int(parts[0].rstrip(".")) != set_number:
                raise IllegalMoveError(f"set {parts[0].rstrip('.')} given, but this is set {set_number}")
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
    replayed = _result_tags(game)
    for name in ("Scores", "Result", "Termination"):
        value = replayed.get(name)
        if name in tags and tags[name] != value:
            raise RulesError(f"record tags: the {name} tag says {tags[name]!r}, but "
                             + (f"the moves give {value!r}" if value is not None else "the game is not over"))
    return game
