"""Pages written when the site is built (mkdocs-gen-files), from the code and from stored runs.

The reference pages come from the parser, the solver registry and the config
schema (``eternity/reference.py``); the results tables come from the run
databases in ``docs/runs/`` through ``eternity table`` and the plots through
``eternity plot``, so no figure on the site is typed by hand.
"""

from __future__ import annotations

import contextlib
import glob
import io
import json
import os
import re
import shlex
import shutil
import sqlite3
import sys
import tempfile

import mkdocs_gen_files

sys.path.insert(0, os.getcwd())

from eternity import cli, reference  # noqa: E402

# The reference pages are committed (docs/reference/cli.md, solvers.md, config.md: `python -m eternity.reference`
# writes them, tests/test_docs.py holds them current), so that their links work in the tree too; the build checks
# them again: a page out of step with the code fails it.
for path, text in reference.pages().items():
    with open(os.path.join("docs", path)) as f:
        if f.read() != text:
            raise SystemExit(f"docs/{path} is out of step with the code: run `python -m eternity.reference`")


def _eternity(*argv: str) -> str:
    """Run an eternity command in this process and return what it printed (it must succeed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli.main(list(argv))
    if rc != 0:
        raise RuntimeError(f"eternity {' '.join(argv)} exited {rc}")
    return out.getvalue()


# Results pages: a marker ``<!-- eternity table|plot ARGS -->`` on a line of its own is replaced by what the
# command makes from a stored run in docs/runs/ (a table, or a plot written beside the page), so no figure
# on the site is typed by hand.  The stored run is copied first: reading it never writes it.
MARKER = re.compile(r"^<!-- eternity (table|plot) (.+?) -->$", re.M)


def _expand(page: str, text: str) -> str:
    def one(m: re.Match) -> str:
        command, args = m.group(1), shlex.split(m.group(2))
        db = args[0]
        if not db.startswith("docs/runs/") or not os.path.exists(db):
            raise RuntimeError(f"{page}: {m.group(0)} names no stored run in docs/runs/")
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, os.path.basename(db))
            shutil.copyfile(db, copy)
            if command == "table":
                return _eternity("table", copy, *args[1:]).rstrip() + "\n\n" + _provenance(copy, db)
            name = "-".join([os.path.basename(db).removesuffix(".sqlite")] + [a.lstrip("-") for a in args[1:]])
            png = os.path.join(tmp, name + ".png")
            _eternity("plot", copy, *args[1:], "-o", png)
            target = f"{os.path.dirname(page)}/plots/{name}.png"
            with open(png, "rb") as src, mkdocs_gen_files.open(target, "wb") as dst:
                dst.write(src.read())
            return f"![`eternity plot {db} {' '.join(args[1:])}`](plots/{name}.png)"

    return MARKER.sub(one, text)


def _provenance(copy: str, db: str) -> str:
    """Where a table comes from: the stored run, its cells, when and where they ran, with what."""
    con = sqlite3.connect(copy)
    try:
        n, first, last, hosts, versions = con.execute(
            "SELECT COUNT(*), MIN(finished_at), MAX(finished_at), GROUP_CONCAT(DISTINCT host), MAX(versions) "
            "FROM results"
        ).fetchone()
    finally:
        con.close()
    v = ", ".join(f"{k} {val}" for k, val in json.loads(versions or "{}").items())
    return f"*From the stored run `{db}`: {n} cells, finished {first} to {last} (UTC) on host `{hosts}` ({v}).*"


for page in sorted(glob.glob("docs/**/*.md", recursive=True)):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    if MARKER.search(text):
        rel = os.path.relpath(page, "docs")
        with mkdocs_gen_files.open(rel, "w") as f:
            f.write(_expand(rel, text))
