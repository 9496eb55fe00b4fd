"""Edge boards of the shapes the generator does not make: a free rim (no grey edge), one or two rows, spare
pieces, identical pieces, hint pieces, and boards broken to have no solution.  Each is planted: a random
colouring of the joins (and of the rim, when it is free), cut into pieces, turned and shuffled."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import strategies as st

from puzzles.kinds.edge import EdgePuzzle, Fixed


def planted(rows: int, cols: int, colours: int, rim: str, spare: int, twins: int, hints: int, broken: bool, seed: int):
    """A board and the shape words that say what it is (``rim`` "grey" or "free")."""
    rng = random.Random(seed)
    n = rows * cols
    shown = np.zeros((n, 4), dtype=np.int64)
    for cell in range(n):
        r, c = divmod(cell, cols)
        for side, dr, dc in ((0, -1, 0), (1, 0, 1), (2, 1, 0), (3, 0, -1)):
            rr, cc = r + dr, c + dc
            inside = 0 <= rr < rows and 0 <= cc < cols
            if not inside:
                shown[cell, side] = 0 if rim == "grey" else rng.randint(1, colours)
            elif side in (1, 2):
                colour = rng.randint(1, colours)
                shown[cell, side] = colour
                shown[rr * cols + cc, (side + 2) % 4] = colour
    order = list(range(n))
    rng.shuffle(order)
    pieces, where = [], {}
    for k, cell in enumerate(order):
        s = rng.randrange(4)
        pieces.append([int(shown[cell][(j - s) % 4]) for j in range(4)])
        where[cell] = (k, s)
    for _ in range(twins):  # identical pieces: a spare copy of a used one
        pieces.append(list(pieces[rng.randrange(n)]))
    for _ in range(spare):  # random spare pieces (grey sides kept to the rim's kind)
        pieces.append([rng.randint(1, colours) for _ in range(4)])
    if broken:
        q = rng.randrange(n)
        sides = [s for s in range(4) if pieces[q][s] != 0]
        if sides:
            s = rng.choice(sides)
            pieces[q][s] = 1 + pieces[q][s] % colours
    fixed = []
    for cell in rng.sample(range(n), min(hints, n)):
        k, s = where[cell]
        fixed.append(Fixed(cell, k, (-s) % 4))  # the turn that shows the tile as cut
    words = [f"{rows}x{cols}", f"rim={rim}"] + [
        w for w, on in (("spare", spare), ("twins", twins), ("hints", hints), ("broken", broken)) if on
    ]
    return EdgePuzzle(rows, cols, np.array(pieces), fixed, name="odd-" + "-".join(words)), words


odd_boards = st.builds(
    planted,
    rows=st.integers(1, 3),
    cols=st.integers(2, 4),
    colours=st.integers(2, 4),
    rim=st.sampled_from(("grey", "free")),
    spare=st.integers(0, 1),
    twins=st.integers(0, 1),
    hints=st.integers(0, 2),
    broken=st.booleans(),
    seed=st.integers(0, 10**6),
)
