"""xboard-match keeps engines between games as cutechess-cli does (``restart=auto|on|off``,
``xboard_engine/match/keeper.py``): every engine start is counted by the engine itself, and the
games played by kept engines are replayed through the rules core."""
import os
import subprocess
import sys
from pathlib import Path
from typing import List

from xboard_engine.match import read_games, replay

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "fake_engines"
PY = sys.executable
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def _match(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "xboard_engine.match", *args], capture_output=True, text=True,
                          timeout=timeout, env=ENV, cwd=str(ROOT))


def _counted(starts: Path) -> str:
    """Our engine (under this Python), appending its process id to ``starts`` as it starts."""
    return f"{PY} {FAKES / 'counted.py'} {starts} --interpreter current"


def _pids(starts: Path) -> List[int]:
    return [int(line) for line in starts.read_text().split()] if starts.exists() else []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _games(path: Path):
    with open(path, encoding="utf-8") as handle:
        return list(read_games(handle))


def test_restart_auto_keeps_a_uci_and_a_cecp_engine_for_every_game_and_quits_them_at_the_end(tmp_path):
    starts_a, starts_b, pgn = tmp_path / "a", tmp_path / "b", tmp_path / "games.pgn"
    done = _match("-engine", "name=uci", f"cmd={_counted(starts_a)}", "proto=uci",
                  "-engine", "name=cecp", f"cmd={_counted(starts_b)}", "proto=xboard",
                  "-each", "depth=1", "tc=60+1", "-variant", "chess80", "-games", "4", "-repeat",
                  "-maxmoves", "30", "-pgnout", str(pgn))
    assert done.returncode == 0, done.stderr
    # the UCI engine is started once more, before the games, to check that it offers the variant
    assert len(_pids(starts_a)) == 2 and len(_pids(starts_b)) == 1, (starts_a.read_text(), starts_b.read_text())
    games = _games(pgn)
    assert len(games) == 4
    assert {(g.tags["White"], g.tags["Black"]) for g in games} == {("uci", "cecp"), ("cecp", "uci")}
    for game in games:
        assert len(game.moves) > 10
        replay(game)
    assert not any(_alive(pid) for pid in _pids(starts_a) + _pids(starts_b))


def test_restart_on_starts_both_engines_for_every_game(tmp_path):
    starts = tmp_path / "starts"
    done = _match("-engine", "name=a", f"cmd={_counted(starts)}", "proto=uci",
                  "-engine", "name=b", f"cmd={_counted(starts)}",
                  "-each", "depth=1", "tc=60+1", "restart=on", "-games", "3", "-maxmoves", "10")
    assert done.returncode == 0, done.stderr
    assert len(_pids(starts)) == 6
    assert "Finished match" in done.stdout


def test_cecp_engine_saying_reuse_0_is_started_again_under_auto_and_kept_under_off(tmp_path):
    for restart, expected in (("auto", 3), ("off", 1)):
        log = tmp_path / f"{restart}.log"
        fake = f"{PY} {FAKES / 'resign.py'} 1000 --reuse 0 --log {log}"
        done = _match("-engine", "name=ours", f"cmd={PY} -m xboard_engine --interpreter current",
                      "-engine", "name=fake", f"cmd={fake}", f"restart={restart}",
                      "-each", "depth=1", "tc=60+1", "-games", "3", "-maxmoves", "8")
        assert done.returncode == 0, done.stderr
        lines = log.read_text().splitlines()
        assert lines.count("protover 2") == expected, (restart, lines)
        if restart == "off":
            # the kept engine is told each game's end, then set up for the next
            results = [i for i, line in enumerate(lines) if line.startswith("result ") and " {" in line]
            assert len(results) == 3
            assert all("new" in lines[i:i + 5] for i in results[:-1])


def test_a_crashed_engine_is_started_again_for_the_next_game(tmp_path):
    starts, log, pgn = tmp_path / "starts", tmp_path / "crash.log", tmp_path / "games.pgn"
    crasher = f"{PY} {FAKES / 'crash.py'} 2 --log {log}"
    done = _match("-engine", "name=ours", f"cmd={_counted(starts)}", "proto=uci",
                  "-engine", "name=crasher", f"cmd={crasher}",
                  "-each", "depth=1", "tc=60+1", "-games", "3", "-recover", "-pgnout", str(pgn))
    assert done.returncode == 0, done.stderr
    games = _games(pgn)
    assert len(games) == 3
    assert all(g.tags["Termination"] == "abandoned" for g in games)
    assert all(g.result == ("1-0" if g.tags["White"] == "ours" else "0-1") for g in games)
    assert log.read_text().splitlines().count("protover 2") == 3     # started again each game
    assert len(_pids(starts)) == 1                                   # ours kept throughout


def test_bad_restart_value_is_refused_with_one_line():
    done = _match("-engine", "name=a", "cmd=x", "restart=sometimes", "-engine", "name=b", "cmd=y")
    assert done.returncode == 2
    assert "unknown restart 'sometimes' (auto, on, off)" in done.stderr
    assert "Traceback" not in done.stderr


def test_python_api_play_game_with_a_keeper_reuses_its_engines_until_close(tmp_path, monkeypatch):
    from xboard_engine.match import Adjudication, EngineConfig, EngineKeeper, TimeControl, play_game
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    starts = tmp_path / "starts"
    white = EngineConfig("white", _counted(starts), proto="uci")
    black = EngineConfig("black", _counted(starts))
    keeper = EngineKeeper()
    try:
        for _ in range(3):
            game = play_game(white, black, "fullcavalry", TimeControl.parse(tc="60+1", depth="1"),
                             adjudication=Adjudication(maxmoves=6), keeper=keeper)
            assert game.result in ("1-0", "0-1", "1/2-1/2") and len(game.moves) >= 10
        pids = _pids(starts)
        assert len(pids) == 2 and keeper.started == 2 and all(_alive(pid) for pid in pids)
    finally:
        keeper.close()
    assert not any(_alive(pid) for pid in pids)
