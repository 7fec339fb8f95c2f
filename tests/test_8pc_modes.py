"""The 8 Player Chess modes as objects (xboard_engine/multi/modes.py), the seat states by name, and
``Game.copy``: a copy shares no mutable state with its game, whatever attributes the game has."""
import random

import pytest

from xboard_engine.multi.game import MODES, Game, RulesOptionError
from xboard_engine.multi.modes import MODE_BY_NAME, PAIRS, SINGLES, TEAMS, mode_of
from xboard_engine.multi.position import MultiPosition
from xboard_engine.multi.rules import CHECKMATED, SEAT_STATES, STALEMATED, get_multi_variant

# Shared on purpose: they never change during a game.
SHARED_ATTRIBUTES = {"v", "mode_rules"}
MUTABLE_TYPES = (list, dict, set, bytearray, random.Random, MultiPosition)


def played_game(mode: str, actions: int = 60, seed: int = 3) -> Game:
    """A game of random moves, ``actions`` long (or to its end)."""
    game = Game(mode=mode, seed=seed)
    rng = random.Random(seed)
    while not game.over and len(game.actions) < actions:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


def test_each_mode_name_maps_to_its_mode_object():
    assert MODES == ("singles", "pairs", "teams")
    assert [MODE_BY_NAME[name] for name in MODES] == [SINGLES, PAIRS, TEAMS]
    for name in MODES:
        game = Game(mode=name)
        assert game.mode == name and game.mode_rules is MODE_BY_NAME[name] and mode_of(game) is game.mode_rules


@pytest.mark.parametrize("mode", ["doubles", "Teams", None, ["teams"]])
def test_an_unknown_mode_is_refused(mode):
    with pytest.raises(RulesOptionError):
        Game(mode=mode)


def test_the_sides_of_each_mode():
    v = get_multi_variant()
    assert SINGLES.sides(v) == list(range(8))
    pairs = PAIRS.sides(v)
    assert all(pairs[s] == pairs[v.partner[s]] for s in range(8)) and len(set(pairs)) == 4
    assert TEAMS.sides(v) == list(v.team_of) and len(set(TEAMS.sides(v))) == 2


def test_only_pairs_credit_a_partners_stalemate_to_the_pair():
    v = get_multi_variant()
    partner = v.partner[0]
    assert PAIRS.stalemate_is_own(v, 0, partner) and PAIRS.stalemate_is_own(v, 0, 0)
    assert not SINGLES.stalemate_is_own(v, 0, partner) and SINGLES.stalemate_is_own(v, 0, 0)
    assert not PAIRS.stalemate_is_own(v, 0, None)


def test_teams_score_no_points_and_allow_no_claim_nor_zombie():
    assert SINGLES.points_decide and PAIRS.points_decide and not TEAMS.points_decide
    assert not TEAMS.claims_allowed and not TEAMS.zombie_kings
    assert (SINGLES.default_algorithm, PAIRS.default_algorithm, TEAMS.default_algorithm) == ("brs", "brs", "team")


def test_the_seat_state_letters_of_saved_positions_are_kept():
    # The letters are written in position texts and records, and the hash keys are drawn in this order.
    assert SEAT_STATES == tuple("azmsrtkc")
    assert (CHECKMATED, STALEMATED) == ("m", "s")


@pytest.mark.parametrize("mode", MODES)
def test_a_copy_shares_no_mutable_state_with_its_game(mode):
    game = played_game(mode)
    game.resign()                    # credits, logs and counts are not all empty
    other = game.copy()
    assert set(vars(other)) == set(vars(game))
    for name, value in vars(game).items():
        copied = getattr(other, name)
        if name in SHARED_ATTRIBUTES:
            assert copied is value, name
        elif isinstance(value, MUTABLE_TYPES):
            assert copied is not value, f"Game.copy shares {name}"
    assert other.to_dict() == game.to_dict() and other.position.text() == game.position.text()
    assert other.rng.random() == game.rng.random()


@pytest.mark.parametrize("mode", MODES)
def test_a_copy_plays_on_without_changing_its_game(mode):
    game = played_game(mode, 40)
    before = (game.to_dict(), game.position.text(), list(game.scores), dict(game.seen), list(game.log),
              [list(row) for row in game.taken], game.rng.getstate())
    other = game.copy()
    rng = random.Random(7)
    while not other.over and len(other.actions) < 120:
        moves = other.legal_moves()
        other.play(moves[rng.randrange(len(moves))])
    if not other.over:
        other.resign()
    other.rng.random()
    assert len(other.actions) > len(game.actions)
    after = (game.to_dict(), game.position.text(), list(game.scores), dict(game.seen), list(game.log),
             [list(row) for row in game.taken], game.rng.getstate())
    assert after == before
