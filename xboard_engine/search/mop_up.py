"""The drive against a bare king: what the evaluation adds when one side has only its king left."""
from typing import TYPE_CHECKING, Dict, List

from ..core.attacks import attacked
from ..core.board import OFF
from ..core.pieces import KING_LEAPS, PIECE_KINDS

if TYPE_CHECKING:
    from ..core.position import Position
    from ..core.variant import Variant

MOP_UP_EDGE = 10                    # per step the bare king stands from the centre
MOP_UP_CLOSE = 4                    # per step the attacking king is nearer the bare king
MOP_UP_CORNER = 50                  # with bishop and minor piece: per step nearer the bishop's corner
MOP_UP_ROOM = 15                    # per square next to the bare king it cannot step to
BISHOP = PIECE_KINDS["bishop"]


def mop_up(pos: "Position") -> int:
    """White-minus-Black bonus for the side playing against a bare king (mates need the bare king
    on the edge and the other king close), 0 when both or neither side has only its king."""
    units = pos.units
    if len(units[0]) == 1:
        bare = 0
    elif len(units[1]) == 1:
        bare = 1
    else:
        return 0
    if len(units[1 - bare]) == 1:
        return 0
    v = pos.variant
    lone, hunter = pos.kings[bare], pos.kings[1 - bare]
    lf, lr = v.file_of[lone], v.rank_of[lone]
    edge = max(2 * lf - (v.files - 1), (v.files - 1) - 2 * lf) // 2 \
        + max(2 * lr - (v.ranks - 1), (v.ranks - 1) - 2 * lr) // 2
    apart = abs(lf - v.file_of[hunter]) + abs(lr - v.rank_of[hunter])
    bonus = MOP_UP_EDGE * edge + MOP_UP_CLOSE * (v.files + v.ranks - apart)
    B = pos.board
    hunters = 1 - bare
    if len(units[hunters]) == 2:
        # One unit and the king: the mate can be on any edge, so take the bare king's room away (the
        # squares next to it no hunter attacks, looked at with the king lifted off, so a slider's
        # check covers the squares behind it too).
        king = B[lone]
        B[lone] = 0
        steps = _king_steps(v)
        bonus += MOP_UP_ROOM * len(steps)
        for step in steps:
            x = lone + step
            u = B[x]
            if u != OFF and (not u or u >> 6 == hunters) and not attacked(pos, x, hunters):
                bonus -= MOP_UP_ROOM
        B[lone] = king
    elif len(units[hunters]) == 3:
        # Bishop and a minor piece mate only in a corner of the bishop's colour: drive the king there.
        for sq in units[hunters]:
            if v.kind_of[B[sq]] is BISHOP:
                colour = (v.file_of[sq] + v.rank_of[sq]) & 1
                corners = [(f, r) for f in (0, v.files - 1) for r in (0, v.ranks - 1) if (f + r) & 1 == colour]
                near = min(abs(lf - f) + abs(lr - r) for f, r in corners)
                bonus += MOP_UP_CORNER * (v.files + v.ranks - near)
                break
    return bonus if bare == 1 else -bonus


_STEPS: Dict[str, List[int]] = {}


def _king_steps(v: "Variant") -> List[int]:
    steps = _STEPS.get(v.name)
    if steps is None:
        steps = _STEPS[v.name] = [v.step(df, dr) for df, dr in KING_LEAPS]
    return steps
