"""Claim ledgers at scale: the decomposition lab's four Toy metrics over many models and answers.

A ledger is two tables (CSV, JSONL or Parquet alike):

* candidates, one row per candidate subclaim: ``answer_id, candidate_id, fingerprint, preserves``
  (unit ids; ``;``-separated in CSV), ``faithful, atomic, status`` (SUPPORTED | CONTRADICTED |
  NOT_IN_REFERENCE), optional ``model`` (the decomposer, for side-by-side comparison);
* units, one row per content unit of an original answer: ``answer_id, unit_id``.

Definitions are the fixture scorer's (:mod:`claimlab.metrics.decomposition`), counted with vectorised
array operations: per (model, answer) D = its rows in file order, D* = D unique by fingerprint
(first kept), P = faithful members of D*; preservation |P|/|D*|, coverage |units preserved by
P|/|A|, confirmed support #SUPPORTED in D*/|D*|, raw support #SUPPORTED in D/|D|. An answer of the
units table that a model left without any candidate row is scored as an empty selection
(preservation N/A, coverage 0/|A|), so omitting hard answers cannot raise a model's figures.
Corpus figures are micro (summed counts) and macro (mean over answers where the ratio is
defined), with the number of undefined answers stated.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pyarrow as pa

from claimlab.core.frozen import freeze
from claimlab.core.ratio import MeanOfDefined, Ratio
from claimlab.core.vocab import NO_FILE, STATUSES, TOY_METRICS
from claimlab.io.arrays import claim_keys, repeats_within
from claimlab.io.decomposition import (
    Candidate,
    DecompositionFixture,
    Evidence,
    Original,
    Span,
    Unit,
)
from claimlab.io.ledger import load_table
from claimlab.io.ledger_rows import (
    Codes,
    Columns,
    Issue,
    Kept,
    OnError,
    apply_on_error,
    check_rows,
    coerce_columns,
    encode,
)


@dataclass(frozen=True)
class LedgerCounts:
    """Per (model, answer): every count behind the four ratios, and the rows left out.

    ``issues`` lists up to 20 bad rows per check; ``unlisted`` counts, per field, the bad rows
    beyond those.
    """

    table: Any  # pandas.DataFrame
    issues: tuple[Issue, ...]
    skipped_rows: int
    empty_answers: int
    unlisted: Mapping[str, int] = field(default_factory=dict)

    def to_pandas(self) -> Any:
        """The per-answer counts (a pandas DataFrame)."""
        return self.table


def _covered(cols: Columns, codes: Codes, uniq: np.ndarray, size: int) -> np.ndarray:
    """Per (model, answer): the distinct units that faithful unique rows preserve."""
    import pandas as pd

    n_units = codes.n_units
    p_rows = (uniq & cols.faithful)[codes.parent] & codes.preserved_known
    key = codes.group[codes.parent[p_rows]] * n_units + (codes.preserved_key[p_rows] % n_units)
    if size * n_units <= 1 << 26:  # a flag per possible (model, answer, unit): no hashing
        seen = np.zeros(size * n_units, dtype=bool)
        seen[key] = True
        key = np.flatnonzero(seen)
    else:
        key = pd.unique(key)
    covered: np.ndarray = np.bincount((key // n_units).astype(np.int64), minlength=size)
    return covered


def count_rows(
    cols: Columns,
    codes: Codes,
    kept: Kept,
    duplicate: np.ndarray,
    left_out: np.ndarray | None = None,
) -> Any:
    """Step 5, count and frame: every count per (model, answer), as a pandas DataFrame.

    ``duplicate`` marks rows whose fingerprint occurred earlier in their (model, answer) among
    the kept rows (D -> D*). Three bincounts give the status counts over kept and unique rows;
    coverage counts distinct (model, answer, unit) among faithful unique rows. ``left_out``
    marks good rows the file says are audited but never counted (not in ``kept.keep``).
    """
    import pandas as pd

    group, keep = codes.group, kept.keep
    n_ans, n_models = len(codes.answers), len(codes.model_names)
    size = n_models * n_ans
    not_counted = np.bincount(
        group[left_out] if left_out is not None else group[:0], minlength=size
    )
    uniq = keep & ~duplicate
    st = np.where(codes.status >= 0, codes.status, 0)
    by_status_raw = np.bincount((group * 3 + st)[keep], minlength=size * 3).reshape(size, 3)
    by_status_uniq = np.bincount((group * 3 + st)[uniq], minlength=size * 3).reshape(size, 3)
    raw_n = by_status_raw.sum(axis=1)
    uniq_n = by_status_uniq.sum(axis=1)
    faithful_n = np.bincount(group[uniq & cols.faithful], minlength=size)
    non_atomic_n = np.bincount(group[uniq & ~cols.atomic], minlength=size)
    covered = _covered(cols, codes, uniq, size)
    units_per_answer = np.bincount(codes.unit_answer, minlength=n_ans)
    # every answer of the units table for every model: candidate-less answers are empty selections
    include = (raw_n > 0) | (not_counted > 0) | np.tile(units_per_answer > 0, n_models)
    idx = np.flatnonzero(include)
    m_idx, a_idx = idx // n_ans, idx % n_ans
    df = pd.DataFrame(
        {
            "model": pd.Categorical.from_codes(m_idx, categories=list(codes.model_names)),
            "answer_id": codes.answers.take(pa.array(a_idx)).to_pandas(),
            "raw": raw_n[idx],
            "unique": uniq_n[idx],
            "faithful": faithful_n[idx],
            "covered": covered[idx],
            "units": units_per_answer[a_idx],
            "supported_unique": by_status_uniq[idx, 0],
            "contradicted_unique": by_status_uniq[idx, 1],
            "not_in_reference_unique": by_status_uniq[idx, 2],
            "supported_raw": by_status_raw[idx, 0],
            "duplicates": raw_n[idx] - uniq_n[idx],
            "non_atomic": non_atomic_n[idx],
            "left_out": not_counted[idx],
            NO_FILE: np.zeros(idx.size, dtype=np.int64),  # set by with_files for folders
        }
    )
    df["missing_units"] = df["units"] - df["covered"]
    return df.sort_values(["model", "answer_id"], ignore_index=True)


def count_ledger(
    candidates: pa.Table,
    units: pa.Table,
    *,
    candidates_file: str = "candidates",
    units_file: str = "units",
    by: str | None = None,
    on_error: OnError = "stop",
    models: Sequence[str] | None = None,
) -> LedgerCounts:
    """Count everything behind the four Toy ratios per (model, answer), vectorised.

    The steps, each a function of its own: the rows parsed on the io floor
    (:mod:`claimlab.io.ledger_rows`: ``coerce_columns``, ``encode``, ``check_rows``,
    ``apply_on_error``), the repeated fingerprints
    (:func:`~claimlab.io.arrays.repeats_within`) and :func:`count_rows`. The costliest,
    finding repeated fingerprints, runs on a second thread while the rows are checked (both
    mostly outside the GIL).

    Raises:
        LedgerError: on the first bad row (``on_error="stop"``), naming file, row and field.
    """
    cols = coerce_columns(
        candidates, units, candidates_file=candidates_file, units_file=units_file, by=by
    )
    codes = encode(cols, models=models)
    keys = claim_keys(cols.fingerprint)  # Library|OPENS|9 repeats library|opens|9
    with ThreadPoolExecutor(max_workers=1) as pool:  # joined even when a check raises
        pending = pool.submit(repeats_within, codes.group, keys)
        kept = apply_on_error(cols, check_rows(cols, codes, by=by), on_error=on_error)
        duplicate = pending.result()
    left_out = None if cols.left_out is None else kept.keep & cols.left_out
    if left_out is not None and left_out.any():  # audited, never counted
        kept = replace(kept, keep=kept.keep & ~left_out)
    if kept.skipped or (left_out is not None and left_out.any()):
        # rows that do not count are never the first occurrence of a fingerprint either
        duplicate = np.zeros(len(kept.keep), dtype=bool)
        duplicate[kept.keep] = repeats_within(
            codes.group[kept.keep], keys.filter(pa.array(kept.keep))
        )
    df = count_rows(cols, codes, kept, duplicate, left_out)
    return LedgerCounts(df, kept.issues, kept.skipped, int((df["raw"] == 0).sum()), kept.unlisted)


METRIC_NAMES = TOY_METRICS
RATIO_DEFS = {
    "preservation": ("faithful", "unique"),
    "coverage": ("covered", "units"),
    "confirmed_support": ("supported_unique", "unique"),
    "raw_support": ("supported_raw", "raw"),
}

# What one answer contributes for one decomposer: the per-answer table's columns (one row per
# (model, answer), :func:`count_rows`). Every figure, interval, comparison, ranking and gate
# is computed from these rows and nothing else.
ANSWER_RECORD: Mapping[str, str] = MappingProxyType(
    {
        "model": "the decomposer (the --by group)",
        "answer_id": "the answer",
        "units": "content units of the answer (|A|)",
        "raw": "candidate rows counted (|D|); 0: the decomposer produced nothing for it",
        "unique": "candidates unique by fingerprint (|D*|)",
        "faithful": "faithful unique candidates (|P|)",
        "covered": "units preserved by a faithful unique candidate",
        "supported_unique": "SUPPORTED among the unique candidates",
        "contradicted_unique": "CONTRADICTED among the unique candidates",
        "not_in_reference_unique": "NOT_IN_REFERENCE among the unique candidates",
        "supported_raw": "SUPPORTED among the rows counted",
        "duplicates": "not counted as unique: a repeated fingerprint (|D| - |D*|)",
        "non_atomic": "unique candidates that are not atomic",
        "missing_units": "not covered: units no faithful unique candidate preserves",
        "left_out": "not counted: candidates the file audits but never counts (an ambiguous "
        "mapping, untagged background)",
        NO_FILE: "1: the decomposer's folder holds no file for the answer (scored as an empty "
        "selection all the same; a release gate counts it as missing when the baseline had one)",
    }
)


def with_files(counts: LedgerCounts, files: Mapping[str, Collection[str]]) -> LedgerCounts:
    """The counts with ``no_file`` set: 1 where a decomposer's folder held no file for the answer.

    ``files`` gives each decomposer (``model``) the answer ids its folder holds a file for. The
    answer is still scored (an empty selection: coverage 0 of its units); the column records
    that its file was absent, so a release gate can tell a lost file from an empty one.

    Examples:
        >>> import pandas as pd
        >>> t = pd.DataFrame({"model": ["A", "B"], "answer_id": ["x", "x"], NO_FILE: [0, 0]})
        >>> c = LedgerCounts(t, (), 0, 0)
        >>> with_files(c, {"A": {"x"}, "B": set()}).table[NO_FILE].tolist()
        [0, 1]
    """
    have = {(str(m), str(a)) for m, ids in files.items() for a in ids}
    table = counts.table.copy()
    pairs = zip(table["model"].astype(str), table["answer_id"].astype(str), strict=True)
    table[NO_FILE] = np.array([int(p not in have) for p in pairs], dtype=np.int64)
    return replace(counts, table=table)


def group_records(table: Any) -> dict[str, Any]:
    """Per group (``model``), every answer it was given, indexed by answer id.

    The rows are the per-group figures' own: an answer a group produced nothing for (``raw``
    0) stays, scored as an empty selection (coverage 0 of its units, the other ratios N/A).
    Comparisons pair these records figure by figure
    (:func:`claimlab.metrics.stats.comparisons.pair_items`), leaving out only what is N/A on
    one side.
    """
    return {str(k): g.set_index("answer_id") for k, g in table.groupby("model", observed=True)}


@dataclass(frozen=True)
class CorpusFigures:
    """Micro (summed counts) and macro (mean over defined answers) figures for one group."""

    group: str
    answers: int
    empty_answers: int
    micro: Mapping[str, Ratio]
    macro: Mapping[str, MeanOfDefined]
    status_counts: Mapping[str, int]
    duplicates: int
    missing_units: int
    non_atomic: int = 0
    pairs: int = 0  # (decomposer, answer) pairs scored: more than answers when several split one
    left_out: int = 0  # candidates audited but never counted

    def __post_init__(self) -> None:
        freeze(self, "micro", "macro", "status_counts")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "group": self.group,
            "answers": self.answers,
            "decomposer_answer_pairs": self.pairs,
            "answers_without_candidates": self.empty_answers,
            "micro": {k: v.to_dict() for k, v in self.micro.items()},
            "macro": {k: v.to_dict() for k, v in self.macro.items()},
            "status_counts_unique": dict(self.status_counts),
            "duplicates": self.duplicates,
            "missing_units": self.missing_units,
            "non_atomic_unique": self.non_atomic,
            "candidates_left_out": self.left_out,
        }


def corpus_figures(table: Any, *, group: str) -> CorpusFigures:
    """Micro and macro figures from per-answer counts."""
    micro = {}
    macro = {}
    for name, (num, den) in RATIO_DEFS.items():
        n = int(table[num].sum())
        d = int(table[den].sum())
        micro[name] = Ratio(n, d)
        dens = table[den].to_numpy()
        defined = dens > 0
        vals = table[num].to_numpy()[defined] / dens[defined]
        macro[name] = MeanOfDefined(  # fsum: the same last digit whatever the answers' order
            math.fsum(vals.tolist()) / len(vals) if defined.any() else None,
            int(defined.sum()),
            int((~defined).sum()),
        )
    return CorpusFigures(
        group=group,
        answers=int(table["answer_id"].nunique()),
        pairs=len(table),
        empty_answers=int((table["raw"] == 0).sum()),
        micro=micro,
        macro=macro,
        status_counts={str(s): int(table[f"{s.value.lower()}_unique"].sum()) for s in STATUSES},
        duplicates=int(table["duplicates"].sum()),
        missing_units=int(table["missing_units"].sum()),
        non_atomic=int(table["non_atomic"].sum()),
        left_out=int(table["left_out"].sum()) if "left_out" in table else 0,
    )


def per_answer_ratios(table: Any) -> Any:
    """Add value and display columns for the four ratios (NaN / "N/A (0/0)" where undefined)."""
    out = table.copy()
    for name, (num, den) in RATIO_DEFS.items():
        n, d = out[num].to_numpy(), out[den].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name] = np.where(d > 0, n / np.where(d > 0, d, 1), np.nan)
        disp = np.where(
            d > 0, np.char.mod("%.1f%%", 100 * np.nan_to_num(out[name].to_numpy())), "N/A"
        )
        out[f"{name}_display"] = np.char.add(
            np.char.add(disp, " ("),
            np.char.add(np.char.add(n.astype(str), "/"), np.char.add(d.astype(str), ")")),
        )
    return out


@dataclass(frozen=True)
class LedgerResult:
    """Per-answer counts, corpus figures overall and per group, and what was skipped."""

    counts: LedgerCounts
    corpus: CorpusFigures
    groups: Mapping[str, CorpusFigures]
    by: str | None = None  # the candidates column the groups come from

    def __post_init__(self) -> None:
        freeze(self, "groups")

    def to_dict(self) -> dict[str, Any]:
        """JSON form (corpus figures; per-answer rows go to ``--out``)."""
        return {
            "corpus": self.corpus.to_dict(),
            "by_group": {k: v.to_dict() for k, v in self.groups.items()},
            "skipped_rows": self.counts.skipped_rows,
            "issues": [str(i) for i in self.counts.issues],
            "issues_not_listed": dict(self.counts.unlisted),
        }


def summarise(counts: LedgerCounts, *, by: str | None) -> LedgerResult:
    """Corpus figures overall and per model."""
    table = counts.table
    groups = {}
    if by is not None:
        for name, sub in table.groupby("model", observed=True):
            groups[str(name)] = corpus_figures(sub, group=str(name))
    return LedgerResult(counts, corpus_figures(table, group="all"), groups, by)


def score_ledger(
    candidates: str | Path,
    units: str | Path,
    *,
    by: str | None = None,
    on_error: OnError = "stop",
    progress: bool = False,
) -> LedgerResult:
    """Read both tables and score them (see the module's definitions).

    Raises:
        LedgerError: an unreadable file, a missing column, a bad row (unless skipped).
    """
    from tqdm import tqdm

    steps = tqdm(total=3, desc="ledger", unit="step", disable=not progress)
    steps.set_postfix_str("reading candidates")
    cand = load_table(candidates)
    steps.update()
    steps.set_postfix_str("reading units")
    unit_table = load_table(units)
    steps.update()
    steps.set_postfix_str("scoring")
    counts = count_ledger(
        cand,
        unit_table,
        candidates_file=str(candidates),
        units_file=str(units),
        by=by,
        on_error=on_error,
    )
    steps.update()
    steps.close()
    return summarise(counts, by=by)


def score_tables(
    candidates: pa.Table,
    units: pa.Table,
    *,
    by: str | None = None,
    on_error: OnError = "stop",
    models: Sequence[str] | None = None,
) -> LedgerResult:
    """Score ledger tables already in memory (e.g. a generated or converted ledger).

    ``models`` names every group scored, in order, even one without a single candidate row
    (a decomposer that produced nothing for any answer is scored on each, as empty selections).
    """
    counts = count_ledger(candidates, units, by=by, on_error=on_error, models=models)
    return summarise(counts, by=by)


def fixture_from_rows(
    rows: Sequence[Mapping[str, Any]], unit_ids: Sequence[str]
) -> DecompositionFixture:
    """One answer's ledger rows as an in-memory decomposition fixture (for the lab's own scorer).

    ``rows`` are dicts with the candidates columns, in file order; the fixture scorer then scores
    ``[row["candidate_id"] for row in rows]`` with the same definitions the ledger scorer counts.
    A ledger's ``preserves`` are the units that count (a decomposition file's rows list only the
    units a source span backs), so every unit and every candidate's span is one place of two
    characters: each span lies in each unit (:func:`claimlab.core.spans.span_backs`).
    """
    place = Span(0, 2, "--")
    return DecompositionFixture(
        "ledger rows",
        Original("answer", "ledger", place.text),
        tuple(Unit(u, place) for u in unit_ids),
        (),
        tuple(
            Candidate(
                id=r["candidate_id"],
                text="",
                entity="",
                version="",
                predicate="",
                qualifiers=(),
                source_spans=(place,),
                fingerprint=r["fingerprint"],
                preserves=tuple(r["preserves"]),
                faithful=r["faithful"],
                atomic=r["atomic"],
                errors=(),
                evidence=Evidence(r["status"], ()),
            )
            for r in rows
        ),
    )


def perfect_support_low_coverage(
    result: LedgerResult, *, coverage_below: float = 0.6, limit: int = 10
) -> tuple[Any, int]:
    """Answers whose confirmed support is 100 % while coverage is below a share: dropped claims."""
    t = per_answer_ratios(result.counts.table)
    hit = t[(t["confirmed_support"] == 1.0) & (t["coverage"] < coverage_below)]
    cols = ["model", "answer_id", "confirmed_support_display", "coverage_display", "missing_units"]
    return hit[cols].head(limit).reset_index(drop=True), int(len(hit))
