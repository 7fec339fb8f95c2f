"""The CECP commands that set the engine up or ask it about the board rather than play a game:
``memory``, ``cores``, ``random``, ``option``, ``perft``, ``bench``, ``lift``, ``put`` and ``d``/``board``
(``CecpEngine`` in ``protocol.py`` inherits them; its ``COMMANDS`` table names them)."""
from typing import TYPE_CHECKING, Callable

from ...core.digits import parse_int
from ...core.notation import board_lines
from ...search.bench import MAX_PERFT_DEPTH, run_bench, run_perft
from ...search.parallel.smp import usable_threads
from ..options import CECP, CLEAR_HASH, HASH, MULTIPV, find_option

if TYPE_CHECKING:
    from ..textio import Channel
    from .session import Session
    from .thinker import Thinker

MAX_HASH_MB = 2048      # `memory` beyond this is taken as this


class ToolCommands:
    """The set-up and board-query commands (a part of ``CecpEngine``: they use its session, thinker,
    channel and ``send``/``tell``)."""

    session: "Session"
    thinker: "Thinker"
    channel: "Channel"
    cores: int
    send: Callable[[str], None]

    def tell(self, text: str, error: bool = False) -> None:
        raise NotImplementedError

    def _analyze_again(self) -> None:
        raise NotImplementedError

    def cmd_memory(self, arg: str) -> None:
        try:
            megabytes = max(1, parse_int(arg))
        except ValueError:
            self.send(f"Error (bad memory): {arg[:80]}")
            return
        self.thinker.searcher.set_hash_size(min(megabytes, MAX_HASH_MB))
        self._start_helpers()

    def cmd_cores(self, arg: str) -> None:
        try:
            self.cores = max(1, parse_int(arg))
            self.thinker.searcher.set_threads(usable_threads(self.cores))
        except ValueError:
            self.send(f"Error (bad cores): {arg[:80]}")
            return
        self._start_helpers()

    def _start_helpers(self) -> None:
        """After `cores` or `memory`: start the helper processes now if no search runs, so that they
        are ready and warmed up when the next one begins (else that search starts them)."""
        if not self.thinker.mode:
            self.thinker.searcher.start_helpers()

    def cmd_random(self, arg: str) -> None:
        self.thinker.random = not self.thinker.random

    def cmd_option(self, arg: str) -> None:
        given, _, text = arg.partition("=")
        option = find_option(given, CECP)
        if option is None:
            self.send(f"Error (unknown option): {given.strip()[:80]}")
            return
        if option.name == CLEAR_HASH:
            self.thinker.clear()
            return
        ok, value = option.parse(text)
        if not ok:
            self.send(f"Error (bad option value): {arg[:80]}")
            return
        self.session.set_option(option.name, value)
        if option.name == HASH:
            self.thinker.searcher.set_hash_size(int(value))
            self._start_helpers()
        elif option.name == MULTIPV:
            self._analyze_again()

    def cmd_perft(self, arg: str) -> None:
        """Count the leaf positions ``depth`` plies deep, in the worker thread (``?``, ``new`` and
        any other command that stops a search stop it)."""
        try:
            depth = parse_int(arg)
            if not 0 <= depth <= MAX_PERFT_DEPTH:
                raise ValueError
        except ValueError:
            self.send(f"Error (bad perft depth): {arg[:80]}")
            return
        pos = self.session.pos.copy()
        self.thinker.start_job("perft", lambda job: run_perft(self.send, "perft", pos, depth, job))

    def cmd_bench(self, arg: str) -> None:
        """Search the benchmark positions to fixed depths and print the node signature (``bench quick``:
        shallower), in the worker thread (about half a minute; quick: seconds); stopped like perft."""
        if arg.strip() not in ("", "quick"):
            self.send(f"Error (bad bench argument, expected nothing or quick): {arg[:80]}")
            return
        quick = arg.strip() == "quick"
        self.thinker.start_job("bench", lambda job: run_bench(self.send, quick, job))

    def cmd_lift(self, arg: str) -> None:
        """XBoard's ``lift SQ`` (feature highlight=1): the lifted unit's legal targets."""
        square = arg.split()[0] if arg else ""
        with self.thinker.lock:
            line, note = self.session.lift(square), self.session.lift_note(square)
        self.send(line)
        if note:
            self.tell(note)

    def cmd_put(self, arg: str) -> None:
        """XBoard's ``put SQ``: the pieces to choose from where the move needs a choice."""
        with self.thinker.lock:
            line = self.session.put(arg.split()[0] if arg else "")
        if line:
            self.send(line)

    def cmd_display(self, arg: str) -> None:
        self.channel.send_lines(board_lines(self.session.pos))
