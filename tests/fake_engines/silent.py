"""Plays ``n`` legal moves, then stops answering anything (no move, no pong, not even quit) while
staying alive."""
import time

from _cecp import FakeEngine, main


class Silent(FakeEngine):
    def fault(self):
        while True:                  # reads nothing more: the referee must kill it
            time.sleep(1)


if __name__ == "__main__":
    main(Silent)
