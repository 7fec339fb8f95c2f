"""The evaluation: what a position is worth to the side to move, in centipawns.

Two parts. The piece-square tables (material plus placement, for the middlegame and the endgame, built
here from the board's shape for any variant) are summed by the rules core as units move: each entry
packs three numbers into one integer, ``mg + eg * 2**20 + phase * 2**40`` (White's entries positive,
Black's negated except the phase), so the core keeps one running sum and pays nothing for tapering.
``evaluate`` unpacks it, blends middlegame and endgame by the material left (the phase), and adds the
terms that depend on several units at once: pawn structure (passed, doubled, isolated), the king's pawn
shield, rooks on open files, the bishop pair, units held by jailers (a held king is in danger), the
side to move, and against a bare king the drive to the edge (with one unit: taking the king's room;
with bishop and minor piece: to the bishop's corner, ``mop_up.py``). Lancers use the centre table.
A weight set may also carry a small net (``nets/SET.json``, ``evaluation_net.py``): its hidden sums
ride above the packed entries of the same tables, and its output is added to the score.

Every number is a named weight (centipawns).  ``WEIGHTS`` holds the hand-set values; each variant
names in its definition (``evaluation =``) the set of fitted weights it uses, kept in ``weights.json``
beside this module with the command, seed and number of positions that produced each set; a weight a
set does not fit keeps its hand-set value.  A set may also hold, per piece kind, a correction to every
square of its piece-square tables (``tables``: middlegame and endgame lists, squares counted from the
owner's first rank, file by file): ``scripts/fit_tables.py`` distils them, with the set's other
weights, from a strong engine's scores of quiet positions (``scripts/distill.py``), and
``scripts/tune.py`` fits weights to the results of the engine's own games.
"""
import json
import os
import re
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from ..core.board import BLACK, OFF
from ..core.pieces import DIAGONAL, JAILER, KING_LEAPS, LANCER, PAWN, PIECE_KINDS, SENTRY_JUMP, SENTRY_PUSH
from ..core.variant import install_evaluation, rebuild_tables
from .evaluation_net import NET_HALF, NET_SHIFT, Net, net_entries
from .mop_up import mop_up

if TYPE_CHECKING:
    from ..core.position import Position
    from ..core.variant import Variant

EG_SHIFT = 20
PHASE_SHIFT = 40
_EG_HALF = 1 << (EG_SHIFT - 1)
_PHASE_HALF = 1 << (PHASE_SHIFT - 1)

WEIGHTS: Dict[str, int] = {
    # material: the middlegame value is the variant's piece value plus ``<kind>_mg`` (the pawn's is the
    # unit of the scale), the endgame value the middlegame one plus ``<kind>_eg``
    "knight_mg": 0, "bishop_mg": 0, "rook_mg": 0, "queen_mg": 0, "sentry_mg": 0, "jailer_mg": 0,
    "lancer_mg": 0, "duke_mg": 0,
    "pawn_eg": 20, "knight_eg": -10, "bishop_eg": 10, "rook_eg": 30, "queen_eg": 30, "sentry_eg": 30,
    "jailer_eg": 10, "lancer_eg": 20, "duke_eg": 10,
    # placement, per step from the edge (centre) or towards the enemy (advance)
    "pawn_advance_mg": 6, "pawn_centre_mg": 4, "pawn_advance_eg": 10,
    "minor_centre_mg": 5, "minor_centre_eg": 4, "minor_back_mg": 12,
    "slider_centre_mg": 2, "slider_centre_eg": 3, "rook_seventh_mg": 20, "rook_seventh_eg": 10,
    "queen_centre_mg": 1, "queen_centre_eg": 5,
    "king_advance_mg": 12, "king_wing_mg": 8, "king_centre_eg": 8,
    "lancer_centre": 5,
    # terms of several units
    "passed_mg": 5, "passed_eg": 12, "doubled_mg": 10, "doubled_eg": 15, "isolated_mg": 10,
    "isolated_eg": 10, "shield_mg": 10, "open_file_mg": 15, "half_open_file_mg": 7,
    "bishop_pair_mg": 25, "bishop_pair_eg": 40, "held_unit": 20, "held_king_mg": 40, "held_king_eg": 20,
    "tempo": 10,
}

WEIGHTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights.json")


# Per set, per piece kind: (middlegame, endgame) corrections by square from the owner's side.
SquareTables = Dict[str, Tuple[List[int], List[int]]]


def _read_fitted(path: str = WEIGHTS_FILE) -> Tuple[Dict[str, Dict[str, int]], Dict[str, SquareTables]]:
    """The fitted weight sets and their square tables by name (``weights.json``: {"sets": {name:
    {"weights": {...}, "tables": {kind: {"mg": [...], "eg": [...]}}, "made by": {...}}}})."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        return {}, {}
    fitted, tables = {}, {}
    for name, entry in data["sets"].items():
        unknown = set(entry["weights"]) - set(WEIGHTS)
        if unknown:
            raise ValueError(f"{path}: set {name} has unknown weights {sorted(unknown)}")
        fitted[name] = {k: int(x) for k, x in entry["weights"].items()}
        tables[name] = {kind: ([int(x) for x in t["mg"]], [int(x) for x in t["eg"]])
                        for kind, t in entry.get("tables", {}).items()}
    return fitted, tables


FITTED, FITTED_TABLES = _read_fitted()

NETS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nets")
_NETS: Dict[str, Optional[Net]] = {}      # per set: its net (nets/NAME.json), read on first use


def net_for(name: str) -> Optional[Net]:
    """The net of weight set ``name``, or None when it has none."""
    if name not in _NETS:
        try:
            with open(os.path.join(NETS_DIR, name + ".json"), encoding="utf-8") as handle:
                _NETS[name] = Net(json.load(handle)["net"])
        except FileNotFoundError:
            _NETS[name] = None
    return _NETS[name]


def set_net(name: str, net: Optional[Net]) -> None:
    """Use ``net`` (None: no net) for set ``name`` from now on (the training script and tests); every
    variant in use gets its tables rebuilt."""
    _NETS[name] = net
    _rebuild()


def split_net(s: int) -> int:
    """A packed sum without the net's lanes: the packed middlegame, endgame and phase."""
    return s - (((s + NET_HALF) >> NET_SHIFT) << NET_SHIFT)


def write_fitted(path: str, data: dict) -> None:
    """Write a weights file (the fitting scripts): one line per list of numbers, so a table reads
    as a table and a change to a set shows in a diff."""
    text = json.dumps(data, indent=1, sort_keys=True)
    text = re.sub(r"\[\s+([-\d.,\s]+?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")


def weights_for(v: "Variant") -> Dict[str, int]:
    """The weights the evaluation uses in variant ``v``: its fitted set over the hand-set values."""
    w = dict(WEIGHTS)
    w.update(FITTED.get(v.evaluation, {}))
    return w


# Roles of units in the terms of several units.
OTHER, PAWN_ROLE, ROOK_ROLE, BISHOP_ROLE, JAILER_ROLE = range(5)


def pack(mg: int, eg: int, phase: int = 0) -> int:
    return mg + (eg << EG_SHIFT) + (phase << PHASE_SHIFT)


def _phase_weight(kind) -> int:
    """How much a unit counts towards the middlegame: by value (knight 1, rook 2, queen 3)."""
    if kind.behaviour == PAWN or kind.royal:
        return 0
    return max(1, (kind.value + 150) // 300)


def piece_square_tables(v: "Variant", w: Optional[Dict[str, int]] = None) -> List[List[int]]:
    """Per code, per square: the packed (middlegame, endgame, phase) entry, signed for the side."""
    if w is None:
        w = weights_for(v)
    corrections = FITTED_TABLES.get(v.evaluation, {})
    tables = [[0] * v.size for _ in range(OFF + 1)]
    files, ranks = v.files, v.ranks
    for code in range(1, OFF):
        kind = v.kind_of[code]
        if kind is None:
            continue
        side = 1 if code > BLACK else 0
        name = kind.name.replace("2019", "")
        value = v.value[code] + w.get(name + "_mg", 0)
        eg_value = value + w.get(name + "_eg", 0)
        phase = _phase_weight(kind)
        for sq in v.squares:
            f, r = v.file_of[sq], v.rank_of[sq]
            cf, cr = min(f, files - 1 - f), min(r, ranks - 1 - r)
            centre = cf + cr
            advance = r if side == 0 else ranks - 1 - r
            if kind.behaviour == PAWN:
                steps = max(0, advance - 1)
                mg = w["pawn_advance_mg"] * steps + (w["pawn_centre_mg"] if cf else 0) \
                    + w["pawn_centre_mg"] * cf * min(steps, 2) // 2
                eg = w["pawn_advance_eg"] * steps
            elif kind.royal:
                mg = -w["king_advance_mg"] * advance + w["king_wing_mg"] * (files // 2 - 1 - cf)
                eg = w["king_centre_eg"] * centre
            elif kind.behaviour == LANCER:
                # Centre, as a knight. (A bonus for how far the facing reaches lost 8-Piece games:
                # 15-25 against the plain centre table, see the issue 9 notes.)
                mg = eg = w["lancer_centre"] * centre
            elif kind.slides and not kind.leaps and len(kind.slides) == 8:      # queen
                mg, eg = w["queen_centre_mg"] * centre, w["queen_centre_eg"] * centre
            elif kind.slides and not kind.leaps and kind.slides[0] in DIAGONAL \
                    or kind.behaviour in (SENTRY_PUSH, SENTRY_JUMP):            # bishop, sentry
                mg = w["minor_centre_mg"] * centre // 2 - (w["minor_back_mg"] if advance == 0 else 0)
                eg = w["slider_centre_eg"] * centre
            elif kind.slides and not kind.leaps:                              # rook, jailer
                seventh = advance == ranks - 2
                mg = w["slider_centre_mg"] * cf + (w["rook_seventh_mg"] if seventh else 0)
                eg = w["rook_seventh_eg"] if seventh else 0
            else:                                                             # knight, duke
                mg = w["minor_centre_mg"] * centre - (w["minor_back_mg"] if advance == 0 else 0)
                eg = w["minor_centre_eg"] * centre
            mg += value
            eg += eg_value
            fitted = corrections.get(name)
            if fitted is not None:
                i = advance * files + f
                if i < len(fitted[0]):
                    mg += fitted[0][i]
                    eg += fitted[1][i]
            tables[code][sq] = pack(-mg, -eg, phase) if side else pack(mg, eg, phase)
    net = net_for(v.evaluation)
    if net is not None:
        for code, column in enumerate(net_entries(v, net)):
            row = tables[code]
            for sq in v.squares:
                row[sq] += column[sq]
    return tables


def roles(v: "Variant") -> List[int]:
    """Per code, its role in the terms of several units."""
    role = [OTHER] * (OFF + 1)
    for code in range(1, OFF):
        kind = v.kind_of[code]
        if kind is None:
            continue
        if kind.behaviour == PAWN:
            role[code] = PAWN_ROLE
        elif kind.behaviour == JAILER:
            role[code] = JAILER_ROLE
        elif kind is PIECE_KINDS["rook"]:
            role[code] = ROOK_ROLE
        elif kind is PIECE_KINDS["bishop"]:
            role[code] = BISHOP_ROLE
    return role


def max_phase(v: "Variant") -> int:
    """The phase of the start position: the middlegame's full weight."""
    fen = v.start_fen or v.start_fen_for(0)
    total = 0
    for ch in fen.split()[0]:
        code = v.code_of.get(ch)
        if code and v.kind_of[code] is not None:
            total += _phase_weight(v.kind_of[code])
    return max(1, total)


class _Tables:
    """Per-variant data ``evaluate`` needs besides the packed sum (built on first use)."""
    __slots__ = ("w", "max_phase", "role", "king_steps", "shield", "passed_mg", "passed_eg", "pawn_cache",
                 "net")

    def __init__(self, v: "Variant") -> None:
        self.w = w = weights_for(v)
        self.net = net_for(v.evaluation)
        self.max_phase = max_phase(v)
        self.role = roles(v)
        self.king_steps = [v.step(df, dr) for df, dr in KING_LEAPS]
        # The squares in front of a king (its file and the two beside it, one and two ranks ahead).
        self.shield = [[[x for x in (sq + v.step(df, dr * (1 if side == 0 else -1))
                                     for df in (-1, 0, 1) for dr in (1, 2)) if v.rank_of[x] >= 0]
                        if v.rank_of[sq] >= 0 else [] for sq in range(v.size)] for side in (0, 1)]
        # Passed pawn bonus by how far it has come: quadratic in the advance, 0 on its start rank.
        n = v.ranks
        self.passed_mg = [w["passed_mg"] * max(0, a - 1) ** 2 // 2 for a in range(n)]
        self.passed_eg = [w["passed_eg"] * max(0, a - 1) ** 2 // 2 for a in range(n)]
        # Pawn structure by the pawns' Zobrist key: (middlegame, endgame, pawns per file and side).
        self.pawn_cache: Dict[int, tuple] = {}


_TABLES: Dict[str, _Tables] = {}


def _tables(v: "Variant") -> _Tables:
    """The variant's tables, built on first use (``evaluate``, the hot path, inlines this)."""
    t = _TABLES.get(v.name)
    if t is None:
        t = _TABLES[v.name] = _Tables(v)
    return t


def set_weights(weights: Dict[str, int], name: Optional[str] = None,
                tables: Optional[SquareTables] = None) -> None:
    """Use ``weights`` (and square ``tables``, when given) from now on (the fitting scripts) as the
    fitted set ``name`` (the variants naming it), or with no name as the hand-set values; every variant
    in use gets its tables rebuilt."""
    if name is None:
        WEIGHTS.clear()
        WEIGHTS.update(weights)
    else:
        FITTED[name] = dict(weights)
        if tables is not None:
            FITTED_TABLES[name] = {kind: (list(mg), list(eg)) for kind, (mg, eg) in tables.items()}
    _rebuild()


def _rebuild() -> None:
    _TABLES.clear()
    rebuild_tables()


PAWN_CACHE_SIZE = 1 << 16           # entries kept per variant before the cache starts afresh


def pawn_structure(v: "Variant", t: "_Tables", pawns: Tuple[List[int], List[int]]) -> tuple:
    """(middlegame, endgame, pawns per file and side) of the pawns alone: passed, isolated and doubled
    pawns. Files are indexed from 1, so the edge files have empty neighbours."""
    w = t.w
    file_of, rank_of, ranks, files = v.file_of, v.rank_of, v.ranks, v.files
    mg = eg = 0
    # Per file: pawns per side, White's lowest pawn (it stops Black's) and Black's highest.
    count = ([0] * (files + 2), [0] * (files + 2))
    w_min_rank = [ranks] * (files + 2)
    b_max_rank = [-1] * (files + 2)
    for sq in pawns[0]:
        f = file_of[sq] + 1
        count[0][f] += 1
        if rank_of[sq] < w_min_rank[f]:
            w_min_rank[f] = rank_of[sq]
    for sq in pawns[1]:
        f = file_of[sq] + 1
        count[1][f] += 1
        if rank_of[sq] > b_max_rank[f]:
            b_max_rank[f] = rank_of[sq]
    passed_mg, passed_eg = t.passed_mg, t.passed_eg
    for sq in pawns[0]:
        f, r = file_of[sq] + 1, rank_of[sq]
        if b_max_rank[f - 1] <= r and b_max_rank[f] <= r and b_max_rank[f + 1] <= r:
            mg += passed_mg[r]
            eg += passed_eg[r]
        if not count[0][f - 1] and not count[0][f + 1]:
            mg -= w["isolated_mg"]
            eg -= w["isolated_eg"]
    for sq in pawns[1]:
        f, r = file_of[sq] + 1, rank_of[sq]
        if w_min_rank[f - 1] >= r and w_min_rank[f] >= r and w_min_rank[f + 1] >= r:
            a = ranks - 1 - r
            mg -= passed_mg[a]
            eg -= passed_eg[a]
        if not count[1][f - 1] and not count[1][f + 1]:
            mg += w["isolated_mg"]
            eg += w["isolated_eg"]
    for f in range(1, files + 1):
        if count[0][f] > 1:
            mg -= w["doubled_mg"] * (count[0][f] - 1)
            eg -= w["doubled_eg"] * (count[0][f] - 1)
        if count[1][f] > 1:
            mg += w["doubled_mg"] * (count[1][f] - 1)
            eg += w["doubled_eg"] * (count[1][f] - 1)
    return mg, eg, count


def evaluate(pos: "Position") -> int:
    """The position's value for the side to move, in centipawns."""
    v = pos.v
    t = _TABLES.get(v.name)
    if t is None:
        t = _TABLES[v.name] = _Tables(v)
    w = t.w
    s = pos.score
    net = t.net
    correction = 0
    if net is not None:
        s, correction = net.split(s)
    phase = (s + _PHASE_HALF) >> PHASE_SHIFT
    s -= phase << PHASE_SHIFT
    eg = (s + _EG_HALF) >> EG_SHIFT
    mg = s - (eg << EG_SHIFT)
    B = pos.board
    role = t.role
    file_of = v.file_of
    units = pos.units
    # One pass over the units: pawns (and their Zobrist key), rooks, bishops, jailers.
    pawns = ([], [])
    rooks = ([], [])
    jailers = ([], [])
    bishops = [0, 0]
    zp = pos.z.piece
    key = 0
    for side in (0, 1):
        for sq in units[side]:
            u = B[sq]
            r = role[u]
            if r:
                if r == PAWN_ROLE:
                    pawns[side].append(sq)
                    key ^= zp[u][sq]
                elif r == ROOK_ROLE:
                    rooks[side].append(sq)
                elif r == BISHOP_ROLE:
                    bishops[side] += 1
                else:
                    jailers[side].append(sq)
    cache = t.pawn_cache
    entry = cache.get(key)
    if entry is None:
        if len(cache) > PAWN_CACHE_SIZE:
            cache.clear()
        entry = cache[key] = pawn_structure(v, t, pawns)
    mg += entry[0]
    eg += entry[1]
    count = entry[2]
    # Rooks on open (no pawn) and half-open (no own pawn) files.
    for side, sign in ((0, 1), (1, -1)):
        for sq in rooks[side]:
            f = file_of[sq] + 1
            if not count[side][f]:
                mg += sign * (w["open_file_mg"] if not count[1 - side][f] else w["half_open_file_mg"])
        if bishops[side] >= 2:
            mg += sign * w["bishop_pair_mg"]
            eg += sign * w["bishop_pair_eg"]
    # The king's pawn shield (middlegame): own pawns on the three files in front of it.
    own_pawn = v.pawn_code
    for side, sign in ((0, 1), (1, -1)):
        pawn = own_pawn[side]
        shield = 0
        for x in t.shield[side][pos.kings[side]]:
            if B[x] == pawn:
                shield += 1
        mg += sign * w["shield_mg"] * shield
    # Units held by an enemy jailer (8-Piece R4): worth less, and a held king is in danger.
    if jailers[0] or jailers[1]:
        steps = t.king_steps
        for side, sign in ((0, 1), (1, -1)):
            enemy = 1 - side
            for sq in jailers[side]:
                for d in steps:
                    x = sq + d
                    u = B[x]
                    if u and u != OFF and u >> 6 == enemy:
                        if x == pos.kings[enemy]:
                            mg += sign * w["held_king_mg"]
                            eg += sign * w["held_king_eg"]
                        else:
                            mg += sign * w["held_unit"]
                            eg += sign * w["held_unit"]
    if phase > t.max_phase:
        phase = t.max_phase
    score = _blend(mg, eg, phase, t.max_phase)
    score += correction
    if len(units[0]) == 1 or len(units[1]) == 1:
        score += mop_up(pos)
    return (score if pos.stm == 0 else -score) + w["tempo"]


def material_and_placement(pos: "Position") -> int:
    """The tapered piece-square sum alone, White minus Black."""
    t = _tables(pos.v)
    s = split_net(pos.score)
    phase = (s + _PHASE_HALF) >> PHASE_SHIFT
    s -= phase << PHASE_SHIFT
    eg = (s + _EG_HALF) >> EG_SHIFT
    mg = s - (eg << EG_SHIFT)
    return _blend(mg, eg, min(phase, t.max_phase), t.max_phase)


def _blend(mg: int, eg: int, phase: int, full: int) -> int:
    """Middlegame and endgame mixed by the phase (rounded towards zero: no colour bias)."""
    mixed = mg * phase + eg * (full - phase)
    return mixed // full if mixed >= 0 else -(-mixed // full)


install_evaluation(piece_square_tables, material_and_placement)      # the core's sums are ours
