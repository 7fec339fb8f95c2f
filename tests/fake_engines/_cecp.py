"""Shared CECP v2 plumbing for the deliberately faulty engines in this folder.

Each ``*.py`` here is a runnable script (``python tests/fake_engines/illegal.py 3``) that subclasses
``FakeEngine`` and overrides ``fault()``: what to do, instead of a good move, once it has played
``n`` moves of its own.  The base class does the handshake (``protover 2`` -> features, ``ping`` ->
``pong``), tracks the game with the rules core and plays seeded random legal moves.

Common options:
  n               moves of its own before the fault (default ``default_n``, 3)
  --seed S        seed of the random move choice
  --moves a,b,..  play these moves first (then random legal moves)
  --scores s,..   before its k-th move, post a thinking line ``3 s 10 1000 <move>`` with the k-th
                  score ("x" = post nothing); past the end of the list the last entry repeats
  --log FILE      append every line received to FILE
  --reuse 0|1     announce ``feature reuse=0`` (or 1): whether it may be kept for another game
"""
import argparse
import os
import random
import sys
from typing import List, Optional

try:
    import xboard_engine  # noqa: F401
except ImportError:                      # run by hand without PYTHONPATH
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from xboard_engine import Position, RulesError  # noqa: E402

VARIANTS = "normal,fischerandom,chess80,fullcavalry,8piece,8piece-random,8piece-2019"


class FakeEngine:
    default_n = 3
    send_features = True
    features = f'ping=1 setboard=1 usermove=1 time=1 sigint=0 sigterm=0 myname="fake" variants="{VARIANTS}"'

    def __init__(self, argv: Optional[List[str]] = None) -> None:
        parser = argparse.ArgumentParser()
        parser.add_argument("n", nargs="?", type=int, default=self.default_n)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--moves", default="")
        parser.add_argument("--scores", default="")
        parser.add_argument("--log", default="")
        parser.add_argument("--reuse", choices=("0", "1"))
        self.add_arguments(parser)
        self.args = parser.parse_args(argv)
        self.rng = random.Random(self.args.seed)
        self.script = [m for m in self.args.moves.split(",") if m]
        self.scores = [s for s in self.args.scores.split(",") if s]
        self.variant = "normal"
        self.pos = Position("normal")
        self.force = False
        self.side = 1
        self.moves_made = 0
        self.time_left = 0.0                 # seconds, from the last "time" command
        self.log = open(self.args.log, "a") if self.args.log else None

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        pass

    # ------------------------------------------------------------ output
    def send(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    # ------------------------------------------------------------ main loop
    def run(self) -> None:
        for raw in sys.stdin:
            line = raw.strip()
            if self.log:
                self.log.write(line + "\n")
                self.log.flush()
            if line and self.handle(line) is False:
                return

    def handle(self, line: str) -> Optional[bool]:
        cmd, _, arg = line.partition(" ")
        arg = arg.strip()
        if cmd == "quit":
            return False
        if cmd == "protover":
            if self.send_features:
                self.send("feature done=0")
                reuse = f" reuse={self.args.reuse}" if self.args.reuse else ""
                self.send(f"feature {self.features}{reuse}")
                self.send("feature done=1")
        elif cmd == "ping":
            self.send(f"pong {arg}")
        elif cmd == "new":
            self.variant, self.pos, self.force, self.side = "normal", Position("normal"), False, 1
        elif cmd == "variant":
            self.variant = arg
            self.pos = Position(arg)
        elif cmd == "setboard":
            self.pos = Position.from_fen(arg, self.variant)
        elif cmd == "force":
            self.force = True
        elif cmd == "time":
            self.time_left = int(arg) / 100.0
        elif cmd == "go":
            self.force = False
            self.side = self.pos.stm
            self.my_turn()
        elif cmd == "usermove":
            self.user_move(arg)
        elif not arg and self.looks_like_move(cmd):
            self.user_move(cmd)
        return None

    def looks_like_move(self, text: str) -> bool:
        try:
            self.pos.parse_move(text)
            return True
        except RulesError:
            return False

    def user_move(self, text: str) -> None:
        try:
            self.pos.push_text(text)
        except RulesError:
            self.send(f"Illegal move: {text}")
            return
        if not self.force and self.pos.stm == self.side and self.pos.outcome() is None:
            self.my_turn()

    # ------------------------------------------------------------ playing
    def my_turn(self) -> None:
        if self.moves_made >= self.args.n:
            self.fault()
        else:
            self.play_move()

    def fault(self) -> None:
        """What the engine does instead of a good move once it has played ``n`` moves."""
        self.play_move()

    def choose(self) -> str:
        if self.script:
            text = self.script.pop(0)
            return self.pos.move_text(self.pos.parse_move(text))
        return self.rng.choice(sorted(self.pos.legal_texts()))

    def play_move(self, text: Optional[str] = None) -> None:
        text = text or self.choose()
        if self.scores:
            score = self.scores[min(self.moves_made, len(self.scores) - 1)]
            if score != "x":
                self.send(f"3 {score} 10 1000 {text}")
        self.pos.push_text(text)
        self.moves_made += 1
        self.send(f"move {text}")

    def colour(self) -> str:
        return "White" if self.pos.stm == 0 else "Black"


def main(cls) -> None:
    cls(sys.argv[1:]).run()
