"""Where input files are found: as given, beside the labs, in the packaged fixtures, in the data folder.

A notebook runs with its own folder as working directory (in JupyterLab, under ``claimlab
run``, in a folder made by ``claimlab notebooks``); a name such as ``fixtures/atlas_nova.json``
is looked up in the working directory, its parent (the labs folder), the project checkout
and the fixtures packaged with claimlab. Real data is looked up as given, then under
``--data`` / ``$CLAIMLAB_DATA`` or ``../shared/data`` beside a checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

from claimlab.core.errors import ClaimlabInputError

PACKAGE_DIR = Path(__file__).resolve().parent.parent
CHECKOUT = PACKAGE_DIR.parent  # the project root when running from a checkout
IN_CHECKOUT = (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "notebooks").is_dir()


def data_folder(name: str) -> Path:
    """A folder shipped with claimlab: in the wheel (package data) or in the checkout.

    An installed wheel carries ``claimlab/_notebooks`` and ``claimlab/_fixtures``; a checkout
    (editable or not) has ``notebooks/`` and ``fixtures/`` beside the package.
    """
    packaged = PACKAGE_DIR / f"_{name}"
    return packaged if packaged.is_dir() else CHECKOUT / name


FIXTURES_DIR = data_folder("fixtures")
DATA_ENV = "CLAIMLAB_DATA"


def default_data_dir() -> Path | None:
    """The real-data folder: ``$CLAIMLAB_DATA`` if set, else ``../shared/data`` beside a checkout.

    None for an installed claimlab with no ``$CLAIMLAB_DATA``: there is no folder to guess.
    """
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return CHECKOUT.parent / "shared" / "data" if IN_CHECKOUT else None


def resolve_path(value: str | os.PathLike[str], *, what: str = "file") -> Path:
    """Find ``value``: as given, else in the working folder, its parent or the checkout.

    A path the user gives is theirs: it is looked up where they are (the working folder, the
    labs folder above a notebook's own, the project's checkout). A file shipped with claimlab
    is found only by its bare name (``atlas_nova.json``) or as ``fixtures/NAME``, and only
    when no file of the user's own has that name; :func:`source_label` says which was used.

    Args:
        value: A path as a user or a notebook parameter gives it.
        what: What the path is for, used in the error message.

    Raises:
        ClaimlabInputError: when no candidate location exists.
    """
    if not str(value).strip():
        raise ClaimlabInputError(f"no {what} given (an empty path)", file=repr(str(value)))
    p = Path(value).expanduser()
    if p.is_absolute():
        candidates = [p]
    else:
        here = Path.cwd()
        candidates = [here / p, here.parent / p, *([CHECKOUT / p] if IN_CHECKOUT else [])]
        if len(p.parts) == 1:  # a bare name: the shipped fixture of that name
            candidates.append(FIXTURES_DIR / p)
        elif p.parts and p.parts[0] == "fixtures":  # "fixtures/x.json": the shipped one
            candidates.append(FIXTURES_DIR.joinpath(*p.parts[1:]))
        candidates = list(dict.fromkeys(candidates))
    for c in candidates:
        if c.exists():
            return c.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise ClaimlabInputError(f"{what} not found (looked in: {tried})", file=str(value))


def is_shipped(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is one of the fixtures shipped with claimlab."""
    try:
        Path(path).resolve().relative_to(FIXTURES_DIR.resolve())
    except ValueError:
        return False
    return True


def source_label(path: str | os.PathLike[str]) -> str:
    """Which file a lab reads: ``the shipped fixture atlas_nova.json`` or ``your file my.json``.

    Examples:
        >>> source_label(FIXTURES_DIR / "x.json")
        'the shipped fixture x.json'
        >>> source_label("/tmp/mine/x.json")
        'your file x.json'
    """
    p = Path(path)
    if is_shipped(p):
        return f"the shipped fixture {p.resolve().relative_to(FIXTURES_DIR.resolve()).as_posix()}"
    return f"your file {p.name}"


def find_data(value: str | os.PathLike[str]) -> Path | None:
    """A real-data file: as given (cwd, project root), else under the data folder; None if absent.

    An empty value names no file: None (the section is skipped).
    """
    if not str(value).strip():
        return None
    try:
        return resolve_path(value)
    except ClaimlabInputError:
        folder = default_data_dir()
        if folder is None:
            return None
        p = folder / value
        return p.resolve() if p.exists() else None
