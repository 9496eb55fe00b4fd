"""The packages of a wheel: every subpackage found from the seven top-level ones, and ``data/`` (the puzzles the
catalogue names, with their provenance) shipped as the package ``puzzles.shipped``, where ``puzzles.data`` finds it
in an installed copy.  The rest of the project's metadata is in pyproject.toml."""

import warnings

from setuptools import find_packages, setup

TOP = ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")
# data/'s folders hold data files, not modules: setuptools's note that they look importable is not news
warnings.filterwarnings("ignore", message=".*[Ii]mportable.*")

setup(
    packages=[*find_packages(include=[f"{t}*" for t in TOP] + list(TOP)), "puzzles.shipped"],
    package_dir={"puzzles.shipped": "data"},
    package_data={"puzzles.shipped": ["*.md", "**/*"], "experiments": ["*.toml"]},
)
