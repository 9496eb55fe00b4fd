"""No answer on anyone's word: what each answer rests on, and the runner catching wrong ones.

A lying SAT binary (a shell script) plays the engine that reports "unsatisfiable" on a board with a
planted solution, or returns models that are no solutions, or the same model again: `solve` shows its
unsatisfiable as a claim, the runner stores it as a wrong answer, and a count of bogus models is an
error.  Counts that disagree on one instance are flagged against the count evidence gives."""

import json
import shutil
import stat

import pytest

import solving
from eternity.cli import main
from experiments import report, runner
from experiments.store import Store
from puzzles.files import formats
from puzzles.make import generate

needs_cadical = pytest.mark.skipif(
    shutil.which("cadical") is None, reason="cadical not installed (apt-get install cadical)"
)
PROBE = "#!/bin/sh\nif grep -q '^p cnf 1 1$' \"$1\"; then echo 's SATISFIABLE'; echo 'v 1 0'; exit 10; fi\n"


def script(tmp_path, name: str, body: str) -> str:
    """A command that answers the one-clause probe like a SAT solver, then does ``body`` on the real CNF."""
    f = tmp_path / name
    f.write_text(PROBE + body + "\n")
    f.chmod(f.stat().st_mode | stat.S_IEXEC)
    return str(f)


def planted_board(tmp_path):
    p, _ = generate.edge_puzzle(3, 3, 2, 2, 11)
    f = tmp_path / "board.json"
    f.write_text(json.dumps(formats.puzzle_to_dict(p)))
    return p, str(f)


def test_a_lying_engines_unsatisfiable_is_shown_as_its_claim(tmp_path, capsys):
    p, board = planted_board(tmp_path)
    liar = script(tmp_path, "liar", "echo 's UNSATISFIABLE'; exit 20")
    silent = script(tmp_path, "silent", "exit 20")
    for cmd in (liar, silent):
        res, _ = solving.solve_verified(solving.get("external", {"cmd": cmd}), p, "first")
        assert res.status == solving.Status.UNSAT
        assert solving.is_claim(res.evidence) and res.evidence.endswith(cmd.rsplit("/", 1)[-1])
    capsys.readouterr()
    assert main(["solve", board, "--solver", "external", "--opt", f"cmd={liar}"]) == 0
    assert capsys.readouterr().out.startswith("unsatisfiable (claimed by liar)")
    # the project's own search that finishes is an exhaustion; a board found is verified
    res, _ = solving.solve_verified(solving.get("edge-backtrack"), p, "count")
    assert res.evidence == solving.Evidence.EXHAUSTION and res.count
    res, _ = solving.solve_verified(solving.get("edge-backtrack"), p, "first")
    assert res.evidence == solving.Evidence.VERIFIED


def test_bogus_models_in_count_mode_are_refused(tmp_path):
    p, _ = planted_board(tmp_path)
    # every variable true: decoded, the board has several pieces a cell, and the verifier says so
    every = script(tmp_path, "every", "n=$(grep '^p cnf' \"$1\" | cut -d' ' -f3); echo 's SATISFIABLE'; "
                   "echo \"v $(seq -s' ' 1 $n) 0\"; exit 10")  # fmt: skip
    res, _ = solving.solve_verified(solving.get("external", {"cmd": every}), p, "count")
    assert res.status == solving.Status.ERROR and "not a solution" in res.message and res.count is None


@needs_cadical
def test_a_model_returned_twice_is_refused(tmp_path):
    p, _ = planted_board(tmp_path)
    # an honest first answer, then the first model again where CaDiCaL says there are no more
    again = script(
        tmp_path,
        "again",
        f'out=$(cadical -q "$1"); code=$?\nif [ $code -eq 10 ] && [ ! -f {tmp_path}/m ]; then echo "$out" > {tmp_path}/m; fi\n'
        f"cat {tmp_path}/m; exit 10",
    )
    res, _ = solving.solve_verified(solving.get("external", {"cmd": again}), p, "count")
    assert res.status == solving.Status.ERROR and "returned before" in res.message
    honest, _ = solving.solve_verified(solving.get("external", {"cmd": "cadical"}), p, "count")
    assert honest.evidence == solving.Evidence.ENUMERATED
    assert honest.count == solving.get("edge-backtrack").solve(p, mode="count").count


def test_the_runner_stores_a_lying_unsatisfiable_as_wrong(tmp_path, capsys):
    liar = script(tmp_path, "liar", "echo 's UNSATISFIABLE'; exit 20")
    cfg = tmp_path / "lie.toml"
    cfg.write_text(
        'name = "lie"\nseed = 3\ntime_limit = 20.0\n'
        '[[families]]\nkind = "edge"\nname = "e"\nrows = 3\ncols = 3\nframe_colors = 2\ninner_colors = 2\n'
        f'[[solvers]]\nname = "external"\noptions = {{ cmd = "{liar}" }}\n'
        '[[solvers]]\nname = "edge-backtrack"\n'
    )
    db = tmp_path / "lie.sqlite"
    capsys.readouterr()
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "1 wrong answers" in err and "planted solution" in err
    rows = Store(db).results()
    by = {r["solver"]: r for r in rows}
    assert by["external"]["status"] == "wrong" and by["external"]["evidence"] == "claimed by liar"
    assert by["edge-backtrack"]["status"] == "solved" and by["edge-backtrack"]["evidence"] == "verified"
    table = {r["solver"]: r for r in report.summarise(rows)}
    ext = next(v for k, v in table.items() if k.startswith("external"))
    assert ext["wrong"] == 1 and ext["solved"] == 0
    assert main(["table", str(db), "--format", "md"]) == 0
    out = capsys.readouterr().out
    header = next(ln for ln in out.splitlines() if ln.startswith("| family"))
    assert "| claimed | wrong |" in header


def row(key, config, count, evidence, instance="i"):
    return {"key": key, "config": config, "instance": instance, "mode": "count", "status": "solved", "count": count,
            "evidence": evidence}  # fmt: skip


def test_counts_that_disagree_are_flagged_against_the_evidence():
    rows = [
        row("a", "edge-backtrack", 128, "exhaustion"),
        row("b", "cpsat", 128, "enumerated"),
        row("c", "liar", 8, "claimed by liar"),
        row("d", "liar2", 760, "claimed by liar"),
        row("e", "claims-only-1", 5, "claimed by x", "j"),
        row("f", "claims-only-2", 5, "claimed by y", "j"),
        row("g", "claims-only-3", 6, "claimed by z", "j"),
    ]
    wrong = {k: why for k, _, _, why in runner.disagreements(rows)}
    assert set(wrong) == {"c", "d", "g"}
    assert "128 distinct verified models" in wrong["c"] and "most solvers give 5" in wrong["g"]
    assert "checked evidence gives 128 (exhaustion)" in wrong["d"]
    # two counts with evidence that differ: both flagged (a bug in one of the project's own searches)
    both = runner.disagreements([row("a", "x", 1, "exhaustion"), row("b", "y", 2, "diagram")])
    assert {k for k, *_ in both} == {"a", "b"}


def test_an_edited_snapshot_is_refused(tmp_path):
    """A checkpoint (the beam's best board and frontier, the backtracker's search) is sealed: changed by
    hand, or written without its seal, it is refused on resume instead of going on from it."""
    import numpy as np

    from baseline.runtime import checkpoint
    from puzzles.errors import UsageError

    checkpoint.save(tmp_path, "best", fingerprint=np.array("f"), score=np.array(459), placements=np.arange(12))
    assert int(checkpoint.load(tmp_path, "best", "f")["score"]) == 459
    with np.load(tmp_path / "best.npz") as z:
        d = {k: z[k] for k in z.files}
    np.savez(tmp_path / "best.npz", **{**d, "score": np.array(480)})  # the seal kept, the score raised
    with pytest.raises(UsageError, match="seal"):
        checkpoint.load(tmp_path, "best", "f")
    np.savez(tmp_path / "best.npz", **{k: v for k, v in d.items() if k != "seal"})
    with pytest.raises(UsageError, match="sealed"):
        checkpoint.load(tmp_path, "best", "f")


def test_an_edited_diagram_is_refused(tmp_path, capsys):
    import numpy as np

    d = tmp_path / "q6.npz"
    assert main(["solve", "queens-6", "--mode", "count", "--opt", "memo=true", "--opt", f"diagram={d}"]) == 0
    capsys.readouterr()
    assert main(["solve", "queens-6", "--mode", "count", "--opt", f"from_diagram={d}"]) == 0
    assert capsys.readouterr().out.startswith("solved (file)  count 4")
    with np.load(d) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["zhi"] = arrays["zhi"].copy()
    arrays["zhi"][-1] = arrays["zlo"][-1]
    np.savez_compressed(d, **arrays)
    assert main(["solve", "queens-6", "--mode", "count", "--opt", f"from_diagram={d}"]) == 2
    assert "seal" in capsys.readouterr().err
