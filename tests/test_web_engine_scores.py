"""The mate an engine finds reaches the page with the right count, from White's view: our engine over
CECP, our engine over UCI and Stockfish (an outside UCI engine), each playing a seat of the local
web board (`xboard-engine web --engine/--uci-engine`), their thinking lines read from the game's
WebSocket as a page reads them.

Positions (orthodox chess, each checked with an exhaustive search: no shorter mate exists):
* WHITE_MATES_IN_2: after Black's ...Kh8, 1. Rb7 Kg8 2. Ra8#: the page must show "#2".
* BLACK_MATES_IN_3: after White's Ke1, ...Rg2 Kf1 ...Rh2 Ke1 ...Rg1#: the page must show "#-3".
"""
import shlex
import sys

import pytest

from needs import find_program, need_module, needs

need_module("aiohttp")

from live_client import Client, LiveServer, create, run  # noqa: E402

STOCKFISH = find_program("stockfish")
PY = shlex.quote(sys.executable)
DEPTH = 24        # Stockfish reports a longer mate (3) in WHITE_MATES_IN_2 until depth 11; ours stop at a proven mate

WHITE_MATES_IN_2 = ("6k1/8/R7/1R6/8/8/8/2K5 b - - 0 1", "g8h8", "#2")
BLACK_MATES_IN_3 = ("2k5/8/8/6r1/7r/8/8/3K4 w - - 0 1", "d1e1", "#-3")

ENGINES = ["ours-cecp", "ours-uci",
           pytest.param("stockfish", marks=needs("stockfish"))]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    engines = ["--engine", f"ours-cecp={PY} -m xboard_engine", "--uci-engine", f"ours-uci={PY} -m xboard_engine"]
    if STOCKFISH is not None:
        engines += ["--uci-engine", f"stockfish={STOCKFISH}"]
    server = LiveServer(tmp_path_factory.mktemp("scores"), *engines, local=True)
    yield server
    server.stop()


async def engine_lines_after_my_move(board: LiveServer, engine: str, fen: str, my_move: str):
    """The thinking lines the page gets while ``engine`` answers ``my_move`` (a person's move in the
    game from ``fen``), up to its move."""
    me = Client(board)
    assert await me.open_page("/") == 200
    await me.connect("/ws/lobby")
    await me.wait_for("hello")
    me_first = fen.split()[1] == "w"
    seats = [{"kind": "me"}, {"kind": "bot", "engine": engine}]
    created = await create(me, kind="two", variant="normal", tc=f"depth={DEPTH}", fen=fen,
                           seats=seats if me_first else seats[::-1])
    await me.connect(f"/ws/g/{created['gameId']}")
    await me.state(status="playing")
    await me.send({"type": "move", "move": my_move})
    lines = []
    while True:
        message = await me.receive(timeout=60)
        if message.get("type") == "thinking":
            lines.append(message)
        elif message.get("type") == "state" and len(message.get("sans", [])) >= 2:
            break
    await me.close()
    return lines


@pytest.mark.parametrize("fen, my_move, shown", [WHITE_MATES_IN_2, BLACK_MATES_IN_3], ids=["white-2", "black-3"])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_page_shows_the_engines_mate_in_moves_from_whites_view(board, engine, fen, my_move, shown):
    lines = run(engine_lines_after_my_move(board, engine, fen, my_move), timeout=120)
    assert lines and all(line["engine"] == engine for line in lines)
    scores = [line["score"] for line in lines]
    assert scores[-1] == shown, scores               # the line the page keeps showing while the move is played
