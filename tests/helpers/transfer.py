"""An independent reference for strip tilings: the transfer-matrix count of the tilings of an
R x C rectangle by polyominoes in free supply.

Cells are filled in column-major order; the state is the position of the first empty cell and
the mask of filled cells from there on (at most R * width cells ahead), and each step places a
piece orientation whose first cell (in that order) is that empty cell.  It shares no code with
the solvers: its own orientations, its own memo (a dict), Python integers.
"""

from functools import cache


def orientations(cells) -> set[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a polyomino, each normalised and sorted."""
    out = set()
    pts = [tuple(c[:2]) for c in cells]
    for flip in (False, True):
        q = [(r, -c) for r, c in pts] if flip else pts
        for _ in range(4):
            q = [(c, -r) for r, c in q]
            r0 = min(r for r, _ in q)
            c0 = min(c for _, c in q)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in q)))
    return out


def count_tilings(rows: int, cols: int, shapes) -> int:
    """Tilings of rows x cols by the polyominoes ``shapes`` (cell lists), any number of each."""
    offsets = []
    for shape in shapes:
        for o in orientations(shape):
            # anchor each orientation at its first cell in column-major order
            first = min(o, key=lambda rc: (rc[1], rc[0]))
            offsets.append([(r - first[0], c - first[1]) for r, c in o])
    n = rows * cols

    @cache
    def go(pos: int, mask: int) -> int:
        while pos < n and mask & 1:
            pos += 1
            mask >>= 1
        if pos == n:
            return 1
        r0, c0 = pos % rows, pos // rows
        total = 0
        for off in offsets:
            m = mask
            ok = True
            for dr, dc in off:
                r, c = r0 + dr, c0 + dc
                if not (0 <= r < rows and 0 <= c < cols):
                    ok = False
                    break
                bit = 1 << (c * rows + r - pos)
                if m & bit:
                    ok = False
                    break
                m |= bit
            if ok:
                total += go(pos, m)
        return total

    return go(0, 0)
