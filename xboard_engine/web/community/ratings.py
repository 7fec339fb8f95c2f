"""The rating math of the live server: pure functions, no database and no network.

Two-player variants are rated by Glicko-2, written here from Mark Glickman's "Example of the
Glicko-2 system" (glicko.net/glicko/glicko2.pdf; the steps below carry the paper's numbers).  Each
game is its own rating period, rated at once as lichess rates: both ratings are first aged by the
days their players were idle, the new deviations are kept within [MIN_DEVIATION, MAX_DEVIATION],
and a rating whose deviation is above PROVISIONAL_DEVIATION is shown with a "?".

8 Player Chess is rated by the Weng-Lin Plackett-Luce model of the ``openskill`` package (a game's
standing of up to eight sides, a side being one player, a pair or a team).  The package needs Python
3.10 or later, so it is imported only when a multiplayer game is rated: this module still imports
under Python 3.9, and a call that needs the package raises ``RatingUnavailable`` without it.
"""
import math
from typing import List, NamedTuple, Sequence, Tuple

__all__ = ["Glicko", "DEFAULT_TAU", "MAX_DEVIATION", "MIN_DEVIATION", "PROVISIONAL_DEVIATION",
           "PERIOD_DAYS", "SCALE", "EPSILON", "glicko2", "aged", "rate_game", "provisional", "shown",
           "Skill", "SKILL_BASE", "SKILL_SCALE", "SKILL_PROVISIONAL_SIGMA", "RatingUnavailable",
           "rate_standing", "skill_shown", "skill_provisional", "standing_ranks"]

# ----------------------------------------------------------------------------- Glicko-2


class Glicko(NamedTuple):
    """A Glicko-2 rating on the Glicko scale: rating, rating deviation (RD) and volatility."""
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


DEFAULT_TAU = 0.5              # the system constant: how much the volatility may change (paper: 0.3-1.2)
MAX_DEVIATION = 350.0          # a new player's deviation, and the most inactivity can grow it to
MIN_DEVIATION = 45.0           # a floor so a very active player's rating still moves (lichess uses 45)
PROVISIONAL_DEVIATION = 110.0  # a rating whose deviation is above this is shown as provisional ("1500?")
PERIOD_DAYS = 1.0              # one rating period of inactivity = one day
SCALE = 173.7178               # Glicko scale to Glicko-2 scale (step 2): 400 / ln(10)
EPSILON = 0.000001             # the convergence tolerance of the volatility iteration (step 5)
_CENTRE = 1500.0


def _g(phi: float) -> float:
    """g(phi) of step 3: how much an opponent's uncertainty damps what a game against them says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(mu, mu_j, phi_j) of step 3: the expected score against opponent j."""
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f(x) found by the Illinois algorithm (5.1-5.5)."""
    a = math.log(sigma * sigma)
    phi2, delta2, tau2 = phi * phi, delta * delta, tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    # 5.2: the initial bracket [A, B].
    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    # 5.3-5.4: narrow the bracket until it is within EPSILON.
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:          # <=, not <: a step that lands on the root (f_C = 0) still ends
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    # 5.5
    return math.exp(big_a / 2.0)


def glicko2(player: Glicko, games: Sequence[Tuple[Glicko, float]], tau: float = DEFAULT_TAU) -> Glicko:
    """One rating period: the player's new rating after games against (opponent, score 1/0.5/0).
    With no games only the deviation grows (step 6 of the paper). No clamping here (the paper's numbers).

    >>> games = [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)]
    >>> r = glicko2(Glicko(1500, 200, 0.06), games)
    >>> round(r.rating, 2), round(r.deviation, 2), round(r.volatility, 6)
    (1464.05, 151.52, 0.059996)
    """
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - _CENTRE) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        # Step 6 alone: the rating and volatility stay, the deviation grows by one period.
        return Glicko(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    inverse_v, improvement = 0.0, 0.0
    for opponent, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a game's score is 1, 0.5 or 0, not {score!r}")
        mu_j = (opponent.rating - _CENTRE) / SCALE
        phi_j = opponent.deviation / SCALE
        g_j = _g(phi_j)
        e_j = _expected(mu, mu_j, phi_j)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (score - e_j)
    v = 1.0 / inverse_v
    delta = v * improvement
    # Step 5: the new volatility.
    new_sigma = _new_volatility(phi, sigma, v, delta, tau)
    # Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    # Step 8: back to the Glicko scale.
    return Glicko(new_mu * SCALE + _CENTRE, new_phi * SCALE, new_sigma)


def aged(player: Glicko, idle_days: float) -> Glicko:
    """The deviation grown by inactivity: phi' = sqrt(phi^2 + sigma^2 * idle_days / PERIOD_DAYS) in
    the Glicko-2 scale, capped at MAX_DEVIATION (a negative idle time counts as none)."""
    phi = player.deviation / SCALE
    periods = max(0.0, idle_days) / PERIOD_DAYS
    grown = math.sqrt(phi * phi + player.volatility * player.volatility * periods) * SCALE
    return player._replace(deviation=min(MAX_DEVIATION, max(player.deviation, grown)))


def _bounded(player: Glicko) -> Glicko:
    return player._replace(deviation=min(MAX_DEVIATION, max(MIN_DEVIATION, player.deviation)))


def rate_game(white: Glicko, black: Glicko, white_score: float, white_idle_days: float = 0.0,
              black_idle_days: float = 0.0, tau: float = DEFAULT_TAU) -> Tuple[Glicko, Glicko]:
    """One rated game, rated at once (each game is its own rating period, as lichess does): both
    ratings aged by their idle time first, then glicko2 for each against the other's aged rating;
    the new deviations kept within [MIN_DEVIATION, MAX_DEVIATION].  Returns (white, black)."""
    w = aged(white, white_idle_days)
    b = aged(black, black_idle_days)
    return (_bounded(glicko2(w, [(b, white_score)], tau)),
            _bounded(glicko2(b, [(w, 1.0 - white_score)], tau)))


def provisional(player: Glicko) -> bool:
    """Whether the rating is still provisional: its deviation is above PROVISIONAL_DEVIATION."""
    return player.deviation > PROVISIONAL_DEVIATION


def shown(player: Glicko) -> str:
    """The rating as pages show it: "1523", or "1523?" while provisional.

    >>> shown(Glicko()), shown(Glicko(1523.4, 60.0))
    ('1500?', '1523')
    """
    return f"{int(round(player.rating))}{'?' if provisional(player) else ''}"


# ----------------------------------------------------------------------------- 8 Player Chess


class Skill(NamedTuple):
    """A Weng-Lin (OpenSkill) rating: the mean skill mu and its uncertainty sigma."""
    mu: float = 25.0
    sigma: float = 25.0 / 3


# What players see of a Skill: SKILL_BASE + SKILL_SCALE * (mu - 25), the mean skill on a chess-like
# scale (a new player shows 1500; one point of mu is worth 40), marked provisional ("1500?") while
# sigma is high.  Not the package's ordinal (mu - 3 sigma): that climbs as sigma shrinks, so a settled
# average player would show far above a new one and a figure could rise after a loss.
SKILL_BASE = 1500.0
SKILL_SCALE = 40.0
# A skill is provisional ("1500?") while sigma is above 60% of a new player's (25/3 * 0.6 = 5).
SKILL_PROVISIONAL_SIGMA = 25.0 / 3 * 0.6


class RatingUnavailable(Exception):
    """8 Player Chess ratings need the ``openskill`` package, and it is not installed."""


def _plackett_luce():
    """The openskill model, imported only now (the package needs Python 3.10 or later)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as error:
        raise RatingUnavailable("8 Player Chess ratings need the openskill package (Python 3.10 or "
                                "later): pip install openskill") from error
    return PlackettLuce()


def multiplayer_available() -> bool:
    """Whether 8 Player Chess games can be rated here (the openskill package is installed)."""
    try:
        _plackett_luce()
    except RatingUnavailable:
        return False
    return True


def rate_standing(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> List[List[Skill]]:
    """One finished multiplayer game: each team (a single player is a team of one; Pairs and Teams
    modes rate the pairs/teams as teams) with its final place (1 = first; equal ranks are a tie).
    Returns the new skills in the same shape.  Uses PlackettLuce from openskill with the package's
    defaults (beta 25/6, tau 25/300, kappa 0.0001; a new skill is mu 25, sigma 25/3)."""
    if len(teams) != len(ranks):
        raise ValueError(f"{len(teams)} teams but {len(ranks)} ranks")
    if len(teams) < 2 or any(len(team) == 0 for team in teams):
        raise ValueError("a rated game needs at least two teams, none of them empty")
    model = _plackett_luce()
    match = [[model.rating(mu=float(s.mu), sigma=float(s.sigma)) for s in team] for team in teams]
    rated = model.rate(match, ranks=[float(r) for r in ranks])
    return [[Skill(float(p.mu), float(p.sigma)) for p in team] for team in rated]


def skill_shown(skill: Skill) -> int:
    """The figure players see: round(SKILL_BASE + SKILL_SCALE * (mu - 25)); 1500 for a new player,
    higher with mu (sigma shows as "provisional").

    >>> skill_shown(Skill()), skill_shown(Skill(30.0, 2.0))
    (1500, 1700)
    """
    return int(round(SKILL_BASE + SKILL_SCALE * (skill.mu - 25.0)))


def skill_provisional(skill: Skill) -> bool:
    """Whether the skill is still provisional: sigma above SKILL_PROVISIONAL_SIGMA (5.0)."""
    return skill.sigma > SKILL_PROVISIONAL_SIGMA


def standing_ranks(scores: Sequence[float], winners: Sequence[int], draw: bool) -> List[int]:
    """Ranks (1 = best, ties equal, competition ranking 1,1,3) for seats from an 8 Player Chess
    result: winners first (all rank 1); a drawn game (draw=True) ranks all winners equal; the rest
    by their points, higher first, equal points equal rank.  A draw that names no winners (Teams)
    ranks every seat first.

    >>> standing_ranks([30, 10, 10, 5], [0], False)
    [1, 2, 2, 4]
    """
    n = len(scores)
    first = set(winners)
    if any(not 0 <= s < n for s in first):
        raise ValueError(f"winners {list(winners)} are not seats of {n}")
    if draw and not first:
        return [1] * n
    ranks = []
    for seat in range(n):
        if seat in first:
            ranks.append(1)
        else:
            ahead = sum(1 for other in range(n) if other in first or scores[other] > scores[seat])
            ranks.append(ahead + 1)
    return ranks
