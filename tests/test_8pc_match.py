"""Unattended 8 Player Chess games: the Python API (xboard_engine.multi.selfplay) and the command
``xboard-engine 8pc`` run as a real process; records replay to the same result."""
import doctest
import json
import os
import subprocess
import sys
import time

import pytest

from xboard_engine.multi import selfplay as match_module
from xboard_engine.multi.cli import PlayerSpec, parse_spec, seat_assignment
from xboard_engine.multi.game import MODES, Game
from xboard_engine.multi.selfplay import MatchError, RandomPlayer, play_game, run_games

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLOURS = ["White", "Red", "Blue", "Yellow", "Purple", "Orange", "Green", "Black"]


def run_8pc(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xboard_engine", "8pc", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def check_records(out_dir: str, games: int) -> list:
    """Every record replays with Game.from_record to the result in results.json; returns the rows."""
    with open(os.path.join(out_dir, "results.json"), encoding="utf-8") as handle:
        rows = json.load(handle)["games"]
    assert len(rows) == games
    for row in rows:
        path = os.path.join(out_dir, f"game-{row['game']:03d}.txt")
        with open(path, encoding="utf-8") as handle:
            game = Game.from_record(handle.read())
        assert row["error"] == ""
        assert list(game.scores) == row["scores"]
        if row["reason"].startswith("unfinished"):
            assert not game.over
        else:
            assert game.over
            assert game.result.reason == row["reason"]
            assert [COLOURS[s] for s in game.result.winners] == row["winners"]
        assert game.mode == row["mode"]
    return rows


# ------------------------------------------------------------------ the command, each mode
@pytest.mark.parametrize("mode", MODES)
def test_command_random_games_in_each_mode_finish_and_replay(tmp_path, mode):
    out = tmp_path / mode
    proc = run_8pc("--bots", "0", "--mode", mode, "--games", "2", "--seed", "11", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "game   1:" in proc.stdout and "game   2:" in proc.stdout
    assert f"2 games of 8 Player Chess, {mode}" in proc.stdout
    assert "mean pts" in proc.stdout
    rows = check_records(str(out), 2)
    assert all(not r["reason"].startswith("unfinished") for r in rows)
    for name in ("results.txt", "results.csv"):
        assert (out / name).read_text(encoding="utf-8").count("\n") >= 3


def test_command_is_reproducible_with_a_seed(tmp_path):
    first = run_8pc("--bots", "0", "--games", "1", "--seed", "5", "--out", str(tmp_path / "a"), "--quiet")
    second = run_8pc("--bots", "0", "--games", "1", "--seed", "5", "--out", str(tmp_path / "b"), "--quiet")
    assert first.returncode == second.returncode == 0
    a = (tmp_path / "a" / "game-001.txt").read_text(encoding="utf-8")
    b = (tmp_path / "b" / "game-001.txt").read_text(encoding="utf-8")
    assert a == b


def test_command_numerals_and_option_records(tmp_path):
    proc = run_8pc("--bots", "0", "--games", "1", "--seed", "3", "--numerals", "--option", "one_point_queen",
                   "--option", "custom_points=P1,N3,B3,R5,Q9,K25", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "game-001.txt").read_text(encoding="utf-8")
    assert "\n1 i. " in text and "\n1 viii. " in text
    assert "one_point_queen" in text
    game = Game.from_record(text)
    assert game.options.one_point_queen and game.values[2] == 3
    check_records(str(tmp_path), 1)


def test_command_max_moves_leaves_a_game_unfinished_that_replays(tmp_path):
    proc = run_8pc("--bots", "0", "--games", "1", "--seed", "2", "--max-moves", "30", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    rows = check_records(str(tmp_path), 1)
    assert rows[0]["reason"] == "unfinished after 30 actions"
    assert '[Result "*"]' in (tmp_path / "game-001.txt").read_text(encoding="utf-8")


def test_command_bots_against_random_players_with_swap(tmp_path):
    proc = run_8pc("--games", "2", "--seed", "7", "--seat", "w,b,p,g=depth1,movetime0.05",
                   "--seat", "r,y,o,n=random", "--swap-halfway", "--max-moves", "120", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    rows = check_records(str(tmp_path), 2)
    assert rows[0]["players"][0] == "bot (depth 1, 0.05 s)" and rows[0]["players"][1] == "random"
    assert rows[1]["players"][0] == "random" and rows[1]["players"][1] == "bot (depth 1, 0.05 s)"
    totals = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["totals"]["players"]
    assert totals["bot (depth 1, 0.05 s)"]["games"] == 8 and totals["random"]["games"] == 8
    assert totals["bot (depth 1, 0.05 s)"]["moves"] > 0


@pytest.mark.parametrize("mode", MODES)
def test_command_eight_depth_one_bots_in_each_mode(tmp_path, mode):
    proc = run_8pc("--mode", mode, "--games", "1", "--depth", "1", "--movetime", "0.05", "--seed", "1",
                   "--max-moves", "80", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    rows = check_records(str(tmp_path), 1)
    assert rows[0]["timeouts"] == 0


def test_command_fewer_bots_fill_the_other_seats_with_random_movers(tmp_path):
    proc = run_8pc("--bots", "2", "--movetime", "0.02", "--games", "1", "--seed", "4", "--max-moves", "40",
                   "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    rows = check_records(str(tmp_path), 1)
    assert rows[0]["players"] == ["bot (0.02 s)"] * 2 + ["random"] * 6


# ------------------------------------------------------------------ bad arguments: one line, exit 2
@pytest.mark.parametrize("args, words", [
    (["--option", "no_such_thing"], "unknown option 'no_such_thing'"),
    (["--mode", "teams", "--option", "one_point_queen"], "not teams"),
    (["--mode", "singles", "--option", "partner_knockout"], "not singles"),
    (["--mode", "teams", "--option", "checkmates_needed=7"], "checkmates_needed is 1, 2, 3 or 4"),
    (["--seat", "x=random"], "'x' names no seat"),
    (["--seat", "w"], "SEATS=SPEC"),
    (["--seat", "w=depthx"], "bad depth"),
    (["--seat", "w=fast"], "unknown word 'fast'"),
    (["--mode", "quads"], "invalid choice: 'quads'"),
    (["--games", "0"], "--games is at least 1"),
    (["--games", "two"], "invalid int value"),
    (["--bots", "9"], "--bots is 0 to 8"),
    (["--swap-halfway", "--rotate"], "do not go together"),
    (["--no-such-flag"], "unrecognized arguments"),
])
def test_bad_arguments_give_one_line_and_exit_2(args, words):
    proc = run_8pc("--bots", "0", *args, timeout=30)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("xboard-engine 8pc: ")
    assert words in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


def test_unwritable_output_directory_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = run_8pc("--bots", "0", "--out", str(blocker / "sub"), timeout=30)
    assert proc.returncode == 2
    assert "cannot create the output directory" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_help_explains_bots_and_seats():
    proc = run_8pc("--help", timeout=30)
    assert proc.returncode == 0
    assert "--bots" in proc.stdout and "random" in proc.stdout and "--seat" in proc.stdout


# ------------------------------------------------------------------ the referee of the Python API
class CrashingPlayer:
    """Leaves a move pushed on the position (as a search that fails half-way would), then raises."""
    name = "crashing"

    def choose(self, game):
        game.position.push(game.legal_moves()[0])
        raise RuntimeError("search exploded")


class IllegalPlayer:
    name = "illegal"

    def choose(self, game):
        return "e4"


class SlowPlayer:
    name = "slow"

    def __init__(self):
        self.inner = RandomPlayer(seed=1)

    def choose(self, game):
        time.sleep(0.05)
        return self.inner.choose(game)


def test_crashing_and_illegal_players_are_timed_out_and_the_game_finishes():
    players = {seat: RandomPlayer(seed=seat) for seat in range(8)}
    players[1] = CrashingPlayer()
    players[2] = IllegalPlayer()
    incidents = []
    game = play_game(players, seed=9, incidents=incidents)
    assert game.over
    assert game.status(1) == "timed out" and game.status(2) == "timed out"
    assert [i.seat for i in incidents] == [1, 2]
    assert "RuntimeError: search exploded" in incidents[0].reason
    assert "changed the game" in incidents[0].reason
    assert "not a legal move" in incidents[1].reason
    assert any("timed out by the match referee" in words for _, words in game.log)
    replayed = Game.from_record(game.record())
    assert replayed.result == game.result


def test_move_time_limit_times_out_a_slow_player():
    players = [RandomPlayer(seed=s) for s in range(8)]
    players[3] = SlowPlayer()
    incidents = []
    game = play_game(players, mode="pairs", seed=4, move_time_limit=0.02, incidents=incidents)
    assert game.over
    assert game.status(3) == "timed out"
    assert incidents[0].seat == 3 and "over the limit of 0.02 s" in incidents[0].reason


def test_run_games_counts_shared_wins_and_writes_records(tmp_path):
    def factory(number, seat):
        return CrashingPlayer() if seat == 0 and number == 1 else RandomPlayer(seed=number * 8 + seat)

    seen = []
    results = run_games(factory, "teams", games=2, seed=21, out_dir=str(tmp_path), on_game=seen.append)
    assert [s.number for s in seen] == [1, 2]
    assert seen[0].incidents and seen[0].incidents[0].seat == 0 and not seen[1].incidents
    assert not results.errors
    wins = sum(t.wins for t in results.by_seat.values())
    decided = sum(1 for g in results.games if g.winners)
    assert abs(wins - 4 * decided) < 1e-9       # a winning team of 4 seats shares one win per seat
    assert results.by_player["crashing"].games == 1 and results.by_player["crashing"].timeouts == 1
    assert sorted(os.listdir(tmp_path)) == ["game-001.txt", "game-002.txt", "results.csv", "results.json",
                                            "results.txt"]
    check_records(str(tmp_path), 2)
    assert "crashing" in results.table()


def test_play_game_wants_a_player_for_every_seat():
    with pytest.raises(MatchError, match="missing: \\[7\\]"):
        play_game([RandomPlayer() for _ in range(7)])


def test_seat_assignment_swaps_halfway_and_rotates():
    a, b = PlayerSpec(False, 2, None, "auto"), PlayerSpec(False, 1, None, "auto")
    specs = [a, b] * 4
    swap = seat_assignment(specs, 10, swap_halfway=True, rotate=False)
    assert swap(1) == specs and swap(5) == specs and swap(6) == [b, a] * 4
    rotate = seat_assignment(specs, 10, swap_halfway=False, rotate=True)
    assert rotate(2) == [b, a] * 4 and rotate(3) == specs


def test_player_specs():
    default = PlayerSpec(False, None, 1.0, "auto")
    assert parse_spec("depth2", default) == PlayerSpec(False, 2, 1.0, "auto")
    assert parse_spec("depth=3, brs, movetime0.5", default) == PlayerSpec(False, 3, 0.5, "brs")
    assert parse_spec("random", default).random
    assert parse_spec("depth2", default).label() == "bot (depth 2, 1 s)"
    untimed = PlayerSpec(False, None, None, "auto")
    assert parse_spec("depth2", untimed) == PlayerSpec(False, 2, None, "auto")      # the depth alone decides
    assert parse_spec("paranoid", untimed) == PlayerSpec(False, None, 1.0, "paranoid")


def test_module_docstring_example_runs():
    failures, attempted = doctest.testmod(match_module, verbose=False)
    assert attempted >= 2 and failures == 0


def test_an_error_inside_a_game_is_reported_and_the_run_goes_on(tmp_path):
    def explode_in_game_one(game, seat, text):
        if game.seed == 31 and len(game.actions) == 20:
            raise KeyError("broken callback")

    results = run_games(lambda n, s: RandomPlayer(seed=s), "singles", games=2, seed=31, out_dir=str(tmp_path),
                        on_move=explode_in_game_one)
    first, second = results.games
    assert first.error == "KeyError: 'broken callback'" and first.reason.startswith("error: KeyError")
    assert first.moves == 20
    assert second.error is None and second.reason and not second.reason.startswith("error")
    assert results.errors == [first]
    assert "ERRORS" in results.table()
    record = (tmp_path / "game-001.txt").read_text(encoding="utf-8")
    assert "{stopped by an error: KeyError" in record
    assert len(Game.from_record(record).actions) == 20


def test_a_timed_out_player_under_zombie_king_is_never_asked_again():
    asked = []

    class NoMovePlayer:
        name = "no move"

        def choose(self, game):
            asked.append(game.turn)
            return None

    players = [NoMovePlayer()] + [RandomPlayer(seed=s) for s in range(1, 8)]
    incidents = []
    game = play_game(players, mode="pairs", options={"zombie_king": True}, seed=3, incidents=incidents)
    assert game.over and asked == [0] and len(incidents) == 1
    assert any(seat == 0 and kind == "move" for seat, kind, _ in game.actions)   # its zombie king moved
    assert Game.from_record(game.record()).result == game.result
