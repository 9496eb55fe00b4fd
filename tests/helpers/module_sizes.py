"""The house's limit on a module's size: every module of the seven packages at most LIMIT lines (600 unless
given).  Prints the ones over it and exits 1; `make lint` runs it, and the architecture test too."""

import sys
from pathlib import Path

PACKAGES = ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")


def over(root: Path, limit: int) -> list[tuple[str, int]]:
    """The modules of ``root``'s packages longer than ``limit`` lines, with their lengths."""
    out = []
    for pkg in PACKAGES:
        for f in sorted((root / pkg).rglob("*.py")):
            n = len(f.read_text().splitlines())
            if n > limit:
                out.append((str(f.relative_to(root)), n))
    return out


if __name__ == "__main__":
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    bad = over(Path(__file__).resolve().parents[2], limit)
    for name, n in bad:
        print(f"{name}: {n} lines, over the house's {limit}")
    sys.exit(1 if bad else 0)
