"""Independent oracles for the counters, the samplers and the estimator, written apart from what they check.

- **Model counts**: a brute-force counter (every assignment of the declared variables, the satisfying ones
  projected) on random formulas with free variables, units, empty clauses, duplicate literals and
  projections, read from files by the real reader, against every counter and the ``sat`` enumeration.
- **Board counts**: a brute-force board counter (every injective deal of pieces to cells, every distinct look
  of each piece, the border rule and the joins checked by hand) on odd boards: identical pieces, symmetric
  pieces, spares, fixed pieces, free rims, one row, no placement at all, against every counting solver.
- **Samplers**: a chi-square test over boards (the brute force's boards are the bins) of every sampler, on a
  board with identical and symmetric pieces, where models and boards differ.
- **The estimator**: its interval against a second computation (``statistics``), its rounding, and a count of
  hundreds of digits.

None of the oracles imports the code it checks: the rotation, the border rule and the joins are worked out
here again from the conventions of ``puzzles/kinds/edge.py``'s docstring.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

import solving
from puzzles import catalog
from puzzles.kinds.edge import EdgePuzzle, Fixed
from solving import Limits, solve_verified

# ---------------------------------------------------------------------------------------------------------------
# model counts


def brute_models(n_vars: int, clauses: list[list[int]], projection: list[int] | None) -> int:
    """The models of ``clauses`` over variables 1..n_vars, projected on ``projection`` (every variable if None)."""
    on = list(range(1, n_vars + 1)) if projection is None else sorted(set(projection))
    seen = set()
    for bits in itertools.product((False, True), repeat=n_vars):
        value = (None, *bits)
        if all(any(value[abs(x)] == (x > 0) for x in c) for c in clauses):
            seen.add(tuple(value[v] for v in on))
    return len(seen)


def random_formula(rng: random.Random) -> tuple[int, list[list[int]], list[int] | None]:
    """A formula of 1 to 7 declared variables, some of them in no clause (free), with units, duplicate
    literals, tautologies now and then and, once in a while, an empty clause."""
    n = rng.randint(1, 7)
    used = rng.sample(range(1, n + 1), rng.randint(0, n))
    clauses: list[list[int]] = []
    for _ in range(rng.randint(0, 6) if used else 0):
        width = rng.choice((1, 1, 2, 2, 3, 3, 4))
        c = [rng.choice(used) * rng.choice((1, -1)) for _ in range(width)]
        clauses.append(c)
    if rng.random() < 0.05:
        clauses.append([])
    projection = None
    if rng.random() < 0.5:
        projection = rng.sample(range(1, n + 1), rng.randint(0, n))
    return n, clauses, projection


def write_cnf(path, n: int, clauses, projection) -> None:
    lines = []
    if projection is not None:
        lines.append("c p show " + " ".join(map(str, projection)) + " 0")
    lines.append(f"p cnf {n} {len(clauses)}")
    lines += [" ".join(map(str, c)) + (" 0" if c else "0") for c in clauses]
    path.write_text("\n".join(lines) + "\n")


def _available(name: str) -> bool:
    cls = type(solving.get(name))
    here = cls.here() if hasattr(cls, "here") else None
    return here is None or "not installed" not in here and "not found" not in here


COUNTERS = ["sat", "ganak", "approxmc"]
N_FORMULAS = 60


def test_every_counter_counts_random_formulas_as_the_brute_force_does(tmp_path):
    """60 random formulas, each counted by the brute force and by every counter here; ApproxMC is exact below
    its threshold (these formulas have at most 128 models), so every count must be the brute force's."""
    rng = random.Random(2026)
    names = [c for c in COUNTERS if _available(c)]
    assert "sat" in names
    wrong = []
    for i in range(N_FORMULAS):
        n, clauses, projection = random_formula(rng)
        f = tmp_path / f"f{i}.cnf"
        write_cnf(f, n, clauses, projection)
        want = brute_models(n, clauses, projection)
        puzzle = catalog.load(str(f))
        for name in names:
            res, _ = solve_verified(solving.get(name), puzzle, "count", Limits(time_s=60))
            got = res.count if res.status in ("solved", "unsatisfiable") else res.status
            if got != want:
                wrong.append(f"{name} on {f.read_text()!r}: {got} (brute force {want}; {res.message})")
    assert not wrong, "\n".join(wrong[:10])


@pytest.mark.parametrize(
    "text, want",
    [
        ("p cnf 3 1\n1 2 0\n", 6),  # a free variable
        ("p cnf 2 1\n-2 0\n", 2),  # a unit and a free variable
        ("p cnf 4 0\n", 16),  # no clause: every variable free
        ("p cnf 2 2\n1 0\n0\n", 0),  # an empty clause
        ("c p show 0\np cnf 2 1\n1 2 0\n", 1),  # an empty projection: one model over no variable
        ("c p show 3 0\np cnf 3 1\n1 2 0\n", 2),  # a projection on the free variable alone
        ("c p show 0\np cnf 2 2\n1 0\n-1 0\n", 0),  # an empty projection of an unsatisfiable formula
    ],
)
def test_the_counters_count_the_corner_formulas_exactly(tmp_path, text, want):
    f = tmp_path / "f.cnf"
    f.write_text(text)
    for name in [c for c in COUNTERS if _available(c)]:
        res, _ = solve_verified(solving.get(name), catalog.load(str(f)), "count", Limits(time_s=60))
        assert res.count == want, (name, text, res.status, res.message)


# ---------------------------------------------------------------------------------------------------------------
# board counts


def _turn(colours, r: int) -> tuple[int, ...]:
    # r clockwise quarter turns: the side k shows what side k - r showed (N, E, S, W)
    return tuple(int(colours[(k - r) % 4]) for k in range(4))


def brute_boards(rows: int, cols: int, pieces, fixed=()) -> set[tuple]:
    """Every solution of the board, each as a tuple of (piece, look) a cell, found by dealing pieces to cells
    in every way.  A piece's looks are its distinct turns (a symmetric piece shows fewer than four); pieces
    are told apart by index; spare pieces may stay in the box; fixed cells hold their piece and look."""
    pieces = [tuple(map(int, p)) for p in pieces]
    bordered = any(0 in p for p in pieces)
    looks = [sorted({_turn(p, r) for r in range(4)}) for p in pieces]
    pinned = {c: (q, _turn(pieces[q], r)) for c, q, r in fixed}
    pinned_pieces = {q for q, _ in pinned.values()}
    n = rows * cols
    out: set[tuple] = set()
    board: list[tuple[int, tuple]] = []

    def fits(cell: int, look: tuple) -> bool:
        r, c = divmod(cell, cols)
        outside = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        if bordered and any((look[s] == 0) != outside[s] for s in range(4)):
            return False
        if r > 0 and board[cell - cols][1][2] != look[0]:  # the one above: its S against this N
            return False
        return not (c > 0 and board[cell - 1][1][1] != look[3])  # the one on the left: its E against this W

    def deal(cell: int, used: set[int]) -> None:
        if cell == n:
            out.add(tuple(board))
            return
        if cell in pinned:
            q, look = pinned[cell]
            options = [(q, look)] if q not in used else []
        else:
            options = [
                (q, lk) for q in range(len(pieces)) if q not in used and q not in pinned_pieces for lk in looks[q]
            ]
        for q, look in options:
            if fits(cell, look):
                board.append((q, look))
                used.add(q)
                deal(cell + 1, used)
                used.discard(q)
                board.pop()

    deal(0, set())
    return out


def _bordered_board(rng: random.Random, rows: int, cols: int, frame: int, inner: int) -> list[tuple[int, ...]]:
    """A planted board's pieces (shuffled and turned): grey outside, frame colours on the rim's joins."""
    n = rows * cols
    side = {}
    for cell in range(n):
        r, c = divmod(cell, cols)
        if c + 1 < cols:
            rim = r in (0, rows - 1)
            side[(cell, 1)] = rng.randint(1, frame) if rim else frame + rng.randint(1, inner)
        if r + 1 < rows:
            rim = c in (0, cols - 1)
            side[(cell, 2)] = rng.randint(1, frame) if rim else frame + rng.randint(1, inner)
    out = []
    for cell in range(n):
        r, c = divmod(cell, cols)
        north = side[(cell - cols, 2)] if r > 0 else 0
        east = side.get((cell, 1), 0)
        south = side.get((cell, 2), 0)
        west = side[(cell - 1, 1)] if c > 0 else 0
        out.append(_turn((north, east, south, west), rng.randrange(4)))
    rng.shuffle(out)
    return out


def odd_boards() -> list[tuple[str, EdgePuzzle]]:
    rng = random.Random(11)
    boards = []
    p = _bordered_board(rng, 3, 3, 1, 1)  # one colour a kind: identical pieces throughout
    boards.append(("identical", EdgePuzzle(3, 3, p, name="identical")))
    # symmetric pieces on a free rim: one colour everywhere shows one look (a piece with 4 turns alike)
    boards.append(("symmetric-free-rim", EdgePuzzle(2, 2, [(1, 1, 1, 1), (1, 1, 1, 1), (1, 2, 1, 2), (2, 1, 2, 1)])))
    boards.append(("free-rim", EdgePuzzle(2, 2, [tuple(rng.randint(1, 2) for _ in range(4)) for _ in range(4)])))
    p = _bordered_board(rng, 3, 3, 2, 2)
    boards.append(("spares", EdgePuzzle(3, 3, p + [p[0], _turn(p[3], 1)], name="spares")))
    p = _bordered_board(rng, 3, 3, 1, 2)
    q = next(i for i, x in enumerate(p) if x.count(0) == 0)
    boards.append(("fixed", EdgePuzzle(3, 3, p, fixed=[Fixed(4, q, 0)])))
    boards.append(("one-row", EdgePuzzle(1, 4, [(0, 1, 0, 0), (0, 1, 0, 1), (0, 1, 0, 1), (0, 0, 0, 1)])))
    boards.append(("no-placement", EdgePuzzle(2, 2, [(0, 1, 1, 1)] * 4)))
    boards.append(("random-3x3", EdgePuzzle(3, 3, _bordered_board(rng, 3, 3, 2, 2))))
    return boards


BOARD_COUNTERS = ["edge-backtrack", "backtrack", "sat", "cpsat", "ganak", "approxmc", "cube"]


@pytest.mark.parametrize("label, puzzle", odd_boards(), ids=[b[0] for b in odd_boards()])
def test_every_counting_solver_counts_odd_boards_as_the_brute_force_does(label, puzzle):
    fixed = [(f.cell, f.piece, f.rotation) for f in puzzle.fixed]
    want = len(brute_boards(puzzle.rows, puzzle.cols, puzzle.pieces.tolist(), fixed))
    wrong = []
    for name in BOARD_COUNTERS:
        if not _available(name):
            continue
        solver = solving.get(name)
        try:
            solver.check(puzzle, "count")
        except Exception as e:  # noqa: BLE001 - a solver that does not take this board says so, in one line
            wrong.append(f"{name}: refused {label} ({e})")
            continue
        res, _ = solve_verified(solver, puzzle, "count", Limits(time_s=60))
        if name == "approxmc" and res.count and want:  # above its threshold, a count within its factor
            if res.stats["interval"][0] <= want <= res.stats["interval"][1]:
                continue
        if res.count != want:
            wrong.append(f"{name}: {res.status} count {res.count} (brute force {want}; {res.message})")
    assert not wrong, f"{label}:\n" + "\n".join(wrong)


# ---------------------------------------------------------------------------------------------------------------
# samplers


SAMPLERS = ["backtrack", "unigen", "cmsgen"]
DRAWS = 600


def _board_key(puzzle: EdgePuzzle, board) -> tuple:
    by_cell = {pl.cell: (pl.piece, _turn(puzzle.pieces[pl.piece], pl.rotation)) for pl in board}
    return tuple(by_cell[c] for c in range(puzzle.n_cells))


def test_the_samplers_with_a_guarantee_are_uniform_over_boards_and_the_chi_square_says_which_are_not():
    """A 3x3 board with identical pieces (1,152 boards, 48 merged models): the native sampler and UniGen
    must pass a chi-square test over the brute force's boards at 600 draws; CMSGen promises nothing and is
    only held to drawing verified boards."""
    from scipy.stats import chisquare

    rng = random.Random(5)
    pieces = _bordered_board(rng, 3, 3, 1, 1)
    puzzle = EdgePuzzle(3, 3, pieces, name="identical")
    boards = sorted(brute_boards(3, 3, pieces))
    index = {b: i for i, b in enumerate(boards)}
    assert len(boards) > 100
    for name in SAMPLERS:
        if not _available(name):
            continue
        res, ok = solve_verified(solving.get(name, {"seed": 3}), puzzle, "sample", Limits(solutions=DRAWS, time_s=120))
        assert ok and len(res.solutions) == DRAWS, (name, res.status, res.message)
        bins = [0] * len(boards)
        for b in res.solutions:
            bins[index[_board_key(puzzle, b)]] += 1
        if name == "cmsgen":
            continue
        # too few draws a bin for Pearson's test: the number of distinct boards drawn against its expectation
        # under uniform draws (1,152 boards, 600 draws: about 456 distinct), and a binned chi-square
        expected_distinct = len(boards) * (1 - (1 - 1 / len(boards)) ** DRAWS)
        distinct = sum(1 for x in bins if x)
        assert distinct > 0.85 * expected_distinct, (name, distinct, expected_distinct)
        coarse = [sum(bins[i::8]) for i in range(8)]  # eight bins of 144 boards each
        assert chisquare(coarse).pvalue > 1e-3, (name, coarse)


# ---------------------------------------------------------------------------------------------------------------
# the estimator


def test_the_estimators_interval_is_the_textbook_one_and_holds_hundreds_of_digits():
    import statistics

    from baseline.edge.sampled import interval, number, sci

    rng = random.Random(3)
    for _ in range(50):
        xs = [rng.choice((0, 0, rng.randint(0, 10**6))) for _ in range(rng.randint(2, 30))]
        if len(set(xs)) < 2:
            continue
        mean, se, low, high = interval(xs)
        assert mean == Fraction(sum(xs), len(xs))
        se_f = statistics.stdev(xs) / len(xs) ** 0.5
        assert float(se) == pytest.approx(se_f, rel=1e-9)
        assert float(high) == pytest.approx(float(mean) + 1.959964 * se_f, rel=1e-9)
        assert float(low) == pytest.approx(max(0.0, float(mean) - 1.959964 * se_f), rel=1e-9, abs=1e-9)
    huge = [3 * 10**441, 5 * 10**441, 0, 7 * 10**440]
    mean, se, low, high = interval(huge)
    assert number(mean) == 2175 * 10**438 and sci(number(mean)) == "2.175e+441"
    assert low <= mean <= high and isinstance(number(high), int)


def test_an_estimate_whose_probe_met_a_solution_is_never_count_0():
    """A 3x3 board with one solution (up to nothing: pieces all distinct), probed at a depth where most
    probes miss it: the mean is below 1/2, the count must still be at least 1 and the answer approximate."""
    rng = random.Random(21)
    for seed in range(200):
        pieces = _bordered_board(random.Random(seed), 3, 3, 2, 3)
        if len(brute_boards(3, 3, pieces)) == 1:
            break
    puzzle = EdgePuzzle(3, 3, pieces)
    res, _ = solve_verified(solving.get("edge-estimate", {"depth": 3, "probes": 40, "seed": rng.randint(0, 99)}),
                            puzzle, "count", Limits(time_s=60))  # fmt: skip
    if res.status == "solved":
        assert res.count >= 1 and str(res.evidence).startswith("approximate"), (res.count, res.message)
    else:
        assert res.status == "limit" and res.count is None  # no probe met it: no estimate, never a 0


def test_the_table_counts_an_estimate_as_approximate():
    from experiments.report import summarise

    row = {"family": "f", "instance": "i", "config": "edge-estimate", "status": "solved", "nodes": None,
           "time_limit": 10.0, "verified": None, "evidence": "approximate (Knuth's estimator, 4 probes)",
           "wall_s": 1.0, "cpu_s": 1.0, "search_s": 1.0, "repeat": 0, "params": {}, "mode": "count"}  # fmt: skip
    (s, *_) = summarise([row])
    assert s["approximate"] == 1 and s["claimed"] == 0


def test_the_brute_force_is_itself_right_on_boards_counted_by_hand():
    # four distinct corner pieces on 2x2 with one colour: every deal whose greys face out, one turn each
    corners = [(0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0)]
    assert len(brute_boards(2, 2, corners)) == 24  # 4! deals, each piece turned the one way its greys fit
    assert len(brute_boards(2, 2, [(0, 1, 1, 1)] * 4)) == 0
    assert len(brute_boards(1, 1, [(1, 1, 1, 1)])) == 1  # a symmetric piece: one look
    assert len(brute_boards(1, 1, [(1, 2, 1, 2)])) == 2
    assert brute_models(3, [[1, 2]], None) == 6 and brute_models(3, [[1, 2]], [3]) == 2
    assert brute_models(2, [[]], None) == 0 and brute_models(2, [[1]], []) == 1
    assert np.array_equal(np.array(_turn((1, 2, 3, 4), 1)), np.array((4, 1, 2, 3)))
