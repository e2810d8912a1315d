"""An annotation session: a person confirms a draft's labels, every change saved at once.

The file is the annotator's own copy of a draft (``claimlab/decomposition@1``). Each change
is checked (the file must still load), written to a temporary file beside it and renamed
into place before the method returns, with the annotator's name and a timestamp in the
file's ``annotation`` log. A killed kernel loses at most the change it was making; opening
the file again resumes where the person stopped.

Rules:
    * a candidate is confirmed by :meth:`AnnotationSession.confirm`, which empties its
      ``review`` and records who and when, and refuses while its labels contradict each other
      (a faithful candidate preserves a unit and has a source span inside it, ...);
    * editing a confirmed candidate puts the edited label back under review: a value nobody
      has confirmed is never presented as confirmed;
    * units the draft proposed are confirmed one by one or all at once; a unit the person
      marks is theirs from the start.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.ratio import Ratio
from claimlab.core.spans import utf16_len, utf16_slice
from claimlab.core.text import cap_bytes, nfc
from claimlab.core.vocab import ERROR_KINDS, REVIEW_FIELDS, STATUSES, unknown
from claimlab.io.annotations import AnswerKey
from claimlab.io.decomposition import (
    DecompositionFixture,
    candidate_problems,
    load_document,
    read_decomposition,
)
from claimlab.io.files import write_json


class AnnotationError(ClaimlabInputError):
    """A change the annotator refuses (the file stays as it was)."""


def now() -> str:
    """The time of a change: UTC, ISO 8601, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Progress:
    """How far the annotation is: candidates and units confirmed, of all."""

    candidates: Ratio
    units: Ratio

    @property
    def text(self) -> str:
        """``12 of 40 candidates confirmed · 5 of 5 units confirmed``."""
        c, u = self.candidates, self.units
        return (
            f"{c.numerator} of {c.denominator} candidates confirmed · "
            f"{u.numerator} of {u.denominator} units confirmed"
        )

    @property
    def done(self) -> bool:
        """Every candidate and unit confirmed (and there is at least one candidate)."""
        c, u = self.candidates, self.units
        return c.denominator > 0 and c.numerator == c.denominator and u.numerator == u.denominator


def work_copy_name(draft: str | Path, annotator: str) -> Path:
    """Where an annotator's copy of a draft lives: beside it, named after them.

    Examples:
        >>> str(work_copy_name("drafts/answer-7.json", "Ayşe K."))
        'drafts/answer-7.ayşe-k.json'
    """
    p = Path(draft)
    who = "-".join("".join(ch if ch.isalnum() else " " for ch in annotator.casefold()).split())
    who = cap_bytes(who, 40).strip("-")
    if not who:
        raise AnnotationError("the annotator's name must hold a letter or a digit")
    return p.with_name(f"{p.stem}.{who}{p.suffix or '.json'}")


class AnnotationSession:
    """One annotator's session on one file (see the module's rules)."""

    def __init__(self, path: str | Path, annotator: str, *, clock: Callable[[], str] = now) -> None:
        if not isinstance(annotator, str) or not annotator.strip():
            raise AnnotationError("give the annotator's name (ANNOTATOR)", file=str(path))
        self.path = Path(path)
        self.annotator = annotator.strip()
        self.clock = clock
        doc = load_document(self.path)
        self.fixture: DecompositionFixture = read_decomposition(doc, source=str(self.path))
        self.doc: dict[str, Any] = doc
        ann = doc.get("annotation")
        owner = ann.get("annotator") if isinstance(ann, dict) else None
        if owner and owner != self.annotator:
            raise AnnotationError(
                f"is annotated by {owner!r}; each annotator works on their own copy "
                f"(e.g. {work_copy_name(self.path, self.annotator).name})",
                file=str(self.path),
                field="annotation.annotator",
            )

    @classmethod
    def start(
        cls,
        draft: str | Path,
        annotator: str,
        *,
        work: str | Path | None = None,
        clock: Callable[[], str] = now,
    ) -> AnnotationSession:
        """Open the annotator's copy of ``draft``, making it first if there is none."""
        target = Path(work) if work else work_copy_name(draft, annotator)
        if not target.exists():
            doc = load_document(draft)
            read_decomposition(doc, source=str(draft))
            write_json(target, doc)
        return cls(target, annotator, clock=clock)

    # ----------------------------------------------------------------- reading

    @property
    def text(self) -> str:
        """The original answer."""
        return self.fixture.original.text

    def progress(self) -> Progress:
        """Candidates and units confirmed."""
        fx = self.fixture
        return Progress(
            Ratio(sum(1 for c in fx.candidates if not c.review), len(fx.candidates)),
            Ratio(sum(1 for u in fx.units if not u.proposed), len(fx.units)),
        )

    def problems(self, cid: str) -> list[tuple[str, str]]:
        """What stands between a candidate and its confirmation."""
        spans = {u.id: u.span for u in self.fixture.units}
        return candidate_problems(self.fixture.candidate(cid), spans)

    def _cand(self, doc: dict[str, Any], cid: str) -> dict[str, Any]:
        for c in doc["candidates"]:
            if c.get("id") == cid:
                return c  # type: ignore[no-any-return]
        self.fixture.candidate(cid)  # raises, naming the known ids
        raise AssertionError("unreachable")

    def _unit(self, doc: dict[str, Any], uid: str) -> dict[str, Any]:
        for u in doc["units"]:
            if u.get("id") == uid:
                return u  # type: ignore[no-any-return]
        raise AnnotationError(
            f"unknown unit id (known: {', '.join(self.fixture.unit_ids) or 'none'})",
            file=str(self.path),
            record=uid,
        )

    # ----------------------------------------------------------------- writing

    def _apply(self, what: str, change: Callable[[dict[str, Any]], None]) -> None:
        """Apply a change to a copy, check it loads, save it atomically, then adopt it."""
        doc = copy.deepcopy(self.doc)
        change(doc)
        at = self.clock()
        ann = doc.get("annotation") if isinstance(doc.get("annotation"), dict) else None
        if ann is None:
            ann = {"annotator": self.annotator, "started": at, "updated": at, "log": []}
        ann["annotator"] = self.annotator
        ann["updated"] = at
        ann.setdefault("log", []).append({"at": at, "by": self.annotator, "change": what})
        doc["annotation"] = ann
        fixture = read_decomposition(doc, source=str(self.path))
        write_json(self.path, doc)
        self.doc, self.fixture = doc, fixture

    def _edit(
        self, cid: str, label: str, what: str, change: Callable[[dict[str, Any]], None]
    ) -> None:
        def body(doc: dict[str, Any]) -> None:
            c = self._cand(doc, cid)
            change(c)
            review = list(c.get("review", []))
            if not review:  # it was confirmed: the new value is not, until confirmed again
                c["review"] = [label]
                c.pop("confirmed", None)

        self._apply(f"{cid}: {what}", body)

    def _span_doc(self, start: int, end: int) -> dict[str, Any]:
        n = utf16_len(self.text)
        if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start < end <= n:
            raise AnnotationError(
                f"span {start}..{end} is not a stretch of the answer (0..{n} UTF-16 units, "
                "start before end)",
                file=str(self.path),
            )
        try:
            text = utf16_slice(self.text, start, end)
        except ValueError as exc:
            raise AnnotationError(str(exc), file=str(self.path)) from None
        return {"start": start, "end": end, "text": text}

    def add_unit(self, start: int, end: int) -> str:
        """Mark a new unit on the UTF-16 span ``start..end``; returns its id."""
        span = self._span_doc(start, end)
        taken = set(self.fixture.unit_ids)
        k = len(taken) + 1
        while f"U{k}" in taken:
            k += 1
        uid = f"U{k}"

        def body(doc: dict[str, Any]) -> None:
            doc["units"].append({"id": uid, "span": span})
            doc["units"].sort(key=lambda u: (u["span"]["start"], u["span"]["end"]))

        self._apply(f"unit {uid} marked at {start}..{end}", body)
        return uid

    def set_unit_span(self, uid: str, start: int, end: int) -> None:
        """Move a unit to the UTF-16 span ``start..end`` (it is then confirmed as moved)."""
        span = self._span_doc(start, end)

        def body(doc: dict[str, Any]) -> None:
            u = self._unit(doc, uid)
            u["span"] = span
            u.pop("review", None)
            doc["units"].sort(key=lambda u: (u["span"]["start"], u["span"]["end"]))

        self._apply(f"unit {uid} moved to {start}..{end}", body)

    def remove_unit(self, uid: str) -> None:
        """Remove a unit; candidates that preserved it go back under review for ``preserves``."""

        def body(doc: dict[str, Any]) -> None:
            self._unit(doc, uid)
            doc["units"] = [u for u in doc["units"] if u.get("id") != uid]
            for c in doc["candidates"]:
                if uid in c.get("preserves", []):
                    c["preserves"] = [p for p in c["preserves"] if p != uid]
                    if not c.get("review"):
                        c["review"] = ["preserves"]
                        c.pop("confirmed", None)

        self._apply(f"unit {uid} removed", body)

    def confirm_units(self, uids: Iterable[str] | None = None) -> None:
        """Confirm proposed units (all of them when ``uids`` is None)."""
        wanted = None if uids is None else list(uids)

        def body(doc: dict[str, Any]) -> None:
            for uid in wanted or []:
                self._unit(doc, uid)
            for u in doc["units"]:
                if wanted is None or u.get("id") in wanted:
                    u.pop("review", None)

        self._apply(f"units confirmed: {', '.join(wanted) if wanted else 'all'}", body)

    def set_source_span(self, cid: str, start: int, end: int) -> None:
        """Set a candidate's source span to the UTF-16 span ``start..end``."""
        span = self._span_doc(start, end)
        self._edit(
            cid,
            "source_spans",
            f"source span {start}..{end}",
            lambda c: c.update(source_spans=[span]),
        )

    def clear_source_spans(self, cid: str) -> None:
        """The answer does not say it: no source span."""
        self._edit(cid, "source_spans", "no source span", lambda c: c.update(source_spans=[]))

    def set_preserves(self, cid: str, uids: Sequence[str]) -> None:
        """The units a candidate preserves."""
        known = set(self.fixture.unit_ids)
        for uid in uids:
            if uid not in known:
                raise AnnotationError(f"unknown unit id {uid!r}", file=str(self.path), record=cid)
        ordered = [u for u in self.fixture.unit_ids if u in set(uids)]
        self._edit(
            cid,
            "preserves",
            f"preserves {', '.join(ordered) or 'none'}",
            lambda c: c.update(preserves=ordered),
        )

    def toggle_preserves(self, cid: str, uid: str) -> None:
        """Add or remove one unit from what a candidate preserves."""
        now_kept = set(self.fixture.candidate(cid).preserves)
        self.set_preserves(cid, sorted(now_kept ^ {uid}))

    def set_faithful(self, cid: str, value: bool) -> None:
        """Whether the candidate says what the original says."""
        self._edit(
            cid, "faithful", f"faithful {bool(value)}", lambda c: c.update(faithful=bool(value))
        )

    def set_atomic(self, cid: str, value: bool) -> None:
        """Whether the candidate holds one statement."""
        self._edit(cid, "atomic", f"atomic {bool(value)}", lambda c: c.update(atomic=bool(value)))

    def set_errors(self, cid: str, kinds: Sequence[str]) -> None:
        """How the candidate departs from the original (an error makes it unfaithful)."""
        for k in kinds:
            if k not in ERROR_KINDS:
                raise AnnotationError(
                    unknown("error kind", k, ERROR_KINDS),
                    file=str(self.path),
                    record=cid,
                )
        ordered = [str(k) for k in ERROR_KINDS if k in set(kinds)]

        def change(c: dict[str, Any]) -> None:
            c["errors"] = ordered
            if ordered:
                c["faithful"] = False

        self._edit(cid, "errors", f"errors {', '.join(ordered) or 'none'}", change)

    def set_status(self, cid: str, status: str) -> None:
        """What the references say (SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE)."""
        if status not in STATUSES:
            raise AnnotationError(
                unknown("status", status, STATUSES),
                file=str(self.path),
                record=cid,
            )
        self._edit(
            cid, "evidence", f"status {status}", lambda c: c["evidence"].update(status=str(status))
        )

    def set_references(self, cid: str, refs: Sequence[str]) -> None:
        """The references the status rests on."""
        known = [r.id for r in self.fixture.references]
        for r in refs:
            if r not in known:
                raise AnnotationError(
                    f"unknown reference id {r!r}", file=str(self.path), record=cid
                )
        ordered = [r for r in known if r in set(refs)]
        self._edit(
            cid,
            "evidence",
            f"references {', '.join(ordered) or 'none'}",
            lambda c: c["evidence"].update(references=ordered),
        )

    def confirm(self, cid: str) -> None:
        """Confirm every label of a candidate as this annotator's.

        Raises:
            AnnotationError: naming the first label that contradicts another.
        """
        problems = self.problems(cid)
        if problems:
            where, problem = problems[0]
            raise AnnotationError(problem, file=str(self.path), record=cid, field=where)
        at = self.clock()

        def body(doc: dict[str, Any]) -> None:
            c = self._cand(doc, cid)
            c["review"] = []
            c["confirmed"] = {"by": self.annotator, "at": at}

        self._apply(f"{cid}: confirmed", body)

    def reopen(self, cid: str) -> None:
        """Put every label of a confirmed candidate back under review."""

        def body(doc: dict[str, Any]) -> None:
            c = self._cand(doc, cid)
            c["review"] = [str(f) for f in REVIEW_FIELDS]
            c.pop("confirmed", None)

        self._apply(f"{cid}: reopened", body)


def shown_path(path: str | Path) -> str:
    """A path as shown to a person: relative to the working folder when it lies under it.

    An absolute path names one machine; a notebook's outputs and the annotator's header show
    the path the person gave (or the one below where they work), never the machine's own.

    Examples:
        >>> shown_path("drafts/A/k01.json")
        'drafts/A/k01.json'
    """
    p = Path(path)
    if not p.is_absolute():
        return p.as_posix()
    try:
        return p.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return p.name if p.parent == p else f".../{p.parent.name}/{p.name}"


@dataclass(frozen=True)
class WorkItem:
    """One answer of an annotator's folder: which answer (decomposer and id), its draft, its copy."""

    key: AnswerKey
    draft: Path
    copy: Path

    @property
    def label(self) -> str:
        """``A/k02`` (decomposer and answer id), or ``k02`` without a decomposer."""
        return self.key.label


def next_to_do(order: Sequence[str], to_do: Iterable[str], current: str | None) -> str | None:
    """The first item still to do after ``current`` in ``order``, wrapping round; None when done.

    Confirm moves on with it (candidates) and so does the answer chooser (answers): work
    continues after the item just finished, never back at the first one.

    Examples:
        >>> next_to_do(["S1", "S2", "S3", "S4"], {"S1", "S4"}, "S2")
        'S4'
        >>> next_to_do(["S1", "S2", "S3"], {"S1"}, "S3")
        'S1'
        >>> next_to_do(["S1", "S2"], set(), "S1") is None
        True
    """
    wanted = set(to_do)
    if not wanted:
        return None
    start = order.index(current) + 1 if current in order else 0
    for k in range(len(order)):
        item = order[(start + k) % len(order)]
        if item in wanted:
            return item
    return None


def find_item(items: Sequence[WorkItem], answer: str, *, given_as: str, where: str) -> WorkItem:
    """The item ``answer`` names: ``DECOMPOSER/ID``, or an answer id that one decomposer has.

    Both sides are compared after Unicode NFC normalisation; "" names the first item.

    Raises:
        AnnotationError: no item has that name, or the id alone is shared by several
            decomposers (each is named, to be chosen as ``DECOMPOSER/ID``).
    """
    if not answer:
        return items[0]
    wanted = nfc(answer)
    exact = [it for it in items if it.label == wanted]
    if exact:
        return exact[0]
    same_id = [it for it in items if it.key.answer == wanted]
    if len(same_id) == 1:
        return same_id[0]
    if same_id:
        raise AnnotationError(
            f"{given_as} is {answer!r}, which several decomposers share: choose one of "
            + ", ".join(it.label for it in same_id),
            file=where,
        )
    labels = [it.label for it in items]
    shown = ", ".join(labels[:12]) + (", ..." if len(labels) > 12 else "")
    raise AnnotationError(
        f"{given_as} is {answer!r}, but the folder holds no draft of that answer (it has {shown})",
        file=where,
    )


@dataclass(frozen=True)
class Workspace:
    """Where an annotator works: the draft chosen, their copy's session, and all their answers."""

    draft: Path
    session: AnnotationSession
    copies: tuple[Path, ...]
    folder: Path | None = None  # the annotator's folder of copies (a folder of drafts)
    items: tuple[WorkItem, ...] = ()  # every answer of a folder (decomposer and id), in order

    def beside(self, name: str) -> Path:
        """A folder for other outputs: beside the copy, or beside an annotator's folder of copies.

        Never inside the annotator's folder, which ``claimlab agreement`` reads whole.
        """
        if self.folder is None:
            return self.session.path.parent / name
        return self.folder.with_name(f"{self.folder.name}-{name}")

    @property
    def current(self) -> WorkItem | None:
        """The item of the open copy (None for a single draft)."""
        for it in self.items:
            if it.copy == self.session.path:
                return it
        return None

    def open(self, answer: str) -> Workspace:
        """The same workspace on another answer (``DECOMPOSER/ID`` or an id one decomposer has)."""
        if not self.items:
            raise AnnotationError("a single draft has no other answer", file=str(self.draft))
        it = find_item(self.items, answer, given_as="the answer chosen", where=str(self.folder))
        session = AnnotationSession(it.copy, self.session.annotator, clock=self.session.clock)
        return replace(self, draft=it.draft, session=session)

    def progress_of(self) -> dict[str, Progress]:
        """Each answer's progress (label -> Progress), from the copies as saved."""
        out = {}
        for it in self.items:
            s = (
                self.session
                if it.copy == self.session.path
                else AnnotationSession(it.copy, self.session.annotator)
            )
            out[it.label] = s.progress()
        return out

    def progress_rows(self) -> list[dict[str, str]]:
        """Each copy and how far it is (for a table of the annotator's folder)."""
        done = self.progress_of()
        return [
            {"file": shown_path(it.copy), "answer": it.label, "progress": done[it.label].text}
            for it in self.items
        ]


def folder_copies(drafts: str | Path, work: str | Path, annotator: str) -> list[tuple[Path, Path]]:
    """Each draft of a folder and where the annotator's copy of it lives (the same layout in ``work``).

    Raises:
        AnnotationError: ``work`` is the drafts folder or lies inside it (or the reverse).
    """
    from claimlab.io.annotations import decomposition_files

    src, dst = Path(drafts).resolve(), Path(work).resolve()
    if src == dst or dst.is_relative_to(src) or src.is_relative_to(dst):
        raise AnnotationError(
            f"the annotator's folder {work} must lie outside the drafts folder {drafts}: copies "
            "never replace drafts",
            file=str(work),
            field="WORK_DIR",
        )
    return [
        (Path(drafts) / p.relative_to(src), Path(work) / p.relative_to(src))
        for p in decomposition_files(src)
    ]


def work_items(pairs: Sequence[tuple[Path, Path]], drafts: Path) -> tuple[WorkItem, ...]:
    """Each draft's answer (its decomposer, else its sub-folder, and id), made unique.

    Drafts of different decomposers never collide: ``A/k02`` and ``B/k02`` are two items.

    Raises:
        AnnotationError: two drafts of the folder are the same answer.
    """
    from claimlab.io.annotations import scan_annotated

    items: dict[AnswerKey, WorkItem] = {}
    for src, copy_path in pairs:
        key = scan_annotated(src, root=drafts).key
        if key in items:
            raise AnnotationError(
                f"is the same answer ({key.label}) as {items[key].draft}: give each decomposer "
                "its own sub-folder or draft --decomposer",
                file=str(src),
            )
        items[key] = WorkItem(key, src, copy_path)
    return tuple(items.values())


def open_workspace(
    draft: str | Path,
    annotator: str,
    work: str | Path,
    *,
    answer: str = "",
    given_as: str = "the answer asked for",
    clock: Callable[[], str] = now,
) -> Workspace:
    """Open the annotator's copy of a draft, or of every draft of a folder (made where missing).

    For a folder the copies keep the drafts' layout in ``work`` (the annotator's folder, as
    ``claimlab agreement`` and ``adjudicate`` take it); ``answer`` chooses the one to open
    (``DECOMPOSER/ID``, or an id only one decomposer has; "" the first); ``given_as`` says
    where it came from, for the error refusing it.

    Raises:
        AnnotationError: no draft of that answer, an id several decomposers share, or a
            folder with no draft.
    """
    d = Path(draft)
    if not d.is_dir():
        session = AnnotationSession.start(d, annotator, clock=clock)
        return Workspace(d, session, (session.path,))
    pairs = folder_copies(d, work, annotator)
    if not pairs:
        raise AnnotationError("holds no draft (*.json)", file=str(d), field="DRAFT")
    items = work_items(pairs, d)
    chosen = find_item(items, answer, given_as=given_as, where=str(d))
    for src, copy_path in pairs:
        if not copy_path.exists():
            doc = load_document(src)
            read_decomposition(doc, source=str(src))
            write_json(copy_path, doc)
    session = AnnotationSession(chosen.copy, annotator, clock=clock)
    return Workspace(chosen.draft, session, tuple(c for _, c in pairs), Path(work), items)


def workspace_keys(space: Workspace) -> set[AnswerKey]:
    """The answers a workspace annotates (decomposer and id)."""
    from claimlab.io.annotations import scan_annotated

    if space.items:
        return {it.key for it in space.items}
    return {scan_annotated(space.session.path).key}


def agreement_inputs(given: Sequence[str | Path], space: Workspace) -> tuple[list[Path], str]:
    """The annotators' files to compare with this workspace, or none and the sentence saying why.

    Only the person's own answers are compared: with no files given, or files that hold none
    of the answers annotated here (another project's, a shipped example's), agreement,
    adjudication and the ledger are skipped, and nothing is written.
    """
    from claimlab.io.annotations import decomposition_files, scan_annotated

    if not given:
        return [], (
            "No annotators' files given (`AGREEMENT_FILES` is empty): agreement, adjudication "
            "and the ledger are skipped. Give two or more annotators' files or folders."
        )
    paths = [Path(g) for g in given]
    mine = workspace_keys(space)
    for p in paths:
        files = decomposition_files(p) if p.is_dir() else [p] if p.exists() else []
        root = p if p.is_dir() else None
        if any(scan_annotated(f, root=root).key in mine for f in files):
            return paths, ""
    return [], (
        "The annotators' files given (`AGREEMENT_FILES`) hold none of the answers annotated "
        "here: agreement, adjudication and the ledger are skipped, and nothing is written. "
        "Give your annotators' files or folders."
    )
