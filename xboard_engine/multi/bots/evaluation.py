"""The 8 Player Chess bots' judgement of a position (``bots.py``): the static evaluation (points,
material with placement, Teams' checkmates, king safety and the largest threatened loss), the
scores of a seat's leaving the game and of a draw by repetition, and the quiescence search of
captures at a leaf.  All scores are centipawns from the bot's side's view.
"""
from typing import List, Optional, Tuple

from ...core.attacks import ray_end
from ...core.moves import CASTLE, EP
from .state import SearchState
from .values import (CAPTURE_ORDER, DRAW_RESULT_CP, ELIMINATED, HANGING_NEXT, HANGING_SECOND, IN_CHECK_CP, INFINITE,
                     KING_ZONE_CP, MATERIAL, POINT_CP, SHIELD_CP, STALEMATED_CP, TEAM_MATE_CP, TEAM_WIN)
from ..position import MultiPosition
from ..rules import ACTIVE, BISHOP, GREY, KING, KNIGHT, OFF, PAWN, POINT_QUEEN, QUEEN, ROOK, STALEMATED, ZOMBIE


def cheapest_attacker(pos: MultiPosition, sq: int, table: List[bool]) -> int:
    """The material of the cheapest unit marked by ``table`` that attacks ``sq`` (0: none)."""
    B = pos.board
    v = pos.v
    best = INFINITE
    for o in v.knight:
        c = B[sq + o]
        if table[c] and c & 7 == KNIGHT:
            best = 300
            break
    pawn_reverse = v.pawn_reverse
    for directions, slider in ((v.orthogonal, ROOK), (v.diagonal, BISHOP)):
        for d in directions:
            t, c = ray_end(B, sq + d, d)
            if not table[c]:
                continue
            k = c & 7
            if k == slider or k == QUEEN or k == POINT_QUEEN or (t == sq + d and (
                    k == KING or (slider == BISHOP and k == PAWN and d in pawn_reverse[c >> 3]))):
                worth = MATERIAL[k] if k != KING else 2000
                if worth < best:
                    best = worth
    return 0 if best == INFINITE else best


class Evaluation(SearchState):
    """The evaluation half of a search: static scores and the quiescence search."""

    def root_out_score(self, ply: int) -> int:
        """The bot's seat has left the game at this node."""
        how = self.pos.state[self.root]
        base = STALEMATED_CP if how == STALEMATED and self.points_decide else ELIMINATED
        return -base + ply + self.points_term() // 4

    def repeats(self) -> bool:
        """The move just made brings the game to a position for the third time (a draw)."""
        return self.seen.get(self.pos.hash, 0) >= 2

    def draw_value(self, ply: int) -> int:
        """The game ends drawn here: outside Teams every active player gets the points of a mate and
        the side ahead on points wins (nobody does in Teams)."""
        if not self.points_decide:
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
        if not self.points_decide:
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
        if not self.points_decide:
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
                attacker = cheapest_attacker(pos, sq, hostile)
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
