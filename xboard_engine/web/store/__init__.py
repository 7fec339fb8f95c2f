"""Everything kept: the records and the store's interface (``records``), SQLite and PostgreSQL and the
store thread.  It knows no game logic (``tests/test_layers.py``)."""
