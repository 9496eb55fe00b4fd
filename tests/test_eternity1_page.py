"""docs/results/eternity1.md: the figures that do not depend on the machine (the pieces' sequences, the trees of
exhausts and of searches to a first tiling) are held to the commands that make them; the timed figures are
dated one-offs, which the page says."""

from __future__ import annotations

import re

import pytest
from helpers.run_tables import ROOT, printed, words

RAW = (ROOT / "docs" / "results" / "eternity1.md").read_text()
PAGE = words(RAW)


def _search(puzzle: str, *opts: str, mode: str = "first") -> tuple[int, int | None]:
    argv = ["solve", puzzle, "--solver", "backtrack", "--mode", mode]
    for o in opts:
        argv += ["--opt", o]
    out = printed(*argv)
    count = re.search(r"count (\d+)", out)
    return int(re.search(r"nodes (\d+)", out).group(1)), int(count.group(1)) if count else None


def _table(title: str) -> list[list[str]]:
    """The first table after a heading: its body rows, split into cells."""
    lines = RAW.split(title)[1].splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("|"))
    block = []
    for ln in lines[start:]:
        if not ln.startswith("|"):
            break
        block.append([c.strip() for c in ln.split("|")[1:-1]])
    return block[2:]


def test_the_pieces_sequences_are_the_enumerations():
    out = printed("enumerate", "drafter", "--size", "8", "--dudes")
    listed = {int(r[0]): r[1:] for r in (ln.split() for ln in out.splitlines()) if r and r[0].isdigit()}
    rows = {int(r[0]): r for r in _table("## The pieces: polydrafters and polydudes")}
    for n in range(2, 9):
        drafters, seed, dudes, dseed = listed[n]
        row = rows[n]
        assert (row[1], row[2], row[5], row[6]) == tuple(f"{int(x):,}" for x in (drafters, seed, dudes, dseed)), n
    everything = int(re.search(r"(\d+) free drafter polyforms of size 8", out).group(1))
    assert rows[8][3] == f"{everything:,}"


def test_the_tortoise_trees():
    rows = {(r[2], r[1]): r for r in _table("## Engine speed") if r[0] == "eternity1-tortoise"}
    for engine, opts in (("dlx", ()), ("poly", ("engine=poly",))):
        nodes, count = _search("eternity1-tortoise", *opts, mode="count")
        assert count == 2 and rows[(engine, "count (exhaust)")][4] == f"{nodes:,}", engine
    recon = {r[1]: r for r in _table("## Selby's reconnoitre") if r[0] == "eternity1-tortoise exhaust"}
    for depth in ("0", "1", "2"):
        nodes, count = _search("eternity1-tortoise", "engine=poly", f"reconnoitre={depth}", mode="count")
        assert recon[depth][3] == f"{nodes:,}" and recon[depth][7] == str(count), depth


@pytest.mark.slow
def test_the_boomerang_trees():
    nodes, _ = _search("eternity1-boomerang", "engine=poly")
    assert f"(66 pieces): **solved in 16.9 s** of search ({nodes:,} nodes" in PAGE
    recon = {r[1]: r for r in _table("## Selby's reconnoitre") if r[0] == "eternity1-boomerang first tiling"}
    assert recon["0"][3] == f"{nodes:,}"
    for depth in ("1", "2"):
        assert recon[depth][3] == f"{_search('eternity1-boomerang', 'engine=poly', f'reconnoitre={depth}')[0]:,}"
    nodes, count = _search("eternity1-boomerang", "engine=poly", mode="count")
    assert count == 2 and f"whose exhaust fits in 18 s ({nodes:,} nodes)" in PAGE


def test_the_timed_figures_are_dated():
    assert "The rest are one-off measurements" in PAGE and "tests/test_eternity1_page.py" in PAGE
