"""Where the generated kernels are kept: their source files on disk, imported once a process, compiled
by numba once a machine.

A kernel's file is named by a hash of everything its compiled code depends on: its own source, the
source of every project module it imports (``IMPORTED``: the loads and bit tricks, the slot names), and
numba's version.  numba caches the machine code beside the file and checks only that file's time
stamp, so a change in an imported module must make a new name, or numba would load the old code.

The cache is ``ETERNITY_KERNEL_DIR`` (default ``~/.cache/eternity/kernels``).  It is bounded: once it
holds more than ``KEEP`` kernels, the ones used longest ago go, with numba's files beside them (a
kernel's use touches its file).  A cache that cannot be written is replaced by one of this process.
numba's files of each kernel are sealed (``sealed``): a digest of each beside the key, so that a damaged
or swapped cache file is found and the kernel compiled again, never loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from functools import cache
from pathlib import Path
from typing import NamedTuple

from baseline.edge.generated_source import IMPORTED, Shape, source

KEEP = 200  # kernels kept in the cache (a 16x16 depth-by-depth kernel and numba's files: about 1 MB)


def cache_dir() -> Path:
    """The kernel cache's folder: ``$ETERNITY_KERNEL_DIR``, else ``~/.cache/eternity/kernels``."""
    return Path(os.environ.get("ETERNITY_KERNEL_DIR") or Path.home() / ".cache" / "eternity" / "kernels")


@cache
def _dependencies() -> bytes:
    """The source of every module a generated kernel imports, and numba's version: part of every key."""
    import numba

    parts = [numba.__version__.encode()]
    for module in IMPORTED:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, module
        parts.append(Path(spec.origin).read_bytes())
    return b"\0".join(parts)


def key(src: str) -> str:
    """The name of a kernel's module: its source and its dependencies hashed (module docstring)."""
    return "kernel_" + hashlib.sha256(_dependencies() + b"\0" + src.encode()).hexdigest()[:20]


_loaded: dict[str, object] = {}
_lock = threading.Lock()
_private: Path | None = None  # where kernels go when the cache cannot be written


def _write(d: Path, name: str, src: str) -> Path:
    """The kernel's source file in ``d``, written unless it is there already (then touched: used now)."""
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{name}.py"
    if not path.exists() or path.read_text() != src:
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")  # whole or absent, also with racing writers
        try:
            with os.fdopen(fd, "w") as f:
                f.write(src)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # as any file written here, not mkstemp's 0600
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    else:
        os.utime(path)
    return path


def evict(d: Path, keep: int = KEEP) -> list[str]:
    """Remove all but the ``keep`` kernels of ``d`` used last, with numba's cache files of each; returns the
    names removed.  A file another process removes first, or one it cannot, is left to it."""
    found = []
    for p in d.glob("kernel_*.py"):
        try:
            found.append((p.stat().st_mtime, p))
        except OSError:
            continue
    if len(found) <= keep:
        return []
    found.sort(reverse=True)
    gone = []
    for _, p in found[keep:]:
        name = p.stem
        for f in [p, _seal_path(d, name), *_numba_files(d, name)]:
            try:
                f.unlink()
            except OSError:
                pass
        gone.append(name)
    return gone


def numba_dir(d: Path) -> Path:
    """Where numba keeps the cache files of the kernels in ``d``: beside them (``__pycache__``), or, where
    ``NUMBA_CACHE_DIR`` is set, in numba's own folder for ``d`` (its ``UserProvidedCacheLocator``)."""
    from numba.core import config
    from numba.core.caching import UserProvidedCacheLocator

    root = getattr(config, "CACHE_DIR", "")  # set from NUMBA_CACHE_DIR when numba is imported
    if root:
        return Path(root) / UserProvidedCacheLocator.get_suitable_cache_subpath(str(d / "kernel.py"))
    return d / "__pycache__"


def _numba_files(d: Path, name: str) -> list[Path]:
    """numba's cache files of one kernel (its index and its machine code), wherever numba keeps them."""
    return sorted(numba_dir(d).glob(f"{name}.*"))


def _digests(files: list[Path]) -> dict[str, str]:
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def _seal_path(d: Path, name: str) -> Path:
    return d / f"{name}.seal"


def sealed(d: Path, name: str) -> bool:
    """Whether numba's files of a kernel are the ones this project compiled and sealed: the seal beside the key
    holds a digest of each.  numba checks only the source file's time stamp, so a truncated index (which it
    fails to unpickle) or machine code of another source under this name would otherwise be loaded."""
    import json

    try:
        want = json.loads(_seal_path(d, name).read_text())
        return isinstance(want, dict) and want == _digests(_numba_files(d, name))
    except (OSError, ValueError):
        return False


def _reseal(d: Path, name: str) -> None:
    """Seal numba's files of a kernel as they are now (after it was loaded or compiled); a seal that cannot be
    written leaves the kernel unsealed, to be compiled again next time."""
    import json

    try:
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(_digests(_numba_files(d, name)), sort_keys=True))
        os.replace(tmp, _seal_path(d, name))
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def _discard(d: Path, name: str) -> None:
    """numba's files of a kernel and its seal removed: the next load compiles it again."""
    for f in [*_numba_files(d, name), _seal_path(d, name)]:
        try:
            f.unlink()
        except OSError:
            pass


class Compiled(NamedTuple):
    """A generated kernel, its module's name and the seconds its loading or compiling took in this process."""

    kernel: object
    name: str  # the module's name: kernel_<hash>
    seconds: float  # time spent loading or compiling it in this process (0 once loaded)


def compiled(s: Shape, warm) -> Compiled:
    """The kernel of a shape: imported from the cache (written first if new), compiled on its first
    call (``warm(kernel)`` makes that call, so its time is the build's, not the search's)."""
    src = source(s)
    name = key(src)
    with _lock:
        if name in _loaded:
            return Compiled(_loaded[name], name, 0.0)
        t0 = time.perf_counter()
        try:
            d = cache_dir()
            path = _write(d, name, src)
            evict(d)
        except (OSError, RuntimeError):  # no cache to make or write (RuntimeError: no home directory): this
            # process's own, compiled again next time
            global _private
            if _private is None:
                _private = Path(tempfile.mkdtemp(prefix="eternity-kernels-"))
            path = _write(_private, name, src)
        d = path.parent
        rebuilt = False
        if _numba_files(d, name) and not sealed(d, name):  # damaged, or not what was compiled here: rebuilt
            _discard(d, name)
            rebuilt = True
        if not _numba_files(d, name):
            _announce(name, rebuilt)
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        warm(module.kernel)
        if not sealed(d, name):  # compiled now (or by numba's own rebuild): seal what it wrote
            _reseal(d, name)
        _loaded[name] = module.kernel
        return Compiled(module.kernel, name, time.perf_counter() - t0)


def _announce(name: str, rebuilt: bool) -> None:
    """A kernel compiled now takes seconds (tens on a large board): said on a terminal's stderr, so that a first
    solve is not silent (not in logs or pipes, and not with ``ETERNITY_QUIET_COMPILE`` set)."""
    if os.environ.get("ETERNITY_QUIET_COMPILE") or not sys.stderr.isatty():
        return
    why = "its cached machine code was damaged or unsealed; " if rebuilt else ""
    print(f"eternity: {why}compiling the search kernel for this board ({name}; once a machine)", file=sys.stderr)
