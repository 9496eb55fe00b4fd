"""docs/results/encodings.md: its tables and prose figures are the committed runs' (docs/runs/encodings.sqlite, the
main comparison, and docs/runs/encodings_em_7_4_8.sqlite, the minute a cell); each table is made here from the
cells and compared with the page's, so the page cannot say what its runs do not. Heule's boards are not shipped:
the runs keep the boards' names, results and Owen's estimates, not the boards."""

from __future__ import annotations

import json
import re
from collections import defaultdict

from helpers.run_tables import ROOT, copied, printed, query

RAW = (ROOT / "docs" / "results" / "encodings.md").read_text()
PAGE = " ".join(RAW.split())
RUN = "encodings.sqlite"
BACKENDS = ("cadical195", "kissat404", "glucose4")
ENCODINGS = (
    "heule-compact-pairwise",
    "heule-exp-pairwise",
    "heule-fbc-pairwise",
    "heule-all-pairwise",
    "heule-exp-aux",
    "direct",
    "primal-support",
)
LIMIT = 20.0


def cells(run: str = RUN, family: str = "heule-scrambled") -> list[dict]:
    q = (
        "SELECT i.name, r.options, r.status, r.build_s + r.search_s, r.engine_stats, r.conflicts, r.time_limit "
        "FROM results r JOIN instances i ON i.id = r.instance WHERE r.family = ?"
    )
    out = []
    for name, options, status, solve, stats, conflicts, limit in query(run, q, family):
        o = json.loads(options)
        out.append(
            {
                "board": name,
                "encoding": o["encoding"],
                "backend": o["backend"],
                "solved": status == "solved",
                "time": solve if status == "solved" else 2 * limit,
                "stats": json.loads(stats or "{}"),
                "conflicts": conflicts,
            }
        )
    return out


def par2(group: list[dict]) -> str:
    return f"{sum(c['solved'] for c in group)}/{len(group)}, {sum(c['time'] for c in group) / len(group):.1f} s"


def section(title: str) -> str:
    return RAW.split(f"## {title}")[1].split("\n## ")[0]


def table_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in ln.split("|")[1:-1]] for ln in text.splitlines() if ln.startswith("| ")][1:]


def solved_table() -> list[list[str]]:
    cs = cells()
    rows = []
    for e in ENCODINGS:
        mine = [c for c in cs if c["encoding"] == e]
        rows.append([f"`{e}`", *(par2([c for c in mine if c["backend"] == b]) for b in BACKENDS), par2(mine)])
    return rows


def hardness_table() -> list[list[str]]:
    by = defaultdict(list)
    for c in cells():
        by[c["board"]].append(c)
    rows = []
    for board in sorted(by, key=lambda b: [int(x) for x in re.findall(r"\d+", b)]):
        solved = [c for c in by[board] if c["solved"]]
        best = min(solved, key=lambda c: c["time"]) if solved else None
        rows.append(
            [
                board,
                f"{len(solved)}/{len(by[board])}",
                f"{best['encoding']} / {best['backend']}" if best else "none",
                f"{best['time']:.2f}" if best else "",
            ]
        )
    return rows


def scrambling_table() -> list[list[str]]:
    pub = [c for c in cells(family="heule-as-published") if c["backend"] == "cadical195"]
    scr = [c for c in cells() if c["backend"] == "cadical195"]
    return [
        [f"`{e}`", par2([c for c in pub if c["encoding"] == e]), par2([c for c in scr if c["encoding"] == e])]
        for e in ENCODINGS[:4]
    ]


def test_the_solved_table_is_the_runs():
    assert table_rows(section("Solved, scrambled")) == solved_table()


def test_the_boards_hardness_is_the_runs():
    assert table_rows(section("The boards' hardness")) == hardness_table()


def test_what_scrambling_does_is_the_runs():
    assert table_rows(section("What scrambling does")) == scrambling_table()


def test_the_sizes_are_what_the_solvers_were_given():
    """Each size on the page is the variables and clauses the run's solvers report for that board and encoding,
    wherever a cell reports them (a cell its time limit ended reports none)."""
    rows = table_rows(section("Sizes"))
    head = [c.strip(" `") for c in section("Sizes").split("| board |")[1].splitlines()[0].split("|")[:-1]]
    seen = 0
    for c in cells() + cells(family="heule-as-published"):
        if "vars" not in c["stats"] or c["encoding"] not in head:
            continue
        row = next(r for r in rows if r[0] == c["board"])
        size = row[1 + head.index(c["encoding"])]
        assert size == f"{c['stats']['vars']:,} / {c['stats']['clauses']:,}", (c["board"], c["encoding"])
        seen += 1
    assert seen >= 60


def test_owens_estimates_are_the_runs():
    est = dict(query(RUN, "SELECT DISTINCT name, estimate FROM instances"))
    for board in ("em_7_4_8", "em_7_4_9", "em_7_3_6"):
        mant, exp = f"{est[board]:.1e}".split("e")
        assert f"`{board}` expects {mant} x 10^{int(exp)}" in PAGE or f"{mant} x 10^{int(exp)}" in PAGE, board


def minute_table() -> list[list[str]]:
    q = "SELECT options, status, build_s + search_s, time_limit, engine_stats FROM results"
    rows = []
    for options, status, solve, limit, stats in query("encodings_em_7_4_8.sqlite", q):
        o, s = json.loads(options), json.loads(stats or "{}")
        counts = [f"{s[k]:,}" for k in ("conflicts", "decisions", "propagations") if k in s]
        if not counts:
            why = "(Kissat reports none)" if status == "solved" else "(the limit ended its child process)"
            counts = [why, "", ""]
        when = f"{solve:.1f}" if status == "solved" else f"> {limit:.0f}"
        rows.append((status != "solved", solve, [f"`{o['encoding']}`", o["backend"], when, *counts]))
    return [r for *_, r in sorted(rows, key=lambda r: (r[0], r[1] if not r[0] else 0, r[2]))]


def test_the_minute_table_is_its_runs():
    assert table_rows(section("`em_7_4_8`, scrambled, with a minute a cell")) == minute_table()


def _solved(encoding: str, family: str = "heule-scrambled", backend: str | None = None) -> int:
    return sum(
        c["solved"] for c in cells(family=family) if c["encoding"] == encoding and backend in (None, c["backend"])
    )


def test_the_prose_figures_are_the_runs():
    four = [_solved(f"heule-{v}-pairwise") for v in ("exp", "all", "compact", "fbc")]
    assert four[0] > four[1] > max(four[2:]) and four[2] == four[3]
    assert f"{four[0]}, {four[1]}, {four[2]} and {four[3]} solved of 24" in PAGE
    assert f"with the at-most-one, {four[0] + four[1]} of 48 cells; without, {four[2] + four[3]} of 48" in PAGE
    aux, direct, primal = _solved("heule-exp-aux"), _solved("direct"), _solved("primal-support")
    assert f"(`all` under `exp`: {four[1]} against {four[0]})" in PAGE
    assert f"solves nearly as many ({aux} against {four[0]})" in PAGE
    assert f"`direct` model ({direct} of 24)" in PAGE and f"({primal} of 24) is the weakest" in PAGE
    assert primal < min(aux, direct, *four[:2])
    hard = {r[0]: r[1] for r in hardness_table()}
    assert min(hard, key=lambda b: int(hard[b].split("/")[0])) == "em_7_4_8"
    assert max(hard, key=lambda b: int(hard[b].split("/")[0])) == "em_7_4_9"
    assert f"({hard['em_7_4_8'].split('/')[0]} configurations of 21)" in PAGE
    assert f"`em_14_7_3` (196 pieces) falls to {hard['em_14_7_3'].split('/')[0]}" in PAGE
    assert f"is the easiest ({hard['em_7_4_9'].replace('/', ' of ')})" in PAGE
    assert f"on the scrambled board {hard['em_7_4_8'].split('/')[0]} configurations of 21 succeed" in PAGE
    pub = sum(_solved(f"heule-{v}-pairwise", "heule-as-published") for v in ("compact", "exp", "fbc", "all"))
    scr = sum(_solved(f"heule-{v}-pairwise", backend="cadical195") for v in ("compact", "exp", "fbc", "all"))
    assert f"({pub} boards of 32 as published, {scr} scrambled" in PAGE


def test_the_compare_lines_are_what_the_command_prints():
    pairs = re.findall(r'eternity compare docs/runs/encodings.sqlite "([^"]+)" "([^"]+)"\n```\n\n> ([^\n]+)', RAW)
    assert len(pairs) == 2
    with copied(RUN) as copy:
        for a, b, line in pairs:
            assert printed("compare", str(copy), a, b).strip().splitlines()[-1] == line


def test_the_minute_prose_is_its_run():
    rows = minute_table()
    solved = [r for r in rows if not r[2].startswith(">")]
    assert {r[0] for r in solved} <= {"`heule-exp-pairwise`", "`heule-all-pairwise`"}
    assert sum(r[0] == "`heule-exp-pairwise`" for r in solved) == 3
    assert sum(r[0] == "`heule-all-pairwise`" for r in solved) == 2
    glucose = sorted(r[3] for r in solved if r[1] == "glucose4")
    assert f"the same {glucose[0]} and {glucose[1]} conflicts" in PAGE
    cadical = next(r for r in solved if r[1] == "cadical195")
    assert f"CaDiCaL's `exp` answer ({cadical[3]} conflicts)" in PAGE


def _counting() -> dict[str, dict[str, tuple]]:
    q = (
        "SELECT i.name, r.config, r.status, r.build_s + r.search_s, r.count "
        "FROM results r JOIN instances i ON i.id = r.instance"
    )
    by: dict[str, dict[str, tuple]] = defaultdict(dict)
    for name, config, status, t, count in query("counters_encodings.sqlite", q):
        by[name][config] = (status, t, count)
    return by


def name_of(config: str) -> str:
    return re.search(r"encoding=([\w-]+)", config).group(1)


def counting_figures() -> dict[str, str]:
    import math
    import statistics

    by = _counting()
    ganak = sorted({c for cells in by.values() for c in cells if c.startswith("ganak")})
    solved = [(n, c) for n, cells in by.items() for c, v in cells.items() if v[0] == "solved"]
    assert all(len({v[2] for v in cells.values() if v[0] == "solved"}) == 1 for cells in by.values())
    full = [n for n, cells in by.items() if all(cells[c][0] == "solved" for c in ganak)]

    def geo(c):
        return math.exp(statistics.mean(math.log(by[n][c][1]) for n in full))

    order = sorted(ganak, key=geo)
    assert name_of(order[0]) == "direct"
    assert geo("ganak[encoding=primal-support]/count") < geo("ganak[encoding=primal-conflict]/count")
    assert geo("ganak[encoding=xcc-colour-vars]/count") < geo("ganak[encoding=xcc]/count")
    name = {c: re.search(r"encoding=([\w-]+)", c).group(1) for c in ganak}
    ratio = [min(by[n][c][1] for c in ganak) / by[n]["native"][1] for n in full]
    five = sorted(n for n in by if n.startswith("edge-5x5-f3-i3"))
    assert all(by[n][c][0] == "limit" for n in five for c in ganak)
    return {
        "COUNTS_AGREE": f"{len(solved)} counts of {len(by)} boards, each board's the same",
        "GEO_BOARDS": str(len(full)),
        "GEO_RANKING": ", ".join(f"`{name[c]}` {geo(c):.2f} s" for c in order)
        + f", against {geo('native'):.4f} s for the native count and {geo('diagram'):.4f} s for the diagram",
        "MERGE_GAIN": f"{geo('ganak[encoding=direct-distinct]/count') / geo('ganak[encoding=direct]/count'):.1f}",
        "BEST_RANGE": f"{min(ratio):.0f}x to {max(ratio):,.0f}x",
        "FIVE_COUNTS": " and ".join(f"{by[n]['native'][2]:,}" for n in five),
        "FIVE_NATIVE": " and ".join(f"{by[n]['native'][1]:.3f}" for n in five),
    }


def test_the_counting_section_is_its_run():
    text = " ".join(section("Counting, by encoding").split())
    for key, value in counting_figures().items():
        assert key not in text, key
        assert value in text, (key, value)
