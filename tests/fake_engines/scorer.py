"""A well-behaved fake engine: plays scripted (--moves) then seeded random legal moves and posts the
scores given with --scores before each move.  ``n`` is ignored."""
from _cecp import FakeEngine, main


class Scorer(FakeEngine):
    def my_turn(self):
        self.play_move()


if __name__ == "__main__":
    main(Scorer)
