"""Loading plug-ins: what the three entry-point groups (``eternity.solvers``, ``eternity.encodings``,
``eternity.families``) share.  A plug-in is found by name in its group, imported on first use, and made; one
that nobody registered is a ``UsageError`` listing the names there are, one that fails to import or to be made
is an ``Unavailable`` of the group's own kind, in one line naming it, and nothing else is affected."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from puzzles.errors import Unavailable, UsageError


def registered(group: str) -> dict[str, str]:
    """The plug-ins of an entry-point group: name -> ``module:attribute``."""
    return {ep.name: ep.value for ep in entry_points(group=group)}


_made: dict[tuple[str, str], Any] = {}


def load(
    group: str, name: str, what: str, broken: type[Unavailable], lacks: Callable[[Any], str | None] = lambda _: None
) -> Any:
    """An instance of the class registered as ``name`` in ``group``, made once a process; ``what`` names the kind
    in messages ("encoding", "family plug-in"), ``broken`` is the error raised for one that fails to import or to
    be made, and ``lacks(made)`` says what the instance lacks of its kind's contract (None: nothing)."""
    if (group, name) in _made:
        return _made[(group, name)]
    found = registered(group)
    if name not in found:
        known = "installed: " + ", ".join(sorted(found)) if found else "none is installed"
        raise UsageError(f"unknown {what} {name!r} ({known}; the entry-point group {group})")
    module, _, attr = found[name].partition(":")
    try:
        made = getattr(importlib.import_module(module), attr)()
    except Exception as e:  # noqa: BLE001 - whatever a plug-in raises is its own failure, told in one line
        raise broken(f"{what} {name} ({found[name]}) is broken: {type(e).__name__}: {e}".splitlines()[0]) from None
    why = lacks(made)
    if why:
        raise broken(f"{what} {name} ({found[name]}) is broken: {why}")
    _made[(group, name)] = made
    return made
