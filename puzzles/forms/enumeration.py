"""Free polyforms of a grid, by canonical growth: the check that a grid's geometry is right.

Level n+1 is every free form of level n with one more unit joined along an
edge, reduced to its canonical form (the least normalized image under the
grid's twelve or eight symmetries).  Every connected form of n+1 units
has a unit whose removal leaves it connected, so nothing is missed, and the
canonical form counts each free form once.  On the drafter grid a unit is a
drafter (three kisrhombille cells), so a form is a union of drafters of the
lattice: the count of polydrafters without against-the-grain joins.
"""

from __future__ import annotations

from collections.abc import Callable

from puzzles.errors import UsageError
from puzzles.kinds.grids import Cell, Grid


def _seed(grid: Grid) -> tuple[Cell, ...]:
    origin = {"square": (0, 0), "hexagon": (0, 0), "triangle": (0, 0, 0)}.get(grid.name, (0, 0, 0))
    return grid.canonical(grid.units(origin)[0])


def free_polyforms(grid: Grid, n: int, progress: Callable[[int, int], None] | None = None) -> list[tuple[Cell, ...]]:
    """The canonical forms of the free polyforms of ``n`` units, sorted."""
    if n < 1:
        raise UsageError("size must be at least 1")
    level = {_seed(grid)}
    for size in range(2, n + 1):
        nxt: set[tuple[Cell, ...]] = set()
        for form in level:
            cells = set(form)
            children: set[frozenset] = set()
            for c in form:
                for nb in grid.neighbours(c):
                    if nb in cells:
                        continue
                    for unit in grid.units(nb):
                        if cells.isdisjoint(unit):
                            children.add(frozenset(cells.union(unit)))
            for child in children:
                nxt.add(grid.canonical(child))
        level = nxt
        if progress:
            progress(size, len(level))
    return sorted(level)


def count_free(grid: Grid, n: int) -> int:
    """The free n-forms of ``grid`` (turned and flipped pieces identified), counted."""
    return len(free_polyforms(grid, n))


def has_hole(grid: Grid, form) -> bool:
    """True when some cells outside the form are cut off from the outside (edge-connected)."""
    cells = set(form)
    inside: set[Cell] = set()
    for c in cells:
        inside.update(nb for nb in grid.neighbours(c) if nb not in cells)
    # a hole is a pocket of outside cells that cannot reach beyond the form's bounding ring
    lo0 = min(c[0] for c in cells) - 2
    hi0 = max(c[0] for c in cells) + 2
    lo1 = min(c[1] for c in cells) - 2
    hi1 = max(c[1] for c in cells) + 2
    outside: set[Cell] = set()
    for start in inside:
        if start in outside:
            continue
        seen, stack, escaped = {start}, [start], False
        while stack and not escaped:
            c = stack.pop()
            for nb in grid.neighbours(c):
                if nb in cells or nb in seen or nb in outside:
                    if nb in outside:
                        escaped = True
                    continue
                if not (lo0 <= nb[0] <= hi0 and lo1 <= nb[1] <= hi1):
                    escaped = True
                    break
                seen.add(nb)
                stack.append(nb)
        if not escaped:
            return True
        outside |= seen
    return False
