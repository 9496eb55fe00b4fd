"""docs/results/peak.md: the figures that come from its committed runs (peak.sqlite, kernel.sqlite,
scratch.sqlite) are held to them, the hand-set tables row by row; what no run stores is dated as a one-off."""

from __future__ import annotations

import functools
import re
from collections import defaultdict

from helpers import run_tables
from helpers.run_tables import ROOT, median, page, query, sci

PAGE = page("peak.md")
RAW = (ROOT / "docs" / "results" / "peak.md").read_text()


said = functools.partial(run_tables.said, PAGE)


def solved_walls(run: str, family: str = "edge-7x7-3-7") -> dict[str, list[float]]:
    """Each configuration's wall seconds on the boards of a family it solved, fastest first."""
    out = defaultdict(list)
    q = "SELECT config, wall_s FROM results WHERE status = 'solved' AND family = ? ORDER BY wall_s"
    for config, wall in query(run, q, family):
        out[config].append(wall)
    return out


def solve_clock(run: str, family: str, config: str) -> tuple[int, list[float]]:
    """A configuration's cells of a family and its solve-clock seconds (build and search) on those it solved."""
    q = "SELECT status, build_s + search_s FROM results WHERE family = ? AND config = ?"
    cells = query(run, q, family, config)
    return len(cells), sorted(s for st, s in cells if st == "solved")


def configs(run: str) -> set[str]:
    return {c for (c,) in query(run, "SELECT DISTINCT config FROM results")}


# the rotations-broken table's rows, in the page's order, and the run's label of each
SYMMETRY_ROWS = [
    "cpsat[sym]",
    "cadical[sym]",
    "cadical-sat[sym]",
    "cryptominisat[sym]",
    "cpsat[sym,workers=8]",
    "portfolio[cpsat+cadical,sym]",
    "kissat[sym]",
    "kissat-sat[sym]",
    "kissat-seed2[sym]",
    "kissat[sym,redundant]",
    "portfolio[kissat+cadical,sym]",
]


def test_the_rotations_table_is_the_runs_row_by_row():
    section = RAW.split("### The board's rotations broken")[1].split("\n\n(The rows")[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("| `") or ln.startswith("| `portfolio`")]
    assert len(rows) == len(SYMMETRY_ROWS)
    walls = solved_walls("peak.sqlite")
    for line, label in zip(rows, SYMMETRY_ROWS, strict=True):
        _, solved, times = (c.strip() for c in line.split("|")[1:-1])
        assert solved == f"{len(walls[label])}/10", (label, solved)
        assert sorted(float(t) for t in re.findall(r"(\d+\.\d) s", times)) == [round(w, 1) for w in walls[label]], label


def test_the_engines_at_the_peak():
    walls = solved_walls("peak.sqlite")
    n, backtrack = solve_clock("peak.sqlite", "edge-7x7-3-7", "edge-backtrack[luby]")
    assert n == len(backtrack) == 10
    said(f"solves all 10 with a median of {median(backtrack):.1f} s")
    assert len(walls["cpsat[workers=2]/first"]) == len(walls["external[cmd=cadical]/first"]) == 2
    cpmpy = {b: len(walls[f"cpmpy[backend={b}]/first"]) for b in ("ortools", "pumpkin", "exact", "choco")}
    assert cpmpy == {"ortools": 0, "pumpkin": 0, "exact": 0, "choco": 1} and len(walls["minizinc/first"]) == 1
    said("OR-Tools, Pumpkin and Exact none, Choco 1; MiniZinc with Gecode 1")
    cp_sat = configs("peak.sqlite") - {"edge-backtrack[luby]"}
    boards = {
        i
        for (i,) in query(
            "peak.sqlite",
            "SELECT DISTINCT instance FROM results WHERE status = 'solved' AND config != 'edge-backtrack[luby]'",
        )
    }
    most = max(len(walls[c]) for c in cp_sat)
    said(f"Across the {len(cp_sat)} CP/SAT configurations", f"{len(boards)} of the 10 boards have been solved by")
    said(f"No configuration solves more than {most} in one run")
    by = {
        (c, i): w
        for c, i, w in query("peak.sqlite", "SELECT config, instance, wall_s FROM results WHERE status = 'solved'")
    }
    both = [i for (c, i) in by if c == "cadical[sym]" and ("external[cmd=cadical]/first", i) in by]
    assert len(both) == 1
    said(f"{by[('external[cmd=cadical]/first', both[0])]:.1f} s before, {by[('cadical[sym]', both[0])]:.1f} s after")
    kissat = [(by[("edge-backtrack[luby]", i)], w) for (c, i), w in by.items() if c == "kissat[sym]"]
    slowest = sorted(kissat, key=lambda p: -p[1])[:2]
    ratios = sorted(k / b for b, k in slowest)
    said(
        f"{ratios[0]:.0f}x-{ratios[1]:.0f}x faster ("
        + ", ".join(f"{b:.1f} s against {k:.1f} s" for b, k in sorted(slowest, key=lambda p: p[1]))
        + ")"
    )


def test_the_generated_kernel_against_the_tables():
    cells = defaultdict(dict)
    for config, inst, status, nodes in query("kernel.sqlite", "SELECT config, instance, status, nodes FROM results"):
        cells[inst][config] = (status, nodes)
    gen, tab = "edge-backtrack[luby]", "edge-backtrack[luby,tables]"
    unsolved = [c for c in cells.values() if c[gen][0] == c[tab][0] == "limit"]
    g = [c[gen][1] for c in unsolved]
    t = [c[tab][1] for c in unsolved]
    ratio = median(a / b for a, b in zip(g, t, strict=True))
    said(
        f"about {ratio:.1f}x the placements in a restarting search ({min(g) / 1e9:.1f}-{sci(max(g))} against "
        f"{min(t) / 1e9:.1f}-{sci(max(t))} in 60 s on the boards neither solves"
    )

    def solved(config):
        return sum(c[config][0] == "solved" for c in cells.values())

    assert (solved("portfolio[2x edge-backtrack luby]"), solved(gen)) == (5, 4)
    assert solved("portfolio[2x edge-backtrack luby,tables]") == solved(tab) == 1
    said("solves 5 of 10 in the portfolio and 4 of 10 alone", "solves 1 of 10 either way in this run")


def test_the_scratch_runs():
    rows = dict(
        (c, (s, n, w)) for c, s, n, w in query("scratch.sqlite", "SELECT config, status, nodes, wall_s FROM results")
    )
    one, seven = rows["portfolio[seeds 1,2]"], rows["portfolio[seeds 7,8]"]
    assert one[0] == seven[0] == "solved" and {
        rows[k][0] for k in ("portfolio[seeds 3,4]", "portfolio[seeds 5,6]")
    } == {"limit"}
    said(
        f"seeds 1 and 2 in {one[2]:.0f} s (the seed-1 member, after {sci(one[1], 2)} placements",
        f"seeds 7 and 8 in {seven[2]:.0f} s (the seed-8 member, {sci(seven[1], 2)} placements)",
    )


def test_the_current_figures_are_the_runs():
    section = RAW.split("## The current figures")[1].split("```sh")[0]
    rows = {
        c[0]: c
        for c in ([x.strip() for x in ln.split("|")[1:-1]] for ln in section.splitlines() if ln.startswith("| edge-"))
    }
    for family, run, label in (
        ("edge-7x7-3-7", "peak.sqlite", "edge-backtrack[luby]"),
        ("edge-8x8-3-8", "peak.sqlite", "edge-backtrack[luby]"),
        ("edge-8x8-3-9", "kernel.sqlite", "portfolio[2x edge-backtrack luby]"),
    ):
        n, solved = solve_clock(run, family, label)
        day = query(run, "SELECT MAX(finished_at) FROM results WHERE family = ? AND config = ?", family, label)[0][0]
        want = [f"{len(solved)}/{n}", f"{median(solved):.1f} s", f"`docs/runs/{run}`, {day[:10]}"]
        assert rows[family][2:] == want, family
    unsolved = [
        n
        for (n,) in query("peak.sqlite", "SELECT nodes FROM results WHERE family = 'edge-8x8-3-8' AND status = 'limit'")
    ]
    said(f"after {min(unsolved) / 1e9:.1f}-{sci(max(unsolved))} placements on each board it does not solve")
    cp = solved_walls("peak.sqlite")["cpsat[workers=2]/first"]
    said(f"CP-SAT (2 workers) 2/10 on 7x7 ({cp[0]:.1f} s and {cp[1]:.1f} s, in `docs/runs/peak.sqlite`)")
