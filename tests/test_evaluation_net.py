"""The evaluation's net (evaluation_net.py): its lanes kept by make/unmake, and its integer output."""
import random

import pytest

from xboard_engine import Position
from xboard_engine.search import evaluation
from xboard_engine.search.evaluation_net import ACTIVATION, OUTPUT_SHIFT, Net, unit_key


def random_net(variant: str, hidden: int, seed: int) -> dict:
    rng = random.Random(seed)
    v = Position(variant).variant
    keys = {unit_key(v, c) for c in range(1, len(v.kind_of)) if v.kind_of[c] is not None}
    squares = v.files * v.ranks
    return {"hidden": hidden,
            "first": {k: [[rng.randint(-300, 300) for _ in range(hidden)] for _ in range(squares)] for k in keys},
            "bias": [rng.randint(-200, 400) for _ in range(hidden)],
            "output": [rng.randint(-400, 400) for _ in range(hidden)],
            "output bias": rng.randint(-20, 20)}


def direct_output(pos: Position, data: dict) -> int:
    """The net's output computed from the board alone, lane by lane (no packing)."""
    v = pos.variant
    sums = list(data["bias"])
    for side in (0, 1):
        for sq in pos.units[side]:
            column = data["first"][unit_key(v, pos.board[sq])][v.rank_of[sq] * v.files + v.file_of[sq]]
            sums = [a + w for a, w in zip(sums, column)]
    total = sum(w * min(max(a, 0), ACTIVATION) for a, w in zip(sums, data["output"]))
    return data["output bias"] + (total >> OUTPUT_SHIFT if total >= 0 else -(-total >> OUTPUT_SHIFT))


@pytest.mark.parametrize("variant", ["normal", "8piece", "chess80"])
def test_the_lanes_kept_by_push_and_pop_give_the_net_output_of_the_board(variant):
    name = Position(variant).variant.evaluation
    data = random_net(variant, 24, 5)
    without = []
    rng = random.Random(3)
    evaluation.set_net(name, None)          # before the position: its sum is of the tables of its making
    pos = Position(variant)
    try:
        for _ in range(60):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            without.append(evaluation.evaluate(pos))
        history = [pos.pop() for _ in range(len(without))][::-1]
        evaluation.set_net(name, Net(data))
        pos = Position(variant)
        for m, plain in zip(history, without):
            pos.push(m)
            assert pos.score == pos.compute_score()
            low, net = Net(data).split(pos.score)
            assert low == evaluation.split_net(pos.score)
            assert net == direct_output(pos, data)
            sign = 1 if pos.stm == 0 else -1
            assert evaluation.evaluate(pos) == plain + sign * net
        for _ in history:
            pos.pop()
        assert pos.score == pos.compute_score()
    finally:
        evaluation.set_net(name, None)
        evaluation._NETS.pop(name, None)
