"""Search orders for edge-matching boards: which cell a static search fills at each depth.

Shared by the backtracker (``baseline``) and Owen's node estimates.
``rowscan`` fills row A from A1 rightwards, then row B, ...; ``rowscan-up``
is its reverse (from the bottom-right cell leftwards and upwards);
``colscan`` goes down column 1 first; ``spiral`` runs clockwise round the
rim inwards; ``frame-first`` does the rim (as the spiral does) then the
inside row by row; ``antidiagonal`` fills the board by anti-diagonals from A1 (r + c rising, each
from the top row down), so every cell's upper and left neighbours come first;
``mrv`` is dynamic (this list is only its fallback);
``rows-cols-K`` is [Owen]'s order for slip searches: ``rowscan-up`` over
all rows but the top K, then those K rows column by column (each column
upwards, columns right to left), so the frame squares come late.
Fixed cells always come first.
"""

from __future__ import annotations

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle

ORDERS = ("rowscan", "rowscan-up", "colscan", "spiral", "frame-first", "antidiagonal", "mrv")


def search_order(p: EdgePuzzle, name: str) -> list[int]:
    """Cells in the order a static search fills them (fixed cells first)."""
    R, C = p.rows, p.cols
    if name == "rowscan":
        order = list(range(R * C))
    elif name == "rowscan-up":
        order = list(range(R * C))[::-1]
    elif name == "colscan":
        order = [r * C + c for c in range(C) for r in range(R)]
    elif name == "spiral":
        order, top, bot, left, right = [], 0, R - 1, 0, C - 1
        while top <= bot and left <= right:
            order += [top * C + c for c in range(left, right + 1)]
            order += [r * C + right for r in range(top + 1, bot + 1)]
            if top < bot:
                order += [bot * C + c for c in range(right - 1, left - 1, -1)]
            if left < right:
                order += [r * C + left for r in range(bot - 1, top, -1)]
            top, bot, left, right = top + 1, bot - 1, left + 1, right - 1
    elif name == "frame-first":
        ring = search_order(EdgePuzzle(R, C, p.pieces[:0].reshape(0, 4)), "spiral")
        frame = [x for x in ring if x // C in (0, R - 1) or x % C in (0, C - 1)]
        rest = [x for x in range(R * C) if x not in set(frame)]
        order = frame + rest
    elif name == "antidiagonal":
        order = sorted(range(R * C), key=lambda x: (x // C + x % C, x // C))
    elif name == "mrv":
        order = list(range(R * C))
    elif name.startswith("rows-cols-") and name[10:].isdigit() and 0 <= int(name[10:]) <= R:
        k = int(name[10:])
        order = [x for x in range(R * C)[::-1] if x // C >= k]
        order += [r * C + c for c in range(C - 1, -1, -1) for r in range(k - 1, -1, -1)]
    else:
        raise UsageError(f"unknown order {name!r} (known: {', '.join(ORDERS)}, rows-cols-K)")
    fixed = [f.cell for f in p.fixed]
    return fixed + [x for x in order if x not in set(fixed)]
