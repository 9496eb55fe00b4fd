"""The 3 x 3 x 3 rooks of seed 003 as a CP-SAT model: 27 whole numbers 0..R, each of the 27 lines summing
to R, every solution enumerated.  An independent count beside the hand-written one
(``baseline.checkerboard.rooks3d``), which pairs up the layers instead."""

from __future__ import annotations


def count(r: int, time_s: float = 600.0) -> int | None:
    """Every placement of 3R rooks with R on each row, column and tube, enumerated by CP-SAT; None when the
    enumeration does not finish in ``time_s``."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = {(i, j, k): m.new_int_var(0, r, f"x{i}{j}{k}") for i in range(3) for j in range(3) for k in range(3)}
    for a in range(3):
        for b in range(3):
            m.add(sum(x[a, b, k] for k in range(3)) == r)
            m.add(sum(x[a, k, b] for k in range(3)) == r)
            m.add(sum(x[k, a, b] for k in range(3)) == r)

    class Tally(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def on_solution_callback(self) -> None:
            self.n += 1

    s = cp_model.CpSolver()
    s.parameters.enumerate_all_solutions = True
    s.parameters.num_workers = 1
    s.parameters.max_time_in_seconds = time_s
    t = Tally()
    status = s.solve(m, t)
    return t.n if status == cp_model.OPTIMAL else None
