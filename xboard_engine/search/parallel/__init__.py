"""Lazy SMP: the helper processes (``smp``), the memory they share (``shared_memory``) and the
transposition table in it (``shared_table``)."""
