"""What a stored cell was measured with, so that a table can go into a paper: the workbench and its Python
stack, the machine (CPU model, cores, OS, host) and the version of every engine the cell's solver drives (a
python package's version, an outside binary's own ``--version`` line), stored in the cell's ``versions``.

The engines of a configuration are known from its solver and options alone (``engines``), so each is asked
once a run (``EngineVersions``), never per cell; a binary that does not answer within a few seconds is
recorded as such, not waited for."""

from __future__ import annotations

import functools
import importlib.metadata
import json
import os
import platform
import shutil
import subprocess

# the packages each solver drives (the python-sat backend, the counters' engines, CPMpy's backends)
SOLVER_PACKAGES = {
    "sat": ("python-sat",),
    "cube": ("python-sat",),
    "maxsat": ("python-sat",),
    "cpsat": ("ortools",),
    "cpmpy": ("cpmpy",),
    "minizinc": ("minizinc",),
    "ganak": ("pyganak",),
    "approxmc": ("pyapproxmc",),
    "unigen": ("pyunigen",),
    "cmsgen": ("pycmsgen",),
    "external": (),
    "beam": ("numba",),
    "backtrack": ("numba",),
    "edge-backtrack": ("numba",),
    "edge-estimate": ("numba",),
}
CPMPY_BACKENDS = {"ortools": "ortools", "exact": "exact", "choco": "pychoco", "pumpkin": "pumpkin-solver",
                  "gurobi": "gurobipy", "highs": "highspy", "scip": "pyscipopt", "z3": "z3-solver",
                  "pysat": "python-sat", "minizinc": "minizinc"}  # fmt: skip
VERSION_TIMEOUT_S = 5.0


def _package(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


@functools.cache
def machine() -> dict[str, str | int | None]:
    """The machine a run measures on: CPU model, cores, OS, host."""
    cpu = platform.processor() or None
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "os": platform.platform(), "host": platform.node()}


@functools.cache
def binary_version(program: str) -> str:
    """An outside binary's first line of ``--version`` (or ``-v``), or why there is none."""
    from encoders.external import locate  # on PATH, or inside the wheel that ships it (Kissat)

    path = locate(program) or shutil.which(program)
    if path is None:
        return "not found"
    for flag in ("--version", "-v"):
        try:
            out = subprocess.run([path, flag], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired):
            continue
        line = next((ln.strip() for ln in (out.stdout + out.stderr).splitlines() if ln.strip()), "")
        if line and out.returncode in (0, 1):
            return line[:120]
    return "no version line"


def engines(solver: str, options: dict) -> dict[str, str]:
    """The engines a configuration drives and their versions: its solver's packages, CPMpy's backend, the
    python-sat backend's name, an outside binary's own line."""
    out = {p: _package(p) for p in SOLVER_PACKAGES.get(solver, ())}
    if solver in ("sat", "cube") and options.get("backend"):
        out["python-sat backend"] = str(options["backend"])
    if solver == "cpmpy":
        backend = str(options.get("backend") or "ortools").split(":")[0]
        if backend in CPMPY_BACKENDS:
            out[CPMPY_BACKENDS[backend]] = _package(CPMPY_BACKENDS[backend])
    if solver == "external":
        from encoders.external import program as program_of

        cmd = str(options.get("cmd") or "kissat")
        try:
            program = program_of(cmd) or cmd
        except ValueError:
            program = cmd
        if program == "kissat":
            out["passagemath-kissat"] = _package("passagemath-kissat")
        out[f"binary {program}"] = binary_version(program)
    if solver == "minizinc":
        out["binary minizinc"] = binary_version("minizinc")
    return out


def versions(solver: str | None = None, options: dict | None = None) -> str:
    """A cell's ``versions``: the workbench and its Python stack, the machine, and its engines (JSON)."""
    import numba
    import numpy

    doc: dict = {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "eternity": _package("eternity"),
        **{k: v for k, v in machine().items() if k != "host"},
    }
    if solver is not None:
        doc["engines"] = engines(solver, options or {})
    return json.dumps(doc, sort_keys=True)
