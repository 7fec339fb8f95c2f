#!/usr/bin/env python3
"""Run a match with xboard-match's options and report the time margins the engines kept.

    python scripts/clock_report.py -engine name=A cmd="python -m xboard_engine" \\
        -engine name=B cmd="python -m xboard_engine" -each proto=xboard tc=1+0.01 \\
        -variant 8piece -games 20 -repeat -pgnout /tmp/out.pgn

The referee measures every move's time (``GameRecord.move_seconds``) but the PGN does not carry the
clocks; this replays them: after each move, the mover's clock is the time left before the increment
(and the next session's time) is added.  Printed per game: result, termination, the lowest clock of
each side (with the move that brought it there: its seconds, its ply and the clock before it);
at the end the number of time forfeits and the lowest clock of any engine at any move.
"""
import os
import sys
from typing import List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from xboard_engine.match.cli import UsageError, build          # noqa: E402
from xboard_engine.match.referee import GameRecord, TimeControl  # noqa: E402
from xboard_engine.core.position import Position                    # noqa: E402


def clock_minima(record: GameRecord, tcs: Tuple[TimeControl, TimeControl]) -> List[Optional[Tuple[float, float, float, int]]]:
    """White's and Black's lowest clock after a move, as (clock after, clock before, seconds the
    move took, ply number from 1); None: no clocked move."""
    pos = Position.from_fen(record.start_fen, record.variant) if record.start_fen else Position(record.variant)
    side = pos.stm if record.opening_plies % 2 == 0 else 1 - pos.stm
    clocks = [tcs[0].base, tcs[1].base]
    made = [0, 0]
    lowest: List[Optional[Tuple[float, float, float, int]]] = [None, None]
    for ply, seconds in enumerate(record.move_seconds, 1):
        tc = tcs[side]
        if tc.has_clock:
            clocks[side] -= seconds
            low = lowest[side]
            if low is None or clocks[side] < low[0]:
                lowest[side] = (clocks[side], clocks[side] + seconds, seconds, ply)
            made[side] += 1
            clocks[side] += tc.inc
            if tc.moves and made[side] % tc.moves == 0:
                clocks[side] += tc.base
        side = 1 - side
    return lowest


def main(argv: List[str]) -> int:
    try:
        tournament = build(argv)
    except UsageError as error:
        sys.stderr.write(f"clock_report: {error}\n")
        return 2
    result = tournament.run()
    forfeits = 0
    overall: Optional[float] = None
    for number, record in enumerate(result.games, 1):
        tcs = {config.name: tc for config, tc in zip(tournament.engines, tournament.tcs)}
        lows = clock_minima(record, (tcs[record.white], tcs[record.black]))
        if record.termination == "time forfeit":
            forfeits += 1
        for low in lows:
            if low is not None:
                overall = low[0] if overall is None else min(overall, low[0])
        text = " ".join("-" if low is None else f"{low[0]:.3f} ({low[2]:.3f} s at ply {low[3]} from {low[1]:.3f})"
                        for low in lows)
        print(f"clock game {number} {record.variant} {record.white}-{record.black} {record.result} "
              f"[{record.termination}] {record.reason} plies={len(record.moves)} lowest clock W B: {text}")
    print(f"clock summary: games={len(result.games)} time_forfeits={forfeits} "
          f"lowest_clock={'-' if overall is None else f'{overall:.3f}'} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
