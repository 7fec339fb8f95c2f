"""A protocol-1 style engine: never sends features (answers ``protover`` with an error), knows no
``ping`` and no ``usermove``, takes moves as bare coordinate texts and plays legal moves.

--style move      "move e7e5" (default)
--style numbered  "1. ... e7e5", the old form
"""
from _cecp import FakeEngine, main


class NoFeatures(FakeEngine):
    send_features = False

    def add_arguments(self, parser):
        parser.add_argument("--style", choices=("move", "numbered"), default="move")

    def handle(self, line):
        cmd = line.split()[0]
        if cmd in ("protover", "ping", "usermove", "accepted", "rejected"):
            self.send(f"Error (unknown command): {cmd}")
            return None
        return super().handle(line)

    def play_move(self, text=None):
        if self.args.style == "move":
            return super().play_move(text)
        text = text or self.choose()
        number = self.pos.fullmove
        self.pos.push_text(text)
        self.moves_made += 1
        self.send(f"{number}. ... {text}")

    def fault(self):
        self.play_move()


if __name__ == "__main__":
    main(NoFeatures)
