import json
import math

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.factscore import (
    LabelledResponse,
    LabelledSentence,
    load_factcheck_gpt,
    load_labelled,
)
from claimlab.labs.factscore.simulations import simulate_estimator, simulated_subjects
from claimlab.metrics.factscore import (
    by_category,
    check_estimator,
    claim_precision,
    fact_labels,
    length_penalty,
    score_factscore,
)
from tests.conftest import require_data, run_cli


@pytest.mark.parametrize(
    ("n", "gamma", "expected"),
    [
        (1, 10, math.exp(1 - 10 / 1)),  # exp(-9) ~ 0.000123
        (9, 10, math.exp(1 - 10 / 9)),  # exp(-1/9) ~ 0.8948
        (10, 10, 1.0),  # n == gamma: no penalty
        (11, 10, 1.0),
        (3, 0, 1.0),  # gamma 0 turns it off
        (0, 10, 1.0),  # no facts: nothing to scale (the score itself is undefined)
    ],
)
def test_length_penalty_pinned(n, gamma, expected):
    assert length_penalty(n, gamma) == expected


def resp(i, *labels, relevant=True, model=None, responded=True, cat=("rare",)):
    if not responded:
        return LabelledResponse(i, f"t{i}", cat, None)
    facts = tuple((f"f{k}", lab) for k, lab in enumerate(labels))
    return LabelledResponse(
        i, f"t{i}", cat, (LabelledSentence("s", relevant, tuple(model or ()), facts),)
    )


@pytest.mark.parametrize(
    ("policy", "labels"),
    [
        ("exclude", ["S", "NS"]),  # IR leaves the denominator
        ("unsupported", ["S", "NS", "NS"]),  # IR counts as not supported
        ("paper", ["S", "NS", "NS", "NS", "NS"]),  # plus the irrelevant sentence's two model facts
    ],
)
def test_irrelevant_policies(policy, labels):
    r = LabelledResponse(
        1,
        "t",
        (),
        (
            LabelledSentence("a", True, ("x", "y", "z"), (("x", "S"), ("y", "NS"), ("z", "IR"))),
            LabelledSentence("b", False, ("p", "q"), None),
        ),
    )
    assert fact_labels(r, policy) == labels


def test_factscore_is_mean_over_responding_with_counts():
    rs = [resp(1, "S", "NS"), resp(2, "S", "S", "S", "S"), resp(3, responded=False)]
    r = score_factscore(rs, policy="exclude", gamma=0)
    assert r.factscore == pytest.approx((0.5 + 1.0) / 2)
    assert (r.respond.counts, r.scored, r.facts, r.supported) == ("2/3", 2, 6, 5)
    assert r.facts_per_response == 3.0
    with_penalty = score_factscore(rs, policy="exclude", gamma=10)
    expected = (0.5 * math.exp(1 - 10 / 2) + 1.0 * math.exp(1 - 10 / 4)) / 2
    assert with_penalty.factscore == pytest.approx(expected)
    assert with_penalty.init_score == pytest.approx(0.75)


def test_nobody_responding_is_na_with_zero_over_n():
    r = score_factscore([resp(i, responded=False) for i in range(4)], policy="paper")
    assert r.factscore is None and r.init_score is None
    assert r.respond.display == "0.0% (0/4)"
    assert r.display == "N/A (no scored response; respond 0.0% (0/4))"
    assert r.facts_per_response is None


def test_response_without_facts_is_undefined_not_zero():
    r = score_factscore([resp(1, "IR"), resp(2, "S")], policy="exclude", gamma=0)
    assert (r.scored, r.undefined, r.factscore) == (1, 1, 1.0)


def test_result_always_names_policy_and_gamma():
    d = score_factscore([resp(1, "S")], policy="unsupported", gamma=7).to_dict()
    assert (d["policy"], d["gamma"]) == ("unsupported", 7)
    with pytest.raises(ValueError, match="unknown irrelevant-fact policy"):
        score_factscore([resp(1, "S")], policy="maybe")


def test_simulated_pitfalls():
    subjects = simulated_subjects()
    r = {k: score_factscore(v, policy="exclude", gamma=0) for k, v in subjects.items()}
    assert r["thorough"].factscore == pytest.approx(0.7)
    assert r["brief"].factscore == 1.0 and r["abstainer"].factscore == 1.0
    assert r["abstainer"].respond.counts == "2/10"
    assert r["silent"].factscore is None and r["silent"].respond.counts == "0/10"
    pen = score_factscore(subjects["brief"], policy="exclude", gamma=10)
    assert pen.factscore == pytest.approx(math.exp(1 - 10 / 4))


def test_by_category_counts_per_bucket():
    rs = [
        resp(1, "S", cat=("rare", "Asia")),
        resp(2, "NS", cat=("freq", "Asia")),
        resp(3, responded=False, cat=("rare",)),
    ]
    b = by_category(rs, policy="exclude", gamma=0)
    assert (b["rare"].respond.counts, b["rare"].factscore) == ("1/2", 1.0)
    assert (b["freq"].respond.counts, b["freq"].factscore) == ("1/1", 0.0)


def test_simulated_estimator_is_deterministic_and_checks_ranking():
    rs = [resp(i, *(["S"] * 8 + ["NS"] * 2)) for i in range(20)]
    a = simulate_estimator(rs, flip_share=0.3, seed=1)
    assert a == simulate_estimator(rs, flip_share=0.3, seed=1)
    assert simulate_estimator(rs, flip_share=0.0) == rs
    human = {
        "good": score_factscore(rs, policy="exclude", gamma=0),
        "bad": score_factscore([resp(0, "NS")], policy="exclude", gamma=0),
    }
    est = {"good": score_factscore(a, policy="exclude", gamma=0), "bad": human["bad"]}
    c = check_estimator(human, est)
    assert c.ranking_kept and c.error["bad"] == 0.0 and c.error["good"] > 0


def test_claim_precision_keeps_unknown_apart():
    c = claim_precision([[True, True, False], ["unknown", "unknown"], []])
    assert c.precision.display == "66.7% (2/3)"
    assert (c.unknown, c.responses_all_unknown, c.responses) == (2, 2, 3)
    assert claim_precision([["unknown"]]).precision.display == "N/A (0/0)"


GOOD = {
    "input": "q",
    "topic": "T",
    "cat": ["rare", "Asia"],
    "annotations": [
        {
            "text": "s",
            "is-relevant": True,
            "model-atomic-facts": [{"text": "a"}],
            "human-atomic-facts": [{"text": "a", "label": "S"}],
        }
    ],
}


@pytest.mark.parametrize(
    ("edit", "field", "fragment"),
    [
        (
            lambda d: d["annotations"][0]["human-atomic-facts"][0].__setitem__("label", "X"),
            "annotations[0].human-atomic-facts[0].label",
            "one of S, NS, IR",
        ),
        (
            lambda d: d["annotations"][0]["human-atomic-facts"][0].pop("label"),
            "annotations[0].human-atomic-facts[0].label",
            "missing required field",
        ),
        (lambda d: d.pop("annotations"), "annotations", "missing required field"),
        (
            lambda d: d["annotations"][0].pop("is-relevant"),
            "annotations[0].is-relevant",
            "missing required field",
        ),
        (lambda d: d.pop("topic"), "topic", "missing"),
    ],
)
def test_malformed_line_names_file_line_and_field(tmp_path, edit, field, fragment):
    bad = json.loads(json.dumps(GOOD))
    edit(bad)
    p = tmp_path / "m.jsonl"
    p.write_text(json.dumps(GOOD) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ClaimlabInputError) as info:
        load_labelled(p)
    assert (info.value.file, info.value.field) == (str(p), field)
    assert info.value.record.startswith("line 2")
    assert fragment in str(info.value)


PAPER = {"InstructGPT": (42.5, 0.995), "ChatGPT": (58.3, 0.858), "PerplexityAI": (71.5, 0.907)}


@pytest.mark.realdata
def test_cli_reproduces_the_paper_human_table():
    files = [require_data("factscore", f"{m}.jsonl") for m in PAPER]
    proc = run_cli("factscore", *files, "--irrelevant", "paper", "--gamma", "0", "--json")
    assert proc.returncode == 0, proc.stderr
    out = {f["name"]: f for f in json.loads(proc.stdout)["files"]}
    for name, (score, respond) in PAPER.items():
        assert abs(out[name]["factscore_percent"] - score) <= 0.15, name
        assert abs(out[name]["respond_ratio"]["value"] - respond) <= 0.001, name
        assert out[name]["policy"] == "paper" and out[name]["gamma"] == 0


@pytest.mark.realdata
def test_factcheck_gpt_real_counts():
    c = claim_precision(
        load_factcheck_gpt(require_data("factcheck_gpt", "factcheck_gpt_benchmark.jsonl"))
    )
    assert (c.true, c.false, c.unknown) == (472, 159, 47)
    assert c.precision.display == "74.8% (472/631)"


def test_cli_bad_label_is_one_line(tmp_path):
    bad = json.loads(json.dumps(GOOD))
    bad["annotations"][0]["human-atomic-facts"][0]["label"] = "YES"
    p = tmp_path / "m.jsonl"
    p.write_text(json.dumps(bad) + "\n")
    proc = run_cli("factscore", p)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"claimlab factscore: error: {p}: line 1 (topic T): annotations[0].human-atomic-facts[0].label: "
        "label must be one of S, NS, IR, got 'YES'"
    )


@pytest.mark.parametrize("value", [{}, {"text": "x"}, "facts", 3])
def test_model_facts_that_are_not_a_list_are_refused_naming_the_field(tmp_path, value):
    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.factscore import load_labelled

    row = {"topic": "Kemal", "cat": ["rare"], "annotations": [
        {"text": "s", "is-relevant": True, "model-atomic-facts": value,
         "human-atomic-facts": [{"text": "Kemal sang.", "label": "S"}]}]}  # fmt: skip
    path = tmp_path / "f.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(ClaimlabInputError) as err:
        load_labelled(path)
    assert err.value.field.endswith("model-atomic-facts") and "line 1" in str(err.value)
