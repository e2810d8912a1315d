"""Test cases cut from every complete witness of a sufficiency file (``claimlab sufficiency-cases``).

For each question and each alternative that is a complete witness on its own, holds no other
alternative (a premise cut from ``{A, B}`` may leave ``{B}``, also listed) and whose texts do
not disagree among themselves (a CONFLICT, not a witness); where a case below says
INSUFFICIENT, a question whose file says ``alternatives_complete: false`` expects UNKNOWN
(another set of texts, not listed, might answer it):

* ``whole``: the witness alone: SUFFICIENT (CONDITIONAL where it holds unmet conditions).
* ``with-distractors``: the witness and every item the question's rules keep out (off its
  topic, or failing the metadata rules: a draft, a stale leaflet giving another value), but
  the question's own premises: the same. A usable text on the topic is no distractor: it may
  state an asked item itself (a station map giving the bus another platform), which the
  checker rightly reads.
* ``cut``: each premise removed. Must be INSUFFICIENT with exactly that premise missing from
  that alternative (a cut that another alternative survives is not made).
* ``look-alike``: each premise swapped for a copy with the same name (subject, inputs, text)
  but another object, which is in no alternative: rejected as *not a premise*, INSUFFICIENT,
  the premise missing. Similar words are not a relation.
* ``look-alike-chain``: where the premise leads to another member, a new question whose
  alternative holds the look-alike instead: the chain breaks at the look-alike (a link error),
  INSUFFICIENT.
* ``wrong-relation``: each premise swapped for a copy with the same subject and object but
  another relation: not a premise, INSUFFICIENT, the premise missing (the words match, the
  relation does not).
* ``stale``: each premise swapped for a copy that is no longer CURRENT: rejected for its
  metadata, INSUFFICIENT, the premise missing. Made only where the file's rules require
  current items (``rules.require_current``): otherwise a stale copy is merely another text.
* ``duplicate``: the first premise given twice: the whole witness's status (SUFFICIENT, or
  CONDITIONAL on unmet conditions), one more raw item, the same unique count.
* ``conflict`` (premises of a single-valued relation): the witness with a copy of the premise
  giving another object: CONFLICT, both values with their ids.
* ``dropped-condition`` and ``condition-met`` (witnesses holding conditions): the question
  with its circumstances dropped: CONDITIONAL, those members unmet; with circumstances that
  name every condition: SUFFICIENT. Each is a copy of the question holding that one witness
  (a copy holding every alternative would make the others witnesses for its circumstances).
* ``changed-question``: the same context with the next answerable question of the file none
  of whose alternatives it holds: INSUFFICIENT (a context is enough for a question, not in general).

Every expectation follows from how the case is made, never from running the checker. The
report says how a checker that always answers SUFFICIENT, and one that always answers
INSUFFICIENT, would score on the set: a set on which either scores 100 % cannot tell them
from a real checker. The cases file (``claimlab/sufficiency-cases@1``) holds the source file

with the copies and questions added (``fixture``) and the cases with what each must give
(``expect``); :func:`check_cases` runs them, so the file is a regression test.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claimlab.core.ratio import Ratio
from claimlab.io.sufficiency import Question, SufficiencyFixture, read_sufficiency
from claimlab.metrics.sufficiency import normalise_value, score_fixture_sufficiency

if TYPE_CHECKING:
    from claimlab.metrics.sufficiency import SufficiencyResult

CASES_FORMAT = "claimlab/sufficiency-cases@1"
KINDS = (
    "whole", "with-distractors", "cut", "look-alike", "look-alike-chain", "wrong-relation",
    "stale", "duplicate", "conflict", "dropped-condition", "condition-met", "changed-question",
)  # fmt: skip


def _successors(q: Question, i: int, member: str) -> list[str]:
    alt = q.alternatives[i]
    pairs = q.pairs(i)
    if pairs is None:
        k = alt.index(member)
        return [alt[k + 1]] if k + 1 < len(alt) else []
    return [b for a, b in pairs if a == member]


class _Builder:
    """The cases of one document, with the copies and questions they add to it."""

    def __init__(self, doc: dict[str, Any], fixture: SufficiencyFixture) -> None:
        self.fixture = fixture
        self.out = copy.deepcopy(doc)
        self.by_id = {e["id"]: e for e in self.out["evidence"]}
        self.ids = set(self.by_id)
        self.cases: list[dict[str, Any]] = []
        self.single = {normalise_value(r) for r in fixture.rules.single_valued}

    def add_copy(self, eid: str, suffix: str, **changes: object) -> str:
        new, k = f"{eid}~{suffix}", 2
        while new in self.ids:
            new, k = f"{eid}~{suffix}{k}", k + 1
        item = dict(self.by_id[eid], id=new, **changes)
        self.out["evidence"].append(item)
        self.ids.add(new)
        return new

    def add_question(self, q: Question, suffix: str, **changes: object) -> str:
        name, k = f"{q.name}~{suffix}", 2
        while name in self.out["questions"]:
            name, k = f"{q.name}~{suffix}{k}", k + 1
        self.out["questions"][name] = dict(copy.deepcopy(self.out["questions"][q.name]), **changes)
        return name

    def case(self, kind: str, question: str, context: Sequence[str], **expect: object) -> None:
        self.cases.append(
            {"kind": kind, "question": question, "context": list(context), "expect": expect}
        )

    def unmet(self, alt: Sequence[str], circumstances: Sequence[str]) -> list[str]:
        held = {normalise_value(c) for c in circumstances}
        return [
            m
            for m in alt
            if any(normalise_value(c) not in held for c in self.fixture._by_id[m].conditions)
        ]


def lacking(q: Question) -> str:
    """What a context holding no alternative of ``q`` gets.

    INSUFFICIENT, or UNKNOWN where the file says the question's alternatives are not complete
    (another set of texts, not listed, might answer it).
    """
    return "INSUFFICIENT" if q.alternatives_complete else "UNKNOWN"


def _premise_cases(b: _Builder, q: Question, i: int, m: str) -> None:
    """Cut, look-alike (and its chain), wrong relation and stale for one premise."""
    alt = q.alternatives[i]
    rest = [x for x in alt if x != m]
    short = lacking(q)
    b.case("cut", q.name, rest, status=short, alternative=i, missing=[m])  # i is minimal
    item = b.by_id[m]
    look = b.add_copy(m, "look-alike", object=f"{item['object']} (a different one)")
    swapped = [look if x == m else x for x in alt]
    b.case("look-alike", q.name, swapped, status=short, alternative=i, missing=[m],
           rejected={look: "not a premise"})  # fmt: skip
    if _successors(q, i, m):
        name = b.add_question(q, f"look-alike~{m}", **_one_witness(b, q, i, {m: look}))
        b.case("look-alike-chain", name, swapped, status=short, link_error_from=look)
    other = b.add_copy(m, "wrong-relation", relation=f"{item['relation']} (another relation)")
    b.case("wrong-relation", q.name, [other if x == m else x for x in alt], status=short,
           alternative=i, missing=[m], rejected={other: "not a premise"})  # fmt: skip
    if not b.fixture.rules.require_current:
        return
    stale = b.add_copy(m, "stale", current=False)
    b.case("stale", q.name, [stale if x == m else x for x in alt], status=short,
           alternative=i, missing=[m], rejected={stale: "metadata"})  # fmt: skip


def _one_witness(
    b: _Builder, q: Question, i: int, swap: Mapping[str, str] | None = None
) -> dict[str, object]:
    """The changes that leave a copy of ``q`` with its alternative ``i`` alone (and its links).

    Each member named in ``swap`` is replaced there by its copy (a look-alike's chain).
    """
    swap = swap or {}
    changes: dict[str, object] = {"alternatives": [[swap.get(x, x) for x in q.alternatives[i]]]}
    links = b.out["questions"][q.name].get("links")
    if links is not None:
        pairs = links[i]
        changes["links"] = [None if pairs is None else [[swap.get(x, x) for x in p] for p in pairs]]
    return changes


def _witness_cases(b: _Builder, q: Question, i: int, questions: Sequence[Question]) -> None:
    """Duplicate, conflict, the conditions and the changed question for one whole witness."""
    alt = list(q.alternatives[i])
    unmet = b.unmet(alt, q.circumstances)
    whole = "CONDITIONAL" if unmet else "SUFFICIENT"
    b.case("whole", q.name, alt, status=whole)
    premises = {m for a in q.alternatives for m in a}
    rules = b.fixture.rules
    noise = [
        e.id
        for e in b.fixture.evidence
        if e.id not in premises
        and (
            e.topic != q.topic
            or e.status != rules.required_status
            or (rules.require_current and not e.current)
        )
    ]
    if noise:
        b.case("with-distractors", q.name, [*alt, *noise], status=whole)
    b.case("duplicate", q.name, [*alt, alt[0]], status=whole, context_raw=len(alt) + 1,
           context_unique=len(alt), rejected={alt[0]: "duplicate"})  # fmt: skip
    for m in alt:
        item = b.by_id[m]
        if normalise_value(item["relation"]) in b.single:
            other = b.add_copy(m, "conflict", object=f"{item['object']} (another value)")
            values = {item["object"]: [m], f"{item['object']} (another value)": [other]}
            b.case("conflict", q.name, [*alt, other], status="CONFLICT", conflict_values=values)
    conditions = [c for m in alt for c in b.fixture._by_id[m].conditions]
    if conditions:
        one = _one_witness(b, q, i)
        dropped = b.add_question(q, f"dropped-condition~{i}", circumstances=[], **one)
        b.case("dropped-condition", dropped, alt, status="CONDITIONAL",
               conditions_unmet=b.unmet(alt, []))  # fmt: skip
        met = b.add_question(
            q, f"condition-met~{i}", circumstances=list(dict.fromkeys(conditions)), **one
        )
        b.case("condition-met", met, alt, status="SUFFICIENT")
    k = questions.index(q)
    for other_q in [*questions[k + 1 :], *questions[:k]]:
        if not any(set(a) <= set(alt) for a in other_q.alternatives):
            b.case("changed-question", other_q.name, alt, status=lacking(other_q))
            break


def _minimal(q: Question, i: int) -> bool:
    """Whether alternative ``i`` holds no other alternative (nor repeats an earlier one)."""
    mine = set(q.alternatives[i])
    return not any(
        set(a) < mine or (j < i and set(a) == mine) for j, a in enumerate(q.alternatives) if j != i
    )


def _says_twice(b: _Builder, alt: Sequence[str]) -> bool:
    """Whether two members state one single-valued fact (a subject and relation) twice.

    A copy of one of them giving another value would disagree with the other: no case of
    such a witness could say what it must give without the checker.
    """
    keys = [
        (normalise_value(b.by_id[m]["subject"]), rel)
        for m in alt
        if (rel := normalise_value(b.by_id[m]["relation"])) in b.single
    ]
    return len(set(keys)) < len(keys)


def case_notes(fixture: object, counts: Mapping[str, int]) -> list[str]:
    """Why a kind of case is missing from a set built on ``fixture`` (its ``fixture`` field)."""
    rules = read_sufficiency(fixture, source="cases").rules
    notes = []
    if not counts["whole"]:
        notes.append("no case: no alternative is a complete witness on its own")
        return notes
    if not counts["conflict"]:
        notes.append(
            "no conflict case: "
            + (
                "no premise of a witness has a single-valued relation"
                if rules.single_valued
                else "the file names no single-valued relation (rules.single_valued)"
            )
        )
    if not rules.require_current:
        notes.append(
            "no stale case: the file's rules accept texts that are not current (require_current)"
        )
    if not counts["dropped-condition"]:
        notes.append("no condition case: no witness of the file holds an item with conditions")
    return notes


def build_cases(doc: dict[str, Any], *, source: str = "sufficiency file") -> dict[str, Any]:
    """The cases of every complete witness of a sufficiency document (see the module).

    Raises:
        FixtureError: the document is not a valid sufficiency file.
    """
    fixture = read_sufficiency(doc, source=source)
    b = _Builder(doc, fixture)
    questions = [q for q in fixture.questions.values() if q.answerable]
    for q in questions:
        for i, alt in enumerate(q.alternatives):
            if not _minimal(q, i):
                continue  # it holds another alternative: cutting a premise may leave that one
            whole = score_fixture_sufficiency(fixture, q.name, list(alt))
            if not whole.branches[i].complete or whole.conflicts or _says_twice(b, alt):
                continue  # not a witness on its own (its metadata fails), or it disagrees
            for m in alt:
                _premise_cases(b, q, i, m)
            _witness_cases(b, q, i, questions)
    for k, c in enumerate(b.cases, 1):
        c["name"] = f"{c['kind']}-{k}"
    return {"format": CASES_FORMAT, "source": source, "fixture": b.out, "cases": b.cases}


@dataclass(frozen=True)
class TrivialScores:
    """How a checker that always says one status would score on a set of cases."""

    cases: int
    always_sufficient: Ratio
    always_insufficient: Ratio

    @property
    def telling(self) -> bool:
        """Whether neither trivial checker gets every case right."""
        return self.cases > 0 and all(
            r.numerator < r.denominator for r in (self.always_sufficient, self.always_insufficient)
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "cases": self.cases,
            "always_sufficient": self.always_sufficient.to_dict(),
            "always_insufficient": self.always_insufficient.to_dict(),
            "tells_them_apart": self.telling,
        }


def trivial_scores(cases: dict[str, Any]) -> TrivialScores:
    """The share of cases an always-SUFFICIENT and an always-INSUFFICIENT checker get right."""
    want = [c["expect"]["status"] for c in cases["cases"]]
    n = len(want)
    return TrivialScores(
        n, Ratio(want.count("SUFFICIENT"), n), Ratio(want.count("INSUFFICIENT"), n)
    )


def _problems(r: SufficiencyResult, want: dict[str, Any]) -> list[str]:
    problems = []
    if r.status != want["status"]:
        problems.append(f"status {r.status}, expected {want['status']}")
    if "missing" in want:
        got = list(r.branches[want["alternative"]].missing)
        if got != want["missing"]:
            problems.append(f"missing {got}, expected {want['missing']}")
    for eid, reason in want.get("rejected", {}).items():
        reasons = [str(x.reason) for x in r.rejected if x.id == eid]
        if reason not in reasons:
            problems.append(f"{eid} rejected for {reasons or 'nothing'}, expected {reason}")
    if "link_error_from" in want:
        errs = [e for b in r.branches for e in b.link_errors]
        if not any(want["link_error_from"] == e.left for e in errs):
            problems.append(f"no link error from {want['link_error_from']}")
    for key in ("context_raw", "context_unique"):
        if key in want and getattr(r, key) != want[key]:
            problems.append(f"{key} {getattr(r, key)}, expected {want[key]}")
    if "conflict_values" in want:
        got = [{k: list(v) for k, v in c.values.items()} for c in r.conflicts]
        if want["conflict_values"] not in got:
            problems.append(f"conflicts {got}, expected {want['conflict_values']}")
    if (
        "conditions_unmet" in want
        and [u.id for u in r.conditions_unmet] != want["conditions_unmet"]
    ):
        problems.append(
            f"unmet {[u.id for u in r.conditions_unmet]}, expected {want['conditions_unmet']}"
        )
    return problems


def check_cases(cases: dict[str, Any]) -> list[str]:
    """Run every case; returns what did not behave as stated (empty: all did)."""
    fixture = read_sufficiency(cases["fixture"], source=str(cases.get("source", "cases")))
    failures = []
    for c in cases["cases"]:
        r = score_fixture_sufficiency(fixture, c["question"], c["context"])
        problems = _problems(r, c["expect"])
        if problems:
            failures.append(f"{c['name']} ({c['question']}): " + "; ".join(problems))
    return failures
