"""Bots for 8 Player Chess: Best-Reply Search, paranoid search and team alpha-beta within a time per
move, with an evaluation of points, material, king safety and threats (issue 13).

>>> from xboard_engine.multi.game import Game
>>> from xboard_engine.multi.bots import Bot
>>> game = Game(mode="singles")
>>> bot = Bot(depth=1, movetime=None, seed=1)
>>> bot.choose(game) in game.legal_moves()
True

Algorithms (``Bot(algorithm=...)``):

* ``brs`` -- Best-Reply Search (Schadd & Winands 2011): a MAX layer of the bot's own moves and a MIN
  layer holding the single best reply among the moves of *all* enemy seats, alternately.  Partners
  (Pairs) and teammates (Teams) are not in the MIN layer; their units count as friends.
* ``paranoid`` -- the seats move in the game's turn order; the bot maximises its side's evaluation
  and every other seat (partners and teammates too) minimises it.
* ``team`` -- the same turn-order search where the bot's teammates maximise (in Singles it is the
  paranoid search; in Teams and Pairs the teammates help).
* ``random`` -- a uniformly chosen legal move (seedable).
* ``auto`` -- ``brs`` in Singles and Pairs, ``team`` in Teams.

The search runs on a copy of the game's position with ``push``/``pop``/``pass_turn``; a seat with no
legal move at a node is eliminated there (as the referee would at the start of its turn), with the
points of the mate or stalemate to the seat that moved last (a mate completed by the mated seat's
partner goes to an enemy that checks it: E4.5).  An enemy king the mover attacks may be taken (E4.4):
25 points and that enemy is out, so the searches find it like any capture (it is ordered first).
Best-Reply Search, where one enemy answers at a time, also counts the bot's king as lost when an
enemy's reply uncovers an attack on it by another enemy that moves before the bot (that enemy would
take it); the turn-order searches see such a capture as it is played.  A move that brings the game back to a
position for the third time ends it drawn there, scored as the referee would end it: outside Teams
everyone active gets 25 and the side ahead on points wins, so a bot ahead takes the draw and a bot
behind avoids it.  (Repetitions inside the searched line itself are not looked for.)  Scores are
centipawns from the bot's side's view.
"""
import random
import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..moves import CASTLE, EP, Move
from .position import ACTIVE, ZOMBIE, MultiPosition
from .rules import GREY, KING, OFF, PAWN, MultiVariant

__all__ = ["Bot", "ALGORITHMS", "evaluate_position", "BotError"]

ALGORITHMS = ("auto", "brs", "paranoid", "team", "random")

# Material in centipawns per kind (index = kind; 7 is the 1 Point Queen: it moves as a queen).
MATERIAL = (0, 100, 300, 325, 500, 900, 0, 900)
# Worth of a victim when ordering captures: an active enemy's king (E4.4) before anything else.
CAPTURE_ORDER = (0, 100, 300, 325, 500, 900, 5000, 900)
POINT_CP = 40            # one point of the game's score, in centipawns
ELIMINATED = 100000      # the bot's own side out of the game (checkmated)
STALEMATED = 75000       # ... stalemated (Singles and Pairs: nobody gets the 25 points of a mate)
TEAM_MATE_CP = 3000      # Teams: each checkmated member of a team
TEAM_WIN = 90000         # Teams: a team has checkmated enough opponents
DRAW_RESULT_CP = 20000   # a repetition that ends the game: won (or lost) on points
INFINITE = 10 ** 9
KING_ZONE_CP = 12        # each square next to a friendly king attacked by an enemy
SHIELD_CP = 8            # each friendly pawn in front of a friendly king
IN_CHECK_CP = 30
HANGING_NEXT = 0.9       # share of the largest threatened loss counted when enemies move next
HANGING_SECOND = 0.5     # ... of the largest the mover of the bot's side cannot save when it moves next


class BotError(ValueError):
    """Bad bot settings or a game the bot cannot move in."""


class _Stop(Exception):
    """Unwinds the search when the time is up or ``stop()`` was called."""


# ---------------------------------------------------------------------------------- static tables
_TABLES: Dict[str, List[List[int]]] = {}


def _lines_ahead(v: MultiVariant, seat: int, sq: int) -> int:
    """How many lines ``sq`` lies ahead of seat ``seat``'s back line."""
    info = v.seats[seat]
    back = info.back_line[0]
    df, dr = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}[info.direction]
    return (v.rank_of[sq] - v.rank_of[back]) * dr + (v.file_of[sq] - v.file_of[back]) * df


def _unit_tables(v: MultiVariant) -> List[List[int]]:
    """``table[code][sq]``: the centipawn worth of unit ``code`` on ``sq`` (material plus a small
    placement bonus: minor pieces and queens toward the centre, pawns forward, the king at home).
    Grey units and empty squares are worth nothing."""
    if v.name in _TABLES:
        return _TABLES[v.name]
    middle_f = (v.files - 1) / 2.0
    middle_r = (v.ranks - 1) / 2.0
    tables = [[0] * v.size for _ in range(OFF + 1)]
    for seat in range(v.players):
        for kind in range(1, 8):
            table = tables[seat * 8 + kind]
            for sq in v.squares:
                far = max(abs(v.file_of[sq] - middle_f), abs(v.rank_of[sq] - middle_r))  # 0.5 .. 11.5
                ahead = _lines_ahead(v, seat, sq)
                if kind == PAWN:
                    bonus = 3 * max(0, ahead - 1)
                elif kind == KING:
                    bonus = -6 * max(0, ahead - 1)
                elif kind in (2, 3):
                    bonus = int(24 - 2 * far)
                elif kind == 4:
                    bonus = 0
                else:
                    bonus = int(8 - far)
                table[sq] = MATERIAL[kind] + bonus
    _TABLES[v.name] = tables
    return tables


def _cheapest_attacker(pos: MultiPosition, sq: int, table: List[bool]) -> int:
    """The material of the cheapest unit marked by ``table`` that attacks ``sq`` (0: none)."""
    B = pos.board
    v = pos.v
    best = INFINITE
    for o in v.knight:
        c = B[sq + o]
        if table[c] and c & 7 == 2:
            best = 300
            break
    for d in v.orthogonal:
        t = sq + d
        c = B[t]
        first = True
        while c == 0:
            t += d
            c = B[t]
            first = False
        if table[c]:
            k = c & 7
            if k == 4 or k == 5 or k == 7 or (k == KING and first):
                worth = MATERIAL[k] if k != KING else 2000
                if worth < best:
                    best = worth
    pawn_reverse = v.pawn_reverse
    for d in v.diagonal:
        t = sq + d
        c = B[t]
        first = True
        while c == 0:
            t += d
            c = B[t]
            first = False
        if table[c]:
            k = c & 7
            if k == 3 or k == 5 or k == 7 or (first and (k == KING or (k == PAWN and d in pawn_reverse[c >> 3]))):
                worth = MATERIAL[k] if k != KING else 2000
                if worth < best:
                    best = worth
    return 0 if best == INFINITE else best


# ---------------------------------------------------------------------------------- the search
class _Search:
    """One search from one game position for the seat to move (the root)."""

    def __init__(self, game: Any, algorithm: str, deadline: Optional[float], stop_flag: threading.Event,
                 rng: random.Random) -> None:
        self.game = game
        self.pos: MultiPosition = game.position.copy()
        pos = self.pos
        self.v = v = pos.v
        self.root = root = pos.turn
        self.algorithm = algorithm
        self.deadline = deadline
        self.stop_flag = stop_flag
        self.rng = rng
        self.values = list(getattr(game, "values", v.values))
        self.mode = getattr(game, "mode", "singles")
        self.side = list(getattr(game, "teams", pos.teams))         # side key per seat
        self.my_key = self.side[root]
        self.mine = [s for s in range(v.players) if self.side[s] == self.my_key]
        self.enemy_keys = sorted({self.side[s] for s in range(v.players) if self.side[s] != self.my_key})
        self.groups = {key: [s for s in range(v.players) if self.side[s] == key] for key in set(self.side)}
        self.points = list(getattr(game, "scores", [0] * v.players))
        # Positions the game has seen at the start of a turn: a third time ends it drawn.
        self.seen: Dict[int, int] = getattr(game, "seen", {})
        # Checkmated members per side (Teams counts them; resignations count there too).
        self.mated = {key: 0 for key in self.groups}
        if self.mode == "teams":
            for t, members in enumerate(v.teams):
                self.mated[self.side[members[0]]] = game.team_mates[t]
        self.needed = getattr(game, "needed", v.team_checkmates)
        # Friends: units that defend the bot's side (own and partners'/teammates').
        self.friend_table = [False] * (OFF + 1)
        for s in self.mine:
            for kind in range(1, 8):
                self.friend_table[s * 8 + kind] = True
        # Each seat's own units (which seat attacks a square).
        self.own_tables = []
        for s in range(v.players):
            table = [False] * (OFF + 1)
            for kind in range(1, 8):
                table[s * 8 + kind] = True
            self.own_tables.append(table)
        self.tables = _unit_tables(v)
        self.knight_steps = frozenset(v.knight)
        self.diagonal_steps = frozenset(v.diagonal)
        self.orthogonal_steps = frozenset(v.orthogonal)
        self.nodes = 0
        self.undo: List[Tuple[int, int, int, Optional[Tuple[Any, ...]]]] = []
        self.killers: List[List[Optional[Move]]] = [[None, None] for _ in range(128)]
        self.history: Dict[Tuple[int, int], int] = {}
        self.pv: List[List[Tuple[int, Move]]] = [[] for _ in range(130)]

    # ------------------------------------------------------------------ clock
    def tick(self) -> None:
        """Count a node and look at the clock and the stop flag (both cheap next to a node)."""
        self.nodes += 1
        if self.stop_flag.is_set() or (self.deadline is not None and time.perf_counter() >= self.deadline):
            raise _Stop()

    # ------------------------------------------------------------------ make / unmake
    def make(self, m: Move) -> None:
        """Push ``m`` for the seat to move, scoring a capture (a king taken puts its owner out: E4.4,
        done by ``push`` itself)."""
        pos = self.pos
        B = pos.board
        mover = pos.turn
        kind = m[3]
        victim = B[m[4]] if kind == EP else (0 if kind == CASTLE else B[m[1]])
        pos.push(m)
        gained = 0
        extra = None
        if victim and victim >> 3 != GREY:
            gained = self.values[victim & 7]
            self.points[mover] += gained
            if victim & 7 == KING:
                owner = victim >> 3
                self.mated[self.side[owner]] += 1
                extra = ("k", owner)
        self.undo.append((1, mover, gained, extra))

    def unmake(self) -> None:
        pops, mover, gained, extra = self.undo.pop()
        pos = self.pos
        self.points[mover] -= gained
        if extra is not None:
            self._undo_extra(extra)
        for _ in range(pops):
            pos.pop()

    def _undo_extra(self, extra: Tuple[Any, ...]) -> None:
        if extra[0] == "k":
            self.mated[self.side[extra[1]]] -= 1
        else:
            _, seat, how, awards = extra
            if how == "m":
                self.mated[self.side[seat]] -= 1
            for s, p in awards:
                self.points[s] -= p

    def eliminate_stuck(self, seat: int, credit: Optional[int]) -> None:
        """Seat ``seat`` has no legal move: out (checkmated if in check, else stalemated), with the
        points the referee would give (credit to ``credit``, the seat that moved last)."""
        pos = self.pos
        how = "m" if pos.in_check(seat) and not pos.capture_the_king else "s"
        side = self.side
        if how == "m" and credit is not None and side[credit] == side[seat]:
            # E4.5: a mate a partner completes is the checking enemy's.
            king = pos.kings[seat]
            credit = next((e for e in pos.active_seats()
                           if side[e] != side[seat] and pos.attacked(king, self.own_tables[e])), None)
        pos.eliminate(seat, how)
        awards: List[Tuple[int, int]] = []
        if how == "m":
            self.mated[side[seat]] += 1
            if self.mode != "teams" and credit is not None and credit != seat:
                awards.append((credit, self.v.checkmate_points))
        elif self.mode != "teams":
            others = [s for s in pos.active_seats() if side[s] != side[seat]]
            shares = self.v.pairs_stalemate_shares if self.mode == "pairs" else self.v.stalemate_shares
            if credit is not None and side[credit] == side[seat]:
                awards.append((credit, self.v.self_stalemate_points))   # by itself or its partner
            elif others:
                each = shares[min(len(others), len(shares)) - 1]
                awards.extend((s, each) for s in others)
        for s, p in awards:
            self.points[s] += p
        self.undo.append((1, seat, 0, ("e", seat, how, tuple(awards))))

    # ------------------------------------------------------------------ evaluation
    def root_out_score(self, ply: int) -> int:
        """The bot's seat has left the game at this node."""
        how = self.pos.state[self.root]
        base = STALEMATED if how == "s" and self.mode != "teams" else ELIMINATED
        return -base + ply + self.points_term() // 4

    def repeats(self) -> bool:
        """The move just made brings the game to a position for the third time (a draw)."""
        return self.seen.get(self.pos.hash, 0) >= 2

    def draw_value(self, ply: int) -> int:
        """The game ends drawn here: outside Teams every active player gets the points of a mate and
        the side ahead on points wins (nobody does in Teams)."""
        if self.mode == "teams":
            return 0
        bonus = self.v.checkmate_points
        active = self.pos.active_seats()
        for s in active:
            self.points[s] += bonus
        lead = self.points_term()
        for s in active:
            self.points[s] -= bonus
        if lead > 0:
            return DRAW_RESULT_CP + lead - ply
        if lead < 0:
            return -DRAW_RESULT_CP + lead + ply
        return 0

    def points_term(self) -> int:
        points = self.points
        mine = sum(points[s] for s in self.mine)
        best = max((sum(points[s] for s in self.groups[k]) for k in self.enemy_keys), default=0)
        return POINT_CP * (mine - best)

    def evaluate(self, mover: Optional[int]) -> int:
        """Static score from the bot's side's view.  ``mover``: the seat of the bot's side that moves
        next (it can save its most threatened unit), or None when an enemy moves next (the largest
        loss threatened on the bot's side is then counted as lost)."""
        pos = self.pos
        state = pos.state
        if state[self.root] != ACTIVE and state[self.root] != ZOMBIE:
            return self.root_out_score(0)
        if self.mode == "teams":
            mated = self.mated
            for k in self.enemy_keys:
                if mated[k] >= min(self.needed, len(self.groups[k])):
                    return TEAM_WIN
            if mated[self.my_key] >= min(self.needed, len(self.mine)):
                return -TEAM_WIN
        B = pos.board
        units = pos.units
        tables = self.tables
        material = [0] * GREY
        for s in range(GREY):
            if state[s] == ACTIVE or state[s] == ZOMBIE:
                material[s] = sum([tables[B[sq]][sq] for sq in units[s]])
        side = self.side
        mine_total = 0
        enemy_total = 0
        for s in range(GREY):
            if side[s] == self.my_key:
                mine_total += material[s]
            else:
                enemy_total += material[s]
        score = self.points_term() + mine_total - enemy_total // max(1, len(self.enemy_keys))
        if self.mode == "teams":
            score += TEAM_MATE_CP * (sum(self.mated[k] for k in self.enemy_keys) - self.mated[self.my_key])
        # King safety and threats on the bot's side.
        hostile_tables = pos.hostile
        v = self.v
        losses: List[Tuple[int, int]] = []
        for s in self.mine:
            if state[s] != ACTIVE:
                continue
            hostile = hostile_tables[s]
            king = pos.kings[s]
            for d in v.all_steps:
                t = king + d
                if B[t] != OFF and pos.attacked(t, hostile):
                    score -= KING_ZONE_CP
            f = v.seats[s].forward
            own_pawn = s * 8 + PAWN
            for t in (king + f, king + f + 1, king + f - 1, king + f + v.stride, king + f - v.stride):
                if B[t] == own_pawn:
                    score += SHIELD_CP
            if s == mover and pos.attacked(king, hostile):
                score -= IN_CHECK_CP
            friends = self.friend_table
            for sq in units[s]:
                code = B[sq]
                kind = code & 7
                if kind == KING:
                    continue
                worth = MATERIAL[kind]
                attacker = _cheapest_attacker(pos, sq, hostile)
                if not attacker:
                    continue
                if pos.attacked(sq, friends):
                    loss = worth - attacker
                    if loss > 0:
                        losses.append((loss, s))
                else:
                    losses.append((worth, s))
        if losses:
            losses.sort(reverse=True)
            if mover is None:
                score -= int(losses[0][0] * HANGING_NEXT)
            else:
                saved = next((i for i, (_, owner) in enumerate(losses) if owner == mover), None)
                if saved is not None:
                    del losses[saved]
                if losses:
                    score -= int(losses[0][0] * HANGING_SECOND)
        return score

    def quiesce(self, alpha: int, beta: int, kings: bool = True) -> int:
        """The bot's side to move at a leaf: its best capture against standing pat, the answer
        judged by the static threats.  ``kings`` False: not the captures of active kings (see
        ``brs``)."""
        self.tick()
        stand = self.evaluate(self.pos.turn)
        if stand >= beta:
            return stand
        pos = self.pos
        B = pos.board
        captures = [m for m in pos.legal_moves() if B[m[1]] and m[3] != CASTLE or m[3] == EP]
        if not kings:
            captures = [m for m in captures if B[m[1]] & 7 != KING or B[m[1]] >= GREY * 8]
        if not captures:
            return stand
        captures.sort(key=lambda m: CAPTURE_ORDER[B[m[1]] & 7 if B[m[1]] < GREY * 8 else 0] * 16
                      - MATERIAL[B[m[0]] & 7] // 100, reverse=True)
        best = stand
        if best > alpha:
            alpha = best
        for m in captures:
            self.tick()
            self.make(m)
            value = self.evaluate(None)
            self.unmake()
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------------ ordering
    def gives_check(self, m: Move, kings: List[int]) -> bool:
        """Whether the unit moved by ``m`` attacks one of ``kings`` from its new square (direct
        checks only; a cheap test for move ordering)."""
        B = self.pos.board
        v = self.v
        to = m[1]
        kind = m[2] & 7
        line = v.line[to]
        for king in kings:
            diff = king - to
            if kind == 2:
                if diff in self.knight_steps:
                    return True
            elif kind == PAWN:
                if diff in v.seats[m[2] >> 3].captures:
                    return True
            elif kind != KING:
                d = line.get(king)
                if d and ((kind != 4 and d in self.diagonal_steps) or (kind != 3 and d in self.orthogonal_steps)):
                    t = to + d
                    while t != king and (B[t] == 0 or t == m[0]):
                        t += d
                    if t == king:
                        return True
        return False

    def order(self, moves: List[Tuple[int, Move]], ply: int, checks: bool = False) -> List[Tuple[int, Move]]:
        """Captures by MVV/LVA and promotions first, then (with ``checks``, for the bot's side)
        checks, then killers, then by history."""
        B = self.pos.board
        killers = self.killers[ply] if ply < len(self.killers) else [None, None]
        history = self.history
        scored = []
        kings: List[int] = []
        if checks and moves:
            pos = self.pos
            mover_side = self.side[moves[0][0]]
            kings = [pos.kings[e] for e in range(self.v.players)
                     if pos.state[e] == ACTIVE and self.side[e] != mover_side]
        for seat, m in moves:
            victim = B[m[1]]
            if victim and m[3] != CASTLE:
                if victim >> 3 == GREY:
                    key = 500000 + MATERIAL[victim & 7] * 16 - MATERIAL[B[m[0]] & 7] // 10
                else:
                    key = 1000000 + CAPTURE_ORDER[victim & 7] * 16 - MATERIAL[B[m[0]] & 7] // 10
            elif m[3] == EP:
                key = 1000000 + 1600
            elif m[2] != B[m[0]]:
                key = 900000 + MATERIAL[m[2] & 7]
            elif kings and self.gives_check(m, kings):
                key = 850000
            elif m == killers[0]:
                key = 800000
            elif m == killers[1]:
                key = 799999
            else:
                key = history.get((m[0], m[1]), 0)
            scored.append((key, seat, m))
        scored.sort(key=lambda x: x[0], reverse=True)
        return [(seat, m) for _, seat, m in scored]

    def good_quiet(self, m: Move, ply: int, depth: int) -> None:
        """Remember a quiet move that caused a cut-off."""
        if self.pos.board[m[1]] or m[3] == EP:
            return
        killers = self.killers[ply]
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        key = (m[0], m[1])
        self.history[key] = self.history.get(key, 0) + depth * depth

    # ------------------------------------------------------------------ Best-Reply Search
    def enemy_seats(self) -> List[int]:
        state = self.pos.state
        return [s for s in range(self.v.players) if state[s] == ACTIVE and self.side[s] != self.my_key]

    def king_lost(self, replier: int) -> bool:
        """After enemy ``replier``'s move: whether an enemy whose turn comes before the bot's (in the
        game's order from ``replier``) attacks the bot's king, so that it takes the king (E4.4) before
        the bot can answer (a discovered attack: the reply itself is answered in time)."""
        pos = self.pos
        root = self.root
        king = pos.kings[root]
        if not pos.attacked(king, pos.hostile[root]):
            return False
        n = self.v.players
        state = pos.state
        side = self.side
        s = (replier + 1) % n
        while s != root:
            if state[s] == ACTIVE and side[s] != self.my_key and pos.attacked(king, self.own_tables[s]):
                return True
            s = (s + 1) % n
        return False

    def brs(self, depth: int, alpha: int, beta: int, is_max: bool, ply: int, replier: int = -1) -> int:
        self.tick()
        self.pv[ply] = []
        pos = self.pos
        root = self.root
        if replier >= 0 and self.king_lost(replier):
            return -ELIMINATED + ply + self.points_term() // 4        # as root_out_score: the king is lost
        if depth <= 0:
            return self.quiesce(alpha, beta, False) if is_max else self.evaluate(None)
        if is_max:
            moves = pos.legal_moves(root)
            if not moves:
                self.eliminate_stuck(root, None)
                value = self.root_out_score(ply)
                self.unmake()
                return value
            # An enemy king the bot attacks here has had its turn to answer in the real game (all
            # enemies move between two moves of the bot; BRS plays one of them): not taken.
            B = pos.board
            moves = [m for m in moves if B[m[1]] & 7 != KING or B[m[1]] >= GREY * 8] or moves
            best = -INFINITE
            for seat, m in self.order([(root, m) for m in moves], ply, True):
                self.make(m)
                value = self.brs(depth - 1, alpha, beta, False, ply + 1)
                self.unmake()
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        self.pv[ply] = [(root, m)] + self.pv[ply + 1]
                        if alpha >= beta:
                            self.good_quiet(m, ply, depth)
                            break
            return best
        # MIN layer: eliminations of stuck enemies first (credit to the bot: it moved last).
        eliminated = 0
        replies: List[Tuple[int, Move]] = []
        for e in self.enemy_seats():
            moves = pos.legal_moves(e)
            if not moves:
                self.eliminate_stuck(e, root)
                eliminated += 1
                continue
            replies.extend((e, m) for m in moves)
        try:
            if not replies:
                return self.evaluate(root)           # no enemy can move: nothing more to answer
            best = INFINITE
            for e, m in self.order(replies, ply):
                pos.pass_turn(e)
                self.make(m)
                pos.pass_turn(root)
                value = self.brs(depth - 1, alpha, beta, True, ply + 1, e)
                pos.pop()
                self.unmake()
                pos.pop()
                if value < best:
                    best = value
                    if value < beta:
                        beta = value
                        self.pv[ply] = [(e, m)] + self.pv[ply + 1]
                        if alpha >= beta:
                            self.good_quiet(m, ply, depth)
                            break
            return best
        finally:
            for _ in range(eliminated):
                self.unmake()

    # ------------------------------------------------------------------ turn-order search
    def ordered(self, depth: int, alpha: int, beta: int, ply: int, last: Optional[int]) -> int:
        """Paranoid / team alpha-beta: seats move in turn order; the bot's side maximises."""
        self.tick()
        self.pv[ply] = []
        pos = self.pos
        state = pos.state
        if state[self.root] != ACTIVE:
            return self.root_out_score(ply)
        s = pos.turn
        maximise = s == self.root if self.algorithm == "paranoid" else self.side[s] == self.my_key
        if len({self.side[x] for x in pos.active_seats()}) <= 1 or ply >= 120:
            return self.evaluate(s if self.side[s] == self.my_key else None)
        if depth <= 0:
            return self.quiesce(alpha, beta) if self.side[s] == self.my_key else self.evaluate(None)
        if state[s] == ZOMBIE:
            pos.pass_turn()
            try:
                return self.ordered(depth - 1, alpha, beta, ply + 1, last)
            finally:
                pos.pop()
        moves = pos.legal_moves(s)
        if not moves:
            self.eliminate_stuck(s, last)
            try:
                if s == self.root:
                    return self.root_out_score(ply)
                return self.ordered(depth, alpha, beta, ply + 1, last)
            finally:
                self.unmake()
        best = -INFINITE if maximise else INFINITE
        for seat, m in self.order([(s, m) for m in moves], ply, maximise):
            self.make(m)
            if self.repeats():
                value = self.draw_value(ply + 1)
            else:
                value = self.ordered(depth - 1, alpha, beta, ply + 1, s)
            self.unmake()
            if maximise:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        self.pv[ply] = [(s, m)] + self.pv[ply + 1]
            elif value < best:
                best = value
                if value < beta:
                    beta = value
                    self.pv[ply] = [(s, m)] + self.pv[ply + 1]
            if alpha >= beta:
                self.good_quiet(m, ply, depth)
                break
        return best

    # ------------------------------------------------------------------ root
    def search_root(self, depth: int, moves: List[Move], scores: Dict[Move, int],
                    found: Dict[str, Any]) -> None:
        """One iteration over the root moves (best first); ``found`` keeps the best move of this
        depth as soon as one is searched, so a stopped iteration can still be used."""
        alpha = -INFINITE
        for m in moves:
            self.make(m)
            try:
                if self.repeats():
                    value = self.draw_value(1)
                elif self.algorithm == "brs":
                    value = self.brs(depth - 1, alpha, INFINITE, False, 1)
                else:
                    value = self.ordered(depth - 1, alpha, INFINITE, 1, self.root)
            finally:
                self.unmake()
            scores[m] = value
            if value > alpha:
                alpha = value
                found["move"] = m
                found["score"] = value
                found["pv"] = [(self.root, m)] + self.pv[1]


# ---------------------------------------------------------------------------------- the bot
class Bot:
    """A search bot for 8 Player Chess (see the module docstring for the algorithms).

    ``depth``: the most plies to search (None: as deep as the time allows); ``movetime``: seconds per
    move (None: the depth alone decides); at least one must be set.
    """

    def __init__(self, depth: Optional[int] = None, movetime: Optional[float] = 1.0, algorithm: str = "auto",
                 seed: Optional[int] = None) -> None:
        if algorithm not in ALGORITHMS:
            raise BotError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        if depth is not None:
            if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
                raise BotError(f"depth is a whole number of plies, at least 1, not {depth!r}")
        if movetime is not None:
            if isinstance(movetime, bool) or not isinstance(movetime, (int, float)) or not movetime > 0:
                raise BotError(f"movetime is a positive number of seconds, not {movetime!r}")
        if depth is None and movetime is None and algorithm != "random":
            raise BotError("give a depth, a movetime or both")
        self.depth = depth
        self.movetime = movetime
        self.algorithm = algorithm
        self.seed = seed
        self.rng = random.Random(seed)
        limit = f"d{depth}" if depth is not None else f"{movetime:.1f}s"
        self.name = "random" if algorithm == "random" else f"{algorithm} {limit}"
        self.last: Dict[str, Any] = {}
        self._stop = threading.Event()

    def stop(self) -> None:
        """Make a running ``choose`` return its best move so far at once (thread-safe)."""
        self._stop.set()

    def algorithm_for(self, mode: str) -> str:
        """The search this bot runs in a game of ``mode``."""
        if self.algorithm == "auto":
            return "team" if mode == "teams" else "brs"
        return self.algorithm

    def choose(self, game: Any) -> Move:
        """A legal move for ``game.turn`` (the game is not changed)."""
        started = time.perf_counter()
        self._stop.clear()
        if getattr(game, "over", False) or game.turn is None:
            raise BotError("the game is over: there is no move to choose")
        pos = game.position
        if pos.state[pos.turn] != ACTIVE:
            raise BotError(f"{pos.v.seats[pos.turn].colour} is not an active player")
        moves = game.legal_moves()
        if not moves:
            raise BotError(f"{pos.v.seats[pos.turn].colour} has no legal move")
        algorithm = self.algorithm_for(getattr(game, "mode", "singles"))
        if algorithm == "random" or len(moves) == 1:
            move = moves[self.rng.randrange(len(moves))]
            self.last = {"depth": 0, "nodes": 0, "seconds": time.perf_counter() - started, "score": 0,
                         "algorithm": algorithm, "pv": [f"{pos.v.seats[pos.turn].letter} {pos.move_text(move)}"]}
            return move
        movetime = self.movetime
        deadline = None
        if movetime is not None:
            # Leave room for unwinding and for the caller: stop a little before the time is up.
            deadline = started + max(0.01, movetime * 0.97 - 0.004)
        search = _Search(game, algorithm, deadline, self._stop, self.rng)
        order = list(moves)
        self.rng.shuffle(order)          # variety among equal moves (the seed decides)
        order = [m for _, m in search.order([(pos.turn, m) for m in order], 0, True)]
        scores: Dict[Move, int] = {}
        best_move = order[0]             # if the time runs out before any move is searched
        best_score = 0
        best_pv: List[Tuple[int, Move]] = [(pos.turn, best_move)]
        reached = 0
        max_depth = self.depth if self.depth is not None else 64
        for depth in range(1, max_depth + 1):
            found: Dict[str, Any] = {}
            try:
                search.search_root(depth, order, scores, found)
            except _Stop:
                # The previous best is searched first: whatever this depth found is at least as
                # well informed.
                if "move" in found:
                    best_move, best_score, best_pv = found["move"], found["score"], found["pv"]
                break
            best_move, best_score, best_pv = found["move"], found["score"], found["pv"]
            reached = depth
            # Next iteration: best first, then by this iteration's scores (stable: seeded order).
            order.sort(key=lambda m: scores.get(m, -INFINITE), reverse=True)
            order.remove(best_move)
            order.insert(0, best_move)
            if abs(best_score) >= STALEMATED // 2:
                break                    # a forced elimination: deeper search will not change it
            if deadline is not None and time.perf_counter() > started + (deadline - started) * 0.6:
                break                    # the next depth would not get far: keep the time
        self.last = {"depth": reached, "nodes": search.nodes, "seconds": time.perf_counter() - started,
                     "score": int(best_score), "algorithm": algorithm, "pv": _pv_texts(game, best_pv)}
        return best_move


def _pv_texts(game: Any, pv: Sequence[Tuple[int, Move]]) -> List[str]:
    """The principal variation as colour letter and move text (``w Nf3``)."""
    pos = game.position.copy()
    texts = []
    for seat, m in pv:
        if pos.state[seat] not in (ACTIVE, ZOMBIE):
            break
        if pos.turn != seat:
            pos.pass_turn(seat)
        if m not in pos.legal_moves():
            break
        texts.append(f"{pos.v.seats[seat].letter} {pos.move_text(m)}")
        pos.push(m)
    return texts


def evaluate_position(game: Any) -> int:
    """The bots' static evaluation of ``game`` from the side of the seat to move, in centipawns."""
    search = _Search(game, "brs", None, threading.Event(), random.Random(0))
    return search.evaluate(search.root)
