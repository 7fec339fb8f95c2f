"""Match statistics: Elo difference, error margin, LOS and SPRT.

The formulas follow cutechess-cli (projects/lib/src/elo.cpp and sprt.cpp),
re-implemented here with the standard library only.
"""
import math
from typing import NamedTuple, Optional, Tuple

__all__ = ["Score", "elo_difference", "elo_error_95", "los", "Sprt", "format_line"]

#: Two-sided 95% quantile of the standard normal distribution, Phi^-1(0.975).
#: cutechess-cli evaluates Phi^-1 with an erf^-1 approximation (~1.95716), so its
#: printed margins are about 0.14% smaller than the ones computed here.
Z_95 = 1.959964


class Score(NamedTuple):
    """Win/draw/loss counts from the first player's point of view."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """Number of games played."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Points scored: a win is 1, a draw 1/2."""
        return self.wins + self.draws / 2.0

    @property
    def ratio(self) -> float:
        """Points per game; 0.5 (even) when no game was played."""
        return self.points / self.games if self.games else 0.5


def _elo(p: float) -> float:
    """Logistic Elo difference for the expected score ``p``; +/-inf outside (0, 1)."""
    if p >= 1.0:
        return math.inf
    if p <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / p - 1.0) + 0.0  # + 0.0: no "-0.0" at p = 0.5


def elo_difference(score: Score) -> float:
    """Logistic Elo difference implied by the score ratio (0.0 for no games)."""
    if score.games == 0:
        return 0.0
    return _elo(score.ratio)


def _stderr(score: Score) -> float:
    """Standard error of the mean per-game score (W/D/L sample variance)."""
    n = score.games
    mu = score.ratio
    var = (score.wins * (1.0 - mu) ** 2 + score.draws * (0.5 - mu) ** 2
           + score.losses * (0.0 - mu) ** 2) / n
    return math.sqrt(var / n)


def elo_error_95(score: Score) -> float:
    """Half-width of the 95% confidence interval of the Elo difference.

    Same method as cutechess-cli's ``Elo::errorMargin``: the interval
    ``mu +/- Z_95 * stderr`` of the mean score is mapped through the Elo
    function. Returns ``inf`` for no games, for a 100%/0% score, or when the
    interval leaves (0, 1); 0.0 when every game was drawn (zero variance).
    """
    if score.games == 0:
        return math.inf
    mu = score.ratio
    if mu <= 0.0 or mu >= 1.0:
        return math.inf
    delta = Z_95 * _stderr(score)
    return (_elo(mu + delta) - _elo(mu - delta)) / 2.0


def los(score: Score) -> float:
    """Likelihood of superiority, normal approximation; draws are ignored."""
    decisive = score.wins + score.losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((score.wins - score.losses) / math.sqrt(2.0 * decisive)))


class Sprt:
    """Sequential probability ratio test between H0: elo0 and H1: elo1 (logistic Elo)."""

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        if not elo0 < elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
            raise ValueError("SPRT needs 0 < alpha, beta < 1")
        self.elo0 = float(elo0)
        self.elo1 = float(elo1)
        self.alpha = float(alpha)
        self.beta = float(beta)

    def __repr__(self) -> str:
        return "Sprt(elo0={}, elo1={}, alpha={}, beta={})".format(
            self.elo0, self.elo1, self.alpha, self.beta)

    def bounds(self) -> Tuple[float, float]:
        """Wald's (lower, upper) LLR bounds: log(beta/(1-alpha)), log((1-beta)/alpha)."""
        return (math.log(self.beta / (1.0 - self.alpha)),
                math.log((1.0 - self.beta) / self.alpha))

    def llr(self, score: Score) -> float:
        """Log-likelihood ratio of H1 against H0, as cutechess-cli computes it.

        The draw Elo is estimated from the sample with the BayesElo trinomial
        model; elo0/elo1 (logistic) are converted to BayesElo with the model's
        scale factor, and the LLR is the trinomial log-likelihood ratio of the
        two resulting W/D/L laws. Like cutechess-cli, returns 0.0 until there
        is at least one win, one draw and one loss.
        """
        w, d, l = score.wins, score.draws, score.losses
        if w <= 0 or d <= 0 or l <= 0:
            return 0.0
        n = float(w + d + l)
        pw, pl = w / n, l / n
        # Draw Elo of the sample: 200*log10((1-pl)/pl * (1-pw)/pw).
        draw_elo = 200.0 * math.log10((1.0 - pl) / pl * (1.0 - pw) / pw)
        x = 10.0 ** (-draw_elo / 400.0)
        scale = 4.0 * x / ((1.0 + x) * (1.0 + x))
        pw0, pd0, pl0 = _bayes_wdl(self.elo0 / scale, draw_elo)
        pw1, pd1, pl1 = _bayes_wdl(self.elo1 / scale, draw_elo)
        return (w * math.log(pw1 / pw0) + d * math.log(pd1 / pd0)
                + l * math.log(pl1 / pl0))

    def status(self, score: Score) -> str:
        """"accept H1", "accept H0" or "continue"."""
        llr = self.llr(score)
        lower, upper = self.bounds()
        if llr > upper:
            return "accept H1"
        if llr < lower:
            return "accept H0"
        return "continue"


def _bayes_wdl(bayes_elo: float, draw_elo: float) -> Tuple[float, float, float]:
    """Win/draw/loss probabilities of the BayesElo model."""
    pw = 1.0 / (1.0 + 10.0 ** ((draw_elo - bayes_elo) / 400.0))
    pl = 1.0 / (1.0 + 10.0 ** ((draw_elo + bayes_elo) / 400.0))
    return pw, 1.0 - pw - pl, pl


def format_line(score: Score, sprt: Optional[Sprt] = None) -> str:
    """One progress line, e.g. ``Score 12 - 7 - 11 [0.583] 30 games, Elo ...``.

    The counts are printed in cutechess-cli's order: wins - losses - draws.
    """
    line = "Score {} - {} - {} [{:.3f}] {} games, Elo {:.1f} +/- {:.1f}, LOS {:.1f}%".format(
        score.wins, score.losses, score.draws, score.ratio, score.games,
        elo_difference(score), elo_error_95(score), 100.0 * los(score))
    if sprt is not None:
        lower, upper = sprt.bounds()
        line += ", LLR {:.2f} ({:.2f}, {:.2f})".format(sprt.llr(score), lower, upper)
    return line
