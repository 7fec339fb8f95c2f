"""The arguments of UCI's ``go``, read apart from the engine's state (the options are
``engine_options.py``'s)."""
from typing import Callable, Dict, NamedTuple, Optional, Tuple

from ..core.digits import parse_int
from ..core.errors import RulesError
from ..core.moves import Move
from ..core.position import Position


class Go(NamedTuple):
    """The arguments of one ``go`` (times in seconds)."""
    wtime: Optional[float] = None
    btime: Optional[float] = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: Optional[int] = None
    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: Tuple[Move, ...] = ()
    perft: Optional[int] = None


def parse_go(arg: str, pos: Position, error: Callable[[str], None]) -> Go:
    """The ``go`` arguments (moves read in ``pos``); a bad one is reported to ``error`` and left out."""
    words = arg.split()
    fields: Dict[str, object] = {}
    seconds = {"wtime", "btime", "winc", "binc", "movetime"}
    whole = {"movestogo", "depth", "nodes", "mate", "perft"}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("infinite", "ponder"):
            fields[word] = True
        elif word == "searchmoves":
            chosen = []
            while i + 1 < len(words) and words[i + 1] not in seconds | whole | {"infinite", "ponder"}:
                i += 1
                try:
                    chosen.append(pos.parse_uci(words[i]))
                except RulesError as problem:
                    error(f"searchmoves: {str(problem)[:120]}; left out")
            fields["searchmoves"] = tuple(chosen)
        elif word in seconds or word in whole:
            i += 1
            value = words[i] if i < len(words) else ""
            try:
                number = parse_int(value)
                if word not in ("wtime", "btime") and number < 0:
                    raise ValueError
            except ValueError:
                error(f"go {word}: not a number: {value[:40]!r}; left out")
            else:
                fields[word] = number / 1000.0 if word in seconds else number
        else:
            error(f"go: unknown word {word[:40]!r}; left out")
        i += 1
    return Go(**fields)  # type: ignore[arg-type]
