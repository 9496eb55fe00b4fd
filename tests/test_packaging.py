"""The package as a user installs it: a wheel that holds every subpackage and the shipped data, a core that
solves without the extras, and one line naming the extra where a solver or command needs one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from eternity.cli import main
from solving import extras

ROOT = Path(__file__).resolve().parent.parent
TOP = ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")
SKIP = shutil.ignore_patterns(".venv", ".git", "build", "__pycache__", "*.egg-info", ".hypothesis", "docs", "tests")


def _source_packages() -> set[str]:
    """Every package of the source tree: a folder with an ``__init__.py`` under a top-level package."""
    out = set()
    for top in TOP:
        for init in (ROOT / top).rglob("__init__.py"):
            out.add(".".join(init.parent.relative_to(ROOT).parts))
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built from a copy of the source (the tree itself is left as it was)."""
    src = tmp_path_factory.mktemp("src") / "eternity"
    shutil.copytree(ROOT, src, ignore=SKIP)
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(src), "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0 and "No matching distribution" in done.stderr:
        pytest.skip("the build backend (setuptools) cannot be fetched here")
    assert done.returncode == 0, done.stderr[-2000:]
    (whl,) = out.glob("eternity-*.whl")
    return whl


def test_the_wheel_holds_every_subpackage_and_the_shipped_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    packages = {n.rsplit("/", 1)[0].replace("/", ".") for n in names if n.endswith("/__init__.py")}
    assert _source_packages() <= packages, sorted(_source_packages() - packages)
    data = sorted(n for n in names if n.startswith("puzzles/shipped/"))
    shipped = sorted(
        "puzzles/shipped/" + p.relative_to(ROOT / "data").as_posix() for p in (ROOT / "data").rglob("*") if p.is_file()
    )
    assert data == shipped
    assert "experiments/configs/quick.toml" in names


def test_an_installed_wheel_solves_from_its_own_files(wheel, tmp_path):
    """A fresh virtual environment with the wheel (not editable); its dependencies are this environment's, seen
    through a path file, so the test installs nothing from the network.  Run from outside the source tree."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with zipfile.ZipFile(wheel) as z:  # a wheel is unpacked as it is into site-packages (it has no scripts to run)
        z.extractall(site)
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ETERNITY_DATA")}

    def outside(*args: str) -> subprocess.CompletedProcess:
        """The installed interpreter, run from outside the source tree."""
        return subprocess.run([str(py), *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)

    where = outside("-c", "import puzzles.data, eternity.commands; print(puzzles.data.data_dir())")
    assert where.returncode == 0, where.stderr[-2000:]
    assert Path(where.stdout.strip()).is_relative_to(site)
    run = outside("-m", "eternity", "solve", "queens-8", "--solver", "cpsat", "--mode", "count")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "count 92" in run.stdout


@pytest.mark.parametrize(
    "argv, extra",
    [
        (["solve", "owen-a", "--solver", "cpmpy"], "engines"),
        (["solve", "owen-a", "--solver", "minizinc"], "engines"),
        (["solve", "queens-6", "--mode", "count", "--executor", "dask"], "cluster"),
        (["export", "queens-6", "--to", "opb", "-o", "{out}"], "engines"),
        (["solve", "queens-6", "--solver", "ganak", "--mode", "count"], "counters"),
        (["report", "docs/runs/quick.sqlite", "-o", "{out}"], "report"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(argv, extra, monkeypatch, tmp_path, capsys):
    """Without the extra's modules, the solver or command says what to install, exit 2, and writes nothing."""
    gone = {m for ms in extras.EXTRAS.values() for m in ms}
    real = extras.has
    monkeypatch.setattr(extras, "has", lambda m: m not in gone and real(m))
    out = tmp_path / "model.opb"
    assert main([a.replace("{out}", str(out)) for a in argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"pip install 'eternity[{extra}]'" in err[0], err
    assert not out.exists()


def test_extras_name_what_they_stand_for():
    assert extras.missing("engines") in (None, "cpmpy", "minizinc")
    with pytest.raises(KeyError, match="no extra"):
        extras.missing("gpu")


@pytest.mark.slow
def test_a_core_install_solves_and_names_the_extras(wheel, tmp_path):
    """`pip install` of the wheel with its core dependencies only, from the package index: the native search and
    CP-SAT solve, CPMpy names its extra."""
    venv = tmp_path / "core"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True, timeout=1800
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    exe = str(venv / "bin" / "eternity")
    count = subprocess.run([exe, "solve", "queens-8", "--mode", "count"], capture_output=True, text=True, cwd=tmp_path)
    assert count.returncode == 0 and "count 92" in count.stdout, count.stderr
    cpsat = subprocess.run([exe, "solve", "owen-a", "--solver", "cpsat"], capture_output=True, text=True, cwd=tmp_path)
    assert cpsat.returncode == 0 and "solved" in cpsat.stdout, cpsat.stderr
    cpmpy = subprocess.run([exe, "solve", "owen-a", "--solver", "cpmpy"], capture_output=True, text=True, cwd=tmp_path)
    assert cpmpy.returncode == 2 and "pip install 'eternity[engines]'" in cpmpy.stderr
