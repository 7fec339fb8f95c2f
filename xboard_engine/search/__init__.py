"""The search: iterative deepening (``searcher``) over alpha-beta (``alphabeta``), the transposition
table, the evaluation with its fitted weights and net, time management, scores, the warm-up of PyPy's
JIT, ``bench``/``perft`` and Lazy SMP over several processes.  It knows the rules core only."""
