"""The referee of a game of 8 Player Chess: turns, eliminations, credits, points, modes, options and
the end of the game (docs/EIGHT_PLAYER_RULES.md E3-E5).

A ``Game`` is driven by actions: ``play`` (a move of the seat to move), ``resign``, ``timeout`` and
``claim``.  After each, the seats that have no legal move at the start of their turn are eliminated
(E4.1) and the credit of every mate or stalemate in waiting is kept up to date (E4.2).  The whole game is
its list of actions, so a record replays exactly (``from_record``).

The modes' rules are ``modes.py``'s (``Game.mode_rules``), the options ``options.py``'s; the checks,
credits and eliminations ``eliminations.py``'s (``Game``'s base class).
"""
import copy as _copy
import operator
import random
from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from ..core.errors import IllegalMoveError, RulesError
from ..core.moves import Move
from .eliminations import Eliminations
from .modes import MODE_BY_NAME, MODES, Mode
from .notation import move_text as _move_text, parse_move as _parse_move
from .options import OPTION_NAMES, Options, RulesOptionError, whole_number
from .position import MultiPosition
from .rules import (ACTIVE, CHECKMATED, CLAIMED, GREY, KIND_LETTERS, KING, KING_CAPTURED, OUT_STATES, POINT_QUEEN,
                    QUEEN, RESIGNED, TIMED_OUT, ZOMBIE, MultiVariant, get_multi_variant)
from .record import read_record, write_record

__all__ = ["Game", "GameResult", "Options", "MODES", "OPTION_NAMES", "RulesOptionError", "InvalidSeatError"]


class InvalidSeatError(RulesError, IndexError):
    """A seat (0 White .. 7 Black) or team number that the game does not have."""


class GameResult(NamedTuple):
    reason: str                 # why the game ended, in words
    winners: Tuple[int, ...]    # seats (all members of a winning pair or team; several on a tie)
    scores: Tuple[int, ...]     # points per seat
    draw: bool


class Game(Eliminations):
    """One game of 8 Player Chess in a mode with options, from the start or from a position text.

    The calls of docs/EIGHT_PLAYER_API.md (tests/test_docstrings.py checks that each has an example):

    >>> game = Game("singles", seed=1)
    >>> m = game.parse_move("h3")
    >>> game.turn, game.move_text(m)
    (0, 'h3')
    >>> game.play(m)
    >>> game.turn, [game.move_text(x) for x in game.legal_moves()][:3]
    (1, ['c4', 'd4', 'Nc6'])
    >>> reply = game.play_text("1 r. c7")   # the record's form is read too
    >>> for seat in range(2, 7):
    ...     game.resign()
    >>> game.timeout()                      # Black's time runs out
    >>> game.turn, [game.status(seat) for seat in (0, 2, 7)]
    (0, ['active', 'resigned', 'timed out'])
    >>> game.scores[:2], game.pair_score(0), game.team_score(0), game.claim_allowed(0), game.over
    ([0, 0], 0, 0, False, False)
    >>> game.claim()                        # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xboard_engine.core.errors.IllegalMoveError: White cannot claim the game now (two players left, on its ...)
    >>> game.record().splitlines()[:3]
    ['[Game "8 Player Chess"]', '[Mode "singles"]', '[Seed "1"]']
    >>> game.to_dict()["actions"][:3]
    [[0, 'move', 'h3'], [1, 'move', 'c7'], [2, 'resign', 'resigns']]
    >>> Game.from_record(game.record()).position.text() == game.position.text()
    True
    >>> Game.from_dict(game.to_dict()).record() == game.record()
    True
    >>> copied = game.copy()                # a game of its own: what is done to it stays there
    >>> copied.scores.append(99); copied.scores == game.scores, copied.record() == game.record()
    (False, True)
    """

    def __init__(self, mode: str = "singles", options: Optional[Dict[str, object]] = None,
                 position: Optional[str] = None, seed: Optional[int] = None, game: str = "8player") -> None:
        rules = MODE_BY_NAME.get(mode) if isinstance(mode, str) else None
        if rules is None:
            raise RulesOptionError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
        self.mode = mode                       # the name (options, records, JSON)
        self.mode_rules: Mode = rules          # the rules of the mode
        self.options = opts = Options.make(mode, options)
        v: MultiVariant = get_multi_variant(game)
        self.v = v
        n = v.players
        self.teams = teams = rules.sides(v)    # side key per seat
        kw = dict(teams=teams, capture_the_king=opts.capture_the_king, one_point_queen=opts.one_point_queen)
        self.position = MultiPosition.from_text(position, game, **kw) if position else MultiPosition(game, **kw)
        values = list(v.values)
        if opts.custom_points:
            for letter, value in opts.custom_points:
                kind = KIND_LETTERS.index(letter)
                values[kind] = value
                if kind == QUEEN:
                    values[POINT_QUEEN] = value if not opts.one_point_queen else 1
        if opts.only_king_points:
            values = [0] * 8
            values[KING] = v.values[KING]
        self.values = values
        self.needed = opts.checkmates_needed or v.team_checkmates
        # A Zombie King moves at random: from a recorded seed, so a record replays the same game.
        if seed is not None and (isinstance(seed, str) or whole_number(seed) is None):
            raise RulesOptionError(f"the seed is a whole number, not {seed!r}")
        self.seed = operator.index(seed) if seed is not None else random.randrange(1 << 31)
        self.rng = random.Random(self.seed)
        self.scores = [0] * n
        self.taken = [[0] * n for _ in range(n)]       # taken[victim][taker]: points taken
        # seat in waiting -> (creditor, CHECKMATED or STALEMATED)
        self.credit: Dict[int, Tuple[Optional[int], str]] = {}
        # E4.5: the enemies checking each seat, with when each check came (the last one is credited
        # with a mate its partner completes).
        self.checks: Dict[int, Dict[int, Tuple[int, int]]] = {}
        self.stuck: Dict[int, str] = {}               # seat -> CHECKMATED/STALEMATED if it could not move now
        self.team_mates = [0] * len(v.teams)           # members of each team checkmated
        self.team_stalemates = [0] * len(v.teams)
        self.actions: List[Tuple[int, str, str]] = []  # (seat, kind, text): kind move/resign/timeout/claim
        self.log: List[Tuple[int, str]] = []           # (index of the action it followed, words)
        self.set_number = 1
        self.result: Optional[GameResult] = None
        self.seen: Dict[int, int] = {}
        self._track_checks(None)
        self._refresh_stuck()
        self._start_turn()

    # ================================================================ reading the state
    @property
    def turn(self) -> Optional[int]:
        """The seat to move, or None when the game is over."""
        return None if self.result else self.position.turn

    @property
    def over(self) -> bool:
        return self.result is not None

    def _seat(self, seat: object) -> int:
        """``seat`` if the game has it (0 White .. 7 Black), else InvalidSeatError."""
        try:
            s = operator.index(seat) if not isinstance(seat, bool) else -1  # type: ignore[arg-type]
        except TypeError:
            s = -1
        if not 0 <= s < self.v.players:
            raise InvalidSeatError(f"no seat {seat!r}: the seats are 0 (White) to {self.v.players - 1} "
                                   f"({self.v.seats[-1].colour})")
        return s

    def seat_name(self, seat: int) -> str:
        return self.v.seats[self._seat(seat)].colour

    def status(self, seat: int) -> str:
        """``active``, ``zombie`` or how the seat left the game."""
        st = self.position.state[self._seat(seat)]
        return "active" if st == ACTIVE else "zombie" if st == ZOMBIE else OUT_STATES[st]

    def legal_moves(self) -> List[Move]:
        return [] if self.result else self.position.legal_moves()

    def move_text(self, m: Move, colon: bool = False) -> str:
        return _move_text(self.position, m, colon)

    def parse_move(self, text: str) -> Move:
        if self.result:
            raise IllegalMoveError("the game is over")
        return _parse_move(self.position, text)

    def pair_score(self, seat: int) -> int:
        seat = self._seat(seat)
        p = self.v.partner[seat]
        return self.scores[seat] + (self.scores[p] if p >= 0 else 0)

    def team_score(self, team: int) -> int:
        teams = self.v.teams
        if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < len(teams):
            raise InvalidSeatError(f"no team {team!r}: the teams are 0 ({self.v.team_names[0]}) to "
                                   f"{len(teams) - 1} ({self.v.team_names[-1]})")
        return sum(self.scores[s] for s in teams[team])

    def claim_allowed(self, seat: int) -> bool:
        """E5: two players left, ``seat`` to move and ahead by 26 or more (pair totals in Pairs)."""
        seat = self._seat(seat)
        rules = self.mode_rules
        if self.result or not rules.claims_allowed or self.options.last_king_standing or seat != self.position.turn:
            return False
        active = self.position.active_seats()
        if len(active) != 2 or self.teams[active[0]] == self.teams[active[1]]:
            return False
        other = active[1] if active[0] == seat else active[0]
        return rules.side_score(self, seat) - rules.side_score(self, other) >= 26

    # ================================================================ actions
    def play(self, m: Move) -> None:
        """Make legal move ``m`` of the seat to move (raises IllegalMoveError)."""
        if self.result:
            raise IllegalMoveError("the game is over")
        pos = self.position
        legal = pos.legal_moves()
        if m not in legal:
            raise IllegalMoveError(f"{m!r} is not a legal move of {self.seat_name(pos.turn)}")
        text = _move_text(pos, m, legal=legal)
        self._play(m, text)
        self._start_turn()

    def play_text(self, text: str) -> Move:
        m = self.parse_move(text)
        self.play(m)
        return m

    def resign(self, seat: Optional[int] = None) -> None:
        """The seat to move resigns (the text: only on one's own move)."""
        self._leave(seat, "resign", RESIGNED, "resigns")

    def timeout(self, seat: Optional[int] = None) -> None:
        """The seat to move runs out of time."""
        self._leave(seat, "timeout", TIMED_OUT, "runs out of time")

    def claim(self, seat: Optional[int] = None) -> None:
        """E5: the leader of the last two claims the game, resigning and giving the other 25 points."""
        s = self.position.turn if seat is None else self._seat(seat)
        if not self.claim_allowed(s):
            raise IllegalMoveError(f"{self.seat_name(s)} cannot claim the game now (two players left, "
                                   f"on its move, ahead by 26 or more)")
        pos = self.position
        other = next(x for x in pos.active_seats() if x != s)
        self.actions.append((s, "claim", "claims"))
        pos.eliminate(s, CLAIMED)
        self._award(other, self.v.checkmate_points)
        self._note(f"{self.seat_name(s)} claims the game; {self.seat_name(other)} gets 25")
        self._finish("claimed by " + self.seat_name(s))

    # ================================================================ inside
    def _check_turn(self, seat: Optional[int], what: str) -> int:
        s = self.position.turn if seat is None else self._seat(seat)
        if self.result:
            raise IllegalMoveError("the game is over")
        if s != self.position.turn:
            raise IllegalMoveError(f"{self.seat_name(s)} can {what} only on its own move")
        return s

    def _note(self, words: str) -> None:
        self.log.append((len(self.actions), words))

    def _award(self, seat: int, points: int) -> None:
        self.scores[seat] += points

    def _play(self, m: Move, text: str) -> None:
        pos = self.position
        v = self.v
        mover = pos.turn
        # A set: one move of each remaining player (numbered as the record numbers it).
        last = next((a[0] for a in reversed(self.actions) if a[1] == "move"), -1)
        if last >= 0 and mover <= last:
            self.set_number += 1
        # Before the move: the escapes of seats in waiting and who covers them (the stealing rule).
        cover_before = {t: self._coverage(t) for t in self.credit}
        checked_before = self._kings_checked_by(mover) if self.options.checkpoints else set()
        B = pos.board
        victim_sq = m[4] if m[3] == 2 else (m[1] if m[3] != 3 else 0)
        victim = B[victim_sq] if victim_sq else 0
        pos.push(m)
        self.actions.append((mover, "move", text))
        if victim and victim >> 3 != GREY:
            owner = victim >> 3
            points = self.values[victim & 7]
            self._award(mover, points)
            self.taken[owner][mover] += points
            if victim & 7 == KING:
                # E4.4 (and Capture The King): push has put the owner out; its mate or stalemate in
                # waiting, if any, is gone with it.
                self.credit.pop(owner, None)
                self.stuck.pop(owner, None)
                self.checks.pop(owner, None)
                self._out(owner, KING_CAPTURED, mover, f"{self.seat_name(owner)}'s king is captured by {self.seat_name(mover)}"
                          + (f", +{points} {self.seat_name(mover)}" if points else ""))
                if self._check_end():
                    return
        if self.options.checkpoints:
            newly = self._kings_checked_by(mover) - checked_before
            if newly:
                table = v.checkpoints
                if len(newly) > len(table):
                    self._note(f"{self.seat_name(mover)} checks {len(newly)} kings at once")
                    self._finish(f"{self.seat_name(mover)} checks {len(newly)} kings at once", winners=(mover,))
                    return
                self._award(mover, table[len(newly) - 1])
                self._note(f"{self.seat_name(mover)} checks {len(newly)} king(s): +{table[len(newly) - 1]}")
        self._track_checks(mover)
        self._update_credits(mover, cover_before)
        if self.options.immediate_checkmate:
            for t, kind in list(self.stuck.items()):
                if kind == CHECKMATED and pos.is_active(t):
                    self._eliminate_stuck(t)
                    if self.result:
                        return
        self._check_end()

    def _start_turn(self) -> None:
        """E4.1: eliminate the seat to move while it has no legal move; play a Zombie King's move."""
        pos = self.position
        while not self.result:
            seat = pos.turn
            h = pos.hash
            if seat in self.stuck or not pos.has_legal_move(seat):
                self._eliminate_stuck(seat)
                continue
            self.seen[h] = self.seen.get(h, 0) + 1
            if self._check_draw():
                return
            if pos.state[seat] == ZOMBIE:
                moves = pos.legal_moves()
                m = moves[self.rng.randrange(len(moves))]
                self._play(m, _move_text(pos, m, legal=moves))
                continue
            return

    def _check_draw(self) -> bool:
        pos = self.position
        v = self.v
        active = pos.active_seats()
        reason = None
        if self.seen.get(pos.hash, 0) >= 3:
            reason = "threefold repetition"
        elif pos.clock >= v.fifty_sets * len(active):
            reason = f"the {v.fifty_sets}-set rule"
        elif all(pos.board[sq] & 7 == KING for s in active for sq in pos.units[s]):
            reason = "insufficient material"
        if reason is None:
            return False
        points = self.mode_rules.points_decide
        if points:
            for s in active:
                self._award(s, v.checkmate_points)
        self._note(f"draw by {reason}" + (": +25 to every active player" if points else ""))
        self._finish("draw by " + reason, draw=True)
        return True

    def _check_end(self) -> bool:
        if self.result:
            return True
        end = self.mode_rules.end_of_game(self)
        if end is None:
            return False
        self._finish(*end)
        return True

    def _finish(self, reason: str, winners: Optional[Tuple[int, ...]] = None, draw: bool = False) -> None:
        if winners is None:
            winners = self.mode_rules.leaders(self, draw)
        self.result = GameResult(reason, winners, tuple(self.scores), draw)

    def copy(self) -> "Game":
        """An independent copy (a bot may read it in another thread while this game goes on): every
        attribute is copied deeply (so a new one cannot be forgotten), but the variant and the mode,
        which never change, are shared, and the position is copied by its own fast ``copy``."""
        other = _copy.copy(self)
        memo = {id(self.v): self.v, id(self.mode_rules): self.mode_rules, id(self.position): self.position.copy()}
        other.__dict__ = _copy.deepcopy(self.__dict__, memo)
        return other

    # ================================================================ records
    def record(self, numerals: bool = False) -> str:
        """The game as text: tag lines, then one line per move as the text writes them (``1 w. h3``),
        resignations and eliminations as comments in braces."""
        return write_record(self, numerals)

    @classmethod
    def from_record(cls, text: str) -> "Game":
        """The game of a record written by ``record`` (raises RulesError with the line at fault)."""
        return read_record(cls, text)

    def to_dict(self) -> dict:
        return {"mode": self.mode, "options": self.options.as_dict(), "seed": self.seed,
                "start": None if self.position.root_text() == MultiPosition().text() else self.position.root_text(),
                "actions": [[s, kind, text] for s, kind, text in self.actions]}

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """The game of ``to_dict`` (raises RulesError naming the field at fault)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"a saved game is a dict (mode, options, seed, start, actions), not {data!r}")
        mode = data.get("mode", "singles")
        if not isinstance(mode, str):
            raise RulesOptionError(f"the mode is text ({', '.join(MODES)}), not {mode!r}")
        actions = data.get("actions", [])
        if not isinstance(actions, (list, tuple)):
            raise IllegalMoveError(f"the actions are a list of [seat, kind, text], not {actions!r}")
        game = cls(mode, data.get("options") or {}, data.get("start"), data.get("seed"))
        game.replay(actions)
        return game

    def replay(self, actions: Sequence[Sequence[object]]) -> None:
        """Apply actions ``[seat, kind, text]`` (zombie moves are the game's own and are skipped);
        raises RulesError naming the action at fault."""
        for number, action in enumerate(actions, 1):
            if not isinstance(action, (list, tuple)) or len(action) != 3:
                raise IllegalMoveError(f"action {number}: an action is [seat, kind, text], not {action!r}")
            seat, kind, text = action
            try:
                seat = self._seat(seat)
            except InvalidSeatError as error:
                raise InvalidSeatError(f"action {number} {list(action)!r}: {error}") from None
            if not isinstance(text, str):
                raise IllegalMoveError(f"action {number} {list(action)!r}: the text is a string, not {text!r}")
            if self.result:
                raise IllegalMoveError(f"action {text!r} after the end of the game")
            if kind == "move":
                if self.position.state[seat] == ZOMBIE:
                    continue
                if seat != self.position.turn:
                    raise IllegalMoveError(f"move {text!r} by {self.seat_name(seat)}, but "
                                           f"{self.seat_name(self.position.turn)} is to move")
                self.play_text(text)
            elif kind in ("resign", "timeout", "claim"):
                getattr(self, kind)(seat)
            else:
                raise IllegalMoveError(f"unknown action {kind!r}")
