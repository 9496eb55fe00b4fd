"""Install solvers the way a package does: an entry point in a dist-info directory on the path.

``install(tmp, {"name": "module:Class"}, monkeypatch, module_dirs)`` writes
``tmp/eternity_test_plugin-0.dist-info/entry_points.txt`` and puts ``tmp``
and ``module_dirs`` on ``sys.path`` and on ``PYTHONPATH`` (so the runner's
cell processes see the plug-in too), exactly what ``pip install`` of a
package declaring ``[project.entry-points."eternity.solvers"]`` gives.
"""

import os
import sys
from pathlib import Path


def install(tmp: Path, entries: dict[str, str], monkeypatch, module_dirs=()) -> None:
    info = Path(tmp) / "eternity_test_plugin-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: eternity-test-plugin\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[eternity.solvers]\n" + "".join(f"{n} = {t}\n" for n, t in entries.items()))
    dirs = [str(tmp), *map(str, module_dirs)]
    for d in dirs:
        monkeypatch.syspath_prepend(d)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(dirs + [os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    import importlib

    importlib.invalidate_caches()
    assert all(n in __import__("solving").names() for n in entries), sys.path[:3]
