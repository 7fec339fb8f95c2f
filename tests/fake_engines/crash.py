"""Plays legal moves, then exits abruptly when asked for its ``n+1``-th move.

--how exit    sys.exit(3) (default)
--how _exit   os._exit(3), no clean-up at all
--how kill    SIGKILL to itself
--how close   closes its standard output but stays alive (the referee sees end of input)
"""
import os
import signal
import sys
import time

from _cecp import FakeEngine, main


class Crash(FakeEngine):
    def add_arguments(self, parser):
        parser.add_argument("--how", choices=("exit", "_exit", "kill", "close"), default="exit")

    def fault(self):
        how = self.args.how
        if how == "exit":
            sys.exit(3)
        if how == "_exit":
            os._exit(3)
        if how == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        sys.stdout.close()
        os.close(1)
        time.sleep(60)


if __name__ == "__main__":
    main(Crash)
