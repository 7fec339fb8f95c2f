"""The 8 Player Chess bots: the algorithms and their time per move (``bot``), the searches, the
evaluation with its values, the move ordering and the search state."""
