"""Where the labs live: the notebooks and fixtures shipped with claimlab, and the labs folder in use.

In a checkout they are ``notebooks/`` and ``fixtures/`` beside the package; in an installed
wheel they are package data (``claimlab._notebooks``, ``claimlab._fixtures``). ``claimlab
notebooks DIR`` copies both into ``DIR``, and a ``claimlab run`` started in ``DIR`` (or with
``DIR/notebooks`` beside it) executes those copies.
"""

from __future__ import annotations

import os
from pathlib import Path

from claimlab.io.locate import CHECKOUT, FIXTURES_DIR, data_folder

NOTEBOOKS_DIR = data_folder("notebooks")
__all__ = ["CHECKOUT", "FIXTURES_DIR", "NOTEBOOKS_DIR", "labs_notebooks"]


def labs_notebooks(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The notebooks a run without names executes.

    ``./notebooks`` when the working folder holds a labs copy (``claimlab notebooks DIR``), the
    working folder itself when it holds ``NN_*.ipynb`` files, else the shipped notebooks.
    """
    here = Path(cwd) if cwd is not None else Path.cwd()
    for folder in (here / "notebooks", here):
        if folder.is_dir() and any(folder.glob("[0-9][0-9]_*.ipynb")):
            return folder
    return NOTEBOOKS_DIR
