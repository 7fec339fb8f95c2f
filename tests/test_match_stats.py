"""Tests for xboard_engine.match.stats against hand-computed and published values.

Note: Score is (wins, draws, losses); cutechess-cli prints "W - L - D".
"""
import math

import pytest

from xboard_engine.match.stats import Score, Sprt, elo_difference, elo_error_95, format_line, los


# --- Score -------------------------------------------------------------------

def test_score_properties():
    s = Score(wins=12, draws=11, losses=7)
    assert s.games == 30
    assert s.points == 17.5          # 12 + 11/2
    assert s.ratio == pytest.approx(17.5 / 30)


def test_score_zero_games():
    s = Score(0, 0, 0)
    assert s.games == 0 and s.points == 0.0
    assert s.ratio == 0.5            # defined as "even" for no games


# --- Elo difference ------------------------------------------------------------

def test_elo_sixty_percent():
    # 6 wins 4 losses -> ratio 0.6; -400*log10(1/0.6 - 1) = -400*log10(2/3)
    # = -400 * (-0.176091) = 70.4365
    assert elo_difference(Score(6, 0, 4)) == pytest.approx(70.4365, abs=1e-4)
    # Same ratio from draws only matters through the ratio: 2 W, 8 D, 0 L -> 0.6 as well.
    assert elo_difference(Score(2, 8, 0)) == pytest.approx(70.4365, abs=1e-4)


def test_elo_seventy_five_percent():
    # ratio 0.75: -400*log10(1/0.75 - 1) = -400*log10(1/3) = 400*0.477121 = 190.8485
    assert elo_difference(Score(3, 0, 1)) == pytest.approx(190.8485, abs=1e-4)


def test_elo_even_score_is_zero():
    assert elo_difference(Score(5, 0, 5)) == 0.0
    assert elo_difference(Score(3, 4, 3)) == 0.0
    assert elo_difference(Score(0, 0, 0)) == 0.0   # no games


@pytest.mark.parametrize("w,d,l", [(6, 0, 4), (12, 11, 7), (880, 1863, 759), (1, 0, 30)])
def test_elo_symmetry(w, d, l):
    # Swapping wins and losses turns ratio p into 1-p, which negates the Elo.
    assert elo_difference(Score(l, d, w)) == pytest.approx(-elo_difference(Score(w, d, l)))
    assert elo_error_95(Score(l, d, w)) == pytest.approx(elo_error_95(Score(w, d, l)))


def test_elo_perfect_scores():
    assert elo_difference(Score(5, 0, 0)) == math.inf
    assert elo_difference(Score(0, 0, 5)) == -math.inf
    assert elo_error_95(Score(5, 0, 0)) == math.inf
    assert elo_error_95(Score(0, 0, 5)) == math.inf


# --- Error margin --------------------------------------------------------------

def test_error_margin_hand_computed():
    # 10 W, 0 D, 10 L: mu = 0.5, per-game variance = 0.25, stderr = 0.5/sqrt(20) = 0.111803
    # delta = 1.959964 * 0.111803 = 0.219131 -> interval (0.280869, 0.719131)
    # elo(0.719131) = -400*log10(0.280869/0.719131) = 400*log10(2.560387) = 163.3214
    # margin = (163.3214 - (-163.3214)) / 2 = 163.3214
    assert elo_error_95(Score(10, 0, 10)) == pytest.approx(163.3214, abs=1e-3)


def test_error_margin_all_draws_and_no_games():
    # All draws: every game scores exactly 0.5, so the sample variance is 0 -> margin 0.
    assert elo_error_95(Score(0, 20, 0)) == 0.0
    assert elo_error_95(Score(0, 0, 0)) == math.inf


def test_error_margin_interval_leaving_unit_range():
    # 10 W 1 D 0 L: mu = 10.5/11 = 0.9545, var = (10*0.0455^2 + 0.4545^2)/11 = 0.0207,
    # stderr = 0.0434, mu + 1.96*0.0434 = 1.04 > 1 -> upper Elo unbounded.
    assert elo_error_95(Score(10, 1, 0)) == math.inf


# Published cutechess-cli output lines: (W, L, D as printed) -> Elo, margin, LOS.
# cutechess-cli uses an approximate Phi^-1(0.975) ~ 1.95716 instead of 1.959964,
# so its margins are ~0.14% smaller; rel=3e-3 covers that.
CUTECHESS_LINES = [
    # github.com/cutechess/cutechess/issues/543
    # "880 - 759 - 1863 [0.517] 3502 / Elo difference: 12.0 +/- 7.9, LOS: 99.9 %"
    (880, 759, 1863, 12.0, 7.9, 99.9),
    # engine logs quoting cutechess-cli output
    (5383, 5132, 4808, 5.7, 4.6, 99.3),
    (108, 18, 11, 273.6, 73.9, 100.0),
    (136, 126, 135, 8.8, 27.8, 73.2),
    (309, 304, 217, 2.1, 20.3, 58.0),
    (14, 4, 1, 203.3, 222.6, 99.1),
]


@pytest.mark.parametrize("w,l,d,elo,margin,los_pct", CUTECHESS_LINES)
def test_matches_published_cutechess_output(w, l, d, elo, margin, los_pct):
    s = Score(wins=w, draws=d, losses=l)
    assert round(elo_difference(s), 1) == elo
    assert elo_error_95(s) == pytest.approx(margin, rel=3e-3, abs=0.05)
    assert round(100.0 * los(s), 1) == los_pct


# --- LOS -------------------------------------------------------------------------

def test_los_hand_computed():
    # 10 W, 5 L: (10-5)/sqrt(2*15) = 5/sqrt(30) = 0.912871; erf(0.912871) = 0.803294
    # LOS = 0.5*(1 + 0.803294) = 0.901647
    assert los(Score(10, 0, 5)) == pytest.approx(0.901647, abs=1e-6)
    # Draws do not matter.
    assert los(Score(10, 100, 5)) == los(Score(10, 0, 5))
    # Symmetry: LOS(L, W) = 1 - LOS(W, L)
    assert los(Score(5, 0, 10)) == pytest.approx(1 - 0.901647, abs=1e-6)


def test_los_no_decisive_games():
    assert los(Score(0, 0, 0)) == 0.5
    assert los(Score(0, 12, 0)) == 0.5
    assert los(Score(7, 3, 7)) == 0.5


# --- SPRT ------------------------------------------------------------------------

def test_sprt_bounds_default():
    # log(0.05/0.95) = -2.944439, log(0.95/0.05) = log(19) = 2.944439
    lower, upper = Sprt(0, 5).bounds()
    assert lower == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(2.944439, abs=1e-6)


def test_sprt_bounds_asymmetric():
    # alpha=0.1, beta=0.05: log(0.05/0.9) = -2.890372, log(0.95/0.1) = 2.251292
    lower, upper = Sprt(0, 5, alpha=0.1, beta=0.05).bounds()
    assert lower == pytest.approx(-2.890372, abs=1e-6)
    assert upper == pytest.approx(2.251292, abs=1e-6)


def test_sprt_invalid_parameters():
    with pytest.raises(ValueError):
        Sprt(5, 0)
    with pytest.raises(ValueError):
        Sprt(0, 5, alpha=0.0)
    with pytest.raises(ValueError):
        Sprt(0, 5, beta=1.0)


def test_sprt_llr_hand_computed():
    # W = D = L = 10: pw = pl = 1/3.
    # drawElo = 200*log10((1-pl)/pl * (1-pw)/pw) = 200*log10(2*2) = 400*log10(2)
    # x = 10^(-drawElo/400) = 1/2; scale = 4x/(1+x)^2 = 2/2.25 = 8/9.
    # elo0 = 0 -> BayesElo 0: pw0 = 1/(1+10^(drawElo/400)) = 1/(1+2) = 1/3 = pl0, pd0 = 1/3.
    # elo1 = (8/9)*400*log10(2) = 107.0329 -> BayesElo b1 = 400*log10(2), 10^(b1/400) = 2:
    #   pw1 = 1/(1 + 2/2) = 1/2, pl1 = 1/(1 + 2*2) = 1/5, pd1 = 3/10.
    # LLR = 10*ln(3/2) + 10*ln(3/10 * 3) + 10*ln(3/5) = 10*ln(81/100) = -2.107210
    sprt = Sprt(0.0, 3200.0 / 9.0 * math.log10(2.0))
    assert sprt.llr(Score(10, 10, 10)) == pytest.approx(10 * math.log(0.81), abs=1e-9)
    assert sprt.status(Score(10, 10, 10)) == "continue"


def test_sprt_llr_published_cutechess_example():
    # github.com/cutechess/cutechess/issues/543: -sprt elo0=0.0 elo1=5.0 alpha=0.05 beta=0.05,
    # "880 - 759 - 1863 ... SPRT: llr 2.95 (100.2%), lbound -2.94, ubound 2.94 - H1 was accepted";
    # the comment reproduces 2.95 with sprt_elo.py --logistic (Van den Bergh).
    sprt = Sprt(0.0, 5.0)
    s = Score(wins=880, draws=1863, losses=759)
    assert round(sprt.llr(s), 2) == 2.95
    # 100.2% of the upper bound: 2.95/2.944 = 1.002
    assert round(100 * sprt.llr(s) / sprt.bounds()[1], 1) == 100.2
    assert sprt.status(s) == "accept H1"


# Further cutechess-cli SPRT lines quoted in engine logs; the bounds are not in those
# logs, the usual [0, 5] / [0, 10] reproduce the printed LLR (and its % of the bound).
@pytest.mark.parametrize("w,l,d,elo0,elo1,printed", [
    (5383, 5132, 4808, 0, 5, 2.95),     # "llr 2.95 (100.3%) - H1 was accepted"
    (108, 18, 11, 0, 10, 2.96),         # "llr 2.96 (100.5%) - H1 was accepted"
    (309, 304, 217, 0, 10, -0.271),     # "llr -0.271 (-9.2%)"
])
def test_sprt_llr_matches_cutechess_logs(w, l, d, elo0, elo1, printed):
    llr = Sprt(elo0, elo1).llr(Score(wins=w, draws=d, losses=l))
    assert llr == pytest.approx(printed, abs=0.005 if abs(printed) >= 1 else 0.0005)


def _brownian_llr(w, d, l, elo0, elo1):
    """Independent check: normal ("Brownian") approximation of the logistic GSPRT.

    With s_i = 1/(1+10^(-elo_i/400)), mean score mu and per-game variance var:
    LLR ~ N * (s1 - s0) * (2*mu - s0 - s1) / (2*var).
    """
    n = w + d + l
    mu = (w + d / 2) / n
    var = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu ** 2) / n
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


@pytest.mark.parametrize("w,d,l,elo0,elo1", [
    (880, 1863, 759, 0, 5),
    (5383, 4808, 5132, 0, 5),
    (309, 217, 304, 0, 10),
    (2000, 6000, 2100, -3, 1),
    (36433, 68692, 36027, 0, 2),
])
def test_sprt_llr_close_to_brownian_approximation(w, d, l, elo0, elo1):
    # For small Elo differences and many games both models agree closely.
    assert Sprt(elo0, elo1).llr(Score(w, d, l)) == pytest.approx(
        _brownian_llr(w, d, l, elo0, elo1), abs=0.01)


def test_sprt_llr_symmetry():
    # Swapping W/L and mirroring the hypotheses (elo0, elo1) -> (-elo1, -elo0) negates the LLR.
    s = Score(880, 1863, 759)
    mirrored = Score(759, 1863, 880)
    assert Sprt(-5, 0).llr(mirrored) == pytest.approx(-Sprt(0, 5).llr(s))
    # Equal wins and losses against symmetric hypotheses: LLR is exactly 0.
    assert Sprt(-5, 5).llr(Score(400, 300, 400)) == pytest.approx(0.0, abs=1e-12)


def test_sprt_needs_wins_draws_and_losses():
    # Like cutechess-cli, no LLR before there is at least one win, draw and loss.
    sprt = Sprt(0, 5)
    for s in [Score(0, 0, 0), Score(50, 0, 0), Score(0, 40, 0), Score(10, 10, 0), Score(0, 10, 10)]:
        assert sprt.llr(s) == 0.0
        assert sprt.status(s) == "continue"


def test_sprt_status_accept_h0():
    # A clear loss record against [0, 5]: 759 W, 1863 D, 880 L is the mirror of the
    # published example, LLR well below -2.94.
    sprt = Sprt(0, 5)
    s = Score(759, 1863, 880)
    assert sprt.llr(s) < sprt.bounds()[0]
    assert sprt.status(s) == "accept H0"


# --- format_line -----------------------------------------------------------------

def test_format_line_without_sprt():
    # 12 W 11 D 7 L: ratio 17.5/30 = 0.583, Elo -400*log10(12.5/17.5) = 58.5,
    # variance = (12*(5/12)^2 + 11*(1/12)^2 + 7*(7/12)^2)/30 = 0.151389, stderr = 0.071038,
    # margin 102.6; LOS 0.5*(1+erf(5/sqrt(38))) = 87.4%.
    assert format_line(Score(12, 11, 7)) == (
        "Score 12 - 7 - 11 [0.583] 30 games, Elo 58.5 +/- 102.6, LOS 87.4%")


def test_format_line_with_sprt():
    line = format_line(Score(wins=880, draws=1863, losses=759), Sprt(0, 5))
    assert line == ("Score 880 - 759 - 1863 [0.517] 3502 games, Elo 12.0 +/- 7.9, LOS 99.9%, "
                    "LLR 2.95 (-2.94, 2.94)")


def test_format_line_edge_cases():
    assert format_line(Score(0, 0, 0)) == (
        "Score 0 - 0 - 0 [0.500] 0 games, Elo 0.0 +/- inf, LOS 50.0%")
    assert format_line(Score(0, 8, 0), Sprt(0, 5)) == (
        "Score 0 - 0 - 8 [0.500] 8 games, Elo 0.0 +/- 0.0, LOS 50.0%, LLR 0.00 (-2.94, 2.94)")
