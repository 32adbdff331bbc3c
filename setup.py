"""The build step pyproject.toml cannot say: the card data (the repository's top-level data/)
goes inside the package, as ``overseer/datafiles/``, where ``overseer.core.records`` finds it in an
installed copy (docs/install.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA = Path(__file__).resolve().parent / "data"


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "overseer" / "datafiles"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(DATA, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithData})
