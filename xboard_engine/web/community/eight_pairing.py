"""Tournament rounds of Eight Player Chess for the live server: pure functions on plain data, like
``pairing.py``'s Swiss and arena.

* Tables: the players, in standings order (best first; players not in the standings after them,
  in the order given), fill tables of 8 in order.  A last table with fewer than 8 people is filled
  with ``None`` seats (a bot plays them).  A last table that would have 1 to 3 people takes people
  from the table before it, which keeps its first 4 + r (r = the remainder) and sends the rest, so
  the last two tables have 4 + r and 4 people; fewer than 4 players in all make one table.
* Seats rotate by round: in round R (counted from 1) seat i gets the table's entry number
  (i - (R - 1)) mod 8 of its standings order (bots' seats last), so the best player of a table sits
  in seat (R - 1) mod 8.
* Points for the place at a table of 8: 8, 6, 5, 4, 3, 2, 1, 0 for 1st to 8th; players who tie
  share the average of the points of the places they cover (competition ranks 1, 1, 3: the two
  first players get (8 + 6) / 2 = 7 each).
"""
from typing import List, Optional, Sequence

__all__ = ["eight_tables", "eight_points", "eight_round_points", "EIGHT_PLACE_POINTS"]

EIGHT_PLACE_POINTS = (8.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0)   # 1st .. 8th at a table of 8
SEATS = 8
FEWEST_PEOPLE = 4


def eight_tables(players: Sequence[int], standings: Sequence[int],
                 round_number: int) -> List[List[Optional[int]]]:
    """The next round's tables of 8 seats each (None: a bot's seat).  Players in standings order
    (best first; those not in ``standings`` after, in the given order) fill tables in order; a
    last table of 1-3 people takes people from the table before it so that it has 4 (fewer than 4
    in all make one table); in round ``round_number`` (from 1) seat i gets the table's entry
    (i - (round_number - 1)) mod 8, people best first and then bots.

    >>> eight_tables(list(range(1, 10)), [9, 8], 1)
    [[9, 8, 1, 2, 3, None, None, None], [4, 5, 6, 7, None, None, None, None]]
    >>> eight_tables([1, 2, 3, 4], [], 2)
    [[None, 1, 2, 3, 4, None, None, None]]
    """
    field = list(dict.fromkeys(players))
    chosen = set(field)
    ranked = [p for p in dict.fromkeys(standings) if p in chosen]
    placed = set(ranked)
    ranked += [p for p in field if p not in placed]
    n = len(ranked)
    sizes = [SEATS] * (n // SEATS)
    rest = n % SEATS
    if rest:
        if rest < FEWEST_PEOPLE and sizes:
            sizes[-1] = FEWEST_PEOPLE + rest
            rest = FEWEST_PEOPLE
        sizes.append(rest)
    shift = (round_number - 1) % SEATS
    tables, start = [], 0
    for size in sizes:
        entries: List[Optional[int]] = list(ranked[start:start + size]) + [None] * (SEATS - size)
        start += size
        tables.append([entries[(i - shift) % SEATS] for i in range(SEATS)])
    return tables


def eight_points(place: int) -> float:
    """Points for finishing ``place`` (1-8) at a table of 8: 8, 6, 5, 4, 3, 2, 1, 0.

    >>> [eight_points(p) for p in (1, 2, 8)]
    [8.0, 6.0, 0.0]
    """
    if not 1 <= place <= SEATS:
        raise ValueError("a place at a table of 8 is 1 to 8, not %r" % (place,))
    return EIGHT_PLACE_POINTS[place - 1]


def eight_round_points(ranks: Sequence[int]) -> List[float]:
    """Points per seat from the seats' competition ranks (1, 1, 3, ...: ties share a rank and
    skip the places they cover): tied players share the average of those places' points.

    >>> eight_round_points([1, 1, 3, 4, 5, 6, 7, 8])
    [7.0, 7.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    """
    if len(ranks) > SEATS:
        raise ValueError("a table has at most 8 seats, not %d" % len(ranks))
    out = []
    for r in ranks:
        ahead = sum(1 for x in ranks if x < r)
        if r != ahead + 1:
            raise ValueError("%r are not competition ranks (1, 1, 3, ...)" % (list(ranks),))
        tied = sum(1 for x in ranks if x == r)
        out.append(sum(EIGHT_PLACE_POINTS[r - 1:r - 1 + tied]) / tied)
    return out
