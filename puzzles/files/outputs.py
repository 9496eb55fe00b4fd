"""Where results go: checked before any work, written whole, kept when writing fails at the end.

* ``check(path, option, kind)`` refuses, before a long solve starts, an output
  that cannot be written: a directory where a file is wanted, a place nothing
  can be created (it tries, with a probe file it removes), an image name
  without a known format.
* ``atomic_write`` / ``atomic_save`` write to a temporary file beside the
  target and rename it over, so a file is there whole or not at all; the mode
  follows the user's umask (0644 under umask 0022), as ``open`` would give.
* ``write_or_rescue`` writes an answer and, if writing fails after all (a full
  disk, a directory removed meanwhile), writes it to a rescue file instead and
  says where in the one-line error: a long solve's answer is never lost.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from puzzles.errors import UsageError

IMAGE_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "eps", "ps", "tif", "tiff", "webp")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _writable_dir(d: Path) -> str | None:
    """Why nothing can be created in directory ``d`` (a probe file is made and removed), or None."""
    try:
        fd, probe = tempfile.mkstemp(dir=d, prefix=".eternity-probe-")
    except OSError as e:
        return e.strerror or str(e)
    os.close(fd)
    os.unlink(probe)
    return None


def _nearest_existing(p: Path) -> Path:
    p = p.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def check(path: str | os.PathLike, option: str, kind: str = "file") -> None:
    """Refuse an output that cannot be written, before any work (``UsageError`` naming the option).
    ``kind``: file, image (a format matplotlib writes), svg (an SVG picture: the name must end in .svg),
    dir (created if missing) or db (SQLite).  An empty name, and a FIFO, a device or a symlink loop
    where a file is wanted, are refused: a file is always written whole, as a regular file."""
    where = f"{option} {path}"
    if not str(path).strip():
        raise UsageError(f"{option}: an empty file name")
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as e:  # a symlink loop, a name too long
        raise UsageError(f"{where}: {e.strerror or e}") from None
    if st is not None and kind != "dir" and not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        raise UsageError(f"{where}: not a regular file (a FIFO, a device or a socket); give a file name")
    if kind == "svg" and p.suffix.lower() != ".svg":
        raise UsageError(f"{where}: the picture is SVG; give a name ending in .svg")
    if kind == "dir":
        if p.exists() and not p.is_dir():
            raise UsageError(f"{where}: not a directory")
    elif p.is_dir():
        raise UsageError(f"{where}: is a directory, expected a file name")
    if kind == "image":
        suffix = p.suffix.lower().lstrip(".")
        if suffix not in IMAGE_FORMATS:
            raise UsageError(f"{where}: not an image format I can write (use one of {', '.join(IMAGE_FORMATS)})")
    if kind == "db" and p.is_file():
        with open(p, "rb") as f:
            head = f.read(16)
        if head and head != b"SQLite format 3\x00":
            raise UsageError(f"{where}: exists and is not a results database (SQLite)")
    base = p if kind == "dir" and p.is_dir() else _nearest_existing(p.parent if kind != "dir" else p)
    if not base.is_dir():
        raise UsageError(f"{where}: {base} is not a directory")
    problem = _writable_dir(base)
    if problem:
        raise UsageError(f"{where}: cannot write in {base} ({problem})")
    if p.is_file() and not os.access(p, os.W_OK):
        raise UsageError(f"{where}: the file is not writable")


def refuse_overwriting_inputs(outputs: dict[str, str], inputs: list[str]) -> None:
    """An output that is one of the command's inputs, or another of its outputs, is refused: writing it
    would destroy what the command reads (``solve p.json -o p.json``) or what it just wrote."""
    seen: dict[Path, str] = {}

    def is_file(i: str) -> bool:
        try:
            return Path(i).is_file()
        except (OSError, ValueError):  # a name too long, or with a NUL: not a file; its reader says why
            return False

    ins = {Path(i).resolve(): i for i in inputs if i and is_file(i)}
    for option, path in outputs.items():
        if not path:
            continue
        r = Path(path).resolve()
        if r in ins:
            raise UsageError(f"{option} {path}: is an input of this command ({ins[r]}); it would be overwritten")
        if r in seen:
            raise UsageError(f"{option} {path}: is also {seen[r]}; give each output its own file")
        seen[r] = f"{option} {path}"


def atomic_save(path: str | os.PathLike, save: Callable[[str], None]) -> None:
    """``save(tmp)`` writes a temporary file beside ``path`` (same suffix), which then replaces it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        save(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        if e.filename in (None, tmp):  # a full disk under the temporary file: the error names the file asked for
            raise OSError(e.errno, e.strerror or str(e), str(path)) from e
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(path: str | os.PathLike, text: str) -> None:
    """Write-then-rename: a file is there whole or not at all."""

    def save(tmp: str) -> None:
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    atomic_save(path, save)


def rescue(text: str, path: str | os.PathLike) -> str:
    """Write ``text`` somewhere it can go (the working directory, else the temporary one); that place."""
    name = f"{Path(path).stem}.rescued-{time.strftime('%Y%m%d-%H%M%S')}{Path(path).suffix}"
    for d in (Path.cwd(), Path(tempfile.gettempdir())):
        try:
            atomic_write(d / name, text)
            return str(d / name)
        except OSError:
            continue
    raise UsageError(f"could not write {path}, nor a rescue copy in {Path.cwd()} or {tempfile.gettempdir()}")


def write_or_rescue(path: str | os.PathLike, text: str, what: str) -> None:
    """``atomic_write``, and when that fails, a rescue copy and one line that says where it is."""
    try:
        atomic_write(path, text)
    except OSError as e:
        alt = rescue(text, path)
        raise UsageError(f"could not write {what} to {path} ({e.strerror or e}); it is in {alt}") from None
