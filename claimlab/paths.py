"""Where claimlab finds its own fixtures and the shared real data.

A notebook runs with its own folder as working directory in JupyterLab and with whatever folder
the user chose under ``claimlab run``; names such as ``fixtures/atlas_nova.json`` are resolved
against the working directory first, then against the project root.
"""

from __future__ import annotations

import glob
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterable, Iterator
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


TEMP_MARK = ".claimlab-tmp"
_TEMP_NAME = re.compile(r"\.(\d+)-[A-Za-z0-9_]+" + re.escape(TEMP_MARK) + r"(\.[A-Za-z]+)?$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_leftovers(folder: str | os.PathLike, *, pattern: str = "*") -> int:
    """Remove temporary files and folders that a claimlab process left when it was killed.

    A temporary name carries the pid of the process writing it (``.<name>.<pid>-<token>`` +
    ``.claimlab-tmp``, maybe with an extension); one whose process no longer runs is a leftover
    of a killed run.
    Returns how many were removed.
    """
    removed = 0
    base = Path(folder)
    if not base.is_dir():
        return 0
    for p in base.glob(pattern + TEMP_MARK + "*"):
        m = _TEMP_NAME.search(p.name)
        if m is None or _alive(int(m.group(1))):
            continue
        try:
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)
            removed += 1
        except OSError:
            continue
    return removed


def temp_path(target: Path, *, suffix: str = "") -> Path:
    """A new temporary name beside ``target``, marked with this process's pid."""
    token = secrets.token_hex(4)
    return target.parent / f".{target.name}.{os.getpid()}-{token}{TEMP_MARK}{suffix}"


def temp_dir(purpose: str) -> Path:
    """A new folder in the system's temporary folder, removed by a later run if this one is killed."""
    root = Path(tempfile.gettempdir())
    remove_leftovers(root, pattern=f".claimlab-{purpose}*")
    d = root / f".claimlab-{purpose}.{os.getpid()}-{secrets.token_hex(4)}{TEMP_MARK}"
    d.mkdir(mode=0o700)
    return d


def _write_error(path: Path, exc: OSError) -> ClaimlabInputError:
    if isinstance(exc, IsADirectoryError) or path.is_dir():
        return ClaimlabInputError("is a folder; give a file name to write", file=str(path))
    return ClaimlabInputError(f"cannot write ({exc.strerror or exc})", file=str(path))


@contextmanager
def replacing_all(paths: Iterable[str | os.PathLike]) -> Iterator[list[Path]]:
    """Write several files that belong together; all replace their targets, or none does.

    Each target gets a temporary file beside it (named so that a later run removes it if this
    process is killed). Only when the body has written every one of them are they renamed
    into place; on any failure every temporary file is removed and the old files stay.

    Raises:
        ClaimlabInputError: a target is a folder, or the disk refuses the write (full,
            read-only), naming the file.
    """
    targets = [Path(p) for p in paths]
    temps: list[Path] = []
    try:
        for target in targets:
            if target.is_dir():
                raise ClaimlabInputError("is a folder; give a file name to write", file=str(target))
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                remove_leftovers(target.parent, pattern=f".{glob.escape(target.name)}.*")
                tmp = temp_path(target)
                tmp.touch(mode=0o644)
            except OSError as exc:
                raise _write_error(target, exc) from None
            temps.append(tmp)
        try:
            yield temps
        except OSError as exc:
            raise _write_error(targets[0], exc) from None
        for tmp, target in zip(temps, targets, strict=True):
            try:
                os.chmod(tmp, 0o644)
                os.replace(tmp, target)
            except OSError as exc:
                raise _write_error(target, exc) from None
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)


@contextmanager
def replacing(path: str | os.PathLike) -> Iterator[Path]:
    """Write through a temporary file beside ``path``; rename it into place only on success.

    The file already at ``path`` stays as it was until the new one is complete, and a failed
    write leaves no temporary file behind (nor does a killed one, after the next run).
    """
    with replacing_all([path]) as (tmp,):
        yield tmp
