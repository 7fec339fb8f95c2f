"""The engine a GUI starts: the worker thread both protocols think in (``driver``), the options table,
the line channel, the interpreter choice, UCI (``uci``) and CECP (``cecp/``), with what exists only
because of XBoard 4.9.1 in ``xboard/``.  UCI knows nothing of ``cecp/`` or ``xboard/``."""
