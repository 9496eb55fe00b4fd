"""Reference pages written from the code: the command line, the solvers and the config format.

The documentation site's reference pages are generated from what the code
already knows, so that they cannot drift from it: the argparse parser, the
solver registry (every option's type, default, range and help) and the
pydantic schema of experiment configs.  ``docs/gen_pages.py`` calls these
functions at build time; the tests call them too.  A parser argument, a
solver option or a config field without help text is an error here, so a
strict site build (and the test suite) fails instead of publishing a blank.
"""

from __future__ import annotations

import argparse
import types
import typing
from typing import Any

from pydantic import BaseModel


class MissingHelp(Exception):
    """Something user-facing has no help text (a bug in the code, not bad input)."""


def _cell(text: Any) -> str:
    """A markdown table cell: pipes escaped, one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


# ---------------------------------------------------------------------------------------------- the command line


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def commands(parser: argparse.ArgumentParser, prefix: str = "eternity") -> list[tuple[str, argparse.ArgumentParser]]:
    """Every command and nested subcommand, as (full name, parser), depth first."""
    out = []
    for name, sub in _subparsers(parser).items():
        full = f"{prefix} {name}"
        out.append((full, sub))
        out.extend(commands(sub, full))
    return out


def _flag(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest.upper()}`"
    names = ", ".join(f"`{o}`" for o in action.option_strings)
    if action.nargs == 0:
        return names
    metavar = action.metavar or action.dest.upper()
    return f"{names} {metavar}"


def _default(action: argparse.Action) -> str:
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS) or action.required:
        return ""
    if isinstance(action.default, list) and not action.default:
        return ""
    return f"`{action.default}`"


def cli_markdown(parser: argparse.ArgumentParser) -> str:
    """The command-line reference: every subcommand with its usage and every argument with its help."""
    lines = [
        "# Command line",
        "",
        "Generated from the parser (`eternity/cli.py`) when the site is built. "
        "`eternity COMMAND --help` prints the same.",
        "",
        "Exit status: 0 answered; 1 `verify` or `check-proof` found the answer invalid; 2 bad input or usage "
        "(one line naming the file, the field and the problem; nothing written); 3 a limit stopped the work "
        "before an answer; 4 an internal error (a bug: the traceback goes to a file named on stderr); "
        "130 interrupted.",
        "",
        "| command | what it does |",
        "|---|---|",
    ]
    cmds = commands(parser)
    summaries = {}
    for full, sub in [("eternity", parser)] + cmds:
        for name, text in _summaries(sub).items():
            summaries[f"{full} {name}"] = text
    for full, _ in cmds:
        text = summaries.get(full, "")
        if not text and not _subparsers(dict(cmds)[full]):
            raise MissingHelp(f"command {full!r} has no help text")
        lines.append(f"| [`{full}`](#{_anchor(full)}) | {_cell(text)} |")
    lines.append("")
    for full, sub in cmds:
        lines += [f"## {full}", ""]
        if summaries.get(full):
            lines += [summaries[full][0].upper() + summaries[full][1:] + ".", ""]
        if sub.description:
            lines += [sub.description, ""]
        usage = " ".join(sub.format_usage().split())
        lines += ["```", usage.removeprefix("usage: "), "```", ""]
        rows = []
        for action in sub._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                raise MissingHelp(f"{full}: argument {action.dest!r} has no help text")
            choices = ""
            if action.choices is not None and not isinstance(action.choices, dict):
                choices = ", ".join(f"`{c}`" for c in action.choices)
            text = action.help % {"default": action.default} if "%(default)" in action.help else action.help
            rows.append(f"| {_flag(action)} | {_cell(text)} | {_default(action)} | {choices} |")
        if rows:
            lines += ["| argument | meaning | default | choices |", "|---|---|---|---|", *rows, ""]
    return "\n".join(lines) + "\n"


def _anchor(title: str) -> str:
    """The id MkDocs gives a heading (lower case, spaces to dashes, punctuation dropped)."""
    out = "".join(ch if ch.isalnum() or ch in " -_" else "" for ch in title.lower())
    return "-".join(out.split())


# ---------------------------------------------------------------------------------------------------- solvers


def _kind_name(kind: type) -> str:
    return {int: "integer", float: "number", bool: "true/false", str: "string"}.get(kind, kind.__name__)


def _first_paragraph(doc: str | None) -> str:
    if not doc:
        return ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def solvers_markdown(names: list[str] | None = None) -> str:
    """Every solver this project ships: what it is, its modes and puzzle kinds, and each option."""
    import solving
    from solving import registry

    names = registry.own() if names is None else names
    lines = [
        "# Solvers",
        "",
        "Generated from the solver registry (the `eternity.solvers` entry points) when the site is built. "
        "`eternity solvers` lists them on a machine, with any plug-ins; `eternity solvers NAME` shows one. "
        "Options are given as `--opt K=V` on the command line, and as `options = { K = V }` (a list is a "
        "grid) in a config.",
        "",
        "| solver | modes | puzzle kinds | what it is |",
        "|---|---|---|---|",
    ]
    classes = {n: solving.solver_class(n) for n in names}
    for n, cls in classes.items():
        doc = _first_paragraph(cls.__doc__)
        if not doc:
            raise MissingHelp(f"solver {n!r} ({cls.__module__}.{cls.__name__}) has no docstring")
        lines.append(f"| [`{n}`](#{_anchor(n)}) | {', '.join(cls.MODES)} | {', '.join(cls.kinds())} | {_cell(doc)} |")
    lines.append("")
    for n, cls in classes.items():
        lines += [
            f"## {n}",
            "",
            f"`{cls.__module__}.{cls.__name__}`: {_first_paragraph(cls.__doc__)}",
            "",
            f"Modes: {', '.join(f'`{m}`' for m in cls.MODES)}. "
            f"Puzzle kinds: {', '.join(f'`{k}`' for k in cls.kinds())}."
            + (" Counts split into parts (`split_depth`)." if getattr(cls, "CAN_SPLIT", False) else ""),
            "",
        ]
        if not cls.OPTIONS:
            lines += ["No options.", ""]
            continue
        lines += ["| option | type | default | allowed | meaning |", "|---|---|---|---|---|"]
        for k, o in cls.OPTIONS.items():
            if not (o.help or "").strip():
                raise MissingHelp(f"solver {n!r}: option {k!r} has no help text")
            allowed = (
                ", ".join(f"`{c}`" for c in o.choices) if o.choices else (o.range if o.kind in (int, float) else "")
            )
            default = "" if o.default in ("", None) else f"`{o.default}`"
            lines.append(f"| `{k}` | {_kind_name(o.kind)} | {_cell(default)} | {_cell(allowed)} | {_cell(o.help)} |")
        lines.append("")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------------ the config


def _type_name(ann: Any) -> str:
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Annotated:
        return _type_name(args[0])
    if origin is typing.Literal:
        return " or ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args if a is not type(None)) + (
            " (optional)" if type(None) in args else ""
        )
    if origin is list:
        return f"list of {_type_name(args[0])}"
    if origin is dict:
        return f"table of {_type_name(args[1])}"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return f"[{ann.__name__}](#{ann.__name__.lower()})"
    return {int: "integer", float: "number", bool: "boolean", str: "string"}.get(
        ann, getattr(ann, "__name__", str(ann))
    )


def _bounds(field) -> str:
    parts = []
    for m in field.metadata:
        for attr, sym in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"), ("min_length", "at least")):
            v = getattr(m, attr, None)
            if v is not None:
                parts.append(f"{sym} {v:,}" if isinstance(v, int) else f"{sym} {v}")
    return ", ".join(parts)


def config_markdown() -> str:
    """The experiment config format, every table and field, from the pydantic models."""
    from experiments import config, families, plugins

    models: list[type[BaseModel]] = [
        config.Config,
        config.SolverSpec,
        families.EdgeFamily,
        families.PolyformFamily,
        families.PiecesFamily,
        families.BuiltinFamily,
        families.FilesFamily,
        families.CnfFamily,
        families.ExcessFamily,
        plugins.PluginFamily,
        families.Range,
        families.Around,
    ]
    family_kinds = typing.get_args(typing.get_args(config.Family)[0])
    missing = [m for m in family_kinds if m not in models]
    if missing:
        raise MissingHelp(f"config reference: family class {missing[0].__name__} is not documented")
    lines = [
        "# Config format",
        "",
        "Generated from the pydantic schema (`experiments/config.py`, `experiments/families/`) when the site "
        "is built. A config is a TOML file; `eternity run CONFIG` checks all of it before anything runs, and a "
        "problem is one line naming the file, the field and what is wrong. Unknown fields are errors.",
        "",
    ]
    for model in models:
        doc = _first_paragraph(model.__doc__)
        if not doc:
            raise MissingHelp(f"config model {model.__name__} has no docstring")
        title = model.__name__
        lines += [f"## {title}", "", doc, "", "| field | type | default | bounds | meaning |", "|---|---|---|---|---|"]
        for name, field in model.model_fields.items():
            if not field.description:
                raise MissingHelp(f"config field {model.__name__}.{name} has no description")
            default = "required" if field.is_required() else f"`{field.default!r}`".replace("'", '"')
            lines.append(
                f"| `{name}` | {_cell(_type_name(field.annotation))} | {_cell(default)} | "
                f"{_cell(_bounds(field))} | {_cell(field.description)} |"
            )
        lines.append("")
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """The generated reference pages, by their path under ``docs/``: committed, so that a link to them works in
    the tree as on the site, and held current by a test (``python -m eternity.reference`` writes them again)."""
    from eternity import cli

    return {
        "reference/cli.md": cli_markdown(cli.build_parser()),
        "reference/solvers.md": solvers_markdown(),
        "reference/config.md": config_markdown(),
    }


if __name__ == "__main__":  # python -m eternity.reference [DOCS]: write the pages into the docs folder
    import sys
    from pathlib import Path

    docs = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    for rel, text in pages().items():
        (docs / rel).write_text(text)
        print(f"wrote {docs / rel}")
