"""Declared ranges of numbers, checked with the one-line error the command line prints.

``in_range`` checks one value (solver options use it through ``solving.Option``); ``arg`` makes an
argparse ``type`` that parses and checks a command-line number, so ``--rows 100000`` is refused
before any work with "argument --rows: 100000 is outside its range 2..1000".
"""

from __future__ import annotations

import argparse
import math

from puzzles.errors import UsageError

MAX_SIDE = 256  # the longest board side the file readers accept (and so the generators make): 65,536
# cells, 256 times Eternity II; the tables of a 1000x1000 board took a minute to build before any search


def describe(lo: float | None, hi: float | None) -> str:
    """A range as help and errors write it: ``1..``, ``0..2``."""
    fmt = lambda v: "" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))  # noqa: E731
    return f"{fmt(lo)}..{fmt(hi)}"


def violation(value: float, lo: float | None, hi: float | None) -> str | None:
    """What is wrong with ``value`` for the range ``lo..hi`` (both inclusive), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value!r} is not a finite number"
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        return f"{value!r} is outside its range {describe(lo, hi)}"
    return None


def in_range(what: str, value: float, lo: float | None = None, hi: float | None = None) -> float:
    """``value``, or ``UsageError`` naming ``what`` when it is outside ``lo..hi`` or not finite."""
    problem = violation(value, lo, hi)
    if problem:
        raise UsageError(f"{what}: {problem}")
    return value


def arg(kind: type, lo: float | None = None, hi: float | None = None):
    """An argparse ``type``: ``kind`` (int or float) within ``lo..hi``."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {'a whole number' if kind is int else 'a number'}"
            ) from None
        problem = violation(value, lo, hi)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return value

    parse.__name__ = kind.__name__
    return parse


def whole_numbers(text: str, what: str, at_least: str, example: str = "") -> list[int]:
    """A comma-separated list of whole numbers, each at least 1; ``what`` names the argument in an error,
    ``at_least`` says what a number below 1 breaks, ``example`` shows a good value."""
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        eg = f" (e.g. {example})" if example else ""
        raise UsageError(f"{what} {text!r}: whole numbers separated by commas{eg}") from None
    if not out or min(out) < 1:
        raise UsageError(f"{what} {text!r}: {at_least}")
    return out
