"""The rating math of the live server (xboard_engine/web/community/ratings.py): Glicko-2 against the worked
example of Glickman's paper and the behaviour a rated game must have; the 8 Player Chess ratings
against openskill's own documented numbers, and simulated seasons whose hidden strengths the
ratings must find; the places of an 8 Player Chess result."""
import math
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from needs import UNDER_CI, need_module

from xboard_engine.web.community import ratings
from xboard_engine.web.community.ratings import (MAX_DEVIATION, MIN_DEVIATION, PROVISIONAL_DEVIATION, SCALE,
                                       SKILL_PROVISIONAL_SIGMA, Glicko, RatingUnavailable, Skill, aged,
                                       glicko2, provisional, rate_game, rate_standing, shown,
                                       skill_provisional, skill_shown, standing_ranks)

MODULE = Path(ratings.__file__)

# Glickman, "Example of the Glicko-2 system": the player and the three opponents of the example.
PLAYER = Glicko(1500.0, 200.0, 0.06)
EXAMPLE = [(Glicko(1400.0, 30.0), 1.0), (Glicko(1550.0, 100.0), 0.0), (Glicko(1700.0, 300.0), 0.0)]


# ----------------------------------------------------------------------------- Glicko-2

def test_glickman_example_result():
    new = glicko2(PLAYER, EXAMPLE, tau=0.5)
    # The paper prints r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (its r' from mu' rounded to
    # -0.2069; unrounded it is 1464.0507).
    assert abs(new.rating - 1464.06) < 0.01
    assert abs(new.deviation - 151.52) < 0.01
    assert abs(new.volatility - 0.05999) < 0.00001
    assert glicko2(PLAYER, EXAMPLE) == new          # tau 0.5 is the default


def test_glickman_example_steps():
    """The paper's intermediate figures: g, E, v, delta, then the new volatility of step 5."""
    mu, phi = (PLAYER.rating - 1500) / SCALE, PLAYER.deviation / SCALE
    assert (round(mu, 4), round(phi, 4)) == (0.0, 1.1513)
    opponents = [((o.rating - 1500) / SCALE, o.deviation / SCALE) for o, _ in EXAMPLE]
    assert [round(ratings._g(p), 4) for _, p in opponents] == [0.9955, 0.9531, 0.7242]
    es = [ratings._expected(mu, m, p) for m, p in opponents]
    assert [round(e, 3) for e in es] == [0.639, 0.432, 0.303]
    v = 1 / sum(ratings._g(p) ** 2 * e * (1 - e) for (_, p), e in zip(opponents, es))
    delta = v * sum(ratings._g(p) * (s - e) for (_, p), (_, s), e in zip(opponents, EXAMPLE, es))
    # The paper's v = 1.7785 and delta = -0.4834 come from g and E rounded as printed;
    # unrounded they are 1.77898 and -0.48393.
    assert abs(v - 1.7785) < 0.001 and abs(delta - -0.4834) < 0.001
    sigma = ratings._new_volatility(phi, 0.06, v, delta, 0.5)
    assert abs(sigma - 0.05999) < 0.00001
    # Step 6-8 of the paper: phi* = 1.152862, phi' = 0.8722, mu' = -0.2069.
    new = glicko2(PLAYER, EXAMPLE)
    assert abs(new.deviation / SCALE - 0.8722) < 0.0001
    assert abs((new.rating - 1500) / SCALE - -0.2069) < 0.0001


def test_volatility_rises_after_a_surprise():
    """A settled player beating far stronger opponents: delta^2 > phi^2 + v (the other branch of
    step 5.2); the volatility goes up, more so with a larger tau, and the rating a long way up."""
    settled = Glicko(1500.0, 50.0, 0.06)
    strong = [(Glicko(2500.0, 30.0), 1.0)] * 10
    phi = settled.deviation / SCALE
    es = [ratings._expected(0.0, (o.rating - 1500) / SCALE, o.deviation / SCALE) for o, _ in strong]
    v = 1 / sum(ratings._g(o.deviation / SCALE) ** 2 * e * (1 - e) for (o, _), e in zip(strong, es))
    delta = v * sum(ratings._g(o.deviation / SCALE) * (1 - e) for (o, _), e in zip(strong, es))
    assert delta ** 2 > phi ** 2 + v
    new = glicko2(settled, strong)
    assert 0.0613 < new.volatility < 0.0615            # 0.06140
    assert new.rating > 1640
    wild = glicko2(settled, strong, tau=1.2)
    assert wild.volatility > new.volatility + 0.001 and wild.rating > new.rating
    # The same number of games against equals, half won: the volatility falls a little.
    calm = glicko2(settled, [(Glicko(1500.0, 50.0), 1.0), (Glicko(1500.0, 50.0), 0.0)] * 5)
    assert calm.volatility < 0.06
    assert glicko2(settled, strong, tau=0.3).volatility < new.volatility


def test_no_games_grow_only_the_deviation():
    new = glicko2(PLAYER, [])
    assert new.rating == PLAYER.rating and new.volatility == PLAYER.volatility
    assert new.deviation == pytest.approx(math.sqrt(200.0 ** 2 + (0.06 * SCALE) ** 2), abs=1e-9)
    assert new.deviation > PLAYER.deviation


def test_bad_score_refused():
    with pytest.raises(ValueError):
        glicko2(PLAYER, [(Glicko(), 2.0)])


def test_aged_grows_monotonically_and_caps():
    player = Glicko(1830.0, 50.0, 0.06)
    assert aged(player, 0) == player
    assert aged(player, -5) == player
    one = aged(player, 1)
    assert one.deviation == pytest.approx(math.sqrt(50.0 ** 2 + (0.06 * SCALE) ** 2), abs=1e-9)
    assert (one.rating, one.volatility) == (player.rating, player.volatility)
    days = [0, 0.5, 1, 2, 7, 30, 100, 365, 1000, 3650]
    grown = [aged(player, d).deviation for d in days]
    assert all(a < b for a, b in zip(grown, grown[1:-1]))
    assert all(a <= b for a, b in zip(grown, grown[1:]))
    assert grown[-1] == MAX_DEVIATION
    assert aged(Glicko(1500.0, 349.0, 0.06), 10).deviation == MAX_DEVIATION
    # A day of a volatile player grows more than a day of a steady one.
    assert aged(player._replace(volatility=0.09), 10).deviation > aged(player, 10).deviation


def test_win_raises_winner_and_lowers_loser():
    a, b = Glicko(1600.0, 80.0, 0.06), Glicko(1550.0, 120.0, 0.06)
    new_a, new_b = rate_game(a, b, 1.0)
    assert new_a.rating > a.rating and new_b.rating < b.rating
    new_a, new_b = rate_game(a, b, 0.0)
    assert new_a.rating < a.rating and new_b.rating > b.rating
    # Both know more about each other than before.
    assert new_a.deviation < a.deviation and new_b.deviation < b.deviation


def test_draw_between_equals_changes_only_deviations():
    for player in (Glicko(), Glicko(1720.0, 150.0, 0.06)):
        new_white, new_black = rate_game(player, player, 0.5)
        assert new_white.rating == player.rating and new_black.rating == player.rating
        assert new_white.deviation < player.deviation
        assert new_white == new_black
        # The volatility stays but for the iteration's tiny pull towards a steady result.
        assert abs(new_white.volatility - player.volatility) < 0.0001


def test_symmetric_results_are_mirror_images():
    a, b = Glicko(1480.0, 140.0, 0.058), Glicko(1655.0, 70.0, 0.061)
    for score in (1.0, 0.5, 0.0):
        white, black = rate_game(a, b, score, 3.0, 10.0)
        black2, white2 = rate_game(b, a, 1.0 - score, 10.0, 3.0)
        assert white == pytest.approx(white2, abs=1e-9) and black == pytest.approx(black2, abs=1e-9)
    # Equals: the winner gains what the loser loses.
    new_white, new_black = rate_game(Glicko(), Glicko(), 1.0)
    assert new_white.rating - 1500.0 == pytest.approx(1500.0 - new_black.rating, abs=1e-9)
    assert new_white.rating > 1600.0   # two new players: a big step
    assert new_white.deviation == new_black.deviation


def test_deviations_stay_within_bounds():
    # Many games against a well-known opponent with a low volatility: the floor holds.
    steady, rock = Glicko(1500.0, 200.0, 0.03), Glicko(1500.0, 45.0, 0.03)
    seen = []
    for i in range(200):
        steady, _ = rate_game(steady, rock, (1.0, 0.5, 0.0)[i % 3])
        seen.append(steady.deviation)
    assert min(seen) == MIN_DEVIATION
    # (glicko2 alone, unclamped, would go below it.)
    assert glicko2(Glicko(1500.0, 45.0, 0.03), [(rock, 0.5)]).deviation < MIN_DEVIATION
    # New players after years away: the ceiling holds.
    new_white, new_black = rate_game(Glicko(), Glicko(1500.0, 340.0, 0.09), 1.0, 5000.0, 5000.0)
    for player in (new_white, new_black):
        assert MIN_DEVIATION <= player.deviation <= MAX_DEVIATION
    rng = random.Random(7)
    for _ in range(200):
        a = Glicko(rng.uniform(800, 2600), rng.uniform(30, 400), rng.uniform(0.03, 0.1))
        b = Glicko(rng.uniform(800, 2600), rng.uniform(30, 400), rng.uniform(0.03, 0.1))
        for player in rate_game(a, b, rng.choice((0.0, 0.5, 1.0)), rng.uniform(0, 400), rng.uniform(0, 400)):
            assert MIN_DEVIATION <= player.deviation <= MAX_DEVIATION


def test_idle_time_makes_a_rating_move_more():
    a, b = Glicko(1500.0, 60.0, 0.06), Glicko(1500.0, 60.0, 0.06)
    fresh, _ = rate_game(a, b, 1.0)
    rusty, _ = rate_game(a, b, 1.0, white_idle_days=200.0)
    assert rusty.rating - a.rating > fresh.rating - a.rating > 0


def test_upset_moves_ratings_more_than_an_expected_win():
    weak, strong = Glicko(1400.0, 80.0, 0.06), Glicko(1800.0, 80.0, 0.06)
    upset_weak, upset_strong = rate_game(weak, strong, 1.0)
    expected_weak, expected_strong = rate_game(weak, strong, 0.0)
    assert upset_weak.rating - weak.rating > 3 * (expected_strong.rating - strong.rating) > 0
    assert strong.rating - upset_strong.rating > 3 * (weak.rating - expected_weak.rating) > 0


def test_provisional_and_shown():
    assert provisional(Glicko()) and shown(Glicko()) == "1500?"
    assert shown(Glicko(1523.4, 60.0)) == "1523"
    assert shown(Glicko(1523.6, PROVISIONAL_DEVIATION + 0.1)) == "1524?"
    assert not provisional(Glicko(1500.0, PROVISIONAL_DEVIATION))
    # A new player is provisional after one game, established after a few dozen.
    me, other = Glicko(), Glicko(1500.0, 60.0)
    me, _ = rate_game(me, other, 1.0)
    assert provisional(me)
    for i in range(40):
        me, _ = rate_game(me, other, i % 2)
    assert not provisional(me)


# ----------------------------------------------------------------------------- 8 Player Chess

@pytest.fixture
def openskill():
    return need_module("openskill")


def model():
    from openskill.models import PlackettLuce
    return PlackettLuce()


def close(skills, expected, tolerance=1e-9):
    """Whether nested lists of Skills equal nested lists of (mu, sigma) within ``tolerance``."""
    assert [len(t) for t in skills] == [len(t) for t in expected]
    return all(abs(s.mu - mu) <= tolerance and abs(s.sigma - sigma) <= tolerance
               for team, want in zip(skills, expected) for s, (mu, sigma) in zip(team, want))


def test_documented_two_teams(openskill):
    """openskill's README and manual: two teams of two new players, the first team wins: the
    winners mu=26.964294621803063, the losers 23.035705378196937, all sigma=8.177962604389991;
    the manual's ordinals 2.4304068086330872 and -1.4981824349730388."""
    new = rate_standing([[Skill(), Skill()], [Skill(), Skill()]], [1, 2])
    win, lose = (26.964294621803063, 8.177962604389991), (23.035705378196937, 8.177962604389991)
    assert close(new, [[win, win], [lose, lose]], 1e-12)
    # The package called as documented gives the same.
    r = model().rating
    [[a, b], [x, y]] = model().rate([[r(), r()], [r(), r()]])
    assert close(new, [[(a.mu, a.sigma), (b.mu, b.sigma)], [(x.mu, x.sigma), (y.mu, y.sigma)]], 0)
    assert a.ordinal() == pytest.approx(2.4304068086330872, abs=1e-12)
    assert skill_shown(new[0][0]) == round(1500 + 40 * (26.964294621803063 - 25)) == 1579
    assert skill_shown(new[1][0]) == round(1500 + 40 * (23.035705378196937 - 25)) == 1421


# openskill's own test data (tests/models/data/plackettluce.json, checked by its test_rate):
# players of mu 20.35125162611535, sigma 8.33148112355601.
DATA_SKILL = Skill(20.35125162611535, 8.33148112355601)


def test_documented_tie(openskill):
    """Teams of 1, 2 and 3 players, the first and third tied first (ranks [1, 2, 1])."""
    new = rate_standing([[DATA_SKILL], [DATA_SKILL] * 2, [DATA_SKILL] * 3], [1, 2, 1])
    one = (21.63766806988004, 8.310709773172306)
    two = (19.53956360838512, 8.268148437657915)
    three = (19.87652320008089, 8.237522411103104)
    assert close(new, [[one], [two] * 2, [three] * 3], 1e-9)


def test_documented_ranks(openskill):
    """Four teams ranked out of order (ranks [2, 1, 4, 3])."""
    new = rate_standing([[DATA_SKILL], [DATA_SKILL] * 2, [DATA_SKILL], [DATA_SKILL] * 2], [2, 1, 4, 3])
    expected = [[(22.35555943890167, 8.265434830225024)],
                [(22.373451456616035, 8.258479912445537)] * 2,
                [(18.311159777900297, 8.219170401234347)],
                [(18.364835831043397, 8.112716571808326)] * 2]
    assert close(new, expected, 1e-9)


def test_same_as_the_package_called_directly(openskill):
    """An 8-player standing with ties and players of every kind: the package's own numbers, in
    the order the seats were given."""
    rng = random.Random(5)
    skills = [Skill(rng.uniform(15, 35), rng.uniform(1, 25 / 3)) for _ in range(8)]
    ranks = [3, 1, 5, 3, 2, 8, 5, 7]
    new = rate_standing([[s] for s in skills], ranks)
    m = model()
    direct = m.rate([[m.rating(mu=s.mu, sigma=s.sigma)] for s in skills], ranks=ranks)
    assert close(new, [[(p.mu, p.sigma)] for [p] in direct], 0)
    # Given in another order, each seat's new skill is the same.
    order = [5, 2, 7, 0, 4, 1, 6, 3]
    again = rate_standing([[skills[i]] for i in order], [ranks[i] for i in order])
    for place, i in enumerate(order):
        assert again[place][0] == pytest.approx(new[i][0], abs=1e-12)
    # The first gains, the last loses, the tied pair from one skill stays one skill.
    assert new[1][0].mu > skills[1].mu and new[5][0].mu < skills[5].mu
    tied = rate_standing([[skills[0]], [skills[0]], [skills[1]]], [2, 2, 1])
    assert tied[0] == tied[1]


def test_rate_standing_refuses_bad_shapes(openskill):
    with pytest.raises(ValueError):
        rate_standing([[Skill()], [Skill()]], [1])
    with pytest.raises(ValueError):
        rate_standing([[Skill()]], [1])
    with pytest.raises(ValueError):
        rate_standing([[Skill()], []], [1, 2])


def test_without_openskill(monkeypatch):
    """Without the package, rating a standing says how to get it; the rest still works."""
    for name in list(sys.modules):
        if name == "openskill" or name.startswith("openskill."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(RatingUnavailable, match="pip install openskill"):
        rate_standing([[Skill()], [Skill()]], [1, 2])
    assert skill_shown(Skill()) == 1500 and standing_ranks([1, 0], [0], False) == [1, 2]


def test_imports_under_python_3_9():
    """The module loads and rates a two-player game under a Python 3.9 (no openskill there)."""
    code = ("import importlib.util as u, sys\n"
            "assert sys.version_info < (3, 10)\n"
            f"s = u.spec_from_file_location('ratings', {str(MODULE)!r})\n"
            "m = u.module_from_spec(s); s.loader.exec_module(m)\n"
            "print(m.shown(m.rate_game(m.Glicko(), m.Glicko(), 1.0)[0]), m.skill_shown(m.Skill()))\n")
    for name in ("python3.9", "pypy3.9", "pypy3"):
        exe = shutil.which(name)
        if exe is None:
            continue
        try:
            probe = subprocess.run([exe, "-c", "import sys; print(sys.version_info < (3, 10))"],
                                   capture_output=True, text=True, timeout=60)
        except OSError:
            continue
        if probe.returncode != 0 or probe.stdout.strip() != "True":
            continue
        done = subprocess.run([exe, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["1662?", "1500"]
        return
    if UNDER_CI:
        pytest.fail("CI must run this test under Python 3.9: pypy3 (Debian package pypy3) is 3.9")
    pytest.skip("no Python 3.9 here")


def test_skill_shown_and_provisional():
    assert skill_shown(Skill()) == 1500
    assert skill_shown(Skill(26.0, 25 / 3)) == 1540                 # one mu point: 40
    assert skill_shown(Skill(25.0, 25 / 3 - 1)) == 1500             # sigma shows as provisional only
    assert skill_shown(Skill(30.0, 2.0)) > skill_shown(Skill(29.0, 2.0))
    assert isinstance(skill_shown(Skill(25.3, 7.1)), int)
    assert SKILL_PROVISIONAL_SIGMA == pytest.approx(5.0)
    assert skill_provisional(Skill()) and skill_provisional(Skill(25.0, 5.01))
    assert not skill_provisional(Skill(25.0, 5.0)) and not skill_provisional(Skill(40.0, 2.0))


def spearman(xs, ys):
    """Spearman's rank correlation of two lists without ties."""
    def places(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0] * len(values)
        for place, i in enumerate(order):
            out[i] = place
        return out
    a, b = places(xs), places(ys)
    n = len(xs)
    return 1 - 6 * sum((p - q) ** 2 for p, q in zip(a, b)) / (n * (n * n - 1))


def gumbel(rng):
    return -math.log(-math.log(rng.random() or 1e-300))


def play_season(sides, strength, seats, games, rng):
    """``games`` games among ``seats`` random sides drawn from ``sides`` (lists of bots); the order
    of a game is a Plackett-Luce draw with weights exp(side's mean strength / 3) (the strength plus
    Gumbel noise, sorted); each game rated by rate_standing.  Returns each bot's final skill."""
    skills = {bot: Skill() for side in sides for bot in side}
    for _ in range(games):
        playing = rng.sample(range(len(sides)), seats)
        performance = {i: sum(strength[b] for b in sides[i]) / len(sides[i]) / 3 + gumbel(rng)
                       for i in playing}
        finish = sorted(playing, key=performance.__getitem__, reverse=True)
        ranks = [finish.index(i) + 1 for i in playing]
        new = rate_standing([[skills[b] for b in sides[i]] for i in playing], ranks)
        for i, team in zip(playing, new):
            for bot, skill in zip(sides[i], team):
                skills[bot] = skill
    return skills


def test_season_of_singles_finds_the_strengths(openskill):
    strength = list(range(16))
    skills = play_season([[b] for b in range(16)], strength, 8, 300, random.Random(1))
    mus = [skills[b].mu for b in range(16)]
    rho = spearman(strength, mus)
    assert rho > 0.8, (rho, mus)
    shown_ = [skill_shown(skills[b]) for b in range(16)]
    assert min(shown_[12:]) > max(shown_[:4]), shown_
    # 150 games each: nobody is provisional any more.
    assert not any(skill_provisional(skills[b]) for b in range(16))


def test_season_of_pairs_finds_the_stronger_pairs(openskill):
    """Eight fixed pairs (bots 2p and 2p+1), four pairs a game (the Pairs mode of 8 Player Chess)."""
    strength = list(range(16))
    pairs = [[2 * p, 2 * p + 1] for p in range(8)]
    skills = play_season(pairs, strength, 4, 300, random.Random(1))
    pair_mu = [sum(skills[b].mu for b in pair) / 2 for pair in pairs]
    rho = spearman(list(range(8)), pair_mu)
    assert rho > 0.8, (rho, pair_mu)
    top = [skill_shown(skills[b]) for pair in pairs[6:] for b in pair]
    bottom = [skill_shown(skills[b]) for pair in pairs[:2] for b in pair]
    assert min(top) > max(bottom), (top, bottom)


def test_standing_ranks_sole_winner():
    # Seat 0 won (a claim, say) though seat 1 has more points; the rest by points.
    assert standing_ranks([25, 40, 10, 10, 0, 5, 5, 5], [0], False) == [1, 2, 3, 3, 8, 5, 5, 5]
    assert standing_ranks([60, 0, 0, 0, 0, 0, 0, 0], [0], False) == [1, 2, 2, 2, 2, 2, 2, 2]


def test_standing_ranks_two_winners():
    # Two leaders tied on points (or a pair that won together).
    assert standing_ranks([10, 50, 20, 50], [1, 3], False) == [4, 1, 3, 1]
    # Teams: the winning team is first whatever its points.
    assert standing_ranks([0, 10, 0, 10, 0, 10, 0, 10], [0, 2, 4, 6], False) == [1, 5, 1, 5, 1, 5, 1, 5]


def test_standing_ranks_draw():
    # Singles drawn by repetition: the leaders named as winners share first, the rest by points.
    assert standing_ranks([50, 50, 30, 10], [0, 1], True) == [1, 1, 3, 4]
    # Teams drawn: no winners, everyone shares the place.
    assert standing_ranks([3, 0, 9, 1, 0, 0, 0, 0], [], True) == [1] * 8


def test_standing_ranks_points_ties():
    assert standing_ranks([5, 5, 3, 3, 3, 0], [], False) == [1, 1, 3, 3, 3, 6]
    assert standing_ranks([7, 7, 7], [], False) == [1, 1, 1]
    assert standing_ranks([1.5, 2.5, 1.5, 0], [1], False) == [2, 1, 2, 4]
    with pytest.raises(ValueError):
        standing_ranks([1, 2], [2], False)
