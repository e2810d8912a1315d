"""Mutation testing of the metric floors: do the unit tests catch a wrong figure?

    .venv/bin/python quality/mutation.py [MODULE ...] [--survivors]      (or: make mutation)

For each module (by default ``core/ratio.py`` and every module of ``metrics/``), mutmut seeds
mutants (flipped comparisons, swapped arithmetic, ``and``/``or``, changed constants, negated
conditions, ``return None``, ...) into a scratch copy of the project and runs, against each one,
only that module's own unit tests (``MODULE_TESTS``; no notebook, browser or slow suite). A
mutant no test fails on is a survivor. The kill rate printed is killed / (all - equivalent):
``EQUIVALENT`` lists the mutants that cannot change behaviour, each with the reason, matched
on their diff so they are never left silent; every other survivor is printed with its diff
when ``--survivors`` is given. The last figures are in ``QUALITY.md``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the real data the unit tests pin official figures on (the scratch copy has no ../shared)
DATA = Path(os.environ.get("CLAIMLAB_DATA", ROOT.parent / "shared" / "data"))
MUTMUT = Path(sys.executable).parent / "mutmut"
INVARIANTS = "tests/metrics/test_invariants.py"

# each module -> its own unit tests (the common invariants test holds every metric's boundaries)
MODULE_TESTS: dict[str, tuple[str, ...]] = {
    "core/ratio.py": ("tests/core/test_ratio.py", INVARIANTS),
    "metrics/fever.py": ("tests/metrics/test_fever.py", INVARIANTS),
    "metrics/agreement.py": ("tests/metrics/test_agreement.py",),
    "metrics/decomposition.py": ("tests/metrics/test_decomposition.py", INVARIANTS),
    "metrics/sufficiency.py": (
        "tests/metrics/test_sufficiency.py",
        "tests/metrics/test_sufficiency_v3.py",
        INVARIANTS,
    ),
    "metrics/rag.py": ("tests/metrics/test_rag.py",),
    "metrics/multihop_scores.py": ("tests/metrics/test_multihop_scores.py",),
    "metrics/meta_eval.py": ("tests/metrics/test_meta_eval.py",),
    "metrics/wice.py": ("tests/metrics/test_wice.py",),
    "metrics/gate.py": ("tests/metrics/test_gate.py",),
    "metrics/citations.py": (
        "tests/metrics/test_citations.py",
        "tests/metrics/test_citations_units.py",
        INVARIANTS,
    ),
    "metrics/context_budget.py": (
        "tests/metrics/test_context_budget.py",
        "tests/metrics/test_context_budget_units.py",
        INVARIANTS,
    ),
    "metrics/selective.py": (
        "tests/metrics/test_selective.py",
        "tests/metrics/test_selective_units.py",
        INVARIANTS,
    ),
    "metrics/selection.py": (
        "tests/metrics/test_selection.py",
        "tests/metrics/test_claim_source.py",
        "tests/metrics/test_papers.py",
    ),
    "metrics/factscore.py": (
        "tests/metrics/test_factscore.py",
        "tests/metrics/test_factscore_units.py",
        INVARIANTS,
    ),
    "metrics/agreement_items.py": (
        "tests/metrics/test_agreement_items.py",
        "tests/metrics/test_agreement.py",
    ),
    "metrics/stats/resampling.py": (
        "tests/metrics/stats/test_intervals.py",
        "tests/metrics/test_uncertainty.py",
    ),
    "metrics/stats/intervals.py": (
        "tests/metrics/stats/test_intervals.py",
        "tests/metrics/test_uncertainty.py",
    ),
    "metrics/stats/comparisons.py": (
        "tests/metrics/stats/test_comparisons.py",
        "tests/metrics/test_uncertainty.py",
        "tests/metrics/test_gate.py",
    ),
    "metrics/stats/prediction_powered.py": (
        "tests/metrics/stats/test_prediction_powered.py",
        "tests/metrics/test_uncertainty.py",
    ),
    "metrics/uncertainty.py": (
        "tests/metrics/test_uncertainty_units.py",
        "tests/metrics/test_uncertainty.py",
    ),
    "metrics/ledger.py": ("tests/metrics/test_ledger_units.py", "tests/metrics/test_ledger.py"),
    "metrics/ledger_dask.py": ("tests/metrics/test_ledger_dask.py",),
}

# modules whose real-data tests are left out: they run for minutes per mutant and the module's
# table-driven tests cover the same code (the real-data runs stay in make test)
MARKERS: dict[str, str] = {
    "metrics/sufficiency.py": "not realdata",
    # the Dask cluster runs, and files read through pyarrow's thread pool (which a forked
    # mutant's process inherits without its threads: it hangs until the time limit, a false kill)
    "metrics/ledger.py": "not slow and not arrowfiles",
}

# (module, a fragment of the mutant's diff: the mutated line, "+" side) -> why it cannot change
# what the function returns or raises
EQUIVALENT: dict[tuple[str, str], str] = {
    ("metrics/fever.py", "if (max_evidence is None) and False else p.evidence[:max_evidence]"): (
        "slicing with max_evidence None keeps every sentence, as the None branch does"
    ),
    ("metrics/fever.py", "k = 0 if (c.recall_hit) and False else"): (
        "a claim whose witness was found has nothing missing, so the min's default 0 is taken"
    ),
    ("metrics/fever.py", "for m in c.missing), default=None)"): (
        "the default is never used: an unfound verifiable claim has a gap for each of its groups"
    ),
    ("metrics/fever.py", "for m in c.missing), default=1)"): (
        "the default is never used: an unfound verifiable claim has a gap for each of its groups"
    ),
    ("metrics/fever.py", "for m in c.missing), )"): (
        "the default is never used: an unfound verifiable claim has a gap for each of its groups"
    ),
    ("metrics/decomposition.py", "zip(chosen, dup_of, strict=None)"): (
        "_unique gives one entry of dup_of per chosen candidate: the lengths are always equal"
    ),
    ("metrics/decomposition.py", "zip(chosen, dup_of, )"): (
        "_unique gives one entry of dup_of per chosen candidate: the lengths are always equal"
    ),
    ("metrics/decomposition.py", "zip(chosen, dup_of, strict=False)"): (
        "_unique gives one entry of dup_of per chosen candidate: the lengths are always equal"
    ),
    ("metrics/agreement.py", ".astype(None)"): ("astype(None) is astype(float64): the same array"),
    ("metrics/agreement.py", "np.ones(len(a), None)"): (
        "float instead of integer unit weights: every sum and share is the same number"
    ),
    ("metrics/agreement.py", "np.ones(len(a), )"): (
        "float instead of integer unit weights: every sum and share is the same number"
    ),
    ("metrics/agreement.py", "np.ones(codes.shape[1], dtype=None)"): (
        "float instead of integer unit weights: every count is the same whole number"
    ),
    ("metrics/agreement.py", "np.ones(codes.shape[1], )"): (
        "float instead of integer unit weights: every count is the same whole number"
    ),
    ("metrics/agreement.py", "axis=0, dtype=None, out=out[:, c])"): (
        "with out= given, the sum is written in out's integer type either way"
    ),
    ("metrics/agreement.py", "np.sum(codes == c, axis=0, out=out[:, c])"): (
        "with out= given, the sum is written in out's integer type either way"
    ),
    ("metrics/agreement.py", "NONE, dtype=None)"): ("a wider integer array holds the same codes"),
    ("metrics/agreement.py", "np.full((len(rows), width), NONE, )"): (
        "a wider integer array holds the same codes"
    ),
    ("metrics/rag.py", "zip(q.chunk_response, by_relevant, "): (
        "by_relevant is built from chunk_response, one value per row: the two always line up"
    ),
    ("metrics/multihop_scores.py", "if g.id in preds.answers or g.id in preds.facts:"): (
        "a part not predicted scores 0 in each of its components, so every joint product is 0"
        " either way"
    ),
    ("metrics/multihop_scores.py", "if not pt and not gt:"): (
        "one empty side shares no token with the other: the count below returns 0.0, as"
        " float(pt == gt) does"
    ),
    ("metrics/factscore.py", "if gamma == 1 or n_facts <= 0 or n_facts >= gamma:"): (
        "with gamma 0 every count of facts is >= gamma, so the last test returns 1.0 already"
    ),
    ("metrics/factscore.py", "or n_facts > gamma:"): (
        "at n = gamma the multiplier is exp(1 - gamma / n) = exp(0) = 1.0, what the branch returns"
    ),
    ("metrics/factscore.py", "b = min(buckets + 1, int((i + 0.5) / n * buckets))"): (
        "(i + 0.5) / n < 1, so the bucket index is below buckets already: the cap never applies"
    ),
    ("metrics/selective.py", "    for _ in range(101):"): (
        "Newton's method stops when a step is below 1e-12, long before 100 iterations"
    ),
    ("metrics/selective.py", "@ x + ridge - 1e-12 * np.eye(3)"): (
        "a 1e-12 jitter on a Hessian the ridge makes positive definite: the same steps to 1e-12"
    ),
    ("metrics/citations.py", "if (unspaced) or True else 1"): (
        "a word with no character of an unspaced script counts (0 + 2) // 3 + 1 = 1 either way"
    ),
    ("metrics/citations.py", "if len(claims) * len(sentences) < 40_000:"): (
        "the pairwise and the sparse paths give the same matches (a test compares them)"
    ),
    ("metrics/citations.py", "if len(claims) * len(sentences) <= 40001:"): (
        "the pairwise and the sparse paths give the same matches (a test compares them)"
    ),
    ("metrics/citations.py", "data = np.ones(len(cols), dtype=None)"): (
        "float ones count shared trigrams as the same whole numbers"
    ),
    ("metrics/citations.py", "data = np.ones(len(cols), )"): (
        "float ones count shared trigrams as the same whole numbers"
    ),
    ("metrics/citations.py", "shape=(len(grams), 2 << 24))"): (
        "a wider vocabulary space: the same columns are filled, the same products"
    ),
    ("metrics/citations.py", "shape=(len(grams), 1 << 25))"): (
        "a wider vocabulary space: the same columns are filled, the same products"
    ),
    ("metrics/citations.py", "zip(best, top, strict=None)"): ("argmax gives one index per row"),
    ("metrics/citations.py", "zip(best, top, )"): ("argmax gives one index per row"),
    ("metrics/citations.py", "zip(best, top, strict=False)"): ("argmax gives one index per row"),
    ("metrics/citations.py", "zip(texts, best, strict=None)"): ("one match per claim"),
    ("metrics/citations.py", "zip(texts, best, )"): ("one match per claim"),
    ("metrics/citations.py", "zip(texts, best, strict=False)"): ("one match per claim"),
    ("metrics/citations.py", "matched.get(i, None), answer.language)"): (
        "no claims and None both read as no claim matching the sentence"
    ),
    ("metrics/citations.py", "matched.get(i, ), answer.language)"): (
        "no claims and None both read as no claim matching the sentence"
    ),
    ("metrics/citations.py", "elsewhere = index.elsewhere(pieces, None)"): (
        "the cited chunk does not hold the pieces, so leaving it out of the search changes nothing"
    ),
    ("metrics/citations.py", "in_order = len(pieces) >= 1 and"): (
        "one piece that is in the chunk is found, so this is only asked of several pieces"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(auto[0], None)"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(auto[0], )"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(auto[1], None)"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(auto[1], )"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(human[0], None)"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(human[0], )"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(human[1], None)"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/prediction_powered.py", "np.asarray(human[1], )"): (
        "numeric counts: whole numbers are promoted to floats by every division that follows"
    ),
    ("metrics/stats/intervals.py", "(np.asarray(a, None), np.asarray(b, np.float64))"): (
        "numeric counts: whole numbers are promoted to floats by the resampled sums"
    ),
    ("metrics/stats/intervals.py", "(np.asarray(a, ), np.asarray(b, np.float64))"): (
        "numeric counts: whole numbers are promoted to floats by the resampled sums"
    ),
    ("metrics/stats/intervals.py", "(np.asarray(a, np.float64), np.asarray(b, None))"): (
        "numeric counts: whole numbers are promoted to floats by the resampled sums"
    ),
    ("metrics/stats/intervals.py", "(np.asarray(a, np.float64), np.asarray(b, ))"): (
        "numeric counts: whole numbers are promoted to floats by the resampled sums"
    ),
    ("metrics/stats/intervals.py", "if not pairs or pairs[0][1].size == 0:"): (
        "a figure's numerators and denominators are per answer: the two arrays are one length"
    ),
    ("metrics/stats/intervals.py", "or pairs[0][1].size < MIN_CLUSTERS:"): (
        "a figure's numerators and denominators are per answer: the two arrays are one length"
    ),
    (
        "metrics/stats/intervals.py",
        "if resamples < MIN_RESAMPLES and pairs[0][0].size < MIN_CLUSTERS:",
    ): ("the early return is a shortcut: interval_from gives the same reason for each figure"),
    ("metrics/stats/intervals.py", "zip(names, pairs, strict=None)"): (
        "names and pairs are made from the same dictionary"
    ),
    ("metrics/stats/intervals.py", "zip(names, pairs, )"): (
        "names and pairs are made from the same dictionary"
    ),
    ("metrics/stats/intervals.py", "zip(names, pairs, strict=False)"): (
        "names and pairs are made from the same dictionary"
    ),
    ("metrics/stats/intervals.py", "<= 1e-12 * max(1.0, abs(ok[1]))):"): (
        "every resample equal to the first is every resample equal to the second"
    ),
    ("metrics/stats/resampling.py", "max(1, min(resamples, BLOCK_CELLS // max(n, 2)))"): (
        "one answer: a different block size draws the same weights (a test checks blocks do not change them)"
    ),
    ("metrics/stats/resampling.py", "draws = rng.integers(n, size=(b, n),"): (
        "integers(n) draws from [0, n), as integers(0, n) does"
    ),
    ("metrics/stats/resampling.py", "if n >= 2**31 - 1 else np.int32)"): (
        "the 64-bit draws are for 2**31 answers and more, which no machine here resamples"
    ),
    ("metrics/stats/resampling.py", "if n > 2**31 + 1 else np.int32)"): (
        "the 64-bit draws are for 2**31 answers and more, which no machine here resamples"
    ),
    ("metrics/stats/resampling.py", "if n > 3**31 - 1 else np.int32)"): (
        "the 64-bit draws are for 2**31 answers and more, which no machine here resamples"
    ),
    ("metrics/stats/resampling.py", "if n > 2**32 - 1 else np.int32)"): (
        "the 64-bit draws are for 2**31 answers and more, which no machine here resamples"
    ),
    ("metrics/stats/resampling.py", "if n > 2**31 - 2 else np.int32)"): (
        "the 64-bit draws are for 2**31 answers and more, which no machine here resamples"
    ),
    ("metrics/stats/resampling.py", "offsets = (np.arange(b, dtype=None) * n)[:, None]"): (
        "numpy's default integer is 64 bits here"
    ),
    ("metrics/stats/resampling.py", "offsets = (np.arange(b, ) * n)[:, None]"): (
        "numpy's default integer is 64 bits here"
    ),
    ("metrics/stats/resampling.py", "yield counts.astype(None)"): (
        "astype(None) is astype(float64)"
    ),
    ("metrics/stats/resampling.py", "return r, defined.astype(None)"): (
        "astype(None) is astype(float64)"
    ),
    ("metrics/stats/resampling.py", 'with np.errstate(invalid=None, divide="ignore"):'): (
        "only whether numpy warns changes: the values are the same"
    ),
    ("metrics/stats/resampling.py", 'with np.errstate(invalid="ignore", divide=None):'): (
        "only whether numpy warns changes: the values are the same"
    ),
    ("metrics/stats/resampling.py", 'with np.errstate(divide="ignore"):'): (
        "only whether numpy warns changes: the values are the same"
    ),
    ("metrics/stats/resampling.py", 'with np.errstate(invalid="ignore", ):'): (
        "only whether numpy warns changes: the values are the same"
    ),
    ("metrics/stats/resampling.py", "top / np.where(bottom >= 0, bottom, 1), np.nan)"): (
        "where the denominator is 0 the outer where gives NaN whatever was divided"
    ),
    ("metrics/stats/resampling.py", "top / np.where(bottom > 0, bottom, 2), np.nan)"): (
        "where the denominator is 0 or less the outer where gives NaN whatever was divided"
    ),
    ("metrics/context_budget.py", 'def dont_know_answer(language: str = "XXenXX")'): (
        "an unknown language falls back to English, the default: the same answer"
    ),
    ("metrics/context_budget.py", 'def dont_know_answer(language: str = "EN")'): (
        "an unknown language falls back to English, the default: the same answer"
    ),
    ("metrics/context_budget.py", 'def instruction_for(language: str = "XXenXX")'): (
        "an unknown language falls back to English, the default: the same answer"
    ),
    ("metrics/context_budget.py", 'def instruction_for(language: str = "EN")'): (
        "an unknown language falls back to English, the default: the same answer"
    ),
    ("metrics/context_budget.py", '    language: str = "XXenXX",'): (
        "an unknown language falls back to English, the default: the same answer"
    ),
    ("metrics/context_budget.py", '    language: str = "EN",'): (
        "an unknown language falls back to English, the default: the same answer"
    ),
    ("metrics/context_budget.py", 'DONT_KNOW_ANSWERS["en"]), ensure_ascii=None)'): (
        "both answers are plain ASCII: escaping changes nothing"
    ),
    ("metrics/context_budget.py", 'DONT_KNOW_ANSWERS["en"]), )'): (
        "both answers are plain ASCII: escaping changes nothing"
    ),
    ("metrics/context_budget.py", 'DONT_KNOW_ANSWERS["en"]), ensure_ascii=True)'): (
        "both answers are plain ASCII: escaping changes nothing"
    ),
    ("metrics/stats/comparisons.py", "n = cols[1].size if cols else 0"): (
        "every column is one value per shared answer: they are all one length"
    ),
    ("metrics/stats/comparisons.py", "n = cols[0].size if cols else 1"): (
        "no figure: the list of comparisons is empty either way"
    ),
    ("metrics/stats/comparisons.py", "figures, n = len(observed), cols[1].size"): (
        "every column is one value per shared answer: they are all one length"
    ),
    ("metrics/stats/comparisons.py", "extreme = np.zeros(figures, dtype=None)"): (
        "a float count of whole numbers gives the same p-value"
    ),
    ("metrics/stats/comparisons.py", "extreme = np.zeros(figures, )"): (
        "a float count of whole numbers gives the same p-value"
    ),
    ("metrics/stats/comparisons.py", "dtype=np.int8).astype(None)"): (
        "astype(None) is astype(float64)"
    ),
    ("metrics/stats/comparisons.py", "swap = rng.integers(2, size=(size, n)"): (
        "integers(2) draws from [0, 2), as integers(0, 2) does"
    ),
    ("metrics/stats/comparisons.py", "np.nan_to_num(diff, )) >="): (
        "nan_to_num's default for NaN is 0.0"
    ),
    ("metrics/stats/comparisons.py", "per_block = max(2, min(permutations,"): (
        "a block holds at least 1,600 swaps below 5,000 answers x 1,000"
    ),
    ("metrics/stats/comparisons.py", "BLOCK_CELLS // max(n, 2)))"): (
        "one shared answer never reaches the test (two are needed)"
    ),
    ("metrics/stats/comparisons.py", "zip(comparisons, adjusted, strict=None)"): (
        "holm gives one value per p-value"
    ),
    ("metrics/stats/comparisons.py", "zip(comparisons, adjusted, )"): (
        "holm gives one value per p-value"
    ),
    ("metrics/stats/comparisons.py", "zip(comparisons, adjusted, strict=False)"): (
        "holm gives one value per p-value"
    ),
    ("metrics/stats/comparisons.py", "(np.asarray(a, None), np.asarray(b, np.float64))"): (
        "numeric counts: whole numbers are promoted to floats by the sums that follow"
    ),
    ("metrics/stats/comparisons.py", "(np.asarray(a, ), np.asarray(b, np.float64))"): (
        "numeric counts: whole numbers are promoted to floats by the sums that follow"
    ),
    ("metrics/stats/comparisons.py", "(np.asarray(a, np.float64), np.asarray(b, None))"): (
        "numeric counts: whole numbers are promoted to floats by the sums that follow"
    ),
    ("metrics/stats/comparisons.py", "(np.asarray(a, np.float64), np.asarray(b, ))"): (
        "numeric counts: whole numbers are promoted to floats by the sums that follow"
    ),
    ("metrics/stats/comparisons.py", "n = cols[1][0].size if cols else 0"): (
        "every column is one value per shared answer: they are all one length"
    ),
    ("metrics/stats/comparisons.py", "n = cols[0][1].size if cols else 0"): (
        "every column is one value per shared answer: they are all one length"
    ),
    ("metrics/stats/comparisons.py", "for n, (a, b) in zip(names, pairs, strict=None)"): (
        "names and pairs are one per system"
    ),
    ("metrics/stats/comparisons.py", "for n, (a, b) in zip(names, pairs, )"): (
        "names and pairs are one per system"
    ),
    ("metrics/stats/comparisons.py", "for n, (a, b) in zip(names, pairs, strict=False)"): (
        "names and pairs are one per system"
    ),
    ("metrics/stats/comparisons.py", "or pairs[1][0].size < MIN_CLUSTERS:"): (
        "every column is one value per shared answer: they are all one length"
    ),
    ("metrics/stats/comparisons.py", "or pairs[0][1].size < MIN_CLUSTERS:"): (
        "every column is one value per shared answer: they are all one length"
    ),
    ("metrics/stats/comparisons.py", "zip(order, order[1:], strict=None)"): (
        "strict=None is strict=False, the original"
    ),
    ("metrics/stats/comparisons.py", "zip(order, order[1:], )"): (
        "strict=False is the default, the original"
    ),
    ("metrics/stats/comparisons.py", "steps = np.diff(ranked, )"): (
        "np.diff's default axis is the last, axis 1 of this table"
    ),
    ("metrics/agreement_items.py", '"values": dict(zip(names, self.values, strict=None)),'): (
        "one value per item on each side: the sequences are one length"
    ),
    ("metrics/agreement_items.py", '"values": dict(zip(names, self.values, )),'): (
        "one value per item on each side: the sequences are one length"
    ),
    ("metrics/agreement_items.py", '"values": dict(zip(names, self.values, strict=False)),'): (
        "one value per item on each side: the sequences are one length"
    ),
    ("metrics/agreement_items.py", "for a, b in zip(cuts, cuts[1:], strict=None))"): (
        "strict=None is strict=False, the original"
    ),
    ("metrics/agreement_items.py", "for a, b in zip(cuts, cuts[1:], ))"): (
        "strict=False is the default, the original"
    ),
    ("metrics/agreement_items.py", "for cid, c in zip(cids, fx.candidates, strict=None):"): (
        "one value per item on each side: the sequences are one length"
    ),
    ("metrics/agreement_items.py", "for cid, c in zip(cids, fx.candidates, ):"): (
        "one value per item on each side: the sequences are one length"
    ),
    ("metrics/agreement_items.py", "for cid, c in zip(cids, fx.candidates, strict=False):"): (
        "one value per item on each side: the sequences are one length"
    ),
    ("metrics/agreement_items.py", "if text.isascii() and _ASTRAL.search(text) is None:"): (
        "text without astral characters maps each UTF-16 offset to itself by either path"
    ),
    ("metrics/agreement_items.py", "        keeps=None,"): (
        "the keep masks are a shortcut: the answer-by-answer coding gives the same columns (a test compares them)"
    ),
    ("metrics/agreement_items.py", "if (len(spans) <= 64) and False else None,"): (
        "the keep masks are a shortcut: the answer-by-answer coding gives the same columns (a test compares them)"
    ),
    ("metrics/agreement_items.py", "if len(spans) < 64 else None,"): (
        "the keep masks are a shortcut: the answer-by-answer coding gives the same columns (a test compares them)"
    ),
    ("metrics/agreement_items.py", "return codes, np.ones(codes.shape[1], dtype=None)"): (
        "float instead of integer weights: every count is the same whole number"
    ),
    ("metrics/agreement_items.py", "return codes, np.ones(codes.shape[1], )"): (
        "float instead of integer weights: every count is the same whole number"
    ),
    (
        "metrics/agreement_items.py",
        "[np.ones(codes.shape[1], None), np.array(list(total.values()), np.int64)]",
    ): ("float instead of integer weights: every count is the same whole number"),
    (
        "metrics/agreement_items.py",
        "[np.ones(codes.shape[1], ), np.array(list(total.values()), np.int64)]",
    ): ("float instead of integer weights: every count is the same whole number"),
    (
        "metrics/agreement_items.py",
        "[np.ones(codes.shape[1], np.int64), np.array(list(total.values()), None)]",
    ): ("float instead of integer weights: every count is the same whole number"),
    (
        "metrics/agreement_items.py",
        "[np.ones(codes.shape[1], np.int64), np.array(list(total.values()), )]",
    ): ("float instead of integer weights: every count is the same whole number"),
    ("metrics/agreement_items.py", "columns = list(zip(*(f.codes for f in files), strict=None))"): (
        "every file's codes are one tuple of the same fields: the sequences are one length"
    ),
    ("metrics/agreement_items.py", "columns = list(zip(*(f.codes for f in files), ))"): (
        "every file's codes are one tuple of the same fields: the sequences are one length"
    ),
    (
        "metrics/agreement_items.py",
        "columns = list(zip(*(f.codes for f in files), strict=False))",
    ): ("every file's codes are one tuple of the same fields: the sequences are one length"),
    ("metrics/agreement_items.py", "for c, f in zip(columns[0], files, strict=None)"): (
        "one column value per file: one length"
    ),
    ("metrics/agreement_items.py", "for c, f in zip(columns[0], files, )"): (
        "one column value per file: one length"
    ),
    ("metrics/agreement_items.py", "for c, f in zip(columns[0], files, strict=False)"): (
        "one column value per file: one length"
    ),
    ("metrics/agreement_items.py", "if not by_field or not by_field[1]:"): (
        "pooling has two or more annotators, each with the same lined-up answers"
    ),
    ("metrics/agreement_items.py", "widths = np.fromiter(map(len, by_field[1][j])"): (
        "lined-up answers: every annotator's codes of an answer have one width"
    ),
    ("metrics/agreement_items.py", "widths = np.fromiter(map(len, by_field[0][j]), dtype=None,"): (
        "float widths: cast to integers where they are placed"
    ),
    (
        "metrics/agreement_items.py",
        "widths = np.fromiter(map(len, by_field[0][j]), dtype=np.int64, )",
    ): ("count is only a size hint"),
    ("metrics/agreement_items.py", "return np.zeros((m, 0), np.int8), np.zeros(0, )"): (
        "no widths: an empty float array cast to integers where it is placed"
    ),
    ("metrics/agreement_items.py", "return np.zeros((m, 0), np.int8), np.zeros(0, dtype=None)"): (
        "no widths: an empty float array cast to integers where it is placed"
    ),
    ("metrics/agreement_items.py", "per = [bytes(column) for column in zip(*rows, strict=None)]"): (
        "every row holds one value per field: one length"
    ),
    ("metrics/agreement_items.py", "per = [bytes(column) for column in zip(*rows, )]"): (
        "every row holds one value per field: one length"
    ),
    (
        "metrics/agreement_items.py",
        "per = [bytes(column) for column in zip(*rows, strict=False)]",
    ): ("every row holds one value per field: one length"),
    ("metrics/agreement_items.py", "if (rows) or True else []"): (
        "zip of no rows is empty: the same empty list"
    ),
    (
        "metrics/agreement_items.py",
        "if text.isascii() and (_ASTRAL.search(text) is None and _WIDE_SPACE.search(text) is None):",
    ): ("either path codes every text alike (a test walks random texts a character at a time)"),
    ("metrics/agreement_items.py", 'spaces = text.encode("ASCII", "replace")'): (
        "a codec's name is matched without regard to case"
    ),
    ("metrics/agreement_items.py", "both = int.from_bytes(row, ) |"): (
        "big-endian is int.from_bytes' default byte order (Python 3.11+)"
    ),
    ("metrics/agreement_items.py", "int.from_bytes(spaces, )"): (
        "big-endian is int.from_bytes' default byte order (Python 3.11+)"
    ),
    ("metrics/agreement_items.py", "return both.to_bytes(n, ).translate"): (
        "big-endian is int.to_bytes' default byte order (Python 3.11+)"
    ),
    ("metrics/agreement_items.py", 'translate(None, b"XX\\x03XX")'): (
        "the codes are 0 to 3: there is no X byte to delete"
    ),
    ("metrics/agreement_items.py", "encode(), ).digest(),"): (
        "the layout digest is only compared for equality: any size tells the same"
    ),
    ("metrics/agreement_items.py", "return _present(p.groups[k][1]).candidates[j]"): (
        "a lined-up answer's files hold the same candidates in the same order"
    ),
    ("metrics/agreement.py", "progress or (lambda n: 0),"): (
        "a progress callback's return value is never read"
    ),
    ("metrics/agreement.py", "        view=None,"): (
        "without the view the same items come from built records (a property test compares both)"
    ),
    ("metrics/agreement.py", "        view=False,"): (
        "without the view the same items come from built records (a property test compares both)"
    ),
    ("metrics/agreement.py", "width = len(rows[0]) if rows else 1"): (
        "no rows: an empty table either way, refused as N/A before its width is read"
    ),
    ("metrics/agreement.py", "table = plain if (weights is None) and False else pair_table("): (
        "the table of unweighted pairs is the plain table: the same counts"
    ),
    ("metrics/uncertainty.py", "minlength=n_clusters).astype(None)"): (
        "a weighted bincount is already float64: astype(None) gives the same array"
    ),
    ("metrics/uncertainty.py", "np.bincount(clusters, weights=values, ).astype"): (
        "the clusters are the inverse of np.unique: every index below n_clusters occurs, so "
        "the counts have that length without minlength"
    ),
    ("metrics/uncertainty.py", "n, d = table[num].to_numpy(None)"): (
        "whole-number counts: bincount's weights and macro_parts' division give the same floats"
    ),
    ("metrics/uncertainty.py", "table[den].to_numpy(None)"): (
        "whole-number counts: bincount's weights and macro_parts' division give the same floats"
    ),
    ("metrics/uncertainty.py", "if np.array_equal(None, parts[None][0])]"): (
        "sharing the corpus resampling only saves time: each group's intervals equal a "
        "separate call's (test_group_intervals_equal_separate_calls...)"
    ),
    ("metrics/uncertainty.py", "if np.array_equal(ids, None)]"): (
        "sharing the corpus resampling only saves time: each group's intervals equal a "
        "separate call's (test_group_intervals_equal_separate_calls...)"
    ),
    ("metrics/uncertainty.py", "if np.array_equal(ids, parts[None][1])]"): (
        "sharing the corpus resampling only saves time: each group's intervals equal a "
        "separate call's (test_group_intervals_equal_separate_calls...)"
    ),
    ("metrics/uncertainty.py", "shared = ga.index.intersection(gb.index, )"): (
        "sort=False is Index.intersection's default"
    ),
    ("metrics/uncertainty.py", "else shared.intersection(g.index, )"): (
        "sort=False is Index.intersection's default"
    ),
    ("metrics/uncertainty.py", "sa[num].to_numpy(None), sa[den]"): (
        "ratio_parts turns the parts into float64 itself: the same arrays"
    ),
    ("metrics/uncertainty.py", "sa[den].to_numpy(None), aggregate"): (
        "ratio_parts turns the parts into float64 itself: the same arrays"
    ),
    ("metrics/uncertainty.py", "sb[num].to_numpy(None), sb[den]"): (
        "ratio_parts turns the parts into float64 itself: the same arrays"
    ),
    ("metrics/uncertainty.py", "sb[den].to_numpy(None), aggregate"): (
        "ratio_parts turns the parts into float64 itself: the same arrays"
    ),
    ("metrics/uncertainty.py", "else 0.0 for r in rs], dtype=None)"): (
        "scores are floats (or 0.0): the array is float64 without the dtype"
    ),
    ("metrics/uncertainty.py", "else 0.0 for r in rs], )"): (
        "scores are floats (or 0.0): the array is float64 without the dtype"
    ),
    ("metrics/uncertainty.py", "else 0.0 for r in rs], None)"): (
        "scores are floats (or 0.0): the array is float64 without the dtype"
    ),
    ("metrics/uncertainty.py", "r.init_score is not None else 1.0 for r in rs]"): (
        "a prompt without an init score has defined 0, and its init part is init * defined"
    ),
    ("metrics/uncertainty.py", 'table.groupby("model", )'): (
        "observed=True is pandas 3's default for a groupby: the same groups"
    ),
    ("metrics/uncertainty.py", "g.loc[shared, num].to_numpy(None)"): (
        "ratio_parts turns the parts into float64 itself: the same arrays"
    ),
    ("metrics/uncertainty.py", "g.loc[shared, den].to_numpy(None)"): (
        "ratio_parts turns the parts into float64 itself: the same arrays"
    ),
    ("metrics/uncertainty.py", "answers = int(len(shared)) if (shared is not None) or True"): (
        "shared is never None here: with fewer than two groups the function returned earlier"
    ),
    ("metrics/uncertainty.py", "answers = int(len(shared)) if shared is not None else 1"): (
        "shared is never None here: with fewer than two groups the function returned earlier"
    ),
    ("metrics/uncertainty.py", "an, ad = a[num].to_numpy(None)"): (
        "prediction_powered turns the counts into float64 itself: the same figures"
    ),
    ("metrics/uncertainty.py", "a[den].to_numpy(None)"): (
        "prediction_powered turns the counts into float64 itself: the same figures"
    ),
    ("metrics/uncertainty.py", "fillna(0).to_numpy(None)"): (
        "prediction_powered turns the counts into float64 itself: the same figures"
    ),
    ("metrics/uncertainty.py", 'labelled = (h["raw"].fillna(None) > 0)'): (
        "fillna(None) leaves NaN, and NaN > 0 is false as 0 > 0 is: the same answers labelled"
    ),
    ("metrics/uncertainty.py", "].fillna(None).to_numpy(np.float64)"): (
        "only labelled answers' human counts are read, and a labelled answer has its row"
    ),
    ("metrics/uncertainty.py", "].fillna(1).to_numpy(np.float64)"): (
        "only labelled answers' human counts are read, and a labelled answer has its row"
    ),
    ("metrics/ledger.py", "st = np.where(codes.status > 0, codes.status, 0)"): (
        "status code 0 is replaced by 0: the same codes"
    ),
    ("metrics/ledger.py", "st = np.where(codes.status >= 1, codes.status, 0)"): (
        "status code 0 is replaced by 0: the same codes"
    ),
    ("metrics/ledger.py", "st = np.where(codes.status >= 0, codes.status, 1)"): (
        "an unknown status (-1) is only on rows that are not kept, and only kept rows are counted"
    ),
    ("metrics/ledger.py", "  # a flag per possible (model, answer, unit): no hashing"): (
        "the threshold only chooses flags or hashing: both count the same distinct keys "
        "(test_coverage_of_a_ledger_too_large_for_one_flag_per_unit runs the hashed path)"
    ),
    ("metrics/ledger.py", "seen = np.zeros(size * n_units, "): (
        "flags as 1.0 instead of True: flatnonzero finds the same places"
    ),
    ("metrics/ledger.py", "seen = np.zeros(size * n_units, dtype=None)"): (
        "flags as 1.0 instead of True: flatnonzero finds the same places"
    ),
    ("metrics/ledger.py", "covered = np.bincount((cover_key / n_units).astype(np.int64)"): (
        "keys are below 2**53 and not negative: the float quotient truncates to the same integer"
    ),
    ("metrics/ledger.py", "with ThreadPoolExecutor(max_workers="): (
        "one task is submitted: the pool's size changes nothing"
    ),
    ("metrics/ledger.py", "candidates, units, candidates_file=candidates_file, by=by"): (
        'units_file="units" is coerce_columns\' default too'
    ),
    ("metrics/ledger.py", "with np.errstate("): (
        "errstate changes only whether numpy warns; every 0/0 place is replaced by NaN after"
    ),
    ("metrics/ledger.py", "n / np.where(d >= 0, d, 1), np.nan)"): (
        "the places where d is 0 are replaced by NaN by the outer where"
    ),
    ("metrics/ledger.py", "n / np.where(d > 1, d, 1), np.nan)"): (
        "d is 1 there anyway: dividing by 1 either way"
    ),
    ("metrics/ledger.py", "n / np.where(d > 0, d, 2), np.nan)"): (
        "the places where d is 0 are replaced by NaN by the outer where"
    ),
    ("metrics/ledger.py", 'np.char.mod("%.1F%%"'): (
        "%F differs from %f only for inf and nan, which nan_to_num has removed"
    ),
    ("metrics/ledger.py", 'table.groupby("model", )'): (
        "observed=True is pandas 3's default for a groupby: the same groups"
    ),
    ("metrics/ledger_dask.py", "part = part.sort_values(ROW, "): (
        "row numbers are distinct: every sort algorithm gives the one order"
    ),
    ("metrics/ledger_dask.py", "if (len(part)) or True else empty_candidates(by)"): (
        "count_ledger reads an empty partition from pandas as it reads the empty table "
        "(test_an_empty_partition_gives_no_rows_with_the_ledgers_columns)"
    ),
    ("metrics/ledger_dask.py", "pa.Table.from_pandas(part, preserve_index=None)"): (
        "a stored index is one more column, and the ledger reads only its own columns"
    ),
    ("metrics/ledger_dask.py", "pa.Table.from_pandas(part, preserve_index=True)"): (
        "a stored index is one more column, and the ledger reads only its own columns"
    ),
    ("metrics/ledger_dask.py", "pa.Table.from_pandas(part, )"): (
        "a stored index is one more column, and the ledger reads only its own columns"
    ),
    ("metrics/ledger_dask.py", "count_ledger(cand, sub_units, by=by, models=models)"): (
        'on_error="stop" is count_ledger\'s default'
    ),
    ("metrics/ledger_dask.py", "meta = count_ledger(empty_candidates(by), units_table.slice("): (
        "meta only tells Dask the columns before it runs: the counts come from the partitions"
    ),
    ("metrics/ledger_dask.py", "per_answer = pd.concat([per_answer, extra], "): (
        "the index is renumbered by the sort that follows (ignore_index=True)"
    ),
}


@dataclass(frozen=True)
class Outcome:
    """One module's mutants by status, and the survivors' names."""

    module: str
    counts: dict[str, int]
    survivors: tuple[str, ...]
    equivalent: tuple[tuple[str, str], ...]  # (mutant, reason)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def killed(self) -> int:
        return self.counts.get("killed", 0) + self.counts.get("timeout", 0)

    def rate(self) -> float | None:
        counted = self.total - len(self.equivalent)
        return None if counted == 0 else self.killed / counted


def scratch_copy(module: str, tests: tuple[str, ...], folder: Path) -> None:
    """The project's code, tests and fixtures in ``folder``, with mutmut set for ``module``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in ("claimlab", "tests", "fixtures", "notebooks"):  # some tests read a notebook
        shutil.copytree(ROOT / name, folder / name, ignore=ignore)
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    config += (
        "\n[tool.mutmut]\n"
        'paths_to_mutate = ["claimlab/"]\n'
        f'only_mutate = ["claimlab/{module}"]\n'
        f"tests_dir = {list(tests)!r}\n".replace("'", '"')
        + 'also_copy = ["fixtures/", "tests/", "notebooks/"]\n'
        'pytest_add_cli_args = ["-n", "0", "-q", "-p", "no:cacheprovider"'
        + (f', "-m", "{MARKERS[module]}"' if module in MARKERS else "")
        + "]\n"
    )
    (folder / "pyproject.toml").write_text(config, encoding="utf-8")


def diff_of(folder: Path, mutant: str) -> str:
    out = subprocess.run(
        [str(MUTMUT), "show", mutant], cwd=folder, capture_output=True, text=True, check=False
    )
    return out.stdout


def _equivalent_reason(module: str, diff: str) -> str | None:
    added = "\n".join(line for line in diff.splitlines() if line.startswith("+"))
    for (mod, fragment), reason in EQUIVALENT.items():
        if mod == module and fragment in added:
            return reason
    return None


def run_module(module: str, *, children: int = 2) -> tuple[Outcome, Path]:
    """Seed and run the mutants of ``module`` in a scratch copy; returns the outcome and copy."""
    folder = Path(tempfile.mkdtemp(prefix="claimlab-mutation-"))
    scratch_copy(module, MODULE_TESTS[module], folder)
    subprocess.run(
        [str(MUTMUT), "run", "--max-children", str(children)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "CLAIMLAB_DATA": str(DATA.resolve())},
    )
    listing = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    counts: dict[str, int] = {}
    survivors, equivalent = [], []
    for name, status in re.findall(r"^\s*(\S+): (.+)$", listing, re.MULTILINE):
        counts[status] = counts.get(status, 0) + 1
        if status in ("survived", "no tests"):
            reason = _equivalent_reason(module, diff_of(folder, name))
            if reason:
                equivalent.append((name, reason))
            else:
                survivors.append(name)
    return Outcome(module, counts, tuple(survivors), tuple(equivalent)), folder


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*", default=list(MODULE_TESTS), help="e.g. metrics/fever.py")
    ap.add_argument("--survivors", action="store_true", help="print every survivor's diff")
    args = ap.parse_args()
    if not MUTMUT.exists():
        print("mutmut is not installed: make setup installs the dev tools", file=sys.stderr)
        return 2
    total = killed = equivalent = 0
    print(f"{'module':<26} {'mutants':>7} {'killed':>6} {'equiv.':>6} {'survived':>8}  kill rate")
    for module in args.modules:
        outcome, folder = run_module(module)
        rate = outcome.rate()
        shown = "N/A" if rate is None else f"{100 * rate:.1f}%"
        print(
            f"{module:<26} {outcome.total:>7} {outcome.killed:>6} {len(outcome.equivalent):>6} "
            f"{len(outcome.survivors):>8}  {shown} "
            f"({outcome.killed}/{outcome.total - len(outcome.equivalent)})",
            flush=True,
        )
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(outcome.counts.items()))
        print(f"    by status: {statuses} (a timeout counts as killed)")
        for name, reason in outcome.equivalent:
            print(f"    equivalent {name}: {reason}")
        for name in outcome.survivors:
            print(f"    survived {name}")
            if args.survivors:
                print("      " + diff_of(folder, name).strip().replace("\n", "\n      "))
        total += outcome.total
        killed += outcome.killed
        equivalent += len(outcome.equivalent)
        shutil.rmtree(folder, ignore_errors=True)
    counted = total - equivalent
    overall = "N/A" if counted == 0 else f"{100 * killed / counted:.1f}%"
    print(f"{'all':<26} {total:>7} {killed:>6} {equivalent:>6} {counted - killed:>8}  {overall}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
