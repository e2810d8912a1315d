"""Metamorphic properties of the sufficiency verdict, over generated sufficiency files.

Each generated file has a question asking one or two items (chains of 1-3 approved or draft
texts from one start, the last relation "ends at"), a direct statement of the last item, and a
second question on the same topic that takes the direct statement as a whole answer. What no
change may do:

* adding an approved text that derives another value for a single-valued item never keeps
  SUFFICIENT (a direct statement beside a chain, listed as an alternative or by no question,
  or another chain);
* renaming ids, reordering the texts and the context, and translating the file's labels
  (question, relation and item names) never change a verdict: status, witnesses, each item's
  state and value, the values in conflict;
* listing each alternative's members in another order, its links kept (made explicit),
  never changes a verdict, and the last asked item's CONFIRMED value is the object of the
  chain's last link;
* and in every file: a CONFIRMED value is the object of a usable text of the context, never
  the answer key's (the key here names a value no text has).

A wrong rule each property caught (each made deliberately, seen failing, then undone):
conflicts found only between texts sharing a subject (witness conflicts dropped) fails the
first, and so does reading only the texts some alternative lists (an unlisted direct statement
of the item ignored); the value taken from the witness with the smallest ids fails renaming; the value taken
from the text that comes first in the context fails reordering; the questions that take a text
as a whole answer found by their names (one name inside the other) instead of topic and
subject fails translating; the value and the start read off the listed order, not the links'
order, fail the permuting of members. The answer key deciding the value (the rule before) fails them all.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from claimlab.io.sufficiency import read_sufficiency
from claimlab.metrics.sufficiency import normalise_value, score_fixture_sufficiency

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALUES = ("v1", "v2", "V1 ")  # "V1 " is v1 written another way: the same value
END = "ends at"


def _text(eid, subject, relation, obj, status="APPROVED"):
    return {
        "id": eid, "text": f"{subject} {relation} {obj}", "subject": subject,
        "relation": relation, "object": obj, "status": status, "current": True, "topic": "t",
    }  # fmt: skip


@st.composite
def files(draw):
    """A generated file and a context (ids drawn from it, repeats allowed)."""
    evidence, alternatives = [], []
    for a in range(draw(st.integers(1, 3))):
        chain, subject = [], "s0"
        length = draw(st.integers(1, 3))
        for k in range(length):
            last = k == length - 1
            obj = draw(st.sampled_from(VALUES if last else ("m1", "m2")))
            relation = END if last else draw(st.sampled_from(("uses", "passes")))
            status = draw(st.sampled_from(("APPROVED",) * 4 + ("DRAFT",)))
            evidence.append(_text(f"e{a}{k}", subject, relation, obj, status))
            chain.append(f"e{a}{k}")
            subject = obj
        alternatives.append(chain)
    evidence.append(_text("d0", "s0", END, draw(st.sampled_from(VALUES))))
    asks = draw(st.sampled_from((["x"], ["y", "x"])))
    if asks == ["x"] and draw(st.booleans()):
        alternatives.append(["d0"])
    doc = {
        "format": "claimlab/sufficiency@1",
        "evidence": evidence,
        "rules": {
            "required_status": "APPROVED",
            "require_current": True,
            "single_valued": [END] if draw(st.booleans()) else [],
        },
        "questions": {
            "q": {
                "text": "?",
                "asks": asks,
                "topic": "t",
                "alternatives": alternatives,
                "alternatives_complete": draw(st.booleans()),
            },
            "q2": {"text": "?", "asks": ["x"], "topic": "t", "alternatives": [["d0"]]},
        },  # fmt: skip
        "answer_key": {"q": {item: "v9" for item in asks}, "q2": {"x": "v9"}},
    }
    ids = [e["id"] for e in evidence]
    context = draw(st.lists(st.sampled_from(ids), max_size=7))
    if draw(st.booleans()):  # often a whole alternative in it
        context = [*draw(st.sampled_from(alternatives)), *context]
    return doc, context


def verdict(doc, context, *, back=lambda i: i, items=lambda i: i):
    """What a check decides, in the original ids and item names (``back``, ``items``)."""
    fx = read_sufficiency(doc, source="generated.json")
    r = score_fixture_sufficiency(fx, next(iter(fx.questions)), context)
    _documents_decide(fx, r, context)
    return {
        "status": r.status,
        "witnesses": sorted(sorted(back(i) for i in w) for w in r.witnesses),
        "items": {
            items(k): (a.status, None if a.value is None else normalise_value(a.value))
            for k, a in r.items.items()
        },
        "conflicts": sorted(sorted(normalise_value(v) for v in c.values) for c in r.conflicts),
    }


def _documents_decide(fx, r, context):
    """A CONFIRMED value is the object of a usable text of the context, never the key's."""
    for a in r.items.values():
        if a.status == "CONFIRMED":
            assert a.by and set(a.by) <= set(context)
            named = {normalise_value(fx.item(i).object) for i in a.by}
            assert normalise_value(a.value) in named, (a, r.context)


@SETTINGS
@given(files(), st.data())
def test_a_text_deriving_another_value_of_a_single_valued_item_never_keeps_sufficient(
    generated, data
):
    doc, context = generated
    doc["rules"]["single_valued"] = [END]
    fx = read_sufficiency(doc, source="generated.json")
    before = score_fixture_sufficiency(fx, "q", context)
    assume(before.status == "SUFFICIENT")
    witness = before.witnesses[0]
    value = normalise_value(fx.item(witness[-1]).object)
    other = next(v for v in ("w1", "w2") if v != value)
    q = doc["questions"]["q"]
    how = data.draw(st.sampled_from(("direct", "unlisted", "unlisted", "new chain", "same path")))
    if how == "direct" and q["asks"] == ["x"]:  # a direct statement, listed as an alternative
        doc["evidence"].append(_text("n0", "s0", END, other))
        q["alternatives"].append(["n0"])
        added = ["n0"]
    elif how == "unlisted" and q["asks"] == ["x"]:  # a direct statement no question lists
        doc["evidence"].append(_text("n0", "s0", END, other))
        added = ["n0"]
    elif how == "same path" and len(witness) > 1:  # the witness's path, another end
        doc["evidence"].append(_text("n0", fx.item(witness[-2]).object, END, other))
        q["alternatives"].append([*witness[:-1], "n0"])
        added = ["n0"]
    else:  # another chain from the same start
        doc["evidence"] += [_text("n0", "s0", "uses", "m9"), _text("n1", "m9", END, other)]
        q["alternatives"].append(["n0", "n1"])
        added = ["n0", "n1"]
    after = verdict(doc, [*context, *added])
    assert after["status"] != "SUFFICIENT"
    assert after["status"] == "CONFLICT"
    assert any(set(c) == {other, value} for c in after["conflicts"]), after


@SETTINGS
@given(files(), st.randoms(use_true_random=False))
def test_renaming_every_id_changes_no_verdict(generated, rnd):
    doc, context = generated
    ids = [e["id"] for e in doc["evidence"]]
    fresh = [f"ид-{k}" for k in range(len(ids))]
    rnd.shuffle(fresh)
    to = dict(zip(ids, fresh, strict=True))
    back = {v: k for k, v in to.items()}
    renamed = copy.deepcopy(doc)
    for e in renamed["evidence"]:
        e["id"] = to[e["id"]]
    for q in renamed["questions"].values():
        q["alternatives"] = [[to[m] for m in alt] for alt in q["alternatives"]]
    assert verdict(renamed, [to[c] for c in context], back=back.get) == verdict(doc, context)


@SETTINGS
@given(files(), st.randoms(use_true_random=False))
def test_reordering_the_texts_and_the_context_changes_no_verdict(generated, rnd):
    doc, context = generated
    moved = copy.deepcopy(doc)
    rnd.shuffle(moved["evidence"])
    shuffled = list(context)
    rnd.shuffle(shuffled)
    assert verdict(moved, shuffled) == verdict(doc, context)


@SETTINGS
@given(files(), st.randoms(use_true_random=False))
def test_listing_an_alternatives_members_in_another_order_changes_no_verdict(generated, rnd):
    doc, context = generated
    q = doc["questions"]["q"]
    chains = [list(alt) for alt in q["alternatives"]]
    q["links"] = [[[a, b] for a, b in zip(c, c[1:], strict=False)] for c in chains]
    permuted = copy.deepcopy(doc)
    for alt in permuted["questions"]["q"]["alternatives"]:
        rnd.shuffle(alt)
    before, after = verdict(doc, context), verdict(permuted, context)
    assert after == before
    fx = read_sufficiency(permuted, source="generated.json")
    last = score_fixture_sufficiency(fx, "q", context).items[q["asks"][-1]]
    if last.status == "CONFIRMED":  # the object of some chain's end, reached by its witness
        ends = {normalise_value(fx.item(c[-1]).object) for c in chains if c[-1] in last.by}
        ends |= {normalise_value(fx.item("d0").object)} if "d0" in last.by else set()
        assert normalise_value(last.value) in ends, (last, chains)


LABELS = {  # question, relation and item names, in Turkish and Thai
    "q": "soru", "q2": "คำถามที่สอง", "uses": "kullanır", "passes": "ผ่าน", END: "ulaşır",
    "x": "oda", "y": "ทาง",
}  # fmt: skip


@SETTINGS
@given(files())
def test_translating_the_labels_changes_no_verdict(generated):
    doc, context = generated
    t = copy.deepcopy(doc)
    for e in t["evidence"]:
        e["relation"] = LABELS[e["relation"]]
    t["rules"]["single_valued"] = [LABELS[r] for r in doc["rules"]["single_valued"]]
    t["questions"] = {
        LABELS[name]: dict(q, asks=[LABELS[a] for a in q["asks"]])
        for name, q in doc["questions"].items()
    }
    t["answer_key"] = {
        LABELS[name]: {LABELS[i]: v for i, v in key.items()}
        for name, key in doc["answer_key"].items()
    }
    back = {v: k for k, v in LABELS.items()}
    assert verdict(t, context, items=back.get) == verdict(doc, context)
