"""How seats leave a game of 8 Player Chess and what it is worth (docs/EIGHT_PLAYER_RULES.md E4): the checks on
each king and when each came, the mates and stalemates in waiting and who is credited with them
(E4.2, E4.5, the save and the stealing rule), the elimination of a seat without a legal move (E4.1),
a king captured (E4.4), a resignation or time-out, and the points and team counts that follow.
"""
from typing import Dict, Optional

from .rules import CHECKMATED, KING_CAPTURED, STALEMATED, ZOMBIE


class Eliminations:
    """The elimination and credit bookkeeping of a ``Game`` (its base class): works on the game's
    ``position``, ``credit``, ``checks``, ``stuck``, ``scores`` and team counts, and notes what
    happened with the game's ``_note``."""

    def _kings_checked_by(self, seat: int) -> set:
        pos = self.position
        return {t for t in pos.active_seats()
                if t != seat and self.teams[t] != self.teams[seat] and pos.attacked_by_seat(pos.kings[t], seat)}

    def _coverage(self, t: int) -> Dict[int, set]:
        """Each would-be escape of seat ``t``'s king and the seats whose units cover it."""
        pos = self.position
        B = pos.board
        king = pos.kings[t]
        code = B[king]
        B[king] = 0
        try:
            enemies = [x for x in pos.active_seats() if self.teams[x] != self.teams[t]]
            return {x: {e for e in enemies if pos.attacked_by_seat(x, e)} for x in pos.king_escapes(t)}
        finally:
            B[king] = code

    def _refresh_stuck(self) -> Dict[int, str]:
        pos = self.position
        self.stuck = {t: (CHECKMATED if pos.in_check(t) else STALEMATED)
                      for t in pos.active_seats() if not pos.has_legal_move(t)}
        return self.stuck

    def _track_checks(self, mover: Optional[int]) -> None:
        """Keep ``checks``: for each active seat in check, the enemies whose units attack its king and
        when each check came (E4.5).  Of checks that come with one move, the mover's counts as the
        last; others by turn, the enemy whose turn comes first after the move as the later (it would
        be the first to take the king, E4.4)."""
        pos = self.position
        n = self.v.players
        stamp = len(self.actions)
        after = pos.turn if mover is None else mover
        checks = {}
        for t in pos.active_seats():
            if not pos.in_check(t):
                continue
            old = self.checks.get(t, {})
            king = pos.kings[t]
            now = {}
            for i in range(1, n + 1):
                e = (after + i) % n
                if e != t and self.teams[e] != self.teams[t] and pos.is_active(e) and pos.attacked_by_seat(king, e):
                    now[e] = old.get(e, (stamp, n if e == mover else n - i))
            checks[t] = now
        self.checks = checks

    def _last_checker(self, t: int) -> Optional[int]:
        """The enemy whose check on seat ``t`` came last (E4.5), or None if ``t`` is not in check."""
        checks = self.checks.get(t)
        if not checks:
            return None
        return max(checks, key=lambda e: checks[e])

    def _creditor(self, t: int, kind: str, mover: Optional[int]) -> Optional[int]:
        """Who is credited with a mate or stalemate of seat ``t`` that ``mover``'s action has just made
        (E4.2, E4.5): an enemy mover; a partner mover for a stalemate (the pair's 25) or, for a mate,
        the enemy whose check came last; after an action that is not a move, the enemy whose check
        came last for a mate and nobody for a stalemate."""
        if mover is not None and (self.teams[mover] != self.teams[t] or kind == STALEMATED):
            return mover
        return self._last_checker(t) if kind == CHECKMATED else None

    def _update_credits(self, mover: Optional[int], cover_before: Dict[int, Dict[int, set]]) -> None:
        """E4.2: credit new mates and stalemates (to the mover, or as E4.5 says when the mover is the
        player's partner), let the mover steal a mate it now covers, and clear the credit of a seat
        that can move again (the save).  ``mover`` None: after a resignation, time-out or elimination
        (no move; its units turning grey may free a player in waiting, whose credit then lapses)."""
        before = dict(self.stuck)
        after = self._refresh_stuck()
        for t in list(self.credit):
            if t not in after:
                creditor, kind = self.credit.pop(t)
                was = "" if creditor is None else f" (was credited to {self.seat_name(creditor)})"
                if mover is None:
                    self._note(f"{self.seat_name(t)} can move again: its {_WORD[kind]} in waiting is gone{was}")
                else:
                    self._note(f"{self.seat_name(mover)} saves {self.seat_name(t)}{was}")
        for t, kind in after.items():
            if t not in before or before[t] != kind:
                self.credit[t] = (self._creditor(t, kind, mover), kind)
                continue
            held = self.credit.get(t)
            if mover is None or held is None or held[0] == mover or held[0] is None or t not in cover_before \
                    or self.teams[mover] == self.teams[t]:
                continue
            c = held[0]
            now = self._coverage(t)
            if any(c in cover_before[t].get(x, ()) and mover in now.get(x, ()) and c not in now.get(x, ())
                   for x in cover_before[t]):
                self.credit[t] = (mover, kind)
                self._note(f"{self.seat_name(mover)} steals the {_WORD[kind]} of {self.seat_name(t)} from "
                           f"{self.seat_name(c)}")

    def _eliminate_stuck(self, seat: int) -> None:
        pos = self.position
        kind = CHECKMATED if pos.in_check(seat) and not self.options.capture_the_king else STALEMATED
        creditor = self.credit.pop(seat, (None, kind))[0]
        self.stuck.pop(seat, None)
        pos.eliminate(seat, kind)
        self._out(seat, kind, creditor, f"{self.seat_name(seat)} is {_WORD[kind]}d" +
                  (f" (credit: {self.seat_name(creditor)})" if creditor is not None else ""))
        if kind == CHECKMATED and self.mode_rules.knocks_out_partner(self.options):
            partner = self.v.partner[seat]
            if pos.is_active(partner):
                self.credit.pop(partner, None)
                self.stuck.pop(partner, None)
                pos.eliminate(partner, CHECKMATED)
                self._out(partner, CHECKMATED, creditor, f"{self.seat_name(partner)} is knocked out with its partner")
        self._after_leaving()
        self._check_end()

    def _after_leaving(self) -> None:
        """A player has left without a move: its units are grey now, which may free a player whose
        mate or stalemate was waiting (its credit lapses) or turn one into the other."""
        self._track_checks(None)
        self._update_credits(None, {})

    def _out(self, seat: int, kind: str, creditor: Optional[int], words: str) -> None:
        """Points and team counts for a seat that has just left the game (kind: CHECKMATED,
        STALEMATED or KING_CAPTURED)."""
        v = self.v
        pos = self.position
        rules = self.mode_rules
        team = self.teams[seat]
        if kind == CHECKMATED or kind == KING_CAPTURED:
            if not rules.points_decide:
                self.team_mates[v.team_of[seat]] += 1
            elif creditor is not None and kind == CHECKMATED:   # a captured king scored its 25 as a capture
                self._award(creditor, v.checkmate_points)
                words += f", +{v.checkmate_points} {self.seat_name(creditor)}"
        elif kind == STALEMATED:
            if not rules.points_decide:
                self.team_stalemates[v.team_of[seat]] += 1
            elif rules.stalemate_is_own(v, seat, creditor):
                self._award(creditor, v.self_stalemate_points)
                words += f", +{v.self_stalemate_points} {self.seat_name(creditor)}"
            else:
                others = [s for s in pos.active_seats() if self.teams[s] != team]
                shares = rules.stalemate_shares(v)
                if others:
                    each = shares[min(len(others), len(shares)) - 1]
                    for s in others:
                        self._award(s, each)
                    words += f", +{each} to each of {len(others)}"
        self._note(words)

    def _leave(self, seat: Optional[int], action: str, how: str, words: str) -> None:
        """The seat to move resigns or runs out of time (``how``: RESIGNED or TIMED_OUT)."""
        s = self._check_turn(seat, "resign" if action == "resign" else "run out of time")
        pos = self.position
        v = self.v
        self.actions.append((s, action, words))
        rules = self.mode_rules
        if self.options.zombie_king and rules.zombie_kings:
            self.credit.pop(s, None)
            pos.eliminate(s, ZOMBIE, keep_king=True)
            self._note(f"{self.seat_name(s)} {words}: its king plays on as a zombie")
            self._after_leaving()
            if not self._check_end():
                self._start_turn()          # the zombie king makes this move at random
            return
        self.credit.pop(s, None)
        pos.eliminate(s, how)
        text = f"{self.seat_name(s)} {words}"
        if not rules.points_decide:
            self.team_mates[v.team_of[s]] += 1
        else:
            # The 25 points go to whoever took most from the seat (pair totals in Pairs), shared on ties.
            groups = rules.resignation_takers(self, s)
            table = rules.resignation_shares(v)
            best = max((g[0] for g in groups.values()), default=0)
            if best > 0:
                winners = [g[1] for g in groups.values() if g[0] == best]
                each = table[min(len(winners), len(table)) - 1]
                for w in winners:
                    self._award(w, each)
                text += f", +{each} to " + ", ".join(self.seat_name(w) for w in winners)
        self._note(text)
        self._after_leaving()
        if not self._check_end():
            self._start_turn()


_WORD = {CHECKMATED: "checkmate", STALEMATED: "stalemate"}
