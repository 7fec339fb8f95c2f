"""The warm-up at start (xboard_engine/search/warmup.py): when it runs in each protocol, that `quit` cuts it
short, and that it leaves the engine's own search as it was.  CPython has no JIT and warms up only
when XBOARD_ENGINE_WARMUP asks, which these tests do."""
import os
import re
import time

import pexpect
import pytest

from engine_driver import EngineProcess
from xboard_engine.search.warmup import DEFAULT_SECONDS, END_SLACK, WarmUp, warmup_seconds

WARM = 0.8      # seconds of warm-up the tests ask for


def engine(seconds: float) -> EngineProcess:
    return EngineProcess(env=dict(os.environ, XBOARD_ENGINE_WARMUP=str(seconds)))


def test_uci_warms_up_before_uciok_and_then_answers_at_once():
    proc = engine(WARM)
    try:
        start = time.monotonic()
        proc.send("uci")
        proc.expect(r"id name [^\r\n]+\r?\n")
        proc.expect(r"uciok\r?\n")
        assert time.monotonic() - start >= WARM
        start = time.monotonic()
        proc.send("isready")
        proc.expect(r"readyok\r?\n")
        assert time.monotonic() - start < WARM
        proc.send("position startpos")
        proc.send("go depth 2")
        proc.expect(r"bestmove \S+")
    finally:
        proc.close()


def test_cecp_warms_up_between_done0_and_done1():
    proc = engine(WARM)
    try:
        start = time.monotonic()
        proc.send("xboard")
        proc.send("protover 2")
        proc.expect(r"feature done=0\r?\n")
        done0 = time.monotonic()
        proc.expect(r"feature done=1\r?\n")
        assert time.monotonic() - start >= WARM
        assert time.monotonic() - done0 >= WARM / 2        # done=0 came first, at once
        assert "variants=" in proc.child.before     # the features come after the warm-up
        proc.sync(timeout=WARM)
    finally:
        proc.close()


@pytest.mark.parametrize("first", [["uci"], ["xboard", "protover 2"]], ids=["uci", "cecp"])
def test_quit_during_the_warm_up_ends_the_engine_at_once(first):
    proc = engine(60)
    for line in first:
        proc.send(line)
    time.sleep(0.5)
    start = time.monotonic()
    proc.send("quit")
    proc.child.expect(pexpect.EOF, timeout=5)
    assert time.monotonic() - start < 5
    proc.child.close()


def uci_search(seconds: float, new_game: bool = False) -> str:
    """The info line of depth 4 and the bestmove of an 8-Piece search after a warm-up of ``seconds``
    (with ``new_game``, after ``ucinewgame`` too: the variant's top-up)."""
    proc = engine(seconds)
    try:
        proc.send("uci")
        proc.send("setoption name UCI_Variant value 8piece")
        if new_game:
            proc.send("ucinewgame")
        proc.send("isready")
        proc.expect(r"readyok\r?\n", timeout=30)
        proc.send("position startpos moves e2e4")
        proc.send("go depth 4")
        proc.expect(r"bestmove \S+")
        lines = [re.sub(r" (time|nps|hashfull) \d+", "", line) for line in proc.child.before.splitlines()]
        return "\n".join(line.strip() for line in lines if line.startswith("info depth 4 ")) + \
            proc.child.after
    finally:
        proc.close()


def test_the_warm_up_leaves_the_engines_table_and_search_as_they_were():
    assert uci_search(WARM) == uci_search(0)


def test_warm_up_length_from_the_environment(monkeypatch):
    monkeypatch.setenv("XBOARD_ENGINE_WARMUP", "0.5")
    assert warmup_seconds() == 0.5
    monkeypatch.setenv("XBOARD_ENGINE_WARMUP", "soon")
    assert warmup_seconds() == 0.0
    monkeypatch.setenv("XBOARD_ENGINE_WARMUP", "-3")
    assert warmup_seconds() == 0.0
    monkeypatch.delenv("XBOARD_ENGINE_WARMUP")
    import platform
    assert warmup_seconds() == (DEFAULT_SECONDS if platform.python_implementation() == "PyPy" else 0.0)


def test_a_stopped_warm_up_does_not_start_and_a_running_one_takes_its_time():
    stopped = WarmUp()
    stopped.stop()
    start = time.perf_counter()
    stopped.run(5)
    assert time.perf_counter() - start < 0.5
    start = time.perf_counter()
    warm_up = WarmUp()
    warm_up.run(0.3)
    assert 0.3 - END_SLACK <= time.perf_counter() - start < 2
    start = time.perf_counter()
    warm_up.run(0.3)                    # it runs once
    assert time.perf_counter() - start < 0.05


# ---------------------------------------------------------------------- the variant's top-up
def test_uci_new_game_of_a_new_variant_warms_it_up_while_isready_waits():
    """After `ucinewgame` of a variant not warmed yet, `isready` is answered once its top-up has
    run (the GUI waits for it before any clock runs); a second game of it has none."""
    proc = engine(WARM)
    try:
        proc.send("uci")
        proc.expect(r"uciok\r?\n")
        proc.send("setoption name UCI_Variant value chess80")
        for expected_wait in (True, False):
            proc.send("ucinewgame")
            start = time.monotonic()
            proc.send("isready")
            proc.expect(r"readyok\r?\n")
            waited = time.monotonic() - start
            assert (waited >= WARM - 0.1) if expected_wait else (waited < WARM / 2), (expected_wait, waited)
    finally:
        proc.close()


def test_uci_position_after_ucinewgame_ends_the_top_up_at_once():
    """A GUI that sends `position` and `go` straight after `ucinewgame` loses no time to it."""
    proc = engine(60)                        # a top-up as long as it may be (TOPUP_SECONDS)
    try:
        proc.send("uci")
        proc.expect(r"uciok\r?\n", timeout=90)
        proc.send("setoption name UCI_Variant value 8piece")
        proc.send("ucinewgame")
        start = time.monotonic()
        proc.send("position startpos moves e2e4")
        proc.send("go depth 1")
        proc.expect(r"bestmove \S+")
        assert time.monotonic() - start < 0.5
    finally:
        proc.close()


def test_cecp_new_and_variant_warm_it_up_while_ping_waits_and_a_move_ends_it():
    proc = engine(WARM)
    try:
        proc.send("xboard")
        proc.send("protover 2")
        proc.expect(r"feature done=1\r?\n")
        proc.send("new")
        proc.send("variant fullcavalry")
        start = time.monotonic()
        proc.sync(timeout=10)
        assert time.monotonic() - start >= WARM - 0.1     # the top-up of Full Cavalry ran first
        proc.send("new")                                  # orthodox chess: not warmed up yet ...
        proc.send("force")
        start = time.monotonic()
        proc.send("usermove e2e4")                        # ... and a move ends its top-up at once
        proc.sync(timeout=10)
        assert time.monotonic() - start < WARM / 2
        assert proc.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
    finally:
        proc.close()


def test_the_top_up_leaves_the_engines_table_and_search_as_they_were():
    assert uci_search(WARM, new_game=True) == uci_search(0, new_game=True)


def test_zobrist_keys_fit_a_machine_word_under_pypy():
    """Keys below 2**63 (PyPy keeps larger integers as big integers: slow, and a cold JIT)."""
    from xboard_engine.multi.position import _Keys
    from xboard_engine.core.board import zobrist_for
    for size in (120, 140):
        keys = zobrist_for(size)
        words = [k for row in keys.piece for k in row] + [keys.side] + keys.castling + keys.ep
        assert 2 ** 60 <= max(words) < 2 ** 63
    eight = _Keys(300, 8, 16)                                   # 8 Player Chess
    words = [k for row in eight.piece for k in row] + eight.turn + eight.right + eight.ep
    assert 2 ** 60 <= max(words) < 2 ** 63
