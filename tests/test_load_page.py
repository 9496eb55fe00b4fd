"""docs/results/load.md's figures, held to the two committed runs they come from and to `eternity compare`."""

import re
import sqlite3
from pathlib import Path

from eternity.cli import main

ROOT = Path(__file__).resolve().parent.parent
RUNS = {name: ROOT / "docs" / "runs" / f"load_{name}.sqlite" for name in ("light", "busy")}
PAGE = (ROOT / "docs" / "results" / "load.md").read_text()
PAIR = ["cadical195,encoding=direct", "cadical195,encoding=primal-support", "--clock", "cpu"]


def _cells(db: Path) -> dict:
    con = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        q = "SELECT instance, config, status, conflicts, cpu_s, wall_s FROM results"
        return {(i, c): rest for i, c, *rest in con.execute(q)}
    finally:
        con.close()


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_two_runs_give_the_same_answers_and_the_same_conflicts_as_the_page_says():
    light, busy = _cells(RUNS["light"]), _cells(RUNS["busy"])
    assert light.keys() == busy.keys() and len(light) == 24
    assert all(light[k][0] == busy[k][0] for k in light)
    solved = sorted((k for k in light if light[k][0] == "solved"), key=lambda k: -light[k][1])
    assert len(solved) == 4 and all(light[k][1] == busy[k][1] for k in solved)
    page = _words(PAGE)
    for k in solved:
        assert f"{light[k][1]:,}" in page
        assert f"{light[k][2]:.2f}" in page and f"{busy[k][2]:.2f}" in page  # CPU seconds, light and busy
    walls = re.search(r"took ([\d.]+) s of wall time light and ([\d.]+) s busy", page).groups()
    assert any(walls == (f"{light[k][3]:.2f}", f"{busy[k][3]:.2f}") for k in solved)


def test_the_compare_lines_on_the_page_are_what_the_command_prints(capsys):
    page = _words(PAGE)
    for name in ("light", "busy"):
        assert main(["compare", str(RUNS[name]), *PAIR]) == 0
        line = capsys.readouterr().out.strip().splitlines()[-1]
        speedup = re.search(r"is (\d+\.\d+)x as fast", line).group(1)
        lo, hi = re.search(r"95% CI (\d+\.\d+)-(\d+\.\d+)", line).groups()
        p = re.search(r"p = ([\d.]+)", line).group(1)
        assert f"{speedup}x" in page and f"{lo}-{hi}" in page and f"p = {p}" in page, line
