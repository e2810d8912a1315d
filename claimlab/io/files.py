"""The one atomic write: every output goes to a temporary file beside it and is renamed when complete.

A temporary name carries the writing process's pid (``.<name>.<pid>-<token>.claimlab-tmp``),
so a later run can tell a killed run's leftovers (their process is gone) from a write still in
progress, and removes them. Files that belong together are renamed only when all are written.
"""

from __future__ import annotations

import glob
import json
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from claimlab.core.errors import ClaimlabInputError

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


def remove_leftovers(folder: str | os.PathLike[str], *, pattern: str = "*") -> int:
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
    for parent in path.parents:  # a file where a folder of the path should be
        if parent.exists():
            if not parent.is_dir():
                return ClaimlabInputError(
                    f"cannot write: {parent} is a file, not a folder", file=str(path)
                )
            break
    return ClaimlabInputError(f"cannot write ({exc.strerror or exc})", file=str(path))


@contextmanager
def replacing_all(
    paths: Iterable[str | os.PathLike[str]], *, keep_suffix: bool = False
) -> Iterator[list[Path]]:
    """Write several files that belong together; all replace their targets, or none does.

    Each target gets a temporary file beside it (named so that a later run removes it if this
    process is killed). Only when the body has written every one of them are they renamed
    into place; on any failure every temporary file is removed and the old files stay.

    With ``keep_suffix`` each temporary name ends in its target's suffix (a writer that
    checks the extension, such as papermill's, sees ``.ipynb``).

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
                tmp = temp_path(target, suffix=target.suffix if keep_suffix else "")
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
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Write through a temporary file beside ``path``; rename it into place only on success.

    The file already at ``path`` stays as it was until the new one is complete, and a failed
    write leaves no temporary file behind (nor does a killed one, after the next run).
    """
    with replacing_all([path]) as (tmp,):
        yield tmp


def atomic_write(path: Path, text: str) -> None:
    """Write text to a temporary file beside ``path``, then rename it into place."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def json_text(doc: object) -> str:
    """A document as the project writes JSON files: UTF-8 as it is, indented, a final newline."""
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def write_json(path: str | os.PathLike[str], doc: object) -> None:
    """Write a JSON document atomically (see :func:`json_text` and :func:`atomic_write`)."""
    atomic_write(Path(path), json_text(doc))
