"""`eternity configs`: the experiment configs that ship with the package, which `eternity run NAME` runs."""

from __future__ import annotations


def _about(path) -> str:
    """A config's first comment line: what it is for."""
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip()
        if line.strip():
            break
    return ""


def cmd_configs(a) -> int:
    """Run `eternity configs` with the parsed arguments ``a``; returns the exit status."""
    from experiments.config import shipped

    found = shipped()
    if a.json:
        import json

        from eternity.commands.common import json_stream

        print(json.dumps([{"name": n, "file": str(p), "about": _about(p)} for n, p in found.items()], indent=1),
              file=json_stream())  # fmt: skip
        return 0
    width = max(map(len, found), default=0)
    for name, path in found.items():
        print(f"{name:<{width}}  {_about(path)}")
    print(f"\n`eternity run NAME` runs one from any folder; the files are in {next(iter(found.values())).parent}")
    return 0


def add(sub) -> None:
    """Declare `eternity configs` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("configs", help="the experiment configs shipped with the package (`eternity run NAME`)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_configs)
