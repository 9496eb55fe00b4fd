"""The tables a results page shows, read as its test reads them: ``eternity table`` on a stored run in
docs/runs/ (a copy, so reading never writes the committed file), parsed into rows; and the run's cells
by SQL for the figures the tables do not print (medians of placements, counts by status)."""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
import statistics
import tempfile
from pathlib import Path

from eternity import cli

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "docs" / "runs"


def words(text: str) -> str:
    """A page's text with its line breaks and runs of spaces made single spaces (prose wraps anywhere)."""
    return " ".join(text.split())


def page(name: str) -> str:
    return words((ROOT / "docs" / "results" / name).read_text())


@contextlib.contextmanager
def copied(run: str):
    """A copy of the committed run ``docs/runs/RUN``, for a command to read: reading never writes the committed file."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / run
        shutil.copyfile(RUNS / run, copy)
        yield copy


def printed(*argv: str) -> str:
    """What ``eternity ARGV`` prints, run in this process (it must succeed); its progress on standard error dropped."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    assert code == 0, (argv, code, err.getvalue()[-2000:])
    return out.getvalue()


def said(text: str, *fragments: str) -> None:
    """Each fragment is on the page (``text`` as ``page`` gives it)."""
    for f in fragments:
        assert f in text, f


def table(run: str, *args: str) -> list[dict[str, str]]:
    """The rows of the first markdown table ``eternity table docs/runs/RUN ARGS`` prints, as dicts by column."""
    with copied(run) as copy:
        out = printed("table", str(copy), *args)
    lines = [ln for ln in out.splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].split("|")[1:-1]]
    return [dict(zip(head, [c.strip() for c in ln.split("|")[1:-1]], strict=True)) for ln in lines[2:]]


def row(rows: list[dict[str, str]], **match: object) -> dict[str, str]:
    """The one row whose columns equal ``match`` (values compared as text)."""
    found = [r for r in rows if all(r[k] == str(v) for k, v in match.items())]
    assert len(found) == 1, (match, len(found))
    return found[0]


def query(run: str, sql: str, *params: object) -> list[tuple]:
    con = sqlite3.connect(f"file:{RUNS / run}?immutable=1", uri=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def median(values) -> float:
    return statistics.median(list(values))


def sci(x: float, digits: int = 1) -> str:
    """A figure as the pages write large ones: 9.0x10^7."""
    mant, exp = f"{x:.{digits}e}".split("e")
    return f"{mant}x10^{int(exp)}"


def agrees(stated: str, value: float) -> bool:
    """Whether ``value`` rounds to the figure as a page states it ("1.6", "31,635", "9.0x10^7", "17 ms" is
    the caller's unit): within half a unit of the stated figure's last digit."""
    stated = stated.replace(",", "")
    if "x10^" in stated:
        mant, exp = stated.split("x10^")
        return agrees(mant, value / 10 ** int(exp))
    decimals = len(stated.partition(".")[2])
    return abs(value - float(stated)) <= 0.5 * 10**-decimals * (1 + 1e-9)
