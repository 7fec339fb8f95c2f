"""The search on several processes (``smp.py``): the shared table behaves as the engine's own, helpers
search in real processes and add their nodes, and `Threads`/`cores` in the real engine start helpers
that stop with the search and end with the engine, however it ends (quit, end of input, SIGKILL).
Tests taking the ``memory`` fixture run with both kinds of shared memory: by descriptor (POSIX) and
named (``multiprocessing.shared_memory``, Windows' kind), forced here as a user would force it."""
import os
import random
import signal
import subprocess
import sys
import time
from typing import List

import pytest

from engine_driver import EngineProcess
from test_uci import UciProcess
from xboard_engine import Position
from xboard_engine.search.bench import SEARCH_CASES, bench_position
from xboard_engine.search.searcher import Limits, Searcher
from xboard_engine.search.ttable import EXACT, LOWER
from xboard_engine.search.parallel.shared_table import SharedTable, decode_move, encode_move
from xboard_engine.search.parallel.shared_memory import MEMORY_VARIABLE, NamedMemory, memory_kind
from xboard_engine.search.parallel.smp import ParallelSearcher, Team


def children(pid: int) -> List[int]:
    """The live child processes of ``pid`` (from /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(name))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_until(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def named_files() -> set:
    """The engine's named shared memory in /dev/shm (``xbe-PID-...``)."""
    return {name for name in os.listdir("/dev/shm") if name.startswith("xbe-")}


@pytest.fixture(params=["fd", "named"])
def memory(request, monkeypatch):
    """Each kind of shared memory, by ``XBOARD_ENGINE_SHARED_MEMORY`` (engines started in the test
    inherit it); afterwards no named memory of the test is left in /dev/shm."""
    monkeypatch.setenv(MEMORY_VARIABLE, request.param)
    before = named_files()
    yield request.param
    assert wait_until(lambda: not named_files() - before, 3), named_files() - before


HELPER_MODULE = "xboard_engine.search.parallel.smp"


def helper_words(pid: int) -> List[str]:
    """The command line of process ``pid``, word by word."""
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().decode().split("\0")


def helper_memory(pid: int) -> str:
    """A helper's first argument: how it reached the memory (``fd:N`` or ``name:NAME``). A child
    found between its fork and its exec still shows the engine's command line, so this waits for
    the exec (the project CI of 9023b6e read the child in that moment once)."""
    assert wait_until(lambda: HELPER_MODULE in helper_words(pid)), helper_words(pid)
    words = helper_words(pid)
    return words[words.index(HELPER_MODULE) + 1]


def assert_memory_kind(pid: int, memory: str) -> None:
    """The helper ``pid`` uses the kind of memory asked for; named memory has lost its name (no file in
    /dev/shm) while the helper still has it mapped."""
    argument = helper_memory(pid)
    assert argument.startswith({"fd": "fd:", "named": "name:xbe-"}[memory]), argument
    if memory == "named":
        name = argument[len("name:"):]
        assert wait_until(lambda: name not in named_files(), 5)
        with open(f"/proc/{pid}/maps") as maps:
            assert f"/dev/shm/{name} (deleted)" in maps.read()


# ---------------------------------------------------------------- the shared table
def test_every_move_kind_survives_the_table_code():
    """Moves are stored as one integer: every legal move of positions with pushes, castles, en
    passant, promotions, 2019 jumps and edge captures comes back equal."""
    kinds = set()
    for label, variant, number, fen, moves, _, _ in SEARCH_CASES:
        pos = bench_position(variant, number, fen, moves)
        for m in pos.legal_moves():
            assert encode_move(m) != 0 and decode_move(encode_move(m)) == m
            kinds.add(int(m.kind))
    rng = random.Random(5)
    for variant in ("8piece", "8piece-2019", "chess80", "fischerandom"):
        for _ in range(20):                             # random games meet every kind of move
            pos = Position(variant)
            for _ in range(60):
                legal = pos.legal_moves()
                if not legal:
                    break
                for m in legal:
                    assert decode_move(encode_move(m)) == m
                    kinds.add(int(m.kind))
                pos.push(rng.choice(legal))
    assert kinds >= {0, 1, 2, 3, 4, 5, 6}, kinds


def test_shared_table_searches_exactly_as_the_list_table():
    """With no helper, a search over the shared table visits the same nodes and finds the same line
    as over the engine's usual table: same replacement rule, same entries."""
    for label, variant, number, fen, moves, _, quick in SEARCH_CASES[::3]:
        usual = Searcher(hash_mb=4).search(bench_position(variant, number, fen, moves), Limits(depth=quick))
        searcher = Searcher(hash_mb=4)
        team = Team(0, 4)
        try:                    # as many entries as the usual table (which has fewer per MB)
            searcher.tt = SharedTable(team.words, team.header, searcher.tt.size, 4)
            shared = searcher.search(bench_position(variant, number, fen, moves), Limits(depth=quick))
        finally:
            team.close()
        assert (shared.nodes, shared.move, shared.score, shared.pv) == \
            (usual.nodes, usual.move, usual.score, usual.pv), (variant, label)


def _resident_kb(pid: int) -> int:
    """Resident shared memory of a process (RssShmem), in kB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("RssShmem:"):
                return int(line.split()[1])
    raise AssertionError("no RssShmem line")


def test_clearing_the_shared_table_empties_every_entry_and_returns_its_pages(monkeypatch):
    """``Clear Hash``/``ucinewgame`` over a table of Hash 64: every entry reads empty after it, the first
    and the last bucket included, and the pages are handed back instead of being written with zeros
    (zeros would make the whole table resident, and freeing a resident gigabyte table made the
    engine's exit take a quarter second: quit after a burst of Hash changes).  Memory by descriptor:
    named memory is cleared with zeros (next test)."""
    monkeypatch.setenv(MEMORY_VARIABLE, "fd")
    team = Team(0, 64)
    try:
        table = team.table
        buckets = table.mask + 1
        keys = [k * 2 + 1 for k in range(0, buckets, 97)] + [buckets - 1, buckets * 2 - 1]
        for key in keys:
            table.store(key, 3, 17, LOWER, None)
        for at in range(table.base * 8, len(team.memory.map), 4096):
            team.memory.map[at] = 1                      # every page resident
        size_kb = len(team.memory.map) // 1024
        assert size_kb > 32 * 1024 and _resident_kb(os.getpid()) >= size_kb
        assert table.clear()
        assert _resident_kb(os.getpid()) < size_kb // 8
        assert len(table) == 0 and all(table.probe(key) is None for key in keys)
        assert team.memory.map[table.base * 8:].count(b"\0") == len(team.memory.map) - table.base * 8
    finally:
        team.close()


def test_clearing_empties_every_entry_and_leaves_the_header(memory):
    """Either kind of memory: named memory (Windows' kind) has no pages to hand back (no ``madvise``),
    so clearing writes zeros there, over the first and the last bucket too."""
    team = Team(0, 8)
    try:
        table = team.table
        assert team.memory.kind == memory == memory_kind()
        buckets = table.mask + 1
        keys = [k * 2 + 1 for k in range(0, buckets, 97)] + [buckets - 1, buckets * 2 - 1]
        for key in keys:
            table.store(key, 3, 17, LOWER, Position().legal_moves()[0])
        team.words[0] = 12345
        assert len(table) == len(keys)
        assert table.clear()
        assert len(table) == 0 and all(table.probe(key) is None for key in keys)
        words = team.words
        assert words[0] == 12345 and not any(words[table.base:table.base + table.size * 3])
    finally:
        team.close()


def test_shared_table_entries_and_a_torn_slot(memory):
    team = Team(0, 1)
    try:
        table = team.table
        assert team.memory.kind == memory
        key = 0x9E3779B97F4A7C15
        move = Position().legal_moves()[0]
        table.store(key, 5, -321, LOWER, move)
        assert table.probe(key) == (key, 5, -321, LOWER, move, 0)
        table.store(key, 7, 99999, EXACT, None)        # a visit without a move keeps the old move
        assert table.probe(key) == (key, 7, 99999, EXACT, move, 0)
        assert table.probe(key ^ 1 << 63) is None
        slot = table.base + (key & table.mask) * 6
        table.words[slot + 1] ^= 1 << 30               # another process's half-written entry
        assert table.probe(key) is None
        assert table.clear() and len(table) == 0
    finally:
        team.close()


@pytest.mark.parametrize("label,variant,number,fen,moves", [c[:5] for c in SEARCH_CASES])
def test_a_helper_rebuilds_the_position_from_its_fen(label, variant, number, fen, moves):
    """Helpers get the position as FEN and variant name: the hash must come out the same (else the
    helper would stay idle), push restrictions, castling and en passant included."""
    pos = bench_position(variant, number, fen, moves)
    assert Position.from_fen(pos.fen(), pos.variant.name).hash == pos.hash


# ---------------------------------------------------------------- helpers in-process
def test_helpers_search_and_their_nodes_are_summed(memory):
    searcher = ParallelSearcher(hash_mb=8)
    searcher.set_threads(3)
    try:
        pos = bench_position("normal", None, None, "e2e4 e7e5 g1f3 b8c6")
        searcher.search(pos, Limits(soft_time=0.1, hard_time=0.3))   # the helpers start
        searcher.wait_for_helpers()         # warmed up (on a loaded machine that takes seconds)
        result = searcher.search(pos, Limits(soft_time=1.5, hard_time=2.0))
        helpers = searcher.team.pids()
        assert len(helpers) == 2 and all(alive(p) for p in helpers)
        for helper in helpers:
            assert_memory_kind(helper, memory)
        helper_nodes = searcher.team.nodes()
        assert helper_nodes > 0 and result.nodes == searcher.nodes + helper_nodes
        assert result.move in pos.legal_moves()
        depth, score, move = searcher.team.deepest()    # what the helpers finished
        assert depth >= 2 and move in pos.legal_moves() and abs(score) < 1000
        assert result.depth >= depth                    # the deepest line gives the move
    finally:
        searcher.close()
    assert wait_until(lambda: not any(alive(p) for p in helpers))


def test_node_bounded_and_weakened_searches_stay_on_one_process():
    """'Nodes per move' promises the same moves every game, a skill level a weaker game: helpers
    would break both, so they do not join such searches."""
    pos = bench_position("normal", None, None, "d2d4 d7d5 c2c4")
    single = Searcher(hash_mb=8).search(pos, Limits(nodes=3000))
    searcher = ParallelSearcher(hash_mb=8)
    searcher.set_threads(2)
    try:
        result = searcher.search(pos, Limits(nodes=3000))
        assert (result.move, result.nodes) == (single.move, single.nodes)
        assert searcher.team.nodes() == 0
        searcher.search(pos, Limits(depth=3, skill=5))
        assert searcher.team.nodes() == 0
    finally:
        searcher.close()


def test_a_helpers_entries_are_in_the_engines_table(memory):
    """The table is shared: a helper searching alone (the engine's own search is not running) fills
    the engine's view of it, the root position's entry included."""
    team = Team(1, 2)
    try:
        assert team.warmed_up(30)
        pos = bench_position("normal", None, None, "e2e4 e7e5")
        assert team.table.probe(pos.hash) is None
        team.begin(pos, Limits())
        assert wait_until(lambda: team.nodes() > 2000, 10)
        team.end()
        entry = team.table.probe(pos.hash)
        assert entry is not None and entry[4] in pos.legal_moves() and len(team.table) > 100
        assert_memory_kind(team.pids()[0], memory)
    finally:
        team.close()


def test_the_memory_kind_follows_the_variable(monkeypatch, capsys):
    """``fd`` on POSIX unless ``XBOARD_ENGINE_SHARED_MEMORY`` says ``named``; another word is refused
    and the search keeps one process (with a word on standard error)."""
    monkeypatch.delenv(MEMORY_VARIABLE, raising=False)
    assert os.name == "posix" and memory_kind() == "fd"
    monkeypatch.setenv(MEMORY_VARIABLE, " Named ")
    assert memory_kind() == "named"
    monkeypatch.setenv(MEMORY_VARIABLE, "posix")
    with pytest.raises(ValueError):
        memory_kind()
    searcher = ParallelSearcher(hash_mb=2)
    searcher.set_threads(2)
    pos = Position()
    assert searcher.search(pos, Limits(depth=3)).move in pos.legal_moves()
    assert searcher.team is None and searcher.threads == 1
    assert "XBOARD_ENGINE_SHARED_MEMORY is 'posix', not fd or named" in capsys.readouterr().err


def test_named_memory_loses_its_name_once_the_helpers_have_it(monkeypatch, capfd):
    """The name is in /dev/shm until both helpers have mapped the memory, then gone while they search
    on it; no resource tracker process is started (multiprocessing's, which would be one more child
    and would warn of "leaked" memory or unlink it when a helper ends), and nothing is written to
    standard error (helpers write there) from the start to the helpers' end."""
    monkeypatch.setenv(MEMORY_VARIABLE, "named")
    before = set(children(os.getpid()))      # (other tests in this process may have left children)
    team = Team(2, 4)
    try:
        name = team.memory.argument[len("name:"):]
        assert name.startswith(f"xbe-{os.getpid()}-") and name in named_files()   # (they start slowly)
        assert wait_until(lambda: name not in named_files(), 10)
        assert team.warmed_up(30)
        pos = bench_position("normal", None, None, "d2d4 g8f6")
        team.begin(pos, Limits())
        assert wait_until(lambda: team.nodes() > 1000, 10)
        team.end()
        assert sorted(set(children(os.getpid())) - before) == sorted(team.pids())
        for helper in team.pids():
            assert_memory_kind(helper, "named")
    finally:
        team.close()
    assert not any(alive(p) for p in team.pids()) and name not in named_files()
    assert capfd.readouterr().err == ""


def test_a_helper_whose_engine_died_before_it_had_the_memory_takes_the_name_away():
    """The engine was killed before every helper had mapped the named memory (it takes the name away
    only then): the helper, finding another parent, takes it away itself before it ends."""
    header, entries = 8, 1024
    memory = NamedMemory((header + entries * 3) * 8)
    name = memory.argument[len("name:"):]
    try:
        assert name in named_files()
        helper = subprocess.run(
            [sys.executable, "-m", "xboard_engine.search.parallel.smp", memory.argument, str(memory.size), str(header),
             str(entries), "0", "1"],                       # parent 1: not this process
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True, timeout=30)
        assert (helper.returncode, helper.stdout, helper.stderr) == (0, "attached\n", "")
        assert name not in named_files()
    finally:
        memory.close()


def test_a_searching_helper_ends_when_its_input_closes(memory):
    """How a helper learns on Windows that the engine was killed (its parent's pid stays): its input
    closes, seen by a thread while it searches, with the search still on in the header."""
    team = Team(1, 2)
    try:
        assert team.warmed_up(30)
        team.begin(Position(), Limits())
        assert wait_until(lambda: team.nodes() > 1000, 10)
        helper = team.processes[0]
        helper.stdin.close()
        assert wait_until(lambda: helper.poll() is not None, 2) and helper.returncode == 0
        assert team.words[0] == team.generation != 0     # nobody told it to stop
    finally:
        team.close()


def test_threads_back_to_one_or_a_new_hash_replace_the_helpers(memory):
    searcher = ParallelSearcher(hash_mb=2)
    searcher.set_threads(2)
    pos = Position()
    try:
        searcher.search(pos, Limits(depth=2))
        first = searcher.team.pids()
        searcher.set_hash_size(4)
        searcher.search(pos, Limits(depth=2))
        assert searcher.team.megabytes == 4 and searcher.team.pids() != first
        assert wait_until(lambda: not any(alive(p) for p in first))
        second = searcher.team.pids()
        searcher.set_threads(1)
        assert searcher.search(pos, Limits(depth=3)).move in pos.legal_moves()
        assert searcher.team is None
        assert wait_until(lambda: not any(alive(p) for p in second))
    finally:
        searcher.close()


# ---------------------------------------------------------------- the real engine
def _uci_thinking(threads: int) -> UciProcess:
    engine = UciProcess()
    engine.send(f"setoption name Threads value {threads}")
    engine.send("position startpos moves e2e4 c7c5")
    engine.send("go infinite")
    return engine


def test_uci_threads_start_helpers_that_answer_isready_and_stop(memory):
    engine = _uci_thinking(2)
    try:
        assert wait_until(lambda: len(children(engine.child.pid)) == 1)
        helper = children(engine.child.pid)[0]
        assert_memory_kind(helper, memory)
        for _ in range(3):
            time.sleep(0.3)
            start = time.monotonic()
            engine.sync(timeout=5)
            assert time.monotonic() - start < 0.5
        engine.send("stop")
        move, _, _ = engine.bestmove(timeout=10)
        assert move in _after("e2e4 c7c5")
        assert alive(helper)                            # kept for the next move
        time.sleep(0.3)                                 # and idle: its CPU time stands still
        spent = _cpu_seconds(helper)
        time.sleep(0.5)
        assert _cpu_seconds(helper) - spent < 0.05
    finally:
        engine.close()                                  # `quit`
    assert wait_until(lambda: not alive(helper), 3)


def test_quit_over_pipes_leaves_no_process_no_file_and_no_word_on_standard_error(memory):
    """As XBoard runs the engine (pipes, no terminal): Threads 2, a search, quit; the engine's output
    ends only when its helper's does (it writes to the same standard error) and nothing was written
    there (no "leaked shared_memory" warning, no traceback)."""
    script = "uci\nsetoption name Threads value 2\nisready\nposition startpos\ngo movetime 500\n"
    engine = subprocess.Popen([sys.executable, "-m", "xboard_engine"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                              env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(
                                  os.path.abspath(__file__)))))
    try:
        engine.stdin.write(script)
        engine.stdin.flush()
        assert wait_until(lambda: len(children(engine.pid)) == 1)
        helper, = children(engine.pid)
        assert_memory_kind(helper, memory)
        out = ""
        while "bestmove" not in out:                    # (quit would stop what comes before it)
            line = engine.stdout.readline()
            assert line, out
            out += line
        more, err = engine.communicate("quit\n", timeout=30)
    finally:
        if engine.poll() is None:
            engine.kill()
            engine.wait()
    assert "readyok" in out and more == ""
    assert err == "" and engine.returncode == 0
    assert wait_until(lambda: not alive(helper), 3)     # (its output closes as it ends)


def _after(moves: str) -> set:
    pos = Position()
    for m in moves.split():
        pos.push_text(m)
    return {pos.uci_text(m) for m in pos.legal_moves()}


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CPUS = len(os.sched_getaffinity(0))


def test_threads_beyond_the_cores_start_one_process_per_core():
    """`Threads 512` on this machine: a helper for every core but the engine's, and a word saying so
    (hundreds of Python processes would only share the cores, each with its own memory)."""
    engine = UciProcess()
    try:
        engine.send("setoption name Threads value 512")
        assert f"info string Threads 512: this machine has {CPUS} cores, the search uses {CPUS} processes" \
            in engine.sync()
        engine.send("position startpos")
        engine.send("go infinite")
        assert wait_until(lambda: len(children(engine.child.pid)) == CPUS - 1)
        time.sleep(0.5)
        assert len(children(engine.child.pid)) == CPUS - 1
        engine.send("stop")
        engine.bestmove()
    finally:
        engine.close()


@pytest.mark.parametrize("thinking", [True, False])
def test_a_sigkilled_engine_leaves_no_helper_behind(thinking, memory):
    """Killed at once (``thinking``: its helper may not have mapped the memory yet) or after a search
    (named memory: without its name by then); the ``memory`` fixture checks /dev/shm after."""
    engine = _uci_thinking(CPUS)
    if not thinking:
        engine.send("stop")
        engine.bestmove()
    try:
        assert wait_until(lambda: len(children(engine.child.pid)) == CPUS - 1)
        helpers = children(engine.child.pid)
        os.kill(engine.child.pid, signal.SIGKILL)
        assert wait_until(lambda: not any(alive(p) for p in helpers), 3), \
            [p for p in helpers if alive(p)]
    finally:
        engine.child.close(force=True)


def test_end_of_input_ends_the_helpers(memory):
    engine = _uci_thinking(2)
    try:
        assert wait_until(lambda: len(children(engine.child.pid)) == 1)
        helper = children(engine.child.pid)[0]
        engine.child.sendeof()
        assert wait_until(lambda: not alive(helper), 5)
    finally:
        engine.child.close(force=True)


def test_cecp_cores_start_helpers_and_move_now_stops_them(memory):
    engine = EngineProcess()
    try:
        engine.send("xboard")
        engine.send("protover 2")
        engine.send("cores 2")
        engine.setup("normal")
        engine.send("level 0 60 0")
        engine.send("post")
        engine.send("go")
        assert wait_until(lambda: len(children(engine.child.pid)) == 1)
        helper = children(engine.child.pid)[0]
        assert_memory_kind(helper, memory)
        time.sleep(1.0)
        engine.send("?")
        move = engine.engine_move(timeout=5)
        assert move in {Position().san(m) for m in Position().legal_moves()} | Position().legal_texts()
        time.sleep(0.3)
        spent = _cpu_seconds(helper)
        time.sleep(0.5)
        assert _cpu_seconds(helper) - spent < 0.05
        engine.send("cores 1")
        engine.send("force")
        engine.send("go")
        time.sleep(0.5)
        engine.send("?")
        engine.engine_move()
        assert wait_until(lambda: not alive(helper), 3)
    finally:
        engine.close()


def _idle(pid: int) -> bool:
    """Whether the process used (almost) no CPU in the next half second."""
    spent = _cpu_seconds(pid)
    time.sleep(0.5)
    return _cpu_seconds(pid) - spent < 0.05


def _one_new_child(pid: int, old: int) -> bool:
    """Whether ``pid`` has one child, not ``old`` (read once: a helper may end between two reads)."""
    found = children(pid)
    return len(found) == 1 and found[0] != old


def test_threads_start_the_helpers_at_once_and_isready_waits_for_their_warm_up(memory):
    """A helper warming up takes a core: `isready`/`ping` are answered once it has finished, so
    that a game begun after them does not share a core with it (idle at once after the answer)."""
    engine = UciProcess(env=dict(os.environ, XBOARD_ENGINE_WARMUP="1"))
    try:
        engine.send("setoption name Threads value 2")
        engine.sync(timeout=15)
        helper, = children(engine.child.pid)            # started with no `go` yet ...
        assert _cpu_seconds(helper) > 0.2               # ... warmed up ...
        assert _idle(helper)                            # ... and done before `readyok`
    finally:
        engine.close()
    engine = EngineProcess(env=dict(os.environ, XBOARD_ENGINE_WARMUP="1"))
    try:
        engine.send("xboard")
        engine.send("protover 2")
        engine.sync(timeout=10)                         # after the engine's own warm-up
        engine.send("cores 2")
        engine.sync(timeout=15)
        helper, = children(engine.child.pid)
        assert _cpu_seconds(helper) > 0.2 and _idle(helper)
        engine.send("memory 8")                         # a new table size: new helpers
        engine.sync(timeout=15)
        assert wait_until(lambda: not alive(helper), 3)
        assert _one_new_child(engine.child.pid, helper)
        engine.send("memory 16")
        assert wait_until(lambda: _one_new_child(engine.child.pid, helper))
        warming = children(engine.child.pid)
        os.kill(engine.child.pid, signal.SIGKILL)       # killed while its helper warms up
        assert wait_until(lambda: not any(alive(p) for p in warming), 3)
    finally:
        engine.child.close(force=True)


def test_helpers_that_cannot_start_leave_a_one_process_search(monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise OSError("no processes here")
    monkeypatch.setattr("xboard_engine.search.parallel.smp.subprocess.Popen", refuse)
    searcher = ParallelSearcher(hash_mb=2)
    searcher.set_threads(2)
    pos = bench_position("normal", None, None, "e2e4 e7e5")
    result = searcher.search(pos, Limits(depth=4))
    assert result.move in pos.legal_moves() and result.depth == 4
    assert searcher.team is None and searcher.threads == 1
    assert "cannot start helper processes (no processes here)" in capsys.readouterr().err
