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

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, TypeVar

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import RejectReason, SufficiencyStatus
from claimlab.io.sufficiency import SufficiencyFixture

SUFFICIENT = SufficiencyStatus.SUFFICIENT
INSUFFICIENT = SufficiencyStatus.INSUFFICIENT
UNKNOWN = SufficiencyStatus.UNKNOWN

K = TypeVar("K", bound=Hashable)  # an evidence id: a string, a (page, line) pair, ...
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

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"id": self.id, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class SufficiencyResult:
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


def any_group_complete(groups: Sequence[Sequence[K]], usable: set[K] | frozenset[K]) -> bool:
    """Whether some group has every member in ``usable`` (OR across groups, AND inside).

    Examples:
        >>> any_group_complete([("a", "b"), ("c",)], {"c"}), any_group_complete([("a", "b")], {"a"})
        (True, False)
    """
    return any(map(usable.issuperset, groups))


def find_group_gaps(
    groups: Sequence[Sequence[K]], usable: set[K] | frozenset[K]
) -> tuple[tuple[int, ...], tuple[tuple[K, ...], ...]]:
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
    complete: list[int] = []
    missing: list[tuple[K, ...]] = []
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
    pairs: Sequence[Sequence[tuple[str, str]] | None] | None = None,
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
                    cid,
                    RejectReason.DUPLICATE,
                    f"{cid} is already in the context: a copy adds no premise",
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
    at_position: dict[tuple[int, int], dict[str, None]] = {}
    if link is not None:
        for alt in alternatives:
            for i, m in enumerate(alt):
                if m in usable:
                    at_position.setdefault((len(alt), i), {})[m] = None
    reported: set[LinkError] = set()  # a link error is listed under the first branch meeting it
    branches = []
    for k, (alt, missing) in enumerate(zip(alternatives, gaps, strict=True)):
        alt_t = tuple(alt)
        present = tuple(m for m in alt_t if m in usable) if missing else alt_t
        errors: list[LinkError] = []
        explicit = pairs[k] if pairs is not None and k < len(pairs) else None
        if link is not None and explicit is not None:
            for a, b in explicit:
                if a in usable and b in usable:
                    e = link(a, b)
                    if e is not None:
                        errors.append(e)
        elif link is not None and len(alt_t) > 1:
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
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.sufficiency import load_sufficiency
        >>> fx = load_sufficiency(FIXTURES_DIR / "aurora.json")
        >>> question = next(iter(fx.questions.values()))
        >>> chain = max(question.alternatives, key=len)
        >>> r = find_fixture_sufficiency(fx, question.name, chain[:1])
        >>> r.status, [b.missing for b in r.branches if b.alternative == chain] == [chain[1:]]
        ('INSUFFICIENT', True)
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
                eid, RejectReason.METADATA, f"{eid} fails the metadata rules: {', '.join(problems)}"
            )
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
            RejectReason.UNSAFE,
            m.detail + " (shown because metadata rules are ignored; never a witness)",
        )

    def link(a: str, b: str) -> LinkError | None:
        ea, eb = items[a], items[b]
        if ea.object in eb.takes:
            return None
        return LinkError(a, b, ea.object, " | ".join(eb.takes))

    return find_sufficiency(
        q.alternatives,
        context,
        known=lambda eid: eid in items,
        reject=reject,
        unsafe=unsafe if ignore_metadata else None,
        link=link,
        pairs=[q.pairs(i) for i in range(len(q.alternatives))] if q.links else None,
    )


def normalise_value(value: str) -> str:
    """An answer value as compared: whitespace collapsed, case folded."""
    return " ".join(value.split()).casefold()


def named_by(fixture: SufficiencyFixture, witness: Sequence[str]) -> frozenset[str]:
    """Every value a witness chain names (each member's subject and object), normalised.

    An answer comes *from* a witness when the witness names it: the room at the end of a chain,
    and the route in its middle, are both named by that one chain.
    """
    out = set()
    for eid in witness:
        item = fixture.item(eid)
        if item is not None:
            out.add(normalise_value(item.subject))
            out.add(normalise_value(item.object))
    return frozenset(out)


def item_answers(
    fixture: SufficiencyFixture, question: str, result: SufficiencyResult
) -> dict[str, tuple[str, str | None]]:
    """Per asked item: CONFIRMED with the value a complete witness names, or UNKNOWN.

    A question may ask several things (a route and a room); a context may confirm one and not
    the other. An item is CONFIRMED when some complete witness names a value the answer key
    accepts for it; without a key entry, or without such a witness, it is UNKNOWN.

    Examples:
        >>> from claimlab.io.locate import FIXTURES_DIR
        >>> from claimlab.io.sufficiency import load_sufficiency
        >>> fx = load_sufficiency(FIXTURES_DIR / "parcel_routes.json")
        >>> q = next(iter(fx.questions.values()))
        >>> r = find_fixture_sufficiency(fx, q.name, [])
        >>> {item: state for item, (state, _) in item_answers(fx, q.name, r).items()} == {
        ...     item: "UNKNOWN" for item in q.asks}
        True
    """
    q = fixture.question(question)
    out: dict[str, tuple[str, str | None]] = {}
    for item in q.asks:
        found: str | None = None
        accepted = fixture.accepted(question, item)
        for witness in result.witnesses:
            names = named_by(fixture, witness)
            found = next((v for v in accepted if normalise_value(v) in names), None)
            if found is not None:
                break
        out[item] = ("CONFIRMED", found) if found is not None else ("UNKNOWN", None)
    return out
