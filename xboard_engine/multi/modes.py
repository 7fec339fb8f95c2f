"""The three modes of 8 Player Chess (docs/EIGHT_PLAYER_RULES.md E5) as objects: who plays on whose side, how
eliminations, resignations and draws are scored, when the game ends and who wins.  The referee
(``game.Game``) and the bots (``bot_*``) ask the game's mode instead of testing its name.

Outside (options, JSON, records, the command line, the web) a mode is its name; ``MODE_BY_NAME``
is the one map from names to modes.
"""
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from .rules import MultiVariant

if TYPE_CHECKING:          # the game imports this module: only the type checker needs the Game
    from .game import Game
    from .options import Options

__all__ = ["Mode", "Singles", "Pairs", "Teams", "SINGLES", "PAIRS", "TEAMS", "MODE_BY_NAME", "MODES", "End",
           "mode_of"]

# How a game ends: (reason in words, winners or None for the leaders on points, drawn).
End = Tuple[str, Optional[Tuple[int, ...]], bool]


class Mode:
    """Singles, the base: every player for itself, points decide."""

    name = "singles"
    # Points decide the game: mates, stalemates, resignations and draws score points (False in
    # Teams, where a team's checkmates decide and no points are given for them).
    points_decide = True
    # A player may claim the game (E5: the leader of the last two).
    claims_allowed = True
    # The Zombie King option applies (a player who resigns or times out keeps a random king).
    zombie_kings = True
    # The bots' search when the bot is not told one.
    default_algorithm = "brs"
    # Players have teammates (Pairs, Teams), whose units they cannot capture.
    has_teammates = False
    # The game is won by a team's count (Teams): pages show the teams' scores.
    scores_by_team = False

    def __repr__(self) -> str:
        return f"<mode {self.name}>"

    def sides(self, v: MultiVariant) -> List[int]:
        """The side key of each seat: seats with one key never capture or check each other."""
        return list(range(v.players))

    def side_score(self, game: "Game", seat: int) -> int:
        """The score that ranks ``seat`` against its enemies (claims and the leaders on points)."""
        return game.scores[seat]

    def leaders(self, game: "Game", draw: bool) -> Tuple[int, ...]:
        """The winners of a game that ended without naming them: the seats ahead on ``side_score``."""
        seats = range(game.v.players)
        best = max(self.side_score(game, s) for s in seats)
        return tuple(s for s in seats if self.side_score(game, s) == best)

    def stalemate_shares(self, v: MultiVariant) -> Tuple[int, ...]:
        """Points to each enemy still playing when a player is stalemated by an enemy, by their number."""
        return v.stalemate_shares

    def stalemate_is_own(self, v: MultiVariant, seat: int, creditor: Optional[int]) -> bool:
        """Whether ``seat``'s stalemate is credited to its own side (its self-stalemate points)."""
        return creditor == seat

    def knocks_out_partner(self, options: "Options") -> bool:
        """Whether a checkmated player's partner goes out with it (Partner Knockout)."""
        return False

    def resignation_takers(self, game: "Game", seat: int) -> Dict[int, Tuple[int, int]]:
        """For each enemy group still playing after ``seat`` resigned or timed out: the points it took
        from ``seat`` and the seat that gets a share of the 25 points if the group took most."""
        return {x: (game.taken[seat][x], x) for x in game.position.active_seats()}

    def resignation_shares(self, v: MultiVariant) -> Tuple[int, ...]:
        """The 25 points of a resignation split among the groups that took most, by their number."""
        return v.stalemate_shares

    def end_of_game(self, game: "Game") -> Optional[End]:
        """How the game ends now, or None while it goes on: one side left (or none)."""
        active = game.position.active_seats()
        if len(active) > 1 and len({game.teams[s] for s in active}) > 1:
            return None
        if game.options.last_king_standing:
            return "last king standing", tuple(active), False
        return ("one player left" if len(active) == 1 else "only partners left" if active else "no player left",
                None, False)


class Singles(Mode):
    """Every player for itself."""


class Pairs(Mode):
    """Partners opposite each other play as a pair: pair totals rank them."""

    name = "pairs"
    has_teammates = True

    def sides(self, v: MultiVariant) -> List[int]:
        return [min(s, v.partner[s]) for s in range(v.players)]

    def side_score(self, game: "Game", seat: int) -> int:
        return game.pair_score(seat)

    def stalemate_shares(self, v: MultiVariant) -> Tuple[int, ...]:
        return v.pairs_stalemate_shares

    def stalemate_is_own(self, v: MultiVariant, seat: int, creditor: Optional[int]) -> bool:
        return creditor == seat or creditor == v.partner[seat]

    def knocks_out_partner(self, options: "Options") -> bool:
        return options.partner_knockout

    def resignation_takers(self, game: "Game", seat: int) -> Dict[int, Tuple[int, int]]:
        pos = game.position
        taken = game.taken[seat]
        teams = game.teams
        groups: Dict[int, Tuple[int, int]] = {}
        for x in pos.active_seats():
            if teams[x] != teams[seat]:
                key = teams[x]
                members = [m for m in range(game.v.players) if teams[m] == key]
                groups[key] = (sum(taken[m] for m in members),
                               max((m for m in members if pos.is_active(m)), key=lambda m: taken[m]))
        return groups

    def resignation_shares(self, v: MultiVariant) -> Tuple[int, ...]:
        return v.pairs_resign_shares


class Teams(Mode):
    """Two teams of four: the first to checkmate enough of the other team wins; no points awarded
    for eliminations or draws, no claims, no Zombie Kings."""

    name = "teams"
    has_teammates = True
    scores_by_team = True
    points_decide = False
    claims_allowed = False
    zombie_kings = False
    default_algorithm = "team"

    def sides(self, v: MultiVariant) -> List[int]:
        return list(v.team_of)

    def leaders(self, game: "Game", draw: bool) -> Tuple[int, ...]:
        return () if draw else Mode.leaders(self, game, draw)

    def end_of_game(self, game: "Game") -> Optional[End]:
        v = game.v
        pos = game.position
        for t in range(len(v.teams)):
            if game.team_stalemates[t] >= 2:
                return f"two players of team {v.team_names[t]} are stalemated", None, True
        for t, members in enumerate(v.teams):
            other = 1 - t
            playing = any(pos.is_active(m) for m in members)
            if game.team_mates[t] >= min(game.needed, len(members)) or not playing:
                if game.options.last_king_standing and playing:
                    continue
                return (f"team {v.team_names[other]} checkmated {game.team_mates[t]} of team {v.team_names[t]}",
                        tuple(v.teams[other]), False)
        return None


SINGLES, PAIRS, TEAMS = Singles(), Pairs(), Teams()
MODE_BY_NAME: Dict[str, Mode] = {mode.name: mode for mode in (SINGLES, PAIRS, TEAMS)}
MODES = tuple(MODE_BY_NAME)


def mode_of(game: Any) -> Mode:
    """The mode of ``game``: its ``mode_rules``, else the mode its ``mode`` names (Singles by default)."""
    rules = getattr(game, "mode_rules", None)
    return rules if rules is not None else MODE_BY_NAME[getattr(game, "mode", SINGLES.name)]
