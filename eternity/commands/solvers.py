"""`eternity solvers`: the registered solvers, their modes, kinds and options."""

from __future__ import annotations

import sys
from typing import Any

from eternity.commands.common import _out
from puzzles.errors import UsageError


def cmd_solvers(a) -> int:
    """Run `eternity solvers` with the parsed arguments ``a``; returns the exit status."""
    from rich.console import Console

    import solving
    from solving.registry import BrokenPlugin

    rows: list[dict[str, Any]] = []
    broken: dict[str, str] = {}
    for name in solving.names():
        try:
            cls = solving.solver_class(name)
        except BrokenPlugin as e:  # named in one line; the others are listed as ever
            broken[name] = str(e)
            continue
        rows.append(
            {
                "name": name,
                "modes": list(cls.MODES),
                "kinds": list(cls.kinds()),
                "options": {
                    k: {
                        "type": o.kind.__name__,
                        "default": o.default,
                        "choices": list(o.choices or []),
                        "range": o.range if o.kind in (int, float) else None,
                        "help": o.help,
                    }
                    for k, o in cls.OPTIONS.items()
                },
                "doc": (cls.__doc__ or sys.modules[cls.__module__].__doc__ or "").strip().splitlines()[0],
                "here": cls.here() if a.name == name or a.json else None,
            }
        )
    if a.name and a.name in broken:
        raise UsageError(broken[a.name])
    if a.name:
        rows = [r for r in rows if r["name"] == a.name]
        if not rows:
            raise UsageError(f"solvers: no solver named {a.name!r} (registered: {', '.join(solving.names())})")
    if a.json:
        _out(rows + [{"name": n, "broken": why} for n, why in broken.items()])
        return 0
    if not a.name:  # one line a solver, within 80 columns; `eternity solvers NAME` for its options
        for r in rows:
            doc = r["doc"].removeprefix(f"`{r['name']}`: ")
            line = f"{r['name']:<15} {'/'.join(r['modes']):<28} {doc}"
            print(line if len(line) <= 80 else line[:77] + "...")
        for why in broken.values():
            print(f"eternity: {why}", file=sys.stderr)
        print("\n`eternity solvers NAME`: one solver and its options; --json: everything.")
        return 0
    con = Console()
    for r in rows:
        con.print(f"[bold]{r['name']}[/bold]  modes {', '.join(r['modes'])}; puzzles {', '.join(r['kinds'])}")
        if r["doc"]:
            con.print(f"  {r['doc']}", markup=False)
        if r["here"]:
            con.print(f"  On this machine: {r['here']}", markup=False, highlight=False)
        for k, o in r["options"].items():
            values = ", ".join(map(str, o["choices"])) or o["range"] or ""
            con.print(
                f"  [bold]{k}[/bold] ({o['type']}, default {o['default']!r}" + (f"; {values}" if values else "") + ")",
                highlight=False,
            )
            con.print(f"      {o['help']}", markup=False, highlight=False)
    return 0


def add(sub) -> None:
    """Declare `eternity solvers` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("solvers", help="registered solvers: modes, puzzle kinds and options")
    s.add_argument("name", nargs="?", help="one solver: its options in full")
    s.add_argument("--json", action="store_true", help="everything, as JSON")
    s.set_defaults(func=cmd_solvers)
