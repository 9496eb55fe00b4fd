"""Euler's officers by a square orthogonal to its own transpose (``cpsat --opt model=self-orthogonal``).

No generic model reaches a doubly diagonal orthogonal pair of order 10 (the book's open question):
CP-SAT and SAT on the whole pair time out, and by transversals only about one diagonal square of
order 10 in 32 million has a diagonal mate (Vatutin et al. 2018).  A self-orthogonal square A (A
orthogonal to A^T) halves the unknowns, and an automorphism shrinks them again: a permutation
sigma of 0..n-1 moving rows, columns and symbols alike (A[sigma r][sigma c] = sigma A[r][c]).
CP-SAT enumerates such squares, idempotent (A[i][i] = i, which costs nothing: any self-orthogonal
square relabels to one); each is searched for a symmetric transversal (``latin.
symmetric_transversals``, 945 pairings for n = 10), which becomes the anti-diagonal of both A and
A^T.  For order 10, sigma = (0 1 2)(3 4 5)(6 7 8) gives one in the first square CP-SAT returns
(3 s, docs/results/classics.md); the 9-cycle gives 120 squares without one, two 5-cycles none at all.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from puzzles.errors import UsageError
from puzzles.kinds.latin import symmetric_transversals


def automorphism(n: int, cycles: str) -> list[int]:
    """The permutation of 0..n-1 with the given cycle lengths, in order: "3,3,3,1" is (0 1 2)(3 4 5)(6 7 8)."""
    try:
        lengths = [int(v) for v in cycles.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"automorphism {cycles!r}: cycle lengths separated by commas, e.g. 3,3,3,1") from None
    if any(v < 1 for v in lengths) or sum(lengths) > n:
        raise UsageError(f"automorphism {cycles!r}: positive cycle lengths summing to at most {n}")
    sigma = list(range(n))
    start = 0
    for v in lengths:
        for i in range(v):
            sigma[start + i] = start + (i + 1) % v
        start += v
    return sigma


def self_orthogonal_model(n: int, sigma: list[int]):
    """CP-SAT model of an idempotent Latin square orthogonal to its transpose with automorphism sigma."""
    m = cp_model.CpModel()
    x = [[m.new_int_var(0, n - 1, f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for i in range(n):
        m.add_all_different(x[i])
        m.add_all_different([x[r][i] for r in range(n)])
        m.add(x[i][i] == i)
    pair = []  # the ordered symbol pair (A[r][c], A[c][r]) of every off-diagonal cell: all different
    for r in range(n):
        for c in range(n):
            if r != c:
                v = m.new_int_var(0, n * n - 1, f"p{r}_{c}")
                m.add(v == n * x[r][c] + x[c][r])
                pair.append(v)
    m.add_all_different(pair)
    if sigma != list(range(n)):
        for r in range(n):
            for c in range(n):
                m.add_element(x[r][c], sigma, x[sigma[r]][sigma[c]])
    return m, x


class _Squares(cp_model.CpSolverSolutionCallback):
    """Checks every square CP-SAT enumerates; stops at the first with what the puzzle needs."""

    def __init__(self, x, diagonal: bool, progress):
        super().__init__()
        self.x, self.diagonal, self.progress = x, diagonal, progress
        self.squares = 0
        self.found: tuple[list[list[int]], Any] | None = None

    def on_solution_callback(self) -> None:
        self.squares += 1
        A = [[self.value(v) for v in row] for row in self.x]
        pairs = next(symmetric_transversals(A), None) if self.diagonal else None
        if pairs is not None or not self.diagonal:
            self.found = (A, pairs)
            self.stop_search()
        elif self.progress and self.squares % 100 == 0:
            self.progress({"squares": self.squares})


def search(n: int, sigma: list[int], diagonal: bool, time_s: float | None, seed: int = 0, progress=None):
    """(square, pairing or None, squares enumerated, complete, solver): the first idempotent
    self-orthogonal square with automorphism sigma (and, for a diagonal puzzle, a symmetric
    transversal); ``complete`` when every such square was enumerated."""
    m, x = self_orthogonal_model(n, sigma)
    solver = cp_model.CpSolver()
    prm = solver.parameters
    prm.enumerate_all_solutions = True
    prm.num_workers = 1
    prm.random_seed = seed
    if time_s is not None:
        prm.max_time_in_seconds = float(time_s)
    cb = _Squares(x, diagonal, progress)
    status = solver.solve(m, cb)
    complete = cb.found is None and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    A, pairs = cb.found if cb.found else (None, None)
    return A, pairs, cb.squares, complete, solver
