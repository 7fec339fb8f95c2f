"""The rules core: boards, pieces and their behaviours, variants as data, moves, positions with
make/unmake, legal move generation, attacks, FEN, move text and the end of a game.

It imports nothing but the standard library (``tests/test_layers.py``); an evaluation is installed
into it from outside (``variant.install_evaluation``)."""
