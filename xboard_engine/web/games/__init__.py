"""The games as the pages see them, over the rules core: a two-player game, an 8 Player game, and the
one adapter per kind of game (``tables``)."""
