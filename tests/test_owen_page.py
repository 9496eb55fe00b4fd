"""docs/results/owen.md's figures, each printed by the `eternity estimate` command the page names: the
seed's table, the orders' expected trees and the claims drawn from them."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = " ".join((ROOT / "docs" / "results" / "owen.md").read_text().split())
SLIPS = ["--slips", ",".join(["192"] * 10)]
ORDERS = ("rowscan", "rowscan-up", "colscan", "rows-cols-4", "spiral", "frame-first")


@cache
def estimate(*argv: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "eternity", "estimate", *argv, "--json"], capture_output=True, text=True, check=True,
        cwd=ROOT,
    ).stdout  # fmt: skip
    return json.loads(out)


def sci(log10: float, digits: int) -> str:
    """10^log10 as the page prints it: 'm x 10^e' with ``digits`` digits after the point."""
    e = math.floor(log10)
    m = 10 ** (log10 - e)
    if round(m, digits) >= 10:
        m, e = m / 10, e + 1
    return f"{m:.{digits}f} x 10^{e}"


def test_the_seeds_table():
    a = estimate("owen-a")
    assert f"{a['expected_solutions']:.2f} expected; 160 counted" in PAGE
    b = estimate("eternity2-clue1")
    s = b["symmetry"]
    assert (
        f"{sci(b['log10_expected_solutions'], 5)}; board {s['board']} x symmetric pieces {s['symmetric_pieces']}"
        in PAGE
    )
    assert f"identical pieces {s['identical_pieces']} = {s['total']:,}" in PAGE
    e2 = estimate("eternity2")
    assert f"| {e2['expected_solutions']:,.1f} |" in PAGE
    assert f"{sci(e2['log10_configurations'], 3)} (4! 56! 195! 4^195" in PAGE
    naive = e2["naive"]
    assert f"{10 ** naive['log10_expected_solutions']:.4f} solutions" in PAGE
    slips = estimate("eternity2", "--order", "rowscan-up", *SLIPS)
    assert f"| {sci(slips['log10_expected_solutions'], 5)} |" in PAGE  # the slip array's boards


@pytest.mark.parametrize("order", ORDERS)
def test_each_orders_expected_tree(order):
    d = estimate("eternity2", "--order", order)
    assert f"{order}` " in PAGE and sci(d["log10_total_nodes"], 3) in PAGE, (order, sci(d["log10_total_nodes"], 3))


def test_the_claims_drawn_from_the_orders():
    nodes = {o: estimate("eternity2", "--order", o)["total_nodes"] for o in ORDERS}
    saving = 1 - nodes["rowscan-up"] / nodes["rowscan"]
    assert f"{saving:.0%} cheaper than from the top" in PAGE
    assert min(nodes[o] for o in ("spiral", "frame-first")) / max(nodes[o] for o in ORDERS[:4]) > 1e10
    up, late = (estimate("eternity2", "--order", o, *SLIPS)["total_nodes"] for o in ("rowscan-up", "rows-cols-4"))
    assert (
        f"{sci(math.log10(up), 3)} nodes (rowscan-up) against {sci(math.log10(late), 1)} (rows-cols-4): {1 - late / up:.0%} cheaper"
        in PAGE
    )
