"""n^2 queens on the n x n x n board, none attacking another along any of the 13 directions (seed 003).

A queen on the cube attacks along 13 lines through its cell: the 3 axes, the 6 diagonals of the planes
that hold two axes, and the 4 space diagonals.  n^2 queens is the most the board can hold (each of the
n^2 lines along one axis holds one at most), so a placement puts exactly one queen on each axis line.
The chapter calls 64 queens on the 8 x 8 x 8 board prohibitive to search by hand; a placement exists
exactly when n is prime to 2, 3, 5 and 7 (Klarner's theorem), so 11 is the smallest n > 1 that has one.

The problem is one exact cover with colours, written here once and read by both solvers: the axis lines
are primary items (exactly one queen each), the other ten families of lines secondary (at most one).
``xcc`` gives it to the workbench's backtrackers, ``cnf`` to a SAT solver (exactly one on an axis line,
at most one on any other line, by sequential counters).  ``check`` is the independent verifier.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from puzzles.xcc import XCC

Cell = tuple[int, ...]  # (x, y, z)

# one direction of each of the 13 lines through a cell (the other is its negative)
DIRECTIONS: tuple[Cell, ...] = tuple(
    d
    for d in product((-1, 0, 1), repeat=3)
    if d != (0, 0, 0) and next(x for x in d if x != 0) == 1  # the first non-zero step positive: one of each pair
)
AXES = tuple(d for d in DIRECTIONS if sum(map(abs, d)) == 1)


def lines(n: int) -> dict[Cell, list[list[Cell]]]:
    """Each direction's lines of two or more cells (a line of one cell constrains nothing)."""
    out: dict[Cell, list[list[Cell]]] = {}
    cells = list(product(range(n), repeat=3))
    for d in DIRECTIONS:
        found = []
        for c in cells:
            prev = tuple(a - b for a, b in zip(c, d))
            if all(0 <= x < n for x in prev):
                continue  # not the start of its line
            line = []
            x = c
            while all(0 <= v < n for v in x):
                line.append(x)
                x = tuple(a + b for a, b in zip(x, d))
            if len(line) >= 2 or d in AXES:
                found.append(line)
        out[d] = found
    return out


def xcc(n: int) -> XCC:
    """The exact cover: an option a cell; the axis lines primary, every other line secondary."""
    ls = lines(n)
    primary = [(d, i) for d in AXES for i in range(len(ls[d]))]
    secondary = [(d, i) for d in DIRECTIONS if d not in AXES for i in range(len(ls[d]))]
    index = {key: k for k, key in enumerate(primary + secondary)}
    on: dict[Cell, list[int]] = {}
    for d in DIRECTIONS:
        for i, line in enumerate(ls[d]):
            for c in line:
                on.setdefault(c, []).append(index[(d, i)])
    cells = sorted(on)
    ptr = np.zeros(len(cells) + 1, np.int32)
    flat: list[int] = []
    for k, c in enumerate(cells):
        flat += sorted(on[c])
        ptr[k + 1] = len(flat)
    names = [f"l{d[0]}{d[1]}{d[2]}.{i}" for d, i in primary + secondary]
    return XCC(
        item_names=names,
        n_primary=len(primary),
        opt_ptr=ptr,
        opt_items=np.array(flat, np.int32),
        opt_colors=np.zeros(len(flat), np.int32),
        decode=cells,
    )


def var(n: int, c: Cell) -> int:
    """The DIMACS variable of a queen on cell c."""
    return 1 + (c[0] * n + c[1]) * n + c[2]


def cnf(n: int) -> tuple[list[list[int]], int]:
    """(clauses, variables): exactly one queen on each axis line, at most one on every other line."""
    from pysat.card import CardEnc, EncType

    clauses: list[list[int]] = []
    top = n**3
    for d, found in lines(n).items():
        for line in found:
            lits = [var(n, c) for c in line]
            if d in AXES:
                clauses.append(lits)
            if len(lits) > 1:
                enc = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
                clauses += enc.clauses
                top = max(top, enc.nv)
    return clauses, top


def check(n: int, queens: list[Cell]) -> str | None:
    """None when ``queens`` is n^2 queens on the board, no two on one line; else what is wrong."""
    if len(queens) != n * n:
        return f"{len(queens)} queens, not {n * n}"
    if any(not all(0 <= x < n for x in q) for q in queens):
        return "a queen off the board"
    seen = set(queens)
    if len(seen) != len(queens):
        return "two queens on one cell"
    for a in queens:
        for b in queens:
            if a < b:
                diff = [y - x for x, y in zip(a, b)]
                m = max(abs(v) for v in diff)
                if all(v in (-m, 0, m) for v in diff):
                    return f"queens {a} and {b} attack each other"
    return None


def draw(n: int, queens: list[Cell], path: str) -> None:
    """The placement as n layers side by side (PNG or SVG by the name)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(n, 6)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(2.0 * cols, 2.0 * rows + 0.4), squeeze=False)
    for z in range(rows * cols):
        ax = axes[z // cols][z % cols]
        ax.set_axis_off()
        if z >= n:
            continue
        board = np.add.outer(np.arange(n), np.arange(n)) % 2
        ax.imshow(board, cmap="Greys", vmin=0, vmax=3)
        for x, y, zz in queens:
            if zz == z:
                ax.plot(y, x, "o", color="crimson", ms=max(2, 60 // n))
        ax.set_title(f"layer {z + 1}", fontsize=8)
    fig.suptitle(f"{n * n} queens on the {n}x{n}x{n} board, no two on any of the 13 lines")
    fig.tight_layout()
    from puzzles.files.outputs import atomic_save

    atomic_save(path, lambda tmp: fig.savefig(tmp, dpi=110))
    plt.close(fig)
