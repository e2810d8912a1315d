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
    Two more, never SUFFICIENT (version 3 files): CONFLICT, when two usable items of the context
    give one subject different objects of a relation the file calls single-valued, or when
    two complete witnesses derive different values for a single-valued asked item, whatever
    path each chain takes (the conflict is shown with every value and its ids; no text wins
    for where it stands), and CONDITIONAL, when every complete witness holds an item whose
    conditions ("only on Saturdays") the question's circumstances do not name. A question
    marked unanswerable is INSUFFICIENT whatever the context holds (its list of alternatives
    complete or not: nothing answers it); one whose list of alternatives the file calls
    incomplete (``alternatives_complete: false``) is UNKNOWN, not INSUFFICIENT, when the
    context completes none of them.
    Values come from the documents: a witness derives each asked item's value from its own
    texts, read off the end of its chain (the last asked item is what the chain ends in, the
    one before what the member before leads to). The answer key only grades an answer.
    Per asked item (a route, a room): CONFIRMED by the linked part of a chain (its members
    from its start, each present, usable, linked and with its conditions met) that reaches
    the member naming it, or by a text another question of the file on the same topic and
    subject takes as a whole answer for that item (an approved map stating the room);
    CONFLICT where witnesses derive different values or hold a text of a conflict; else
    UNKNOWN. What to search next: for the branch with the fewest missing premises, each
    missing premise's subject and relation.
    Reference: the sufficiency lab's source notes (AND/OR alternatives, chain links, metadata
    rules, UNKNOWN for unmapped records). Relations are fixture labels, never inferred from
    word similarity.

The core works on plain ids so it serves fixtures and real data (FEVER, WiCE) alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.frozen import Picklable, Plain, freeze
from claimlab.core.text import fold_is
from claimlab.core.vocab import (
    ItemState,
    MetadataProblem,
    RejectReason,
    SufficiencyReason,
    SufficiencyStatus,
)
from claimlab.io.sufficiency import EvidenceItem, Question, SufficiencyFixture
from claimlab.metrics.groups import find_group_gaps

SUFFICIENT = SufficiencyStatus.SUFFICIENT
INSUFFICIENT = SufficiencyStatus.INSUFFICIENT
UNKNOWN = SufficiencyStatus.UNKNOWN
CONFLICT = SufficiencyStatus.CONFLICT
CONDITIONAL = SufficiencyStatus.CONDITIONAL

LinkCheck = Callable[[str, str], "LinkError | None"]
# how many context items from other branches are tried in the place of one missing member (and
# reported when they do not link): a few explain the gap; thousands would make the report,
# and the time to build it, grow with the square of the alternatives
MAX_STAND_INS = 3


def _ids(ids: Iterable[Any]) -> str:
    return ", ".join(str(i) for i in ids)


@dataclass(frozen=True)
class LinkError:
    """Two consecutive chain members that do not join: ``left`` ends where ``right`` does not start."""

    left: str
    right: str
    left_end: str | None = None
    right_start: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form (no float in it: :class:`~claimlab.core.frozen.Plain`)."""
        return Plain(
            {
                "from": self.left,
                "to": self.right,
                "from_ends_at": self.left_end,
                "to_starts_at": self.right_start,
                "explanation": self.explanation,
            }
        )

    @property
    def explanation(self) -> str:
        """Plain words."""
        if self.left_end is None:
            return f"{self.left} does not lead to {self.right}"
        return (
            f"{self.left} ends at {self.left_end!r} but {self.right} starts at "
            f"{self.right_start!r}: they do not link"
        )


@dataclass(frozen=True)
class Branch:
    """One alternative evidence set and how far the context gets with it."""

    alternative: tuple[str, ...]
    present: tuple[str, ...]
    missing: tuple[str, ...]
    link_errors: tuple[LinkError, ...]

    @property
    def complete(self) -> bool:
        """Every member present and every link holds."""
        return not self.missing and not self.link_errors

    def to_dict(self) -> dict[str, Any]:
        """JSON form (no float in it: :class:`~claimlab.core.frozen.Plain`)."""
        return Plain(
            {
                "alternative": list(self.alternative),
                "complete": self.complete,
                "present": list(self.present),
                "missing": list(self.missing),
                "link_errors": [e.to_dict() for e in self.link_errors],
            }
        )


@dataclass(frozen=True)
class Rejection:
    """A context item that cannot serve as a premise, and why.

    ``problems``: for a record failing the metadata rules, which rules it fails (so a view can
    word ``detail`` in another language).
    """

    id: str
    reason: str
    detail: str
    problems: tuple[MetadataProblem, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (no float in it: :class:`~claimlab.core.frozen.Plain`)."""
        return Plain({"id": self.id, "reason": self.reason, "detail": self.detail})


@dataclass(frozen=True)
class Conflict(Picklable):
    """Different values for one thing that takes one value, each with the ids that give it.

    Two kinds: texts of the context giving one subject different objects of a single-valued
    relation (``item`` empty; each text is a side on its own), and complete witnesses deriving
    different values for an asked item (``item`` named; ``witnesses`` holds, per value, the
    witnesses that derive it: a side is shown by citing every text of one of them).
    """

    subject: str
    relation: str
    values: Mapping[str, tuple[str, ...]]  # value -> the ids that give it
    item: str = ""  # the asked item two witnesses disagree on ("" for two texts)
    witnesses: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze(self, "values", "witnesses")

    def sides(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """Per value, the sets of ids any one of which shows that side."""
        return {
            v: self.witnesses.get(v) or tuple((i,) for i in ids) for v, ids in self.values.items()
        }

    @property
    def explanation(self) -> str:
        """Plain words: every value with its ids."""
        shown = "; ".join(f"{v!r} from {_ids(ids)}" for v, ids in self.values.items())
        what = f"the {self.item} of {self.subject!r}" if self.item else repr(self.subject)
        return (
            f"{what} {self.relation} one value, but the context gives {shown}: "
            "a conflict to resolve (by authority and scope), not a side to pick"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out: dict[str, Any] = {
            "subject": self.subject,
            "relation": self.relation,
            "values": {k: list(v) for k, v in self.values.items()},
        }
        if self.item:
            out["item"] = self.item
            out["witnesses"] = {k: [list(w) for w in ws] for k, ws in self.witnesses.items()}
        return out | {"explanation": self.explanation}


@dataclass(frozen=True)
class Unmet:
    """A witness member whose conditions the asker's circumstances do not meet."""

    id: str
    conditions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"id": self.id, "conditions": list(self.conditions)}


@dataclass(frozen=True)
class ItemAnswer:
    """One asked item: CONFIRMED with its value and the ids that name it, UNKNOWN or CONFLICT."""

    status: ItemState
    value: str | None = None
    by: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"status": self.status, "value": self.value, "by": list(self.by)}


@dataclass(frozen=True)
class Derivation:
    """A linked run of usable texts that gives an asked item its value, in their own words.

    ``by``: the chain's linked part (its texts from the start, each present, usable and
    linked), which reaches the text that names the value; ``relation``: that text's relation;
    ``subject``: where the chain starts; ``named``: the text that names the value ("": the
    last of ``by``). ``value`` is None when that text names no object (the answer is inside
    its sentence: the answer key alone can grade it).
    """

    item: str
    value: str | None
    by: tuple[str, ...]
    relation: str
    subject: str
    named: str = ""

    @property
    def reached_by(self) -> tuple[str, ...]:
        """The texts the value rests on: ``by`` up to the one that names it.

        A conflict on the platform a route leads to leaves the route itself undisputed.
        """
        return self.by[: self.by.index(self.named) + 1] if self.named in self.by else self.by

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"item": self.item, "value": self.value, "by": list(self.by)}


@dataclass(frozen=True)
class NextSearch:
    """What to look for next: a missing premise's subject and relation (its object is sought)."""

    subject: str
    relation: str
    missing: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"subject": self.subject, "relation": self.relation, "missing": self.missing}

    @property
    def explanation(self) -> str:
        """``search: what 'SUBJECT' RELATION (the missing premise ID)``."""
        return f"search: what {self.subject!r} {self.relation} (the missing premise {self.missing})"


@dataclass(frozen=True)
class SufficiencyResult:
    """Status, witnesses, per-branch gaps and rejections, with the raw and unique context sizes."""

    status: SufficiencyStatus
    witnesses: tuple[tuple[str, ...], ...]
    branches: tuple[Branch, ...]
    rejected: tuple[Rejection, ...]
    unsafe_candidates: tuple[Rejection, ...]
    unknown: tuple[str, ...]
    context_raw: int
    context_unique: int
    context: tuple[str, ...] = ()  # the context's unique ids, in the order given
    conflicts: tuple[Conflict, ...] = ()
    conditions_unmet: tuple[Unmet, ...] = ()
    items: Mapping[str, ItemAnswer] = field(default_factory=dict)
    next_search: tuple[NextSearch, ...] = ()
    unanswerable: bool = False
    alternatives_complete: bool = True  # False: the file says other sets might answer too

    def __post_init__(self) -> None:
        freeze(self, "items")

    @property
    def reason(self) -> SufficiencyReason:
        """Which case :attr:`explanation` tells, as a code (the cases in the order they win)."""
        if self.unanswerable:
            return SufficiencyReason.UNANSWERABLE
        if self.conflicts:
            return SufficiencyReason.CONFLICT
        if self.status == CONDITIONAL:
            return SufficiencyReason.CONDITIONAL
        if self.witnesses:
            return SufficiencyReason.WITNESS
        if self.unknown:
            return SufficiencyReason.UNMAPPED
        if self.status == UNKNOWN and not self.alternatives_complete:
            return SufficiencyReason.OPEN_LIST
        return SufficiencyReason.GAPS

    @property
    def explanation(self) -> str:
        """The result in plain words (built on demand), by :attr:`reason`."""
        reason = self.reason
        if reason == SufficiencyReason.UNANSWERABLE:
            return (
                "the question is marked unanswerable: no context is sufficient, whatever it holds"
            )
        if reason == SufficiencyReason.CONFLICT:
            return "; ".join(c.explanation for c in self.conflicts)
        if reason == SufficiencyReason.CONDITIONAL:
            unmet = "; ".join(
                f"{u.id} only if {', '.join(u.conditions)}" for u in self.conditions_unmet
            )
            return (
                f"a complete witness, but on conditions the question's circumstances do not meet "
                f"({unmet}): it answers only if they hold"
            )
        if reason == SufficiencyReason.WITNESS:
            return "complete witness: " + "; ".join("{" + _ids(w) + "}" for w in self.witnesses)
        if reason == SufficiencyReason.UNMAPPED:
            return (
                f"no complete witness, and {_ids(self.unknown)} could not be mapped to any "
                "premise: it might be the missing one, so the result is UNKNOWN, not INSUFFICIENT"
            )
        if reason == SufficiencyReason.OPEN_LIST:
            return (
                "the context completes none of the listed alternatives, and the file says the "
                "list may be incomplete: another set of texts might answer, so the result is "
                "UNKNOWN, not INSUFFICIENT"
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

    def to_dict(self) -> dict[str, Any]:
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
            "conflicts": [c.to_dict() for c in self.conflicts],
            "conditions_unmet": [u.to_dict() for u in self.conditions_unmet],
            "items": {k: v.to_dict() for k, v in self.items.items()},
            "next_search": [n.to_dict() for n in self.next_search],
            "unanswerable": self.unanswerable,
            "alternatives_complete": self.alternatives_complete,
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


def score_sufficiency(
    alternatives: Sequence[Sequence[str]],
    context: Sequence[str],
    *,
    known: Callable[[str], bool] | None = None,
    reject: Callable[[str], Rejection | None] | None = None,
    unsafe: Callable[[str], Rejection | None] | None = None,
    link: LinkCheck | None = None,
    pairs: Sequence[Sequence[tuple[str, str]] | None] | None = None,
    none_allowed: bool = False,
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
        pairs: Per alternative, the member pairs ``link`` must hold (None: each member and the
            next, in order; an empty list: a set whose members need not link).
        none_allowed: No alternative at all is allowed (an unanswerable question): the result
            is INSUFFICIENT whatever the context.

    Returns:
        A SufficiencyResult; ``witnesses`` lists every complete alternative.

    Examples:
        >>> r = score_sufficiency([["a", "b"], ["c"]], ["a", "a"])
        >>> r.status, r.context_raw, r.context_unique, [b.missing for b in r.branches]
        ('INSUFFICIENT', 2, 1, [('b',), ('c',)])
        >>> score_sufficiency([["a", "b"], ["c"]], ["c"]).witnesses
        (('c',),)
        >>> score_sufficiency([["a"]], []).status
        'INSUFFICIENT'
    """
    if alternatives or not none_allowed:
        check_alternatives(alternatives, chains=link is not None)
    sorted_out = _sort_context(context, known=known, reject=reject, unsafe=unsafe)
    seen, usable, rejected, unsafe_list, unknown = sorted_out
    branches = _branches(alternatives, usable, link, pairs)
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


def _branches(
    alternatives: Sequence[Sequence[str]],
    usable: set[str],
    link: LinkCheck | None,
    pairs: Sequence[Sequence[tuple[str, str]] | None] | None,
) -> list[Branch]:
    """Each alternative as a branch: present and missing members, and its own link errors.

    A link error is listed under the first branch that meets it.
    """
    _, gaps = find_group_gaps(alternatives, usable)
    # members in context at each (chain length, position): the stand-ins a branch may meet
    at_position: dict[tuple[int, int], dict[str, None]] = {}
    if link is not None:
        for alt in alternatives:
            for i, m in enumerate(alt):
                if m in usable:
                    at_position.setdefault((len(alt), i), {})[m] = None
    reported: set[LinkError] = set()
    branches = []
    for k, (alt, missing) in enumerate(zip(alternatives, gaps, strict=True)):
        alt_t = tuple(alt)
        present = tuple(m for m in alt_t if m in usable) if missing else alt_t
        explicit = pairs[k] if pairs is not None and k < len(pairs) else None
        errors = (
            _link_errors(alt_t, usable, link, explicit, at_position) if link is not None else []
        )
        own = [e for e in dict.fromkeys(errors) if e not in reported]
        reported.update(own)
        branches.append(Branch(alt_t, present, missing, tuple(own)))
    return branches


def _sort_context(
    context: Sequence[str],
    *,
    known: Callable[[str], bool] | None,
    reject: Callable[[str], Rejection | None] | None,
    unsafe: Callable[[str], Rejection | None] | None,
) -> tuple[dict[str, None], set[str], list[Rejection], list[Rejection], list[str]]:
    """The context's distinct ids, those usable in a witness, and the rest with their reasons.

    Returns the distinct ids (in order), the usable ones, the rejections (copies first), the
    unsafe candidates and the ids that cannot be mapped.
    """
    seen: dict[str, None] = {}
    rejected: list[Rejection] = []
    unsafe_list: list[Rejection] = []
    unknown: list[str] = []
    for cid in context:
        if cid in seen:
            rejected.append(
                Rejection(
                    cid,
                    RejectReason.DUPLICATE,
                    f"{cid} is already in the context: a copy adds no premise",
                )
            )
            continue
        seen[cid] = None
    if known is None and unsafe is None and reject is None:
        return seen, set(seen), rejected, unsafe_list, unknown
    usable = set()
    for cid in seen:
        if known is not None and not known(cid):
            unknown.append(cid)
            continue
        u = unsafe(cid) if unsafe is not None else None
        if u is not None:
            unsafe_list.append(u)
            continue
        r = reject(cid) if reject is not None else None
        if r is not None:
            rejected.append(r)
            continue
        usable.add(cid)
    return seen, usable, rejected, unsafe_list, unknown


def _link_errors(
    alt: tuple[str, ...],
    usable: set[str],
    link: LinkCheck,
    explicit: Sequence[tuple[str, str]] | None,
    at_position: Mapping[tuple[int, int], Mapping[str, None]],
) -> list[LinkError]:
    """A branch's link errors, between members and of stand-ins for missing ones.

    First between its usable members (the file's pairs, else each member and the next); then,
    without the file's pairs, of context items from other branches standing in for a missing one.
    """
    errors: list[LinkError] = []
    if explicit is not None:
        steps: Iterable[tuple[str, str]] = explicit
    elif len(alt) > 1:
        steps = pairwise(alt)
    else:
        return errors
    for a, b in steps:
        if a in usable and b in usable:
            e = link(a, b)
            if e is not None:
                errors.append(e)
    if explicit is None:
        errors += _stand_in_errors(alt, usable, link, at_position)
    return errors


def _stand_in_errors(
    alt: tuple[str, ...],
    usable: set[str],
    link: LinkCheck,
    at_position: Mapping[tuple[int, int], Mapping[str, None]],
) -> list[LinkError]:
    """Why context items at a missing member's place in other chains cannot stand in for it.

    Each one's link to the previous member, and to the next (at most MAX_STAND_INS a place).
    """
    errors: list[LinkError] = []
    members = set(alt)
    for i, m in enumerate(alt):
        if m in usable:
            continue
        shown = 0
        for s in at_position.get((len(alt), i), ()):
            if s in members:
                continue
            if shown == MAX_STAND_INS:  # enough to explain the gap; the rest adds nothing
                break
            shown += 1
            if i > 0 and alt[i - 1] in usable:
                e = link(alt[i - 1], s)
                if e is not None:
                    errors.append(e)
            if i + 1 < len(alt) and alt[i + 1] in usable:
                e = link(s, alt[i + 1])
                if e is not None:
                    errors.append(e)
    return errors


@dataclass(frozen=True)
class _Checks:
    """A fixture question's rules as the witness core takes them."""

    reject: Callable[[str], Rejection | None]
    unsafe: Callable[[str], Rejection | None]
    link: LinkCheck
    metadata: Callable[[str], Rejection | None]


def _checks(fixture: SufficiencyFixture, q: Question) -> _Checks:
    items = fixture._by_id
    premises = {m for alt in q.alternatives for m in alt}
    rules = fixture.rules

    def metadata_problem(eid: str) -> Rejection | None:
        e = items[eid]
        problems, words = [], []
        if e.status != rules.required_status:
            problems.append(MetadataProblem.STATUS)
            words.append(f"status {e.status} (needs {rules.required_status})")
        if rules.require_current and not e.current:
            problems.append(MetadataProblem.NOT_CURRENT)
            words.append("not CURRENT")
        if problems:
            detail = f"{eid} fails the metadata rules: {', '.join(words)}"
            return Rejection(eid, RejectReason.METADATA, detail, tuple(problems))
        return None

    def reject(eid: str) -> Rejection | None:
        e = items[eid]
        if e.topic != q.topic:
            return Rejection(
                eid,
                RejectReason.OFF_TOPIC,
                f"{eid} is about {e.topic!r}, the question about {q.topic!r}",
            )
        problem = metadata_problem(eid)
        if problem is None and eid not in premises:
            return Rejection(
                eid,
                RejectReason.NOT_A_PREMISE,
                f"{eid} is in no alternative of {q.name!r} (it asks for "
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
            RejectReason.UNSAFE,
            m.detail + " (shown because metadata rules are ignored; never a witness)",
            m.problems,
        )

    def link(a: str, b: str) -> LinkError | None:
        ea, eb = items[a], items[b]
        if ea.object in eb.takes:
            return None
        value = normalise_value(ea.object)  # as every value is compared: case, spaces aside
        if any(normalise_value(t) == value for t in eb.takes):
            return None
        return LinkError(a, b, ea.object, " | ".join(eb.takes))

    return _Checks(reject, unsafe, link, metadata_problem)


def score_fixture_sufficiency(
    fixture: SufficiencyFixture,
    question: str,
    context: Sequence[str],
    *,
    ignore_metadata: bool = False,
    circumstances: Sequence[str] = (),
) -> SufficiencyResult:
    """Run the witness core on a fixture question, with its topic, metadata and link rules.

    With ``ignore_metadata`` a record failing the metadata rules is listed as an *unsafe
    candidate* (clearly apart), never used in a witness. ``circumstances`` add to the
    question's own (what holds for the asker). Then the version 3 rules (see the metric
    card): conflicts, conditions, per-item answers and what to search next.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.sufficiency import load_sufficiency
        >>> fx = load_sufficiency(FIXTURES_DIR / "aurora.json")
        >>> question = next(iter(fx.questions.values()))
        >>> chain = max(question.alternatives, key=len)
        >>> r = score_fixture_sufficiency(fx, question.name, chain[:1])
        >>> r.status, [b.missing for b in r.branches if b.alternative == chain] == [chain[1:]]
        ('INSUFFICIENT', True)
    """
    q = fixture.question(question)
    checks = _checks(fixture, q)
    base = score_sufficiency(
        q.alternatives,
        context,
        known=lambda eid: eid in fixture._by_id,
        reject=checks.reject,
        unsafe=checks.unsafe if ignore_metadata else None,
        link=checks.link,
        pairs=[q.pairs(i) for i in range(len(q.alternatives))] if q.links else None,
        none_allowed=not q.answerable,
    )
    return _judge(fixture, q, base, checks, (*q.circumstances, *circumstances))


def _judge(
    fixture: SufficiencyFixture,
    q: Question,
    base: SufficiencyResult,
    checks: _Checks,
    circumstances: Sequence[str],
) -> SufficiencyResult:
    """The witness core's result with conflicts, conditions, items and the next search."""
    unmet = _unmet(fixture, circumstances)
    met = [w for w in base.witnesses if not any(unmet.get(m) for m in w)]
    waiting = tuple(Unmet(m, unmet[m]) for w in base.witnesses for m in w if unmet.get(m))
    usable = [c for c in base.context if c in fixture._by_id and _applies(fixture, q, checks, c)]
    derived = (
        _derive(fixture, q, {c for c in usable if not unmet.get(c)}, checks) if q.answerable else {}
    )
    conflicts = _all_conflicts(fixture, usable, derived)
    status: SufficiencyStatus = SufficiencyStatus(base.status)
    witnesses: tuple[tuple[str, ...], ...] = ()
    if not q.answerable:
        status = INSUFFICIENT
    elif conflicts:
        status, witnesses = CONFLICT, base.witnesses
    elif met:  # the witnesses whose conditions hold
        status, witnesses = SUFFICIENT, tuple(met)
    elif base.witnesses:
        status, witnesses = CONDITIONAL, base.witnesses
    elif status == INSUFFICIENT and not q.alternatives_complete:
        status = UNKNOWN  # another set of texts, not listed, might answer
    return replace(
        base,
        status=status,
        witnesses=witnesses,
        conflicts=conflicts,
        conditions_unmet=tuple(dict.fromkeys(waiting)),
        unanswerable=not q.answerable,
        next_search=() if witnesses else _next_search(fixture, base.branches),
        alternatives_complete=q.alternatives_complete,
        items=_items(q, derived, conflicts),
    )


def _unmet(fixture: SufficiencyFixture, circumstances: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Per text with conditions, those the circumstances do not name (empty: all met)."""
    held = {normalise_value(c) for c in circumstances}
    return {
        eid: tuple(c for c in e.conditions if normalise_value(c) not in held)
        for eid, e in fixture._by_id.items()
        if e.conditions
    }


def _applies(fixture: SufficiencyFixture, q: Question, checks: _Checks, eid: str) -> bool:
    """On the question's topic and passing the metadata rules (premise of it or not)."""
    return fixture._by_id[eid].topic == q.topic and checks.metadata(eid) is None


def find_conflicts(
    items: Sequence[EvidenceItem], single_valued: Sequence[str]
) -> tuple[Conflict, ...]:
    """Groups of items giving one subject different objects of a single-valued relation.

    Subjects, relations and objects are compared without case or extra spaces.

    Examples:
        >>> from claimlab.io.sufficiency import EvidenceItem
        >>> a = EvidenceItem("a", "", "dose", "is", "2 mg", "APPROVED", True, "t")
        >>> b = EvidenceItem("b", "", "Dose", "is", "5 mg", "APPROVED", True, "t")
        >>> [dict(c.values) for c in find_conflicts([a, b], ["is"])]
        [{'2 mg': ('a',), '5 mg': ('b',)}]
        >>> find_conflicts([a, b], [])
        ()
    """
    single = {normalise_value(r) for r in single_valued}
    groups: dict[tuple[str, str], dict[str, list[str]]] = {}
    shown: dict[tuple[str, str], tuple[str, str]] = {}
    for e in items:
        rel = normalise_value(e.relation)
        if rel not in single:
            continue
        key = (normalise_value(e.subject), rel)
        shown.setdefault(key, (e.subject, e.relation))
        values = groups.setdefault(key, {})
        first = next(
            (v for v in values if normalise_value(v) == normalise_value(e.object)), e.object
        )
        values.setdefault(first, []).append(e.id)
    return tuple(
        Conflict(shown[k][0], shown[k][1], {v: tuple(ids) for v, ids in values.items()})
        for k, values in groups.items()
        if len(values) > 1
    )


def _next_search(fixture: SufficiencyFixture, branches: Sequence[Branch]) -> tuple[NextSearch, ...]:
    """Each missing premise to look for, on the branch nearest to complete.

    The nearest: the incomplete branch missing the fewest premises, then holding the most.
    """
    open_ = [b for b in branches if b.missing]
    if not open_:
        return ()
    nearest = min(open_, key=lambda b: (len(b.missing), -len(b.present)))
    out = []
    for m in nearest.missing:
        e = fixture.item(m)
        if e is not None:
            out.append(NextSearch(e.subject, e.relation, m))
    return tuple(out)


def _linked_part(q: Question, i: int, good: set[str], checks: _Checks) -> tuple[str, ...]:
    """The members of alternative ``i`` reached from its start through present, linked members.

    A chain in order: its longest such prefix. With explicit links: the members whose every
    incoming link comes from a reached member and holds, taken in the links' order (not the
    order listed). A set whose members need not link (no pair): all of it, or nothing.
    """
    alt, pairs = q.chain(i), q.pairs(i)
    if pairs is None:
        part: list[str] = []
        for m in alt:
            if m not in good or (part and checks.link(part[-1], m) is not None):
                break
            part.append(m)
        return tuple(part)
    if not pairs:
        return tuple(alt) if set(alt) <= good else ()
    reached: list[str] = []
    for m in alt:  # in the links' order: every member linking into m comes before it
        incoming = [a for a, b in pairs if b == m]
        if m in good and all(a in reached and checks.link(a, m) is None for a in incoming):
            reached.append(m)
    return tuple(reached)


def value_position(length: int, item: int, asked: int) -> int | None:
    """Which member of an alternative names the value of the ``item``-th of ``asked`` items.

    The items are read off the end of the chain: the last asked item is what its last member
    leads to (the room), the one before it what the member before leads to (the route), and
    so on; a chain too short to reach an item does not name it (None).

    Examples:
        >>> value_position(2, 1, 2), value_position(3, 0, 2), value_position(1, 0, 2)
        (1, 1, None)
    """
    at = length - asked + item
    return at if at >= 0 else None


def _sources(fixture: SufficiencyFixture, q: Question) -> list[tuple[Question, int]]:
    """The alternatives whose texts may give ``q``'s items a value.

    Its own, and those of the file's other answerable questions on the same topic, with the
    same circumstances, whose chain starts at a subject one of ``q``'s chains starts at (an
    approved map that states the room for the room question states it for every question
    asking that room).
    """
    out = [(q, i) for i in range(len(q.alternatives))]
    starts = {
        normalise_value(fixture._by_id[q.chain(i)[0]].subject) for i in range(len(q.alternatives))
    }
    here = {normalise_value(c) for c in q.circumstances}
    for other in fixture.on_topic(q.topic):
        if other.name == q.name or not other.answerable:
            continue
        if {normalise_value(c) for c in other.circumstances} != here:
            continue
        for i in range(len(other.alternatives)):
            if normalise_value(fixture._by_id[other.chain(i)[0]].subject) in starts:
                out.append((other, i))
    return out


def _derive(
    fixture: SufficiencyFixture, q: Question, good: set[str], checks: _Checks
) -> dict[str, tuple[Derivation, ...]]:
    """Per asked item, every linked run of usable texts (``good``) that gives it a value."""
    out: dict[str, list[Derivation]] = {item: [] for item in q.asks}
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for src, i in _sources(fixture, q):
        alt = src.chain(i)  # in the links' order: the value is named at its end
        if good.isdisjoint(alt):
            continue
        part = _linked_part(src, i, good, checks)
        for item in q.asks:
            p = (
                value_position(len(alt), src.asks.index(item), len(src.asks))
                if item in src.asks
                else None
            )
            if p is None or alt[p] not in part:
                continue
            if (item, part) in seen:
                continue
            seen.add((item, part))
            e, start = fixture._by_id[alt[p]], fixture._by_id[alt[0]]
            out[item].append(
                Derivation(item, e.object or None, part, e.relation, start.subject, alt[p])
            )
    for d in _stated(fixture, q, good):
        if (d.item, d.by) not in seen:
            seen.add((d.item, d.by))
            out[d.item].append(d)
    return {item: tuple(ds) for item, ds in out.items()}


def _stated(fixture: SufficiencyFixture, q: Question, good: set[str]) -> list[Derivation]:
    """Usable texts that state an asked item directly, whether or not an alternative lists them.

    An item is named, in a chain of ``q``'s alternatives, by the relation of the member at its
    place, from the chain's start; a text with that start as its subject and that relation
    states the item itself (the loan period a chain reaches through a rule, said outright).
    """
    keys: dict[tuple[str, str], str] = {}
    listed = {m for alt in q.alternatives for m in alt}
    for i in range(len(q.alternatives)):
        alt = q.chain(i)
        first = fixture._by_id[alt[0]]
        for n, item in enumerate(q.asks):
            p = value_position(len(alt), n, len(q.asks))
            relation = None if p is None else normalise_value(fixture._by_id[alt[p]].relation)
            if relation is None or (p and relation == normalise_value(first.relation)):
                continue  # the chain's first step says the same relation: not the item itself
            keys.setdefault((normalise_value(first.subject), relation), item)
    out = []
    for eid in sorted(good - listed):
        e = fixture._by_id[eid]
        stated = keys.get((normalise_value(e.subject), normalise_value(e.relation)))
        if stated is not None and e.object:
            out.append(Derivation(stated, e.object, (eid,), e.relation, e.subject))
    return out


def find_derivations(
    fixture: SufficiencyFixture, question: str, context: Sequence[str]
) -> dict[str, tuple[Derivation, ...]]:
    """Per asked item of ``question``, every value the context's usable texts derive for it.

    Usable: on the question's topic, passing the metadata rules, conditions met by the
    question's circumstances. The answer key plays no part: values come from the texts.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.sufficiency import load_sufficiency
        >>> fx = load_sufficiency(FIXTURES_DIR / "aurora.json")
        >>> q = next(iter(fx.questions.values()))
        >>> chain = max(q.alternatives, key=len)
        >>> [d.value == fx.item(chain[-1]).object for d in find_derivations(
        ...     fx, q.name, chain)[q.asks[-1]]]
        [True]
        >>> find_derivations(fx, q.name, [])[q.asks[-1]]
        ()
    """
    q = fixture.question(question)
    checks = _checks(fixture, q)
    unmet = _unmet(fixture, q.circumstances)
    good = {
        c
        for c in context
        if c in fixture._by_id and _applies(fixture, q, checks, c) and not unmet.get(c)
    }
    return _derive(fixture, q, good, checks) if q.answerable else {i: () for i in q.asks}


def _item_conflicts(
    derived: Mapping[str, Sequence[Derivation]], single: set[str]
) -> list[Conflict]:
    """Asked items whose complete witnesses derive different values, the item single-valued.

    An item is single-valued when a relation that names one of its values is (the file's
    ``rules.single_valued``); a direct statement and a chain are compared alike.
    """
    out = []
    for item, ds in derived.items():
        valued = [d for d in ds if d.value is not None]
        if not any(normalise_value(d.relation) in single for d in valued):
            continue
        groups: dict[str, list[Derivation]] = {}
        for d in valued:
            v = str(d.value)
            key = next((g for g in groups if normalise_value(g) == normalise_value(v)), v)
            groups.setdefault(key, []).append(d)
        if len(groups) < 2:
            continue
        out.append(
            Conflict(
                valued[0].subject,
                " / ".join(dict.fromkeys(d.relation for d in valued)),
                {v: tuple(dict.fromkeys(i for d in g for i in d.by)) for v, g in groups.items()},
                item=item,
                witnesses={v: tuple(d.by for d in g) for v, g in groups.items()},
            )
        )
    return out


def _all_conflicts(
    fixture: SufficiencyFixture,
    usable: Sequence[str],
    derived: Mapping[str, Sequence[Derivation]],
) -> tuple[Conflict, ...]:
    """Conflicts between texts, then between witnesses (unless two texts already show them)."""
    single = fixture.rules.single_valued
    texts = find_conflicts([fixture._by_id[c] for c in usable], single)
    shown = [frozenset(normalise_value(v) for v in c.values) for c in texts]
    by_items = _item_conflicts(derived, {normalise_value(r) for r in single})
    return (
        *texts,
        *(c for c in by_items if frozenset(normalise_value(v) for v in c.values) not in shown),
    )


def _items(
    q: Question,
    derived: Mapping[str, Sequence[Derivation]],
    conflicts: Sequence[Conflict],
) -> dict[str, ItemAnswer]:
    """Per asked item: CONFIRMED with the value its texts derive, CONFLICT, or UNKNOWN.

    CONFLICT when its witnesses derive different values of a single-valued item, or one of
    them reaches its value through a text of a conflict (a conflict on a later step leaves it
    undisputed); else CONFIRMED by the first witness that names a value
    (a witness whose text names no object confirms it with no value); else UNKNOWN.
    """
    if not q.answerable:
        return {item: ItemAnswer(ItemState.UNKNOWN) for item in q.asks}
    texts = {i for c in conflicts if not c.item for ids in c.values.values() for i in ids}
    by_item = {c.item: c for c in conflicts if c.item}
    out: dict[str, ItemAnswer] = {}
    for item in q.asks:
        ds = derived.get(item, ())
        if item in by_item:
            ids = dict.fromkeys(i for v in by_item[item].values.values() for i in v)
            out[item] = ItemAnswer(ItemState.CONFLICT, None, tuple(ids))
        elif any(texts.intersection(d.reached_by) for d in ds):
            out[item] = ItemAnswer(ItemState.CONFLICT, None, tuple(sorted(texts)))
        elif ds:
            d = next((d for d in ds if d.value is not None), ds[0])
            out[item] = ItemAnswer(ItemState.CONFIRMED, d.value, d.reached_by)
        else:
            out[item] = ItemAnswer(ItemState.UNKNOWN)
    return out


def normalise_value(value: str) -> str:
    """An answer value as compared: whitespace collapsed, case folded, Turkish i's as one.

    Turkish writes ``ı``/``I`` and ``i``/``İ``: ``KAPI`` is ``kapı`` and ``İZMİR`` is
    ``izmir``, which case folding alone does not see (``I`` folds to ``i``, ``İ`` to ``i``
    with a dot above); every ``i`` is read alike.

    Examples:
        >>> normalise_value("KUZEY  KAPI") == normalise_value("kuzey kapı")
        True
        >>> normalise_value("İZMİR Şubesi") == normalise_value("izmir şubesi")
        True
    """
    return fold_is(" ".join(value.split()).casefold())


def item_answers(
    fixture: SufficiencyFixture, question: str, result: SufficiencyResult
) -> dict[str, tuple[str, str | None]]:
    """Per asked item: its state (CONFIRMED, UNKNOWN or CONFLICT) and the confirmed value.

    The result's ``items`` (see the metric card), as pairs; a result made without them (from
    the witness core alone) has every item UNKNOWN.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.sufficiency import load_sufficiency
        >>> fx = load_sufficiency(FIXTURES_DIR / "parcel_routes.json")
        >>> q = next(iter(fx.questions.values()))
        >>> r = score_fixture_sufficiency(fx, q.name, [])
        >>> {item: state for item, (state, _) in item_answers(fx, q.name, r).items()} == {
        ...     item: "UNKNOWN" for item in q.asks}
        True
    """
    q = fixture.question(question)
    unknown = ItemAnswer(ItemState.UNKNOWN)
    return {
        item: (str(result.items.get(item, unknown).status), result.items.get(item, unknown).value)
        for item in q.asks
    }
