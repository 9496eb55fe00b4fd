"""The optional extras: which solvers and commands need which, and the one line that says what to install.

The core (the native searches, CP-SAT, python-sat, the runner, its tables and plots) installs with
``pip install eternity``.  The field's other engines (CPMpy and its backends, MiniZinc's interface,
Kissat) are the extra ``engines``; a Dask cluster is the extra ``cluster``.  Every solver and command
that needs one asks here first, so a missing extra is a usage error (exit 2) that names the package
to install, never an ``ImportError`` from deep inside a solve.
"""

from __future__ import annotations

import importlib.util

from puzzles.errors import Unavailable

# extra -> the modules whose presence stands for it (the first one missing is the one named)
EXTRAS: dict[str, tuple[str, ...]] = {
    "engines": ("cpmpy", "minizinc"),
    "cluster": ("dask", "distributed"),
    "counters": ("pyganak", "pyapproxmc", "pyunigen", "pycmsgen"),
    "report": ("plotly",),
}


class MissingExtra(Unavailable):
    """A solver or command whose optional dependencies are not installed (a usage error: exit 2)."""

    def __init__(self, who: str, extra: str, module: str):
        self.who, self.extra, self.module = who, extra, module
        super().__init__(f"{who} needs {module}, which is not installed: pip install 'eternity[{extra}]'")


def has(module: str) -> bool:
    """Whether ``module`` can be imported here (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing(extra: str) -> str | None:
    """The first module of ``extra`` that is absent here, or None when the extra is installed."""
    if extra not in EXTRAS:
        raise KeyError(f"no extra {extra!r} (extras: {', '.join(EXTRAS)})")
    return next((m for m in EXTRAS[extra] if not has(m)), None)


def require(extra: str, who: str, module: str | None = None) -> None:
    """Make sure ``extra`` is installed for ``who`` (a solver or a command, as the user named it), or raise
    :class:`MissingExtra`.

    Args:
        extra: the extra's name (``engines``, ``cluster``).
        who: what asks, as the message shows it: ``solver cpmpy``, ``--executor dask``.
        module: the one module of the extra that ``who`` needs (None: every module the extra stands for).
    """
    absent = (None if has(module) else module) if module else missing(extra)
    if absent is not None:
        raise MissingExtra(who, extra, absent)
    for m in (module,) if module else EXTRAS[extra]:
        imports(m, who, extra)


def imports(module: str, who: str, extra: str) -> None:
    """Import ``module`` for ``who``, or raise :class:`Unavailable` naming the module and its import error: an
    extra that is installed but broken (a missing shared library, a version clash) is the machine's state,
    told in one line, not an internal error."""
    import importlib
    import warnings

    try:
        with warnings.catch_warnings():  # MiniZinc's interface warns on import when its binary is absent
            warnings.simplefilter("ignore")
            importlib.import_module(module)
    except Exception as e:  # noqa: BLE001 - any failure to import is the same news to the user
        why = f"{type(e).__name__}: {e}".splitlines()[0][:200]
        raise Unavailable(
            f"{who} needs {module}, which is installed but fails to import ({why}): "
            f"pip install --force-reinstall 'eternity[{extra}]'"
        ) from None
