"""What the subcommands share: exit statuses, option pairs, JSON output, progress."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from puzzles.errors import InputError, UsageError
from puzzles.puzzle import SCORED

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERNAL = 0, 1, 2, 3, 4

SPLIT_CAVEAT = (
    "A cheat who can tile only one side is caught half the time (repeat with fresh commitments), and "
    "the exchange convinces the challenger who chose the side, not a bystander."
)


class _Help(argparse.HelpFormatter):
    """Help that names each option's default, where it has one the text does not already give."""

    def _get_help_string(self, action):
        text = action.help or ""
        if (
            action.option_strings
            and action.default not in (None, False, argparse.SUPPRESS)
            and "default" not in text.lower()
        ):
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # one line, exit 2
        raise UsageError(f"{self.prog}: {message}")


@contextlib.contextmanager
def _refused(prefix: str):
    """A refusal from below (``UsageError``) named by the command it refused: one line, ``prefix: why``.
    Any other exception passes on as it is: a ValueError from below is a bug, reported as one."""
    try:
        yield
    except UsageError as e:
        msg = str(e)
        raise UsageError(msg if msg.startswith(prefix) else f"{prefix}: {msg}") from None


_JSON_STREAM: list = []  # where ``--json`` output goes while the command's stdout is held for it (json_stdout)


def json_stream():
    """The stream a command's JSON answer goes to: stdout as the command was started with, under ``json_stdout``
    (where everything else printed meanwhile has gone to stderr), else ``sys.stdout``."""
    return _JSON_STREAM[-1] if _JSON_STREAM else sys.stdout


def _out(obj) -> None:
    print(json.dumps(obj, indent=1, default=str), file=json_stream())


@contextlib.contextmanager
def json_stdout():
    """While a ``--json`` command works, stdout holds nothing but its JSON: what an engine's C code, a child
    process or a plug-in prints (Ganak's ``c o`` lines, a plug-in's ``print``) goes to stderr, at the level of
    the file descriptor and of ``sys.stdout``; the answer goes to the stdout the command was started with."""
    import os

    sys.stdout.flush()
    real = sys.stdout
    try:
        fd = real.fileno()
    except (AttributeError, OSError, ValueError):  # a captured stdout (a test's): only Python's prints to move
        fd = -1
    saved = os.dup(1) if fd == 1 else -1
    if saved >= 0:
        os.dup2(2, 1)
        real = open(saved, "w", closefd=False, encoding=getattr(sys.stdout, "encoding", None) or "utf-8")
    _JSON_STREAM.append(real)
    held, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout = held
        _JSON_STREAM.pop()
        try:
            sys.stderr.flush()
            real.flush()
        finally:
            if saved >= 0:
                os.dup2(saved, 1)
                os.close(saved)


def _opts(pairs: list[str] | None) -> dict:
    from solving.options import assignments

    return assignments(pairs or [], "--opt")


def _load(a):
    from puzzles import catalog
    from puzzles.files import formats

    p = catalog.load(a.puzzle)
    return p, formats.puzzle_hash(p)


def _db(path: str) -> str:
    from experiments.store import check_readable

    check_readable(path)
    return path


def _json_file(path: str):
    from puzzles.files.formats import _json, read_text

    return _json(path, read_text(path))


def _write(path: str, obj_text: str) -> None:
    """Write the output whole (the command line has refused, before any work, an output that is an input)."""
    from puzzles.files.outputs import atomic_write

    atomic_write(path, obj_text)


def _solution(p, path: str):
    from puzzles.files import formats
    from puzzles.verify import verify

    sol = formats.read_solution(p, path)
    rep = verify(p, sol, allow_mismatch=SCORED in p.features)
    if not (rep.legal and rep.complete):
        raise InputError(path, None, "not a complete legal board of this puzzle: " + "; ".join(rep.problems[:3]))
    return sol, rep


def _live_progress(a, prefix: str | None = None):
    """A live status line on a terminal, a log line every 15 s elsewhere, nothing with --quiet."""
    from solving.progress import LogLines, describe

    if getattr(a, "quiet", False):  # commands without --quiet show progress
        return None, contextlib.nullcontext()
    if a.json or not sys.stderr.isatty():
        return LogLines(prefix or f"eternity solve {a.puzzle}"), contextlib.nullcontext()
    from rich.console import Console

    console = Console(stderr=True)
    status = console.status("working ..." if prefix else "solving ...")

    def progress(info: dict) -> None:
        status.update(describe(info))

    return progress, status
