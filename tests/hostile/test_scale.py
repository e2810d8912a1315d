"""The inputs that once took quadratic time, run for their results and for how their time grows.

No test here asserts seconds (a busy machine made absolute ceilings fail although nothing was
slower than linear). Each case runs at n/10 and at n through :func:`tests.growth.grows_linearly`:
the time at n may be at most GROWTH times the time at n/10. The figures
themselves are the benchmarks' (benchmarks/bench_scale.py, bench_gold.py).
"""

import sys

import pytest

from tests.conftest import ROOT
from tests.growth import grows_linearly

sys.path.insert(0, str(ROOT / "benchmarks"))
from scale_inputs import citation_files, decomposition_file, sufficiency_file  # noqa: E402

pytestmark = pytest.mark.slow


def test_100k_candidates_load_and_score(tmp_path):
    from claimlab.io.decomposition import load_decomposition
    from claimlab.metrics.decomposition import score_decomposition

    def score(path):
        fx = load_decomposition(path)
        return score_decomposition(fx, fx.mode("all"))

    r = grows_linearly(
        "100,000 candidates", lambda n, d: decomposition_file(d, n), score, 100_000,
        folder=tmp_path,
    )  # fmt: skip
    assert r.raw_support.counts == "100000/100000"
    assert len(r.unique_ids) == 50_000 and len(r.duplicates) == 50_000  # fp{i % 50000}
    assert r.coverage.counts == "1000/1000"


def test_20k_alternatives_with_thousands_of_stand_ins(tmp_path):
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.metrics.sufficiency import MAX_STAND_INS, score_fixture_sufficiency

    def judge(inputs):
        path, context = inputs
        return score_fixture_sufficiency(load_sufficiency(path), "q", context.split(","))

    r = grows_linearly(
        "20,000 alternatives", lambda n, d: sufficiency_file(d, n), judge, 20_000,
        folder=tmp_path, repeats=3,
    )  # fmt: skip
    assert r.status == "SUFFICIENT" and len(r.witnesses) == 10_000
    incomplete = [b for b in r.branches if not b.complete]
    assert len(incomplete) == 10_000 and all(len(b.missing) == 1 for b in incomplete)
    assert max(len(b.link_errors) for b in r.branches) <= 2 * MAX_STAND_INS


def test_3000_claims_over_3000_chunks(tmp_path):
    from claimlab.io.context_lab import load_answer, load_chunks
    from claimlab.metrics.citations import score_citations

    report = grows_linearly(
        "3,000 claims over 3,000 chunks",
        lambda n, d: citation_files(d, n, n),
        lambda ac: score_citations(load_answer(ac[0]), load_chunks(ac[1])),
        3000,
        folder=tmp_path,
        repeats=3,
    )
    codes = [p.code for p in report.problems]
    assert codes.count("QUOTE_NOT_FOUND") == 3000
    # trigram sets cannot tell "type 1111" from "type 111", numbers can: each claim goes to
    # the sentence holding its number, and none is left uncovered
    assert codes.count("UNCOVERED_SENTENCE") == 0
    assert "it occurs in doc#1 instead" in report.problems[0].explanation


def test_20000_claims_over_20000_chunks_each_restating_its_sentence(tmp_path):
    """The quote looked for elsewhere through the chunk index, the sentences matched through the
    trigram index, the declared sentences found by key: linear (each was a scan per claim)."""
    from claimlab.io.context_lab import load_answer, load_chunks
    from claimlab.metrics.citations import score_citations

    report = grows_linearly(
        "20,000 claims over 20,000 chunks",
        lambda n, d: citation_files(d, n, n, restates=True),
        lambda ac: score_citations(load_answer(ac[0]), load_chunks(ac[1])),
        20_000,
        folder=tmp_path,
    )
    codes = [p.code for p in report.problems]
    assert codes.count("QUOTE_NOT_FOUND") == 20_000 and len(codes) == 20_000
    assert report.problems[12344].explanation.endswith(
        "not occur in doc#12344; it occurs in doc#12345 instead"
    )


def test_sparse_and_pairwise_sentence_matching_agree():
    import random

    from claimlab.metrics.citations import _best_matches_indexed, _trigrams, best_matches

    rng = random.Random(4)
    words = ["izin", "talebi", "gün", "önce", "leave", "request", "days", "ahead", "ลา", "พักร้อน"]
    sentences = [" ".join(rng.choices(words, k=rng.randint(1, 6))) for _ in range(120)]
    claims = [" ".join(rng.choices(words, k=rng.randint(1, 5))) for _ in range(80)]
    small = best_matches(claims[:10], sentences[:10])
    assert small == _best_matches_indexed(
        [_trigrams(c) for c in claims[:10]], [_trigrams(s) for s in sentences[:10]], least=3
    )
    pairwise = [
        best_matches([c], sentences)[0]
        for c in claims  # 1 x 120: the pair-by-pair path
    ]
    assert best_matches(claims, sentences) == pairwise  # 80 x 120: the indexed path


def test_notebook_05_exercises_on_3000_claims_over_3000_chunks(tmp_path):
    """The exercises look for each unfound quote in every chunk: one search per claim."""
    from claimlab.io.context_lab import ContextLab, load_answer, load_chunks
    from claimlab.labs.context.lesson import context_exercises
    from claimlab.metrics.citations import score_citations
    from claimlab.metrics.context_budget import pack

    def prepare(n, folder):
        a, c = citation_files(folder, n, n)
        chunks = tuple(load_chunks(c))
        lab = ContextLab(str(c), "q", chunks, {"big": load_answer(a)}, (), 0.9, ())
        packed = pack(chunks, max_chunks=len(chunks), max_tokens=10**9)
        return lab, packed, {"big": score_citations(lab.answers["big"], chunks)}

    exercises = grows_linearly(
        "the exercises of 3,000 claims over 3,000 chunks",
        prepare,
        lambda inputs: context_exercises(*inputs, []),
        3000,
        folder=tmp_path,
        repeats=3,
    )
    assert "`big`" in exercises[1].question


# ------------------------------------------------------------------ the gold-set round trip
# (timings: benchmarks/bench_gold.py; the quadratic versions were list scans per candidate and
# a glob of the output folder per file written)


def test_draft_of_20000_answers_and_one_answer_of_2000_sentences(tmp_path):
    from scale_inputs import raw_answers

    from tests.conftest import run_cli

    proc = grows_linearly(
        "draft of 20,000 answers",
        lambda n, d: raw_answers(d, n),
        lambda raw: run_cli("draft", raw, "--out", raw.parent / "drafts"),
        20_000,
        folder=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(list((tmp_path / "n20000" / "drafts").glob("*.json"))) == 20_000
    assert "20000 drafts written" in proc.stdout
    from claimlab.io.raw import RawAnswer
    from claimlab.labs.annotation.draft import draft_document

    def one_answer(n, _folder):
        sentences = [f"Gate {i} opens at {i % 24}:00 for lane {i % 7}." for i in range(n)]
        return RawAnswer("long", 1, " ".join(sentences), "v", tuple(sentences), None, (),
                         tuple({} for _ in sentences))  # fmt: skip

    _, summary = grows_linearly(
        "one answer of 2,000 sentences and 2,000 subclaims", one_answer, draft_document, 2000,
        folder=tmp_path, repeats=3,
    )  # fmt: skip
    assert summary.spans == 2000


def test_agreement_and_adjudicate_of_one_answer_with_30000_candidates(tmp_path):
    # a list scan per candidate made these quadratic: 2 x 100,000 did not end in 60 s
    from scale_inputs import annotated_big_file

    from tests.conftest import run_cli

    proc = grows_linearly(
        "agreement of 2 x 30,000 candidates",
        lambda n, d: annotated_big_file(d, n),
        lambda ab: run_cli("agreement", *ab, "--json"),
        30_000,
        folder=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    import json

    fields = {f["field"]: f for f in json.loads(proc.stdout)["fields"]}
    assert fields["atomic"]["raw_agreement"]["display"] == "90.0% (27000/30000)"
    assert fields["preserves"]["items"] == 30_000 * 1000  # candidates x unit spans
    proc = grows_linearly(
        "adjudicate of 2 x 30,000 candidates",
        lambda n, d: (*annotated_big_file(d, n), d / "gold.json"),
        lambda abg: run_cli("adjudicate", abg[0], abg[1], "--out", abg[2]),
        30_000,
        folder=tmp_path / "adjudicate",
    )
    assert proc.returncode == 0, proc.stderr
    assert "and 2980 more ties" in proc.stdout


def test_folders_of_5000_answers_and_a_ledger_of_100000_answers(tmp_path):
    from scale_inputs import annotator_folders, ledger_files

    from tests.conftest import run_cli

    def both(folders):
        ana, ben = folders
        gold = ana.parent / "gold"
        return run_cli("agreement", ana, ben), run_cli("adjudicate", ana, ben, "--out", gold)

    agree, adjud = grows_linearly(
        "agreement and adjudicate of 2 folders of 5,000 answers",
        lambda n, d: annotator_folders(d, n), both, 5_000, folder=tmp_path,
    )  # fmt: skip
    assert agree.returncode == 0 and adjud.returncode == 0, agree.stderr + adjud.stderr
    assert "over 5000 answers" in agree.stdout and "500 answers of 5000" in adjud.stdout
    proc = grows_linearly(
        "ledger --ci 0.95 --compare A B on 100,000 answers",
        lambda n, d: ledger_files(d, n),
        lambda cu: run_cli(
            "ledger",
            cu[0],
            "--units",
            cu[1],
            "--by",
            "model",
            "--ci",
            "0.95",
            "--compare",
            "A",
            "B",
            # the loop over answers is what grows with n; 200 resamples and permutations
            # (not 2000 each) keep the case at n a few seconds (bench_gold.py times 2000)
            "--bootstrap",
            "200",
            "--permutations",
            "200",
        ),  # fmt: skip
        100_000,
        folder=tmp_path / "ledger",
    )
    assert proc.returncode == 0, proc.stderr
    assert "A - B  coverage           micro  +33.3 points" in proc.stdout


# ------------------------------------------------------------------ RAG and multi-hop scoring


def test_rag_of_100000_queries(tmp_path):
    from scale_inputs import rag_file

    from claimlab.io.ragchecker import load_checking
    from claimlab.metrics.rag import score_rag

    report = grows_linearly(
        "rag over 100,000 queries",
        lambda n, d: rag_file(d, n),
        lambda path: score_rag(load_checking(path)),
        100_000,
        folder=tmp_path,
    )
    assert len(report.per_query) == 100_000
    assert report.micro["precision"].denominator == 400_000
    assert report.macro["context_precision"].defined == 100_000


def test_meta_evaluation_of_100000_pairs(tmp_path):
    from scale_inputs import meta_files

    from claimlab.io.ragchecker import load_meta_evaluation
    from claimlab.metrics.meta_eval import score_meta_evaluation

    result = grows_linearly(
        "meta-eval over 100,000 response pairs",
        lambda n, d: meta_files(d, n),
        lambda hs: score_meta_evaluation(load_meta_evaluation(*hs), resamples=100),
        100_000,
        folder=tmp_path,
    )
    assert result.judgments == 200_000 and result.resamples == 100
    assert result.labels["overall_label"].pearson.low is not None


def test_official_scores_of_100000_questions(tmp_path):
    from scale_inputs import official_files

    from claimlab.io.official import (
        load_hotpot_gold,
        load_hotpot_predictions,
        load_musique_gold,
        load_musique_predictions,
    )
    from claimlab.metrics.multihop_scores import score_hotpotqa, score_musique

    def score(f):
        hot = score_hotpotqa(
            load_hotpot_gold(f["hotpot_gold"]), load_hotpot_predictions(f["hotpot_pred"])
        )
        mus = score_musique(
            load_musique_gold(f["musique_gold"]), load_musique_predictions(f["musique_pred"])
        )
        return hot, mus

    hot, mus = grows_linearly(
        "hotpotqa over 100,000 questions, musique over 100,000 records",
        lambda n, d: official_files(d, n), score, 100_000, folder=tmp_path,
    )  # fmt: skip
    assert hot.counts["missing_supporting_facts"] == 50_000
    assert mus.counts == {"records": 100_000, "answerable": 50_000, "unanswerable": 50_000}
    assert mus.figures["group_answer_sufficiency_f1"].count == 50_000


def _gate_tables(n):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    units = rng.integers(1, 8, n)
    base = pd.DataFrame(
        {"answer_id": [f"a{i}" for i in range(n)], "units": units, "covered": units}
    )
    for col in ("faithful", "unique", "supported_unique", "raw", "supported_raw"):
        base[col] = units
    now = base.copy()
    now["covered"] = np.maximum(
        units - (np.arange(n) % 10 == 0), 0
    )  # one answer in ten loses a unit
    return base, now


def test_release_gate_of_100000_answers(tmp_path):
    from claimlab.metrics.gate import release_gate

    n = 100_000
    gate = grows_linearly(
        "a release gate over 100,000 answers",
        lambda size, _d: _gate_tables(size),
        lambda bn: release_gate(*bn, resamples=200),
        n,
        folder=tmp_path,
        repeats=3,
    )
    base, now = _gate_tables(n)
    units = base["units"]
    cov = next(r for r in gate.rows if r.metric == "coverage")
    assert gate.shared == n and cov.verdict == "REGRESSED"
    assert cov.difference == pytest.approx(
        (base["covered"].sum() - now["covered"].sum()) / units.sum()
    )
