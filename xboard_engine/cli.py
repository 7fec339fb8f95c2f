"""Console entry point. The XBoard protocol loop arrives with the engine issue; for now it reports
its version and variants."""
import argparse
import sys
from typing import List, Optional

from . import __version__
from .variant import variant_names


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="xboard-engine", description=__doc__)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.parse_args(argv)
    print(f"xboard-engine {__version__} (variants: {' '.join(variant_names())})")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
