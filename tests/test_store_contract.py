"""The web server's store (xboard_engine/web/store/records.py) as a contract: what any ``Store`` must do for the
server (hall.py, seating.py, course.py, offers.py, talk.py, lobby.py, importer.py, routes.py).

Every test but the last section takes the fixture ``store`` (or ``backend`` where it must close and
reopen the database), parametrized over ``BACKENDS``: the SQLite store in a temporary
directory, and the PostgreSQL store in a new database of a real PostgreSQL server
(tests/postgres_helpers.py).  The last sections are each database's own: SQLite's migration of a
schema-1 file, PostgreSQL's types, and the copy of a database from one to the other."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import postgres_helpers
from xboard_engine.web.identity.names import fold
from xboard_engine.web.store.records import (SLUG_LENGTH, SLUG_LETTERS, ChatLine, Entrant, NameTaken, RatingPoint,
                                             StoredAction, StoredRating, StoredSeat, StoreError)
from xboard_engine.web.store.sql import SCHEMA_VERSION, TABLES
from xboard_engine.web.store.sqlite import SqliteStore
from xboard_engine.web.store.postgres import PostgresStore

ROOT = Path(__file__).resolve().parent.parent


class SqliteBackend:
    """One SQLite file in a test's temporary directory."""

    name = "sqlite"

    def __init__(self, tmp_path):
        self.path = str(tmp_path / "live.sqlite3")

    def open(self):
        return SqliteStore(self.path, fold=fold)

    def child_opening(self):
        """Python lines that open the same store in another process as ``store``."""
        return (f"from xboard_engine.web.identity.names import fold\n"
                f"from xboard_engine.web.store.sqlite import SqliteStore\n"
                f"store = SqliteStore({self.path!r}, fold=fold)\n")


class PostgresBackend:
    """A new database of its own on the test PostgreSQL server, dropped after the test."""

    name = "postgresql"

    def __init__(self, tmp_path):
        self.url = postgres_helpers.new_database()

    def open(self):
        return PostgresStore(self.url, fold=fold)

    def child_opening(self):
        return (f"from xboard_engine.web.store.postgres import PostgresStore\n"
                f"store = PostgresStore({self.url!r})\n")

    def drop(self):
        postgres_helpers.drop_database(self.url)


BACKENDS = [SqliteBackend, PostgresBackend]


@pytest.fixture(params=BACKENDS, ids=lambda b: b.name)
def backend(request, tmp_path):
    if request.param is PostgresBackend:
        postgres_helpers.need_postgres()
    made = request.param(tmp_path)
    yield made
    if hasattr(made, "drop"):
        made.drop()


@pytest.fixture
def store(backend):
    opened = backend.open()
    yield opened
    opened.close()


CONFIG = {"variant": "normal", "mode": None, "clock": [300.0, 3.5], "options": {"ünïcode": "名前", "on": True},
          "fen": None, "nested": [[1, 2], {"x": -0.125}]}


def seats_of_two(owner=None):
    return [StoredSeat(0, "player", owner, None, None), StoredSeat(1, "open", None, None, None)]


def new_game(store, owner=None, listed=True, status="open", kind="two", config=None):
    return store.add_game(kind, dict(config or CONFIG), seats_of_two(owner), owner, listed, status=status)


def action(n, seat=0, kind="move", text="e2e4", clocks=(299.5, 300.0)):
    return StoredAction(n, seat, kind, text, list(clocks), 1700000000.25 + n)


# ====================================================================== players

def test_players_add_read_back_by_token_and_id(store):
    before = time.time()
    first = store.add_player("hash-1", "Ánna Łukasz 名前", fold("Ánna Łukasz 名前"))
    second = store.add_player("hash-2", "Bob", fold("Bob"))
    assert isinstance(first, int) and isinstance(second, int) and first != second
    assert store.player_by_token("hash-1") == {"id": first, "name": "Ánna Łukasz 名前", "account": False}
    assert store.player_by_token("hash-2") == {"id": second, "name": "Bob", "account": False}
    found = store.player(first)
    assert (found["id"], found["name"]) == (first, "Ánna Łukasz 名前")
    assert before - 1 <= found["created"] <= time.time() + 1


def test_players_unknown_token_and_id_are_none(store):
    known = store.add_player("hash-1", "Anna", "anna")
    assert store.player_by_token("no such hash") is None
    assert store.player(known + 1000) is None


def test_player_names_of_several_ids_unknown_ones_left_out(store):
    a = store.add_player("h-a", "Anna", "anna")
    b = store.add_player("h-b", "Bob", "bob")
    c = store.add_player("h-c", "Cleo", "cleo")
    assert store.player_names([a, c]) == {a: "Anna", c: "Cleo"}
    assert store.player_names([b, b + c + 1000]) == {b: "Bob"}
    assert store.player_names([]) == {}


def test_rename_and_name_owner(store):
    a = store.add_player("h-a", "Anna", "anna")
    assert store.name_owner("anna") == a
    assert store.name_owner("bob") is None
    store.rename_player(a, "Annabel", "annabel")
    assert store.player(a)["name"] == "Annabel"
    assert store.player_by_token("h-a") == {"id": a, "name": "Annabel", "account": False}
    assert store.name_owner("annabel") == a
    assert store.name_owner("anna") is None             # the old name is free again
    b = store.add_player("h-b", "Anna", "anna")
    assert store.name_owner("anna") == b


def test_a_name_key_taken_by_another_player_is_refused(store):
    a = store.add_player("h-a", "Anna", "anna")
    b = store.add_player("h-b", "Bob", "bob")
    with pytest.raises(NameTaken):
        store.add_player("h-c", "ANNA", "anna")
    with pytest.raises(NameTaken):
        store.rename_player(b, "ANNA", "anna")
    assert isinstance(NameTaken("x"), StoreError)
    assert store.player(b)["name"] == "Bob" and store.name_owner("bob") == b
    assert store.player_by_token("h-c") is None
    store.rename_player(a, "ANNA", "anna")               # one's own key: allowed
    assert store.player(a)["name"] == "ANNA"


# ====================================================================== games and seats

def test_add_game_returns_what_is_stored_and_reads_back_exactly(store):
    owner = store.add_player("h", "Anna", "anna")
    before = time.time()
    made = new_game(store, owner=owner, listed=False)
    assert made.kind == "two" and made.config == CONFIG and made.status == "open"
    assert made.creator == owner and made.listed is False and made.result is None and made.paused_clocks is None
    assert before - 1 <= made.created <= time.time() + 1
    assert len(made.slug) == SLUG_LENGTH and set(made.slug) <= set(SLUG_LETTERS)
    assert store.game(made.id) == made
    assert store.game_id(made.slug) == made.id
    assert store.seats(made.id) == seats_of_two(owner)


def test_add_game_with_another_status_kind_and_no_creator(store):
    made = store.add_game("eight", {"mode": "teams"}, [StoredSeat(s, "bot", None, "8pc:depth2", None)
                                                       for s in range(8)], None, True, status="playing")
    read = store.game(made.id)
    assert (read.kind, read.status, read.creator, read.listed, read.config) == ("eight", "playing", None, True,
                                                                               {"mode": "teams"})
    assert [s.bot for s in store.seats(made.id)] == ["8pc:depth2"] * 8


def test_seats_come_in_seat_order_with_every_field(store):
    given = [StoredSeat(3, "bot", None, "engine:level 4", None),
             StoredSeat(0, "invite", None, None, "secret-hash"),
             StoredSeat(2, "player", 7, None, None, "Anna"),
             StoredSeat(1, "open", None, None, None)]
    made = store.add_game("eight", {}, given, None, True)
    assert store.seats(made.id) == sorted(given)


def test_unknown_game_id_and_slug(store):
    made = new_game(store)
    assert store.game(made.id + 1000) is None
    assert store.game_id("nosuchslug") is None
    assert store.game_id(made.slug.swapcase()) is None       # the slug is matched exactly
    assert store.seats(made.id + 1000) == []
    assert store.actions(made.id + 1000) == []
    assert store.chat(made.id + 1000) == []


def test_slugs_are_unique_and_ids_grow(store):
    games = [new_game(store) for _ in range(60)]
    assert len({g.slug for g in games}) == 60
    ids = [g.id for g in games]
    assert ids == sorted(ids) and len(set(ids)) == 60
    assert all(store.game_id(g.slug) == g.id for g in games)


def test_set_seat_changes_that_seat_only(store):
    made = new_game(store)
    taken = StoredSeat(1, "player", 42, None, None, None)
    store.set_seat(made.id, taken)
    assert store.seats(made.id) == [seats_of_two()[0], taken]
    invite = StoredSeat(0, "invite", None, None, "h")
    store.set_seat(made.id, invite)
    assert store.seats(made.id) == [invite, taken]


def test_start_game_freezes_names_and_sets_playing(store):
    a = store.add_player("h-a", "Anna", "anna")
    b = store.add_player("h-b", "Bob", "bob")
    made = new_game(store, owner=a)
    store.set_seat(made.id, StoredSeat(1, "player", b, None, None))
    store.start_game(made.id, {0: "Anna", 1: "Bob"})
    assert store.game(made.id).status == "playing"
    store.rename_player(a, "Annabel", "annabel")         # a later rename leaves the record as it was
    assert [s.name for s in store.seats(made.id)] == ["Anna", "Bob"]


def test_set_status_with_and_without_result(store):
    made = new_game(store, status="playing")
    result = {"result": "1-0", "reason": "checkmate", "winners": [0], "scores": [25, 0.5]}
    store.set_status(made.id, "over", result)
    read = store.game(made.id)
    assert (read.status, read.result) == ("over", result)
    other = new_game(store)
    store.set_status(other.id, "aborted")
    assert (store.game(other.id).status, store.game(other.id).result) == ("aborted", None)
    assert store.game(made.id).result == result       # the other game untouched


# ====================================================================== ratings

def rating(player_id, key="two:normal", rating=1500.0, deviation=350.0, games=1, at=1000.0):
    return StoredRating(player_id, key, rating, deviation, 0.06, 25.0, 25.0 / 3, games, at)


def test_a_games_end_and_its_rating_changes_are_one_write(store):
    a, b = store.add_player("r-a", "Ria", "ria"), store.add_player("r-b", "Rob", "rob")
    made = new_game(store, status="playing")
    store.add_action(made.id, action(0))
    store.add_action(made.id, action(1, 1, "resign", "resigns"), "over", {"result": "1-0"},
                     [rating(a, rating=1662.3, deviation=290.3), rating(b, rating=1337.7, deviation=290.3)])
    assert store.rating(a, "two:normal") == rating(a, rating=1662.3, deviation=290.3)
    assert store.ratings_of(b) == [rating(b, rating=1337.7, deviation=290.3)]
    assert store.rating(a, "two:chess80") is None
    assert store.rating_history(a) == [RatingPoint("two:normal", made.id, 1000.0, 1662.3, 290.3)]
    # a refused write (the action's number is taken) leaves the ratings as they were
    with pytest.raises(StoreError):
        store.add_action(made.id, action(1, 1, "resign", "resigns"), "over", {"result": "1-0"},
                         [rating(a, rating=1800.0, games=2)])
    assert store.rating(a, "two:normal").rating == 1662.3
    assert len(store.rating_history(a)) == 1


def test_issue_52_D3_leaderboards_list_only_established_ratings_of_players_with_enough_opponents(store):
    ids = [store.add_player(f"l-{n}", f"Lee {n}", f"lee {n}") for n in range(4)]
    others = [store.add_player(f"o-{n}", f"Oz {n}", f"oz {n}") for n in range(5)]
    ends = {ids[0]: (1900.0, 200.0, others), ids[1]: (1700.0, 60.0, others), ids[2]: (1600.0, 80.0, others),
            ids[3]: (1800.0, 60.0, others[:4] + others[:2])}           # six games, four opponents
    for player, (value, deviation, opponents) in ends.items():
        for opponent in opponents:
            made = store.add_game("two", dict(CONFIG), [StoredSeat(0, "player", player, None, None),
                                                        StoredSeat(1, "player", opponent, None, None)],
                                  player, True, status="playing")
            store.add_action(made.id, action(0), "over", {"result": "1-0"},
                             [rating(player, rating=value, deviation=deviation)])
    store.add_action(new_game(store, status="playing").id, action(0), "over", {"result": "1-0"},
                     [rating(ids[3], key="eight:singles", rating=1550.0, deviation=3.0)])
    board = store.leaderboard("two:normal", 10, established=110.0, opponents=5)
    assert [(r.player_id, name) for r, name in board] == [(ids[1], "Lee 1"), (ids[2], "Lee 2")]
    assert [r.player_id for r, _ in store.leaderboard("two:normal", 10)] == [ids[0], ids[3], ids[1], ids[2]]
    assert [r.player_id for r, _ in store.leaderboard("two:normal", 2, opponents=4)] == [ids[0], ids[3]]
    assert store.rating_keys() == ["eight:singles", "two:normal"]


# ====================================================================== actions and clocks

def test_actions_round_trip_in_order(store):
    made = new_game(store, status="playing")
    other = new_game(store, status="playing")
    written = [action(0, 0, "move", "e2e4", (299.75, 300.0)), action(1, 1, "move", "c7c5", (299.75, 298.125)),
               action(2, 0, "draw", "offers a draw", ()), action(3, 1, "takeback", "takes back ¡ñ!", (1e-3, 0.0))]
    for a in written:
        store.add_action(made.id, a)
    store.add_action(other.id, action(0, 1, "resign", "resigns"))
    assert store.actions(made.id) == written
    assert store.actions(other.id) == [action(0, 1, "resign", "resigns")]


def test_an_action_with_a_status_and_result_writes_both(store):
    made = new_game(store, status="playing")
    store.add_action(made.id, action(0))
    result = {"result": "0-1", "reason": "White resigns"}
    store.add_action(made.id, action(1, 0, "resign", "resigns"), "over", result)
    read = store.game(made.id)
    assert (read.status, read.result) == ("over", result)
    assert [a.kind for a in store.actions(made.id)] == ["move", "resign"]


def test_a_second_action_with_the_same_number_is_refused_and_changes_nothing(store):
    made = new_game(store, status="playing")
    store.add_action(made.id, action(0, text="e2e4"))
    with pytest.raises(StoreError):
        store.add_action(made.id, action(0, text="d2d4"), "over", {"result": "1-0"})
    assert store.actions(made.id) == [action(0, text="e2e4")]
    assert store.game(made.id).status == "playing"       # the whole write was refused


def test_paused_clocks_read_back_until_a_later_action(store):
    a = new_game(store, status="playing")
    b = new_game(store, status="playing")
    store.add_action(a.id, action(0))
    store.pause_clocks({a.id: [120.5, 99.25], b.id: [300.0, 300.0]})
    assert store.game(a.id).paused_clocks == [120.5, 99.25]
    assert store.game(b.id).paused_clocks == [300.0, 300.0]
    store.add_action(a.id, action(1))                    # the saved clocks are older than this action
    assert store.game(a.id).paused_clocks is None
    assert store.game(b.id).paused_clocks == [300.0, 300.0]
    store.pause_clocks({})                               # nothing to save: no change, no error
    assert store.game(b.id).paused_clocks == [300.0, 300.0]


# ====================================================================== chat

def chat_line(game_id, text, player_id=None, seat=None, channel="all", name="Anna", at=1700000000.5):
    return ChatLine(0, game_id, player_id, seat, channel, name, text, at)


def test_chat_round_trip_with_new_ids(store):
    made = new_game(store)
    other = new_game(store)
    lines = [chat_line(made.id, "hello ¡ünïcode! 名前", player_id=3, seat=0),
             chat_line(made.id, "team only", player_id=4, seat=2, channel="team:1", name="Bob", at=1700000001.0),
             chat_line(made.id, "a spectator", name="Guest")]
    ids = [store.add_chat(line) for line in lines]
    store.add_chat(chat_line(other.id, "elsewhere"))
    assert all(isinstance(i, int) for i in ids) and ids == sorted(ids) and len(set(ids)) == 3
    assert store.chat(made.id) == [line._replace(id=i) for line, i in zip(lines, ids)]
    assert [c.text for c in store.chat(other.id)] == ["elsewhere"]


def test_chat_limit_keeps_the_newest_lines_oldest_first(store):
    made = new_game(store)
    for n in range(30):
        store.add_chat(chat_line(made.id, f"line {n}"))
    assert [c.text for c in store.chat(made.id, limit=5)] == [f"line {n}" for n in range(25, 30)]
    assert len(store.chat(made.id)) == 30


def test_chat_default_limit_is_200(store):
    made = new_game(store)
    for n in range(205):
        store.add_chat(chat_line(made.id, str(n)))
    assert [c.text for c in store.chat(made.id)] == [str(n) for n in range(5, 205)]


# ====================================================================== lists

def test_games_by_status_order_and_limit(store):
    open_ = [new_game(store) for _ in range(4)]
    playing = [new_game(store, status="playing") for _ in range(3)]
    over = [new_game(store, status="playing") for _ in range(4)]
    for g in over:
        store.set_status(g.id, "over", {"result": "1/2-1/2"})
    aborted = [new_game(store) for _ in range(2)]
    for g in aborted:
        store.set_status(g.id, "aborted")
    ids = lambda games: [g.id for g in games]                        # noqa: E731
    assert ids(store.games("open")) == ids(open_)                    # waiting and playing: oldest first
    assert ids(store.games("playing")) == ids(playing)
    assert ids(store.games("over")) == ids(over)[::-1]               # finished: newest first
    assert ids(store.games("aborted")) == ids(aborted)[::-1]
    assert ids(store.games("open", limit=2)) == ids(open_)[:2]
    assert ids(store.games("over", limit=3)) == ids(over)[::-1][:3]
    assert store.games("over")[0] == store.game(over[-1].id)        # whole games, as game() reads them
    assert store.games("no such status") == []


def test_games_listed_only(store):
    shown = new_game(store, listed=True, status="over")
    new_game(store, listed=False, status="over")
    also = new_game(store, listed=True, status="over")
    assert [g.id for g in store.games("over", listed_only=True)] == [also.id, shown.id]
    assert len(store.games("over")) == 3


def test_games_default_limit_is_50(store):
    for _ in range(55):
        new_game(store, status="over")
    assert len(store.games("over")) == 50


def test_games_of_a_player_newest_first_with_seats_without_aborted(store):
    a = store.add_player("h-a", "Anna", "anna")
    b = store.add_player("h-b", "Bob", "bob")
    first = new_game(store, owner=a)
    theirs = new_game(store, owner=b)
    second = new_game(store, owner=b)
    store.set_seat(second.id, StoredSeat(1, "player", a, None, None, "Anna"))
    dropped = new_game(store, owner=a)
    store.set_status(dropped.id, "aborted")
    third = new_game(store, owner=a, status="over")
    listed = store.games_of(a)
    assert [g.id for g, _ in listed] == [third.id, second.id, first.id]
    assert listed[1] == (store.game(second.id), store.seats(second.id))
    assert [g.id for g, _ in store.games_of(a, limit=2)] == [third.id, second.id]
    assert [g.id for g, _ in store.games_of(b)] == [second.id, theirs.id]
    assert store.games_of(a + b + 1000) == []


# ====================================================================== meta and schema

def test_meta_values(store):
    assert store.meta("no such key") is None
    store.set_meta("owner", "token one")
    assert store.meta("owner") == "token one"
    store.set_meta("owner", json.dumps({"games": 3}))
    assert json.loads(store.meta("owner")) == {"games": 3}


def test_a_new_store_has_the_current_schema_version(store):
    assert SCHEMA_VERSION == 6
    assert store.meta("schema") == str(SCHEMA_VERSION)


def test_a_database_of_a_newer_schema_is_refused(backend):
    store = backend.open()
    store.set_meta("schema", str(SCHEMA_VERSION + 1))
    store.close()
    with pytest.raises(StoreError, match="newer"):
        backend.open()


# ====================================================================== durability

def write_everything(store):
    """One of each write, the values returned; ``read_everything`` must read the same back."""
    a = store.add_player("h-a", "Anna", "anna")
    b = store.add_player("h-b", "Bob", "bob")
    store.rename_player(b, "Bobby", "bobby")
    game = new_game(store, owner=a)
    store.set_seat(game.id, StoredSeat(1, "player", b, None, None))
    store.start_game(game.id, {0: "Anna", 1: "Bobby"})
    store.add_action(game.id, action(0))
    store.add_action(game.id, action(1, 1, "move", "e7e5"))
    store.pause_clocks({game.id: [10.5, 20.25]})
    chat_id = store.add_chat(chat_line(game.id, "good luck", player_id=a, seat=0))
    over = new_game(store, owner=b, status="playing")
    store.set_status(over.id, "over", {"result": "0-1"})
    store.set_meta("owner", "tok")
    return {"a": a, "b": b, "game": game.id, "slug": game.slug, "chat": chat_id, "over": over.id}


def read_everything(store, ids):
    a, b, game = ids["a"], ids["b"], ids["game"]
    assert store.player_by_token("h-a") == {"id": a, "name": "Anna", "account": False}
    assert store.player(b)["name"] == "Bobby" and store.name_owner("bobby") == b
    assert store.game_id(ids["slug"]) == game
    read = store.game(game)
    assert (read.status, read.config, read.creator, read.paused_clocks) == ("playing", CONFIG, a, [10.5, 20.25])
    assert store.seats(game) == [StoredSeat(0, "player", a, None, None, "Anna"),
                                 StoredSeat(1, "player", b, None, None, "Bobby")]
    assert store.actions(game) == [action(0), action(1, 1, "move", "e7e5")]
    assert store.chat(game) == [chat_line(game, "good luck", player_id=a, seat=0)._replace(id=ids["chat"])]
    assert (store.game(ids["over"]).status, store.game(ids["over"]).result) == ("over", {"result": "0-1"})
    assert store.meta("owner") == "tok"


def test_writes_read_back_after_close_and_reopen(backend):
    store = backend.open()
    ids = write_everything(store)
    store.close()
    again = backend.open()
    try:
        read_everything(again, ids)
    finally:
        again.close()


def test_a_write_is_visible_to_another_open_store_at_once(backend):
    """Two stores open on one database (a server and a second look at its data): what one writes,
    the other reads as soon as the call returns."""
    first, second = backend.open(), backend.open()
    try:
        ids = write_everything(first)
        read_everything(second, ids)
        second.add_action(ids["game"], action(2, 0, "move", "g1f3"))
        assert store_actions_texts(first, ids["game"]) == ["e2e4", "e7e5", "g1f3"]
    finally:
        first.close()
        second.close()


def store_actions_texts(store, game_id):
    return [a.text for a in store.actions(game_id)]


def run_child_killed_after(backend, lines):
    """Run ``lines`` in a new process that has the store open as ``store``; right after they return
    the process kills itself with SIGKILL (no close, no exit handlers)."""
    code = backend.child_opening() + textwrap.dedent(lines) + (
        "import os, signal\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    return proc.stdout


def test_writes_survive_the_writer_being_killed_right_after_each_call(backend):
    printed = run_child_killed_after(backend, """
        import json, test_store_contract as contract
        print(json.dumps(contract.write_everything(store)), flush=True)
        """)
    ids = json.loads(printed)
    store = backend.open()
    try:
        read_everything(store, ids)
    finally:
        store.close()


def test_one_action_survives_the_writer_being_killed_right_after_it(backend):
    """The server's case: a move acknowledged (add_action returned), then the process is gone."""
    store = backend.open()
    game = new_game(store, status="playing")
    store.add_action(game.id, action(0))
    store.close()
    run_child_killed_after(backend, f"""
        from xboard_engine.web.store.records import StoredAction
        store.add_action({game.id}, StoredAction(1, 1, "move", "c7c5", [1.5, 2.5], 12.0), "over",
                         {{"result": "1-0"}})
        """)
    store = backend.open()
    try:
        assert store.actions(game.id)[1:] == [StoredAction(1, 1, "move", "c7c5", [1.5, 2.5], 12.0)]
        assert (store.game(game.id).status, store.game(game.id).result) == ("over", {"result": "1-0"})
    finally:
        store.close()


# ====================================================================== SQLite: schema 1 -> 2

SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (id INTEGER PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL,
    name TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, config TEXT NOT NULL,
    status TEXT NOT NULL, created REAL NOT NULL, result TEXT, paused_clocks TEXT, paused_after INTEGER);
CREATE INDEX games_by_status ON games (status, id);
CREATE TABLE seats (game_id INTEGER NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
    player_id INTEGER, bot TEXT, invite_hash TEXT, PRIMARY KEY (game_id, seat));
CREATE TABLE actions (game_id INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
    kind TEXT NOT NULL, text TEXT NOT NULL, clocks TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, n));
CREATE TABLE chat (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, player_id INTEGER,
    seat INTEGER, channel TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX chat_by_game ON chat (game_id, id);
"""


def make_schema_1_database(path):
    """A database as the first live server (schema 1, xboard_engine/live/store.py) left it: its
    tables, its rows.  Players 1 "Anna" and 2 "ANNA" (one look-alike key), 3 "Cleo"; game 1 over
    (Anna against ANNA, two moves, a chat line, paused clocks), game 2 open (Cleo waiting), game 3
    playing against a bot."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_1)
    db.execute("INSERT INTO meta VALUES ('schema', '1')")
    db.executemany("INSERT INTO players VALUES (?, ?, ?, ?)",
                   [(1, "t1", "Anna", 100.0), (2, "t2", "ANNA", 101.0), (3, "t3", "Cleo", 102.0)])
    games = [(1, "two", json.dumps({"variant": "normal"}), "over", 200.0, json.dumps({"result": "1-0"}),
              json.dumps([5.0, 6.0]), 2),
             (2, "two", json.dumps({"variant": "chess80"}), "open", 201.0, None, None, None),
             (3, "two", json.dumps({"variant": "normal"}), "playing", 202.0, None, None, None)]
    db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)", games)
    db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                   [(1, 0, "player", 1, None, None), (1, 1, "player", 2, None, None),
                    (2, 0, "player", 3, None, None), (2, 1, "open", None, None, None),
                    (3, 0, "player", 3, None, None), (3, 1, "bot", None, "engine:4", None)])
    db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(1, 0, 0, "move", "e2e4", json.dumps([5.0, 9.0]), 300.0),
                    (1, 1, 1, "move", "e7e5", json.dumps([5.0, 6.0]), 301.0)])
    db.execute("INSERT INTO chat VALUES (1, 1, 1, 0, 'all', 'Anna', 'hi', 302.0)")
    db.commit()
    db.close()


def test_a_schema_1_database_opens_as_the_current_schema_and_reads_back(tmp_path):
    path = str(tmp_path / "live.sqlite3")
    make_schema_1_database(path)
    store = SqliteStore(path, fold=fold)
    try:
        assert store.meta("schema") == str(SCHEMA_VERSION)
        slugs = {}
        for game_id in (1, 2, 3):
            game = store.game(game_id)
            assert len(game.slug) == SLUG_LENGTH and set(game.slug) <= set(SLUG_LETTERS)
            assert store.game_id(game.slug) == game_id
            assert game.listed is True and game.creator is None
            slugs[game_id] = game.slug
        assert len(set(slugs.values())) == 3
        over = store.game(1)
        assert (over.kind, over.config, over.status, over.created, over.result, over.paused_clocks) == (
            "two", {"variant": "normal"}, "over", 200.0, {"result": "1-0"}, [5.0, 6.0])
        # a started game's seats keep their players' names as they were (before the look-alike
        # renaming below); an open game's seats have none
        assert [s.name for s in store.seats(1)] == ["Anna", "ANNA"]
        assert store.seats(2) == [StoredSeat(0, "player", 3, None, None, None),
                                  StoredSeat(1, "open", None, None, None, None)]
        assert store.seats(3)[1] == StoredSeat(1, "bot", None, "engine:4", None, None)
        # the later of two look-alike names got a number; every name has its key
        assert store.player_names([1, 2, 3]) == {1: "Anna", 2: "ANNA 2", 3: "Cleo"}
        assert (store.name_owner(fold("Anna")), store.name_owner(fold("ANNA 2")), store.name_owner("cleo")) == (
            1, 2, 3)
        assert store.player_by_token("t2") == {"id": 2, "name": "ANNA 2", "account": False}
        assert store.actions(1) == [StoredAction(0, 0, "move", "e2e4", [5.0, 9.0], 300.0),
                                    StoredAction(1, 1, "move", "e7e5", [5.0, 6.0], 301.0)]
        assert store.chat(1) == [ChatLine(1, 1, 1, 0, "all", "Anna", "hi", 302.0)]
        assert [g.id for g, _ in store.games_of(3)] == [3, 2]
        with pytest.raises(NameTaken):                   # the new unique key holds
            store.add_player("t4", "anna", fold("anna"))
        new = new_game(store)                            # and schema-2 writes work
        assert new.id == 4 and store.game_id(new.slug) == 4
    finally:
        store.close()
    again = SqliteStore(path, fold=fold)                 # opened again: migrated once, slugs kept
    try:
        assert again.meta("schema") == str(SCHEMA_VERSION)
        assert again.ratings_of(1) == [] and again.rating_keys() == []     # schema 3's tables are there
        assert {g: again.game(g).slug for g in (1, 2, 3)} == slugs
        assert again.player_names([2]) == {2: "ANNA 2"}
    finally:
        again.close()


def test_a_failed_migration_leaves_the_schema_1_database_as_it_was(tmp_path):
    path = str(tmp_path / "live.sqlite3")
    make_schema_1_database(path)

    def broken_fold(name):
        if name == "Cleo":
            raise RuntimeError("fold failed")
        return name.casefold()

    with pytest.raises(RuntimeError):
        SqliteStore(path, fold=broken_fold)
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchall() == [("1",)]
        assert [r[1] for r in db.execute("PRAGMA table_info(games)")] == [
            "id", "kind", "config", "status", "created", "result", "paused_clocks", "paused_after"]
        assert db.execute("SELECT name FROM players ORDER BY id").fetchall() == [("Anna",), ("ANNA",), ("Cleo",)]
    finally:
        db.close()
    store = SqliteStore(path, fold=fold)                 # a later open with a good fold migrates it
    try:
        assert store.meta("schema") == str(SCHEMA_VERSION) and store.player_names([2]) == {2: "ANNA 2"}
    finally:
        store.close()


def test_a_schema_2_database_opens_as_the_current_schema_with_its_games_and_empty_ratings(tmp_path):
    path = str(tmp_path / "live.sqlite3")
    store = SqliteStore(path, fold=fold)
    a = store.add_player("s2", "Sam", "sam")
    made = new_game(store, owner=a)
    store.close()
    db = sqlite3.connect(path)                           # as the server of schema 2 left it
    db.execute("DROP TABLE ratings")
    db.execute("DROP TABLE rating_history")
    db.execute("UPDATE meta SET value='2' WHERE key='schema'")
    db.commit()
    db.close()
    store = SqliteStore(path, fold=fold)
    try:
        assert store.meta("schema") == str(SCHEMA_VERSION)
        assert store.game(made.id).creator == a and store.ratings_of(a) == []
        store.add_action(made.id, action(0), "over", {"result": "1-0"}, [rating(a)])
        assert store.rating(a, "two:normal") == rating(a)
    finally:
        store.close()


def test_a_schema_3_database_gets_the_games_host_column_and_keeps_its_games(backend):
    """Schema 3 -> 4: the process that hosts each game (``serve --shared``), none for the old games."""
    store = backend.open()
    made = new_game(store)
    store._write([("ALTER TABLE games DROP COLUMN host", ()), ("UPDATE meta SET value='3' WHERE key='schema'", ())])
    store.close()
    again = backend.open()
    try:
        assert again.meta("schema") == str(SCHEMA_VERSION) and again.game(made.id) == made
        assert again._read("SELECT host FROM games WHERE id=?", (made.id,)) == [(None,)]
    finally:
        again.close()


# ====================================================================== PostgreSQL's own

def test_postgres_keeps_times_and_ratings_to_the_last_bit(postgres_url):
    """Its times and ratings are double precision (PostgreSQL's REAL would round 1.7e9 to 128 s)."""
    store = PostgresStore(postgres_url)
    try:
        game = new_game(store, status="playing")
        store.add_action(game.id, action(0)._replace(at=1795910321.6296115))
        store.add_action(game.id, action(1, 1, "move", "e7e5"), "over", {"result": "0-1"},
                         [rating(7, rating=1512.3456789012345, at=1795910399.123456)])
        assert store.actions(game.id)[0].at == 1795910321.6296115
        assert store.rating(7, "two:normal").rating == 1512.3456789012345
        assert store.rating_history(7)[0].at == 1795910399.123456
    finally:
        store.close()


def test_postgres_two_servers_opening_a_new_database_at_once_make_one_schema(postgres_url):
    code = ("import sys\nfrom xboard_engine.web.store.postgres import PostgresStore\n"
            "s = PostgresStore(sys.argv[1]); print(s.meta('schema')); s.close()\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, postgres_url], cwd=str(ROOT), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [(p.returncode, out.strip()) for p, (out, _) in zip(procs, outs)] == [(0, str(SCHEMA_VERSION))] * 4, outs


def test_postgres_unreachable_or_without_psycopg_is_a_clear_error():
    with pytest.raises(StoreError, match=r"cannot open the database postgresql://xb:\*\*\*@127.0.0.1:1/none"):
        PostgresStore("postgresql://xb:secret@127.0.0.1:1/none")


# ====================================================================== copying a database

def copy_command(source, target):
    return subprocess.run([sys.executable, "-m", "xboard_engine", "copy-database", source, target], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120)


def test_a_sqlite_servers_data_copies_into_postgresql_and_back_row_for_row(tmp_path, postgres_url):
    """A community moving to PostgreSQL: every table's rows arrive as they were, new ids follow
    the copied ones, and the copy back to a new SQLite file is the same again."""
    path = str(tmp_path / "live.sqlite3")
    store = SqliteStore(path, fold=fold)
    ids = write_everything(store)
    store.set_entrant(store.add_tournament("arena", {"minutes": 5}, ids["a"], 5.0).id,
                      Entrant(ids["a"], "Anna", 1.5, False))
    rated_game = new_game(store, owner=ids["a"], status="playing")
    store.add_action(rated_game.id, action(0), "over", {"result": "1-0"}, [rating(ids["a"])])
    store.set_analysis(rated_game.id, "queued", requester=ids["b"])
    store.set_bot_account(ids["b"], {"engines": ["x"]})
    before = {table: store.table_rows(table) for table in TABLES}
    store.close()

    done = copy_command(path, postgres_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("copied 2 players, 3 games, 6 seats, 3 actions, 1 chat, 1 ratings, ")
    pg = PostgresStore(postgres_url)
    try:
        read_everything(pg, ids)
        assert {t: sorted(pg.table_rows(t)[1]) for t in TABLES} == {t: sorted(before[t][1]) for t in TABLES}
        assert pg.add_player("h-c", "Carl", "carl") == ids["b"] + 1
    finally:
        pg.close()

    back = str(tmp_path / "back.sqlite3")
    assert copy_command(postgres_url, back).returncode == 0
    again = SqliteStore(back)
    try:
        read_everything(again, ids)
        assert again.player_by_token("h-c")["name"] == "Carl"
    finally:
        again.close()


def test_a_copy_into_a_database_with_games_is_refused_and_changes_nothing(tmp_path, postgres_url):
    path = str(tmp_path / "live.sqlite3")
    store = SqliteStore(path)
    write_everything(store)
    store.close()
    pg = PostgresStore(postgres_url)
    pg.add_player("h-z", "Zoe", "zoe")
    pg.close()
    done = copy_command(path, postgres_url)
    assert done.returncode == 2 and "is not empty (its table players has rows)" in done.stderr
    assert "Traceback" not in done.stderr
    pg = PostgresStore(postgres_url)
    try:
        assert [row[2] for row in pg.table_rows("players")[1]] == ["Zoe"] and pg.games("open") == []
    finally:
        pg.close()
    missing = copy_command(str(tmp_path / "nothing.sqlite3"), postgres_url)
    assert (missing.returncode, missing.stderr.strip()) == (
        2, f"xboard-engine copy-database: no database at {tmp_path / 'nothing.sqlite3'}")


def test_postgres_steps_an_older_schema_up_in_one_transaction_each_and_a_failed_step_changes_nothing(
        postgres_url, monkeypatch):
    """The schema steps PostgreSQL will take (none yet: its first schema is the current one): a
    database one version behind is brought up by the step, its rows kept; a step that fails leaves
    the database and its version as they were."""
    from xboard_engine.web.store import sql as store_module
    store = PostgresStore(postgres_url)
    game = new_game(store)
    store.close()
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)

    class Failing(PostgresStore):
        def _upgrades(self):
            def step():
                self._run("ALTER TABLE games ADD COLUMN note TEXT")
                raise RuntimeError("step failed")
            return {SCHEMA_VERSION + 1: step}

    class Stepping(PostgresStore):
        def _upgrades(self):
            return {SCHEMA_VERSION + 1: lambda: self._run("ALTER TABLE games ADD COLUMN note TEXT DEFAULT 'kept'")}

    with pytest.raises(RuntimeError, match="step failed"):
        Failing(postgres_url)
    import psycopg
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (str(SCHEMA_VERSION),)
        assert db.execute("SELECT column_name FROM information_schema.columns WHERE table_name='games' "
                          "AND column_name='note'").fetchall() == []
    stepped = Stepping(postgres_url)
    try:
        assert stepped.meta("schema") == str(SCHEMA_VERSION + 1)
        assert stepped.game(game.id) == game
        assert stepped._read("SELECT note FROM games WHERE id=?", (game.id,)) == [("kept",)]
    finally:
        stepped.close()
