"""After ``n`` good moves (default 0) prints junk lines, then a malformed move line.

--move TEXT   the malformed move (default zz99)
--junk K      how many random junk lines (default 20); besides them it always prints an empty
              line, a line with NUL and invalid UTF-8 bytes, a 100 000-character line and a few
              lines that look almost like protocol
--line TEXT   one extra line printed right before the move line
"""
import string
import sys

from _cecp import FakeEngine, main

ALMOST = ["moves e2e4", "mov e2e4", "#move e2e4", "Hint: e2e4", "telluser hi", "tellics say hi",
          "feature bogus=1", "pong 99999", "Error (nonsense): x", "offer draw", "12", "1 2 3",
          "1 x 2 3 e2e4", "-3 -900 1 1 e2e4", "setup", "piece", "...", "move", "move e2e4 e7e5"]


class Garbage(FakeEngine):
    default_n = 0

    def add_arguments(self, parser):
        parser.add_argument("--move", default="zz99")
        parser.add_argument("--junk", type=int, default=20)
        parser.add_argument("--line", default="")

    def junk(self):
        alphabet = string.ascii_letters + string.digits + string.punctuation + " \t\u00e9\u2603"
        while True:
            text = "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(1, 40))).strip()
            first = text.split()[0] if text else ""
            if text and first not in ("move", "resign", "pong") and not first[0].isdigit() \
                    and not text.startswith(("Illegal", "1-0", "0-1", "1/2", "offer", "...")):
                return text

    def fault(self):
        for _ in range(self.args.junk):
            self.send(self.junk())
        self.send("")
        for line in ALMOST:
            self.send(line)
        sys.stdout.flush()
        sys.stdout.buffer.write(b"\x00\xff\xfe junk \x80\n" + b"x" * 100000 + b"\n")
        sys.stdout.buffer.flush()
        if self.args.line:
            self.send(self.args.line)
        self.send(f"move {self.args.move}")


if __name__ == "__main__":
    main(Garbage)
