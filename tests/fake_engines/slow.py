"""Plays legal moves; from its ``n+1``-th move on it sleeps before each move.

--sleep over  longer than its clock allows: the last ``time`` it was told plus one second
              (at least 1.5 s) (default)
--sleep S     S seconds
"""
import time

from _cecp import FakeEngine, main


class Slow(FakeEngine):
    def add_arguments(self, parser):
        parser.add_argument("--sleep", default="over")

    def fault(self):
        if self.args.sleep == "over":
            time.sleep(max(1.5, self.time_left + 1.0))
        else:
            time.sleep(float(self.args.sleep))
        self.play_move()


if __name__ == "__main__":
    main(Slow)
