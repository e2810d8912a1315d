import pytest

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.io.sufficiency import load_sufficiency
from claimlab.metrics.selective import (
    SelectiveItem,
    risk_coverage,
    score_selective,
    selective_items,
)
from claimlab.metrics.sufficiency import Rejection, score_fixture_sufficiency, score_sufficiency
from tests.conftest import FIXTURES


@pytest.fixture(scope="module", params=["aurora.json", "aurora_th.json"])
def fx(request):
    return load_sufficiency(FIXTURES / request.param)


# (question, context, ignore_metadata, status, witnesses, missing per branch, raw, unique)
CASES = [
    ("room", ["E1"], False, "INSUFFICIENT", [], [["E5"], ["E2"], ["E3", "E4"]], 1, 1),
    ("room", ["E1", "E4"], False, "INSUFFICIENT", [], [["E5"], ["E2"], ["E3"]], 2, 2),
    ("room", ["E1", "E2"], False, "SUFFICIENT", [["E1", "E2"]], [["E5"], [], ["E3", "E4"]], 2, 2),
    ("room", ["E3", "E4"], False, "SUFFICIENT", [["E3", "E4"]], [["E5"], ["E1", "E2"], []], 2, 2),
    ("room", ["E5"], False, "SUFFICIENT", [["E5"]], [[], ["E1", "E2"], ["E3", "E4"]], 1, 1),
    ("route_and_room", ["E5"], False, "INSUFFICIENT", [], [["E1", "E2"], ["E3", "E4"]], 1, 1),
    ("room", ["E1", "E1"], False, "INSUFFICIENT", [], [["E5"], ["E2"], ["E3", "E4"]], 2, 1),
    ("room", ["E8"], False, "INSUFFICIENT", [], [["E5"], ["E1", "E2"], ["E3", "E4"]], 1, 1),
    ("room", ["E8"], True, "INSUFFICIENT", [], [["E5"], ["E1", "E2"], ["E3", "E4"]], 1, 1),
    ("room", ["E6", "E7"], False, "INSUFFICIENT", [], [["E5"], ["E1", "E2"], ["E3", "E4"]], 2, 2),
    ("room", ["E9"], False, "UNKNOWN", [], [["E5"], ["E1", "E2"], ["E3", "E4"]], 1, 1),
    ("room", ["E9", "E5"], False, "SUFFICIENT", [["E5"]], [[], ["E1", "E2"], ["E3", "E4"]], 2, 2),
    (
        "room",
        ["E5", "E1", "E2"],
        False,
        "SUFFICIENT",
        [["E5"], ["E1", "E2"]],
        [[], [], ["E3", "E4"]],
        3,
        3,
    ),
    ("room", [], False, "INSUFFICIENT", [], [["E5"], ["E1", "E2"], ["E3", "E4"]], 0, 0),
]


@pytest.mark.parametrize(
    ("q", "ctx", "ignore", "status", "witnesses", "missing", "raw", "unique"), CASES
)
def test_fixture_scenarios(fx, q, ctx, ignore, status, witnesses, missing, raw, unique):
    r = score_fixture_sufficiency(fx, q, ctx, ignore_metadata=ignore)
    assert r.status == status
    assert [list(w) for w in r.witnesses] == witnesses
    assert [list(b.missing) for b in r.branches] == missing
    assert (r.context_raw, r.context_unique) == (raw, unique)


def test_e1_e4_names_the_link_error(fx):
    r = score_fixture_sufficiency(fx, "room", ["E1", "E4"])
    errors = {(e.left, e.right) for b in r.branches for e in b.link_errors}
    assert errors == {("E1", "E4")}
    e = r.branches[1].link_errors[0]
    assert e.left_end == fx.item("E1").object and e.right_start == fx.item("E4").subject
    assert "do not link" in e.explanation


def test_rejections_and_unsafe_candidates(fx):
    r = score_fixture_sufficiency(fx, "room", ["E1", "E1", "E6", "E7", "E8"])
    assert [(x.id, x.reason) for x in r.rejected] == [
        ("E1", "duplicate"),
        ("E6", "off-topic"),
        ("E7", "off-topic"),
        ("E8", "metadata"),
    ]
    assert r.unsafe_candidates == ()
    ig = score_fixture_sufficiency(fx, "room", ["E8"], ignore_metadata=True)
    assert [u.id for u in ig.unsafe_candidates] == ["E8"] and ig.rejected == ()
    assert all("E8" not in w for w in ig.witnesses)


def test_unsafe_candidate_is_never_a_witness_even_inside_an_alternative():
    # a stale member of an alternative stays out of the witness in "metadata ignored" mode
    r = score_sufficiency(
        [["a", "b"]],
        ["a", "b"],
        unsafe=lambda i: None if i == "a" else Rejection(i, "unsafe", "stale"),
    )
    assert r.status == "INSUFFICIENT" and [u.id for u in r.unsafe_candidates] == ["b"]


def test_no_witness_is_not_false(fx):
    r = score_fixture_sufficiency(fx, "room", ["E1"])
    assert "not enough" in r.explanation and "not: the claim is false" in r.explanation


def test_inputs_are_not_mutated(fx):
    ctx = ["E1", "E1", "E4"]
    before = list(ctx)
    score_fixture_sufficiency(fx, "room", ctx)
    assert ctx == before


@pytest.mark.parametrize(
    ("alts", "field"), [([], "alternatives"), ([["a"], []], "alternatives[1]")]
)
def test_degenerate_alternatives_are_rejected(alts, field):
    with pytest.raises(ClaimlabInputError) as info:
        score_sufficiency(alts, ["a"])
    assert info.value.field == field


def _q(d, name="room"):
    return d["questions"][name]


LOADER_CASES = [
    (
        "empty group",
        lambda d: _q(d)["alternatives"].append([]),
        "room",
        "questions.room.alternatives[3]",
        "empty evidence group",
    ),
    (
        "no alternatives",
        lambda d: _q(d).__setitem__("alternatives", []),
        "room",
        "questions.room.alternatives",
        "no alternative",
    ),
    (
        "dangling id",
        lambda d: _q(d)["alternatives"][1].append("E42"),
        "room",
        "questions.room.alternatives[1][2]",
        "unknown evidence id 'E42'",
    ),
    (
        "duplicate id",
        lambda d: d["evidence"][1].__setitem__("id", "E1"),
        "E1",
        "id",
        "duplicate id",
    ),
    (
        "missing field",
        lambda d: d["evidence"][2].pop("object"),
        "E3",
        "object",
        "missing required field",
    ),
    (
        "wrong type",
        lambda d: d["evidence"][2].__setitem__("current", "yes"),
        "E3",
        "current",
        "true or false",
    ),
    (
        "asks nothing",
        lambda d: _q(d).__setitem__("asks", []),
        "room",
        "questions.room.asks",
        "must name at least one item",
    ),
    (
        "scenario question",
        lambda d: d["scenarios"]["missing_link"].__setitem__("question", "colour"),
        "missing_link",
        "scenarios.missing_link.question",
        "unknown question",
    ),
]


@pytest.mark.parametrize(
    ("case", "mutate", "record", "field", "fragment"),
    LOADER_CASES,
    ids=[c[0] for c in LOADER_CASES],
)
def test_loader_errors(write_variant, case, mutate, record, field, fragment):
    path = write_variant("aurora.json", mutate, filename="bad.json")
    with pytest.raises(FixtureError) as info:
        load_sufficiency(path)
    assert (info.value.file, info.value.record, info.value.field) == (str(path), record, field)
    assert fragment in str(info.value)


def test_selective_answering_counts(fx):
    items = selective_items(fx)
    s = score_selective(items)
    assert s.coverage.counts == "6/10"
    # wrong: the E8 answers (Room B2) and the route question answered without a route
    assert s.accuracy.counts == "3/6"
    assert s.abstained_with_complete_evidence == ("orbit_e3_e4",)
    assert s.answered_with_gaps == (
        "mixed_branches",
        "route_and_room",
        "draft_e8",
        "draft_e8_ignored",
    )


def test_nothing_answered_is_na():
    s = score_selective([SelectiveItem("q", False, None, False, 0.1)])
    assert s.accuracy.display == "N/A (0/0)" and s.coverage.display == "0.0% (0/1)"
    assert score_selective([]).coverage.display == "N/A (0/0)"


def test_risk_coverage_rows(fx):
    rows = risk_coverage(selective_items(fx), [0.0, 0.9, 0.99])
    assert [(r.coverage.counts, r.accuracy.counts, r.risk.counts) for r in rows] == [
        ("6/10", "3/6", "3/6"),  # answered: e1_e4, e1_e2, e5 room, e5 route (no route), e8 twice
        ("2/10", "2/2", "0/2"),  # 0.91 and 0.95
        ("0/10", "0/0", "0/0"),
    ]
    assert rows[2].accuracy.display == "N/A (0/0)"


def test_a_stand_in_is_checked_against_the_next_member_too(fx):
    # E1 is missing from E1 -> E2; E3 (first of another chain) stands in its place and does not
    # lead to E2: the error names E3 -> E2, the link to the *next* member
    r = score_fixture_sufficiency(fx, "room", ["E3", "E2"])
    errors = [[(e.left, e.right) for e in b.link_errors] for b in r.branches]
    assert errors == [[], [("E3", "E2")], []]


def _never(left, right):
    from claimlab.metrics.sufficiency import LinkError

    return LinkError(left, right, "end", "start")


@pytest.mark.parametrize(("others", "shown"), [(1, 1), (3, 3), (4, 3), (6, 3)])
def test_at_most_max_stand_ins_are_reported_for_one_missing_member(others, shown):
    from claimlab.metrics.sufficiency import MAX_STAND_INS

    assert MAX_STAND_INS == 3
    alternatives = [["a", "b"], *[[f"c{i}", f"x{i}"] for i in range(others)]]
    context = ["b", *[f"c{i}" for i in range(others)]]
    r = score_sufficiency(alternatives, context, link=_never)
    first = [(e.left, e.right) for e in r.branches[0].link_errors]
    assert first == [(f"c{i}", "b") for i in range(shown)]  # each c_i in a's place, before b


def test_stand_ins_for_a_middle_member_are_checked_both_ways():
    alternatives = [["a", "m", "z"], ["p", "q", "r"]]
    r = score_sufficiency(alternatives, ["a", "q", "z"], link=_never)
    first = [(e.left, e.right) for e in r.branches[0].link_errors]
    assert first == [("a", "q"), ("q", "z")]  # q in m's place: from a, and on to z
    assert r.status == "INSUFFICIENT"


def test_the_json_form_of_an_insufficient_selection():
    """E1 (card -> Solar Route) and E4 (Orbit Building -> A3) do not link; E8 is a draft."""
    aurora = load_sufficiency(FIXTURES / "aurora.json")
    d = score_fixture_sufficiency(aurora, "room", ["E1", "E4", "E8"]).to_dict()
    assert d == {
        "status": "INSUFFICIENT",
        "witnesses": [],
        "branches": [
            {"alternative": ["E5"], "complete": False, "present": [], "missing": ["E5"],
             "link_errors": []},
            {"alternative": ["E1", "E2"], "complete": False, "present": ["E1"],
             "missing": ["E2"], "link_errors": [{
                 "from": "E1", "to": "E4", "from_ends_at": "Solar Route",
                 "to_starts_at": "Orbit Building",
                 "explanation": "E1 ends at 'Solar Route' but E4 starts at 'Orbit Building': "
                                "they do not link"}]},
            {"alternative": ["E3", "E4"], "complete": False, "present": ["E4"],
             "missing": ["E3"], "link_errors": []},
        ],
        "rejected": [{"id": "E8", "reason": "metadata",
                      "detail": "E8 fails the metadata rules: status DRAFT (needs APPROVED), "
                                "not CURRENT"}],
        "unsafe_candidates": [],
        "unknown": [],
        "context_raw": 3,
        "context_unique": 3,
        "context_ids": ["E1", "E4", "E8"],
        "conflicts": [],
        "conditions_unmet": [],
        "items": {"room": {"status": "UNKNOWN", "value": None, "by": []}},
        "next_search": [{"subject": "Solar Route", "relation": "leads to", "missing": "E2"}],
        "unanswerable": False,
        "alternatives_complete": True,
        "explanation": "this selection is not enough (not: the claim is false). {E5} missing E5; "
                       "{E1, E2} missing E2; {E3, E4} missing E3",
    }  # fmt: skip


LOANS = FIXTURES / "library_loans.json"


@pytest.mark.parametrize(
    ("question", "context", "expected"),
    [
        ("loan_period", ["L1", "L2"], {
            "status": "SUFFICIENT", "witnesses": [["L1", "L2"]], "conflicts": [],
            "conditions_unmet": [], "next_search": [],
            "items": {"period": {"status": "CONFIRMED", "value": "14 days", "by": ["L1", "L2"]}},
            "explanation": "complete witness: {L1, L2}"}),
        ("loan_period", ["L1", "L2", "L3"], {
            "status": "CONFLICT", "witnesses": [["L1", "L2"], ["L1", "L3"]],
            "conflicts": [{"subject": "short-loan rule", "relation": "lasts",
                           "values": {"14 days": ["L2"], "7 days": ["L3"]},
                           "explanation": "'short-loan rule' lasts one value, but the context "
                           "gives '14 days' from L2; '7 days' from L3: a conflict to resolve (by "
                           "authority and scope), not a side to pick"}],
            "conditions_unmet": [], "next_search": [],
            "items": {"period": {"status": "CONFLICT", "value": None, "by": ["L2", "L3"]}},
            "explanation": "'short-loan rule' lasts one value, but the context gives '14 days' "
            "from L2; '7 days' from L3: a conflict to resolve (by authority and scope), not a "
            "side to pick"}),
        ("loan_period", ["L4", "L5"], {
            "status": "CONDITIONAL", "witnesses": [["L4", "L5"]], "conflicts": [],
            "conditions_unmet": [{"id": "L4", "conditions": ["borrowed on a Saturday"]}],
            "next_search": [],
            "items": {"period": {"status": "UNKNOWN", "value": None, "by": []}},
            "explanation": "a complete witness, but on conditions the question's circumstances "
            "do not meet (L4 only if borrowed on a Saturday): it answers only if they hold"}),
        ("saturday_period", ["L3"], {
            "status": "INSUFFICIENT", "witnesses": [], "conflicts": [], "conditions_unmet": [],
            "items": {"period": {"status": "UNKNOWN", "value": None, "by": []}},
            "next_search": [
                {"subject": "reading-room book", "relation": "is lent under", "missing": "L4"},
                {"subject": "weekend rule", "relation": "lasts", "missing": "L5"}],
            "explanation": "this selection is not enough (not: the claim is false). {L4, L5} "
            "missing L4, L5"}),
    ],
)  # fmt: skip
def test_the_json_form_of_conflicts_conditions_and_next_searches(question, context, expected):
    d = score_fixture_sufficiency(load_sufficiency(LOANS), question, context).to_dict()
    assert {k: d[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("alternatives", "chains", "message"),
    [
        ([], False, "alts: no alternative evidence set: nothing could ever be sufficient"),
        ([["a"], []], False,
         "alts[1]: empty evidence group (it would count as complete with no evidence)"),
        ([["a", "b", "a", "b"]], True,
         "alts[0]: a occurs twice in one chain (a cycle is not a chain of evidence)"),
        ([["x"], ["a", "b", "b"]], True,
         "alts[1]: b occurs twice in one chain (a cycle is not a chain of evidence)"),
        ([["a", "b", "a"]], False, None),  # a set may name a member twice
        ([["a"], ["b", "c"]], True, None),
    ],
)  # fmt: skip
def test_check_alternatives_names_the_degenerate_group(alternatives, chains, message):
    from claimlab.metrics.sufficiency import check_alternatives

    if message is None:
        check_alternatives(alternatives, where="alts", chains=chains)
        return
    with pytest.raises(ClaimlabInputError) as info:
        check_alternatives(alternatives, where="alts", chains=chains)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("question", "context", "answers", "by"),
    [
        # a chain's linked part confirms the item it names, before the chain is complete
        ("route_and_room", ["E1"], {"route": ("CONFIRMED", "Solar Route"),
                                    "room": ("UNKNOWN", None)}, {"route": ("E1",), "room": ()}),
        ("route_and_room", ["E1", "E2"], {"route": ("CONFIRMED", "Solar Route"),
                                          "room": ("CONFIRMED", "Room A3")},
         {"route": ("E1",), "room": ("E1", "E2")}),  # the route rests on E1 alone
        # E5 is no chain of this question, but the approved map states the room: the room
        # question takes it as a whole answer; the route stays open
        ("route_and_room", ["E5"], {"route": ("UNKNOWN", None), "room": ("CONFIRMED", "Room A3")},
         {"route": (), "room": ("E5",)}),
        ("room", ["E3", "E4"], {"room": ("CONFIRMED", "Room A3")}, {"room": ("E3", "E4")}),
        # the draft E8 is left out of what confirms
        ("room", ["E1", "E2", "E8"], {"room": ("CONFIRMED", "Room A3")}, {"room": ("E1", "E2")}),
        ("room", ["E1", "E4"], {"room": ("UNKNOWN", None)}, {"room": ()}),  # not linked
    ],
)  # fmt: skip
def test_items_answered_by_the_linked_part_of_a_chain(question, context, answers, by):
    from claimlab.metrics.sufficiency import item_answers

    aurora = load_sufficiency(FIXTURES / "aurora.json")
    r = score_fixture_sufficiency(aurora, question, context)
    assert item_answers(aurora, question, r) == answers
    assert {k: v.by for k, v in r.items.items()} == by


def test_a_conflict_on_a_later_step_leaves_the_items_before_it_confirmed():
    """A chain shuttle -> Route 7 -> platform whose last step two texts give two values: the
    platform is in CONFLICT, the route each text of the chain reaches alike is CONFIRMED."""
    doc = {
        "format": "claimlab/sufficiency@1",
        "evidence": [
            {"id": "T1", "text": "The shuttle is Route 7.", "subject": "shuttle", "relation": "is",
             "object": "Route 7", "status": "APPROVED", "current": True, "topic": "t"},
            {"id": "T2", "text": "Route 7 leaves from Platform 3.", "subject": "Route 7",
             "relation": "leaves from", "object": "Platform 3", "status": "APPROVED",
             "current": True, "topic": "t"},
            {"id": "T3", "text": "Route 7 leaves from Platform 5.", "subject": "route 7",
             "relation": "leaves from", "object": "Platform 5", "status": "APPROVED",
             "current": True, "topic": "t"},
        ],
        "rules": {"required_status": "APPROVED", "require_current": True,
                  "single_valued": ["leaves from"]},
        "questions": {"platform": {"text": "Which platform?", "asks": ["route", "platform"],
                                   "topic": "t", "alternatives": [["T1", "T2"]]}},
    }  # fmt: skip
    from claimlab.io.sufficiency import read_sufficiency

    fx = read_sufficiency(doc, source="generated.json")
    r = score_fixture_sufficiency(fx, "platform", ["T1", "T2", "T3"])
    assert str(r.status) == "CONFLICT"
    assert {k: (str(v.status), v.value, v.by) for k, v in r.items.items()} == {
        "route": ("CONFIRMED", "Route 7", ("T1",)),
        "platform": ("CONFLICT", None, ("T2", "T3")),
    }


def test_item_answers_of_a_conflict_and_of_a_bare_result():
    from claimlab.metrics.sufficiency import item_answers

    loans = load_sufficiency(LOANS)
    r = score_fixture_sufficiency(loans, "loan_period", ["L1", "L2", "L3"])
    assert item_answers(loans, "loan_period", r) == {"period": ("CONFLICT", None)}
    assert r.items["period"].by == ("L2", "L3")
    aurora = load_sufficiency(FIXTURES / "aurora.json")
    bare = score_sufficiency([["E1", "E2"]], ["E1", "E2"])  # the witness core alone: no items
    assert item_answers(aurora, "room", bare) == {"room": ("UNKNOWN", None)}


def test_the_core_sorts_copies_unknown_unsafe_and_rejected_ids_each_with_its_reason():
    from claimlab.metrics.sufficiency import Rejection

    def unsafe(cid):
        return Rejection(cid, "metadata", f"{cid} unsafe") if cid == "u" else None

    def reject(cid):
        return Rejection(cid, "off_topic", f"{cid} off") if cid == "r" else None

    r = score_sufficiency(
        [["a", "b"]], ["a", "a", "x", "u", "r", "b"],
        known=lambda cid: cid != "x", unsafe=unsafe, reject=reject,
    )  # fmt: skip
    assert r.status == "SUFFICIENT" and r.witnesses == (("a", "b"),)
    assert [(j.id, str(j.reason), j.detail) for j in r.rejected] == [
        ("a", "duplicate", "a is already in the context: a copy adds no premise"),
        ("r", "off_topic", "r off"),
    ]
    assert [(j.id, j.detail) for j in r.unsafe_candidates] == [("u", "u unsafe")]
    assert r.unknown == ("x",)
    assert (r.context_raw, r.context_unique) == (6, 5)
    only_unknown = score_sufficiency([["a", "b"]], ["a", "x"], known=lambda cid: cid != "x")
    assert only_unknown.status == "UNKNOWN" and only_unknown.unknown == ("x",)
    # a rejected id is never usable, an unknown id never counted as a premise
    assert score_sufficiency(
        [["a"]], ["a"], reject=lambda c: Rejection(c, "off_topic", "")
    ).status == ("INSUFFICIENT")


def test_results_and_conflicts_are_frozen():
    loans = load_sufficiency(LOANS)
    r = score_fixture_sufficiency(loans, "loan_period", ["L1", "L2", "L3"])
    with pytest.raises(TypeError):
        r.items["period"] = None
    with pytest.raises(TypeError):
        r.conflicts[0].values["1 day"] = ("L9",)
