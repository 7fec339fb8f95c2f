"""Tournament pairing and scoring for the live server: pure functions on plain data (no I/O, no
store, no aiohttp), deterministic given their arguments; standard library only.

Swiss (two-player), ``swiss_round`` and ``swiss_standings``:

* Points: a win 1, a draw 1/2, a loss 0, a bye 1 (a full-point bye, as lichess's Swiss).  A game
  whose result is not in yet scores nothing but counts as a meeting and as a colour played.
* Standings: points, then Buchholz (the sum of the points of every opponent met; a bye counts as an
  opponent with as many points as the player has), then rating, then the smaller id.
* Rank, for pairing: points, then rating, then the smaller id.
* Hard rules, in every round: no two players meet twice (a bye is not a meeting); after the round
  no player has played two more games with one colour than with the other, nor one colour three
  games in a row (byes are skipped); with an odd number of players the bye goes to the
  lowest-ranked player who has not had one and whose absence leaves the others pairable (the others
  are tried upwards from there; only when nobody without a bye can take it does a player get a
  second one, the fewest byes first).  When no pairing satisfies these rules ``NoPairing`` is
  raised.
* Looking ahead (fields of up to 24 players, unless ``final`` says this is the last round): the
  round's options, in the order of these rules (the bye first, then the pairing by the criteria
  below), are tried until one leaves the next round pairable by the hard rules above (its bye for
  a player who has had the fewest), at most 128 options; when none does, the first is played.  So
  a 5-player Swiss of 4 rounds gives four different byes.
* The pairing is found in one step over the whole field, by a maximum-weight perfect matching
  (Edmonds' blossom algorithm), as the legal pairing that is best by these criteria, each one
  deciding before the next: (1) the fewest score-group crossings: the score groups are the distinct
  point totals, best first, and a game between groups i and j crosses |i - j| group boundaries (a
  player who "floats" down one group is one crossing), so a group that can pair inside itself does;
  (2) the smallest score differences (the sum of their squares), so that a float goes to the next
  group rather than past it; (3) the fewest players who do not get the colour they are due, then
  (4) the fewest who miss a strong colour preference; (5) a group's floater is its lowest-rated
  player and meets the highest-rated of the group below (the sum of the floaters' distances from
  those places); (6) within a group, top half against bottom half by rating, Dutch style: the n
  players of a group who pair among themselves (the group less the floater it sends down and the
  one who comes up to meet its best player, where the groups' sizes call for them) ideally pair
  their k-th best with their (k + n/2)-th; a pairing has first the fewest games inside one half,
  then the smallest sum over its games of |distance in rating order - n/2| (so a rematch between
  the 1st and the (1 + n/2)-th is avoided by swapping partners with the next pair, as Dutch
  transpositions do).  So only colours (3, 4) move players away from the Dutch order (5, 6), and
  never at the cost of a float.
* Colours due: a player who has had white more often is due black, and the other way round; a
  player with as many whites as blacks is due the colour they did not have in their last game (a
  mild preference; the imbalanced one is strong, and a colour that the hard rules require is
  absolute).  Within a game, the colours both players are due are given if they differ; when both
  are due the same colour, the stronger preference gets it, and between equal ones the higher-ranked
  player.  When neither has a preference (the first round), the higher-ranked player has white on
  the odd boards (board 1 = the game of the best-ranked player) and black on the even ones.
  Boards are listed in that order.

Arena (two-player, as lichess's arena), ``arena_points`` and ``arena_pairs``:

* A win scores 2, a draw 1, a loss 0.  After two wins in a row a player is "on fire": while on fire
  a win scores 4 and a draw 2; a draw or a loss puts the fire out (the draw still scores 2).
* Players waiting now are ordered by points, then rating, then the smaller id, and paired with
  their neighbours in that order: the first with the second, the third with the fourth...  A player
  whose neighbour is their last opponent (either one's last game was against the other) is paired
  with the next player instead.  When that walk still leaves a rematch, the whole list is paired
  again by a matching that has the fewest rematches and then the smallest sum of distances in the
  order (with an odd number of players the one left out being as low in the order as possible), so
  a rematch is played only when no other pairing exists (two players alone do play again).  An odd
  player out waits.  White goes to the player with the smaller whites - blacks count; on a tie, to
  one drawn with the given ``random.Random``.

Eight Player Chess rounds: ``eight_pairing.py``.
"""
import heapq
import random
from typing import (AbstractSet, Callable, Dict, FrozenSet, Iterator, List, Mapping, NamedTuple, Optional,
                    Sequence, Tuple)

from .matching import lexicographic, max_weight_matching, min_cost_matching

__all__ = ["Game", "Pairing", "NoPairing", "swiss_standings", "swiss_round", "WIN", "DRAW", "LOSS",
           "arena_points", "arena_pairs"]


# --------------------------------------------------------------------------------------------
# Swiss.

class Game(NamedTuple):
    """A game played (or being played): ``black`` None is a bye for ``white``; ``score`` is
    white's (1, 0.5, 0), None while unfinished."""
    white: int
    black: Optional[int]
    score: Optional[float]


class Pairing(NamedTuple):
    """A game of the next round."""
    white: int
    black: int


class NoPairing(Exception):
    """No pairing of the round keeps the rules."""


class _Record:
    """A player's tournament so far."""
    __slots__ = ("points", "byes", "opponents", "colours")

    def __init__(self) -> None:
        self.points = 0.0
        self.byes = 0
        self.opponents: List[int] = []
        self.colours: List[str] = []            # "W"/"B" per game, in order (byes skipped)

    @property
    def balance(self) -> int:
        """Whites less blacks."""
        return self.colours.count("W") - self.colours.count("B")

    def can_play(self, colour: str) -> bool:
        """Whether a game with ``colour`` keeps |whites - blacks| <= 2 and no colour 3 in a row."""
        after = self.balance + (1 if colour == "W" else -1)
        return abs(after) <= 2 and self.colours[-2:] != [colour, colour]

    def preference(self) -> Tuple[Optional[str], int]:
        """(colour due, strength): 3 absolute (the rules require it), 2 strong (imbalance),
        1 mild (alternation), 0 none."""
        white, black = self.can_play("W"), self.can_play("B")
        if white != black:
            return ("W" if white else "B"), 3
        balance = self.balance
        if balance:
            return ("W" if balance < 0 else "B"), 2
        if self.colours:
            return ("B" if self.colours[-1] == "W" else "W"), 1
        return None, 0


def _records(history: Sequence[Game]) -> Dict[int, _Record]:
    records: Dict[int, _Record] = {}

    def record(p: int) -> _Record:
        if p not in records:
            records[p] = _Record()
        return records[p]

    for game in history:
        white = record(game.white)
        if game.black is None:
            white.byes += 1
            white.points += 1.0
            continue
        black = record(game.black)
        white.opponents.append(game.black)
        black.opponents.append(game.white)
        white.colours.append("W")
        black.colours.append("B")
        if game.score is not None:
            white.points += game.score
            black.points += 1.0 - game.score
    return records


def swiss_standings(players: Sequence[int], ratings: Mapping[int, float],
                    history: Sequence[Game]) -> List[Tuple[int, float, float]]:
    """(player, points, Buchholz) for each player, best first: by points, then Buchholz (the sum of
    the points of every opponent met; a bye counts as an opponent with the player's own points),
    then rating, then the smaller id.  Missing ratings count as 0.

    >>> swiss_standings([1, 2, 3], {1: 1500, 2: 1600, 3: 1400},
    ...                 [Game(1, 2, 1.0), Game(3, None, None)])
    [(3, 1.0, 1.0), (1, 1.0, 0.0), (2, 0.0, 1.0)]
    """
    records = _records(history)
    empty = _Record()
    rows = []
    for p in dict.fromkeys(players):
        rec = records.get(p, empty)
        buchholz = sum(records[o].points for o in rec.opponents) + rec.byes * rec.points
        rows.append((p, rec.points, buchholz))
    rows.sort(key=lambda r: (-r[1], -r[2], -ratings.get(r[0], 0.0), r[0]))
    return rows


def _allocate(hi: int, lo: int, records: Mapping[int, _Record],
              board: int) -> Optional[Tuple[int, int, int, int]]:
    """(white, black, players not given their due colour, of them with a strong preference) for
    ``hi`` (the higher-ranked) against ``lo`` on ``board`` (0 = the first), or None if no colours
    keep the rules."""
    a, b = records[hi], records[lo]
    hi_white = a.can_play("W") and b.can_play("B")
    lo_white = a.can_play("B") and b.can_play("W")
    if not hi_white and not lo_white:
        return None
    (pa, sa), (pb, sb) = a.preference(), b.preference()
    if hi_white and lo_white:
        if pa is not None and (pa != pb or sa >= sb):
            white_hi = pa == "W"
        elif pb is not None:
            white_hi = pb == "B"
        else:
            white_hi = board % 2 == 0
    else:
        white_hi = hi_white
    got_a = "W" if white_hi else "B"
    got_b = "B" if white_hi else "W"
    missed = [s for p, s, got in ((pa, sa, got_a), (pb, sb, got_b)) if p is not None and p != got]
    white, black = (hi, lo) if white_hi else (lo, hi)
    return white, black, len(missed), sum(1 for s in missed if s >= 2)


def _field_costs(field: Sequence[int], ratings: Mapping[int, float],
                 records: Mapping[int, _Record]) -> Tuple[List[int], Dict[Tuple[int, int], int]]:
    """``field`` in rank order, and the cost of each legal game (i, j), i < j indices into that
    order: one integer per game, whose sums over pairings compare as the module's criteria 1-6."""
    order = sorted(field, key=lambda p: (-records[p].points, -ratings.get(p, 0.0), p))
    scores = sorted({records[p].points for p in field}, reverse=True)
    group = {p: scores.index(records[p].points) for p in field}
    members: List[List[int]] = [[] for _ in scores]
    for p in order:                              # within a group, by rating (rank order)
        members[group[p]].append(p)
    place = {p: members[group[p]].index(p) for p in field}
    before, first, resident = 0, [], []          # players pairing inside each group, by parity
    for ms in members:
        receives = before % 2
        before += len(ms)
        first.append(receives)
        resident.append(len(ms) - receives - before % 2)
    costs: Dict[Tuple[int, int], Tuple[int, ...]] = {}
    for i, hi in enumerate(order):
        met = set(records[hi].opponents)
        for j in range(i + 1, len(order)):
            lo = order[j]
            if lo in met:
                continue
            colours = _allocate(hi, lo, records, 0)
            if colours is None:
                continue
            gh, gl = group[hi], group[lo]
            diff = round(2 * (records[hi].points - records[lo].points))
            floater = same_half = dutch = 0
            if gh == gl:
                half = resident[gh] // 2
                same_half = int((place[hi] - first[gh] < half) == (place[lo] - first[gh] < half))
                dutch = abs(place[lo] - place[hi] - half)
            else:
                floater = len(members[gh]) - 1 - place[hi] + place[lo]
            costs[(i, j)] = (gl - gh, diff * diff, colours[2], colours[3], floater, same_half, dutch)
    keys = list(costs)
    return order, dict(zip(keys, lexicographic([costs[k] for k in keys], max(1, len(order) // 2))))


def _ranked_matchings(n: int, costs: Mapping[Tuple[int, int], int]) -> Iterator[List[Tuple[int, int]]]:
    """The perfect matchings of 0..n-1 on the edges of ``costs`` (i < j), cheapest first, lazily
    (Lawler's partition of the solution space: each next one is found by matchings that ban one of
    the last one's edges and keep those before it)."""
    top = max(costs.values(), default=0) + 1

    def solve(kept: List[Tuple[int, int]], banned: FrozenSet[Tuple[int, int]]):
        used = {v for e in kept for v in e}
        rest = [v for v in range(n) if v not in used]
        where = {v: k for k, v in enumerate(rest)}
        mate = max_weight_matching(len(rest), [(where[i], where[j], top - c) for (i, j), c in costs.items()
                                               if i in where and j in where and (i, j) not in banned])
        if any(m < 0 for m in mate):
            return None
        pairs = sorted(kept + [(rest[k], rest[m]) for k, m in enumerate(mate) if k < m])
        return sum(costs[e] for e in pairs), pairs

    found = solve([], frozenset())
    if found is None:
        return
    heap = [(found[0], 0, found[1], [], frozenset())]
    made = 1
    while heap:
        _, _, pairs, kept, banned = heapq.heappop(heap)
        yield pairs
        free = [e for e in pairs if e not in kept]
        for k, e in enumerate(free):
            more, without = kept + free[:k], banned | {e}
            found = solve(more, without)
            if found is not None:
                heapq.heappush(heap, (found[0], made, found[1], more, without))
                made += 1


def _boards(order: Sequence[int], pairs: Sequence[Tuple[int, int]],
            records: Mapping[int, _Record]) -> List[Pairing]:
    """The games with their colours, best board first (by the better-ranked player)."""
    games = []
    for board, (i, j) in enumerate(sorted(pairs)):
        white, black, _, _ = _allocate(order[i], order[j], records, board)
        games.append(Pairing(white, black))
    return games


def _next_round_pairable(field: Sequence[int], records: Mapping[int, _Record],
                         pairs: Sequence[Pairing], bye: Optional[int]) -> bool:
    """Whether, after this round, a next one could pair ``field`` without rematches and with
    colours within the rules, and, with an odd number, with the bye for a player with the fewest
    byes."""
    after: Dict[int, _Record] = {}
    for p in field:
        rec = after[p] = _Record()
        rec.opponents = list(records[p].opponents)
        rec.colours = list(records[p].colours)
        rec.byes = records[p].byes + (p == bye)
    for white, black in pairs:
        after[white].opponents.append(black)
        after[black].opponents.append(white)
        after[white].colours.append("W")
        after[black].colours.append("B")
    n = len(field)
    edges = []
    for i in range(n):
        a = after[field[i]]
        for j in range(i + 1, n):
            b = after[field[j]]
            if field[j] not in a.opponents and ((a.can_play("W") and b.can_play("B")) or
                                                (a.can_play("B") and b.can_play("W"))):
                edges.append((i, j, 1))
    if n % 2:
        fewest = min(after[p].byes for p in field)
        edges += [(i, n, 1) for i, p in enumerate(field) if after[p].byes == fewest]
        n += 1
    return all(m >= 0 for m in max_weight_matching(n, edges))


LOOKAHEAD_FIELD = 24        # players at most for whom other pairings are searched to look ahead
LOOKAHEAD_OPTIONS = 128     # pairings (byes included) tried at most for the look-ahead


def swiss_round(players: Sequence[int], ratings: Mapping[int, float], history: Sequence[Game],
                final: bool = False, no_bye: AbstractSet[int] = frozenset()) -> Tuple[List[Pairing], Optional[int]]:
    """The next round's games, best board first, and the player who gets the bye (None with an
    even number of players), by the rules in the module's docstring.  ``history`` lists every
    earlier game in the order played; missing ratings count as 0.  ``final``: this is the
    tournament's last round (no need to keep a next one pairable); ``no_bye``: players who get the bye
    only if nobody else can (those who have not played a game of the tournament).  Raises ``NoPairing`` when no
    pairing keeps the rules (or there are fewer than two players).

    >>> swiss_round([1, 2, 3, 4], {1: 2000, 2: 1900, 3: 1800, 4: 1700}, [])
    ([Pairing(white=1, black=3), Pairing(white=4, black=2)], None)
    """
    field = list(dict.fromkeys(players))
    if len(field) < 2:
        raise NoPairing("a Swiss round needs at least two players, not %d" % len(field))
    records = _records(history)
    for p in field:
        records.setdefault(p, _Record())
    if len(field) % 2 == 0:
        byes: List[Optional[int]] = [None]
    else:
        lowest_first = sorted(field, key=lambda p: (records[p].points, ratings.get(p, 0.0), -p))
        byes = list(sorted(lowest_first, key=lambda p: (p in no_bye, records[p].byes)))   # stable: lowest first
    look = not final and len(field) <= LOOKAHEAD_FIELD
    best: Optional[Tuple[List[Pairing], Optional[int]]] = None
    tried = 0
    for bye in byes:
        order, costs = _field_costs([p for p in field if p != bye], ratings, records)
        for pairs in _ranked_matchings(len(order), costs):
            option = (_boards(order, pairs, records), bye)
            if best is None:
                best = option
                if not look:
                    return option
            if _next_round_pairable(field, records, option[0], bye):
                return option
            tried += 1
            if tried >= LOOKAHEAD_OPTIONS:
                return best
    if best is not None:
        return best
    if len(field) % 2 == 0:
        raise NoPairing("no pairing of the %d players avoids rematches and keeps colours within "
                        "the rules" % len(field))
    raise NoPairing("no player can take the bye so that the other %d pair without rematches and "
                    "with colours within the rules" % (len(field) - 1))


# --------------------------------------------------------------------------------------------
# Arena.

WIN, DRAW, LOSS = 2, 1, 0       # points for a game; doubled (4, 2) while on fire
FIRE_AFTER = 2                  # wins in a row that set a player on fire


def arena_points(results: Sequence[float]) -> Tuple[int, bool]:
    """A player's arena total from their results in order (1, 0.5, 0 from their side), and whether
    they are on fire now.  A win scores 2, a draw 1, a loss 0; after two wins in a row the player
    is on fire, and while on fire a win scores 4 and a draw 2; a draw or a loss ends the fire (the
    draw still scores 2 when it came on fire).

    >>> arena_points([1, 1, 1, 0.5, 0, 1])
    (12, False)
    >>> arena_points([1, 1])
    (4, True)
    """
    total, row, fire = 0, 0, False
    for r in results:
        if r == 1:
            total += 2 * WIN if fire else WIN
            row += 1
            fire = row >= FIRE_AFTER
        elif r == 0.5:
            total += 2 * DRAW if fire else DRAW
            row, fire = 0, False
        elif r == 0:
            total += LOSS
            row, fire = 0, False
        else:
            raise ValueError("an arena result is 1, 0.5 or 0, not %r" % (r,))
    return total, fire


def arena_pairs(waiting: Sequence[int], points: Mapping[int, int], ratings: Mapping[int, float],
                last_opponent: Mapping[int, Optional[int]], colours: Mapping[int, int],
                rng: random.Random, apart: Optional[Callable[[int, int], bool]] = None) -> List[Tuple[int, int]]:
    """(white, black) games among the players waiting now, best first: ordered by points, then
    rating, then the smaller id, neighbours paired; a player is not paired with their last
    opponent (either way round) when any other pairing exists (the walk takes the next player;
    a full matching settles what the walk cannot), and never with one ``apart`` says a block keeps
    them from (one with nobody else to meet waits).  ``colours`` holds each player's whites -
    blacks (missing: 0): the smaller gets white, a tie is drawn with ``rng``.  An odd player out
    waits and is left out of the result.

    >>> arena_pairs([1, 2, 3, 4], {1: 4, 2: 4, 3: 2, 4: 0}, {}, {1: 2, 2: 1}, {1: 1}, random.Random(0))
    [(3, 1), (4, 2)]
    """
    order = sorted(dict.fromkeys(waiting), key=lambda p: (-points.get(p, 0), -ratings.get(p, 0.0), p))

    def rematch(p: int, q: int) -> bool:
        return last_opponent.get(p) == q or last_opponent.get(q) == p

    kept_apart = apart or (lambda p, q: False)
    left = list(order)
    pairs: List[Tuple[int, int]] = []
    while len(left) >= 2:
        p = left.pop(0)
        may = [k for k, q in enumerate(left) if not kept_apart(p, q)]
        if not may:
            continue                             # a block keeps them from everyone left: they wait
        k = next((k for k in may if not rematch(p, left[k])), may[0])
        pairs.append((p, left.pop(k)))
    if any(rematch(p, q) for p, q in pairs):
        pairs = [(p, q) for p, q in _arena_matching(order, rematch) if not kept_apart(p, q)]
    out = []
    for p, q in pairs:
        cp, cq = colours.get(p, 0), colours.get(q, 0)
        if cp == cq:
            white_p = rng.random() < 0.5
        else:
            white_p = cp < cq
        out.append((p, q) if white_p else (q, p))
    return out


def _arena_matching(order: Sequence[int], rematch: Callable[[int, int], bool]) -> List[Tuple[int, int]]:
    """The pairing of ``order`` with the fewest rematches, then the smallest sum of distances in
    the order; with an odd count, the player left out is as low in the order as possible."""
    n = len(order)
    size = n + n % 2                             # vertex n: "waits", for an odd count
    costs: Dict[Tuple[int, int], Tuple[int, int]] = {}
    for i in range(n):
        for j in range(i + 1, n):
            costs[(i, j)] = (1 if rematch(order[i], order[j]) else 0, j - i)
        if n % 2:
            costs[(i, n)] = (0, n - 1 - i)
    mate = min_cost_matching(size, costs)
    return [(order[i], order[m]) for i, m in enumerate(mate) if i < m < n]
