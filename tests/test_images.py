"""The piece pictures (xboard_engine/images.py): one drawing per fairy piece and lancer facing, in
the XBoard slot each variant puts that piece in, one directory for every variant."""
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from xboard_engine import images
from xboard_engine.core.pieces import FACING_LETTERS, FACING_NAMES, FACINGS
from xboard_engine.core.variant import get_variant, variant_names

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
DRAWINGS = ["duke", "jailer", "sentry"] + ["lancer-" + f for f in FACING_NAMES]
HOSTED = [name for name in variant_names() if get_variant(name).xboard_pieces]


def expected_pictures(variant: str):
    """(XBoard image name, drawing) of every fairy piece letter in the variant's setup string."""
    v = get_variant(variant)
    white_half = v.xboard_pieces[:len(v.xboard_pieces) // 2]
    for slot, letter in enumerate(white_half[:-1]):
        if letter in FACING_LETTERS and "duke" not in {k.name for k in v.kinds}:
            yield images.XBOARD_SLOT_IMAGES[slot], "lancer-" + FACING_NAMES[FACING_LETTERS.index(letter)]
        elif letter == "J":
            yield images.XBOARD_SLOT_IMAGES[slot], "jailer"
        elif letter == "S":
            yield images.XBOARD_SLOT_IMAGES[slot], "sentry"
        elif letter == "D":
            yield images.XBOARD_SLOT_IMAGES[slot], "duke"


@pytest.mark.parametrize("variant", HOSTED)
def test_every_fairy_piece_shows_its_own_picture_in_xboard_slot(variant, tmp_path):
    images.write_xboard_images(str(tmp_path))
    pictures = list(expected_pictures(variant))
    assert pictures, "every hosted variant has a fairy piece"
    for image, drawing in pictures:
        for white, colour in ((True, "White"), (False, "Black")):
            text = (tmp_path / f"{colour}{image}.svg").read_text()
            assert text == images.drawing(drawing, white), (variant, image, drawing, colour)


def test_one_picture_directory_serves_every_variant(tmp_path):
    """No slot is used by two variants for different pieces (Chess80's Duke is not in a lancer's
    slot), so `-pieceImageDirectory` need not change with the variant."""
    slots = images.xboard_slots()
    for image, users in slots.items():
        assert len({picture for _, picture in users}) == 1, (image, users)
    written = images.write_xboard_images(str(tmp_path))
    assert len(written) == 2 * len(slots) == 2 * 11
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(Path(p).name for p in written)


def test_a_slot_needed_for_two_pictures_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr(images, "xboard_slots",
                        lambda: {"Commoner": [("chess80", "duke"), ("8piece", "lancer-sw")]})
    with pytest.raises(ValueError, match="Commoner"):
        images.write_xboard_images(str(tmp_path))


@pytest.mark.parametrize("name", DRAWINGS)
@pytest.mark.parametrize("white", [True, False])
def test_pictures_are_svg_on_xboards_100_square_canvas_in_its_colours(name, white):
    root = ET.fromstring(images.drawing(name, white).split("?>", 1)[1])
    assert root.tag == SVG + "svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("100", "100", "0 0 100 100")
    fills = [e.get("fill") for e in root.iter() if e.get("fill") not in (None, "none")]
    body = images.CREAM if white else images.INK
    assert fills[0] == body or fills.count(body) > len(fills) // 2
    assert all(fill in (images.CREAM, images.INK) for fill in fills)


def test_every_piece_has_a_different_picture():
    assert len({images.drawing(name, True) for name in DRAWINGS}) == len(DRAWINGS)
    assert len({images.drawing(name, False) for name in DRAWINGS}) == len(DRAWINGS)


@pytest.mark.parametrize("facing", range(8))
def test_lancer_point_shows_its_facing_at_a_glance(facing):
    """The lance's point (the first corner of the drawing's second path) lies 45 units from the
    centre in the facing's direction: north up, east right, as the board is drawn."""
    root = ET.fromstring(images.lancer(True, facing).split("?>", 1)[1])
    paths = [e.get("d") for e in root.iter(SVG + "path")]
    tip = [float(v) for v in re.findall(r"-?\d+\.\d+", paths[1])[:2]]
    df, dr = FACINGS[facing]
    length = math.hypot(df, dr)
    expected = (50 + 45 * df / length, 50 - 45 * dr / length)
    assert tip == pytest.approx(expected, abs=0.01)


def test_black_and_white_lancers_of_one_facing_are_one_drawing():
    """Only the colours differ: the drawing's geometry is the same for both sides."""
    for facing in range(8):
        shapes = [re.sub(r'(fill|stroke)="#[0-9a-f]+"', "", images.lancer(white, facing))
                  for white in (True, False)]
        assert shapes[0] == shapes[1]


def test_engine_command_writes_the_pictures(tmp_path):
    out = subprocess.run([sys.executable, "-m", "xboard_engine", "--piece-images", str(tmp_path / "p")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"-pieceImageDirectory {tmp_path / 'p'}" in out.stdout
    assert len(list((tmp_path / "p").glob("*.svg"))) == 22
    assert (tmp_path / "p" / "WhiteZebra.svg").read_text() == images.duke(True)


def test_engine_command_reports_an_unwritable_directory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = subprocess.run([sys.executable, "-m", "xboard_engine", "--piece-images", str(blocker)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.startswith("xboard-engine: cannot write the piece images:")
    assert "Traceback" not in out.stderr
