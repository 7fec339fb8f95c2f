"""Piece behaviours: the few questions the core asks about a unit, answered once per kind.

Each behaviour answers, for a unit ``p`` (a piece code) on square ``sq`` of position ``pos``:

* ``moves``: its pseudo-legal moves (legality is the generator's business);
* ``captures``: the subset that captures or promotes (quiescence search);
* ``pushed_moves``: where it may go when an enemy sentry pushes it (R8), as ``(to, placed)``;
* ``pushed_reaches``: whether, pushed, it could capture on a square (R8.6);
* ``attack_leaps`` / ``attack_slides`` / ``attack_facing``: how it attacks, for the variant's reverse
  attack tables (which also find the pins it makes);
* ``threatens``: attacks no table can describe (the sentries), asked per unit.

Variants are data (``variants/*.ini``); ``BEHAVIOURS`` maps each behaviour of ``pieces.py`` to the
object that implements it, and every piece code of a variant points at one of them, so move
generation is one loop with no branches on piece kinds.
"""
from typing import Dict

from ..pieces import JAILER, LANCER, LEAPER_SLIDER, PAWN, SENTRY_JUMP, SENTRY_PUSH
from .base import Behaviour
from .jailer import Jailer
from .lancer import Lancer
from .leaper import LeaperSlider
from .pawn import Pawn
from .sentry_jump import JumpSentry
from .sentry_push import PushSentry

BEHAVIOURS: Dict[int, Behaviour] = {
    LEAPER_SLIDER: LeaperSlider(),
    PAWN: Pawn(),
    LANCER: Lancer(),
    JAILER: Jailer(),
    SENTRY_PUSH: PushSentry(),
    SENTRY_JUMP: JumpSentry(),
}

__all__ = ["Behaviour", "BEHAVIOURS"]
