"""Plays ``n`` legal moves, then resigns.

--style word     "resign" (default)
--style result   "0-1 {White resigns}" / "1-0 {Black resigns}"
"""
from _cecp import FakeEngine, main


class Resign(FakeEngine):
    def add_arguments(self, parser):
        parser.add_argument("--style", choices=("word", "result"), default="word")

    def fault(self):
        if self.args.style == "word":
            self.send("resign")
        elif self.pos.stm == 0:
            self.send("0-1 {White resigns}")
        else:
            self.send("1-0 {Black resigns}")


if __name__ == "__main__":
    main(Resign)
