"""Sends ``feature done=0``, takes --delay seconds (default 3) to initialise, then sends its features
(usermove=1, ping=1) and ``feature done=1``.  Like a real engine that needs usermove=1 it rejects
bare move texts ("Error (unknown command)").  Plays legal moves."""
import time

from _cecp import FakeEngine, main


class SlowInit(FakeEngine):
    send_features = False

    def add_arguments(self, parser):
        parser.add_argument("--delay", type=float, default=3.0)

    def handle(self, line):
        cmd = line.split()[0]
        if cmd == "protover":
            self.send("feature done=0")
            time.sleep(self.args.delay)
            self.send(f"feature {self.features}")
            self.send("feature done=1")
            return None
        if cmd not in ("usermove",) and self.looks_like_move(cmd):
            self.send(f"Error (unknown command): {cmd}")
            return None
        return super().handle(line)

    def my_turn(self):
        self.play_move()


if __name__ == "__main__":
    main(SlowInit)
