"""Piece pictures for the pieces XBoard has no image of: the jailer, the sentry, the Duke and the
lancer in each of its eight facings, drawn as SVG in the style of XBoard's default set (a 100 x 100
canvas, cream ``#ffffcc`` bodies with black lines for White, black bodies with cream details for
Black).  The drawings are code, so one source serves XBoard (``write_xboard_images``) and the
browser board (``xboard-engine web``), which also takes its orthodox pieces from here.

XBoard picks a piece's picture by the slot its letter takes in the ``setup`` piece-to-char string
(``Variant.xboard_pieces``): slot ``i`` shows ``White<name>.svg`` / ``Black<name>.svg`` from the
``-pieceImageDirectory``, with ``name = XBOARD_SLOT_IMAGES[i]``; slots without a file there fall back
to XBoard's own set.  Every variant's fairy pieces sit in different slots, so one directory serves all.
"""
import math
import os
from typing import Dict, List, Optional, Sequence, Tuple

from .core.pieces import FACING_NAMES, LANCER
from .core.variant import get_variant, variant_names

# XBoard 4.9.1's image name of each piece slot (draw.c, pngPieceNames), white half; the last slot
# of a piece-to-char half is always the king.
XBOARD_SLOT_IMAGES: Tuple[str, ...] = (
    "Pawn", "Knight", "Bishop", "Rook", "Queen", "Advisor", "Elephant", "Archbishop", "Marshall",
    "Gold", "Commoner", "Canon", "Nightrider", "CrownedBishop", "CrownedRook", "Crown", "Chancellor",
    "Hawk", "Lance", "Cobra", "Unicorn", "Lion", "Sword", "Zebra", "Camel", "Tower", "Wolf", "Hat",
    "Duck", "Lance", "Dragon", "Gnu", "Cub", "LShield", "Pegasus", "Wizard", "Copper", "Iron", "Viking",
    "Flag", "Axe", "Dolphin", "Leopard", "Claw", "Left", "Butterfly", "PromoBishop", "PromoRook",
    "HCrown", "RShield", "Prince", "Phoenix", "Kylin", "Drunk", "Right", "GoldPawn", "GoldKnight",
    "PromoHorse", "PromoDragon", "GoldLance", "GoldSilver", "HSword", "PromoSword", "PromoHSword",
    "Princess", "King")

CREAM = "#ffffcc"
INK = "#000000"
ORTHODOX_LETTERS = "PNBRQK"


def _colours(white: bool) -> Tuple[str, str]:
    """(body fill, line colour of the details drawn on the body)."""
    return (CREAM, INK) if white else (INK, CREAM)


def _svg(body: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100" height="100" '
            'viewBox="0 0 100 100">\n' + body + '</svg>\n')


def _pedestal(fill: str) -> str:
    return (f'  <rect x="22" y="80" width="56" height="9" rx="2" fill="{fill}" stroke="{INK}" '
            'stroke-width="2.5"/>\n')


def jailer(white: bool) -> str:
    """A padlock: the jailer holds the enemy units beside it."""
    fill, detail = _colours(white)
    return _svg(
        # the shackle: a thick dark arc with a lighter core, so it reads on either square colour
        f'  <path d="M 35 50 V 33 A 15 15 0 0 1 65 33 V 50" fill="none" stroke="{INK}" '
        'stroke-width="10" stroke-linecap="round"/>\n'
        f'  <path d="M 35 50 V 33 A 15 15 0 0 1 65 33 V 50" fill="none" stroke="{fill}" '
        'stroke-width="4.5" stroke-linecap="round"/>\n'
        f'  <rect x="24" y="46" width="52" height="36" rx="5" fill="{fill}" stroke="{INK}" '
        'stroke-width="2.5"/>\n'
        f'  <rect x="29" y="51" width="42" height="26" rx="3" fill="none" stroke="{detail}" '
        'stroke-width="1.5"/>\n'
        f'  <circle cx="50" cy="60" r="5" fill="{detail}"/>\n'
        f'  <path d="M 47 62 L 53 62 L 55.5 72 L 44.5 72 Z" fill="{detail}"/>\n'
        + _pedestal(fill))


def sentry(white: bool) -> str:
    """A shield with a watching eye: the sentry guards and pushes."""
    fill, detail = _colours(white)
    return _svg(
        f'  <path d="M 50 10 L 79 19 V 44 C 79 64 66 77 50 88 C 34 77 21 64 21 44 V 19 Z" '
        f'fill="{fill}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>\n'
        f'  <path d="M 50 16 L 73 23 V 44 C 73 60 63 71 50 81 C 37 71 27 60 27 44 V 23 Z" '
        f'fill="none" stroke="{detail}" stroke-width="1.5" stroke-linejoin="round"/>\n'
        f'  <path d="M 30 46 Q 50 28 70 46 Q 50 64 30 46 Z" fill="none" stroke="{detail}" '
        'stroke-width="3" stroke-linejoin="round"/>\n'
        f'  <circle cx="50" cy="46" r="7" fill="{detail}"/>\n')


def duke(white: bool) -> str:
    """A ducal cap (a round crown over an ermine band) on a pedestal: round where the king has a
    cross and the queen has points."""
    fill, detail = _colours(white)
    spots = "".join(f'  <path d="M {x} 67 l 2.5 6 l -5 0 Z" fill="{detail}"/>\n' for x in (31, 43, 57, 69))
    return _svg(
        f'  <circle cx="50" cy="23" r="6" fill="{fill}" stroke="{INK}" stroke-width="2.5"/>\n'
        f'  <path d="M 24 64 C 22 26 78 26 76 64 Z" fill="{fill}" stroke="{INK}" stroke-width="2.5" '
        'stroke-linejoin="round"/>\n'
        f'  <path d="M 50 31 V 62 M 36 36 C 33 46 33 54 34 62 M 64 36 C 67 46 67 54 66 62" '
        f'fill="none" stroke="{detail}" stroke-width="2"/>\n'
        f'  <rect x="20" y="62" width="60" height="16" rx="4" fill="{fill}" stroke="{INK}" '
        'stroke-width="2.5"/>\n'
        + spots + _pedestal(fill))


def pawn(white: bool) -> str:
    fill, _ = _colours(white)
    return _svg(
        f'  <circle cx="50" cy="31" r="12" fill="{fill}" stroke="{INK}" stroke-width="2.5"/>\n'
        f'  <path d="M 41 43 H 59 L 57 49 C 66 58 70 68 71 80 H 29 C 30 68 34 58 43 49 Z" fill="{fill}" '
        f'stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>\n' + _pedestal(fill))


def rook(white: bool) -> str:
    fill, detail = _colours(white)
    return _svg(
        f'  <path d="M 26 16 H 36 V 24 H 45 V 16 H 55 V 24 H 64 V 16 H 74 V 34 L 67 40 V 70 L 74 80 H 26 '
        f'L 33 70 V 40 L 26 34 Z" fill="{fill}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>\n'
        f'  <path d="M 33 40 H 67 M 33 70 H 67" stroke="{detail}" stroke-width="2"/>\n' + _pedestal(fill))


def bishop(white: bool) -> str:
    fill, detail = _colours(white)
    return _svg(
        f'  <circle cx="50" cy="14" r="5" fill="{fill}" stroke="{INK}" stroke-width="2.5"/>\n'
        f'  <path d="M 50 19 C 30 34 29 52 38 64 H 62 C 71 52 70 34 50 19 Z" fill="{fill}" stroke="{INK}" '
        'stroke-width="2.5" stroke-linejoin="round"/>\n'
        f'  <path d="M 56 32 L 47 45 M 44 52 H 56" stroke="{detail}" stroke-width="3" stroke-linecap="round"/>\n'
        f'  <path d="M 36 64 H 64 L 68 80 H 32 Z" fill="{fill}" stroke="{INK}" stroke-width="2.5" '
        'stroke-linejoin="round"/>\n' + _pedestal(fill))


def knight(white: bool) -> str:
    fill, detail = _colours(white)
    return _svg(
        f'  <path d="M 34 80 C 34 64 44 58 48 50 C 40 54 32 56 26 60 C 20 56 20 50 23 45 C 30 34 38 26 '
        '44 20 L 44 12 L 52 19 C 68 20 78 36 76 56 C 75 66 72 74 72 80 Z" '
        f'fill="{fill}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>\n'
        f'  <circle cx="47" cy="32" r="3.5" fill="{detail}"/>\n'
        f'  <path d="M 56 24 C 66 30 70 44 68 60" fill="none" stroke="{detail}" stroke-width="2"/>\n'
        + _pedestal(fill))


def queen(white: bool) -> str:
    fill, detail = _colours(white)
    balls = "".join(f'  <circle cx="{x}" cy="{y}" r="5" fill="{fill}" stroke="{INK}" stroke-width="2.5"/>\n'
                    for x, y in ((16, 28), (33, 18), (50, 14), (67, 18), (84, 28)))
    return _svg(
        f'  <path d="M 26 72 L 16 32 L 36 52 L 33 22 L 50 48 L 67 22 L 64 52 L 84 32 L 74 72 Z" '
        f'fill="{fill}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>\n' + balls
        + f'  <path d="M 26 72 H 74 L 72 80 H 28 Z" fill="{fill}" stroke="{INK}" stroke-width="2.5"/>\n'
        f'  <path d="M 29 66 H 71" stroke="{detail}" stroke-width="2"/>\n' + _pedestal(fill))


def king(white: bool) -> str:
    fill, detail = _colours(white)
    return _svg(
        f'  <path d="M 50 6 V 24 M 42 13 H 58" stroke="{INK}" stroke-width="4" stroke-linecap="round"/>\n'
        f'  <path d="M 28 72 C 14 60 14 38 30 36 C 40 35 46 42 50 50 C 54 42 60 35 70 36 C 86 38 86 60 72 72 Z" '
        f'fill="{fill}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>\n'
        f'  <path d="M 50 50 C 46 38 46 30 50 26 C 54 30 54 38 50 50 Z" fill="{fill}" stroke="{INK}" '
        'stroke-width="2.5"/>\n'
        f'  <path d="M 28 72 H 72 L 70 80 H 30 Z" fill="{fill}" stroke="{INK}" stroke-width="2.5"/>\n'
        f'  <path d="M 30 66 H 70" stroke="{detail}" stroke-width="2"/>\n' + _pedestal(fill))


ORTHODOX_DRAWINGS = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}


def _turned(points: Sequence[Tuple[float, float]], facing: int) -> str:
    """SVG path data of a closed polygon drawn facing north, turned clockwise by 45 degrees per
    facing about the centre (coordinates are computed here, not left to an SVG transform, so that
    every renderer draws the same picture)."""
    angle = math.radians(45 * facing)
    c, s = math.cos(angle), math.sin(angle)
    turned = [(50 + (x - 50) * c - (y - 50) * s, 50 + (x - 50) * s + (y - 50) * c) for x, y in points]
    return "M " + " L ".join(f"{x:.2f} {y:.2f}" for x, y in turned) + " Z"


def lancer(white: bool, facing: int) -> str:
    """A round shield on a lance whose broad point shows the way the lancer faces (0 = north ... 7 =
    north-west, clockwise, as ``pieces.FACINGS``).  Every facing is the same drawing, turned."""
    fill, detail = _colours(white)
    shaft = _turned([(44.5, 32), (55.5, 32), (55.5, 88), (44.5, 88)], facing)
    point = _turned([(50, 5), (67, 37), (33, 37)], facing)
    inlay = _turned([(50, 15), (59, 32), (41, 32)], facing)
    cx, cy = (float(v) for v in _turned([(50, 64)], facing)[2:-2].split())
    return _svg(
        f'  <path d="{shaft}" fill="{fill}" stroke="{INK}" stroke-width="2.5" '
        'stroke-linejoin="round"/>\n'
        f'  <circle cx="{cx:.2f}" cy="{cy:.2f}" r="17" fill="{fill}" stroke="{INK}" '
        'stroke-width="2.5"/>\n'
        f'  <circle cx="{cx:.2f}" cy="{cy:.2f}" r="10.5" fill="none" stroke="{detail}" '
        'stroke-width="1.5"/>\n'
        f'  <path d="{point}" fill="{fill}" stroke="{INK}" stroke-width="2.5" '
        'stroke-linejoin="round"/>\n'
        f'  <path d="{inlay}" fill="{detail}"/>\n')


def xboard_slots() -> Dict[str, List[Tuple[str, str]]]:
    """For each image name of a slot our variants use for a fairy piece: the (variant, drawing)
    pairs that put a piece there.  ``drawing`` is ``duke``, ``jailer``, ``sentry`` or
    ``lancer-FACING``."""
    slots: Dict[str, List[Tuple[str, str]]] = {}
    for name in variant_names():
        v = get_variant(name)
        if not v.xboard_pieces:
            continue
        white_half = v.xboard_pieces[:len(v.xboard_pieces) // 2]
        for slot, letter in enumerate(white_half[:-1]):
            picture = picture_name(name, letter) if letter != "." else None
            if picture is not None:
                slots.setdefault(XBOARD_SLOT_IMAGES[slot], []).append((name, picture))
    return slots


def picture_name(variant: str, letter: str) -> Optional[str]:
    """The drawing of the unit with FEN ``letter`` (either case) in ``variant``: ``duke``, ``jailer``,
    ``sentry`` or ``lancer-FACING``; None for the orthodox pieces (XBoard's own pictures)."""
    if letter.upper() in ORTHODOX_LETTERS:
        return None
    v = get_variant(variant)
    code = v.code_of[letter.upper()]
    kind = v.kind_of[code]
    if kind.behaviour == LANCER:
        return "lancer-" + FACING_NAMES[v.facing[code]]
    return kind.name.replace("2019", "")


def board_picture_name(variant: str, letter: str) -> str:
    """The drawing of the unit with FEN ``letter`` on a board of our own (the browser's): the
    orthodox pieces too, whose pictures XBoard draws itself."""
    return ORTHODOX_DRAWINGS.get(letter.upper()) or picture_name(variant, letter) or "pawn"


DRAWINGS = {"duke": duke, "jailer": jailer, "sentry": sentry, "pawn": pawn, "knight": knight,
            "bishop": bishop, "rook": rook, "queen": queen, "king": king}


def drawing_names() -> List[str]:
    """Every drawing ``drawing`` knows."""
    return sorted(DRAWINGS) + ["lancer-" + f for f in FACING_NAMES]


def drawing(name: str, white: bool) -> str:
    """The SVG of a drawing: ``duke``, ``jailer``, ``sentry``, ``lancer-FACING`` (``lancer-ne``) or an
    orthodox piece (``pawn`` ... ``king``).  Raises KeyError for an unknown name."""
    if name.startswith("lancer-"):
        facing = name[len("lancer-"):]
        if facing not in FACING_NAMES:
            raise KeyError(name)
        return lancer(white, FACING_NAMES.index(facing))
    return DRAWINGS[name](white)


def write_xboard_images(directory: str) -> List[str]:
    """Write the pictures of every variant's fairy pieces into ``directory`` under XBoard's slot
    names (for ``-pieceImageDirectory``); returns the paths written.  Raises ValueError if two
    variants would need different pictures in one slot."""
    os.makedirs(directory, exist_ok=True)
    written = []
    for image, users in sorted(xboard_slots().items()):
        pictures = sorted({picture for _, picture in users})
        if len(pictures) > 1:
            raise ValueError(f"XBoard slot {image} would need the pictures {pictures} "
                             f"({', '.join(f'{v}: {p}' for v, p in users)})")
        for white in (True, False):
            path = os.path.join(directory, f"{'White' if white else 'Black'}{image}.svg")
            with open(path, "w", encoding="utf-8") as f:
                f.write(drawing(pictures[0], white))
            written.append(path)
    return written
