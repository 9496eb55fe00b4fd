"""The trust pass: answers that are not boards, tried as an adversary would, each in its own process.

The adversarial pass (``test_adversarial_pass.py``) holds every command to the form of its answers: no
traceback, bad input in one line, limits that hold, inputs kept.  This pass holds the answers themselves
to their evidence: a proof weaker than the floor, an engine that lies (an "unsatisfiable" on a board with a
planted solution, models that are no solutions), files that hold results edited by hand, and the crashes,
limits and words found beside them.  Slow (about a minute on 2 cores): ``pytest -m slow
tests/test_trust_pass.py -s`` prints the count of cases and of violations.  Run against an older tree
(``PYTHONPATH=/path/to/old/tree``) it counts what that tree broke.
"""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_adversarial_pass import ETERNITY, Case, check

RUNS = Path(__file__).resolve().parent.parent / "docs" / "runs"  # stored runs, read only
PROBE = "#!/bin/sh\nif grep -q '^p cnf 1 1$' \"$1\"; then echo 's SATISFIABLE'; echo 'v 1 0'; exit 10; fi\n"


def make_world(w: Path) -> None:
    run = lambda *a: subprocess.run(ETERNITY + list(a), cwd=w, check=True, capture_output=True)  # noqa: E731
    run("generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "2", "--inner-colors", "2",
        "--seed", "4", "-o", "planted.json", "--planted", "planted.sol.json")  # fmt: skip
    run("solve", "queens-6", "--mode", "count", "--opt", "memo=true", "--opt", "diagram=q6.npz")
    # the diagram edited: one option of a solution moved (its count changes), the arrays saved again
    import numpy as np

    with np.load(w / "q6.npz") as z:
        d = {k: z[k] for k in z.files}
    d["zhi"] = d["zhi"].copy()
    d["zhi"][-1] = d["zlo"][-1]
    np.savez_compressed(w / "q6-edited.npz", **d)
    for name, body in {
        "liar": "echo 's UNSATISFIABLE'; exit 20",
        "silent": "exit 20",
        "every": "n=$(grep '^p cnf' \"$1\" | cut -d' ' -f3); echo 's SATISFIABLE'; echo \"v $(seq -s' ' 1 $n) 0\"; "
        "exit 10",
        "forger": "echo 0 > \"$2\"; echo 's UNSATISFIABLE'; exit 20",
    }.items():
        f = w / name
        f.write_text(PROBE + body + "\n")
        f.chmod(f.stat().st_mode | stat.S_IEXEC)
    # a one-round proof, and a commitment with a malformed digest
    run("export", "eternity2-clue1", "--to", "solution", "-o", "clue1.sol.json")
    zk = subprocess.run(ETERNITY + ["prove", "eternity2-clue1", "clue1.sol.json", "--rounds", "1", "-o", "weak.json"],
                        cwd=w, capture_output=True)  # fmt: skip
    assert zk.returncode == 0, zk.stderr
    run("commit", "planted.json", "planted.sol.json", "-o", "c.json")
    run("open", "planted.json", "planted.sol.json", "c.json", "--side", "left", "-o", "left.json")
    c = json.loads((w / "c.json").read_text())
    c["commitments"]["left"] = "not a digest"
    (w / "c-bad.json").write_text(json.dumps(c))
    # ledgers: garbage, and a file where a directory belongs
    (w / "garbage").mkdir()
    (w / "garbage" / "ledger.sqlite").write_bytes(b"garbage" * 100)
    (w / "a-file").write_text("x")
    # a DIMACS export and a model that is no solution
    run("export", "planted.json", "--to", "dimacs", "-o", "planted.cnf")
    nv = int(next(ln for ln in (w / "planted.cnf").read_text().splitlines() if ln.startswith("p cnf")).split()[2])
    (w / "every.model").write_text("s SATISFIABLE\nv " + " ".join(map(str, range(1, nv + 1))) + " 0\n")
    shutil.copy(w / "planted.json", w / "puzzle.json")
    (w / "tiny.toml").write_text(
        'name = "tiny"\ntime_limit = 5.0\n[[families]]\nkind = "builtin"\nname = "b"\nnames = ["queens-5"]\n'
        '[[solvers]]\nname = "backtrack"\n'
    )


INPUTS = ["planted.json", "planted.sol.json", "q6.npz", "q6-edited.npz", "c.json", "c-bad.json", "puzzle.json"]


def cases() -> list[Case]:
    cs: list[Case] = []

    def add(argv, expect="any", note="", **kw):
        cs.append(Case(argv, expect, limit=kw.pop("limit", 60), inputs=INPUTS, note=note, **kw))

    # proofs whose strength the prover chooses
    add(["check-proof", "eternity2-clue1", "weak.json"], note="proof floor", exit=1, says="refused")
    add(["check-proof", "eternity2-clue1", "weak.json", "--min-bits", "0"], "ok", note="proof floor",
        says="floor 2^-0")  # fmt: skip
    add(["prove", "planted.json", "planted.sol.json", "--rounds", "80", "--bits", "40", "-o", "p.json"], "bad",
        note="words", absent=["p.json"])  # fmt: skip
    add(["prove", "planted.json", "planted.sol.json", "-o", "eternity2-clue1"], "bad", note="words",
        absent=["eternity2-clue1"])  # fmt: skip
    add(["verify", "planted.json", "left.json", "--commitment", "c-bad.json"], "bad", note="words")
    add(["verify", "planted.json", "left.json", "--commitment", "c.json", "--json"], "ok", note="words",
        stdout_json=True)  # fmt: skip
    # outside engines taken on their word
    for liar in ("liar", "silent"):
        add(["solve", "planted.json", "--solver", "external", "--opt", f"cmd=./{liar}"], note="engines",
            says="claimed by")  # fmt: skip
    add(["solve", "planted.json", "--solver", "external", "--opt", "cmd=./every", "--mode", "count"],
        note="engines", exit=1, never="count 1")  # fmt: skip
    add(["solve", "planted.json", "--solver", "external", "--opt", "cmd=./forger {cnf} {proof}"], note="engines",
        exit=1, never="unsatisfiable")  # fmt: skip
    add(["solve", "planted.json", "--solver", "external", "--mode", "count"], "ok", note="engines",
        says="(enumerated)")  # fmt: skip
    # files that hold results, trusted
    add(["solve", "queens-6", "--mode", "count", "--opt", "from_diagram=q6-edited.npz"], "bad", note="sealed files")
    add(["solve", "queens-6", "--mode", "count", "--opt", "from_diagram=q6.npz"], "ok", note="sealed files",
        says="solved (file)  count 4")  # fmt: skip
    # data loss
    add(["solve", "puzzle.json", "--solver", "backtrack", "--mode", "count", "--opt", "memo=true",
         "--opt", "diagram=puzzle.json"], "bad", note="data loss")  # fmt: skip
    add(["solve", "queens-6", "--mode", "count", "--opt", "memo=true", "--opt", "diagram=d.npz", "-o", "d.npz"],
        "bad", note="data loss", absent=["d.npz"])  # fmt: skip
    # crashes
    add(["solve", "planted.json", "--solver", "external", "--opt", 'cmd=cadical "'], "bad", note="crashes")
    add(["solve", "planted.json", "--executor", "dask", "--scheduler", "tls://127.0.0.1:9", "--mode", "count"],
        "bad", note="crashes")  # fmt: skip
    add(["solve", "planted.json", "--executor", "dask", "--resume", "garbage", "--mode", "count",
         "--workers", "1"], "bad", note="crashes")  # fmt: skip
    add(["solve", "planted.json", "--executor", "dask", "--resume", "a-file", "--mode", "count", "--workers", "1"],
        "bad", note="crashes")  # fmt: skip
    add(["solve", "planted.json", "--executor", "dask", "--workers", "64", "--mode", "count"], "bad", note="crashes")
    add(["run", "tiny.toml", "--db", "t.sqlite", "--executor", "dask", "--jobs", "64"], "bad", note="limits",
        absent=["t.sqlite"])  # fmt: skip
    add(["solve", "eternity2-clue1", "--solver", "maxsat", "--mode", "best", "--opt", "solver=nosuch"], "bad",
        note="crashes")  # fmt: skip
    # limits
    add(["solve", "dominoes-10x10", "--mode", "sample", "--samples", "1000000", "--time-limit", "5"],
        note="limits", limit=5 + 15)  # fmt: skip
    add(["solve", "queens-6", "--mode", "count", "--opt", "memo=true", "--opt", "memo_mb=1000000"], "bad",
        note="limits")  # fmt: skip
    add(["solve", "queens-10", "--solver", "cpmpy", "--opt", "backend=z3", "--mode", "count", "--time-limit", "5"],
        note="limits", limit=5 + 15)  # fmt: skip
    # words
    add(["solve", "planted.json", "--executor", "dask", "--resume", "new-dir", "--mode", "count",
         "--workers", "1"], "bad", note="words", absent=["new-dir"])  # fmt: skip
    add(["decode", "planted.json", "--from", "planted.cnf", "--model", "every.model", "-o", "bad.sol.json"],
        note="words", exit=1, absent=["bad.sol.json"])  # fmt: skip
    add(["solve", "queens-6", "--solver", "cpmpy", "--opt", "backend=ortools:x"], "bad", note="words",
        never="(known: )")  # fmt: skip
    add(["table", str(RUNS / "atlas.sqlite"), "--peaks", "--winners"], "bad", note="words")
    add(["plot", str(RUNS / "quick.sqlite"), "--kind", "clues", "-o", "c.png"], "bad", note="words", absent=["c.png"])
    return cs


def run_pass(tmp_path: Path) -> list[tuple[Case, list[str]]]:
    make_world(tmp_path)
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda c: (c, check(c, tmp_path)), cases()))


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_trust_pass(tmp_path):
    results = run_pass(tmp_path)
    broken = [(c, b) for c, b in results if b]
    for c, b in broken:
        print("  eternity", " ".join(c.argv), "->", "; ".join(b))
    by_class: dict[str, int] = {}
    for c, _ in broken:
        by_class[c.note] = by_class.get(c.note, 0) + 1
    print(f"\ntrust pass: {len(results)} cases, {len(broken)} broke a promise {by_class}")
    assert not broken
