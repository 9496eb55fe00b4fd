"""The two kinds of bad request, on the ground floor so that every layer can raise them.

The command line turns either into one line on stderr and exit status 2
(docs/ARCHITECTURE.md, "The command line"); nothing else needs to know how they are shown.
"""

from __future__ import annotations

import os


class InputError(Exception):
    """Bad input in a file: the message names the file, the field and what is wrong."""

    def __init__(self, source: str | os.PathLike[str], field: str | None, problem: str):
        self.source, self.field, self.problem = str(source), field, problem
        shown = self.source if len(self.source) <= 200 else self.source[:100] + "..." + self.source[-60:]
        where = f"{shown}: {field}: " if field else f"{shown}: "
        super().__init__(where + problem)


class UsageError(ValueError):
    """A request the program cannot carry out as asked: a bad option, a mode a solver lacks.

    A ValueError, so code that validates values raises it and callers that catch ValueError keep working."""


class Unavailable(UsageError):
    """A request this machine cannot carry out because something it needs is not installed or does not import:
    a solver's binary, an extra, an engine's backend.  A usage error to the command line (exit 2); to the
    experiment runner, cells it stores as ``unavailable``, naming what is missing and how to get it, instead
    of leaving the row out."""


class LimitReached(Exception):
    """A limit the user set ran out before the work it bounds could start (a compressed file still being read
    when the solve's time limit passed): one line on stderr and exit status 3, as any limit."""
