"""Games of more than two players: 8 Player Chess (docs/EIGHT_PLAYER_RULES.md).

``MultiPosition`` is the rules core (moves, make/unmake, check); ``Game`` the referee (turns,
eliminations, credits, points, modes, options, the end); ``bots`` the bots that play it
(their searches, evaluation and move ordering in the ``bot_*`` modules).
"""
from .position import MultiPosition
from .rules import MultiVariant, get_multi_variant

__all__ = ["MultiPosition", "MultiVariant", "get_multi_variant"]
