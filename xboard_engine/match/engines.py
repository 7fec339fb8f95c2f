"""Engine processes as the referee sees them: XBoard (CECP v2) and UCI, with timeouts everywhere.

Every wait has a deadline; a dead process or a silent one becomes an ``EngineFailure`` whose ``kind``
the referee turns into a result and a PGN ``Termination``.
"""
import os
import queue
import re
import shlex
import subprocess
import threading
import time
import weakref
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ..search.score import Score, parse_cecp, parse_uci

# What an engine reports while it thinks: depth, score (its own view) and its principal variation
# as the move tokens it wrote.
InfoCallback = Callable[[int, Score, List[str]], None]


class EngineConfig(NamedTuple):
    """One engine as given on the command line (cutechess-cli's ``-engine`` keys)."""
    name: str
    cmd: str
    dir: str = ""
    proto: str = "xboard"                    # "xboard" or "uci"
    options: Tuple[Tuple[str, str], ...] = ()
    init_time: float = 10.0                  # seconds allowed for the handshake
    restart: str = "auto"                    # between games: auto, on or off (keeper.py)


class EngineFailure(Exception):
    """The engine crashed (``crash``), stopped answering (``stall``) or broke the protocol."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Reply(NamedTuple):
    kind: str          # "move", "resign", "draw", "claim", "illegal", "error"
    text: str


TRANSCRIPT_KEPT = 2000       # lines of a kept engine's dialogue kept past its game's end

# Every engine process of this Python process that is not closed yet, for kill_all().
_LIVE: "weakref.WeakSet[_Process]" = weakref.WeakSet()


def kill_all() -> None:
    """Kill every engine this process started and has not closed (each runs in its own session, so
    nothing else reaches it); for a tournament worker that is told to stop in the middle of a game."""
    for process in list(_LIVE):
        try:
            os.killpg(process.proc.pid, 9)
        except OSError:
            pass


class _Process:
    """A child process whose output lines arrive in a queue read by a thread."""

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        try:
            args = shlex.split(config.cmd)
        except ValueError as error:
            raise EngineFailure("crash", f"bad command {config.cmd!r}: {error}") from None
        try:
            self.proc = subprocess.Popen(args, cwd=config.dir or None, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                         bufsize=0, start_new_session=True)
        except OSError as error:
            raise EngineFailure("crash", f"cannot start {config.name}: {error}") from None
        _LIVE.add(self)
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.transcript: List[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            for raw in iter(lambda: stream.readline(1 << 16), b""):
                self.lines.put(raw.decode("utf-8", "replace").strip())
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.transcript.append("> " + line)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineFailure("crash", f"{self.config.name} does not accept input (exited?)") from None

    def readline(self, deadline: float) -> str:
        """Next output line before ``deadline`` (time.monotonic); EngineFailure otherwise."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure("stall", f"{self.config.name} did not answer in time")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.lines.put(None)           # stays at end of input
                raise EngineFailure("crash", f"{self.config.name} exited (code {self.proc.poll()})")
            self.transcript.append("< " + line)
            if line:
                return line

    def trim_transcript(self) -> None:
        """Drop all but the last lines of the dialogue (a kept engine's would grow without end)."""
        if len(self.transcript) > TRANSCRIPT_KEPT:
            del self.transcript[:-TRANSCRIPT_KEPT]

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except (OSError, ProcessLookupError):
                self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        _LIVE.discard(self)


class EngineClient:
    """Common interface the referee uses; ``CecpClient`` and ``UciClient`` implement it."""

    last_score: Optional[Score] = None   # score reported for the last move (own view), None if none
    last_depth: Optional[int] = None   # search depth reported for the last move, None if none
    on_info: Optional[InfoCallback] = None   # called (from the caller's thread) for each report

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.name = config.name
        self.process = _Process(config)

    def close(self) -> None:
        self.process.close()

    def end_game(self, result: str, reason: str) -> None:
        """The game has ended (the engine is kept for another): tell the engine, where its protocol
        has a word for it."""
        self.process.trim_transcript()

    @property
    def transcript(self) -> List[str]:
        return self.process.transcript


class CecpClient(EngineClient):
    """A CECP engine.  The referee keeps it in force mode except while it is to move."""

    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self.features: Dict[str, str] = {}
        self._ping = 0
        p = self.process
        p.send("xboard")
        p.send("protover 2")
        deadline = time.monotonic() + config.init_time
        while True:
            # CECP: without features after 2 s it is a protocol-1 engine; after done=0 wait for done=1.
            waiting_for_done = self.features.get("done") == "0"
            try:
                line = p.readline(deadline if waiting_for_done else min(deadline, time.monotonic() + 2.0))
            except EngineFailure as failure:
                if failure.kind == "stall" and not waiting_for_done and time.monotonic() < deadline:
                    break
                raise
            if line.startswith("feature "):
                for key, value in _parse_features(line[8:]):
                    self.features[key] = value
                    if key != "done":
                        p.send(f"accepted {key}")
                if self.features.get("done") == "1":
                    break
                if self.features.get("done") == "0" and not waiting_for_done:
                    deadline = time.monotonic() + max(config.init_time, 60.0)
        for name, value in config.options:
            p.send(f"option {name}={value}")
        self.sync()

    def sync(self, timeout: float = 10.0) -> List[str]:
        """ping/pong: every command sent so far has been processed.  Returns the lines read
        before the pong."""
        if self.features.get("ping") != "1":
            return []
        self._ping += 1
        self.process.send(f"ping {self._ping}")
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.process.readline(deadline)
            if line == f"pong {self._ping}":
                return seen
            seen.append(line)

    def offer_draw(self) -> bool:
        """Offer a draw while the engine waits (force mode); True if it accepts (CECP: it answers
        ``offer draw``)."""
        if self.features.get("draw", "1") == "0":
            return False
        self.process.send("draw")
        return "offer draw" in self.sync()

    def new_game(self, variant: str, fen: Optional[str], moves: List[str], level: List[str]) -> None:
        p = self.process
        self.last_score = None
        p.send("new")
        if variant != "normal":
            variants = self.features.get("variants")
            if variants is not None and variant not in variants.split(","):
                raise EngineFailure("protocol", f"{self.name} does not play {variant}")
            p.send(f"variant {variant}")
        p.send("force")
        if fen:
            if self.features.get("setboard") == "0":
                raise EngineFailure("protocol", f"{self.name} does not accept positions (feature setboard=0):"
                                    " give it openings as moves (-openings file=F.pgn format=pgn)")
            p.send(f"setboard {fen}")
        for line in level:
            p.send(line)
        p.send("post")
        p.send("easy")
        for text in moves:
            p.send(f"usermove {text}" if self.features.get("usermove") == "1" else text)
        self.sync()
        self._thinking = False

    def play(self, last_move: Optional[str], my_time: Optional[float], opp_time: Optional[float],
             deadline: float) -> Reply:
        """Tell the engine the opponent's move (or ``go``) and wait for its reply until ``deadline``.
        ``my_time``/``opp_time`` are None when the game has no clock (depth or node limits)."""
        p = self.process
        self.last_score = None
        self.last_depth = None
        if self.features.get("time", "1") == "1" and my_time is not None and opp_time is not None:
            p.send(f"time {max(0, int(my_time * 100))}")
            p.send(f"otim {max(0, int(opp_time * 100))}")
        if last_move is None or not self._thinking:
            if last_move is not None:
                p.send(f"usermove {last_move}" if self.features.get("usermove") == "1" else last_move)
            p.send("go")
            self._thinking = True
        else:
            p.send(f"usermove {last_move}" if self.features.get("usermove") == "1" else last_move)
        while True:
            line = p.readline(deadline)
            word = line.split(None, 1)[0]
            if word == "move" and len(line.split()) == 2:
                return Reply("move", line.split()[1])
            if line.startswith("Illegal move"):
                return Reply("illegal", line)
            if word == "resign" or line.startswith(("0-1 {", "1-0 {")) and "resign" in line.lower():
                return Reply("resign", line)
            if line.startswith("offer draw"):
                continue
            if line.startswith(("1-0", "0-1", "1/2-1/2")):
                return Reply("claim", line)
            if word.startswith("Error"):
                continue
            if _looks_like_move(line) and self.features.get("san") != "1":
                return Reply("move", line.split()[-1])     # protocol-1 style "1. ... e7e5"
            if word[0].isdigit():
                parts = line.split()
                score = parse_cecp(parts[1]) if len(parts) >= 4 else None
                if score is not None:
                    self.last_score = score
                    depth = _LEADING_DIGITS.match(parts[0])
                    if depth:
                        self.last_depth = int(depth.group())
                    if self.on_info is not None:
                        self.on_info(self.last_depth or 0, self.last_score, parts[4:])
                continue
            if word.startswith("#") or word in ("tellusererror", "telluser", "tellics",
                                                                        "feature", "setup", "piece", "pong"):
                continue

    def stop(self) -> None:
        self.process.send("force")

    def end_game(self, result: str, reason: str) -> None:
        super().end_game(result, reason)
        if result in ("1-0", "0-1", "1/2-1/2"):
            words = (reason or "game over").replace("{", "(").replace("}", ")")
            self.process.send(f"result {result} {{{words}}}")
        self.process.send("force")
        self._thinking = False

    def quit(self) -> None:
        try:
            self.process.send("force")
            self.process.send("quit")
        except EngineFailure:
            pass
        self.close()


class UciClient(EngineClient):
    """A UCI engine: orthodox chess and Chess960 (UCI_Chess960), other variants if its UCI_Variant
    option offers them (as Fairy-Stockfish and this project's engine do)."""

    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        p = self.process
        p.send("uci")
        deadline = time.monotonic() + config.init_time
        self.options_seen: List[str] = []
        self.variants: List[str] = []          # the choices of its UCI_Variant option
        while True:
            line = p.readline(deadline)
            if line.startswith("option name "):
                name = line[12:].split(" type ")[0]
                self.options_seen.append(name)
                if name == "UCI_Variant":
                    words = line.split()
                    self.variants = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "var"]
            if line == "uciok":
                break
        for name, value in config.options:
            p.send(f"setoption name {name} value {value}")
        self.sync()

    def sync(self, timeout: float = 10.0) -> None:
        self.process.send("isready")
        deadline = time.monotonic() + timeout
        while self.process.readline(deadline) != "readyok":
            pass

    def new_game(self, variant: str, fen: Optional[str], moves: List[str], level: List[str]) -> None:
        self.last_score = None
        if variant not in ("normal", "fischerandom"):
            if variant not in self.variants:
                raise EngineFailure("protocol", f"{self.name} (UCI) cannot play {variant}: its UCI_Variant "
                                    f"option offers {', '.join(self.variants) or 'no variants'}")
            self.process.send(f"setoption name UCI_Variant value {variant}")
        elif "UCI_Chess960" in self.options_seen:
            self.process.send(f"setoption name UCI_Chess960 value {'true' if variant == 'fischerandom' else 'false'}")
        self.process.send("ucinewgame")
        self.sync()
        self._fen = fen
        self._level = level

    def play_uci(self, moves: List[str], go: str, deadline: float) -> Reply:
        position = f"position fen {self._fen}" if self._fen else "position startpos"
        if moves:
            position += " moves " + " ".join(moves)
        self.last_score = None
        self.last_depth = None
        self.process.send(position)
        self.process.send(go)
        while True:
            line = self.process.readline(deadline)
            if line.startswith("info ") and " score " in line:
                words = line.split()
                if "depth" in words and words.index("depth") + 1 < len(words) \
                        and words[words.index("depth") + 1].isdigit():
                    self.last_depth = int(words[words.index("depth") + 1])
                score = parse_uci(words)
                if score is not None:
                    self.last_score = score
                    if self.on_info is not None and "pv" in words:
                        self.on_info(self.last_depth or 0, self.last_score, words[words.index("pv") + 1:])
                continue
            if line.startswith("bestmove"):
                parts = line.split()
                if len(parts) < 2 or parts[1] == "(none)":
                    return Reply("resign", line)
                return Reply("move", parts[1])   # 0000 is a pass where one is legal, else illegal

    def stop(self) -> None:
        self.process.send("stop")

    def quit(self) -> None:
        try:
            self.process.send("quit")
        except EngineFailure:
            pass
        self.close()


def _parse_features(text: str) -> List[Tuple[str, str]]:
    out = []
    i = 0
    while i < len(text):
        while i < len(text) and text[i] == " ":
            i += 1
        eq = text.find("=", i)
        if eq < 0:
            break
        key = text[i:eq]
        if eq + 1 < len(text) and text[eq + 1] == '"':
            end = text.find('"', eq + 2)
            end = len(text) if end < 0 else end
            out.append((key, text[eq + 2:end]))
            i = end + 1
        else:
            end = text.find(" ", eq)
            end = len(text) if end < 0 else end
            out.append((key, text[eq + 1:end]))
            i = end
    return out


_LEADING_DIGITS = re.compile(r"[0-9]{1,3}")


def _looks_like_move(line: str) -> bool:
    parts = line.split()
    return len(parts) == 3 and parts[0][:1].isdigit() and parts[1] == "..."


def start_engine(config: EngineConfig) -> EngineClient:
    return UciClient(config) if config.proto == "uci" else CecpClient(config)
