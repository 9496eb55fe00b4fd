"""The packages of a wheel: every subpackage found from the seven top-level ones, and ``data/`` (the puzzles the
catalogue names, with their provenance) shipped as the package ``puzzles.shipped``, where ``puzzles.data`` finds it
in an installed copy.  The rest of the project's metadata is in pyproject.toml."""

from pathlib import Path

from setuptools import find_packages, setup

TOP = ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")
# every folder of data/ a package of its own, so that setuptools ships its files without warning that a data
# folder is "absent from the packages configuration"
SHIPPED = ["puzzles.shipped"] + sorted(
    "puzzles.shipped." + ".".join(d.relative_to("data").parts)
    for d in Path("data").rglob("*")
    if d.is_dir() and d.name != "__pycache__"
)

setup(
    packages=[*find_packages(include=[f"{t}*" for t in TOP]), *SHIPPED],
    package_dir={"puzzles.shipped": "data"},
    package_data={"puzzles.shipped": ["*.md", "**/*"], "experiments.configs": ["*.toml"]},
)
