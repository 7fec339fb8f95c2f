"""One person's server (``xboard-engine web``): its owner, and the old local board's files read
into the database once.  The old board kept its games in DATA_DIR/games.pgn (finished two-player
games), current-game.json (the game in progress), 8pc-games.txt (finished 8 Player Chess records)
and 8pc-current.json (the 8 Player game in progress).  Each is read once (the database remembers
it), its games become the owner's (private: listed to nobody else), and the file is left as it was."""
import getpass
import io
import json
import os
import re
import secrets
from typing import Any, Dict, List, Optional, Tuple

from ...core.errors import RulesError
from ...match.pgn import read_games
from ...multi.game import Game
from ...time_control import parse_time_control
from ..identity.names import BadName, check_name, fold
from ..games.eight_player import HUMAN, EightGame
from ..games.tables import TwoPlayerTable
from ..games.two_player import WebGame, load_pgn
from ..rooms.room import token_hash
from ..store.records import NameTaken, Store, StoredAction, StoredSeat

OWNER = "owner_token"
OUR_ENGINE_LEVEL = "xboard-engine:strong"         # the old board ran our engine at full strength


def owner_token(store: Store) -> str:
    """The secret that makes every page of this server its owner's (made once, with a player
    named after the computer's user)."""
    token = store.meta(OWNER)
    if token is None:
        token = secrets.token_urlsafe(24)
        store.set_meta(OWNER, token)
    if store.player_by_token(token_hash(token)) is None:
        for name in (_login_name(), "Player"):
            try:
                store.add_player(token_hash(token), name, fold(name))
                break
            except NameTaken:
                continue
        else:
            store.add_player(token_hash(token), f"Player {secrets.randbelow(9000) + 1000}", secrets.token_hex(8))
    return token


def _login_name() -> str:
    try:
        return check_name(getpass.getuser().title())
    except (BadName, Exception):
        return "Player"


def import_local_files(store: Store, data_dir: str) -> List[str]:
    """Reads the old board's files not yet read; what was imported, in words."""
    owner = store.player_by_token(token_hash(owner_token(store)))
    assert owner is not None
    said = []
    for name, reader in (("games.pgn", _pgn_games), ("8pc-games.txt", _eight_records),
                         ("current-game.json", _current_two), ("8pc-current.json", _current_eight)):
        path = os.path.join(data_dir, name)
        key = f"imported:{name}"
        if not os.path.exists(path) or store.meta(key) is not None:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            count, skipped = reader(store, owner, text)
        except (OSError, ValueError) as error:
            said.append(f"could not read {path} ({error}); it is left as it was")
            continue
        store.set_meta(key, json.dumps({"games": count, "skipped": skipped}))
        if count or skipped:
            said.append(f"{count} game{'s' if count != 1 else ''} read from {path} (the file is left as it was)"
                        + (f"; {skipped} could not be read" if skipped else ""))
    return said


def _seat(number: int, name: str, owner: Dict[str, Any], engine_level: Optional[str] = None) -> StoredSeat:
    """A seat of an imported game: the owner's where a person played, else a bot with the name
    the record gives it."""
    if name.lower() in ("human", HUMAN) or engine_level is None:
        return StoredSeat(number, "player", owner["id"], None, None, owner["name"] if name.lower() == "human" else name)
    return StoredSeat(number, "bot", None, engine_level, None, name)


def _two_config(variant: str, fen: Optional[str], moves: List[str], tc: str) -> Dict[str, Any]:
    return {"variant": variant, "tc": tc, "number": None, "fen": fen, "moves": moves}


def _pgn_games(store: Store, owner: Dict[str, Any], text: str) -> Tuple[int, int]:
    count = skipped = 0
    for game in read_games(io.StringIO(text)):
        try:
            variant, fen, moves, tags = load_pgn(_pgn_text(game.tags, game.moves, game.result))
            tc = _tc(tags.get("TimeControl", "-"))
            config = _two_config(variant, fen, moves, tc)
            table = TwoPlayerTable(config, [HUMAN, HUMAN], 0)
        except (ValueError, RulesError, KeyError):
            skipped += 1
            continue
        names = [tags.get("White", "Human"), tags.get("Black", "Human")]
        seats = [_seat(i, n, owner, None if n.lower() == "human" else f"{n}:") for i, n in enumerate(names)]
        actions = []
        if not table.over:
            reason = tags.get("Termination", "") if game.result != "*" else "Left unfinished on the old local board"
            actions.append(StoredAction(0, 0, "ending", f"{game.result}|{tags.get('Termination', 'normal')}|{reason}",
                                        [], 0.0))
            table.act(0, "ending", actions[0].text)
        _store(store, "two", config, seats, owner, actions, table.result())
        count += 1
    return count, skipped


def _pgn_text(tags: Dict[str, str], moves: List[str], result: str) -> str:
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return f"{head}\n{' '.join(moves)} {result}\n"


def _tc(text: str) -> str:
    try:
        parse_time_control(text)
        return text
    except ValueError:
        return "none"


def _eight_records(store: Store, owner: Dict[str, Any], text: str) -> Tuple[int, int]:
    count = skipped = 0
    for record in re.split(r"(?m)^(?=\[Game \"8 Player Chess\"\])", text):
        if not record.strip():
            continue
        try:
            game = Game.from_record(record)
        except (RulesError, ValueError):
            skipped += 1
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', record, re.M))
        names = [tags.get(seat.colour, "Human") for seat in game.v.seats]
        seats = [_seat(i, n, owner, None if n.lower() == "human" else "xboard-engine:fast") for i, n in enumerate(names)]
        config = {"mode": game.mode, "options": game.options.as_dict(), "tc": "none", "seed": game.seed,
                  "replay": game.to_dict()}
        result = game.result
        _store(store, "eight", config, seats, owner, [],
               None if result is None else {"reason": result.reason, "winners": list(result.winners),
                                            "scores": list(result.scores), "draw": result.draw})
        count += 1
    return count, skipped


def _current_two(store: Store, owner: Dict[str, Any], text: str) -> Tuple[int, int]:
    data = json.loads(text)
    try:
        game = WebGame.from_json(data)
    except (KeyError, TypeError, ValueError, RulesError):
        return 0, 1
    if game.over and data.get("pgn_written"):
        return 0, 0                                # already among games.pgn's
    if not game.moves and not game.over and not game.custom_start:
        return 0, 0                                # a new game nobody began
    seats = [_seat(i, p, owner, None if p == HUMAN else OUR_ENGINE_LEVEL if p == "xboard-engine" else f"{p}:")
             for i, p in enumerate(game.players)]
    tc = game.tc_text if game.tc.has_clock else "none"
    config = _two_config(game.variant, game.start_fen if game.custom_start else None, list(game.moves), tc)
    actions, result = [], None
    if game.over:
        ending = game.ending
        assert ending is not None
        actions.append(StoredAction(0, 0, "ending", f"{ending.result}|{ending.termination}|{ending.reason}", [], 0.0))
        result = {"result": ending.result, "termination": ending.termination, "reason": ending.reason}
    _store(store, "two", config, seats, owner, actions, result)
    return 1, 0


def _current_eight(store: Store, owner: Dict[str, Any], text: str) -> Tuple[int, int]:
    data = json.loads(text)
    try:
        game = EightGame.from_json(data)
    except (KeyError, TypeError, ValueError, IndexError, RulesError):
        return 0, 1
    if game.game.over and data.get("record_written"):
        return 0, 0
    if not game.game.actions and not game.game.to_dict().get("start"):
        return 0, 0                                # a new game nobody began
    seats = [_seat(i, "human" if p == HUMAN else p, owner, None if p == HUMAN else f"xboard-engine:{p}")
             for i, p in enumerate(game.players)]
    g = game.game
    config = {"mode": g.mode, "options": g.options.as_dict(), "tc": game.tc_text,
              "seed": g.seed, "replay": g.to_dict()}
    result = g.result
    _store(store, "eight", config, seats, owner, [],
           None if result is None else {"reason": result.reason, "winners": list(result.winners),
                                        "scores": list(result.scores), "draw": result.draw})
    return 1, 0


def _store(store: Store, kind: str, config: Dict[str, Any], seats: List[StoredSeat], owner: Dict[str, Any],
           actions: List[StoredAction], result: Optional[Dict[str, Any]]) -> None:
    status = "over" if result is not None else "playing"
    stored = store.add_game(kind, config, seats, owner["id"], False, status=status)
    for action in actions:
        store.add_action(stored.id, action)
    if result is not None:
        store.set_status(stored.id, "over", result)
