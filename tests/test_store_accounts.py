"""The accounts' part of the store (schemas 5 and 6), on both databases: an account, its sessions, a
reset link used once, two-factor codes, roles, the bot accounts it owns; and the upgrade that made
"I", "i" and "l" one in the names' look-alike keys."""
import time

import pytest

import test_store_contract
from xboard_engine.web.identity.names import fold
from xboard_engine.web.store.records import NameTaken

backend = test_store_contract.backend          # the fixture: each database


def test_an_account_is_reached_by_its_sessions_only_and_its_guest_cookie_no_more(backend):
    store = backend.open()
    try:
        guest = store.add_player("guest-cookie", "Alice", fold("Alice"))
        assert store.player_by_token("guest-cookie") == {"id": guest, "name": "Alice", "account": False}
        store.add_account(guest, "Alice", "scrypt$hash", "session-1", "Firefox on Linux", "10.0.0.1")
        assert store.player_by_token("guest-cookie") is None
        assert store.player_by_token("session-1") == {"id": guest, "name": "Alice", "account": True}
        account = store.account_by_key(fold("ALICE"))
        assert (account["id"], account["username"], account["password"], account["closed"], account["roles"]) == (
            guest, "Alice", "scrypt$hash", None, [])
        store.add_session("session-2", guest, "Chrome on Android", "10.0.0.2")
        assert [s["token_hash"] for s in store.sessions_of(guest)] == ["session-2", "session-1"]
        store.touch_session("session-1", time.time() + 60)
        assert [s["device"] for s in store.sessions_of(guest)] == ["Firefox on Linux", "Chrome on Android"]
        assert store.end_sessions(guest, ["session-2"]) == ["session-2"]
        assert store.player_by_token("session-2") is None
        store.add_session("session-3", guest, "curl", "10.0.0.3")
        assert store.set_password(guest, "scrypt$new", keep="session-3") == ["session-1"]
        assert store.account(guest)["password"] == "scrypt$new"
        assert store.end_sessions(guest) == ["session-3"] and store.sessions_of(guest) == []
    finally:
        store.close()


def test_an_accounts_bot_accounts_are_listed_and_a_new_token_replaces_the_old_one(backend):
    store = backend.open()
    try:
        owner = store.add_player("owner-cookie", "Olga", fold("Olga"))
        bots = [store.add_owned_bot(f"bot-{n}", f"Olga Bot {n}", fold(f"Olga Bot {n}"), owner) for n in (1, 2)]
        with pytest.raises(NameTaken):
            store.add_owned_bot("bot-3", "OLGA BOT 1", fold("OLGA BOT 1"), owner)
        assert store.player_by_token("bot-3") is None                # nothing of it was written
        assert [(b["id"], b["name"]) for b in store.owned_bots(owner)] == [(bots[0], "Olga Bot 1"), (bots[1], "Olga Bot 2")]
        assert store.bot_owner(bots[0]) == owner and store.bot_owner(owner) is None and store.owned_bots(bots[0]) == []
        assert store.player_by_token("bot-1") == {"id": bots[0], "name": "Olga Bot 1", "account": False}
        assert store.set_player_token(bots[0], "bot-1-new") == "bot-1"
        assert store.player_by_token("bot-1") is None
        assert store.player_by_token("bot-1-new")["id"] == bots[0]
    finally:
        store.close()


def test_a_reset_link_works_once_and_not_after_it_expires(backend):
    store = backend.open()
    try:
        player = store.add_player("c", "Bob", fold("Bob"))
        store.add_account(player, "Bob", "old", "s1", "d", "a")
        now = time.time()
        store.add_reset("link", player, now + 3600)
        store.add_reset("late", player, now - 1)
        assert store.reset_player("link", now) == player and store.reset_player("late", now) is None
        assert store.use_reset("late", "never", now) is None
        assert store.use_reset("link", "new", now) == (player, ["s1"])
        assert store.account(player)["password"] == "new" and store.sessions_of(player) == []
        assert store.use_reset("link", "again", now) is None and store.account(player)["password"] == "new"
    finally:
        store.close()


def test_two_factor_codes_recovery_codes_spend_once_and_roles(backend):
    store = backend.open()
    try:
        player = store.add_player("c", "Cleo", fold("Cleo"))
        store.add_account(player, "Cleo", "pw", "s1", "d", "a")
        store.set_two_factor(player, "SECRET", ["r1", "r2"])
        assert store.account(player)["totp"] == "SECRET"
        assert store.use_recovery_code(player, "r2") and not store.use_recovery_code(player, "r2")
        assert store.use_recovery_code(player, "r1") and not store.use_recovery_code(player, "zz")
        store.set_two_factor(player, None, [])
        assert store.account(player)["totp"] is None
        store.set_roles(player, ["moderator", "administrator", "moderator"])
        assert store.account(player)["roles"] == ["administrator", "moderator"]
    finally:
        store.close()


def test_a_schema_4_database_gets_the_account_tables_and_keys_that_join_i_and_l(backend):
    """Schema 4 -> 5: "Alice" and "ALICE" had two keys (the fold made "I" an "l" but left "i"):
    now the later keeps its name under a key no name folds to, and nobody can take a third."""
    store = backend.open()
    first = store.add_player("t1", "Alice", "alice")         # the keys schema 4's fold gave
    second = store.add_player("t2", "ALICE", "allce")
    third = store.add_player("t3", "ivan", "ivan")
    store._write([("DROP TABLE accounts", ()), ("DROP TABLE sessions", ()), ("DROP TABLE resets", ()),
                  ("DROP TABLE bot_owners", ()), ("UPDATE meta SET value='4' WHERE key='schema'", ())])
    store.close()
    again = backend.open()
    try:
        assert again.meta("schema") == "6"
        assert again.player_names([first, second, third]) == {first: "Alice", second: "ALICE", third: "ivan"}
        assert again.name_owner(fold("alice")) == first and again.name_owner(fold("Ivan")) == third
        assert again._read("SELECT name_key FROM players WHERE id=?", (second,)) == [(f"{fold('ALICE')}#{second}",)]
        assert again.account(first) is None and again.sessions_of(first) == []
        assert again.owned_bots(first) == [] and again.bot_owner(first) is None      # schema 6's table
    finally:
        again.close()
