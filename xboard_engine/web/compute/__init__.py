"""The server's thinking off its event loop: the bots' worker pool (``pool``) and the analysis of
finished games."""
