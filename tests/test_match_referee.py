"""The referee (``xboard_engine.match.referee.play_game``) against real engine processes.

Our own engine (``python -m xboard_engine``) plays the deliberately faulty engines in
``tests/fake_engines/`` (illegal moves, crashes, silence, slowness, junk output, false claims,
resignations, a protocol-1 engine, a slow handshake) and itself in every variant; every game record is
replayed through the rules core and its result checked against the final position.
"""
import concurrent.futures
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Optional

import pytest

from needs import find_program, need, need_module

from xboard_engine import Position
from xboard_engine.match.engines import EngineConfig
from xboard_engine.match.referee import Adjudication, GameRecord, TimeControl, play_game

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "fake_engines"
PYTHON = shlex.quote(sys.executable)
VARIANTS = ["normal", "fischerandom", "chess80", "fullcavalry", "8piece", "8piece-random", "8piece-2019"]

# Our engine searches to depth 1 with a clock it never comes near: fast and deterministic.
FAST = TimeControl.parse(tc="60+0.5", depth="1")
WHITE, BLACK = 0, 1
COLOURS = ("White", "Black")


@pytest.fixture(scope="module", autouse=True)
def _pythonpath():
    """The engines (ours and the fakes) import xboard_engine from this checkout."""
    patch = pytest.MonkeyPatch()
    patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    yield
    patch.undo()


def ours(name: str = "ours") -> EngineConfig:
    return EngineConfig(name, f"{PYTHON} -m xboard_engine", dir=str(ROOT))


def fake(script: str, *args: object, name: Optional[str] = None) -> EngineConfig:
    words = [str(FAKES / f"{script}.py")] + [str(a) for a in args]
    return EngineConfig(name or script, PYTHON + " " + " ".join(shlex.quote(w) for w in words))


def against_ours(faulty: EngineConfig, side: int, **kwargs) -> GameRecord:
    """One game, ``faulty`` playing ``side`` against our engine."""
    white, black = (faulty, ours()) if side == WHITE else (ours(), faulty)
    return play_game(white, black, kwargs.pop("variant", "normal"), kwargs.pop("tc", FAST), **kwargs)


def replay(record: GameRecord) -> Position:
    """The record's moves made one by one with the rules core (each must be legal, SAN must match)."""
    if record.start_fen:
        pos = Position.from_fen(record.start_fen, record.variant)
    else:
        assert Position(record.variant).v.setup == "fixed", "random-setup game without its start FEN"
        pos = Position(record.variant)
    assert len(record.moves) == len(record.sans)
    for ply, (text, san) in enumerate(zip(record.moves, record.sans)):
        assert pos.outcome() is None, f"game went on after it was over (ply {ply})"
        move = pos.parse_move(text)
        assert pos.move_text(move) == text
        assert pos.san(move) == san
        pos.push(move)
    return pos


def check_record(record: GameRecord) -> Position:
    """Replay the game; a result decided on the board must be the board's, any other must come from
    a game the board had not ended."""
    pos = replay(record)
    outcome = pos.outcome()
    assert record.result in ("1-0", "0-1", "1/2-1/2")
    if record.termination == "normal" and "resigns" not in record.reason:
        assert outcome is not None, record
        assert outcome.result == record.result
    else:
        assert outcome is None, (record, outcome)
    return pos


def check_forfeit(record: GameRecord, side: int, termination: str, reason: str, plies: Optional[int] = None,
                  on_turn: bool = True) -> None:
    """``side`` lost (``on_turn``: at its turn) with this termination and a reason containing ``reason``."""
    assert (record.result, record.termination) == ("0-1" if side == WHITE else "1-0", termination), record
    assert reason in record.reason, record.reason
    assert record.reason.startswith(COLOURS[side]), record.reason
    pos = check_record(record)
    if on_turn:
        assert pos.stm == side, "the forfeiting side must be the side to move"
    if plies is not None:
        assert len(record.moves) == plies, record.moves


def plies_before_fault(n: int, side: int) -> int:
    """Plies played when the engine on ``side`` reaches its (n+1)-th turn."""
    return 2 * n + side


# ====================================================================== faulty engines
@pytest.mark.parametrize("side", [WHITE, BLACK])
@pytest.mark.parametrize("kind", ["own", "jump"])
def test_illegal_move_loses(side, kind):
    record = against_ours(fake("illegal", 3, "--kind", kind), side)
    check_forfeit(record, side, "rules infraction", "illegal move", plies_before_fault(3, side))
    assert record.engine_failure is None


@pytest.mark.parametrize("side,how", [(WHITE, "exit"), (BLACK, "exit"), (BLACK, "_exit"), (WHITE, "kill"),
                                      (BLACK, "close")])
def test_crash_is_abandoned(side, how):
    record = against_ours(fake("crash", 2, "--how", how), side)
    check_forfeit(record, side, "abandoned", "disconnects", plies_before_fault(2, side))
    assert record.engine_failure == "crash"


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_silent_engine_loses_on_time(side):
    started = time.monotonic()
    faulty_tc = TimeControl.parse(tc="1+0.05")
    tcs = (faulty_tc, FAST) if side == WHITE else (FAST, faulty_tc)
    record = against_ours(fake("silent", 2), side, tc=tcs[0], tc_black=tcs[1])
    check_forfeit(record, side, "time forfeit", "loses on time", plies_before_fault(2, side))
    assert time.monotonic() - started < 15          # waited for its clock, then killed it


def test_silent_engine_loses_on_time_per_move_limit():
    record = against_ours(fake("silent", 1), BLACK, tc_black=TimeControl.parse(st="0.3"))
    check_forfeit(record, BLACK, "time forfeit", "loses on time", plies_before_fault(1, BLACK))


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_slow_engine_loses_on_time(side):
    faulty_tc = TimeControl.parse(tc="1+0.05")
    tcs = (faulty_tc, FAST) if side == WHITE else (FAST, faulty_tc)
    record = against_ours(fake("slow", 2), side, tc=tcs[0], tc_black=tcs[1])
    check_forfeit(record, side, "time forfeit", "loses on time", plies_before_fault(2, side))


def test_clock_runs_down_over_several_moves():
    """0.45 s a move on a 1 s clock without increment: the third move is too late."""
    record = against_ours(fake("slow", 0, "--sleep", "0.45"), BLACK, tc_black=TimeControl.parse(tc="1"))
    check_forfeit(record, BLACK, "time forfeit", "loses on time", plies_before_fault(2, BLACK))


@pytest.mark.parametrize("tc", ["1+0.5", "2/1"])
def test_increment_and_moves_per_session_refill_the_clock(tc):
    """0.45 s a move: an increment of 0.5 s, or 1 s more every 2 moves, keeps the clock positive."""
    record = against_ours(fake("slow", 0, "--sleep", "0.45"), BLACK, tc_black=TimeControl.parse(tc=tc),
                          adjudication=Adjudication(maxmoves=4))
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "adjudication", "Draw by maximum game length"), record
    check_record(record)


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_garbage_then_malformed_move_loses(side):
    record = against_ours(fake("garbage", 1), side)
    check_forfeit(record, side, "rules infraction", "illegal move: zz99", plies_before_fault(1, side))


@pytest.mark.parametrize("text", ["e2", "e9e10", "a0a0", "@@@@", "O-O", "e2e4,e4e5", "\u00e92\u00e94", "x" * 300],
                         ids=lambda text: text[:10])
def test_malformed_move_texts_lose(text):
    record = against_ours(fake("garbage", 0, "--junk", 2, "--move", text), BLACK)
    check_forfeit(record, BLACK, "rules infraction", "illegal move", plies_before_fault(0, BLACK))


def test_thinking_line_with_non_ascii_digit_score():
    """A junk 'thinking' line whose score is a Unicode digit ('²'.isdigit() is True, int('²') raises):
    the referee must not raise; the engine then plays the malformed move and loses."""
    record = against_ours(fake("garbage", 0, "--junk", 0, "--line", "3 \u00b2 10 1000 e7e5"), BLACK)
    check_forfeit(record, BLACK, "rules infraction", "illegal move: zz99", 1)


@pytest.mark.parametrize("side", [WHITE, BLACK])
@pytest.mark.parametrize("claim", ["win", "draw"])
def test_false_result_claim_loses(side, claim):
    record = against_ours(fake("falseclaim", 3, "--claim", claim), side)
    check_forfeit(record, side, "rules infraction", "invalid result claim", plies_before_fault(3, side))


@pytest.mark.parametrize("side", [WHITE, BLACK])
@pytest.mark.parametrize("style", ["word", "result"])
def test_resignation(side, style):
    record = against_ours(fake("resign", 3, "--style", style), side)
    assert (record.result, record.termination) == ("0-1" if side == WHITE else "1-0", "normal"), record
    assert record.reason == f"{COLOURS[side]} resigns"
    assert len(record.moves) == plies_before_fault(3, side)
    pos = check_record(record)
    assert pos.stm == side


@pytest.mark.parametrize("side,style", [(BLACK, "move"), (WHITE, "numbered")])
def test_protocol_1_engine_is_playable(side, style):
    """No features at all (the referee waits 2 s for them), bare move texts; "numbered" answers in the
    old "1. ... e7e5" form, which CECP still accepts from engines."""
    short = TimeControl.parse(tc="5+0.1")
    tcs = (short, FAST) if side == WHITE else (FAST, short)
    record = against_ours(fake("nofeatures", "--style", style), side, tc=tcs[0], tc_black=tcs[1],
                          adjudication=Adjudication(maxmoves=5))
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "adjudication", "Draw by maximum game length"), record
    assert len(record.moves) == 10
    check_record(record)


def test_feature_done_0_waits_for_done_1():
    """CECP: after ``feature done=0`` the GUI waits for ``feature done=1`` (the 2 s protocol-1 timeout
    no longer applies).  The engine needs 3 s to initialise and then asks for usermove=1."""
    record = against_ours(fake("slowinit", "--delay", 3), BLACK, adjudication=Adjudication(maxmoves=3))
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "adjudication", "Draw by maximum game length"), record
    check_record(record)


def test_engine_that_cannot_start_forfeits():
    record = play_game(EngineConfig("missing", "/nonexistent/engine --x"), ours(), "normal", FAST)
    assert (record.result, record.termination) == ("0-1", "abandoned"), record
    assert record.moves == [] and record.engine_failure == "crash"


# ====================================================================== our engine in every variant
@pytest.fixture(scope="module")
def selfplay():
    """One full game of our engine against itself per variant (run two at a time)."""
    def one(variant):
        return play_game(ours("ours-1"), ours("ours-2"), variant, FAST, event="selfplay", round_label=variant)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(VARIANTS, pool.map(one, VARIANTS)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_selfplay_every_variant(selfplay, variant):
    record = selfplay[variant]
    assert record.termination == "normal", record
    assert record.variant == variant and (record.event, record.round) == ("selfplay", variant)
    assert (record.white, record.black) == ("ours-1", "ours-2")
    if Position(variant).v.setup == "fixed":
        assert record.start_fen is None
    else:
        assert record.start_fen is not None
    assert len(record.move_seconds) == len(record.moves)
    pos = check_record(record)
    outcome = pos.outcome()
    assert record.result == outcome.result
    expected = {"checkmate": ("White" if outcome.winner == "w" else "Black") + " mates",
                "stalemate": "stalemate", "threefold_repetition": "repetition",
                "fifty_moves": "fifty moves", "insufficient_material": "insufficient"}[outcome.termination]
    assert expected in record.reason, (record.reason, outcome)


# ====================================================================== adjudication
def test_maxmoves_adjudication():
    record = play_game(ours(), ours(), "normal", FAST, adjudication=Adjudication(maxmoves=10))
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "adjudication", "Draw by maximum game length")
    assert len(record.moves) == 20
    check_record(record)


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_resign_adjudication(side):
    """An engine reporting -900 before each move loses once it has done so twice."""
    record = against_ours(fake("scorer", "--scores=-900"), side,
                          adjudication=Adjudication(resign_movecount=2, resign_score=500))
    check_forfeit(record, side, "adjudication", "resigns (adjudication)", 3 + side, on_turn=False)


def test_a_mate_score_counts_for_resign_adjudication_beyond_any_centipawn_threshold():
    """CECP -100003 is "mated in 3 moves": worse than any centipawn score, however large the threshold."""
    record = against_ours(fake("scorer", "--scores=-100003"), BLACK,
                          adjudication=Adjudication(resign_movecount=2, resign_score=150000))
    check_forfeit(record, BLACK, "adjudication", "resigns (adjudication)", 4, on_turn=False)


def test_resign_adjudication_needs_consecutive_scores():
    record = against_ours(fake("scorer", "--scores=-900,-100,-900,-900"), BLACK,
                          adjudication=Adjudication(resign_movecount=2, resign_score=500, maxmoves=6))
    check_forfeit(record, BLACK, "adjudication", "resigns (adjudication)", 8, on_turn=False)


def test_resign_adjudication_two_sided():
    adjudication = Adjudication(resign_movecount=2, resign_score=500, resign_twosided=True, maxmoves=4)
    loser = fake("scorer", "--scores=-900")
    record = play_game(fake("scorer", "--scores=900"), loser, "normal", FAST, adjudication=adjudication)
    check_forfeit(record, BLACK, "adjudication", "resigns (adjudication)", 4, on_turn=False)
    # the winner does not agree: no resignation, the game runs to maxmoves
    record = play_game(fake("scorer", "--scores=0"), loser, "normal", FAST, adjudication=adjudication)
    assert (record.result, record.reason) == ("1/2-1/2", "Draw by maximum game length"), record


def test_resign_adjudication_ignores_moves_without_a_score():
    """A score counts for the move it was given with; a move played without any thinking output
    carries no score (cutechess resets the count) and must not repeat the previous one."""
    record = against_ours(fake("scorer", "--scores=-900,x"), BLACK,
                          adjudication=Adjudication(resign_movecount=3, resign_score=500, maxmoves=5))
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "adjudication", "Draw by maximum game length"), record


KNIGHTS_WHITE = "g1f3,f3g1,g1f3,f3g1,g1f3,f3g1"
KNIGHTS_BLACK = "g8f6,f6g8,g8f6,f6g8,g8f6,f6g8"


def test_draw_adjudication():
    adjudication = Adjudication(draw_movenumber=2, draw_movecount=2, draw_score=10)
    record = play_game(fake("scorer", "--moves", KNIGHTS_WHITE, "--scores", 5),
                       fake("scorer", "--moves", KNIGHTS_BLACK, "--scores=-3"), "normal", FAST,
                       adjudication=adjudication)
    assert (record.result, record.termination, record.reason) == ("1/2-1/2", "adjudication", "Draw by adjudication")
    assert record.moves == ["g1f3", "g8f6", "f3g1", "f6g8"]
    check_record(record)


def test_draw_adjudication_needs_small_scores():
    adjudication = Adjudication(draw_movenumber=2, draw_movecount=2, draw_score=10)
    record = play_game(fake("scorer", "--moves", KNIGHTS_WHITE, "--scores", 50),
                       fake("scorer", "--moves", KNIGHTS_BLACK, "--scores", 0), "normal", FAST,
                       adjudication=adjudication)
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "normal", "Draw by 3-fold repetition"), record
    assert len(record.moves) == 8
    check_record(record)


def test_a_mate_score_is_never_drawish():
    """CECP 100002 / -100002 (mate in 2 / mated in 2) are beyond any draw threshold: the game goes
    on to its repetition."""
    adjudication = Adjudication(draw_movenumber=1, draw_movecount=2, draw_score=150000)
    record = play_game(fake("scorer", "--moves", KNIGHTS_WHITE, "--scores", 100002),
                       fake("scorer", "--moves", KNIGHTS_BLACK, "--scores=-100002"), "normal", FAST,
                       adjudication=adjudication)
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "normal", "Draw by 3-fold repetition"), record


def test_draw_adjudication_count_restarts_at_pawn_moves_and_captures():
    """cutechess-cli's -draw: 'captures and pawn moves reset the counter' (GameAdjudicator::
    resetDrawMoveCount on every irreversible move).  Black moves a pawn every move: never adjudicated."""
    adjudication = Adjudication(draw_movenumber=1, draw_movecount=2, draw_score=10, maxmoves=6)
    record = play_game(fake("scorer", "--moves", KNIGHTS_WHITE, "--scores", 0),
                       fake("scorer", "--moves", "a7a6,a6a5,a5a4,h7h6,h6h5,h5h4", "--scores", 0), "normal",
                       FAST, adjudication=adjudication)
    assert (record.result, record.termination, record.reason) == \
        ("1/2-1/2", "adjudication", "Draw by maximum game length"), record


# ====================================================================== openings and start positions
def test_opening_moves():
    record = play_game(ours(), ours(), "normal", FAST, opening=["e2e4", "e7e5"],
                       adjudication=Adjudication(maxmoves=4))
    assert record.moves[:2] == ["e2e4", "e7e5"] and record.sans[:2] == ["e4", "e5"]
    assert record.opening_plies == 2 and len(record.moves) == 8
    assert len(record.move_seconds) == 6                 # engine moves only
    assert record.reason == "Draw by maximum game length"
    check_record(record)


def test_opening_leaving_black_to_move_with_fake_black():
    """The engine to move first after the opening is Black; the fake checks every move it is sent."""
    record = play_game(ours(), fake("scorer"), "normal", FAST, opening=["d2d4", "g8f6", "c2c4"],
                       adjudication=Adjudication(maxmoves=4))
    assert record.moves[:3] == ["d2d4", "g8f6", "c2c4"] and record.opening_plies == 3
    assert (record.result, record.reason) == ("1/2-1/2", "Draw by maximum game length"), record
    check_record(record)


@pytest.mark.parametrize("fen,result,move,reason", [
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "1-0", "a1a8", "White mates"),
    ("r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "0-1", "a8a1", "Black mates"),
])
def test_start_fen_mate_in_one(fen, result, move, reason):
    record = play_game(ours(), ours(), "normal", TimeControl.parse(tc="60+0.5", depth="2"), start_fen=fen)
    assert (record.result, record.termination, record.reason) == (result, "normal", reason), record
    assert record.moves == [move] and record.start_fen == fen
    check_record(record)


def test_start_fen_and_opening_in_chess80():
    fen = Position("chess80").fen()
    record = play_game(ours(), fake("scorer"), "chess80", FAST, start_fen=fen, opening=["e2e4"],
                       adjudication=Adjudication(maxmoves=3))
    assert record.start_fen == fen and record.moves[0] == "e2e4"
    assert (record.result, record.reason) == ("1/2-1/2", "Draw by maximum game length"), record
    check_record(record)


def test_fake_engine_in_random_setup_variant():
    record = against_ours(fake("scorer"), BLACK, variant="8piece-random", adjudication=Adjudication(maxmoves=3))
    assert record.start_fen is not None
    # The setup is drawn at random: in a few of them our engine (White) mates the scoring fake within
    # the three moves (seen once in CI); otherwise the game is adjudicated at the limit.
    assert (record.result, record.reason) in (("1/2-1/2", "Draw by maximum game length"), ("1-0", "White mates")), record
    assert len(record.moves) <= 6 and (record.reason == "White mates") == (record.result == "1-0")
    check_record(record)


# ====================================================================== time controls as sent
def test_depth_only_time_control_does_not_tell_engines_their_clock_is_zero(tmp_path):
    """With depth= alone there is no clock (the engines get ``level 0 9999 0``); telling them
    ``time 0`` makes a clock-obeying engine (ours) move at once instead of searching to the depth."""
    logs = [tmp_path / "white.log", tmp_path / "black.log"]
    record = play_game(fake("scorer", "--log", logs[0]), fake("scorer", "--log", logs[1]), "normal",
                       TimeControl.parse(depth="3"), adjudication=Adjudication(maxmoves=2))
    assert record.reason == "Draw by maximum game length", record
    received = logs[0].read_text().splitlines() + logs[1].read_text().splitlines()
    assert "sd 3" in received
    assert not [line for line in received if line in ("time 0", "otim 0")], received


def test_nodes_limit_over_cecp_is_nodes_per_move():
    """nodes= alone: the referee sends ``st 1`` and ``nps N`` (as cutechess-cli does), so an engine
    searches N nodes a move; with ``nps`` and the clockless ``level`` alone ours thought for minutes."""
    record = play_game(ours(), ours(), "normal", TimeControl.parse(nodes="2000"), adjudication=Adjudication(maxmoves=3))
    assert record.reason == "Draw by maximum game length", record
    assert max(record.move_seconds) < 5, record.move_seconds


def test_subsecond_st_is_not_forfeited_by_an_engine_keeping_the_time_it_was_told():
    """st=0.3: the referee sends ``st 1`` (CECP st takes whole seconds) but forfeits after 0.3 s +
    margin; our engine, using the second it was given, loses on its first move."""
    record = play_game(ours(), ours(), "normal", TimeControl.parse(st="0.3"), adjudication=Adjudication(maxmoves=2))
    assert record.termination != "time forfeit", record
    assert (record.result, record.reason) == ("1/2-1/2", "Draw by maximum game length"), record


# ====================================================================== UCI
@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_uci_fake_engine(side):
    uci = EngineConfig("uci_random", f"{PYTHON} {shlex.quote(str(FAKES / 'uci_random.py'))} --seed {side + 5}",
                       proto="uci")
    record = against_ours(uci, side, adjudication=Adjudication(maxmoves=15))
    assert record.termination in ("normal", "adjudication"), record
    check_record(record)


@pytest.mark.parametrize("variant,fen", [
    ("normal", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"),
    ("fischerandom", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"),
])
def test_uci_castling_both_ways(variant, fen):
    """The UCI engine castles at once (UCI form: e1g1, or king takes rook in Chess960) and is told our
    engine's castling in the same form."""
    uci = EngineConfig("uci_random", f"{PYTHON} {shlex.quote(str(FAKES / 'uci_random.py'))} --castle",
                       proto="uci")
    record = play_game(uci, ours(), variant, FAST, start_fen=fen, opening=[],
                       adjudication=Adjudication(maxmoves=3))
    assert record.sans[0] in ("O-O", "O-O-O"), record
    assert (record.result, record.reason) == ("1/2-1/2", "Draw by maximum game length"), record
    check_record(record)
    # a castling in the opening reaches the UCI engine in UCI form
    record = play_game(uci, ours(), variant, FAST, start_fen=fen, opening=["O-O"],
                       adjudication=Adjudication(maxmoves=3))
    assert (record.result, record.reason) == ("1/2-1/2", "Draw by maximum game length"), record
    check_record(record)


def ours_uci(name: str = "ours-uci") -> EngineConfig:
    return EngineConfig(name, f"{PYTHON} -m xboard_engine", dir=str(ROOT), proto="uci")


@pytest.mark.parametrize("variant", VARIANTS)
def test_ours_over_uci_against_ours_over_cecp_in_every_variant(variant):
    """The same engine over either protocol plays the same game (depth 1 is deterministic): UCI as
    White against CECP, CECP against UCI, and CECP against CECP give one move list, every move
    refereed by the rules core."""
    start = Position(variant, number=5).fen() if variant in ("8piece-random", "fischerandom") else None
    rules = Adjudication(maxmoves=40)
    # Over UCI the engine castles with a lancer turn by default; over CECP only with this option
    # (XBoard relays such castles without the turn).
    cecp = [ours(name)._replace(options=(("Castle_with_lancer_turn", "1"),)) for name in ("ours", "ours-2")]
    games = [play_game(white, black, variant, FAST, start_fen=start, adjudication=rules)
             for white, black in ((ours_uci(), cecp[0]), (cecp[0], ours_uci("uci-2")), (cecp[0], cecp[1]))]
    for record in games:
        assert record.engine_failure is None, record
        assert record.termination in ("normal", "adjudication"), record
        check_record(record)
    assert games[0].moves == games[1].moves == games[2].moves
    assert (games[0].result, games[0].reason) == (games[1].result, games[1].reason)
    assert len(games[0].moves) > 10


def test_uci_engine_without_the_variant_forfeits_with_the_reason():
    sunfish = EngineConfig("sunfish", f"{PYTHON} -c 'import sunfish; sunfish.main()'", proto="uci")
    need_module("sunfish")
    record = play_game(sunfish, ours(), "chess80", FAST)
    assert record.engine_failure == "protocol"
    assert "cannot play chess80: its UCI_Variant option offers no variants" in record.reason


def test_ours_over_uci_against_sunfish():
    need_module("sunfish")
    sunfish = EngineConfig("sunfish", f"{PYTHON} -c 'import sunfish; sunfish.main()'", proto="uci")
    for white, black in ((sunfish, ours_uci()), (ours_uci(), sunfish)):
        record = play_game(white, black, "normal", TimeControl.parse(tc="60+0.5", depth="2"),
                           adjudication=Adjudication(maxmoves=40))
        assert record.termination in ("normal", "adjudication"), record
        assert record.engine_failure is None
        assert all(d >= 1 for d in record.depths[0] + record.depths[1])
        check_record(record)


def test_sunfish_uci():
    need_module("sunfish")
    sunfish = EngineConfig("sunfish", f"{PYTHON} -c 'import sunfish; sunfish.main()'", proto="uci")
    for side in (WHITE, BLACK):
        record = against_ours(sunfish, side, tc=TimeControl.parse(tc="60+0.5", depth="2"),
                              adjudication=Adjudication(maxmoves=40))
        assert record.termination in ("normal", "adjudication"), record
        assert record.engine_failure is None
        assert record.depths[side] and all(d >= 1 for d in record.depths[side])     # UCI "info depth"
        assert 2 in record.depths[1 - side] and max(record.depths[1 - side]) <= 3      # ours at depth=2
        check_record(record)


FAIRYMAX = find_program("fairymax")
FAIRYMAX_CHESS80_INI = ROOT / "scripts" / "fairymax" / "chess80.ini"


def fairymax(*args: str) -> EngineConfig:
    need("fairymax")
    return EngineConfig("fairymax", " ".join(shlex.quote(w) for w in (FAIRYMAX,) + args))


@pytest.mark.parametrize("variant,args,opening", [
    ("normal", (), ["e2e4", "c7c5"]),
    ("chess80", (str(FAIRYMAX_CHESS80_INI),), ["e2e4", "d8f6"]),   # our ini's Chess80, the Duke leaping
])
@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_fairymax_plays_from_opening_moves(variant, args, opening, side):
    """A real foreign XBoard engine (C, ``setboard=0``): the opening is sent as moves, every move it
    plays is legal by our rules core, and it keeps its clock."""
    record = against_ours(fairymax(*args), side, variant=variant, opening=opening,
                          tc=TimeControl.parse(tc="60+0.5", depth="2"), adjudication=Adjudication(maxmoves=12))
    assert record.moves[:2] == opening
    assert record.termination in ("adjudication", "normal") and record.engine_failure is None, record
    assert len(record.moves) == 24 or record.termination == "normal"     # 12 moves each, or a mate
    check_record(record)


def test_engine_without_setboard_given_a_position_forfeits_with_the_reason():
    """Fairy-Max announces ``setboard=0``: a start position it cannot be given is its forfeit, with a
    reason that says what to do (openings as moves), not a game played from the wrong position."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    record = against_ours(fairymax(), BLACK, start_fen=fen)
    assert record.result == "1-0" and record.moves == [], record
    assert (record.termination, record.engine_failure) == ("abandoned", "protocol"), record
    assert "setboard=0" in record.reason and "format=pgn" in record.reason, record


@pytest.mark.parametrize("fen,san,uci", [
    ("3k4/8/8/8/8/8/8/4RKR1 w KQ - 0 1", "O-O", "f1g1"),        # king and rook swap
    ("3k4/8/8/8/8/8/8/4RKR1 w KQ - 0 1", "O-O-O", "f1e1"),
    ("3k4/8/8/8/8/8/8/R5KR w KQ - 0 1", "O-O", "g1h1"),         # the king stays on g1
    ("3k4/8/8/8/8/8/8/1R2KR2 w KQ - 0 1", "O-O", "e1f1"),       # the rook stays on f1
    ("1rk2r2/8/8/8/8/8/8/3K4 b kq - 0 1", "O-O-O", "c8b8"),
])
def test_chess960_castles_in_uci_are_king_takes_rook(fen, san, uci):
    pos = Position.from_fen(fen, "fischerandom")
    move = next(m for m in pos.legal_moves() if pos.is_castle(m) and pos.move_text(m) == san)
    assert pos.uci_text(move) == uci
    assert pos.parse_uci(uci) == move
