"""Common invariants every metric that returns a Ratio must keep (STYLE habit 10).

In the manner of scikit-learn's common tests: a registry of metrics, each with a way to build
inputs, to call it and to read its Ratios back, and one set of checks run over all of them:

* 0/0 is N/A: a Ratio with denominator 0 has value None and displays ``N/A (0/0)``;
* an input with nothing to count gives N/A, not 0 % and not 100 %;
* the order of inputs that should not matter does not change any Ratio;
* the counts match the id lists the result carries;
* inputs are left untouched.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pytest

from claimlab.core.ratio import Ratio
from claimlab.io.context_lab import Answer, Chunk, Claim
from claimlab.io.decomposition import load_decomposition
from claimlab.io.factscore import LabelledResponse, LabelledSentence
from claimlab.io.fever import GoldClaim, Prediction
from claimlab.labs.ledger.demo import demo_ledger
from claimlab.metrics.citations import score_citations
from claimlab.metrics.context_budget import calibrate_threshold, threshold_counts
from claimlab.metrics.decomposition import score_decomposition
from claimlab.metrics.factscore import claim_precision, score_factscore
from claimlab.metrics.fever import score_fever
from claimlab.metrics.ledger import count_ledger, summarise
from claimlab.metrics.selective import SelectiveItem, risk_coverage, score_selective
from tests.conftest import FIXTURES

FX = load_decomposition(FIXTURES / "atlas_nova.json")


@dataclass(frozen=True)
class Case:
    """A metric in the registry."""

    name: str
    examples: Callable[[random.Random], list[Any]]  # a few inputs, made from a seeded rng
    empty: Any  # an input with nothing to count
    ratios: Callable[[Any], dict[str, Ratio]]  # call the metric; its Ratios by name
    shuffle: Callable[[Any, random.Random], Any]  # the input in an order that must not matter
    counts: Callable[[Any], list[tuple[Ratio, int, int]]]  # (ratio, numerator, denominator)


def _decomposition_examples(rng):
    ids = list(FX.candidate_ids)
    return [list(m) for m in FX.modes.values()] + [
        rng.sample(ids, rng.randint(1, 6)) for _ in range(4)
    ]


def _decomposition_counts(sel):
    r = score_decomposition(FX, sel)
    return [
        (r.preservation, len(r.faithful_ids), len(r.unique_ids)),
        (r.coverage, len(r.preserved_units), len(r.preserved_units) + len(r.missing_units)),
        (r.raw_support, r.raw_status_counts["SUPPORTED"], len(sel)),
        (r.confirmed_support, r.status_counts["SUPPORTED"], len(r.unique_ids)),
    ]


def _decomposition_shuffle(sel, rng):
    # the unique selection keeps the first of two duplicates: only orders that keep each
    # fingerprint's first member first are equivalent, so shuffle the duplicate-free part
    fps = [FX.candidate(c).fingerprint for c in sel]
    if len(set(fps)) < len(fps):
        return list(sel)
    return rng.sample(sel, len(sel))


def _items(rng):
    out = []
    for i in range(rng.randint(1, 12)):
        answered = rng.random() < 0.6
        out.append(
            SelectiveItem(
                f"q{i}",
                answered,
                (rng.random() < 0.7) if answered else None,
                rng.random() < 0.5,
                round(rng.random(), 2),
            )
        )
    return out


def _selective(items):
    s = score_selective(items)
    out = {"accuracy": s.accuracy, "coverage": s.coverage}
    for row in risk_coverage(items, [0.0, 0.5, 0.9]):
        out[f"coverage@{row.threshold}"] = row.coverage
        out[f"accuracy@{row.threshold}"] = row.accuracy
    return out


def _selective_counts(items):
    s = score_selective(items)
    answered = [i for i in items if i.answered]
    return [
        (s.accuracy, sum(1 for i in answered if i.correct), len(answered)),
        (s.coverage, len(answered), len(items)),
    ]


LABELS = ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]


def _fever_pairs(rng):
    pairs = []
    for i in range(rng.randint(1, 10)):
        label = rng.choice(LABELS)
        groups = () if label == LABELS[2] else tuple(
            tuple(("P", rng.randint(0, 5)) for _ in range(rng.randint(1, 2)))
            for _ in range(rng.randint(1, 2))
        )  # fmt: skip
        evidence = tuple(("P", rng.randint(0, 5)) for _ in range(rng.randint(0, 4)))
        pairs.append(
            (GoldClaim(i, label, "c", groups), Prediction(i, rng.choice(LABELS), evidence))
        )
    return pairs


def _fever(pairs):
    r = score_fever(pairs)
    return {"strict": r.strict, "label": r.label, "recall": r.recall}


def _fever_counts(pairs):
    r = score_fever(pairs)
    verifiable = [g for g, _ in pairs if g.label != "NOT ENOUGH INFO"]
    return [
        (r.strict, sum(c.strict_correct for c in r.claims), len(pairs)),
        (r.label, sum(c.label_correct for c in r.claims), len(pairs)),
        (r.recall, sum(bool(c.recall_hit) for c in r.claims), len(verifiable)),
    ]


def _responses(rng):
    out = []
    for i in range(rng.randint(1, 8)):
        if rng.random() < 0.3:
            out.append(LabelledResponse(i, f"t{i}", (), None))
            continue
        facts = tuple((f"f{k}", rng.choice(["S", "NS", "IR"])) for k in range(rng.randint(0, 5)))
        sentence = LabelledSentence("s", True, tuple(t for t, _ in facts), facts)
        out.append(LabelledResponse(i, f"t{i}", (), (sentence,)))
    return out


def _factscore(responses):
    r = score_factscore(responses, policy="exclude", gamma=0)
    labels = [
        [lab == "S" for _, lab in (resp.sentences[0].human_facts or ()) if lab != "IR"]
        for resp in responses
        if resp.sentences
    ]
    return {"respond": r.respond, "claim precision": claim_precision(labels).precision}


def _factscore_counts(responses):
    r = score_factscore(responses, policy="exclude", gamma=0)
    return [(r.respond, sum(1 for x in responses if x.responded), len(responses))]


def _ledger(tables):
    cand, units = tables
    result = summarise(count_ledger(cand, units, by="model"), by="model")
    out = {f"micro {k}": v for k, v in result.corpus.micro.items()}
    for name, g in result.groups.items():
        out.update({f"{name} {k}": v for k, v in g.micro.items()})
    return out


def _ledger_examples(rng):
    return [demo_ledger(rng.randint(1, 25), seed=rng.randint(0, 99)) for _ in range(3)]


def _ledger_shuffle(tables, rng):
    """Whole answers in another order (within an answer, file order decides the duplicates)."""
    cand, units = tables
    answers = list(dict.fromkeys(cand["answer_id"].to_pylist()))
    rng.shuffle(answers)
    rank = {a: i for i, a in enumerate(answers)}
    order = sorted(range(cand.num_rows), key=lambda i: (rank[cand["answer_id"][i].as_py()], i))
    return cand.take(pa.array(order)), units.take(
        pa.array(rng.sample(range(units.num_rows), units.num_rows))
    )


def _ledger_counts(tables):
    cand, units = tables
    table = count_ledger(cand, units, by="model").table
    micro = summarise(count_ledger(cand, units, by="model"), by=None).corpus.micro
    return [
        (micro["raw_support"], int(table["supported_raw"].sum()), int(table["raw"].sum())),
        (micro["coverage"], int(table["covered"].sum()), int(table["units"].sum())),
    ]


def _answers(rng):
    chunks = [Chunk(f"k{i}", "Doc", "v1", 1 - i / 10, f"Clause {i}: requests of type {i} are answered in {i} days.") for i in range(4)]  # fmt: skip
    out = []
    for _ in range(4):
        claims = []
        for j in range(rng.randint(0, 4)):
            k = rng.randint(0, 5)
            claims.append(
                Claim(f"Requests of type {j} are answered in {j} days", f"k{k}", f"requests of type {rng.randint(0, 3)} are answered")
            )  # fmt: skip
        text = " ".join(c.text + "." for c in claims) or "Nothing."
        out.append((Answer(text, tuple(claims), False, "en"), chunks))
    return out


def _citations(inp):
    answer, sent = inp
    return {"verified": score_citations(answer, sent).verified}


def _citations_shuffle(inp, rng):
    answer, sent = inp
    return answer, rng.sample(sent, len(sent))  # the order chunks were sent in does not matter


def _citations_counts(inp):
    answer, sent = inp
    r = score_citations(answer, sent)
    failed = {p.claim for p in r.problems if p.claim > 0}
    return [(r.verified, len(answer.claims) - len(failed), len(answer.claims))]


def _scored(rng):
    return [
        [(round(rng.random(), 2), rng.random() < 0.4) for _ in range(rng.randint(1, 9))]
        for _ in range(4)
    ]


def _calibration(items):
    out = {}
    for t in (0.0, 0.5, 0.99):
        p, r = threshold_counts(items, t)
        out[f"precision@{t}"], out[f"recall@{t}"] = p, r
    c = calibrate_threshold(items, target_precision=0.8)
    out["calibrated precision"], out["calibrated recall"] = c.precision, c.recall
    return out


def _calibration_counts(items):
    p, r = threshold_counts(items, 0.5)
    passed = [rel for s, rel in items if s >= 0.5]
    return [(p, sum(passed), len(passed)), (r, sum(passed), sum(1 for _, rel in items if rel))]


CASES = [
    Case("decomposition", _decomposition_examples, [], lambda s: score_decomposition(FX, s).ratios(),
         _decomposition_shuffle, _decomposition_counts),
    Case("selective answering", lambda rng: [_items(rng) for _ in range(5)], [], _selective,
         lambda x, rng: rng.sample(x, len(x)), _selective_counts),
    Case("fever", lambda rng: [_fever_pairs(rng) for _ in range(5)], [], _fever,
         lambda x, rng: rng.sample(x, len(x)), _fever_counts),
    Case("factscore", lambda rng: [_responses(rng) for _ in range(5)], [], _factscore,
         lambda x, rng: rng.sample(x, len(x)), _factscore_counts),
    Case("ledger", _ledger_examples, demo_ledger(0), _ledger, _ledger_shuffle, _ledger_counts),
    Case("citations", _answers, (Answer("", (), False, "en"), [Chunk("k", "D", "1", 1.0, "t")]),
         _citations, _citations_shuffle, _citations_counts),
    Case("context budget (calibration)", _scored, [], _calibration,
         lambda x, rng: rng.sample(x, len(x)), _calibration_counts),
]  # fmt: skip
IDS = [c.name for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_zero_denominator_is_na(case):
    for inp in [case.empty, *case.examples(random.Random(1))]:
        for name, r in case.ratios(inp).items():
            assert isinstance(r, Ratio), name
            if r.denominator == 0:
                assert r.value is None and r.display == "N/A (0/0)", (case.name, name)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_nothing_to_count_is_na_not_zero_or_one(case):
    ratios = case.ratios(case.empty)
    undefined = [n for n, r in ratios.items() if r.denominator == 0]
    assert undefined, f"{case.name}: an empty input left no ratio undefined: {ratios}"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_order_that_should_not_matter_does_not(case):
    rng = random.Random(2)
    for inp in case.examples(rng):
        base = {k: (r.numerator, r.denominator) for k, r in case.ratios(inp).items()}
        for _ in range(3):
            again = {
                k: (r.numerator, r.denominator)
                for k, r in case.ratios(case.shuffle(inp, rng)).items()
            }
            assert again == base, case.name


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_counts_match_the_id_lists(case):
    for inp in case.examples(random.Random(3)):
        for ratio, numerator, denominator in case.counts(inp):
            assert (ratio.numerator, ratio.denominator) == (numerator, denominator), case.name


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_inputs_are_not_mutated(case):
    for inp in case.examples(random.Random(4)):
        before = (
            copy.deepcopy(inp)
            if not isinstance(inp, tuple) or not isinstance(inp[0], pa.Table)
            else inp
        )
        snapshot = repr(before)
        case.ratios(inp)
        assert repr(inp) == snapshot, case.name


def test_the_registry_covers_every_metric_module_that_returns_a_ratio():
    covered = {"decomposition", "selective answering", "fever", "factscore", "ledger", "citations",
               "context budget (calibration)"}  # fmt: skip
    assert covered == set(IDS)


def test_decomposition_order_keeps_raw_and_coverage_for_every_permutation():
    """The exhaustive form for the fixture's modes: 24 orders each."""
    for sel in [list(ids) for ids in FX.modes.values()] + [["C6", "C1"], ["C11", "C1", "C3"]]:
        base = score_decomposition(FX, sel)
        for perm in itertools.islice(itertools.permutations(sel), 24):
            r = score_decomposition(FX, list(perm))
            assert r.raw_support == base.raw_support and r.coverage == base.coverage
            assert r.preservation.denominator == base.preservation.denominator
