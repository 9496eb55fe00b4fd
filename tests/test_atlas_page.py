"""docs/results/atlas.md: every figure in its prose is held to the committed run it comes from, through
the tables `eternity table` prints from it (the page's markers) or a query of the same cells."""

from __future__ import annotations

import functools
import json
from collections import defaultdict

import pytest
from helpers import run_tables
from helpers.run_tables import agrees, median, page, query, row, sci, table

PAGE = page("atlas.md")
COMPLETE = ("cpsat", "sat", "cube", "choco")  # the CP/SAT side of the phase-transition run


said = functools.partial(run_tables.said, PAGE)


def fnum(cell: str) -> float:
    return float(cell.replace(",", ""))


def points(run: str, axis: str, config: str) -> dict[tuple[str, object], list[tuple[str, int | None]]]:
    """Each (family, axis value)'s cells of one configuration: (status, nodes)."""
    out = defaultdict(list)
    q = "SELECT r.family, i.params, r.status, r.nodes FROM results r JOIN instances i ON i.id = r.instance WHERE config = ?"
    for family, params, status, nodes in query(run, q, config):
        out[(family, json.loads(params)[axis])].append((status, nodes))
    return out


@pytest.fixture(scope="module")
def phase():
    return table("atlas.sqlite", "--by", "inner_colors")


def test_the_runs_size():
    cells, hours = query("atlas.sqlite", "SELECT COUNT(*), SUM(wall_s) / 3600 FROM results")[0]
    said(f"{cells:,} cells, {hours:.1f} core-hours")
    cells, hours = query("atlas_poly.sqlite", "SELECT COUNT(*), SUM(wall_s) / 3600 FROM results")[0]
    said(f"{cells} cells, {hours:.2f} core-hours")


def test_the_native_search_wins_every_point_but_the_two_named(phase):
    best = {}
    for r in phase:
        if r["solver"] == "virtual best":
            continue
        key = (r["family"], r["inner_colors"])
        score = (-int(r["solved"]), fnum(r["par2_solve_s"]))
        if key not in best or score < best[key][0]:
            best[key] = (score, r["solver"])
    lost = {k: s for k, (score, s) in best.items() if s != "native" or score[0] == 0}
    assert lost == {("atlas-6x6", "3"): "sat", ("atlas-8x8", "8"): lost[("atlas-8x8", "8")]}
    assert all(int(r["solved"]) == 0 for r in phase if r["family"] == "atlas-8x8" and r["inner_colors"] == "8")
    said("The native search wins every point but two", "at 6x6 with 3 inner colours CaDiCaL wins on PAR-2")
    nodes = [n for _, n in points("atlas.sqlite", "inner_colors", "native")[("atlas-6x6", 3)]]
    assert sorted(nodes)[-1] >= 10_000_000 > sorted(nodes)[-2]
    said("one of the six boards took the restarting backtracker 10 M placements")


def test_the_peaks_and_their_placements():
    peaks = table("atlas.sqlite", "--peaks")
    for board, colours, off in (("7x7", 7, "0.6"), ("8x8", 8, "1.15")):
        r = row(peaks, board=board, solver="native")
        assert r["peak"] == str(colours) and r["peak_by_nodes"] == str(colours), r
        assert agrees(off, -fnum(r["off_by"]))
        said(f"at {colours} on {board}" if board == "8x8" else f"at {colours} inner colours on {board}")
        said(f"critical {r['critical']}: {off} ")
    native = points("atlas.sqlite", "inner_colors", "native")
    m = {k: median(n for _, n in v) for k, v in native.items()}
    said(
        f"{sci(m[('atlas-7x7', 7)])} placements against {sci(m[('atlas-7x7', 6)])} at 6 and "
        f"{sci(m[('atlas-7x7', 8)])} at 8"
    )
    solved = {k: sum(s == "solved" for s, _ in v) for k, v in native.items()}
    said(
        f"({solved[('atlas-8x8', 8)]}/5 and {solved[('atlas-8x8', 9)]}/5 boards answered, "
        f"{sci(m[('atlas-8x8', 8)])} and {sci(m[('atlas-8x8', 9)])} placements)"
    )
    assert [row(peaks, board=b, solver="native")["peak_by_nodes"] for b in ("5x5", "6x6")] == ["4", "3"]
    said("(peak at 4 and 3 colours by placements)")


def test_the_cp_sat_wall(phase):
    def solved(family, colours, solver):
        return int(row(phase, family=family, inner_colors=colours, solver=solver)["solved"])

    assert all(solved("atlas-7x7", c, s) == 0 for c in (6, 7) for s in COMPLETE)
    assert max(solved("atlas-7x7", 8, s) for s in COMPLETE) == 1
    native = [
        fnum(row(phase, family="atlas-7x7", inner_colors=c, solver="native")["median_solve_s"]) for c in (6, 7, 8)
    ]
    said(f"median of {min(native):.2f}-{max(native):.1f} s")
    r = row(phase, family="atlas-7x7", inner_colors=9, solver="cpsat")
    said(f"CP-SAT {r['solved']}/5, median {fnum(r['median_solve_s']):.1f} s")
    answering = sorted(
        {
            int(r["inner_colors"])
            for r in phase
            if r["family"] == "atlas-8x8" and r["solver"] in COMPLETE and int(r["solved"])
        }
    )
    assert answering == [6, 12, 13] and solved("atlas-8x8", 6, "choco") == 1
    said("on 8x8 only at 12-13 colours (and Choco on one board at 6)")
    beam = row(phase, family="atlas-8x8", inner_colors=6, solver="beam")
    said(f"(8x8 with 6 colours: {beam['solved']}/5, {fnum(beam['median_solve_s']):.1f} s)")


def test_the_longer_peak_run():
    cells = points("atlas_peak.sqlite", "inner_colors", "native")
    eight, nine = cells[("atlas-8x8", 8)], cells[("atlas-8x8", 9)]
    nodes = [n for _, n in eight]
    assert all(s == "limit" for s, _ in eight)
    said(
        f"0 of 5 boards in 120 s, {min(nodes) / 1e9:.1f}-{sci(max(nodes))} placements each; 9 colours: "
        f"{sum(s == 'solved' for s, _ in nine)} of 5"
    )


def test_the_clue_density():
    t = table("atlas_clues.sqlite", "--by", "clues")

    def r(size, clues, solver):
        return row(t, family=f"clues-{size}", clues=clues, solver=solver)

    assert all(int(r("10x10", c, s)["solved"]) == 0 for c in (0, 0.05) for s in (*COMPLETE, "native", "beam"))
    assert [int(r("8x8", 0, s)["solved"]) for s in ("native", *COMPLETE, "beam")] == [1, 0, 0, 0, 0, 0]
    five = r("8x8", 0.05, "native")
    said(f"with 5% it solves all three (median {fnum(five['median_solve_s']):.1f} s)")
    two = [fnum(r("8x8", 0.05, s)["median_solve_s"]) for s in ("cpsat", "sat", "choco")]
    assert [int(r("8x8", 0.05, s)["solved"]) for s in ("cpsat", "sat", "choco", "cube")] == [2, 2, 2, 1]
    said(f"solve two ({min(two):.0f}-{max(two):.0f} s) and cube-and-conquer one")
    ten = [fnum(r(size, 0.1, s)["median_solve_s"]) for size in ("8x8", "10x10") for s in COMPLETE]
    said(f"solve all of them in {min(ten):.1f}-{max(ten):.1f} s (median)")
    nat = [fnum(r(size, 0.1, "native")["median_solve_s"]) for size in ("8x8", "10x10")]
    said(f"still the fastest there ({min(nat):.2f}-{max(nat):.2f} s median)")
    assert sum(int(r(size, 0.1, "beam")["solved"]) for size in ("8x8", "10x10")) == 1  # of 5 boards
    said(f"(the {fnum(r('10x10', 0.2, 'native')['median_solve_s']):.1f}-s median at 20% on 10x10)")
    lowest, clue_points = [], 0
    for size in ("8x8", "10x10"):
        for c in (0.05, 0.1, 0.2, 0.3, 0.4):
            rows = [
                x
                for x in t
                if x["family"] == f"clues-{size}" and x["clues"] == str(c) and x["solver"] != "virtual best"
            ]
            if not any(int(x["solved"]) for x in rows):
                continue
            clue_points += 1
            best = min(rows, key=lambda x: (-int(x["solved"]), fnum(x["median_solve_s"].replace("> ", ""))))
            lowest.append((size, c, best["solver"]))
    wins = [p for p in lowest if p[2] == "native"]
    assert (clue_points, len(wins)) == (9, 8) and [p for p in lowest if p[2] != "native"] == [("10x10", 0.2, "beam")]
    said(f"the native search has the lowest median at {len(wins)} of the 10 points with clues")
    assert fnum(r("8x8", 0.4, "native")["par2_solve_s"]) > fnum(r("8x8", 0.4, "beam")["par2_solve_s"])


def test_the_proofs_of_no_solution():
    t = table("atlas_unsat.sqlite", "--by", "inner_colors")
    runs = [x for x in t if x["solver"] != "virtual best"]

    def med(x):
        return fnum(x["median_solve_s"])

    native6 = [med(x) for x in runs if x["family"] == "unsat-6x6" and x["solver"] == "native/count"]
    native7 = [med(x) for x in runs if x["family"] == "unsat-7x7" and x["solver"] == "native/count"]
    assert all(x["solved"] == x["cells"] for x in runs if x["solver"] == "native/count")
    said(
        f"6x6 in {min(native6) * 1000:.0f}-{max(native6) * 1000:.0f} ms (medians) and 7x7 in "
        f"{min(native7):.2f}-{max(native7):.1f} s"
    )
    six = [x for x in runs if x["family"] == "unsat-6x6" and x["solver"] != "native/count"]
    assert all(x["solved"] == x["cells"] for x in six)
    ratio = [
        med(x) / med(row(runs, family=x["family"], inner_colors=x["inner_colors"], solver="native/count")) for x in six
    ]
    said(
        f"(medians {min(map(med, six)):.2f}-{max(map(med, six)):.1f} s: {min(ratio):.0f}-{max(ratio):.0f}x the native search)"
    )
    seven = [x for x in runs if x["family"] == "unsat-7x7" and x["solver"] != "native/count"]
    assert all(int(x["solved"]) == 0 for x in seven if x["inner_colors"] in ("7", "8", "9"))
    late = [x for x in seven if x["inner_colors"] in ("10", "11")]
    assert all(x["solved"] == x["cells"] for x in late)
    fast = [med(x) for x in late if x["solver"] in ("cpsat/count", "sat/count", "cube/count")]
    choco = [med(x) for x in late if x["solver"] == "choco/count"]
    said(f"prove them in {min(fast):.1f}-{max(fast):.1f} s, Choco in {min(choco):.1f}-{max(choco):.0f} s")
    evidence = dict(
        query("atlas_unsat.sqlite", "SELECT evidence, COUNT(*) FROM results WHERE status = 'unsatisfiable' GROUP BY 1")
    )
    exhausted, certified = evidence.pop("exhaustion"), evidence.pop("certificate")
    claimed = sum(n for e, n in evidence.items() if e.startswith("claimed by"))
    assert not set(evidence) - {e for e in evidence if e.startswith("claimed by")}
    said(
        f'Of the {exhausted + certified + claimed} "unsatisfiable" answers of this run, **{exhausted} are exhaustions**',
        f"**{certified} carry a checked DRAT certificate** and **{claimed} are claims**",
    )
    per = query("atlas_unsat.sqlite", "SELECT config, COUNT(*) FROM results WHERE evidence = 'certificate' GROUP BY 1")
    assert {n for _, n in per} == {19} and len(per) == 3
    said("19 of 19 each")


def test_count_mode():
    counts = query("atlas_count.sqlite", "SELECT instance, config, status, count FROM results")
    assert all(s == "solved" for _, _, s, _ in counts)
    by = defaultdict(set)
    for inst, _, _, c in counts:
        by[inst].add(c)
    assert all(len(c) == 1 for c in by.values())  # every count agrees
    n = [c for (c,) in by.values()]
    said(f"{min(n)} to {max(n):,} solutions a board")
    t = [x for x in table("atlas_count.sqlite", "--by", "inner_colors") if x["solver"] != "virtual best"]
    ratio = [
        fnum(x["median_solve_s"])
        / fnum(row(t, family=x["family"], inner_colors=x["inner_colors"], solver="native/count")["median_solve_s"])
        for x in t
        if x["solver"] != "native/count"
    ]
    said(f"The native count is {min(ratio):.1f}x to {max(ratio):.0f}x faster than the CP/SAT enumerations")


def test_the_polyform_sweep():
    t = table("atlas_poly.sqlite", "--by", "pieces")
    q = "SELECT i.params, r.config, r.nodes FROM results r JOIN instances i ON i.id = r.instance WHERE r.family = ?"
    nodes = defaultdict(list)
    for params, config, n in query("atlas_poly.sqlite", q, "hexominoes"):
        nodes[(json.loads(params)["pieces"], config)].append(n)

    def mean(k, config="poly"):
        v = nodes[(k, config)]
        return sum(v) / len(v)

    said(
        f"mean placements to a first tiling are {mean(12):,.0f} at 12 pieces, {mean(15):,.0f} at 15 and {mean(18):,.0f} at 18",
        f"and then {', '.join(f'{mean(k):,.0f}' for k in (21, 24, 27))} and {mean(30):,.0f} at 21, 24, 27 and 30",
    )
    exhaust = [x for x in t if x["family"] == "hexominoes" and x["solver"] == "poly-exhaust"]
    assert [int(x["solved"]) for x in exhaust if int(x["pieces"]) >= 18] == [0] * 5
    said(
        f"its exhaust takes {mean(12, 'poly-exhaust'):,.0f} placements at 12, {mean(15, 'poly-exhaust') / 1e6:.1f} million at 15"
    )
    peaks = table("atlas_poly.sqlite", "--peaks")
    hexa, pent = row(peaks, family="hexominoes", solver="poly"), row(peaks, family="pentominoes", solver="poly")
    assert (hexa["peak"], hexa["peak_by_nodes"], pent["peak"], pent["peak_by_nodes"]) == ("30", "30", "8", "11")
    poly = {
        int(x["pieces"]): fnum(x["median_solve_s"]) for x in t if x["family"] == "hexominoes" and x["solver"] == "poly"
    }
    said(
        f"climbs to {poly[18]} s at 18 (c + {18 - fnum(hexa['critical']):.1f}), falls to {poly[21]} s at 21",
        f"({hexa['peak_median_solve_s']} s, c + {hexa['off_by']})",
        f"peaks at 8 by time (c + {fnum(pent['off_by']):.1f})",
    )
    worst = query("atlas_poly.sqlite", "SELECT MAX(build_s + search_s) FROM results WHERE config = 'poly'")[0][0]
    medians = [fnum(x["median_solve_s"]) for x in t if x["solver"] == "poly"]
    assert all(x["solved"] == x["cells"] for x in t if x["solver"] == "poly")
    said(f"in {max(medians):.1f} s or less by median ({worst:.1f} s at most)")
    beam = {int(x["pieces"]): x for x in t if x["family"] == "hexominoes" and x["solver"] == "beam/first"}
    assert all(x["solved"] == x["cells"] for k, x in beam.items() if k <= 18)
    assert [beam[k]["solved"] for k in (21, 24, 27, 30)] == ["3", "1", "0", "0"]
    said(
        f"(median {fnum(beam[18]['median_solve_s']):.1f} s at 18), three of four at 21, one at 24 and none at 27 and 30"
    )
    cp = {
        int(x["pieces"]): int(x["solved"])
        for x in t
        if x["family"] == "hexominoes" and x["solver"] == "cpsat[workers=1]/first"
    }
    sat = {int(x["pieces"]): int(x["solved"]) for x in t if x["family"] == "hexominoes" and x["solver"] == "sat/first"}
    assert (cp[27], cp[30], sat[15], sat[18]) == (1, 0, 2, 2) and max(v for k, v in sat.items() if k >= 21) == 1
    said("(CP-SAT: one of four at 27, none at 30; CaDiCaL two of four at 15 and 18, at most one from 21 on)")
