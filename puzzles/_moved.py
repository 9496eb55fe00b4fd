"""The old names of the modules that moved into ``puzzles``' rooms, kept answering for one release.

``import puzzles.edge`` (or ``from puzzles import edge``, or ``from puzzles.edge import EdgePuzzle``) gives the
module ``puzzles.kinds.edge`` itself, the same object under both names (so a pickle or a monkeypatch through
the old name is the new module's), with a ``DeprecationWarning`` naming the new place."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

ROOMS = {
    "kinds": ("edge", "polyform", "latin", "magic", "queens", "queens3d", "partition", "tilings", "eternity1",
              "cnf_formula", "grids", "orders"),
    "files": ("formats", "file_input", "file_schema", "piece_text", "bucas", "heule_board", "weights_file",
              "outputs", "render"),
    "estimates": ("estimate", "tilability", "tilability_design", "symmetry"),
    "make": ("generate", "scramble", "hints"),
    "forms": ("enumeration", "drafter_count"),
}  # fmt: skip
MOVED = {f"puzzles.{m}": f"puzzles.{room}.{m}" for room, mods in ROOMS.items() for m in mods}


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str):
        self.new = new

    def create_module(self, spec):
        module = importlib.import_module(self.new)
        self.kept = {k: getattr(module, k) for k in ("__spec__", "__loader__", "__package__", "__file__")}
        return module

    def exec_module(self, module) -> None:  # made already: what the import system wrote over is put back
        for k, v in self.kept.items():
            setattr(module, k, v)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds a moved module by its old name: the new module, with a warning."""

    def __init__(self, moved: dict[str, str]):
        self.moved = moved

    def find_spec(self, fullname, path=None, target=None):
        new = self.moved.get(fullname)
        if new is None:
            return None
        warnings.warn(f"{fullname} moved to {new}; the old name goes in a later release", DeprecationWarning, 2)
        return importlib.util.spec_from_loader(fullname, _Alias(new))


def install(moved: dict[str, str] | None = None) -> None:
    """Put a finder of ``moved`` (old name -> new name; ``puzzles``' own moves by default) on ``sys.meta_path``
    once: each top-level package that reorganised its modules keeps its old names answering this way."""
    moved = MOVED if moved is None else moved
    if not any(isinstance(f, _Finder) and f.moved == moved for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(moved))
