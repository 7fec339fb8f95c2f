"""Variants as data: the INI definitions in ``variants/`` turned into the tables the core runs on.

The board geometry is ``board.Board``.  Piece codes: ``0`` is empty, ``OFF`` (128) is outside the
board, white units are ``1..63`` and black units the same plus ``BLACK`` (64).  Each lancer facing is a
code of its own, so a facing change is simply a different code placed on the destination square.
Every code points at its behaviour (``behaviours``), which answers the core's questions about it.
"""
import configparser
import os
import random
import weakref
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .behaviours import BEHAVIOURS, Behaviour
from .board import BLACK, EMPTY, OFF, Board
from .errors import InvalidFenError, UnknownVariantError
from .pieces import (FACING_LETTERS, JAILER, LANCER, PAWN, PIECE_KINDS, SENTRY_JUMP, SENTRY_PUSH, PieceKind,
                     lancer_betza)

__all__ = ["Variant", "get_variant", "variant_names", "EMPTY", "BLACK", "OFF"]

if TYPE_CHECKING:
    from .position import Position

# What ``Position.score`` sums is the evaluation's business (the search layer): it installs its table
# maker here when it is imported (``install_evaluation``), and the core only keeps the sums.  Until
# then a variant's tables are zeros.
TableMaker = Callable[["Variant"], List[List[int]]]
_table_maker: Optional[TableMaker] = None
_placement: Optional[Callable[["Position"], int]] = None
_MADE: "weakref.WeakSet[Variant]" = weakref.WeakSet()


def install_evaluation(tables: TableMaker, placement: Callable[["Position"], int]) -> None:
    """Make every variant's running-sum tables with ``tables`` (those made before too, in place) and
    let ``Position.material_and_placement`` read the sum with ``placement``."""
    global _table_maker, _placement
    _table_maker, _placement = tables, placement
    rebuild_tables()


def rebuild_tables() -> None:
    """Make every live variant's tables again (the evaluation's weights changed)."""
    if _table_maker is not None:
        for v in list(_MADE):
            v.signed_piece_square[:] = _table_maker(v)


def placement_of(pos: "Position") -> int:
    """The installed evaluation's reading of ``pos.score`` (0 without one)."""
    return _placement(pos) if _placement is not None else 0


def _variants_dir() -> str:
    """Where the variant definitions live: ``variants/`` of a checkout, else the installed copy."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))    # xboard_engine/
    for candidate in (os.path.join(os.path.dirname(here), "variants"), os.path.join(here, "variants")):
        if os.path.isdir(candidate) and any(f.endswith(".ini") for f in os.listdir(candidate)):
            return candidate
    import importlib.util
    spec = importlib.util.find_spec("xboard_engine.variants")
    if spec and spec.submodule_search_locations:
        return list(spec.submodule_search_locations)[0]
    raise RuntimeError("variant definitions not found")


def _read_definitions() -> Dict[str, Dict[str, str]]:
    parser = configparser.ConfigParser(inline_comment_prefixes=(";",))
    directory = _variants_dir()
    for name in sorted(os.listdir(directory)):
        if name.endswith(".ini"):
            parser.read(os.path.join(directory, name), encoding="utf-8")
    # Games of more than two players (``players = 8``) are read by ``multi.rules``, not here.
    raw = {section: dict(parser[section]) for section in parser.sections() if "players" not in parser[section]}

    def resolve(name: str, seen: Tuple[str, ...] = ()) -> Dict[str, str]:
        if name in seen:
            raise RuntimeError("variant inheritance loop: " + " -> ".join(seen + (name,)))
        own = raw[name]
        merged = dict(resolve(own["parent"], seen + (name,))) if "parent" in own else {}
        merged.update(own)
        merged.pop("parent", None)
        return merged

    return {name: resolve(name) for name in raw}


class Variant(Board):
    """One variant's rules and the precomputed tables of its board and pieces."""

    def __init__(self, name: str, spec: Dict[str, str]) -> None:
        Board.__init__(self, int(spec["files"]), int(spec["ranks"]))
        self.name = name
        self.setup = spec.get("setup", "fixed")
        self.evaluation = spec.get("evaluation", name)     # its set of fitted weights (evaluation.py)
        self.chess960_style = self.setup != "fixed"
        self.castling = spec.get("castling", "standard")
        self.flexible_castling = self.castling == "flexible"
        # Castling geometry per (king square, partner square, side), filled in by the generator.
        self.castle_geometry: Dict[int, tuple] = {}
        self.castling_partner_jumps = spec.get("castling_partner_jumps", "false") == "true"
        self.double_step_ranks = tuple(int(r) - 1 for r in spec["pawn_double_step_ranks"].split())
        self.fifty_move_new_square = spec.get("fifty_move_reset") == "new_pawn_square"
        self.orthodox_insufficient = spec.get("insufficient_material") == "orthodox"
        self.start_fen = spec.get("start", "")
        # The numbered setup a randomized variant calls its standard array (None: the first).
        self.standard_setup = int(spec["standard_setup"]) if "standard_setup" in spec else None
        # How XBoard hosts the variant (`setup` and `piece` commands); empty for XBoard's own variants.
        self.xboard_pieces = spec.get("xboard_pieces", "")
        self.xboard_parent = spec.get("xboard_parent", "")
        # Whether XBoard can check the variant's moves itself (its own variants, or with the `piece`
        # commands); else legality testing must be off, and XBoard draws some moves wrong.
        self.xboard_checks_legality = not self.xboard_pieces or spec.get("xboard_legality") == "on"
        kinds = [PIECE_KINDS[n] for n in spec["pieces"].split()]
        self.kinds = kinds
        self.xboard_piece_lines = _piece_lines(kinds) + \
            [line.strip() for line in spec.get("xboard_piece_lines", "").split("|") if line.strip()] \
            if self.xboard_pieces else []
        # Centipawn values where the variant's text differs from the piece kind's default.
        words = spec.get("piece_values", "").split()
        self.piece_values = {name: int(value) for name, value in zip(words[::2], words[1::2])}
        unknown = set(self.piece_values) - {k.name for k in kinds}
        if len(words) % 2 or unknown:
            raise ValueError(f"variant {name}: piece_values must pair the variant's piece names with "
                             f"centipawns, got {spec.get('piece_values')!r}")
        self._build_codes(kinds, spec["promotion"].split(), spec.get("castling_partners", "").split())
        self._build_attack_tables()
        self._build_evaluation()

    # ----------------------------------------------------------------- pieces
    def _build_codes(self, kinds: Sequence[PieceKind], promotion: Sequence[str],
                     partners: Sequence[str]) -> None:
        n = OFF + 1
        self.letter = [""] * n           # FEN letter per code
        self.kind_of: List[Optional[PieceKind]] = [None] * n
        self.behaviour = [-1] * n
        self.behaviour_of: List[Behaviour] = [Behaviour()] * n
        self.leaps: List[Tuple[int, ...]] = [()] * n
        self.slides: List[Tuple[int, ...]] = [()] * n
        self.facing = [-1] * n           # lancer facing index, -1 for other units
        self.facing_step = [0] * n       # lancer facing as a board step, 0 for other units
        self.value = [0] * n
        self.is_pawn = [False] * n
        self.is_king = [False] * n
        self.is_jailer = [False] * n
        self.is_partner = [False] * n
        self.code_of: Dict[str, int] = {}   # FEN letter -> code
        self.lancer_codes: List[List[int]] = [[], []]   # [side][facing] -> code
        self.king_code = [0, 0]
        self.pawn_code = [0, 0]
        self.has_lancers = self.has_jailers = self.has_push = self.has_jump = False
        next_code = 1
        for kind in kinds:
            variants = [(FACING_LETTERS[i], i) for i in range(8)] if kind.behaviour == LANCER \
                else [(kind.letter, -1)]
            for letter, facing in variants:
                for side in (0, 1):
                    code = next_code + BLACK * side
                    self.letter[code] = letter if side == 0 else letter.lower()
                    self.code_of[self.letter[code]] = code
                    self.kind_of[code] = kind
                    self.behaviour[code] = kind.behaviour
                    self.behaviour_of[code] = BEHAVIOURS[kind.behaviour]
                    sign = 1 if side == 0 else -1
                    self.leaps[code] = tuple(self.step(df, dr * sign) for df, dr in kind.leaps)
                    self.slides[code] = tuple(self.step(df, dr) for df, dr in kind.slides)
                    self.facing[code] = facing
                    self.facing_step[code] = self.facing_steps[facing] if facing >= 0 else 0
                    self.value[code] = self.piece_values.get(kind.name, kind.value)
                    self.is_pawn[code] = kind.behaviour == PAWN
                    self.is_king[code] = kind.royal
                    self.is_jailer[code] = kind.behaviour == JAILER
                    self.is_partner[code] = kind.name in partners
                    if kind.behaviour == LANCER:
                        self.lancer_codes[side].append(code)
                    if kind.royal:
                        self.king_code[side] = code
                    if kind.behaviour == PAWN:
                        self.pawn_code[side] = code
                next_code += 1
        if next_code >= BLACK:
            raise RuntimeError("too many piece kinds")
        present = {k.behaviour for k in kinds}
        self.has_lancers = LANCER in present
        self.has_jailers = JAILER in present
        self.has_push = SENTRY_PUSH in present
        self.has_jump = SENTRY_JUMP in present
        # Variants whose legality can be decided from rays through the king (no holds, no pushes).
        self.ray_legality = not (self.has_jailers or self.has_push or self.has_jump)
        self.promotion_codes: List[List[int]] = [[], []]
        for side in (0, 1):
            for name in promotion:
                kind = PIECE_KINDS[name]
                if kind.behaviour == LANCER:
                    self.promotion_codes[side].extend(self.lancer_codes[side])
                else:
                    self.promotion_codes[side].append(self.code_of[kind.letter if side == 0
                                                                   else kind.letter.lower()])
        self.promotion_letters = "".join(sorted({PIECE_KINDS[n].letter for n in promotion}))
        # (code, facing step or 0) per promotion piece: a lancer may not face off the board (R3.2).
        self.promotion_moves = [[(c, self.facing_step[c]) for c in self.promotion_codes[side]]
                                for side in (0, 1)]
        self.lancer_facings = [[(c, self.facing_step[c]) for c in self.lancer_codes[side]] for side in (0, 1)]
        # Per-side tables (the only places that know which way a side's pawns go).
        self.pawn_forward = [self.stride, -self.stride]
        self.pawn_captures = [(self.stride - 1, self.stride + 1), (-self.stride - 1, -self.stride + 1)]
        self.promotion_rank = [self.ranks - 1, 0]
        self.back_rank = [0, self.ranks - 1]
        self.double_step_from = [[False] * self.size for _ in (0, 1)]
        for sq in self.squares:
            for side in (0, 1):
                own_rank = self.rank_of[sq] if side == 0 else self.ranks - 1 - self.rank_of[sq]
                self.double_step_from[side][sq] = own_rank in self.double_step_ranks
        # A push can move a pawn back onto its own first rank (R8.3).
        self.pawn_back_rank_allowed = self.has_push
        self.jailer_codes = [[c for c in range(1, OFF) if self.is_jailer[c] and c < BLACK],
                             [c for c in range(1, OFF) if self.is_jailer[c] and c > BLACK]]

    def _build_attack_tables(self) -> None:
        """Reverse tables for 'is square X attacked by side C': look outward from X.  Each behaviour
        says how it attacks (leaps, slides, a lancer's facing, or special: asked per unit)."""
        self.leap_attack: List[List[Tuple[int, FrozenSet[int]]]] = []
        self.ray_attack: List[List[Tuple[int, FrozenSet[int], int]]] = []
        self.special_attackers: List[FrozenSet[int]] = []
        for side in (0, 1):
            codes = [c for c in range(1, OFF) if self.kind_of[c] is not None and (c > BLACK) == (side == 1)]
            by_offset: Dict[int, set] = {}
            for c in codes:
                for o in self.behaviour_of[c].attack_leaps(self, c, side):
                    by_offset.setdefault(-o, set()).add(c)
            self.leap_attack.append([(o, frozenset(cs)) for o, cs in sorted(by_offset.items())])
            rays = []
            for d in self.facing_steps:
                sliders = frozenset(c for c in codes if -d in self.behaviour_of[c].attack_slides(self, c))
                lancer = 0
                for c in codes:
                    if self.behaviour_of[c].attack_facing(self, c) == -d:
                        lancer = c
                rays.append((d, sliders, lancer))
            self.ray_attack.append(rays)
            self.special_attackers.append(frozenset(c for c in codes if self.behaviour_of[c].special_attacker))
        self.has_special_attackers = any(self.special_attackers)
        # leap_attackers[by][x]: the board squares a leaping attacker of ``by`` could capture on x
        # from, with the codes that could (the reverse leap table cut to the board, per square).
        self.leap_attackers: List[List[Tuple[Tuple[int, FrozenSet[int]], ...]]] = [
            [tuple((x + o, codes) for o, codes in self.leap_attack[by] if self.rank_of[x + o] >= 0)
             if self.rank_of[x] >= 0 else () for x in range(self.size)] for by in (0, 1)]
        # ray_attackers[by][x]: the entries of ray_attack whose first step from x stays on the board
        # and that some unit of ``by`` attacks along.
        self.ray_attackers: List[List[Tuple[Tuple[int, FrozenSet[int], int], ...]]] = [
            [tuple(r for r in self.ray_attack[by] if self.rank_of[x + r[0]] >= 0 and (r[1] or r[2]))
             if self.rank_of[x] >= 0 else () for x in range(self.size)] for by in (0, 1)]
        # Per code, the behaviour's generators, bound once (the generation loop calls these).
        self.move_gen = [b.moves for b in self.behaviour_of]
        self.capture_gen = [b.captures for b in self.behaviour_of]
        self.move_table = [b.move_table(self, c) if self.kind_of[c] is not None else None
                           for c, b in enumerate(self.behaviour_of)]

    def _build_evaluation(self) -> None:
        """signed_piece_square[code][sq]: what ``Position.score`` sums (see ``evaluation``)."""
        _MADE.add(self)
        self.signed_piece_square = _table_maker(self) if _table_maker is not None \
            else [[0] * self.size for _ in range(OFF + 1)]

    # ----------------------------------------------------------------- setups
    def start_fen_for(self, number: Optional[int] = None, rng: Optional[random.Random] = None) -> str:
        """The start position; for randomized setups the numbered one (or a random one)."""
        if self.setup == "fixed":
            if number is not None:
                raise InvalidFenError(f"variant {self.name} has no numbered setups")
            return self.start_fen
        count = self.setup_count
        if number is None:
            number = (rng or random.Random()).randrange(count)
        if not isinstance(number, int) or not 0 <= number < count:
            raise InvalidFenError(f"setup number {number!r} out of range 0..{count - 1}")
        if self.setup == "chess960":
            row = chess960_back_rank(number)
            lancer_white = lancer_black = ""
        else:
            row = eightpiece_back_rank(number)
            lancer_white, lancer_black = FACING_LETTERS[0], FACING_LETTERS[4]
        white = row.replace("L", lancer_white) if lancer_white else row
        black = (row.replace("L", lancer_black) if lancer_black else row).lower()
        return f"{black}/{'p' * 8}/8/8/8/8/{'P' * 8}/{white} w KQkq - 0 1"

    @property
    def standard_fen(self) -> str:
        """The standard array: the start of a fixed setup, a randomized variant's ``standard_setup``."""
        if self.setup == "fixed":
            return self.start_fen
        return self.start_fen_for(self.standard_setup or 0)

    @property
    def setup_count(self) -> int:
        return SETUP_COUNTS[self.setup]


SETUP_COUNTS = {"fixed": 1, "chess960": 960, "8piece-random": 3840}   # setups of each kind of setup


def _piece_lines(kinds: Sequence[PieceKind]) -> List[str]:
    """XBoard `piece` lines teaching it the moves of the variant's fairy pieces (engine-intf.html:
    used for highlighting, SAN and, with legality testing on, validation)."""
    lines = []
    for kind in kinds:
        if kind.behaviour == LANCER:
            for facing, letter in enumerate(FACING_LETTERS):
                lines.append(f"piece {letter} {lancer_betza(facing, True)}")
                lines.append(f"piece {letter.lower()} {lancer_betza(facing, False)}")
        elif kind.betza:
            lines.append(f"piece {kind.letter}& {kind.betza}")
    return lines


def chess960_back_rank(number: int) -> str:
    """Scharnagl numbering: 518 is the orthodox array RNBQKBNR."""
    rank = [""] * 8
    n, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    _put_on_free(rank, queen, "Q")
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if not rank[i]]
    for k in knights:
        rank[free[k]] = "N"
    for letter, i in zip("RKR", [i for i in range(8) if not rank[i]]):
        rank[i] = letter
    return "".join(rank)


def eightpiece_back_rank(number: int) -> str:
    """R10.1 setups, numbered 0..3839 (docs/RULES.md explains the order).

    number = sentry + 4 * (bishop + 4 * (queen + 6 * (knight + 5 * (lancer + 4 * order)))) where
    sentry picks file c..f, bishop the 1st..4th square of the other colour (a..h order), queen,
    knight and lancer the n-th still-free square, and order 0 puts the rook left of the king and the
    jailer right of it (1 the reverse); the king always stands between them.
    """
    rank = [""] * 8
    n, sentry = divmod(number, 4)
    sentry_file = 2 + sentry
    rank[sentry_file] = "S"
    n, bishop = divmod(n, 4)
    rank[[f for f in range(8) if f % 2 != sentry_file % 2][bishop]] = "B"
    n, queen = divmod(n, 6)
    _put_on_free(rank, queen, "Q")
    n, knight = divmod(n, 5)
    _put_on_free(rank, knight, "N")
    order, lancer = divmod(n, 4)
    _put_on_free(rank, lancer, "L")
    for letter, i in zip("RKJ" if order == 0 else "JKR", [i for i in range(8) if not rank[i]]):
        rank[i] = letter
    return "".join(rank)


def _put_on_free(rank: List[str], index: int, letter: str) -> None:
    rank[[i for i in range(len(rank)) if not rank[i]][index]] = letter


_DEFINITIONS: Optional[Dict[str, Dict[str, str]]] = None
_CACHE: Dict[str, Variant] = {}


def variant_names() -> List[str]:
    """The engine names of every variant, in the order of docs/RULES.md R1."""
    global _DEFINITIONS
    if _DEFINITIONS is None:
        _DEFINITIONS = _read_definitions()
    order = ["normal", "fischerandom", "chess80", "fullcavalry", "8piece", "8piece-random", "8piece-2019"]
    return [n for n in order if n in _DEFINITIONS] + sorted(set(_DEFINITIONS) - set(order))


# Other names GUIs, PGN files and other engines give a variant (python-chess says "chess", PGN
# "Standard" and "Chess960"), read in any case wherever a variant is named.
VARIANT_ALIASES = {"chess": "normal", "standard": "normal", "chess960": "fischerandom"}


def variant_name(text: str) -> str:
    """The engine name of the variant ``text`` names: an engine name or an alias, in any case
    (raises UnknownVariantError)."""
    name = text.strip().lower()
    name = VARIANT_ALIASES.get(name, name)
    if name not in variant_names():
        raise UnknownVariantError(f"unknown variant {text!r}; known: {', '.join(variant_names())}")
    return name


def setup_count(name: str) -> int:
    """How many setups the variant called ``name`` has, read from its definition without building
    it (its tables take a while: the engine asks this at start)."""
    if name not in variant_names():
        raise UnknownVariantError(f"unknown variant {name!r}; known: {', '.join(variant_names())}")
    assert _DEFINITIONS is not None
    return SETUP_COUNTS[_DEFINITIONS[name].get("setup", "fixed")]


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (raises UnknownVariantError)."""
    if name not in _CACHE:
        if name not in variant_names():
            raise UnknownVariantError(f"unknown variant {name!r}; known: {', '.join(variant_names())}")
        assert _DEFINITIONS is not None
        _CACHE[name] = Variant(name, _DEFINITIONS[name])
    return _CACHE[name]
