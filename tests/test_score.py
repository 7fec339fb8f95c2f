"""The one score type (``xboard_engine.search.score``): from the search's integers, to and from CECP and UCI
texts, flipped to White's view, shown on the pages, and compared with the referee's thresholds."""
import pytest

from xboard_engine.search.alphabeta import MATE
from xboard_engine.search.score import (CECP_MATE, MAX_CENTIPAWNS, MAX_MATE_MOVES, Score, centipawns, from_search,
                                 mate_in, mated_in, parse_cecp, parse_uci)

EXAMPLES = [centipawns(0), centipawns(35), centipawns(-1234), mate_in(1), mate_in(3), mated_in(1), mated_in(2),
            mated_in(0)]


def uci_words(score: Score, tail: str = "") -> list:
    return f"info depth 7 seldepth 9 score {score.uci()}{tail} nodes 100 pv e2e4".split()


@pytest.mark.parametrize("value, score, cecp, uci, page", [
    (MATE - 1, mate_in(1), 100001, "mate 1", "#1"),           # mates with its next move (1 ply)
    (MATE - 3, mate_in(2), 100002, "mate 2", "#2"),
    (MATE - 5, mate_in(3), 100003, "mate 3", "#3"),
    (-(MATE - 2), mated_in(1), -100001, "mate -1", "#-1"),    # the opponent mates with its next move
    (-(MATE - 4), mated_in(2), -100002, "mate -2", "#-2"),
    (-MATE, mated_in(0), -100000, "mate 0", "#-0"),           # mated on the board
])
def test_the_searchs_mate_integers_in_moves(value, score, cecp, uci, page):
    converted = from_search(value)
    assert converted == score and converted.is_mate
    assert (converted.cecp(), converted.uci(), converted.page_text()) == (cecp, uci, page)


def test_the_searchs_centipawns_stay_centipawns():
    for value in (0, 1, -1, 35, -250, 5000, -5000):
        score = from_search(value)
        assert not score.is_mate and score.cp == value and score.cecp() == value and score.uci() == f"cp {value}"
    assert from_search(35).page_text() == "+0.35" and from_search(-120).page_text() == "-1.20"
    assert from_search(0).page_text() == "+0.00"


@pytest.mark.parametrize("score", EXAMPLES, ids=str)
def test_cecp_round_trip(score):
    assert parse_cecp(str(score.cecp())) == score


@pytest.mark.parametrize("score", EXAMPLES, ids=str)
@pytest.mark.parametrize("bound", ["", " lowerbound", " upperbound"])
def test_uci_round_trip_with_or_without_a_bound(score, bound):
    assert parse_uci(uci_words(score, bound)) == score


def test_cecp_follows_the_protocols_100000_plus_moves():
    assert parse_cecp("100003") == mate_in(3) and parse_cecp("-100002") == mated_in(2)
    assert parse_cecp("100000") == mate_in(0) and parse_cecp("-100000") == mated_in(0)
    assert parse_cecp("99999") == centipawns(99999) and parse_cecp("-45") == centipawns(-45)


def test_uci_mate_counts_moves_and_mate_0_is_mated():
    assert parse_uci("info depth 3 score mate 3 pv a b c d e".split()) == mate_in(3)
    assert parse_uci("info depth 3 score mate -2 pv a".split()) == mated_in(2)
    assert parse_uci("info depth 0 score mate 0".split()) == mated_in(0)
    assert parse_uci("info depth 0 score mate -0".split()) == mated_in(0)
    assert mated_in(0).uci() == "mate 0"


def test_a_mate_on_the_board_seen_from_the_winner_has_no_uci_text():
    won = mated_in(0).flipped()
    assert won == mate_in(0) and won.page_text() == "#0" and won.cecp() == CECP_MATE
    with pytest.raises(ValueError):
        won.uci()


@pytest.mark.parametrize("words", ["info depth 3 nodes 10", "info depth 3 score", "info depth 3 score cp",
                                   "info depth 3 score cp x12", "info depth 3 score cp \u00b2",
                                   "info depth 3 score wdl 1 2 3", "info score mate 1234567890123"])
def test_uci_lines_without_a_readable_score(words):
    assert parse_uci(words.split()) is None


@pytest.mark.parametrize("word", ["x", "", "-", "\u00b2", "1.5", "+-3", "12345678901234567890"])
def test_cecp_words_that_are_not_scores(word):
    assert parse_cecp(word) is None


def test_absurd_values_are_clamped():
    assert parse_cecp("999999999") == mate_in(MAX_MATE_MOVES)
    assert parse_cecp("-999999999") == mated_in(MAX_MATE_MOVES)
    assert parse_uci("score mate 999999999".split()) == mate_in(MAX_MATE_MOVES)
    assert parse_uci("score mate -999999999".split()) == mated_in(MAX_MATE_MOVES)
    assert parse_uci("score cp 999999999".split()) == centipawns(MAX_CENTIPAWNS)
    assert parse_uci("score cp -999999999".split()) == centipawns(-MAX_CENTIPAWNS)
    assert centipawns(MAX_CENTIPAWNS).cecp() < CECP_MATE           # still centipawns when written out
    assert mate_in(-4) == mate_in(0)


def test_white_view_and_flip():
    assert mate_in(3).for_white(0).page_text() == "#3"
    assert mate_in(3).for_white(1).page_text() == "#-3"           # Black mates in 3
    assert mated_in(2).for_white(1).page_text() == "#2"           # Black is mated in 2: White mates
    assert centipawns(35).for_white(1).page_text() == "-0.35"
    for score in EXAMPLES:
        assert score.flipped().flipped() == score


def test_order_and_thresholds_compare_mates_beyond_any_centipawns():
    ranked = [mated_in(0), mated_in(1), mated_in(5), centipawns(-MAX_CENTIPAWNS), centipawns(0),
              centipawns(MAX_CENTIPAWNS), mate_in(5), mate_in(1)]
    assert sorted(reversed(ranked), key=Score.order) == ranked
    assert mate_in(7).at_least(MAX_CENTIPAWNS) and not mate_in(7).at_most(-500)
    assert mated_in(7).at_most(-MAX_CENTIPAWNS) and not mated_in(7).at_least(500)
    assert centipawns(500).at_least(500) and not centipawns(499).at_least(500)
    assert centipawns(-500).at_most(-500) and not centipawns(-499).at_most(-500)
    assert mate_in(30).beyond(10 ** 6) and mated_in(30).beyond(10 ** 6)
    assert centipawns(-11).beyond(10) and not centipawns(10).beyond(10)
