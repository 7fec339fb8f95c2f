"""The search: it finds forced mates and material in every variant, its transposition table keeps
mate scores and its best entries, and it stays within its limits.

Mates are checked by a brute-force solver over the rules core, independent of the search: the move the
engine plays must force mate in the number of moves it announces."""
import subprocess
import sys

import pytest

from tactics_suite import MATES, WINS, forces_mate, played_mate
from xboard_engine import Position
from xboard_engine.search.alphabeta import _from_table, _to_table
from xboard_engine.search.score import from_search
from xboard_engine.search.searcher import MATE, FEATURES, Limits, Searcher
from xboard_engine.search.ttable import EXACT, LOWER, TranspositionTable


@pytest.mark.parametrize("variant,fen,moves,what", MATES, ids=[m[3] for m in MATES])
def test_search_finds_forced_mate(variant, fen, moves, what):
    pos = Position.from_fen(fen, variant)
    assert forces_mate(pos, moves) and (moves == 1 or not forces_mate(pos, moves - 1)), \
        f"test position has no shortest mate in {moves}: {what}"
    # Two plies beyond the mate: reductions and futility pruning may need an extra iteration to see
    # it (the king + jailer mate in 3 is found at depth 8, not 7).
    result = Searcher(hash_mb=8).search(pos, Limits(depth=2 * moves + 2))
    assert result.score == MATE - (2 * moves - 1), (what, pos.move_text(result.move), result.score)
    assert from_search(result.score).cecp() == 100000 + moves
    assert played_mate(pos, result.move, moves), f"{what}: {pos.move_text(result.move)} does not mate"


@pytest.mark.parametrize("variant,fen,best,what", WINS, ids=[w[3] for w in WINS])
def test_search_wins_or_keeps_material(variant, fen, best, what):
    pos = Position.from_fen(fen, variant)
    result = Searcher(hash_mb=8).search(pos, Limits(depth=4))
    if best is not None:
        assert pos.move_text(result.move) == best, what
    # Whatever it plays, a deeper look must not find it losing material it had.
    before = pos.material_and_placement() if pos.stm == 0 else -pos.material_and_placement()
    pos.push(result.move)
    reply = Searcher(hash_mb=8).search(pos, Limits(depth=3))
    assert -reply.score >= before - 50, (what, result.move, reply.score)


def test_transposition_table_keeps_mate_distance_from_the_node():
    # A mate in 3 plies found 5 plies below the root is stored as mate in 3 from that node.
    found = MATE - 8
    stored = _to_table(found, 5)
    assert stored == MATE - 3
    assert _from_table(stored, 2) == MATE - 5     # read back 2 plies below the root
    assert _from_table(_to_table(-found, 5), 5) == -found
    assert _to_table(37, 9) == 37


def test_transposition_table_replacement():
    tt = TranspositionTable(1)
    mask = tt.mask
    a, b, c = 5, 5 + (mask + 1), 5 + 2 * (mask + 1)     # one bucket
    tt.store(a, 8, 10, EXACT, None)
    tt.store(b, 3, 20, LOWER, None)                  # shallower: goes to the second entry
    assert tt.probe(a)[1] == 8 and tt.probe(b)[1] == 3
    tt.store(c, 2, 30, EXACT, None)                  # the second entry always takes the newest
    assert tt.probe(b) is None and tt.probe(c)[2] == 30 and tt.probe(a)[2] == 10
    tt.age += 1                                      # a new search: old deep entries give way
    tt.store(b, 1, 40, EXACT, None)
    assert tt.probe(b)[2] == 40 and tt.probe(a)[2] == 10   # displaced into the second entry
    assert tt.probe(c) is None


def test_transposition_table_size_follows_memory():
    small, large = TranspositionTable(1), TranspositionTable(16)
    assert small.size * 16 == large.size
    searcher = Searcher(hash_mb=1)
    searcher.set_hash_size(4)
    searcher.search(Position("normal"), Limits(depth=1))
    assert searcher.tt.megabytes == 4 and searcher.tt.size == 4 * small.size


def test_search_obeys_node_limit_and_is_deterministic():
    pos = Position("8piece")
    first = Searcher(hash_mb=8).search(pos, Limits(depth=4))
    again = Searcher(hash_mb=8).search(Position("8piece"), Limits(depth=4))
    assert (first.move, first.nodes, first.score) == (again.move, again.nodes, again.score)
    limited = Searcher(hash_mb=8).search(pos, Limits(nodes=500))
    assert limited.nodes <= 500 and limited.move in pos.legal_moves()


@pytest.mark.parametrize("feature", FEATURES)
def test_each_search_feature_can_be_switched_off(feature):
    pos = Position.from_fen("k7/8/2K5/8/8/8/8/7Q w - - 0 1", "normal")
    result = Searcher(hash_mb=8, off=[feature]).search(pos, Limits(depth=5))
    assert result.score == MATE - 3 and played_mate(pos, result.move, 2)


def test_unknown_search_feature_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown search features"):
        Searcher(off=["nullmove", "bogus"])
    run = subprocess.run([sys.executable, "-m", "xboard_engine"], input="quit\n", capture_output=True,
                         text=True, timeout=30, env={"XBOARD_ENGINE_SEARCH_OFF": "lmr,bogus", "PATH": ""})
    assert run.returncode == 2 and "bogus" in run.stderr and "Traceback" not in run.stderr


def test_opening_prefers_a_centre_pawn_to_a_wing_pawn():
    for variant in ("normal", "chess80", "fullcavalry"):
        pos = Position(variant)
        move = Searcher(hash_mb=8).search(pos, Limits(depth=3)).move
        assert pos.move_text(move)[0] not in "ahj", (variant, pos.move_text(move))


def _self_play(pos: Position, nodes: int, plies: int) -> Position:
    searcher = Searcher(hash_mb=8)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        pos.push(searcher.search(pos, Limits(nodes=nodes)).move)
    return pos


@pytest.mark.parametrize("variant,fen", [
    ("normal", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),           # mate in 20 moves (without the drive: none)
    ("8piece", "8/8/8/3k4/8/8/8/J3K3 w - - 0 1"),           # king and jailer, with the pass rule
])
def test_engine_mates_a_lone_king_playing_both_sides(variant, fen):
    end = _self_play(Position.from_fen(fen, variant), nodes=8000, plies=100)
    outcome = end.outcome()
    assert outcome is not None and (outcome.winner, outcome.termination) == ("w", "checkmate"), \
        (end.fen(), outcome)


def test_mop_up_drives_the_bare_king_to_the_edge_and_the_bishops_corner():
    from xboard_engine.search.mop_up import mop_up
    centre = mop_up(Position.from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"))
    edge = mop_up(Position.from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    assert 0 < centre < edge
    assert mop_up(Position.from_fen("4K3/8/8/8/8/8/8/r3k3 w - - 0 1")) < 0    # Black hunts
    assert mop_up(Position.from_fen("4k3/8/8/8/8/8/8/r3K2R w - - 0 1")) == 0  # nobody is bare
    # Bishop on b1 (light): a8 is its corner, h8 is not.
    assert mop_up(Position.from_fen("k7/8/8/8/8/8/8/KBN5 w - - 0 1")) > \
        mop_up(Position.from_fen("7k/8/8/8/8/8/8/KBN5 w - - 0 1"))


def test_mop_up_takes_the_bare_kings_room_away_with_one_unit():
    """With king and one unit (mates on any edge), each square next to the bare king that no hunter
    attacks costs the hunter MOP_UP_ROOM; the king is lifted off, so a check covers what lies behind."""
    from xboard_engine.search.mop_up import MOP_UP_ROOM, mop_up
    # Kings on e8 and e1 in both: rook on a1 leaves d8 f8 d7 e7 f7 (5), on a7 only d8 f8 (2).
    free = mop_up(Position.from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"))
    cut = mop_up(Position.from_fen("4k3/R7/8/8/8/8/8/4K3 b - - 0 1"))
    assert cut - free == 3 * MOP_UP_ROOM
    # Rook checking from a8: f8 behind the king is covered too (d7 e7 f7 left: 3, not 4).
    check = mop_up(Position.from_fen("R3k3/8/8/8/8/8/8/4K3 b - - 0 1"))
    assert check - free == 2 * MOP_UP_ROOM
    # A lancer (Full Cavalry) facing east on a7 covers the seventh rank as the rook did.
    lancer = mop_up(Position.from_fen("4k3/E7/8/8/8/8/8/4K3 b - - 0 1", "fullcavalry"))
    facing_away = mop_up(Position.from_fen("4k3/M7/8/8/8/8/8/4K3 b - - 0 1", "fullcavalry"))
    assert lancer - facing_away == 3 * MOP_UP_ROOM


@pytest.mark.parametrize("skill", [0, 4])
def test_weakened_search_reports_the_chosen_moves_own_score(skill):
    """A skill limit picks moves by score plus a random root bonus (up to 15 cp per missing level),
    but the score it reports is the chosen move's own: what a full-strength search of that move to
    the same depth gives, not inflated by the bonus."""
    pos = Position()
    pos.push(pos.parse_uci("e2e4"))
    depth = 1 + skill // 2
    for _ in range(5):
        weak = Searcher().search(pos.copy(), Limits(skill=skill))
        assert weak.depth == depth
        honest = Searcher().search(pos.copy(), Limits(depth=depth, searchmoves=[weak.move]))
        assert weak.score == honest.score, (skill, pos.uci_text(weak.move), weak.score, honest.score)


def test_each_position_searched_is_counted_once(monkeypatch):
    """A node at the horizon goes from the full-width search to the quiescence search: it is one
    position and counts once (it counted twice before: a third of the nodes reported were such
    doubles)."""
    from xboard_engine.search.alphabeta import AlphaBeta
    visited = []
    search, quiesce = AlphaBeta._search, AlphaBeta._quiesce

    def counting_search(self, pos, depth, *args, **kwargs):
        visited.append(("search", pos.hash, len(pos.move_stack)))
        return search(self, pos, depth, *args, **kwargs)

    def counting_quiesce(self, pos, *args, **kwargs):
        visited.append(("quiesce", pos.hash, len(pos.move_stack)))
        return quiesce(self, pos, *args, **kwargs)

    monkeypatch.setattr(AlphaBeta, "_search", counting_search)
    monkeypatch.setattr(AlphaBeta, "_quiesce", counting_quiesce)
    pos = Position.from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    result = Searcher(hash_mb=8).search(pos, Limits(depth=4))
    # A quiescence call made by the full-width search for the same position is the same node.
    handed_over = sum(1 for a, b in zip(visited, visited[1:])
                      if a[0] == "search" and b[0] == "quiesce" and a[1:] == b[1:])
    assert handed_over > result.nodes // 10
    assert result.nodes == len(visited) - handed_over


def test_history_is_halved_when_any_malus_runs_past_the_limit():
    """A cut-off's malus can push any of the quiet moves tried before it past -HISTORY_MAX, not only
    the last one: the table is halved then, as it is when the bonus runs past +HISTORY_MAX."""
    from xboard_engine.search.alphabeta import HISTORY_MAX, AlphaBeta
    pos = Position("normal")
    first, second, best = pos.legal_moves()[:3]
    search = AlphaBeta({f: True for f in FEATURES}, 1)
    key = lambda m: m.frm << 12 | m.to
    search._history[0] = {key(first): -HISTORY_MAX + 1, key(second): 0}
    search._reward(0, best, 2, [None, None], None, [first, second])
    history = search._history[0]
    assert history[key(first)] == int((-HISTORY_MAX + 1 - 4) / 2)
    assert history[key(second)] == -2 and history[key(best)] == 2
