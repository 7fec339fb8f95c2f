"""Games of more than two players: 8 Player Chess (EIGHT_PLAYER.md).

``MultiPosition`` is the rules core (moves, make/unmake, check); ``Game`` the referee (turns,
eliminations, credits, points, modes, options, the end); ``bots`` the searches that play it.
"""
from .position import MultiPosition
from .rules import MultiVariant, get_multi_variant

__all__ = ["MultiPosition", "MultiVariant", "get_multi_variant"]
