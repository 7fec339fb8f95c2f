#!/usr/bin/env python3
"""Screenshots of each variant's start position in a real XBoard, started the way docs/XBOARD.md says
(`xboard-engine play VARIANT`, so with the engine's piece pictures), for docs/XBOARD.md.

    python scripts/xboard_screenshots.py                 # 8piece, 8piece-random, fullcavalry, chess80
    python scripts/xboard_screenshots.py --out DIR chess80

Needs XBoard, Xvfb (xvfb-run) and ImageMagick (`import`, `convert`); runs itself inside xvfb-run
when no display is set.  Writes DIR/xboard-VARIANT.png (default DIR: docs/images).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["8piece", "8piece-random", "fullcavalry", "chess80"]    # 8piece-2019 starts as 8piece


def imagemagick(program: str) -> str:
    path = Path("/usr/bin") / program                 # Debian's, before any other in PATH
    return str(path) if path.is_file() else (shutil.which(program) or program)


def shoot(variant: str, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "engine.log"
        env = dict(os.environ, XDG_CACHE_HOME=tmp)
        xboard = subprocess.Popen(
            [sys.executable, "-m", "xboard_engine", "play", variant, "--log", str(log), "--",
             "-initialMode", "EditGame", "-popupExitMessage", "false", "-showCoords", "true",
             "-size", "49"], cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(120):
                if log.exists() and "< force" in log.read_text():
                    break
                time.sleep(0.25)
            else:
                raise SystemExit(f"{variant}: XBoard did not start the engine")
            time.sleep(5)
            shot = Path(tmp) / "root.png"
            subprocess.run([imagemagick("import"), "-window", "root", str(shot)], check=True)
            subprocess.run([imagemagick("convert"), str(shot), "-trim", "+repage", "-colors", "96", "-strip",
                            f"png8:{out}"], check=True)
        finally:
            xboard.kill()
            xboard.wait()
    print(f"{variant}: {out}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", metavar="VARIANT", help=", ".join(VARIANTS) + " (default: all)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"), help="directory for the PNGs")
    args = parser.parse_args()
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; choose from {', '.join(VARIANTS)}")
    if not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            sys.stderr.write("xboard_screenshots: no display and no xvfb-run (apt install xvfb)\n")
            return 2
        return subprocess.call([xvfb, "-a", "-s", "-screen 0 1280x1024x24", sys.executable, *sys.argv])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for variant in args.variants or VARIANTS:
        shoot(variant, out / f"xboard-{variant}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
