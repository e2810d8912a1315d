"""RAGChecker's metrics: a hand-worked query, N/A cases, a property test, the published example."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.ratio import Ratio
from claimlab.io.ragchecker import load_checking
from claimlab.metrics.rag import F1, RAG_METRICS, RATIO_METRICS, query_figures, score_rag
from tests.conftest import require_data

E, N, C = "Entailment", "Neutral", "Contradiction"


def checked(queries):
    """A checking-output document from (response labels, answer labels, r2resp, r2ans) tuples."""
    results = []
    queries = json.loads(json.dumps(queries))  # the caller's lists are never changed
    for i, (a2r, r2a, k2r, k2a, *extra) in enumerate(queries):
        chunks = extra[0] if extra else len((k2r or k2a)[0]) if (k2r or k2a) else 0
        results.append(
            {
                "query_id": f"q{i}",
                "query": f"question {i}",
                "response_claims": [f"r{j}" for j in range(len(a2r))],
                "gt_answer_claims": [f"g{j}" for j in range(len(r2a))],
                "retrieved_context": [{"doc_id": f"d{j}", "text": f"t{j}"} for j in range(chunks)],
                "answer2response": a2r,
                "response2answer": r2a,
                "retrieved2response": k2r,
                "retrieved2answer": k2a,
            }
        )
    return {"results": results}


def load(tmp_path, doc, name="c.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return load_checking(path)


# a query worked by hand: 4 response claims, 3 ground-truth claims, 3 chunks
# chunk d0 entails g0 and r0 (relevant); d1 entails r1 and r2 (irrelevant: no g); d2 entails g1
HAND = (
    [E, C, E, N],  # r0 correct, r1 wrong, r2 correct, r3 wrong
    [E, N, E],  # g0 and g2 in the response
    [[E, N, N], [N, E, N], [N, E, N], [N, N, N]],
    [[E, N, N], [N, N, E], [N, N, N]],
)
HAND_WANT = {
    "precision": (2, 4),
    "recall": (2, 3),
    "claim_recall": (2, 3),  # g0 (d0), g1 (d2)
    "context_precision": (2, 3),  # d0, d2
    "context_utilization": (1, 2),  # of g0, g1 retrieved, g0 is in the response
    "noise_sensitivity_in_relevant": (0, 4),
    "noise_sensitivity_in_irrelevant": (1, 4),  # r1: wrong, entailed by d1 only
    "hallucination": (1, 4),  # r3: wrong, no chunk
    "self_knowledge": (0, 4),
    "faithfulness": (3, 4),
}


def test_a_query_worked_by_hand(tmp_path):
    f = query_figures(load(tmp_path, checked([HAND])).queries[0])
    assert {m: (r.numerator, r.denominator) for m, r in f.ratios.items()} == HAND_WANT
    assert f.f1.value == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


@pytest.mark.parametrize(
    ("query", "undefined"),
    [
        (([], [E, N], [], [[E], [N]]), {"precision", "noise_sensitivity_in_relevant",
            "noise_sensitivity_in_irrelevant", "hallucination", "self_knowledge", "faithfulness", "f1"}),
        (([E, N], [], [[E], [N]], []), {"recall", "claim_recall", "context_utilization", "f1"}),
        (([E], [E], [[]], [[]]), {"context_precision", "context_utilization"}),
        (([E], [E], [[N]], [[N]]), {"context_utilization"}),  # nothing retrieved recalls g0
    ],
    ids=["no-response-claim", "no-answer-claim", "no-chunk", "nothing-retrieved"],
)  # fmt: skip
def test_empty_denominators_are_na_never_zero(tmp_path, query, undefined):
    f = query_figures(load(tmp_path, checked([query])).queries[0])
    assert {m for m in RAG_METRICS if f.figure(m).value is None} == undefined


def test_f1_is_zero_when_both_parts_are_zero_and_na_when_one_is_na():
    assert F1(Ratio(0, 3), Ratio(0, 2)).value == 0.0
    assert F1(Ratio(0, 0), Ratio(1, 2)).value is None
    assert F1(Ratio(1, 1), Ratio(1, 1)).value == 1.0
    assert F1(Ratio(1, 2), Ratio(1, 2)).value == pytest.approx(0.5)  # P = R: F1 = P


def test_macro_leaves_na_queries_out_and_counts_them_micro_pools(tmp_path):
    na_precision = ([], [E], [], [[E]])
    report = score_rag(load(tmp_path, checked([HAND, na_precision])))
    assert report.macro["precision"].defined == 1 and report.macro["precision"].undefined == 1
    assert report.macro["precision"].value == 0.5
    assert report.micro["precision"] == Ratio(2, 4)
    assert report.macro["recall"].value == pytest.approx((2 / 3 + 1) / 2)
    assert report.micro["recall"] == Ratio(3, 4)
    data = report.to_dict()
    assert data["queries"] == 2 and data["macro"]["precision"]["left_out"] == 1


def hand(a2r, r2a, k2r, k2a, nk, noise="ragchecker"):
    """The definitions again, as boolean matrix algebra (independent of the loop scorer)."""
    correct = np.array(a2r, bool)
    recalled = np.array(r2a, bool)
    kr = np.array(k2r, bool).reshape(len(a2r), nk)
    ka = np.array(k2a, bool).reshape(len(r2a), nk)
    relevant = ka.any(axis=0)
    retrieved = ka.any(axis=1)
    faithful = kr.any(axis=1)
    rel = (kr & relevant).any(axis=1)
    irr = (kr & ~relevant).any(axis=1) & ~rel
    nr, ng = len(a2r), len(r2a)
    if ng == 0 and noise == "ragchecker":  # RAGChecker's guard: no ground-truth claim, no noise
        irr = irr & False
    return {
        "precision": (correct.sum(), nr), "recall": (recalled.sum(), ng),
        "claim_recall": (retrieved.sum(), ng), "context_precision": (relevant.sum(), nk),
        "context_utilization": ((retrieved & recalled).sum(), retrieved.sum()),
        "noise_sensitivity_in_relevant": ((~correct & rel).sum(), nr),
        "noise_sensitivity_in_irrelevant": ((~correct & irr).sum(), nr),
        "hallucination": ((~correct & ~faithful).sum(), nr),
        "self_knowledge": ((correct & ~faithful).sum(), nr),
        "faithfulness": (faithful.sum(), nr),
    }  # fmt: skip


@st.composite
def label_sets(draw):
    nr, ng, nk = draw(st.integers(0, 5)), draw(st.integers(0, 5)), draw(st.integers(1, 4))
    lab = st.sampled_from([E, N, C])
    return (
        draw(st.lists(lab, min_size=nr, max_size=nr)),
        draw(st.lists(lab, min_size=ng, max_size=ng)),
        draw(st.lists(st.lists(lab, min_size=nk, max_size=nk), min_size=nr, max_size=nr)),
        draw(st.lists(st.lists(lab, min_size=nk, max_size=nk), min_size=ng, max_size=ng)),
        nk,
    )


@settings(max_examples=150, deadline=None)
@given(
    queries=st.lists(label_sets(), min_size=1, max_size=4),
    noise=st.sampled_from(["ragchecker", "paper"]),
)
def test_every_metric_equals_the_hand_computation_on_random_labels(
    tmp_path_factory, queries, noise
):
    tmp = tmp_path_factory.mktemp("rag")
    report = score_rag(load(tmp, checked(queries)), noise=noise)
    assert report.noise == noise and report.to_dict()["noise_sensitivity_rule"] == noise
    for q, f in zip(queries, report.per_query, strict=True):
        a2r, r2a, k2r, k2a, nk = q
        flags = [[x == E for x in a2r], [x == E for x in r2a]]
        want = hand(
            *flags,
            [[x == E for x in r] for r in k2r],
            [[x == E for x in r] for r in k2a],
            nk,
            noise,
        )
        for m in RATIO_METRICS:
            r = f.ratios[m]
            assert (r.numerator, r.denominator) == tuple(int(v) for v in want[m]), m
            assert (r.value is None) == (want[m][1] == 0)
    for m in RATIO_METRICS:
        defined = [f.ratios[m].value for f in report.per_query if f.ratios[m].value is not None]
        mean = report.macro[m]
        assert mean.defined == len(defined)
        assert mean.value == (pytest.approx(sum(defined) / len(defined)) if defined else None)


@pytest.mark.realdata
def test_the_published_example_every_query_metric_and_the_overall_figures():
    checking = load_checking(require_data("ragchecker", "checking_outputs.json"))
    report = score_rag(checking)
    assert len(report.per_query) == 2
    for q, f in zip(checking.queries, report.per_query, strict=True):
        for m in RAG_METRICS:
            assert f.figure(m).value == pytest.approx(q.published[m], abs=1e-12), (q.query_id, m)
    for m in RAG_METRICS:  # RAGChecker prints the mean over queries in percent, one decimal
        assert round(100 * report.macro[m].value, 1) == checking.published[m], m
    assert report.micro["precision"] == Ratio(12, 16) and report.micro["faithfulness"] == Ratio(
        9, 16
    )


def test_the_json_form_of_a_report_names_every_figure(tmp_path):
    """``claimlab rag --json``: keys, values, counts and displays of the macro, micro and
    per-query figures (the hand-worked query and one with no response claim)."""
    na_precision = ([], [E], [], [[E]])
    report = score_rag(load(tmp_path, checked([HAND, na_precision]), name="two.json"))
    d = report.to_dict()
    assert d["file"].endswith("two.json") and d["queries"] == 2
    assert d["macro"]["precision"] == {
        "value": 0.5, "queries": 1, "left_out": 1, "defined": 1, "undefined": 1,
        "display": report.macro["precision"].display,
    }  # fmt: skip
    assert d["macro"]["recall"]["queries"] == 2 and d["macro"]["recall"]["left_out"] == 0
    assert d["micro"]["precision"] == Ratio(2, 4).to_dict()
    assert d["micro"]["f1"] == {
        "value": pytest.approx(2 * 0.5 * 0.75 / 1.25),
        "numerator": 12,  # 2ac = 2 * 2 * 3
        "denominator": 20,  # ad + bc = 2 * 4 + 4 * 3
        "precision": Ratio(2, 4).to_dict(),
        "recall": Ratio(3, 4).to_dict(),
        "display": "60.0% (P 2/4, R 3/4)",
    }
    first, second = d["per_query"]
    assert (first["query_id"], second["query_id"]) == ("q0", "q1")
    assert list(first) == ["query_id", *RAG_METRICS]
    assert first["faithfulness"] == Ratio(3, 4).to_dict()
    assert second["f1"]["value"] is None and second["f1"]["display"] == "N/A (P 0/0, R 1/1)"
    assert [q.query_id for q in report.per_query] == ["q0", "q1"]


def test_a_report_cannot_be_changed_after_it_is_made(tmp_path):
    report = score_rag(load(tmp_path, checked([HAND])))
    for mapping in (report.macro, report.micro, report.published, report.per_query[0].ratios):
        with pytest.raises(TypeError):
            mapping["precision"] = Ratio(0, 1)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("chunk_answer", ((True, False), (True,))),  # rows of two lengths
        ("chunk_response", ((True, False, False),) * 3),  # fewer rows than response claims
        ("recalled", (True,)),  # fewer than the answer's claims
    ],
)
def test_ragged_matrices_built_in_code_are_refused(tmp_path, field, value):
    """The loader refuses a ragged file first; a query built in code is checked all the same."""
    import dataclasses

    q = load(tmp_path, checked([HAND])).queries[0]
    with pytest.raises(ValueError, match="zip"):
        query_figures(dataclasses.replace(q, **{field: value}))


# --- official edge: RAGChecker's guard on noise sensitivity ----------------------------------


def ragchecker_noise(a2r, k2r, k2a):
    """RAGChecker's published noise-sensitivity arithmetic, restated: both figures are computed
    only when there are response claims, chunks and ground-truth claims; 0 otherwise."""
    correct = np.array([x == E for x in a2r], bool)
    kr = np.array([[x == E for x in r] for r in k2r], bool)
    ka = np.array([[x == E for x in r] for r in k2a], bool)
    if not (len(correct) and kr.ndim == 2 and kr.shape[1] and len(ka)):
        return 0.0, 0.0
    relevant = ka.max(axis=0, keepdims=True)
    rel = (relevant & kr).max(axis=1)
    irr = (~relevant & kr).max(axis=1) & ~rel
    return float(np.mean(rel & ~correct)), float(np.mean(irr & ~correct))


# (case, query, rule, (relevant counts), (irrelevant counts)): six response claims, a ground
# truth with no claim, and one wrong claim entailed by a chunk: RAGChecker 0, the paper 1/6
NO_ANSWER_CLAIM = ([C, E, E, E, E, E], [], [[E, N]] + [[N, N]] * 5, [])
NOISE_CASES = [
    ("en: no ground-truth claim, ragchecker", NO_ANSWER_CLAIM, "ragchecker", (0, 6), (0, 6)),
    ("en: no ground-truth claim, paper", NO_ANSWER_CLAIM, "paper", (0, 6), (1, 6)),
    ("tr: yanıtın iddiası yok, ragchecker", NO_ANSWER_CLAIM, "ragchecker", (0, 6), (0, 6)),
    ("with ground-truth claims both rules agree", HAND, "ragchecker", (0, 4), (1, 4)),
    ("with ground-truth claims, paper", HAND, "paper", (0, 4), (1, 4)),
]


@pytest.mark.parametrize(
    ("case", "query", "rule", "relevant", "irrelevant"),
    NOISE_CASES,
    ids=[c[0] for c in NOISE_CASES],
)
def test_noise_sensitivity_without_ground_truth_claims(
    tmp_path, case, query, rule, relevant, irrelevant
):
    f = query_figures(load(tmp_path, checked([query])).queries[0], noise=rule)
    got = [f.ratios[f"noise_sensitivity_in_{k}"] for k in ("relevant", "irrelevant")]
    assert [(r.numerator, r.denominator) for r in got] == [relevant, irrelevant]
    if rule == "ragchecker":
        assert tuple(r.value for r in got) == pytest.approx(
            ragchecker_noise(*query[:1], *query[2:4])
        )


def test_a_file_where_most_queries_have_no_ground_truth_claim(tmp_path):
    """46 of 60 queries with no ground-truth claim: RAGChecker's macro figure, not 1/6 on each."""
    queries = [NO_ANSWER_CLAIM] * 46 + [HAND] * 14
    report = score_rag(load(tmp_path, checked(queries)))
    macro = report.macro["noise_sensitivity_in_irrelevant"]
    assert (macro.defined, macro.undefined) == (60, 0)
    assert macro.value == pytest.approx(14 * 0.25 / 60)
    assert report.micro["noise_sensitivity_in_irrelevant"] == Ratio(14, 46 * 6 + 14 * 4)
    paper = score_rag(load(tmp_path, checked(queries), name="p.json"), noise="paper")
    assert paper.macro["noise_sensitivity_in_irrelevant"].value == pytest.approx(
        (46 / 6 + 14 * 0.25) / 60
    )


def test_an_unknown_noise_rule_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown noise rule 'strict'"):
        score_rag(load(tmp_path, checked([HAND])), noise="strict")


@settings(max_examples=80, deadline=None)
@given(query=label_sets())
def test_noise_sensitivity_equals_ragchecker_on_generated_queries(tmp_path_factory, query):
    """Invariant: by default both noise sensitivities have RAGChecker's value wherever it
    computes one and wherever its guard writes 0 with claims in the response (|R| > 0)."""
    a2r, r2a, k2r, k2a, _ = query
    f = query_figures(load(tmp_path_factory.mktemp("rag"), checked([query])).queries[0])
    got = tuple(f.ratios[f"noise_sensitivity_in_{k}"].value for k in ("relevant", "irrelevant"))
    if a2r:
        assert got == pytest.approx(ragchecker_noise(a2r, k2r, k2a))
    else:
        assert got == (None, None)  # 0/0: N/A where RAGChecker writes 0


@settings(max_examples=60, deadline=None)
@given(query=label_sets(), noise=st.sampled_from(["ragchecker", "paper"]))
def test_the_counted_totals_are_the_sums_of_the_per_claim_flags(tmp_path_factory, query, noise):
    """Invariant: what a query's figures count (term_totals) is what its per-claim view shows
    (term_counts), metric by metric."""
    from claimlab.metrics.rag import claim_flags, term_counts, term_totals

    q = load(tmp_path_factory.mktemp("rag"), checked([query])).queries[0]
    flags = claim_flags(q, noise=noise)
    for m in RATIO_METRICS:
        num, den = term_counts(flags, m)
        assert term_totals(flags, m) == (sum(num), sum(den)), m
        assert all(type(x) is int for x in term_totals(flags, m))


@settings(max_examples=60, deadline=None)
@given(queries=st.lists(label_sets(), min_size=8, max_size=25), rnd=st.randoms())
def test_the_figures_are_the_same_to_the_last_digit_in_any_query_order(
    tmp_path_factory, queries, rnd
):
    """Macro means are summed exactly: the order of the file's queries changes no digit."""
    tmp = tmp_path_factory.mktemp("rag")
    doc = checked(queries)
    before = score_rag(load(tmp, doc)).to_dict()
    rnd.shuffle(doc["results"])
    after = score_rag(load(tmp, doc, "shuffled.json")).to_dict()
    assert before["macro"] == after["macro"] and before["micro"] == after["micro"]
