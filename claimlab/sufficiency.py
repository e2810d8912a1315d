"""Evidence sufficiency: is the selected evidence enough for *this* question?

Metric card:
    Alternatives P(Q) are evidence sets, OR across sets and AND inside a set; where a set is a
    chain, each member's end must be the next member's start. ``Sufficient(Q, C)`` holds when some
    set S in P(Q) has every member in the context C (ids made unique), every link holds, and
    every member passes the scope/metadata rules.
    Result states: SUFFICIENT (with every complete witness), INSUFFICIENT (with, per branch, the
    missing premises and link errors) and UNKNOWN (a context item could not be mapped to any
    premise and no witness is complete: it might be the missing premise). No witness means
    "this selection is not enough", never "the claim is false".
    Reference: the sufficiency lab's source notes (AND/OR alternatives, chain links, metadata
    rules, UNKNOWN for unmapped records). Relations are fixture labels, never inferred from
    word similarity.

The core works on plain ids so it serves fixtures and real data (FEVER, WiCE) alike.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from claimlab._parse import Record, check_unique, describe, read_json
from claimlab.errors import ClaimlabInputError, FixtureError
from claimlab.ratio import Ratio

SUFFICIENT = "SUFFICIENT"
INSUFFICIENT = "INSUFFICIENT"
UNKNOWN = "UNKNOWN"
SUFFICIENCY_FORMAT = "claimlab/sufficiency@1"

LinkCheck = Callable[[str, str], "LinkError | None"]
# how many context items from other branches are tried in the place of one missing member (and
# reported when they do not link): a few explain the gap; thousands would make the report,
# and the time to build it, grow with the square of the alternatives
MAX_STAND_INS = 3


def _ids(ids) -> str:
    return ", ".join(str(i) for i in ids)


@dataclass(frozen=True)
class LinkError:
    """Two consecutive chain members that do not join: ``left`` ends where ``right`` does not start."""

    left: str
    right: str
    left_end: str | None = None
    right_start: str | None = None

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "from": self.left,
            "to": self.right,
            "from_ends_at": self.left_end,
            "to_starts_at": self.right_start,
            "explanation": self.explanation,
        }

    @property
    def explanation(self) -> str:
        """Plain words."""
        if self.left_end is None:
            return f"{self.left} does not lead to {self.right}"
        return (
            f"{self.left} ends at {self.left_end!r} but {self.right} starts at "
            f"{self.right_start!r}: they do not link"
        )


class Branch(NamedTuple):
    """One alternative evidence set and how far the context gets with it."""

    alternative: tuple[str, ...]
    present: tuple[str, ...]
    missing: tuple[str, ...]
    link_errors: tuple[LinkError, ...]

    @property
    def complete(self) -> bool:
        """Every member present and every link holds."""
        return not self.missing and not self.link_errors

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "alternative": list(self.alternative),
            "complete": self.complete,
            "present": list(self.present),
            "missing": list(self.missing),
            "link_errors": [e.to_dict() for e in self.link_errors],
        }


@dataclass(frozen=True)
class Rejection:
    """A context item that cannot serve as a premise, and why."""

    id: str
    reason: str
    detail: str

    def to_dict(self) -> dict:
        """JSON form."""
        return {"id": self.id, "reason": self.reason, "detail": self.detail}


class SufficiencyResult(NamedTuple):
    """Status, witnesses, per-branch gaps and rejections, with the raw and unique context sizes."""

    status: str
    witnesses: tuple[tuple[str, ...], ...]
    branches: tuple[Branch, ...]
    rejected: tuple[Rejection, ...]
    unsafe_candidates: tuple[Rejection, ...]
    unknown: tuple[str, ...]
    context_raw: int
    context_unique: int
    context: tuple[str, ...] = ()  # the context's unique ids, in the order given

    @property
    def explanation(self) -> str:
        """The result in plain words (built on demand)."""
        if self.witnesses:
            return "complete witness: " + "; ".join("{" + _ids(w) + "}" for w in self.witnesses)
        if self.unknown:
            return (
                f"no complete witness, and {_ids(self.unknown)} could not be mapped to any "
                "premise: it might be the missing one, so the result is UNKNOWN, not INSUFFICIENT"
            )
        gaps = "; ".join(
            "{" + _ids(b.alternative) + "} missing " + (_ids(b.missing) or "a link")
            for b in self.branches
        )
        return f"this selection is not enough (not: the claim is false). {gaps}"

    @property
    def sufficient(self) -> bool:
        """Whether some alternative is complete."""
        return self.status == SUFFICIENT

    @property
    def closest_missing(self) -> int | None:
        """Fewest premises missing over the branches (0 when sufficient); None without branches."""
        counts = [len(b.missing) + len(b.link_errors) for b in self.branches]
        return min(counts) if counts else None

    def to_dict(self) -> dict:
        """JSON form with the keys of the command line."""
        return {
            "status": self.status,
            "witnesses": [list(w) for w in self.witnesses],
            "branches": [b.to_dict() for b in self.branches],
            "rejected": [r.to_dict() for r in self.rejected],
            "unsafe_candidates": [r.to_dict() for r in self.unsafe_candidates],
            "unknown": list(self.unknown),
            "context_raw": self.context_raw,
            "context_unique": self.context_unique,
            "context_ids": [str(c) for c in self.context],
            "explanation": self.explanation,
        }


def check_alternatives(
    alternatives: Sequence[Sequence[str]], *, where: str = "alternatives", chains: bool = False
) -> None:
    """Reject degenerate structures: no alternative at all, an empty group, a cyclic chain.

    The official FEVER scorer counts an empty group as complete (``all([])`` is True); here it is
    an error at load time. In a chain (``chains``) a member may occur once: a chain that comes
    back to a member (a -> b -> a -> b) is a cycle and proves nothing.

    Raises:
        ClaimlabInputError: naming the group.
    """
    if not alternatives:
        raise ClaimlabInputError(
            "no alternative evidence set: nothing could ever be sufficient", field=where
        )
    for i, group in enumerate(alternatives):
        if not group:
            raise ClaimlabInputError(
                "empty evidence group (it would count as complete with no evidence)",
                field=f"{where}[{i}]",
            )
        if chains and len(set(group)) != len(group):
            again = next(m for j, m in enumerate(group) if m in group[:j])
            raise ClaimlabInputError(
                f"{again} occurs twice in one chain (a cycle is not a chain of evidence)",
                field=f"{where}[{i}]",
            )


def any_group_complete(groups: Sequence[Sequence[Hashable]], usable: AbstractSet[Hashable]) -> bool:
    """Whether some group has every member in ``usable`` (OR across groups, AND inside).

    Examples:
        >>> any_group_complete([("a", "b"), ("c",)], {"c"}), any_group_complete([("a", "b")], {"a"})
        (True, False)
    """
    return any(map(usable.issuperset, groups))


def find_group_gaps(
    groups: Sequence[Sequence[Hashable]], usable: AbstractSet[Hashable]
) -> tuple[tuple[int, ...], tuple[tuple[Hashable, ...], ...]]:
    """The AND/OR primitive of the core: which groups are complete, and what each one misses.

    Args:
        groups: Alternative evidence groups (AND inside a group, OR across groups).
        usable: The context ids that may serve as premises.

    Returns:
        ``(complete, missing)``: indices of complete groups, and per group the members not in
        ``usable`` in group order (empty for a complete group).

    Examples:
        >>> find_group_gaps([("a", "b"), ("c",)], {"a", "c"})
        ((1,), (('b',), ()))
    """
    complete = []
    missing = []
    covers = usable.issuperset
    for i, g in enumerate(groups):
        if covers(g):
            complete.append(i)
            missing.append(())
        else:
            missing.append(tuple(x for x in g if x not in usable))
    return tuple(complete), tuple(missing)


def find_sufficiency(
    alternatives: Sequence[Sequence[str]],
    context: Sequence[str],
    *,
    known: Callable[[str], bool] | None = None,
    reject: Callable[[str], Rejection | None] | None = None,
    unsafe: Callable[[str], Rejection | None] | None = None,
    link: LinkCheck | None = None,
) -> SufficiencyResult:
    """Decide whether ``context`` holds a complete alternative, and say what is missing.

    Args:
        alternatives: Evidence sets (chains in order where ``link`` is given). OR across, AND
            inside. Ids may be any hashable values (strings, (page, line) pairs, ...).
        context: Selected ids as given; repeats are kept for the raw count only.
        known: Whether an id can be mapped to a premise; unmapped ids make an otherwise
            insufficient result UNKNOWN. Default: every id is known.
        reject: Why an id cannot serve (off-topic, metadata rule), or None when it can.
        unsafe: In "metadata ignored" mode: an id listed apart as an unsafe candidate, never
            used in a witness.
        link: Checks that a chain member leads to the next one; None when order does not matter.

    Returns:
        A SufficiencyResult; ``witnesses`` lists every complete alternative.

    Examples:
        >>> r = find_sufficiency([["a", "b"], ["c"]], ["a", "a"])
        >>> r.status, r.context_raw, r.context_unique, [b.missing for b in r.branches]
        ('INSUFFICIENT', 2, 1, [('b',), ('c',)])
        >>> find_sufficiency([["a", "b"], ["c"]], ["c"]).witnesses
        (('c',),)
        >>> find_sufficiency([["a"]], []).status
        'INSUFFICIENT'
    """
    check_alternatives(alternatives, chains=link is not None)
    seen: dict[str, None] = {}
    rejected: list[Rejection] = []
    unsafe_list: list[Rejection] = []
    unknown: list[str] = []
    for cid in context:
        if cid in seen:
            rejected.append(
                Rejection(
                    cid, "duplicate", f"{cid} is already in the context: a copy adds no premise"
                )
            )
            continue
        seen[cid] = None
    if known is None and unsafe is None and reject is None:
        usable = set(seen)
    else:
        usable = set()
        for cid in seen:
            if known is not None and not known(cid):
                unknown.append(cid)
                continue
            if unsafe is not None:
                u = unsafe(cid)
                if u is not None:
                    unsafe_list.append(u)
                    continue
            if reject is not None:
                r = reject(cid)
                if r is not None:
                    rejected.append(r)
                    continue
            usable.add(cid)

    _, gaps = find_group_gaps(alternatives, usable)
    # members in context at each (chain length, position): the stand-ins a branch may meet
    at_position: dict[tuple[int, int], dict[Hashable, None]] = {}
    if link is not None:
        for alt in alternatives:
            for i, m in enumerate(alt):
                if m in usable:
                    at_position.setdefault((len(alt), i), {})[m] = None
    reported: set[LinkError] = set()  # a link error is listed under the first branch meeting it
    branches = []
    for alt, missing in zip(alternatives, gaps, strict=True):
        alt_t = tuple(alt)
        present = tuple(m for m in alt_t if m in usable) if missing else alt_t
        errors: list[LinkError] = []
        if link is not None and len(alt_t) > 1:
            # links inside the branch
            for a, b in pairwise(alt_t):
                if a in usable and b in usable:
                    e = link(a, b)
                    if e is not None:
                        errors.append(e)
            # a context item from another branch standing in for a missing member
            members = set(alt_t)
            for i, m in enumerate(alt_t):
                if m in usable:
                    continue
                shown = 0
                for s in at_position.get((len(alt_t), i), ()):
                    if s in members:
                        continue
                    if shown == MAX_STAND_INS:  # enough to explain the gap; the rest adds nothing
                        break
                    shown += 1
                    if i > 0 and alt_t[i - 1] in usable:
                        e = link(alt_t[i - 1], s)
                        if e is not None:
                            errors.append(e)
                    if i + 1 < len(alt_t) and alt_t[i + 1] in usable:
                        e = link(s, alt_t[i + 1])
                        if e is not None:
                            errors.append(e)
        own = [e for e in dict.fromkeys(errors) if e not in reported]
        reported.update(own)
        branches.append(Branch(alt_t, present, missing, tuple(own)))

    # stand-in link errors arise only where a member is missing: complete means witness
    witnesses = tuple(b.alternative for b in branches if b.complete)
    status = SUFFICIENT if witnesses else UNKNOWN if unknown else INSUFFICIENT
    return SufficiencyResult(
        status=status,
        witnesses=witnesses,
        branches=tuple(branches),
        rejected=tuple(rejected),
        unsafe_candidates=tuple(unsafe_list),
        unknown=tuple(unknown),
        context_raw=len(context),
        context_unique=len(seen),
        context=tuple(seen),
    )


# --- the fixture format ------------------------------------------------------------------


@dataclass(frozen=True)
class EvidenceItem:
    """An evidence record: a relation ``subject -relation-> object`` with its metadata."""

    id: str
    text: str
    subject: str
    relation: str
    object: str
    status: str
    current: bool
    topic: str


@dataclass(frozen=True)
class Question:
    """A question with what its answer must name and its alternative evidence chains."""

    name: str
    text: str
    asks: tuple[str, ...]
    topic: str
    alternatives: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Rules:
    """Scope/metadata rules every witness member must pass."""

    required_status: str
    require_current: bool


@dataclass(frozen=True)
class Scenario:
    """A named walk-through step: a question, a context, and a simulated system's answer.

    ``system_answer`` maps each asked item the simulated system named to its value (empty when
    it abstained); ``answered`` says whether it answered at all.
    """

    name: str
    question: str
    context: tuple[str, ...]
    ignore_metadata: bool
    note: str
    system_answer: Mapping[str, str] | None
    system_confidence: float | None

    @property
    def answered(self) -> bool:
        """Whether the simulated system gave an answer (it may still leave an item out)."""
        return self.system_answer is not None


@dataclass(frozen=True)
class SufficiencyFixture:
    """A loaded, checked ``claimlab/sufficiency@1`` file."""

    source: str
    evidence: tuple[EvidenceItem, ...]
    rules: Rules
    questions: Mapping[str, Question] = field(default_factory=lambda: MappingProxyType({}))
    scenarios: Mapping[str, Scenario] = field(default_factory=lambda: MappingProxyType({}))
    answer_key: Mapping[str, Mapping[str, object]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    _by_id: Mapping[str, EvidenceItem] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", MappingProxyType({e.id: e for e in self.evidence}))

    @property
    def evidence_ids(self) -> tuple[str, ...]:
        """Evidence ids in file order."""
        return tuple(e.id for e in self.evidence)

    def item(self, eid: str) -> EvidenceItem | None:
        """The evidence item with id ``eid``, or None."""
        return self._by_id.get(eid) if isinstance(eid, str) else None

    def accepted(self, question: str, item: str) -> tuple[str, ...]:
        """The values the answer key accepts for one asked item of a question (empty: no key)."""
        value = self.answer_key.get(question, {}).get(item)
        if value is None:
            return ()
        return (value,) if isinstance(value, str) else tuple(value)

    def question(self, name: str) -> Question:
        """A question by name."""
        if name not in self.questions:
            raise FixtureError(
                f"unknown question (known: {', '.join(self.questions)})",
                file=self.source,
                field=f"questions.{name}",
            )
        return self.questions[name]


def load_sufficiency(path: str | Path) -> SufficiencyFixture:
    """Load and check a ``claimlab/sufficiency@1`` file.

    Checks: format; required fields and types; unique evidence ids; every alternative member
    exists; no empty alternative list and no empty group.

    Raises:
        FixtureError: naming the file, the record id and the field.
    """
    source = str(path)
    top = Record(read_json(path), file=source)
    fmt = top.get("format", str)
    if fmt != SUFFICIENCY_FORMAT:
        raise top.error(f"expected {SUFFICIENCY_FORMAT!r}, got {fmt!r}", field="format")
    evidence = []
    for _, e in top.records("evidence"):
        evidence.append(
            EvidenceItem(
                id=e.get("id", str),
                text=e.get("text", str),
                subject=e.get("subject", str),
                relation=e.get("relation", str),
                object=e.get("object", str),
                status=e.get("status", str),
                current=e.get("current", bool),
                topic=e.get("topic", str),
            )
        )
    check_unique([e.id for e in evidence], file=source, field="evidence")
    ids = {e.id for e in evidence}
    r = top.sub("rules")
    rules = Rules(r.get("required_status", str), r.get("require_current", bool))
    questions: dict[str, Question] = {}
    if not top.get("questions", dict):
        raise top.error("at least one question is required", field="questions")
    for name, q in top.mapping("questions"):
        qr = Record(q, file=source, record=name, path=f"questions.{name}")
        alts_raw = qr.get("alternatives", list)
        if not alts_raw:
            raise qr.error("no alternative evidence set", field=f"questions.{name}.alternatives")
        alts = []
        for i, group in enumerate(alts_raw):
            where = f"questions.{name}.alternatives[{i}]"
            if not isinstance(group, list):
                raise qr.error(f"must be a list of evidence ids, got {group!r}", field=where)
            if not group:
                raise qr.error(
                    "empty evidence group (it would count as complete with no evidence)",
                    field=where,
                )
            for j, eid in enumerate(group):
                if not isinstance(eid, str):
                    raise qr.error(
                        f"must be an evidence id (a string), got {describe(eid)}",
                        field=f"{where}[{j}]",
                    )
                if eid not in ids:
                    raise qr.error(f"unknown evidence id {eid!r}", field=f"{where}[{j}]")
                if eid in group[:j]:
                    raise qr.error(
                        f"{eid} occurs twice in one chain (a cycle is not a chain of evidence)",
                        field=f"{where}[{j}]",
                    )
            alts.append(tuple(group))
        questions[name] = Question(
            name=name,
            text=qr.get("text", str),
            asks=qr.str_list("asks"),
            topic=qr.get("topic", str),
            alternatives=tuple(alts),
        )
    answer_key: dict[str, Mapping[str, object]] = {}
    for qname, key in top.mapping("answer_key", {}):
        if qname not in questions:
            raise top.error(f"unknown question {qname!r}", field=f"answer_key.{qname}")
        kr = Record(key, file=source, record=qname, path=f"answer_key.{qname}")
        values: dict[str, object] = {}
        for item, value in kr.data.items():
            accepted = [value] if isinstance(value, str) else value
            if (
                not isinstance(accepted, list)
                or not accepted
                or not all(isinstance(v, str) for v in accepted)
            ):
                raise kr.error(
                    f"must be a value or a non-empty list of accepted values, got {describe(value)}",
                    field=kr.field(item),
                )
            values[item] = value if isinstance(value, str) else tuple(value)
        answer_key[qname] = MappingProxyType(values)
    scenarios: dict[str, Scenario] = {}
    for name, sc in top.mapping("scenarios", {}):
        sr = Record(sc, file=source, record=name, path=f"scenarios.{name}")
        qname = sr.get("question", str)
        if qname not in questions:
            raise sr.error(f"unknown question {qname!r}", field=f"scenarios.{name}.question")
        context = sr.str_list("context")
        for j, eid in enumerate(context):
            if eid not in ids:
                raise sr.error(f"unknown evidence id {eid!r}", field=sr.field(f"context[{j}]"))
        system = sr.sub("simulated_system") if "simulated_system" in sr.data else None
        conf = (
            system.number("confidence", minimum=0.0, maximum=1.0, default=None) if system else None
        )
        scenarios[name] = Scenario(
            name=name,
            question=qname,
            context=context,
            ignore_metadata=sr.get("ignore_metadata", bool, False),
            note=sr.get("note", str, ""),
            system_answer=_system_answer(system, questions[qname]) if system else None,
            system_confidence=None if conf is None else float(conf),
        )
    return SufficiencyFixture(
        source,
        tuple(evidence),
        rules,
        MappingProxyType(questions),
        MappingProxyType(scenarios),
        MappingProxyType(answer_key),
    )


def _system_answer(system: Record, question: Question) -> Mapping[str, str] | None:
    """A simulated answer: null (abstained), a value (a question asking one item) or an object.

    A plain value answers the question's only asked item; for a question asking several items
    it must be an object naming each (an item left out counts as not answered).
    """
    value = system.get("answer", (str, dict, type(None)), None)
    if value is None:
        return None
    if isinstance(value, str):
        if len(question.asks) != 1:
            raise system.error(
                f"question {question.name!r} asks {', '.join(question.asks)}: give the answer "
                'as an object naming each, e.g. {"' + question.asks[0] + '": "..."}',
                field=system.field("answer"),
            )
        return MappingProxyType({question.asks[0]: value})
    out: dict[str, str] = {}
    for item, v in value.items():
        if item not in question.asks:
            raise system.error(
                f"question {question.name!r} does not ask for {item!r} (asks: "
                f"{', '.join(question.asks)})",
                field=system.field(f"answer.{item}"),
            )
        if not isinstance(v, str):
            raise system.error(
                f"must be a string, got {describe(v)}", field=system.field(f"answer.{item}")
            )
        out[item] = v
    return MappingProxyType(out)


def answer_is_correct(
    fixture: SufficiencyFixture, question: str, answer: Mapping[str, str]
) -> bool:
    """Whether an answer names every item the question asks with a value the key accepts.

    An answer that leaves an asked item out is not correct, however right the rest is.
    """
    q = fixture.question(question)
    return all(answer.get(item) in fixture.accepted(question, item) for item in q.asks)


def selective_items(fixture: SufficiencyFixture) -> list[SelectiveItem]:
    """The fixture's scenarios as selective-answering items (simulated system vs. computed evidence).

    ``evidence_complete`` comes from the witness core; ``correct`` checks the simulated answer
    against the file's answer key for **every** item the question asks.
    """
    items = []
    for sc in fixture.scenarios.values():
        result = find_fixture_sufficiency(
            fixture, sc.question, sc.context, ignore_metadata=sc.ignore_metadata
        )
        correct = (
            answer_is_correct(fixture, sc.question, sc.system_answer)
            if sc.system_answer is not None
            else None
        )
        items.append(
            SelectiveItem(sc.name, sc.answered, correct, result.sufficient, sc.system_confidence)
        )
    return items


def find_fixture_sufficiency(
    fixture: SufficiencyFixture,
    question: str,
    context: Sequence[str],
    *,
    ignore_metadata: bool = False,
) -> SufficiencyResult:
    """Run the witness core on a fixture question, with its topic, metadata and link rules.

    With ``ignore_metadata`` a record failing the metadata rules is listed as an *unsafe
    candidate* (clearly apart), never used in a witness.

    Examples:
        >>> from claimlab.paths import FIXTURES_DIR
        >>> fx = load_sufficiency(FIXTURES_DIR / "aurora.json")
        >>> find_fixture_sufficiency(fx, "room", ["E1"]).branches[1].missing
        ('E2',)
    """
    q = fixture.question(question)
    items = fixture._by_id
    premises = {m for alt in q.alternatives for m in alt}

    def metadata_problem(eid: str) -> Rejection | None:
        e = items[eid]
        problems = []
        if e.status != fixture.rules.required_status:
            problems.append(f"status {e.status} (needs {fixture.rules.required_status})")
        if fixture.rules.require_current and not e.current:
            problems.append("not CURRENT")
        if problems:
            return Rejection(
                eid, "metadata", f"{eid} fails the metadata rules: {', '.join(problems)}"
            )
        return None

    def reject(eid: str) -> Rejection | None:
        e = items[eid]
        if e.topic != q.topic:
            return Rejection(
                eid, "off-topic", f"{eid} is about {e.topic!r}, the question about {q.topic!r}"
            )
        problem = metadata_problem(eid)
        if problem is None and eid not in premises:
            return Rejection(
                eid,
                "not a premise",
                f"{eid} is in no alternative of {question!r} (it asks for "
                f"{', '.join(q.asks)}): on its own it cannot answer this question",
            )
        return problem

    def unsafe(eid: str) -> Rejection | None:
        if items[eid].topic != q.topic:
            return None
        m = metadata_problem(eid)
        if m is None:
            return None
        return Rejection(
            eid,
            "unsafe: metadata ignored",
            m.detail + " (shown because metadata rules are ignored; never a witness)",
        )

    def link(a: str, b: str) -> LinkError | None:
        ea, eb = items[a], items[b]
        if ea.object == eb.subject:
            return None
        return LinkError(a, b, ea.object, eb.subject)

    return find_sufficiency(
        q.alternatives,
        context,
        known=lambda eid: eid in items,
        reject=reject,
        unsafe=unsafe if ignore_metadata else None,
        link=link,
    )


def answer_from_witness(fixture: SufficiencyFixture, witness: Sequence[str]) -> dict[str, str]:
    """What a witness chain lets one answer: the final object, and the intermediates in order."""
    items = [fixture.item(i) for i in witness]
    chain = [i for i in items if i is not None]
    out = {"answer": chain[-1].object} if chain else {}
    if len(chain) > 1:
        out["intermediate"] = chain[0].object
    return out


# --- selective answering -------------------------------------------------------------------


@dataclass(frozen=True)
class SelectiveItem:
    """One question: whether it was answered, whether correctly, and whether evidence was complete."""

    id: str
    answered: bool
    correct: bool | None
    evidence_complete: bool
    confidence: float | None = None


@dataclass(frozen=True)
class SelectiveResult:
    """Accuracy on answered, coverage (answered/total), and the two kinds of mismatch apart."""

    accuracy: Ratio
    coverage: Ratio
    abstained_with_complete_evidence: tuple[str, ...]
    answered_with_gaps: tuple[str, ...]

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "accuracy_on_answered": self.accuracy.to_dict(),
            "answered": self.coverage.to_dict(),
            "abstained_with_complete_evidence": list(self.abstained_with_complete_evidence),
            "answered_with_gaps": list(self.answered_with_gaps),
        }


def find_selective(items: Sequence[SelectiveItem]) -> SelectiveResult:
    """Accuracy on answered questions with answered/total; N/A when nothing is answered.

    Examples:
        >>> r = find_selective([SelectiveItem("q1", False, None, True)])
        >>> r.accuracy.display, r.coverage.display, r.abstained_with_complete_evidence
        ('N/A (0/0)', '0.0% (0/1)', ('q1',))
    """
    answered = [i for i in items if i.answered]
    correct = sum(1 for i in answered if i.correct)
    return SelectiveResult(
        accuracy=Ratio(correct, len(answered)),
        coverage=Ratio(len(answered), len(items)),
        abstained_with_complete_evidence=tuple(
            i.id for i in items if not i.answered and i.evidence_complete
        ),
        answered_with_gaps=tuple(i.id for i in answered if not i.evidence_complete),
    )


@dataclass(frozen=True)
class RiskCoverageRow:
    """At one confidence threshold: answered/total, accuracy on answered and risk."""

    threshold: float
    coverage: Ratio
    accuracy: Ratio

    @property
    def risk(self) -> Ratio:
        """Errors among answered."""
        return Ratio(self.accuracy.denominator - self.accuracy.numerator, self.accuracy.denominator)

    def to_dict(self) -> dict:
        """JSON form."""
        return {
            "threshold": self.threshold,
            "coverage": self.coverage.to_dict(),
            "accuracy": self.accuracy.to_dict(),
            "risk": self.risk.to_dict(),
        }


def risk_coverage(
    items: Sequence[SelectiveItem], thresholds: Sequence[float]
) -> list[RiskCoverageRow]:
    """Answer only when ``confidence >= threshold``; one row per threshold.

    An item is answered at threshold ``t`` when it has an answer and its confidence is at least
    ``t``; items without a confidence are never answered. A threshold above every confidence gives
    coverage 0/N and accuracy N/A (0/0), not 100%.

    Examples:
        >>> items = [SelectiveItem("a", True, True, True, 0.9), SelectiveItem("b", True, False, False, 0.4)]
        >>> [(r.coverage.counts, r.accuracy.display) for r in risk_coverage(items, [0.0, 0.5, 0.95])]
        [('2/2', '50.0% (1/2)'), ('1/2', '100.0% (1/1)'), ('0/2', 'N/A (0/0)')]
    """
    rows = []
    for t in thresholds:
        answered = [
            i for i in items if i.answered and i.confidence is not None and i.confidence >= t
        ]
        correct = sum(1 for i in answered if i.correct)
        rows.append(
            RiskCoverageRow(t, Ratio(len(answered), len(items)), Ratio(correct, len(answered)))
        )
    return rows
