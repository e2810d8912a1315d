"""Where claimlab finds its own fixtures and the shared real data.

A notebook runs with its own folder as working directory in JupyterLab and with whatever folder
the user chose under ``claimlab run``; names such as ``fixtures/atlas_nova.json`` are resolved
against the working directory first, then against the project root.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from claimlab.errors import ClaimlabInputError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
FIXTURES_DIR = PROJECT_ROOT / "fixtures"
NOTEBOOKS_DIR = PROJECT_ROOT / "notebooks"
OUTPUTS_DIR = PROJECT_ROOT / "outputs"
DATA_ENV = "CLAIMLAB_DATA"


def default_data_dir() -> Path:
    """The real-data folder: ``$CLAIMLAB_DATA`` if set, else ``../shared/data`` beside the project."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return PROJECT_ROOT.parent / "shared" / "data"


def resolve_path(value: str | os.PathLike, *, what: str = "file") -> Path:
    """Find ``value`` relative to the working directory, then the project root.

    Args:
        value: A path as a user or a notebook parameter gives it.
        what: What the path is for, used in the error message.

    Raises:
        ClaimlabInputError: when no candidate location exists.
    """
    p = Path(value).expanduser()
    if p.is_absolute():
        candidates = [p]
    else:
        candidates = [Path.cwd() / p, PROJECT_ROOT / p, FIXTURES_DIR / p]
    for c in candidates:
        if c.exists():
            return c.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise ClaimlabInputError(f"{what} not found (looked in: {tried})", file=str(value))


def find_data(value: str | os.PathLike) -> Path | None:
    """A real-data file: as given (cwd, project root), else under the data folder; None if absent."""
    try:
        return resolve_path(value)
    except ClaimlabInputError:
        p = default_data_dir() / value
        return p.resolve() if p.exists() else None


@contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """Write through a temporary file beside ``path``; rename it into place only on success.

    The file already at ``path`` stays as it was until the new one is complete, and a failed
    write leaves no temporary file behind.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
