#!/usr/bin/env python3
"""Make the positions and labels the evaluation is distilled from (``scripts/fit_tables.py`` fits it).

Two steps, each resumable and done in chunks, with every file outside the repository (``--dir``):

``positions``  plays games and keeps their quiet positions: past the first plies, not in check, no
    capture that changes the score by a quiescence search, no bare king, de-duplicated within the chunk.
    Half of a chunk's games are our own engine's (a fixed small node count, varied from move to move),
    half the teacher's (``--teacher``, at ``--teacher-nodes``), when there is a teacher; both open with
    2 to 8 random moves and play a random move instead of the searched one now and then
    (``--noise``), so that no two games are alike.  Chunk ``N`` is played from seed ``--seed + N``, so
    any chunk can be made again: ``DIR/positions-N.fen``, one FEN a line, and ``DIR/results-N.txt``,
    line by line the result for White of the game each position came from (``1``, ``0.5``, ``0``:
    ``fit_tables.py --result-share`` blends it with the label).
``label``  gives each position of every chunk the teacher's score (UCI ``go depth D`` or ``go nodes
    N``), from the side to move's view: ``DIR/labels-N.txt``, ``FEN;score`` (centipawns, or ``#M``
    for a mate in M, negative when the side to move is mated).  A chunk half labelled goes on where it
    stopped.  Without a teacher (variants no engine knows) our own search labels, at ``--depth``.

    pypy3 scripts/distill.py positions normal --dir ~/distill/normal --chunks 0-9
    pypy3 scripts/distill.py label --dir ~/distill/normal --teacher /usr/games/stockfish --depth 8

``run`` does both, chunk by chunk.  Every file records nothing but FENs and scores: the command, seed
and counts are printed, and ``fit_tables.py`` stores them with the weights it fits.
"""
import argparse
import os
import random
import subprocess
import sys
import time
from typing import Iterator, List, Optional, Sequence, Set, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine import Position                                          # noqa: E402
from xboard_engine.search.alphabeta import AlphaBeta                               # noqa: E402
from xboard_engine.core.errors import RulesError                                 # noqa: E402
from xboard_engine.search.evaluation import evaluate                               # noqa: E402
from xboard_engine.search.searcher import FEATURES, Limits, Searcher                 # noqa: E402
from xboard_engine.core.variant import get_variant, variant_names                # noqa: E402

SKIP_PLIES = 8              # opening plies never kept
MAX_PLIES = 240             # a game stops here
DECIDED = 1500              # a game stops once the searching side sees this many centipawns
KEEP_SHARE = 0.5            # share of the quiet positions of a game kept (neighbours are alike)


class Teacher:
    """A UCI engine that plays and labels (one process, kept for the whole run)."""

    def __init__(self, path: str, variant: str, options: Sequence[str] = ()) -> None:
        self.path = path
        try:
            self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         universal_newlines=True, bufsize=1)
        except OSError as error:
            raise SystemExit(f"distill.py: cannot start the teacher {path}: {error}")
        self.send("uci")
        self.name = ""
        for line in self.lines("uciok"):
            if line.startswith("id name "):
                self.name = line[8:].strip()
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        if variant == "chess960":
            self.send("setoption name UCI_Chess960 value true")
        for option in options:
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        for _ in self.lines("readyok"):
            pass

    def send(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")

    def lines(self, until: str) -> Iterator[str]:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"distill.py: the teacher {self.path} stopped")
            yield line
            if line.startswith(until):
                return

    def search(self, fen: str, go: str) -> Tuple[str, str]:
        """(best move, score text: centipawns or ``#M``) of ``go`` from ``fen``."""
        self.send(f"position fen {fen}")
        self.send(f"go {go}")
        score = "0"
        best = ""
        for line in self.lines("bestmove"):
            if line.startswith("info") and " score " in line and " bound" not in line:
                words = line.split()
                i = words.index("score")
                score = words[i + 2] if words[i + 1] == "cp" else "#" + words[i + 2]
            elif line.startswith("bestmove"):
                best = line.split()[1]
        return best, score

    def new_game(self) -> None:
        """Forget the table: the same game follows from the same seed, whatever was played before."""
        self.send("ucinewgame")
        self.send("isready")
        for _ in self.lines("readyok"):
            pass

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def quiet_check(variant: str):
    """A function telling whether a position is quiet: not in check, no bare king, and a quiescence
    search from it ends at its static evaluation."""
    search = AlphaBeta({f: True for f in FEATURES}, 1)
    search._killers = [[None, None] for _ in range(200)]

    def quiet(pos: Position) -> bool:
        if pos.is_check() or len(pos.units[0]) == 1 or len(pos.units[1]) == 1:
            return False
        static = evaluate(pos)
        return abs(static) < DECIDED and search._quiesce(pos, -10 ** 9, 10 ** 9, 0, 0) == static
    return quiet


def play_game(variant: str, rng: random.Random, teacher: Optional[Teacher], nodes: int,
              teacher_nodes: int, noise: float, searcher: Searcher) -> Tuple[List[Position], str]:
    """One game's positions after each move (copies), by our search or the teacher's, and its result
    for White (``1``, ``0.5`` or ``0``): a game stopped as decided is won by the side that saw it so,
    one stopped at the ply limit or by the teacher's unknown move is drawn."""
    pos = Position(variant)
    if variant == "chess960":
        pos = Position.from_fen(get_variant(variant).start_fen_for(rng.randrange(960)), variant)
    seen = []
    opening = rng.randint(2, 8)
    if teacher is not None:
        teacher.new_game()
    decided = None              # the side to move's view of a game stopped as decided: +1 or -1
    while pos.outcome() is None and pos.ply < MAX_PLIES:
        moves = pos.legal_moves()
        if pos.ply < opening or rng.random() < noise:
            move = rng.choice(moves)
        elif teacher is not None:
            best, score = teacher.search(pos.fen(), f"nodes {int(teacher_nodes * rng.uniform(0.75, 1.25))}")
            if score.startswith("#") or abs(int(score)) > DECIDED:
                decided = -1 if score.startswith("#-") or score.startswith("-") else 1
                break
            try:
                move = pos.parse_uci(best)
            except RulesError:
                break                   # a move the teacher's rules allow and ours do not
        else:
            searcher.clear()
            result = searcher.search(pos, Limits(nodes=int(nodes * rng.uniform(0.75, 1.25))))
            if abs(result.score) > DECIDED:
                decided = 1 if result.score > 0 else -1
                break
            move = result.move
        pos.push(move)
        seen.append(pos.copy())
    return seen, game_result(pos, decided)


def game_result(pos: Position, decided: Optional[int]) -> str:
    """White's result of a game that stopped at ``pos`` (see ``play_game``)."""
    if decided is not None:
        return "1" if (decided > 0) == (pos.stm == 0) else "0"
    outcome = pos.outcome()
    if outcome is None or outcome.winner is None:
        return "0.5"
    return "1" if outcome.winner == "w" else "0"


def make_positions(variant: str, directory: str, chunk: int, seed: int, count: int,
                   teacher: Optional[Teacher], nodes: int, teacher_nodes: int, noise: float) -> int:
    """Write chunk ``chunk``'s ``count`` quiet positions; the number of games played."""
    path = os.path.join(directory, f"positions-{chunk:04d}.fen")
    if os.path.exists(path):
        return 0
    rng = random.Random(seed + chunk)
    quiet = quiet_check(variant)
    searcher = Searcher(hash_mb=16)
    kept: List[str] = []
    results: List[str] = []
    seen: Set[str] = set()
    games = 0
    while len(kept) < count:
        player = teacher if teacher is not None and games % 2 else None
        games += 1
        played, result = play_game(variant, rng, player, nodes, teacher_nodes, noise, searcher)
        for pos in played[SKIP_PLIES:]:
            if rng.random() >= KEEP_SHARE:
                continue
            fen = pos.fen()
            key = " ".join(fen.split()[:4])
            if key in seen or not quiet(pos):
                continue
            seen.add(key)
            kept.append(fen)
            results.append(result)
    results_path = os.path.join(directory, f"results-{chunk:04d}.txt")
    with open(results_path + ".part", "w", encoding="utf-8") as out:
        out.write("\n".join(results[:count]) + "\n")
    os.replace(results_path + ".part", results_path)
    with open(path + ".part", "w", encoding="utf-8") as out:
        out.write("\n".join(kept[:count]) + "\n")
    os.replace(path + ".part", path)
    return games


def own_label(variant: str, depth: int):
    """Our own search as the teacher: the score at ``depth`` (for variants no engine knows)."""
    searcher = Searcher(hash_mb=64)

    def label(fen: str) -> str:
        pos = Position.from_fen(fen, variant)
        result = searcher.search(pos, Limits(depth=depth))
        if abs(result.score) >= 30000 - 1000:
            plies = 30000 - abs(result.score)
            return f"#{(plies + 1) // 2 if result.score > 0 else -((plies + 1) // 2)}"
        return str(result.score)
    return label


def label_chunk(directory: str, chunk: int, label) -> int:
    """Label every position of a chunk not labelled yet; how many were labelled now."""
    source = os.path.join(directory, f"positions-{chunk:04d}.fen")
    target = os.path.join(directory, f"labels-{chunk:04d}.txt")
    with open(source, encoding="utf-8") as handle:
        fens = [line.strip() for line in handle if line.strip()]
    done = 0
    if os.path.exists(target):
        with open(target, encoding="utf-8") as handle:
            done = sum(1 for line in handle if line.endswith("\n"))
    with open(target, "a", encoding="utf-8") as out:
        for fen in fens[done:]:
            out.write(f"{fen};{label(fen)}\n")
            out.flush()
    return len(fens) - done


def chunk_range(text: str) -> List[int]:
    """``3`` or ``0-9`` as a list of chunk numbers."""
    try:
        if "-" in text:
            a, b = text.split("-")
            return list(range(int(a), int(b) + 1))
        return [int(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a chunk or range of chunks: {text!r}")


def labeller(args, variant: str):
    if args.teacher:
        teacher = Teacher(args.teacher, variant, args.teacher_option)
        go = f"depth {args.depth}" if not args.nodes_label else f"nodes {args.nodes_label}"
        print(f"labels: {teacher.name}, go {go}", flush=True)
        note(args.dir, f"labels: {teacher.name} ({args.teacher}), go {go}")
        return lambda fen: teacher.search(fen, go)[1]
    print(f"labels: our own search, depth {args.depth}", flush=True)
    note(args.dir, f"labels: our own search, depth {args.depth}")
    return own_label(variant, args.depth)


def note(directory: str, line: str) -> None:
    """Add a line to the directory's ``made-by`` file (``fit_tables.py`` stores it with the weights)."""
    with open(os.path.join(directory, "made-by"), "a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def read_variant(directory: str, given: Optional[str]) -> str:
    """The variant of a directory (written by ``positions`` into ``DIR/variant``)."""
    path = os.path.join(directory, "variant")
    if given:
        os.makedirs(directory, exist_ok=True)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                if handle.read().strip() != given:
                    raise SystemExit(f"distill.py: {directory} holds positions of another variant")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(given + "\n")
        return given
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().strip()
    except OSError:
        raise SystemExit(f"distill.py: {directory} has no positions (run `distill.py positions` first)")


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["positions", "label", "run"])
    parser.add_argument("variant", nargs="?", choices=variant_names())
    parser.add_argument("--dir", required=True, help="where the chunks are (outside the repository)")
    parser.add_argument("--chunks", type=chunk_range, default=chunk_range("0-9"), help="e.g. 0-9")
    parser.add_argument("--chunk-positions", type=int, default=20000, help="positions a chunk (20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=400, help="our search's nodes a move (400)")
    parser.add_argument("--teacher", help="the UCI teacher's program (none: our own search labels)")
    parser.add_argument("--teacher-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option the teacher is given after `uci` (repeatable)")
    parser.add_argument("--teacher-nodes", type=int, default=2000, help="the teacher's nodes a move (2000)")
    parser.add_argument("--noise", type=float, default=0.08, help="chance of a random move (0.08)")
    parser.add_argument("--depth", type=int, default=8, help="label depth (8)")
    parser.add_argument("--nodes-label", type=int, default=0, help="label by nodes instead of depth")
    args = parser.parse_args(list(argv) or None)
    if args.step in ("positions", "run") and not args.variant:
        parser.error(f"{args.step} needs a variant")
    if args.teacher and not os.access(args.teacher, os.X_OK):
        parser.error(f"no teacher program at {args.teacher}")
    variant = read_variant(args.dir, args.variant)
    command = "pypy3 scripts/distill.py " + " ".join(list(argv) or sys.argv[1:])
    print(command, flush=True)
    note(args.dir, command)
    label = None
    play_teacher = Teacher(args.teacher, variant, args.teacher_option) if args.teacher and args.step != "label" else None
    for chunk in args.chunks:
        started = time.time()
        if args.step in ("positions", "run"):
            games = make_positions(variant, args.dir, chunk, args.seed, args.chunk_positions, play_teacher,
                                   args.nodes, args.teacher_nodes, args.noise)
            if games:
                print(f"chunk {chunk}: {args.chunk_positions} positions from {games} games "
                      f"({time.time() - started:.0f} s)", flush=True)
        if args.step in ("label", "run"):
            if not os.path.exists(os.path.join(args.dir, f"positions-{chunk:04d}.fen")):
                continue
            label = label or labeller(args, variant)
            started = time.time()
            n = label_chunk(args.dir, chunk, label)
            if n:
                print(f"chunk {chunk}: {n} labelled ({time.time() - started:.0f} s)", flush=True)
    if play_teacher is not None:
        play_teacher.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
