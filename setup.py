"""The packages of a wheel: every subpackage found from the seven top-level ones, and ``data/`` (the puzzles the
catalogue names, with their provenance) shipped as the package ``puzzles.shipped``, where ``puzzles.data`` finds it
in an installed copy.  The rest of the project's metadata is in pyproject.toml."""

from setuptools import find_packages, setup

TOP = ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")

setup(
    packages=[*find_packages(include=[f"{t}*" for t in TOP]), "puzzles.shipped"],
    package_dir={"puzzles.shipped": "data"},
    package_data={"puzzles.shipped": ["*.md", "**/*"], "experiments": ["*.toml"]},
)
