"""Solver options declared once (``solving/options.py``): where they apply, what a checkpoint keeps, one
parser for every place they are written; and a bug in a solver is reported as a bug, not as bad input."""

import sys
from pathlib import Path

import pytest

import solving
from eternity.cli import main
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.puzzle import FEATURES

ROOT = Path(__file__).resolve().parent.parent


def test_the_beam_refuses_options_that_do_not_apply_before_any_work():
    edge, poly = catalog.load("brendan-4x4"), catalog.load("pentomino-6x10")
    with pytest.raises(UsageError, match="option weights is for polyform puzzles, not edge"):
        solving.get("beam", {"weights": "w.json"}).check(edge, "first")
    with pytest.raises(UsageError, match="option penalty is for mode best, not mode first"):
        solving.get("beam", {"penalty": 2.0}).check(edge, "first")
    with pytest.raises(UsageError, match="option threads is for edge puzzles"):
        solving.get("beam", {"threads": 8}).check(poly, "first")
    solving.get("beam", {"penalty": 2.0}).check(edge, "best")  # where it applies, it is taken
    solving.get("beam", {"sweep": 270.0}).check(poly, "first")


def test_every_option_of_every_solver_is_declared_whole():
    for name in solving.names():
        for k, o in solving.solver_class(name).OPTIONS.items():
            assert isinstance(o, solving.Option) and o.help, (name, k)
            assert o.parse(k, o.default) == o.default, (name, k)  # the default is a value the option takes
            assert o.modes is None or set(o.modes) <= set(solving.MODES), (name, k)
            assert o.features is None or set(o.features) <= set(FEATURES), (name, k)


def test_the_checkpoint_fingerprint_leaves_out_only_what_does_not_change_the_search():
    from baseline.beam.options import OPTIONS
    from solving.options import fingerprint_options

    values = {k: o.default for k, o in OPTIONS.items()}
    kept = fingerprint_options(OPTIONS, values)
    assert {"width", "seed", "order", "penalty"} <= set(kept)
    assert not {"threads", "checkpoint", "resume", "jobs"} & set(kept)


def test_one_parser_for_the_command_line_and_the_portfolio():
    from solving.portfolio import parse_members

    assert solving.assignments(["width=4", " seed = 2"]) == {"width": "4", "seed": "2"}
    assert parse_members("beam:width=4,seed=2;backtrack") == [("beam", {"width": "4", "seed": "2"}), ("backtrack", {})]
    with pytest.raises(UsageError, match="expected KEY=VALUE"):
        solving.assignments(["width"])
    with pytest.raises(UsageError, match="member 'beam:width'"):
        parse_members("beam:width")


BUGGY = """
import numpy as np
from solving import SolverBase

class Buggy(SolverBase):
    name = "buggy"
    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        return np.zeros(3) + np.zeros(4)   # a bug: a ValueError that is not a refusal
"""


@pytest.fixture
def buggy(tmp_path, monkeypatch):
    (tmp_path / "buggy_solver.py").write_text(BUGGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.delenv("ETERNITY_DEBUG", raising=False)
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    from solving import registry

    solving.register("buggy", "buggy_solver:Buggy")
    # taken as one of the workbench's own solvers: its bug is the workbench's (a plug-in's is named as its own)
    monkeypatch.setattr(registry, "is_own", lambda solver: True)
    yield tmp_path
    registry._extra.pop("buggy", None)  # this process only: later tests list the shipped solvers
    registry._classes.pop("buggy", None)
    sys.modules.pop("buggy_solver", None)


def test_a_bug_in_a_solver_is_an_internal_error_with_its_traceback(buggy, capsys):
    assert main(["solve", "queens-6", "--solver", "buggy"]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error in solve (solver buggy): ValueError" in err[0]
    trace = next(buggy.glob("eternity-internal-error-*.txt"))
    assert str(trace) in err[0] and "np.zeros(3) + np.zeros(4)" in trace.read_text()
    assert main(["--debug", "solve", "queens-6", "--solver", "buggy"]) == 4
    assert "Traceback" in capsys.readouterr().err
    # a refused option is still bad input: one line, exit 2
    assert main(["solve", "brendan-4x4", "--solver", "beam", "--opt", "penalty=2"]) == 2
    assert "option penalty is for mode best" in capsys.readouterr().err


def test_a_config_row_with_a_refused_option_is_refused_before_the_run(tmp_path):
    from experiments.runner import run

    cfg = tmp_path / "c.toml"
    cfg.write_text("""
name = "c"
time_limit = 5.0
families = [{kind = "builtin", name = "q", names = ["queens-6"]}]
solvers = [{name = "backtrack", mode = "count"}, {name = "beam", mode = "first", options = {width = [4, 8], threads = 2}}]
""")
    db = tmp_path / "c.sqlite"
    with pytest.raises(
        UsageError, match=r"solvers\[1\] \(beam\[threads=2,width=4\]/first\) on queens-6: .*option threads"
    ):
        run(str(cfg), str(db), jobs=1, show_progress=False)
    assert not db.exists()  # nothing ran, nothing was written
    cfg.write_text(
        cfg.read_text().replace(
            'mode = "first", options = {width = [4, 8], threads = 2}',
            'mode = "first", options = {width = 4, penalty = 1.0}',
        )
    )
    with pytest.raises(Exception, match=r"solvers.1: solver beam: option penalty is for mode best"):
        run(str(cfg), str(db), jobs=1, show_progress=False)


def test_options_are_typed_attributes_declared_once():
    """Every solver reads its options as typed attributes of its ``Options`` class (mypy checks each read); the
    same declarations are ``OPTIONS`` (the command line's help, a config's validation, the reference page), and
    no solver reads them by key."""
    import re
    from pathlib import Path

    import pytest

    import solving
    from solving.options import Opts

    root = Path(__file__).resolve().parent.parent
    for name in solving.names():
        cls = solving.solver_class(name)
        assert issubclass(cls.Options, Opts) and cls.OPTIONS == cls.Options.declared(), name
        s = cls()
        for k, o in cls.OPTIONS.items():
            assert getattr(s.opts, k) == o.default, (name, k)
    s = solving.get("edge-backtrack", {"order": "colscan", "seed": "3"})
    assert (s.opts.order, s.opts.seed) == ("colscan", 3)
    with pytest.raises(AttributeError, match="read-only"):
        s.opts.order = "mrv"  # type: ignore[misc]
    keyed = [
        f"{p.relative_to(root)}:{i}"
        for top in ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")
        for p in (root / top).rglob("*.py")
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"self\.options\[", line)
    ]
    assert keyed == []


def test_a_plugin_that_declares_a_dict_gets_typed_options():
    """A plug-in written before the typed declarations (``OPTIONS`` as a dict) still works: its class is made."""
    import solving
    from solving import Option, SolverBase

    class Old(SolverBase):
        name = "old"
        OPTIONS = {"depth": Option(int, 3, "how deep", lo=1)}

    assert Old({"depth": "5"}).opts.depth == 5 and Old().opts.get("depth") == 3
    assert solving.SolverBase.OPTIONS == {}
