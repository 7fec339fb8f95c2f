"""XBoard/CECP v2: the text layer (``protocol``), the game as the GUI describes it (``session``) and
the engine's thinking, pondering and analysis (``thinker``)."""
