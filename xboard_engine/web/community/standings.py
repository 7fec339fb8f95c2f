"""A tournament's scores and standings: what a finished game scores, the ratings read for a round,
and the table the pages show (points, tie-breaks, fire, results)."""
import asyncio
import time
from typing import TYPE_CHECKING, Any, Collection, Dict, List, Optional

from . import eight_pairing, pairing, rated, ratings

if TYPE_CHECKING:
    from ..store.thread import AsyncStore
    from .tournaments import Tournament


def two_score(game: Dict[str, Any]) -> Optional[float]:
    """White's score in a finished two-player tournament game (a forfeit for a player who made no
    first move); None while it is being played."""
    result = game["result"] or {}
    if game["status"] == "over":
        return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result.get("result"))
    if game["status"] == "aborted":
        absent = result.get("absent")
        return 0.0 if absent == 0 else 1.0 if absent == 1 else 0.5
    return None


def eight_scores(game: Dict[str, Any]) -> Optional[List[float]]:
    """Each seat's tournament points from a finished 8 Player game: its place's points (ties share);
    a seat that made no first move scores nothing."""
    result = game["result"] or {}
    if game["status"] == "over":
        ranks = ratings.standing_ranks(result.get("scores") or [0] * 8, result.get("winners") or [],
                                       bool(result.get("draw")))
        return eight_pairing.eight_round_points(ranks)
    if game["status"] == "aborted":               # a table aborted for a missing first move: nobody scores
        return [0.0] * len(game["seats"])
    return None


async def ratings_now(store: "AsyncStore", t: "Tournament") -> Dict[int, float]:
    """Each entrant's rating in the tournament's pool now (read together)."""
    now, key = time.time(), t.pool()
    people = list(t.entrants)
    stored = await asyncio.gather(*[store.rating(p, key) for p in people])
    return {p: rated.aged(p, key, r, now).rating for p, r in zip(people, stored)}


def standings(t: "Tournament", ratings_read: Dict[int, float], marked: Collection[int] = ()) -> List[Dict[str, Any]]:
    """Every entrant's line, best first: points (and the tie-break: arena the games played, Swiss
    Buchholz, 8 Player the wins), games, results in order, whether on fire (arena).  ``ratings_read``:
    ``ratings_now`` (an entrant who joined since has a new player's rating).  ``marked``: players a
    moderator marked engine or booster: listed last, with no place (no prize)."""
    now = time.time()
    rating = {p: ratings_read[p] if p in ratings_read else rated.aged(p, t.pool(), None, now).rating
              for p in t.entrants}
    ordered = sorted(t.games.items())
    lines: Dict[int, Dict[str, Any]] = {p: {"player": p, "name": e.name, "withdrawn": bool(e.withdrawn),
                                            "rating": int(round(rating[p])), "results": [], "points": 0.0,
                                            "tiebreak": 0.0, "games": 0, "fire": False}
                                        for p, e in t.entrants.items()}
    if t.kind == "eight":
        for _, g in ordered:
            scores = eight_scores(g)
            if scores is None:
                continue
            for seat, p in enumerate(g["seats"]):
                if p in lines:
                    lines[p]["results"].append(scores[seat])
                    lines[p]["points"] += scores[seat]
                    lines[p]["games"] += 1
                    lines[p]["tiebreak"] += 1 if scores[seat] == max(scores) else 0
        order = sorted(lines.values(), key=lambda x: (-x["points"], -x["tiebreak"], -x["rating"], x["player"]))
    elif t.kind == "swiss":
        history = []
        for round_number in range(1, t.round() + 1):
            for _, g in ordered:
                if g["round"] == round_number:
                    white, black = g["seats"]
                    history.append(pairing.Game(white, black, two_score(g)))
            history += [pairing.Game(p, None, None) for r, p in t.byes if r == round_number]
        table = pairing.swiss_standings(list(t.entrants), rating, history)
        for game in history:
            for side, p in ((0, game.white), (1, game.black)):
                if p in lines:
                    if game.black is None:
                        lines[p]["results"].append(1.0)
                    elif game.score is not None:
                        lines[p]["results"].append(game.score if side == 0 else 1.0 - game.score)
                        lines[p]["games"] += 1
        for p, points, buchholz in table:
            lines[p]["points"], lines[p]["tiebreak"] = points, buchholz
        order = [lines[p] for p, _, _ in table]
    else:
        for _, g in ordered:
            score = two_score(g)
            if score is None:
                continue
            white, black = g["seats"]
            lines[white]["results"].append(score)
            lines[black]["results"].append(1.0 - score)
        for line in lines.values():
            points, fire = pairing.arena_points(line["results"])
            line["points"], line["fire"], line["games"] = float(points), fire, len(line["results"])
        order = sorted(lines.values(), key=lambda x: (-x["points"], -x["games"], -x["rating"], x["player"]))
    order = [line for line in order if line["player"] not in marked] + [line for line in order if line["player"] in marked]
    for rank, line in enumerate(order, 1):
        line["marked"] = line["player"] in marked
        line["rank"] = None if line["marked"] else rank
    return order
