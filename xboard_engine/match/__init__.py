"""Tournament runner and referee: matches, gauntlets and round-robins of XBoard and UCI engines.

>>> from xboard_engine.match import EngineConfig, TimeControl, play_game   # doctest: +SKIP
>>> ours = EngineConfig("ours", "xboard-engine")                          # doctest: +SKIP
>>> game = play_game(ours, ours._replace(name="ours-2"), "chess80", TimeControl.parse("10+0.1"))  # doctest: +SKIP
"""
from ..time_control import TimeControl
from .engines import EngineConfig, EngineFailure
from .keeper import EngineKeeper
from .pgn import game_to_pgn, read_games, replay
from .referee import Adjudication, GameRecord, play_game
from .stats import Score, Sprt
from .tournament import MatchResult, Opening, Tournament, run_match

__all__ = ["EngineConfig", "EngineFailure", "EngineKeeper", "Adjudication", "GameRecord", "TimeControl", "play_game",
           "Score", "Sprt", "MatchResult", "Opening", "Tournament", "run_match", "game_to_pgn",
           "read_games", "replay"]
