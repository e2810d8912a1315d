"""Annotators' work as folders: one annotator's files of many answers, paired by answer.

Each argument of ``claimlab agreement`` and ``claimlab adjudicate`` is one annotator's work: a
``claimlab/decomposition@1`` file, or a folder of them (searched recursively; hidden and
temporary files are left out). A file belongs to an **answer**: its decomposer (the file's
``decomposer``, else the sub-folder it lies in, else none) and its ``original.id``, both
compared after Unicode NFC normalisation, so ``café`` typed in two ways is one answer.

Refused, so that nothing becomes gold by accident (one line naming the files):
    * the same file twice (the same path, or the same bytes for one answer);
    * two files of one answer by the same annotator (``annotation.annotator``), or two files of
      one answer inside one argument;
    * a file in which nothing is confirmed (a draft nobody annotated: every unit and candidate
      still proposed). A file whose units are confirmed and whose candidates are none is read:
      an answer the decomposer gave nothing for is scored, not refused.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

import msgspec
import orjson

from claimlab.core.errors import FixtureError
from claimlab.core.parallel import chunked
from claimlab.core.text import nfc
from claimlab.io.decomposition import DecompositionFixture, confirmed_count, read_decomposition
from claimlab.io.files import TEMP_MARK
from claimlab.io.reader import bulk_load, decode_utf8, parse_json_text, read_bytes


class AnswerKey(NamedTuple):
    """Which answer a file annotates: its decomposer (may be "") and answer id, both NFC.

    A named pair, so that hashing and ordering (decomposer, then answer) run in C: a folder
    of 100,000 answers puts every key in several dictionaries.
    """

    decomposer: str
    answer: str

    @property
    def label(self) -> str:
        """``A/answer-7``, or ``answer-7`` without a decomposer: how the answer is named to a person."""
        return f"{self.decomposer}/{self.answer}" if self.decomposer else self.answer


@dataclass(frozen=True)
class AnnotatedFile:
    """One file of one annotator: the answer it annotates, its annotator and content digest."""

    path: str
    key: AnswerKey
    annotator: str
    digest: str
    confirmed: int  # units and candidates a person confirmed (see confirmed_count)
    candidates: int


@dataclass(frozen=True)
class AnnotationSet:
    """One annotator's work (a folder or a file): their file of each answer."""

    source: str
    files: Mapping[AnswerKey, AnnotatedFile]

    def __post_init__(self) -> None:
        if not isinstance(self.files, MappingProxyType):
            object.__setattr__(self, "files", MappingProxyType(dict(self.files)))

    @property
    def annotator(self) -> str:
        """The annotator named in the files (the first one found), else the argument's name."""
        for f in self.files.values():
            if f.annotator:
                return f.annotator
        return Path(self.source).name


def decomposition_files(folder: Path) -> list[Path]:
    """The ``*.json`` files under a folder, recursively, in name order (no hidden, no temporary)."""
    return [Path(p) for p in _walk(str(folder))]


def _walk(folder: str) -> list[str]:
    out: list[str] = []
    with os.scandir(folder) as entries:
        for e in sorted(entries, key=lambda e: e.name):
            if e.name.startswith(".") or TEMP_MARK in e.name:
                continue
            if e.is_dir():
                out += _walk(e.path)
            elif e.name.endswith(".json") and e.is_file():
                out.append(e.path)
    return out


def _parse(path: str, data: bytes) -> Any:
    """A file's bytes as a JSON value (UTF-8 JSON fast; anything else read for its message)."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return parse_json_text(decode_utf8(data, file=path, error=FixtureError), file=path)


def _key(path: str, root: str | Path | None, decomposer: str, answer: str) -> AnswerKey:
    """The answer a file annotates: its decomposer (else its sub-folder under root) and id."""
    if not decomposer and root is not None:
        folder = os.path.dirname(path)
        if os.path.normpath(folder) != os.path.normpath(str(root)):
            decomposer = Path(os.path.relpath(folder, root)).as_posix()
    return AnswerKey(nfc(decomposer), nfc(answer))


def load_annotated(
    path: str | Path, *, root: str | Path | None = None
) -> tuple[AnnotatedFile, DecompositionFixture]:
    """Read one file: what it annotates, who annotated it and its digest, with its records.

    Raises:
        FixtureError: the file does not load (naming file, record and field).
    """
    path = str(path)
    data = read_bytes(path, error=FixtureError)
    doc = _parse(path, data)
    fx = read_decomposition(doc, source=path)
    key = _key(path, root, fx.decomposer, fx.original.id)
    who = nfc(fx.annotation.annotator) if fx.annotation else ""
    confirmed = confirmed_count(fx.units, fx.candidates)
    meta = AnnotatedFile(
        path, key, who, hashlib.sha256(data).hexdigest(), confirmed, len(fx.candidates)
    )
    return meta, fx


class _Id(msgspec.Struct):
    id: str


class _Review(msgspec.Struct):
    review: Any = None


class _Unit(msgspec.Struct):
    review: Any = None

    @property
    def proposed(self) -> bool:
        """As :attr:`claimlab.io.decomposition.Unit.proposed` (the file is checked when used)."""
        return bool(self.review)


class _Annotator(msgspec.Struct):
    annotator: str = ""


class _Scan(msgspec.Struct):
    """The few fields a scan reads (the others are skipped, not built)."""

    original: _Id
    units: list[_Unit]
    candidates: list[_Review]
    decomposer: str = ""
    annotation: _Annotator | None = None


_SCAN = msgspec.json.Decoder(_Scan).decode


def scan_annotated(path: str | Path, *, root: str | Path | None = None) -> AnnotatedFile:
    """What a file annotates, who annotated it and its digest, its records not yet checked.

    A file whose answer, annotator or candidates cannot be found this way is read in full
    (:func:`load_annotated`), which names its problem; the records of every other file are
    checked when it is used (:func:`load_scanned`), which also refuses what is not JSON the
    project reads.
    """
    path = str(path)
    try:
        data = read_bytes(path, error=FixtureError)
        doc = _SCAN(data)
    except (FixtureError, msgspec.MsgspecError, RecursionError):
        return load_annotated(path, root=root)[0]
    note = doc.annotation
    key = _key(path, root, doc.decomposer, doc.original.id)
    confirmed = confirmed_count(doc.units, doc.candidates)
    digest = hashlib.sha256(data).hexdigest()
    who = "" if note is None else nfc(note.annotator)
    return AnnotatedFile(path, key, who, digest, confirmed, len(doc.candidates))


def load_scanned(f: AnnotatedFile) -> dict[str, Any]:
    """A scanned file's document, its records checked (the bytes must be those scanned).

    Raises:
        FixtureError: the file does not load, or changed since it was scanned.
    """
    data = read_bytes(f.path, error=FixtureError)
    if hashlib.sha256(data).hexdigest() != f.digest:
        raise FixtureError("changed while it was being read: run the command again", file=f.path)
    doc = _parse(f.path, data)
    read_decomposition(doc, source=f.path)  # its records checked (the first problem named)
    return doc  # type: ignore[no-any-return]


T = TypeVar("T")


def _listing(args: Sequence[str | Path]) -> list[tuple[int, str, str | None]]:
    """Every file to read: (argument index, path, the folder it was found under or None)."""
    out: list[tuple[int, str, str | None]] = []
    for i, arg in enumerate(args):
        p = Path(arg)
        if p.is_dir():
            paths = _walk(str(p))
            if not paths:
                raise FixtureError("holds no decomposition file (*.json)", file=str(p))
            out += [(i, q, str(p)) for q in paths]
        elif p.exists():
            out.append((i, str(p), None))
        else:
            raise FixtureError("not found (give an annotator's file or folder)", file=str(p))
    return out


def load_sets(
    args: Sequence[str | Path],
    extract: Callable[[AnnotatedFile, DecompositionFixture], T],
    *,
    progress: Callable[[int], None] | None = None,
) -> tuple[tuple[AnnotationSet, ...], dict[str, T]]:
    """Read every annotator's files (on every core) and check them (see the module's rules).

    ``extract`` reduces each file's records to what the caller needs (records stay in the
    worker that read them); the result maps each file's path to it. The sets come back in
    the order of their annotators' names (then their arguments), so a result never depends
    on the order they were given in.

    Raises:
        FixtureError: fewer than two arguments, or a refused file (naming it).
    """

    def one(path: str, root: str | None) -> tuple[AnnotatedFile, T]:
        meta, fx = load_annotated(path, root=root)
        return meta, extract(meta, fx)

    return _gather(args, one, progress)


def scan_sets(
    args: Sequence[str | Path], *, progress: Callable[[int], None] | None = None
) -> tuple[AnnotationSet, ...]:
    """As :func:`load_sets`, the files scanned (:func:`scan_annotated`), not yet checked.

    For a caller that reads each file again anyway: it checks each with :func:`load_scanned`.
    """
    return _gather(args, lambda path, root: (scan_annotated(path, root=root), None), progress)[0]


def _gather(
    args: Sequence[str | Path],
    one: Callable[[str, str | None], tuple[AnnotatedFile, T]],
    progress: Callable[[int], None] | None,
) -> tuple[tuple[AnnotationSet, ...], dict[str, T]]:
    if len(args) < 2:
        raise FixtureError("give two or more annotators' files or folders")
    listing = _listing(args)

    def work(start: int, stop: int) -> list[tuple[AnnotatedFile, T]]:
        return [one(path, root) for _, path, root in listing[start:stop]]

    files: list[dict[AnswerKey, AnnotatedFile]] = [{} for _ in args]
    extracted: dict[str, T] = {}
    at = 0
    with bulk_load():
        for part in chunked(work, len(listing), chunk=1000):
            for meta, value in part:
                _add(files[listing[at][0]], meta)
                extracted[meta.path] = value
                at += 1
            if progress is not None:
                progress(len(part))
        sets = [AnnotationSet(str(a), f) for a, f in zip(args, files, strict=True)]
        _check_distinct(sets)
        _check_shared(sets)
    return tuple(sorted(sets, key=lambda s: (s.annotator, s.source))), extracted


def _add(files: dict[AnswerKey, AnnotatedFile], f: AnnotatedFile) -> None:
    if f.key in files:
        raise FixtureError(
            f"annotates the same answer ({f.key.label}) as {files[f.key].path}: one file "
            "per answer in each annotator's folder",
            file=f.path,
            field="original.id",
        )
    if not f.confirmed:
        raise FixtureError(
            "nothing is confirmed in this file (no unit and no candidate): a draft nobody "
            "annotated has no labels to count (confirm its labels in notebook 09, or leave it "
            "out)",
            file=f.path,
            field="review",
        )
    files[f.key] = f


def _check_distinct(sets: Sequence[AnnotationSet]) -> None:
    """No file twice, no answer twice by one annotator (see the module's rules)."""
    roots: dict[str, str] = {}
    for s in sets:  # the same argument twice, or one folder inside another
        real = os.path.realpath(s.source)
        for other, src in roots.items():
            if real == other or real.startswith(other + os.sep) or other.startswith(real + os.sep):
                raise FixtureError(
                    f"is given twice (also as {src}, or inside it): the same file is not two "
                    "annotators",
                    file=s.source,
                )
        roots[real] = s.source
    by_key: dict[AnswerKey, list[AnnotatedFile]] = {}
    for s in sets:
        for f in s.files.values():
            by_key.setdefault(f.key, []).append(f)
    for files in by_key.values():
        for i, f in enumerate(files):
            for g in files[:i]:
                if f.digest == g.digest:
                    raise FixtureError(
                        f"is the same file as {g.path} (identical bytes): a copy is not a second "
                        "annotator",
                        file=f.path,
                    )
                if f.annotator and f.annotator == g.annotator:
                    raise FixtureError(
                        f"is annotated by {f.annotator!r}, as {g.path} is: two files of one "
                        "annotator are not two annotators",
                        file=f.path,
                        field="annotation.annotator",
                    )


def _check_shared(sets: Sequence[AnnotationSet]) -> None:
    """Files given one by one annotate one answer; folders share at least one answer."""
    if all(not Path(s.source).is_dir() for s in sets):
        first = next(iter(sets[0].files.values()))
        for s in sets[1:]:
            f = next(iter(s.files.values()))
            if f.key != first.key:
                raise FixtureError(
                    f"annotates another answer ({f.key.label}) than {first.path} "
                    f"({first.key.label}): files given one by one annotate one answer",
                    file=f.path,
                    field="original.id",
                )
        return
    counts: dict[AnswerKey, int] = {}
    for s in sets:
        for k in s.files:
            counts[k] = counts.get(k, 0) + 1
    if not any(n >= 2 for n in counts.values()):
        raise FixtureError(
            f"no answer is annotated in two of the folders ({', '.join(s.source for s in sets)}): "
            "they are paired by decomposer and answer id (original.id)",
            file=sets[0].source,
        )


def answers_of(
    sets: Sequence[AnnotationSet],
) -> Iterator[tuple[AnswerKey, list[AnnotatedFile | None]]]:
    """Every answer any annotator annotated, in order, with each set's file of it (or None)."""
    keys = sorted({k for s in sets for k in s.files})
    for k in keys:
        yield k, [s.files.get(k) for s in sets]


def set_names(sets: Sequence[AnnotationSet]) -> tuple[str, ...]:
    """Each set's annotator, made distinct (``Ana``, ``Ana (2)``) where two names coincide."""
    names: list[str] = []
    for s in sets:
        name, k = s.annotator, 2
        while name in names:
            name, k = f"{s.annotator} ({k})", k + 1
        names.append(name)
    return tuple(names)
