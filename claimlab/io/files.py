"""The one atomic write: every output goes to a temporary file beside it and is renamed when complete.

A temporary name carries the writing process's pid (``.<name>.<pid>-<token>.claimlab-tmp``),
so a later run can tell a killed run's leftovers (their process is gone) from a write still in
progress, and removes them. Files that belong together are renamed only when all are written.
One file per answer (drafts, adjudicated gold) is named by :func:`file_names`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import cap_bytes, is_mark, marks_kept

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
    import shutil  # here, not at the top: `claimlab --help` imports this module

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
    token = os.urandom(4).hex()
    return target.parent / f".{target.name}.{os.getpid()}-{token}{TEMP_MARK}{suffix}"


def temp_dir(purpose: str) -> Path:
    """A new folder in the system's temporary folder, removed by a later run if this one is killed."""
    import tempfile  # here, not at the top: `claimlab --help` imports this module

    root = Path(tempfile.gettempdir())
    remove_leftovers(root, pattern=f".claimlab-{purpose}*")
    d = root / f".claimlab-{purpose}.{os.getpid()}-{os.urandom(4).hex()}{TEMP_MARK}"
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
    folders: set[Path] = set()
    try:
        for target in targets:
            if target.is_dir():
                raise ClaimlabInputError("is a folder; give a file name to write", file=str(target))
            try:
                if target.parent not in folders:  # once per folder: linear in the files
                    target.parent.mkdir(parents=True, exist_ok=True)
                    remove_leftovers(target.parent)
                    folders.add(target.parent)
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


def _missing_root(folder: Path) -> Path | None:
    """The highest folder of ``folder``'s path that does not exist yet (None: it exists)."""
    if folder.exists():
        return None
    while not folder.parent.exists():
        folder = folder.parent
    return folder


class Staging:
    """Where each file of a group that belongs together is written before it replaces its target.

    A target in a folder that does not exist yet is written into a staging folder that is
    renamed into place at the end (one rename for the whole folder); a target in an existing
    folder gets a temporary file beside it. The paths are fixed when the group is made, so
    worker processes forked afterwards can write their share (:meth:`write`); only
    :meth:`commit` replaces anything, and :meth:`discard` removes everything temporary.
    Temporary names carry this process's pid, so a later run removes them after a kill -9.

    Raises:
        ClaimlabInputError: a target is a folder, or a folder cannot be made.
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        token = f"{os.getpid()}-{os.urandom(4).hex()}"
        self.targets = [os.fspath(p) for p in paths]  # strings: 100,000 targets stay cheap
        self.stages: dict[Path, Path] = {}  # a folder that does not exist -> its staging folder
        self.temps: list[str] = []
        self.beside: list[int] = []  # targets with a temporary file beside them
        roots: dict[str, str | None] = {}  # strings, not paths: 100,000 targets stay cheap
        made: set[str] = set()
        stage_of: dict[str, str] = {}
        try:
            for k, name in enumerate(self.targets):
                folder, base = os.path.split(name)
                if folder not in roots:
                    found = _missing_root(Path(folder))
                    remove_leftovers(Path(folder) if found is None else found.parent)
                    roots[folder] = None if found is None else str(found)
                root = roots[folder]
                if root is None:
                    if os.path.isdir(name):  # only an existing folder can hold one
                        raise ClaimlabInputError(
                            "is a folder; give a file name to write", file=name
                        )
                    self.temps.append(os.path.join(folder, f".{base}.{token}{k}{TEMP_MARK}"))
                    self.beside.append(k)
                    continue
                if root not in stage_of:
                    top = Path(root)
                    stage_of[root] = str(
                        self.stages.setdefault(top, top.parent / f".{top.name}.{token}{TEMP_MARK}")
                    )
                staged = stage_of[root] + name[len(root) :]
                if folder not in made:
                    os.makedirs(os.path.dirname(staged), exist_ok=True)
                    made.add(folder)
                self.temps.append(staged)
        except OSError as exc:
            self.discard()
            raise _write_error(Path(self.targets[len(self.temps)]), exc) from None

    def write(self, k: int, text: str) -> None:
        """Write the text of target ``k`` to its temporary place."""
        try:
            fd = os.open(self.temps[k], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.write(fd, text.encode("utf-8"))
            finally:
                os.close(fd)
        except OSError as exc:
            raise _write_error(Path(self.targets[k]), exc) from None

    def commit(self) -> None:
        """Rename everything into place: the staging folders, then each file beside its target."""
        try:
            for root, stage in list(self.stages.items()):
                os.rename(stage, root)
                del self.stages[root]
            while self.beside:  # from the end: what is left was never renamed
                k = self.beside[-1]
                os.replace(self.temps[k], self.targets[k])
                self.beside.pop()
        except OSError as exc:
            raise _write_error(Path(self.targets[0]), exc) from None

    def discard(self) -> None:
        """Remove what was not committed."""
        import shutil

        for stage in self.stages.values():
            shutil.rmtree(stage, ignore_errors=True)
        for k in self.beside:
            with contextlib.suppress(OSError):
                os.unlink(self.temps[k])
        self.stages, self.beside = {}, []


def write_texts(paths: Iterable[str | os.PathLike[str]], texts: Iterable[str]) -> int:
    """Write many files that belong together: every one replaces its target, or none does.

    Like :func:`replacing_all`, for a folder of 100,000 drafts or gold files (see
    :class:`Staging`): each text is written as it comes, nothing is held in memory, and only
    when all are written does anything replace a target. On any failure, or Ctrl-C,
    everything temporary is removed and the old files stay. Returns how many were written.

    Raises:
        ClaimlabInputError: a target is a folder, or the disk refuses the write.
    """
    staging = Staging(paths)
    try:
        n = 0
        for k, text in enumerate(texts):
            staging.write(k, text)
            n += 1
        if n != len(staging.targets):
            raise ValueError(f"{len(staging.targets)} files to write, {n} texts given")
        staging.commit()
        return n
    finally:
        staging.discard()


def atomic_write(path: Path, text: str) -> None:
    """Write text to a temporary file beside ``path``, then rename it into place."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def json_text(doc: object) -> str:
    """A document as the project writes JSON files: UTF-8 as it is, indented, a final newline.

    Written by ``orjson`` (about fifteen times faster than the standard library's writer, which
    matters for folders of 100,000 drafts or gold files); the text parses to the same value.
    """
    import orjson

    try:
        data = orjson.dumps(
            doc, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
        )
    except TypeError:  # a value orjson does not know (a very large integer), or nested deep
        from claimlab.io.reader import deep_place

        if (place := deep_place(doc, WRITABLE_DEPTH)) is not None:  # kept from a user's file
            raise ClaimlabInputError(
                f"holds a value nested deeper than {WRITABLE_DEPTH} levels, which is not "
                "written again",
                field=place,
            ) from None
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    return data.decode("utf-8")


WRITABLE_DEPTH = 200  # orjson writes 254 levels; the standard writer's recursion, about 900


def write_json(path: str | os.PathLike[str], doc: object) -> None:
    """Write a JSON document atomically (see :func:`json_text` and :func:`atomic_write`)."""
    atomic_write(Path(path), json_text(doc))


_UNSAFE = re.compile(r"[^\w.-]+")
_SEPARATOR = marks_kept("_")


STEM_BYTES = 80  # a file name's stem at most, in UTF-8 bytes (most file systems allow 255)
# names Windows keeps for devices, whatever follows the dot
_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL"]
    + [f"{p}{k}" for p in ("COM", "LPT") for k in [*range(1, 10), "¹", "²", "³"]]
)


def _joins_next(ch: str) -> bool:
    """A virama (Hindi ``्``, Thai ``ฺ``) or a zero-width joiner: it joins the next letter on."""
    import unicodedata

    return ch == "\u200d" or unicodedata.combining(ch) == 9


def _stem(rid: str, older: bool) -> str:
    """An id as a safe file stem (see :func:`file_names`)."""
    if older:
        return cap_bytes(_UNSAFE.sub("_", rid).strip("._-"), STEM_BYTES) or "answer"
    stem = _UNSAFE.sub(_SEPARATOR, rid).strip("._-") or "answer"
    if len(stem.encode("utf-8")) > STEM_BYTES:  # cut, and told apart by the whole id's hash
        import hashlib

        digest = hashlib.sha256(rid.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        cut = len(cap_bytes(stem, STEM_BYTES - 9))
        while 0 < cut < len(stem) and (is_mark(stem[cut]) or _joins_next(stem[cut - 1])):
            cut -= 1  # a letter goes with its marks, a conjunct (क्ष) with its letters
        stem = f"{stem[:cut].rstrip('._-')}-{digest}"
    if stem.split(".")[0].upper() in _DEVICES:
        stem += "_"
    return stem


def file_names(ids: Sequence[str], *, older: bool = False) -> list[str]:
    """A safe, distinct file name for each answer id (``a/b`` and ``a_b`` do not collide).

    Letters of any script are kept, with their combining marks and joiners; separators, dots
    at the ends and controls are not. A stem longer than 80 bytes is cut and ends in a hash of
    the whole id, so two long ids sharing a beginning get their own names in any run; a name
    Windows keeps for a device (``CON``, ``LPT1``) gets a ``_``. ``older=True`` gives the names
    written before (a mark read as a separator, a long id cut without its hash), for finding
    a draft made then.

    Examples:
        >>> file_names(["answer-7", "../x", "q 7", "müze/tr", "รถเมล์-8", "con"])
        ['answer-7.json', 'x.json', 'q_7.json', 'müze_tr.json', 'รถเมล์-8.json', 'con_.json']
    """
    out: list[str] = []
    taken: set[str] = set()
    for rid in ids:
        stem = _stem(rid, older)
        name, k = f"{stem}.json", 2
        while name.lower() in taken:
            name, k = f"{stem}-{k}.json", k + 1
        taken.add(name.lower())
        out.append(name)
    return out
