"""The held-out pass on the newer parts (the model counters, the samplers, the estimator, the report, ``compare``,
the moved rooms, the plug-in contracts), case by case, each in its own process, held to the promises of
``test_adversarial_pass`` (no traceback, bad input in one line, limits that hold, inputs kept) and to the answer
itself where there is one.  In the default run: it is the guard of what these parts once got wrong.
``pytest tests/test_new_parts_pass.py -s`` prints the count of cases and of violations."""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_adversarial_pass import Case, check

RUNS = Path(__file__).resolve().parent.parent / "docs" / "runs"

pytest.importorskip("pyganak", reason="the counters extra is not installed")


def make_world(w: Path) -> None:
    files = {
        "free.cnf": "p cnf 3 1\n1 2 0\n",  # 6 models: variable 3 is free
        "unit.cnf": "p cnf 2 1\n-2 0\n",  # 2 models
        "unsat.cnf": "p cnf 2 2\n1 0\n-1 0\n",
        "wide.cnf": "p cnf 67108864 1\n1 0\n",  # 20 bytes, 67,108,863 free variables
        "sparse.cnf": "c p show 67108864 0\np cnf 67108864 1\n67108864 0\n",  # one variable, a huge id
    }
    for name, text in files.items():
        (w / name).write_text(text)
    with gzip.open(w / "bomb.cnf.gz", "wb", compresslevel=9) as f:  # 2 MB that unpacks to 2 GB of comments
        f.write(b"p cnf 3 1\n1 0\n")
        for _ in range(2000):
            f.write(b"c" + b" " * (1 << 20) + b"\n")
    none = {"format": "eternity/edge", "version": 1, "name": "none", "rows": 2, "cols": 2,
            "pieces": [[0, 1, 1, 1]] * 4, "fixed": []}  # fmt: skip
    (w / "none.json").write_text(json.dumps(none))
    (w / "tiny.toml").write_text(
        'name = "tiny"\ntime_limit = 5.0\n[[families]]\nkind = "builtin"\nname = "b"\nnames = ["queens-5"]\n'
        '[[solvers]]\nname = "backtrack"\n'
    )
    shutil.copy(RUNS / "owen_counts.sqlite", w / "we#ird.sqlite")
    shutil.copy(RUNS / "quick.sqlite", w / "polyforms.sqlite")
    for name, sql in {
        "type.sqlite": "UPDATE results SET wall_s = 'abc' WHERE rowid = 1",
        "nulllimit.sqlite": "UPDATE results SET time_limit = NULL WHERE rowid = 1",
        "json.sqlite": "UPDATE results SET options = '{broken' WHERE rowid = 1",
        "inf.sqlite": "UPDATE results SET wall_s = 9e999 WHERE rowid = 1",
    }.items():
        shutil.copy(RUNS / "quick.sqlite", w / name)
        con = sqlite3.connect(w / name)
        con.execute(sql)
        con.commit()
        con.close()
    con = sqlite3.connect(w / "theirs.sqlite")
    con.execute("CREATE TABLE results (key, experiment, status, theirs)")
    con.execute("CREATE TABLE instances (id, other)")
    con.execute("INSERT INTO results VALUES ('k', 'e', 'solved', 1)")
    con.commit()
    con.close()
    (w / "binary.toml").write_bytes(b"\x00\xff" * 100)


INPUTS = ["free.cnf", "unit.cnf", "none.json", "we#ird.sqlite", "theirs.sqlite", "type.sqlite", "polyforms.sqlite"]


def cases() -> list[Case]:
    cs: list[Case] = []

    def add(argv, expect="any", note="", **kw):
        cs.append(Case(argv, expect, limit=kw.pop("limit", 60), inputs=INPUTS, note=note, **kw))

    # wrong answers
    for counter in ("ganak", "approxmc", "sat"):
        add(["solve", "free.cnf", "--solver", counter, "--mode", "count"], "ok", note="answers", says="count 6 ")
        add(["solve", "unit.cnf", "--solver", counter, "--mode", "count"], "ok", note="answers", says="count 2 ")
        add(["solve", "none.json", "--solver", counter, "--mode", "count"], "ok", note="answers", says="count 0 ")
    add(["solve", "unsat.cnf", "--solver", "ganak", "--mode", "count", "--json"], "ok", note="answers",
        stdout_json=True)  # fmt: skip
    for sampler in ("unigen", "cmsgen"):
        add(["solve", "none.json", "--solver", sampler, "--mode", "sample"], "ok", note="answers",
            says="unsatisfiable")  # fmt: skip
    # limits and sizes
    for counter in ("ganak", "approxmc"):
        add(["solve", "wide.cnf", "--solver", counter, "--mode", "count"], "bad", note="limits", limit=20)
        add(["solve", "sparse.cnf", "--solver", counter, "--mode", "count", "--time-limit", "10"], "ok",
            note="limits", says="count 1 ", limit=20)  # fmt: skip
        add(["solve", "eternity2-clue1", "--solver", counter, "--mode", "count", "--time-limit", "4"],
            note="limits", exit=3, limit=4 + 8)  # fmt: skip
        add(["solve", "eternity2-clue1", "--solver", counter, "--mode", "count", "--time-limit", "0.5"],
            note="limits", exit=3, limit=0.5 + 8)  # fmt: skip
    add(["solve", "bomb.cnf.gz", "--solver", "sat", "--time-limit", "2"], note="limits", exit=3, limit=2 + 8)
    add(["solve", "queens-8", "--solver", "portfolio", "--opt", "members=ganak;sat:model=xcc", "--mode", "count",
         "--time-limit", "20"], "ok", note="crashes")  # fmt: skip
    # reads
    add(
        ["plot", "we#ird.sqlite", "--kind", "owen", "-o", "o.png"],
        "ok",
        note="reads",
        absent=["we", "we#ird.sqlite-wal"],
    )
    add(["plot", "polyforms.sqlite", "--kind", "owen", "-o", "p.png"], note="reads", absent=["p.png"])
    add(["migrate", "theirs.sqlite"], "bad", note="reads")
    for db in ("type.sqlite", "nulllimit.sqlite", "json.sqlite", "inf.sqlite", "theirs.sqlite"):
        add(["table", db], "bad", note="damaged stores")
        add(["report", db, "-o", f"{db}.html"], "bad", note="damaged stores", absent=[f"{db}.html"])
    # the report's inputs
    add(["report", str(RUNS / "quick.sqlite"), "-o", "r.html", "--config", "missing.toml"], "bad", note="crashes",
        absent=["r.html"])  # fmt: skip
    add(["report", str(RUNS / "quick.sqlite"), "-o", "r2.html", "--config", "binary.toml"], "bad", note="crashes",
        absent=["r2.html"])  # fmt: skip
    add(["tilability", "show", "/dev/zero"], "bad", note="crashes", limit=20)
    return cs


def test_the_new_parts_pass(tmp_path):
    make_world(tmp_path)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda c: (c, check(c, tmp_path)), cases()))
    broken = [(c, b) for c, b in results if b]
    for c, b in broken:
        print("  eternity", " ".join(c.argv), "->", "; ".join(b))
    print(f"\nnew parts pass: {len(results)} cases, {len(broken)} broke a promise")
    assert not broken, "\n".join(f"eternity {' '.join(c.argv)}: {'; '.join(b)}" for c, b in broken)


def test_an_engines_unsatisfiable_beside_a_board_or_a_checked_count_is_wrong():
    from experiments.crosscheck import disagreements

    board = {"key": "b", "config": "backtrack/first", "instance": "i", "mode": "first", "status": "solved",
             "verified": 1, "count": None, "evidence": "verified"}  # fmt: skip
    approx0 = {"key": "a", "config": "approxmc/count", "instance": "i", "mode": "count", "status": "unsatisfiable",
               "count": 0, "evidence": "approximate (epsilon 0.8, delta 0.2), claimed by approxmc"}  # fmt: skip
    assert [k for k, *_ in disagreements([board, approx0])] == ["a"]
    exhaustive = {"key": "e", "config": "backtrack/count", "instance": "j", "mode": "count", "status": "solved",
                  "count": 4, "evidence": "exhaustion"}  # fmt: skip
    plugin = {"key": "p", "config": "liar/first", "instance": "j", "mode": "first", "status": "unsatisfiable",
              "count": None, "evidence": "claimed by liar"}  # fmt: skip
    found = disagreements([exhaustive, plugin])
    assert [k for k, *_ in found] == ["p"] and "count 4" in found[0][3]
    # and a claim of 0 beside another claim of 4 is weighed as before, an approximate count held against none
    approx5 = {**approx0, "key": "a5", "status": "solved", "count": 5}
    assert disagreements([exhaustive, {**approx5, "instance": "j"}]) == []
