"""A sufficiency result told in the lesson's language: its explanation, conflicts, links, rejections.

The metric floor says why in English and keeps a code for each case (``SufficiencyResult.reason``,
a rejection's ``reason`` and ``problems``); these functions word the same cases from those codes
and the file's own values with the lab's catalogue (:mod:`claimlab.labs.sufficiency.words`),
whose English is word for word the metric's. Values are formatted in as given: a caller escapes
them for where they are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from claimlab.core.vocab import MetadataProblem, RejectReason, SufficiencyReason
from claimlab.labs.sufficiency.words import WORDS
from claimlab.metrics.sufficiency import Conflict, LinkError, Rejection, SufficiencyResult
from claimlab.notebook.words import WORDS as SHARED
from claimlab.notebook.words import say

if TYPE_CHECKING:
    from claimlab.io.sufficiency import SufficiencyFixture

_REASON_KEYS = {
    RejectReason.DUPLICATE: "duplicate",
    RejectReason.OFF_TOPIC: "off_topic",
    RejectReason.METADATA: "metadata",
    RejectReason.NOT_A_PREMISE: "not_a_premise",
    RejectReason.UNSAFE: "unsafe",
}


def word(key: str, language: str, values: Mapping[str, object] | None = None) -> str:
    """One of the lab's words, or of the shared ones, in ``language`` (else English).

    Examples:
        >>> word("selected", "tr"), word("col.id", "th"), word("selected", "ko")
        ('Parametrelerin seçtiği', 'รหัส', 'Selected by the parameters')
    """
    return say(WORDS if key in WORDS else SHARED, key, language, values)


def _ids(ids: Iterable[object]) -> str:
    return ", ".join(str(i) for i in ids)


def _set(ids: Iterable[object]) -> str:
    return "{" + _ids(ids) + "}"


def explanation(result: SufficiencyResult, language: str) -> str:
    """The result in plain words, in ``language``: the case :attr:`~SufficiencyResult.reason` names.

    In English, word for word ``result.explanation``.
    """
    reason = result.reason
    if reason == SufficiencyReason.CONFLICT:
        return "; ".join(conflict_text(c, language) for c in result.conflicts)
    if reason == SufficiencyReason.CONDITIONAL:
        unmet = "; ".join(
            word("explain.only_if", language, {"id": u.id, "conditions": ", ".join(u.conditions)})
            for u in result.conditions_unmet
        )
        return word("explain.conditional", language, {"unmet": unmet})
    if reason == SufficiencyReason.WITNESS:
        witnesses = "; ".join(_set(w) for w in result.witnesses)
        return word("explain.witness", language, {"witnesses": witnesses})
    if reason == SufficiencyReason.UNMAPPED:
        return word("explain.unmapped", language, {"ids": _ids(result.unknown)})
    if reason == SufficiencyReason.GAPS:
        gaps = "; ".join(
            word(
                "explain.gap",
                language,
                {
                    "alternative": _set(b.alternative),
                    "missing": _ids(b.missing) or word("explain.a_link", language),
                },
            )
            for b in result.branches
        )
        return word("explain.gaps", language, {"gaps": gaps})
    key = (
        "explain.unanswerable" if reason == SufficiencyReason.UNANSWERABLE else "explain.open_list"
    )
    return word(key, language)


def conflict_text(conflict: Conflict, language: str) -> str:
    """A conflict in plain words: every value with its ids (English: ``conflict.explanation``)."""
    shown = "; ".join(
        word("conflict.value", language, {"value": repr(v), "ids": _ids(ids)})
        for v, ids in conflict.values.items()
    )
    subject = repr(conflict.subject)
    what = (
        word("conflict.of", language, {"item": conflict.item, "subject": subject})
        if conflict.item
        else subject
    )
    return word("conflict", language, {"what": what, "relation": conflict.relation, "shown": shown})


def link_text(error: LinkError, language: str) -> str:
    """Two chain members that do not join (English: ``error.explanation``)."""
    if error.left_end is None:
        return word("link.no_lead", language, {"left": error.left, "right": error.right})
    values = {
        "left": error.left,
        "right": error.right,
        "end": repr(error.left_end),
        "start": repr(error.right_start),
    }
    return word("link.ends", language, values)


def reason_word(reason: str, language: str) -> str:
    """A rejection's reason code as a word (the code itself when the catalogue has none)."""
    key = _REASON_KEYS.get(RejectReason(reason)) if reason in set(RejectReason) else None
    return word(f"reason.{key}", language) if key else reason


def rejection_detail(
    rejection: Rejection, fixture: SufficiencyFixture | None, question: str, language: str
) -> str:
    """Why a context item cannot serve as a premise of ``question`` in the file ``fixture``.

    Worded from the rejection's codes and the file's own values; in English word for word
    ``rejection.detail``, which is also what a record the file does not hold gets.
    """
    r = rejection
    if r.reason == RejectReason.DUPLICATE:
        return word("reject.duplicate", language, {"id": r.id})
    item = fixture.item(r.id) if fixture is not None else None
    if item is None:
        return r.detail
    assert fixture is not None  # for the type checker: the item came from the file
    q = fixture.question(question)
    if r.reason == RejectReason.OFF_TOPIC:
        values = {"id": r.id, "topic": repr(item.topic), "question_topic": repr(q.topic)}
        return word("reject.off_topic", language, values)
    if r.reason == RejectReason.NOT_A_PREMISE:
        values = {"id": r.id, "question": repr(q.name), "asks": ", ".join(q.asks)}
        return word("reject.not_a_premise", language, values)
    if r.reason not in (RejectReason.METADATA, RejectReason.UNSAFE) or not r.problems:
        return r.detail
    rules = fixture.rules
    problems = ", ".join(
        word("problem.status", language, {"status": item.status, "required": rules.required_status})
        if p == MetadataProblem.STATUS
        else word("problem.not_current", language)
        for p in r.problems
    )
    detail = word("reject.metadata", language, {"id": r.id, "problems": problems})
    if r.reason == RejectReason.UNSAFE:
        return word("reject.unsafe", language, {"detail": detail})
    return detail
