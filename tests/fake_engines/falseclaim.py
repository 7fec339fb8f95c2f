"""Plays ``n`` legal moves, then, instead of moving, claims a result in a position where the game
is not over.

--claim win   "1-0 {White mates}" as White, "0-1 {Black mates}" as Black (default)
--claim draw  "1/2-1/2 {Draw by repetition}"
"""
from _cecp import FakeEngine, main


class FalseClaim(FakeEngine):
    def add_arguments(self, parser):
        parser.add_argument("--claim", choices=("win", "draw"), default="win")

    def fault(self):
        assert self.pos.outcome() is None
        if self.args.claim == "draw":
            self.send("1/2-1/2 {Draw by repetition}")
        elif self.pos.stm == 0:
            self.send("1-0 {White mates}")
        else:
            self.send("0-1 {Black mates}")


if __name__ == "__main__":
    main(FalseClaim)
