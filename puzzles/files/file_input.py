"""Reading an input file safely: its size, its kind (no FIFO or device), its encoding, its numbers' lengths, its
JSON; and a pydantic error turned into one line naming the file and the field (``InputError``)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from puzzles.errors import InputError


def puzzle_hash(puzzle) -> str:
    """sha256 of the canonical puzzle (the name does not count)."""
    blob = json.dumps(puzzle.canonical(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


_TAGS = (
    "edge",
    "polyform",
    "builtin",
    "files",
    "cnf",
    "excess",
    "pieces",
    "plugin",
)  # discriminator values pydantic puts in a location
_INTERNAL = re.compile(
    r"^(function-|list\[|dict\[|json-or-python\[|constrained-|int$|float$|str$|bool$|"
    r"is-instance\[|tagged-union\[|union\[|nullable\[|model\[)"
)


def _loc(err) -> str:
    """The field an error is about, as the file names it: pydantic's union and tag steps left out."""
    out: list[str] = []
    for i, x in enumerate(err.get("loc", ())):
        s = str(x)
        if _INTERNAL.match(s) or (i == 0 and s.startswith("eternity/")):
            continue
        if s in _TAGS and out and out[-1].isdigit():  # families.0.edge.rows: the family's kind tag
            continue
        out.append(s)
    return ".".join(out) or "(top level)"


def problem_words(err: Mapping[str, Any]) -> str:
    """A validator's complaint in the file's terms: pydantic's "Value error, " and "Input " left out."""
    msg = str(err.get("msg", "invalid")).replace("\n", " ").removeprefix("Value error, ")
    msg = re.sub(r"^(Input|List|String|Dictionary|Tuple|Set|Value) should", "should", msg)
    return msg.replace(" after validation", "")


def _validation(source: str, exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    msg = problem_words(err)
    n = len(exc.errors()) - 1
    more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
    return InputError(source, _loc(err), msg + more)


MAX_FILE_BYTES = 64 * 2**20  # no puzzle, solution or config comes near: a larger input is refused, not read


def refuse_special(path: str | os.PathLike) -> None:
    """A named pipe or a socket is refused before it is opened (opening a FIFO waits for a writer)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return  # the open that follows names the problem
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise InputError(str(path), None, "is a named pipe or a socket, not a file")


def read_text(path: str | os.PathLike) -> str:
    """A text file (UTF-8, with or without a byte-order mark, or UTF-16 with one), read up to
    MAX_FILE_BYTES: /dev/zero or a huge file is refused, not read without end."""
    p = Path(path)
    refuse_special(p)
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise InputError(
                str(path), None, f"larger than {MAX_FILE_BYTES // 2**20} MB: not a file this program reads"
            )
    except FileNotFoundError:
        raise InputError(str(path), None, "no such file") from None
    except IsADirectoryError:
        raise InputError(str(path), None, "is a directory, not a file") from None
    except OSError as e:
        raise InputError(str(path), None, f"cannot read ({e.strerror})") from None
    try:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            text = data.decode("utf-16")
        else:
            text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(str(path), None, "not a text file (bytes that are not UTF-8)") from None
    refuse_long_numbers(str(path), text)
    return text


MAX_DIGITS = 4300  # digits of one number an input may hold: Python's own cap on reading one, kept for inputs
_LONG_NUMBER = re.compile(r"\d{" + str(MAX_DIGITS + 1) + "}")


def refuse_long_numbers(source: str, text: str) -> None:
    """Refuse a number longer than MAX_DIGITS before anything parses it: reading one takes time
    quadratic in its digits, and no field of any input needs a tenth of them."""
    if _LONG_NUMBER.search(text):
        raise InputError(source, None, f"holds a number of more than {MAX_DIGITS} digits")


def whole_numbers() -> None:
    """Let exact integers of any size be written: a count of a board of many identical pieces runs to
    tens of thousands of digits, and counts are stored, tabled and printed exactly.  Python caps the
    digits of int-to-text conversions in both directions; an entry point lifts the cap once, and the
    inputs keep theirs through ``refuse_long_numbers``."""
    sys.set_int_max_str_digits(0)


def shown_int(n: int, digits: int = 40) -> str:
    """An integer for a person: exact up to ``digits`` digits, else its leading digits, power of ten
    and length (JSON output keeps it exact)."""
    if abs(n) < 10**digits:
        return str(n)
    lg = math.log10(abs(n))
    mant = 10 ** (lg - math.floor(lg))
    return f"{'-' if n < 0 else ''}{mant:.4f}e+{math.floor(lg)} ({math.floor(lg) + 1:,} digits)"


def _json(source: str, text: str) -> Any:
    if not text.strip():
        raise InputError(source, None, "empty file")
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(source, None, "JSON nested too deeply") from None
    except json.JSONDecodeError as e:
        what = e.msg.removesuffix(" at")  # "Unterminated string starting at", "Expecting value", ...
        raise InputError(
            source, f"line {e.lineno} column {e.colno}", f"invalid JSON: {what[0].lower() + what[1:]} here"
        ) from None
