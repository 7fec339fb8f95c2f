"""Tournaments through the real command line and the Python API: PGN output replayed through the
rules core, gauntlets, openings, resume after a kill, a Dask cluster, bad options."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from needs import need_module

from xboard_engine.match import EngineConfig, TimeControl, Tournament, read_games, replay, run_match

ROOT = Path(__file__).resolve().parent.parent
ENGINE = f"{sys.executable} -m xboard_engine"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def _match(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "xboard_engine.match", *args], capture_output=True,
                          text=True, timeout=timeout, env=ENV, cwd=str(ROOT))


def _games(path):
    with open(path, encoding="utf-8") as handle:
        return list(read_games(handle))


def _check_replay(game):
    pos = replay(game)          # every move legal
    outcome = pos.outcome()
    if game.tags["Termination"] == "normal" and outcome is not None:
        assert outcome.result == game.result
    return pos


def test_chess80_match_with_concurrency_writes_replayable_pgn(tmp_path):
    pgn = tmp_path / "chess80.pgn"
    done = _match("-engine", "name=first", f"cmd={ENGINE}", "-engine", "name=second", f"cmd={ENGINE}",
                  "-each", "tc=10+0.1", "depth=2", "-variant", "chess80", "-games", "4", "-repeat",
                  "-concurrency", "2", "-maxmoves", "80", "-pgnout", str(pgn), "-event", "CI match")
    assert done.returncode == 0, done.stderr
    assert "Finished match" in done.stdout
    assert "Score of first vs second: Score " in done.stdout
    # depth=2 games: every move our engine makes reports depth 2 (or more for forced replies)
    depth_line = next(line for line in done.stdout.splitlines() if line.startswith("Average depth per move: "))
    for name in ("first", "second"):
        average = float(depth_line.split(f"{name} ")[1].split()[0])
        assert 2.0 <= average < 3.0, depth_line
    games = _games(pgn)
    assert len(games) == 4
    assert sorted(g.tags["Round"] for g in games) == ["1.1", "1.2", "1.3", "1.4"]
    for game in games:
        assert game.tags["Variant"] == "chess80"
        assert game.tags["Event"] == "CI match"
        assert game.tags["TimeControl"] == "10+0.1"
        _check_replay(game)
    colours = {(g.tags["White"], g.tags["Black"]) for g in games}
    assert colours == {("first", "second"), ("second", "first")}


def test_engine_command_as_cutechess_writes_it_program_and_arguments(tmp_path):
    """cutechess-cli's form: cmd= is the program, each argument an arg= of its own."""
    pgn = tmp_path / "args.pgn"
    done = _match("-engine", "name=a", f"cmd={sys.executable}", "arg=-m", "arg=xboard_engine",
                  "-engine", "name=b", f"cmd={sys.executable}", "arg=-m", "arg=xboard_engine",
                  "-each", "depth=1", "-variant", "8piece", "-games", "2", "-maxmoves", "20", "-pgnout", str(pgn))
    assert done.returncode == 0, done.stderr
    games = _games(pgn)
    assert len(games) == 2 and all(len(game.moves) > 2 for game in games)


def test_gauntlet_of_three_engines_random_setups(tmp_path):
    pgn = tmp_path / "gauntlet.pgn"
    done = _match("-engine", "name=hero", f"cmd={ENGINE}", "-engine", "name=v1", f"cmd={ENGINE}",
                  "-engine", "name=v2", f"cmd={ENGINE}", "-each", "depth=1", "tc=20+0.1",
                  "-variant", "8piece-random", "-tournament", "gauntlet", "-games", "2", "-repeat",
                  "-maxmoves", "40", "-concurrency", "2", "-seed", "5", "-pgnout", str(pgn))
    assert done.returncode == 0, done.stderr
    games = _games(pgn)
    assert len(games) == 4
    assert all("hero" in (g.tags["White"], g.tags["Black"]) for g in games)
    assert {g.tags["Black"] if g.tags["White"] == "hero" else g.tags["White"] for g in games} == {"v1", "v2"}
    for game in games:
        assert game.tags["SetUp"] == "1"
        _check_replay(game)
    # the two games of an encounter share the setup, colours reversed
    by_pair = {}
    for game in games:
        by_pair.setdefault(frozenset((game.tags["White"], game.tags["Black"])), set()).add(game.tags["FEN"])
    assert all(len(fens) == 1 for fens in by_pair.values())
    assert "Rank Name" in done.stdout


def test_openings_epd_and_pgn(tmp_path):
    epd = tmp_path / "o.epd"
    epd.write_text("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n")
    openings_pgn = tmp_path / "o.pgn"
    openings_pgn.write_text('[Event "x"]\n\n1. d4 d5 2. c4 *\n')
    for spec, fen_start in ((f"file={epd}", "rnbqkbnr/pppp1ppp/8/4p3/4P3"), (f"file={openings_pgn}", None)):
        pgn = tmp_path / "out.pgn"
        if pgn.exists():
            pgn.unlink()
        done = _match("-engine", "name=a", f"cmd={ENGINE}", "-engine", "name=b", f"cmd={ENGINE}",
                      "-each", "depth=1", "tc=20", "-openings", spec, "-games", "2", "-repeat",
                      "-maxmoves", "20", "-pgnout", str(pgn))
        assert done.returncode == 0, done.stderr
        games = _games(pgn)
        assert len(games) == 2
        for game in games:
            if fen_start:
                assert game.tags["FEN"].startswith(fen_start)
            else:
                assert game.moves[:3] == ["d4", "d5", "c4"]
            _check_replay(game)


def test_resume_after_kill_loses_and_duplicates_nothing(tmp_path):
    pgn = tmp_path / "resume.pgn"
    args = ["-engine", "name=a", f"cmd={ENGINE}", "-engine", "name=b", f"cmd={ENGINE}", "-each", "depth=1",
            "tc=30", "-games", "6", "-repeat", "-maxmoves", "30", "-pgnout", str(pgn), "-variant", "fullcavalry"]
    proc = subprocess.Popen([sys.executable, "-m", "xboard_engine.match", *args], env=ENV, cwd=str(ROOT),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if pgn.exists() and len(_games(pgn)) >= 2:
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    played = len(_games(pgn))
    assert 2 <= played < 6
    done = _match(*args, "-resume")
    assert done.returncode == 0, done.stderr
    assert f"Resuming: {played} games already played, {6 - played} to go" in done.stdout
    games = _games(pgn)
    rounds = [g.tags["Round"] for g in games]
    assert sorted(rounds) == [f"1.{i}" for i in range(1, 7)]
    for game in games:
        _check_replay(game)


def _processes_mentioning(text):
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if text.encode() in handle.read():
                    found.append(int(pid))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def signals_as_at_a_terminal() -> None:
    """The match starts with SIGINT and SIGTERM at their defaults, as from a terminal: a shell's
    background job (``nohup ... &``) ignores SIGINT, and a child inherits that (Python then leaves
    KeyboardInterrupt off), which would test the shell rather than the match."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_to_the_match_alone_stops_it_with_its_games_and_engines(tmp_path, signum):
    """kill -INT or kill PID, sent to xboard-match alone (not its process group, as Ctrl-C is) in the
    middle of two games: it stops at once, and no worker nor engine is left running."""
    marker = str(tmp_path / "engine.log")
    engine = f"{ENGINE} --log {marker}"
    args = ["-engine", "name=a", f"cmd={engine}", "-engine", "name=b", f"cmd={engine}", "-each", "tc=60",
            "-variant", "normal", "-games", "4", "-concurrency", "2", "-event", marker,
            "-pgnout", str(tmp_path / "games.pgn")]
    proc = subprocess.Popen([sys.executable, "-m", "xboard_engine.match", *args], env=ENV, cwd=str(ROOT),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=signals_as_at_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while len(_processes_mentioning(marker)) < 7 and time.monotonic() < deadline:   # match, 2 workers, 4 engines
            time.sleep(0.2)
        assert len(_processes_mentioning(marker)) >= 7
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)        # the workers hold its pipes: they are gone too
        assert proc.returncode == 130 and "interrupted" in err
        deadline = time.monotonic() + 10
        while _processes_mentioning(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _processes_mentioning(marker) == []
    finally:
        for pid in _processes_mentioning(marker):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_python_api_run_match():
    ours = EngineConfig("ours", ENGINE)
    result = run_match([ours, ours._replace(name="ours-2")], "8piece-2019",
                       TimeControl.parse("20+0.1", depth="1"), games=2, repeat=True,
                       adjudication=__import__("xboard_engine.match", fromlist=["Adjudication"]).Adjudication(maxmoves=25),
                       out=open(os.devnull, "w"))
    assert len(result.games) == 2
    score = result.scores[("ours", "ours-2")]
    assert score.games == 2
    for record in result.games:
        assert record.variant == "8piece-2019"
        assert len(record.moves) == len(record.sans) > 0


def test_dask_local_cluster(tmp_path):
    distributed = need_module("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        pgn = tmp_path / "dask.pgn"
        ours = EngineConfig("ours", ENGINE)
        tournament = Tournament([ours, ours._replace(name="ours-2")], "8piece",
                                [TimeControl.parse("20+0.1", depth="1")] * 2, games=4, repeat=True,
                                concurrency=2, pgnout=str(pgn), cluster=cluster.scheduler_address,
                                adjudication=__import__("xboard_engine.match", fromlist=["Adjudication"]).Adjudication(maxmoves=20),
                                out=open(os.devnull, "w"))
        result = tournament.run()
    assert len(result.games) == 4
    games = _games(pgn)
    assert len(games) == 4
    for game in games:
        assert game.tags["Variant"] == "8piece"


@pytest.mark.parametrize("args,message", [
    (["-engine", "cmd=x"], "give at least two -engine options"),
    (["-engine", "cmd=x", "-engine", "cmd=y", "-bogus"], "unknown option '-bogus'"),
    (["-engine", "cmd=x", "-engine", "name=b", "cmd=y", "-variant", "shogi", "-each", "tc=1"], "unknown variant 'shogi'"),
    (["-engine", "cmd=x", "-engine", "name=b", "cmd=y", "-each", "tc=4O/6"], "bad time control '4O/6'"),
    (["-engine", "cmd=x", "-engine", "name=b", "cmd=y"], "no time control"),
    (["-engine", "cmd=x", "-engine", "name=b", "cmd=y", "-each", "tc=1", "-games", "zero"], "-games needs a whole number"),
    (["-engine", "name=a", "cmd=x", "-engine", "name=a", "cmd=y", "-each", "tc=1"], "engine names must differ"),
    (["-engine", "cmd=x", "-engine", "name=b", "cmd=y", "-each", "tc=1", "-openings", "file=/nonexistent.epd"], "cannot read openings file"),
    (["-engine", "cmd=x", "-engine", "name=b", "cmd=y", "-each", "tc=1", "-sprt", "elo0=5"], "-sprt needs"),
])
def test_bad_options_one_line_status_2(args, message):
    done = _match(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xboard-match: error: ")
    assert message in lines[0]


def _scripted_game(white, black, variant, tc, **kw):
    """A stand-in for play_game: the first engine scores W W W D L W W W D L ... (70%)."""
    from xboard_engine.match import GameRecord
    number = int(kw["round_label"].split(".")[1])
    first_result = "WWWDL"[(number - 1) % 5]
    first_is_white = white.name == "first"
    result = {"W": "1-0" if first_is_white else "0-1", "L": "0-1" if first_is_white else "1-0",
              "D": "1/2-1/2"}[first_result]
    return GameRecord(white.name, black.name, variant, None, [], [], result, "normal", "scripted", "-",
                      round=kw["round_label"])


def test_sprt_stops_the_match(monkeypatch):
    from xboard_engine.match import Sprt
    from xboard_engine.match import tournament as module
    monkeypatch.setattr(module, "play_game", _scripted_game)
    engines = [EngineConfig("first", "unused"), EngineConfig("second", "unused")]
    out = __import__("io").StringIO()
    result = Tournament(engines, "normal", [TimeControl.parse("1")] * 2, games=400, repeat=True,
                        sprt=Sprt(0, 50, 0.05, 0.05), out=out).run()
    assert result.stopped_by_sprt == "accept H1"
    assert 10 < len(result.games) < 400
    score = result.scores[("first", "second")]
    assert score.wins > score.losses
    assert "LLR" in out.getvalue() and "SPRT: accept H1" in out.getvalue()
    assert Sprt(0, 50).llr(score) >= Sprt(0, 50).bounds()[1]


def test_uci_engine_without_the_variant_is_refused_before_any_game(tmp_path):
    need_module("sunfish")
    python = sys.executable
    sunfish = EngineConfig("sunfish", f"{python} -c 'import sunfish; sunfish.main()'", proto="uci")
    ours_uci = EngineConfig("ours", f"{python} -m xboard_engine", dir=str(Path(__file__).parent.parent),
                            proto="uci")
    with pytest.raises(ValueError, match="sunfish speaks UCI and its UCI_Variant option offers no variants, "
                                         "not chess80: use proto=xboard"):
        run_match([ours_uci, sunfish], "chess80", TimeControl.parse("5+0.05"), games=2,
                  pgnout=str(tmp_path / "g.pgn"))
    assert not (tmp_path / "g.pgn").exists()
