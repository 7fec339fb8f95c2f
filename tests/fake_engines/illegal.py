"""Plays legal moves, then after ``n`` moves an illegal one.

--kind own    a piece moved onto a square its own side occupies (default)
--kind jump   e2e5 / e7e4-style: a pawn three squares forward
"""
from _cecp import FakeEngine, RulesError, main


class Illegal(FakeEngine):
    def add_arguments(self, parser):
        parser.add_argument("--kind", choices=("own", "jump"), default="own")

    def fault(self):
        self.send(f"move {self.illegal_text()}")

    def illegal_text(self):
        pos, v = self.pos, self.pos.v
        if self.args.kind == "jump":
            return "e2e5" if pos.stm == 0 else "e7e4"
        mine = [name for name in v.by_name if pos.piece_at(name)
                and pos.piece_at(name).isupper() == (pos.stm == 0)]
        for frm in mine:
            for to in mine:
                if frm != to:
                    try:
                        pos.parse_move(frm + to)           # king-takes-rook castling is legal
                    except RulesError:
                        return frm + to
        raise AssertionError("no illegal move found")


if __name__ == "__main__":
    main(Illegal)
