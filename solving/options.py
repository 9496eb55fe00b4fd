"""Solver options: each solver declares its options once, and one parser reads them from every
place a user writes them.

An ``Option`` says its type, default, allowed values, help, where it applies (puzzle kinds,
modes) and whether it changes the search (``fingerprint``: a checkpoint written under other
values of it is not resumed).  Options arrive as ``KEY=VALUE`` text from the command line
(``--opt``) and from a portfolio's members (``name:k=v,k=v``), and as typed values from a
config; ``assignments`` reads the text forms, ``Option.parse`` every value.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, cast, overload

from puzzles import ranges
from puzzles.errors import UsageError
from puzzles.puzzle import kinds_with

INT_TOP = (1 << 62) - 1  # the largest value of an integer option without a declared top
_KIND_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


T = TypeVar("T")


class Option(Generic[T]):
    """A solver option: type, default, allowed values (``choices``, or the range ``lo``..``hi``), help;
    ``features`` and ``modes``: the puzzle features (any of them: ``puzzles.puzzle.FEATURES``) and the modes it
    applies to (None: all), refused elsewhere;
    ``fingerprint``: whether it enters a checkpoint's fingerprint (False for options that change
    how a run is carried out, not what it searches: threads, checkpoint paths, budgets).

    Declared as a class attribute of an ``Opts`` class, it is a typed attribute: ``opts.order`` reads the
    parsed value, and mypy knows its type from ``kind`` (``Option(int, 4)`` reads as an ``int``)."""

    name: str = ""

    def __init__(
        self,
        kind: type[T],
        default: T,
        help: str = "",
        choices: tuple | None = None,
        lo: float | None = None,
        hi: float | None = None,
        *,
        features: tuple[str, ...] | None = None,
        modes: tuple[str, ...] | None = None,
        fingerprint: bool = True,
    ):
        self.kind, self.default, self.help, self.choices = kind, default, help, choices
        self.lo, self.hi = lo, hi
        self.features, self.modes, self.fingerprint = features, modes, fingerprint

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Option[T]: ...

    @overload
    def __get__(self, obj: Opts, owner: type | None = None) -> T: ...

    def __get__(self, obj: Opts | None, owner: type | None = None) -> Option[T] | T:
        if obj is None:
            return self
        return obj._values[self.name]  # type: ignore[no-any-return]

    def __set__(self, obj: Opts, value: T) -> None:
        raise AttributeError(f"option {self.name} is read-only: a solver's options are fixed when it is made")

    @property
    def range(self) -> str:
        """The declared range, as help and errors write it ("1..", "0..2")."""
        return ranges.describe(self.lo, self.hi)

    @property
    def applies(self) -> str:
        """Where the option applies, for help ("" when everywhere)."""
        parts = []
        if self.features:
            parts.append("/".join(kinds_with(self.features)) + " puzzles")
        if self.modes:
            parts.append("mode " + "/".join(self.modes))
        return ", ".join(parts)

    def refusal(self, name: str, puzzle: Any, mode: str | None) -> str | None:
        """Why the option, asked for by name, does not apply to ``puzzle`` in ``mode`` (either None: not known
        yet); None when it does."""
        if self.modes and mode is not None and mode not in self.modes:
            return f"option {name} is for mode {' or '.join(self.modes)}, not mode {mode}"
        if self.features and puzzle is not None and not puzzle.features & set(self.features):
            return f"option {name} is for {' or '.join(kinds_with(self.features))} puzzles, not {puzzle.kind} puzzles"
        return None

    def parse(self, name: str, value: Any) -> T:
        """``value`` (text from ``--opt`` or a member string, or a typed value from a config) as this option's
        type, checked against its choices and range; ``UsageError`` naming the option otherwise."""
        if isinstance(value, str) and self.kind is not str:
            try:
                value = (
                    {"true": True, "false": False}[value.lower()] if self.kind is bool else cast(Any, self.kind)(value)
                )
            except (ValueError, KeyError):
                hint = (
                    " (one value an option: a=1 and b=2 are two assignments)" if "," in value and "=" in value else ""
                )
                raise UsageError(f"option {name}: {value!r} is not {_KIND_NAMES[self.kind]}{hint}") from None
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise UsageError(f"option {name}: {value!r} is not {_KIND_NAMES[self.kind]}")
        if self.choices and value not in self.choices:
            raise UsageError(f"option {name}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            # an integer option without a declared top still fits the 64-bit integers the engines take
            hi = self.hi if self.hi is not None or self.kind is not int else INT_TOP
            ranges.in_range(f"option {name}", value, self.lo, hi)
        return value


def assignments(pairs: list[str], where: str = "option") -> dict[str, str]:
    """``["k=v", ...]`` -> ``{k: v}``, the values still text (each solver's ``Option.parse`` reads them);
    ``where`` names the source in errors ("--opt" from the command line, "member 'beam:width=4'")."""
    out: dict[str, str] = {}
    for kv in pairs:
        k, eq, v = kv.partition("=")
        if not eq or not k.strip():
            raise UsageError(f"{where} {kv!r}: expected KEY=VALUE")
        if k.strip() in out and out[k.strip()] != v.strip():  # which one was meant? say so, not the last silently
            raise UsageError(f"{where}: option {k.strip()} given twice ({out[k.strip()]!r} and {v.strip()!r})")
        out[k.strip()] = v.strip()
    return out


def fingerprint_options(declared: dict[str, Option], values: dict[str, Any]) -> dict[str, Any]:
    """The options that enter a checkpoint's fingerprint (``Option.fingerprint``), by name."""
    return {k: v for k, v in values.items() if k in declared and declared[k].fingerprint}


class Opts:
    """A solver's options: a class whose attributes are ``Option`` declarations, one per option, and whose
    instances hold the parsed values, read as typed attributes (``self.opts.order``).

    The declarations are the single source of the command line's ``--opt`` help, a config's validation and
    the reference page (``declared``).  A solver names its class as ``Options``::

        class EdgeOptions(Opts):
            order = Option(str, "rowscan", "the order cells are filled in", ORDERS)

        class EdgeBacktrack(SolverBase):
            Options = EdgeOptions
            opts: EdgeOptions
    """

    def __init__(self, values: dict[str, Any] | None = None):
        declared = self.declared()
        given = dict(values or {})
        unknown = sorted(set(given) - set(declared))
        if unknown:
            raise UsageError(f"unknown option {unknown[0]!r} (known: {', '.join(sorted(declared)) or 'none'})")
        self._values = {k: o.default for k, o in declared.items()} | given

    @classmethod
    def declared(cls) -> dict[str, Option]:
        """The options by name, in declaration order (a subclass's after its bases')."""
        out: dict[str, Option] = {}
        for klass in reversed(cls.__mro__):
            for k, v in vars(klass).items():
                if isinstance(v, Option):
                    out[k] = v
        return out

    def as_dict(self) -> dict[str, Any]:
        """Every option's value by name (a copy): for a fingerprint, a child process, a log."""
        return dict(self._values)

    def get(self, name: str, default: Any = None) -> Any:
        """An option by name, for code that takes the option's name as data (a portfolio's member, a
        fingerprint); code that knows the name reads the attribute."""
        return self._values.get(name, default)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._values.items())})"


def options_class(name: str, declared: dict[str, Option]) -> type[Opts]:
    """An ``Opts`` class made from a dict of declarations: for a plug-in that declares ``OPTIONS`` as a dict."""
    return type(name, (Opts,), {k: v for k, v in declared.items()})
