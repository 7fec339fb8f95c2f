"""8 Player Chess in the browser played to the very end: the real server, the real page in headless
Chromium, White a human clicking among seven random bots (pace 0, no clock).  A whole game takes
several minutes in the browser (some 2,500 actions when White plays on, the page drawing each), so here
White plays 10 sets by clicks, resigns by its button and closes the page; the bots play on to the end;
the page opened again must show the end, and the server's record must replay to the same result and
scores (scripts/web_8pc_full_game.py plays whole games watched live)."""
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("selenium")

from web_page import ROOT, Server, chrome, have_browser  # noqa: E402

sys.path.insert(0, str(Path(ROOT) / "scripts"))

from web_8pc_full_game import play_full_game  # noqa: E402


@pytest.mark.slow
@pytest.mark.skipif(not have_browser(), reason="needs selenium, Debian's chromium and chromium-driver")
def test_a_game_with_one_human_reaches_its_end_in_the_browser(tmp_path):
    server = Server(tmp_path / "data")
    driver = chrome()
    driver.set_window_size(1400, 1000)
    try:
        figures = play_full_game(server, driver, "pairs", bots="random", seed=2, max_minutes=4.0,
                                 resign_after=10, leave_after_resigning=True)
    finally:
        driver.quit()
        server.stop()
    assert figures["resigned"] and figures["white"] == "resigned"
    assert figures["human_moves"] == 10 and figures["clicks"] >= 2 * 10 + 1
    assert figures["sets"] > 10 and figures["result"]["reason"]
    assert figures["moves"] > 80                 # the bots played on after White left
