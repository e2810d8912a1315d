"""FActScore's module unit by unit: every record's figures and JSON against a hand computation.

Responses are built here from sentences whose labels are written out, so each expected figure
can be counted on the page (S supported, NS not, IR irrelevant).
"""

import math
from types import SimpleNamespace

import pytest

from claimlab.core.ratio import Ratio
from claimlab.io.factscore import LabelledResponse, LabelledSentence
from claimlab.metrics.factscore import (
    RARITY_ORDER,
    ClaimPrecision,
    FactRevisions,
    PositionBucket,
    ResponseScore,
    aggregate,
    by_category,
    check_estimator,
    claim_precision,
    error_by_position,
    fact_labels,
    fact_revisions,
    length_penalty,
    revision_audit,
    score_factscore,
    score_response,
)


def _s(*labels, relevant=True, model=None):
    facts = tuple((f"fact {k}", lab) for k, lab in enumerate(labels))
    return LabelledSentence("x", relevant, tuple(model or (t for t, _ in facts)), facts or None)


def _r(*sentences, topic="t", category=("rare",), line=1):
    return LabelledResponse(line, topic, category, tuple(sentences))


ABSTAINED = LabelledResponse(9, "quiet", ("freq",), None)


# ------------------------------------------------------------------ one response


@pytest.mark.parametrize(
    ("n", "gamma", "expected"),
    [
        (0, 10, 1.0), (-1, 10, 1.0), (1, 10, math.exp(-9)), (5, 10, math.exp(-1)),
        (9, 10, math.exp(1 - 10 / 9)), (10, 10, 1.0), (11, 10, 1.0), (3, 0, 1.0),
        (1, 2, math.exp(-1)), (2, 2, 1.0),
    ],
)  # fmt: skip
def test_the_length_penalty(n, gamma, expected):
    assert length_penalty(n, gamma) == expected


def test_a_negative_gamma_is_refused():
    with pytest.raises(ValueError, match="gamma must be >= 0, got -1"):
        length_penalty(3, -1)


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        ("exclude", ["S", "NS", "S"]),
        ("unsupported", ["S", "NS", "NS", "S", "NS"]),
        ("paper", ["S", "NS", "NS", "S", "NS", "NS", "NS"]),
    ],
)
def test_irrelevant_facts_follow_the_policy(policy, expected):
    r = _r(
        _s("S", "NS", "IR"),
        _s("S", "IR"),
        LabelledSentence("off topic", False, ("m1", "m2"), None),  # IR under "paper" only
        LabelledSentence("no facts", True, ("m3",), None),
    )
    assert fact_labels(r, policy) == expected


def test_an_abstention_has_no_labels_and_an_unknown_policy_is_refused():
    assert fact_labels(ABSTAINED, "paper") is None
    with pytest.raises(ValueError, match="irrelevant-fact policy"):
        fact_labels(_r(_s("S")), "strict")  # type: ignore[arg-type]


def test_scoring_one_response():
    s = score_response(_r(_s("S", "NS", "S", "S"), category=("rare", "x")), policy="exclude")
    assert (s.topic, s.category, s.responded) == ("t", ("rare", "x"), True)
    assert (s.support.numerator, s.support.denominator) == (3, 4)
    assert s.penalty == math.exp(1 - 10 / 4)
    assert s.init_score == 0.75 and s.score == pytest.approx(0.75 * math.exp(-1.5))
    none = score_response(ABSTAINED, policy="exclude")
    assert (none.responded, none.support, none.penalty, none.init_score, none.score) == (
        False, None, None, None, None,
    )  # fmt: skip
    empty = score_response(_r(_s("IR")), policy="exclude", gamma=0)
    assert empty.responded and empty.init_score is None and empty.score is None
    plain = ResponseScore("t", (), True, Ratio(1, 2), None)
    assert plain.score == 0.5  # no penalty recorded: multiplied by 1


# ------------------------------------------------------------------ many responses


def test_factscore_counts_and_means_by_hand():
    responses = [
        _r(_s("S", "S", "NS", "S")),  # 3/4
        _r(_s("S", "NS")),  # 1/2
        _r(_s("IR")),  # responding, no fact under exclude: undefined
        ABSTAINED,
    ]
    got = score_factscore(responses, name="m", policy="exclude", gamma=0)
    assert (got.name, got.policy, got.gamma) == ("m", "exclude", 0)
    assert got.factscore == pytest.approx((0.75 + 0.5) / 2)
    assert got.init_score == pytest.approx((0.75 + 0.5) / 2)
    assert (got.respond.numerator, got.respond.denominator) == (3, 4)
    assert (got.scored, got.undefined, got.facts, got.supported) == (2, 1, 6, 4)
    assert got.facts_per_response == 2.0
    assert got.abstentions_as_zero == pytest.approx((0.75 + 0.5) / 4)
    assert got.display == (
        "62.5 (2 scored, 1 without facts; respond 75.0% (3/4); 2.0 facts/response)"
    )
    assert len(got.responses) == 4


def test_the_penalty_lowers_the_factscore_but_not_init_score():
    got = score_factscore([_r(_s("S", "S")), _r(_s(*["S"] * 10))], policy="exclude")
    assert got.init_score == 1.0
    assert got.factscore == pytest.approx((math.exp(1 - 10 / 2) + 1.0) / 2)
    assert got.display.startswith(f"{100 * got.factscore:.1f} (2 scored; respond")


def test_nobody_scored_is_na_and_the_json_keeps_every_count():
    got = score_factscore([ABSTAINED, ABSTAINED], name="q", policy="paper")
    assert got.factscore is None and got.init_score is None and got.facts_per_response is None
    assert got.abstentions_as_zero == 0.0
    assert got.display == "N/A (no scored response; respond 0.0% (0/2))"
    assert score_factscore([], policy="paper").abstentions_as_zero is None
    d = score_factscore([_r(_s("S", "NS")), ABSTAINED], name="m", policy="unsupported").to_dict()
    assert d == {
        "name": "m", "policy": "unsupported", "gamma": 10,
        "factscore": 0.5 * math.exp(1 - 10 / 2), "init_score": 0.5,
        "respond_ratio": Ratio(1, 2).to_dict(), "facts_per_response": 2.0,
        "counts": {
            "prompts": 2, "responding": 1, "scored": 1, "responding_without_facts": 0,
            "facts": 2, "supported": 1, "micro_precision": Ratio(1, 2).to_dict(),
        },
        "display": score_factscore([_r(_s("S", "NS")), ABSTAINED], name="m", policy="unsupported").display,
    }  # fmt: skip


def test_aggregate_is_what_find_factscore_gives():
    scores = [score_response(_r(_s("S", "NS")), policy="exclude", gamma=3)]
    assert aggregate("a", scores, policy="exclude", gamma=3) == score_factscore(
        [_r(_s("S", "NS"))], name="a", policy="exclude", gamma=3
    )


def test_by_category_buckets_by_the_level_asked_for():
    responses = [
        _r(_s("S"), category=("rare", "asia")),
        _r(_s("NS"), category=("rare", "europe")),
        _r(_s("S", "S"), category=("freq",)),
    ]
    level0 = by_category(responses, policy="exclude", gamma=0)
    assert list(level0) == ["rare", "freq"]
    assert level0["rare"].factscore == 0.5 and level0["rare"].name == "rare"
    level1 = by_category(responses, policy="exclude", gamma=0, level=1)
    assert {k: v.factscore for k, v in level1.items()} == {
        "asia": 1.0, "europe": 0.0, "(none)": 1.0,
    }  # fmt: skip
    assert RARITY_ORDER == ("very rare", "rare", "medium", "freq", "very freq")


# ------------------------------------------------------------------ an estimator against people


def test_check_estimator_error_and_ranking():
    def result(v):
        return SimpleNamespace(factscore=v)

    human = {"a": result(0.6), "b": result(0.8), "c": result(None), "d": result(0.7)}
    est = {"a": result(0.65), "b": result(0.7), "c": result(0.9), "d": result(0.7)}
    got = check_estimator(human, est)  # type: ignore[arg-type]
    assert dict(got.error) == pytest.approx({"a": 0.05, "b": 0.1, "c": None, "d": 0.0})
    assert got.human_ranking == ("b", "d", "a", "c")  # N/A last
    assert got.estimated_ranking == ("c", "b", "d", "a")  # ties by name
    # c has no people's figure: only a, b and d are ranked, b > d > a on both sides
    assert got.ranked == ("a", "b", "d") and got.ranking_kept is True
    d = got.to_dict()
    assert list(d) == [
        "human", "estimated", "error_rate", "human_ranking", "estimated_ranking", "ranking_kept",
        "ranking_reason",
    ]  # fmt: skip
    assert d["ranking_kept"] is True and d["human_ranking"] == ["b", "d", "a", "c"]
    est["a"] = result(0.75)  # a now above b and d for the checker
    assert check_estimator(human, est).ranking_kept is False  # type: ignore[arg-type]
    one = check_estimator({"a": result(0.5)}, {"a": result(0.4)})  # type: ignore[arg-type]
    assert one.ranking_kept is None and one.to_dict()["ranking_kept"] is None
    assert one.ranking_verdict.startswith("N/A: a ranking needs two subjects")


# ------------------------------------------------------------------ claims, positions, revisions


def test_claim_precision_by_hand():
    c = claim_precision([[True, True, False], ["unknown", False], ["unknown"], []])
    assert (c.true, c.false, c.unknown, c.responses, c.responses_all_unknown) == (2, 2, 2, 4, 2)
    assert (c.precision.numerator, c.precision.denominator) == (2, 4)
    assert (c.decided.numerator, c.decided.denominator) == (4, 6)
    assert [(r.numerator, r.denominator) for r in c.response_precision] == [
        (2, 3), (0, 1), (0, 0), (0, 0),
    ]  # fmt: skip
    d = c.to_dict()
    assert d["counts"] == {"true": 2, "false": 2, "unknown": 2}
    assert (d["responses"], d["responses_all_unknown"]) == (4, 2)
    assert d["precision"] == Ratio(2, 4).to_dict() and d["decided"] == Ratio(4, 6).to_dict()
    assert d["macro_precision_over_responses"]["value"] == pytest.approx((2 / 3 + 0) / 2)
    assert claim_precision([[1, 0]]).unknown == 2  # only True and False are decided
    assert ClaimPrecision(0, 0, 3, 1, 1, ()).precision.value is None


def test_error_by_position_by_hand():
    r1 = _r(_s("S", "S", "NS", "NS"))  # positions 0.125, 0.375, 0.625, 0.875
    r2 = _r(_s("NS"), _s("S"))  # 0.25, 0.75
    got = error_by_position([r1, r2, ABSTAINED, _r(_s("IR"))], policy="exclude", buckets=2)
    assert [(b.low, b.high) for b in got] == [(0.0, 0.5), (0.5, 1.0)]
    assert [(b.unsupported.numerator, b.unsupported.denominator) for b in got] == [(1, 3), (2, 3)]
    four = error_by_position([r1], policy="exclude", buckets=4)
    assert [b.unsupported.numerator for b in four] == [0, 0, 1, 1]
    one = error_by_position([r1], policy="exclude", buckets=1)
    assert [(b.unsupported.numerator, b.unsupported.denominator) for b in one] == [(2, 4)]
    empty = error_by_position([], policy="exclude", buckets=3)
    assert [b.unsupported.denominator for b in empty] == [0, 0, 0]
    assert PositionBucket(0.0, 0.5, Ratio(1, 3)).to_dict() == {
        "low": 0.0, "high": 0.5, "unsupported": Ratio(1, 3).to_dict(),
    }  # fmt: skip
    with pytest.raises(ValueError, match="buckets must be at least 1, got 0"):
        error_by_position([r1], policy="exclude", buckets=0)


def test_fact_revisions_by_hand():
    split = LabelledSentence("x", True, ("A and B",), (("A", "S"), ("B", "S")))
    merged = LabelledSentence("y", True, ("C", "D"), ((" C ", "S"),))
    same = LabelledSentence("z", True, ("E", "F"), (("E", "S"), ("G", "NS")))
    unlabelled = LabelledSentence("w", True, ("H",), None)
    got = fact_revisions([_r(split, merged), _r(same, unlabelled), ABSTAINED])
    assert got == FactRevisions(3, 5, 5, 2, 1, 1, 1)
    assert (got.kept_share.numerator, got.kept_share.denominator) == (2, 5)
    assert got.to_dict() == {
        "sentences": 3, "model_facts": 5, "human_facts": 5,
        "kept_verbatim": Ratio(2, 5).to_dict(),
        "sentences_more_facts_after_revision": 1, "sentences_fewer_facts_after_revision": 1,
        "sentences_same_count": 1,
    }  # fmt: skip


def test_revision_audit_by_hand():
    def resp(revised, *sentences):
        return SimpleNamespace(revised=revised, sentences=sentences)

    audit = revision_audit(
        [
            resp(
                "Paris is in France. Rome is big.",
                ("Paris is in France.", [True]),  # clean, kept
                ("Rome is in Spain.", [False, True]),  # false, revised
                ("Rome is big.", [False]),  # false, kept
                ("Maybe.", ["unknown"]),  # not counted
                ("Nothing.", []),  # not counted
            ),
            resp("  ", ("Lost.", [False])),  # no revision: not counted
            resp("Oslo.", (" Oslo. ", [True]), ("Bergen.", [True])),  # clean kept, clean revised
        ]
    )
    assert (audit.responses, audit.revised) == (3, 2)
    assert (audit.false_sentences, audit.false_kept) == (2, 1)
    assert (audit.clean_sentences, audit.clean_kept) == (3, 2)
    assert (audit.false_revised.numerator, audit.false_revised.denominator) == (1, 2)
    assert (audit.clean_kept_share.numerator, audit.clean_kept_share.denominator) == (2, 3)
    assert audit.to_dict() == {
        "responses": 3, "with_a_revision": 2,
        "false_sentences_revised": Ratio(1, 2).to_dict(),
        "clean_sentences_kept": Ratio(2, 3).to_dict(),
    }  # fmt: skip


# ------------------------------------------------------------------ the cases a mutant hid in


def test_labels_after_an_excluded_fact_still_count_and_the_policy_is_named():
    r = _r(_s("IR", "S", "NS"), _s("S"))
    assert fact_labels(r, "exclude") == ["S", "NS", "S"]
    with pytest.raises(ValueError, match="'strict'"):
        fact_labels(r, "strict")  # type: ignore[arg-type]


def test_an_abstention_keeps_its_topic_and_category_and_a_result_its_name():
    none = score_response(ABSTAINED, policy="paper")
    assert (none.topic, none.category) == ("quiet", ("freq",))
    assert score_factscore([ABSTAINED], policy="paper").name == ""


def test_an_estimator_check_is_frozen_and_zero_ranks_below_a_half():
    def result(v):
        return SimpleNamespace(factscore=v)

    got = check_estimator(
        {"zero": result(0.0), "half": result(0.5)},  # type: ignore[dict-item]
        {"zero": result(0.0), "half": result(0.5)},  # type: ignore[dict-item]
    )
    assert got.human_ranking == ("half", "zero") == got.estimated_ranking
    for field in ("human", "estimated", "error"):
        with pytest.raises(TypeError):
            getattr(got, field)["zero"] = 1.0


def test_one_true_and_one_false_is_decided():
    c = claim_precision([[True, False], [False, True, True, False]])
    assert c.responses_all_unknown == 0 and c.precision.counts == "3/6"


def test_positions_skip_a_response_without_facts_and_default_to_five_buckets():
    r1 = _r(_s("S", "NS"))
    got = error_by_position([ABSTAINED, _r(_s("IR")), r1], policy="exclude")
    assert len(got) == 5
    assert [b.unsupported.counts for b in got] == ["0/0", "0/1", "0/0", "1/1", "0/0"]


def test_revisions_count_every_labelled_sentence_after_an_unlabelled_one():
    unlabelled = LabelledSentence("w", True, ("H",), None)
    same1 = LabelledSentence("a", True, ("A",), (("A", "S"),))
    same2 = LabelledSentence("b", True, ("B", "C"), (("B", "S"), ("X", "NS")))
    more = LabelledSentence("c", True, ("D",), (("D", "S"), ("E", "S")))
    got = fact_revisions([_r(unlabelled, same1, same2, more)])
    assert (got.sentences, got.same_count, got.more_after_revision, got.fewer_after_revision) == (
        3, 2, 1, 0,
    )  # fmt: skip


def test_every_false_sentence_the_revision_keeps_is_counted():
    audit = revision_audit(
        [
            SimpleNamespace(
                revised="A. B. C.", sentences=(("A.", [False]), ("B.", [False]), ("C.", [True]))
            )
        ]
    )
    assert (audit.false_sentences, audit.false_kept, audit.clean_kept) == (2, 2, 1)
    assert audit.false_revised.counts == "0/2"
