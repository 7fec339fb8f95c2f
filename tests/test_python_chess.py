"""python-chess's ``chess.engine`` (a real client of both protocols) drives the engine: a full game of
orthodox chess and of Chess960, an analysis with three lines, and every option set, over UCI and over
XBoard, with no warning logged by python-chess."""
import logging
import sys
import time

import pytest

from needs import need_module

chess = need_module("chess")
import chess.engine  # noqa: E402

from engine_driver import ROOT  # noqa: E402

COMMAND = [sys.executable, "-m", "xboard_engine"]
MAX_PLIES = 400


@pytest.fixture
def warnings(caplog):
    """The warnings python-chess logs while the test runs (checked empty at the end)."""
    caplog.set_level(logging.WARNING, logger="chess.engine")
    yield caplog
    found = [r.getMessage() for phase in ("setup", "call") for r in caplog.get_records(phase)
             if r.levelno >= logging.WARNING]
    assert found == [], found


class popen:
    """The engine started by python-chess over ``protocol``; closed with ``quit`` (SimpleEngine's
    own context manager kills the process, and a command still waiting then fails)."""

    def __init__(self, protocol: str) -> None:
        opener = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
        self.engine = opener(COMMAND, cwd=str(ROOT), timeout=30)

    def __enter__(self) -> "chess.engine.SimpleEngine":
        return self.engine

    def __exit__(self, *exc) -> None:
        self.engine.quit()                      # waits for the engine to exit by itself


def play_out(engine, board: "chess.Board", limit: "chess.engine.Limit") -> "chess.Board":
    """The engine plays both sides until the game ends (or MAX_PLIES); every move is legal."""
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < MAX_PLIES:
        result = engine.play(board, limit)
        assert result.move in board.legal_moves, (result.move, board.fen())
        board.push(result.move)
    return board


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
@pytest.mark.parametrize("chess960", [False, True], ids=["orthodox", "chess960"])
def test_full_game(warnings, protocol, chess960):
    board = chess.Board.from_chess960_pos(314) if chess960 else chess.Board()
    with popen(protocol) as engine:
        # A clock for the first moves (python-chess sends time/otim or wtime/btime), then depth 1.
        for _ in range(6):
            result = engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1,
                                                           black_inc=0.1), info=chess.engine.INFO_ALL)
            assert result.move in board.legal_moves
            board.push(result.move)
        play_out(engine, board, chess.engine.Limit(depth=1))
    assert board.is_game_over(claim_draw=True) or len(board.move_stack) == MAX_PLIES


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
def test_node_and_depth_limits(warnings, protocol):
    """python-chess sends node limits as `go nodes` (UCI) or `nps 1` + `st N` (XBoard, after
    `feature nps=1`)."""
    board = chess.Board()
    with popen(protocol) as engine:
        result = engine.play(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves
        assert 0 < result.info["nodes"] <= 3000
        result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
        assert result.info["depth"] == 3


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
def test_pondering_between_moves(warnings, protocol):
    """``play(..., ponder=True)``: python-chess lets the engine ponder after its move (UCI `go ponder`
    on the expected reply, XBoard `hard`) and stops it before the next one; every move stays legal and
    comes within its time."""
    warnings.set_level(logging.DEBUG, logger="chess.engine")     # python-chess logs every line
    board = chess.Board()
    with popen(protocol) as engine:
        for _ in range(6):
            started = time.monotonic()
            result = engine.play(board, chess.engine.Limit(time=0.3), ponder=True)
            assert time.monotonic() - started < 2.0
            assert result.move in board.legal_moves
            board.push(result.move)
            if result.ponder is not None:
                assert result.ponder in board.legal_moves
            time.sleep(0.3)                     # the engine ponders meanwhile
            reply = list(board.legal_moves)[0] if result.ponder is None else result.ponder
            board.push(reply)
    sent = [r.getMessage() for r in warnings.records if r.levelno == logging.DEBUG and "<<" in r.getMessage()]
    if protocol == "uci":
        assert sum(" go ponder " in line for line in sent) >= 5, sent
    else:
        assert any(line.endswith("<< hard") for line in sent), sent


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
def test_chess960_castles_both_ways(warnings, protocol):
    """The engine's castles are read by python-chess (UCI: king takes rook, XBoard: O-O), and it
    reads python-chess's."""
    board = chess.Board("1r2k2r/8/8/8/8/8/5PPP/1R2K2R w KBkb - 0 1", chess960=True)
    castles = [m for m in board.legal_moves if board.is_castling(m)]
    assert len(castles) == 2
    with popen(protocol) as engine:
        for m in castles:
            if protocol == "uci":
                chosen = engine.play(board, chess.engine.Limit(depth=1), root_moves=[m]).move
            else:                            # python-chess limits root moves in XBoard analysis only
                chosen = engine.analyse(board, chess.engine.Limit(depth=2), root_moves=[m])["pv"][0]
            assert chosen == m
            after = board.copy()
            after.push(m)
            reply = engine.play(after, chess.engine.Limit(depth=1))
            assert reply.move in after.legal_moves


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
def test_analysis_with_three_lines(warnings, protocol):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with popen(protocol) as engine:
        if protocol == "uci":
            infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
            assert [i["multipv"] for i in infos] == [1, 2, 3]
            firsts = [i["pv"][0] for i in infos]
            assert all(i["depth"] == 4 for i in infos)
        else:
            # python-chess refuses multipv for XBoard engines and will not set an option named MultiPV
            # (it manages that name): the line is sent on its event loop, as docs/UCI_AND_TOOLS.md shows.
            engine.protocol.loop.call_soon_threadsafe(engine.protocol.send_line, "option MultiPV=3")
            lines = {}
            with engine.analysis(board) as analysis:
                for info in analysis:
                    if info.get("depth", 0) >= 4:
                        lines.setdefault(info["depth"], []).append(info)
                        if len(lines[info["depth"]]) == 3:
                            break
                analysis.stop()
                analysis.wait()                 # python-chess's `.`, `exit` and ping are answered
            infos = lines[min(lines)]
            firsts = [i["pv"][0] for i in infos]
        assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts)
        scores = [i["score"].white().score(mate_score=100000) for i in infos]
        assert scores == sorted(scores, reverse=True)


UCI_SETTINGS = {"Hash": 16, "Threads": 1, "UCI_LimitStrength": True, "UCI_Elo": 1400, "Skill Level": 12,
                "Move Overhead": 50, "Clear Hash": None, "Setup Number": 3, "Castle With Lancer Turn": False}
XBOARD_SETTINGS = {"Hash": 16, "Skill_Level": 12, "Nodes_per_move": 5000, "Setup_Number": 3,
                   "Castle_With_Lancer_Turn": 1, "Avoid_moves_XBoard_4.9.1_misdraws": 1,
                   "Clear_Hash": None, "memory": 32, "cores": 1,
                   # python-chess's own settings for XBoard engines (sent as commands):
                   "random": True, "computer": True, "name": "tester", "engine_rating": 2000,
                   "opponent_rating": 1800}


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
def test_every_option_is_announced_and_can_be_set(warnings, protocol):
    settings = UCI_SETTINGS if protocol == "uci" else XBOARD_SETTINGS
    managed = {"uci_chess960", "uci_variant", "multipv", "ponder"}     # python-chess sets these itself
    with popen(protocol) as engine:
        offered = {name for name in engine.options if name.lower() not in managed}
        assert offered == set(settings), offered ^ set(settings)
        for name, option in engine.options.items():
            assert " " not in name or protocol == "uci"
        engine.configure(settings)
        result = engine.play(chess.Board(), chess.engine.Limit(depth=2))
        assert result.move in chess.Board().legal_moves
        assert engine.ping() is None
