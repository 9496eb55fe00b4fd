"""CNF files as a run's instances: two files of one name in two folders are two rows, two files of one content
are one instance (said on stderr), a file changed since the store read it is refused, and a run refused for its
jobs leaves no database."""

from __future__ import annotations

import bz2

import pytest

from eternity.cli import main
from puzzles.errors import UsageError

CONFIG = 'name = "c"\ntime_limit = 10.0\n[[families]]\nkind = "cnf"\nname = "f"\nglob = "GLOB"\n[[solvers]]\nname = "sat"\nmode = "first"\n'  # noqa: E501


def _config(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "f.cnf").write_text("p cnf 2 1\n1 2 0\n")
    (tmp_path / "b" / "f.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (tmp_path / "a" / "g.cnf.bz2").write_bytes(bz2.compress(b"p cnf 2 1\n1 2 0\n"))
    cfg = tmp_path / "c.toml"
    cfg.write_text(CONFIG.replace("GLOB", str(tmp_path / "*" / "*.cnf*")))
    return cfg


def test_same_names_are_two_rows_same_content_one_instance_and_a_changed_file_is_refused(tmp_path, capsys):
    cfg, db = _config(tmp_path), tmp_path / "c.sqlite"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    assert "g.cnf.bz2 has the same content as" in capsys.readouterr().err
    assert main(["table", str(db), "--pivot", "--format", "csv"]) == 0
    table = capsys.readouterr().out
    assert "a/f.cnf" in table and "b/f.cnf" in table and "2/2" in table
    (tmp_path / "a" / "f.cnf").write_text("p cnf 2 1\n-1 2 0\n")
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 2
    assert "f.cnf: changed since" in capsys.readouterr().err


def test_a_run_refused_for_its_jobs_leaves_no_database(tmp_path):
    from experiments.runner import run

    cfg, db = _config(tmp_path), tmp_path / "j.sqlite"
    with pytest.raises(UsageError, match="jobs"):
        run(str(cfg), str(db), jobs=-3, show_progress=False)
    assert not list(tmp_path.glob("j.sqlite*"))
