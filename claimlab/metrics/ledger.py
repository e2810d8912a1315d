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

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from claimlab.core.errors import LedgerError
from claimlab.core.frozen import freeze
from claimlab.core.ratio import MeanOfDefined, Ratio
from claimlab.core.vocab import STATUSES, TOY_METRICS, unknown
from claimlab.io.decomposition import (
    Candidate,
    DecompositionFixture,
    Evidence,
    Original,
    Span,
    Unit,
)
from claimlab.io.ledger import (
    CANDIDATE_COLUMNS,
    ROW,
    UNIT_COLUMNS,
    _as_bool,
    _as_string,
    _preserves,
    _require,
    as_id,
    read_table,
    row_label,
)
from claimlab.metrics.repeats import _codes, _decoded, _encode, _repeats, _repeats_within, _uniq

NO_MODEL = "(all)"
OnError = Literal["stop", "skip"]


@dataclass(frozen=True)
class Issue:
    """One bad row: where, which field, what."""

    file: str
    row: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {row_label(self.file, self.row)}: {self.field}: {self.message}"


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


@dataclass(frozen=True)
class Columns:
    """Step 1, read and coerce: the ledger's columns in one shape each (see :mod:`claimlab.io.ledger`)."""

    candidates_file: str
    units_file: str
    rows: np.ndarray  # 1-based file rows of the candidates
    answer: pa.ChunkedArray
    candidate: pa.ChunkedArray
    fingerprint: pa.ChunkedArray
    status: pa.ChunkedArray
    faithful: np.ndarray
    atomic: np.ndarray
    preserves: pa.ChunkedArray
    model: pa.ChunkedArray | None
    unit_answer: pa.ChunkedArray
    unit_id: pa.ChunkedArray
    unit_rows: np.ndarray
    has_model_column: bool


def coerce_columns(
    candidates: pa.Table,
    units: pa.Table,
    *,
    candidates_file: str = "candidates",
    units_file: str = "units",
    by: str | None = None,
) -> Columns:
    """Check the required columns are there and bring each to one shape.

    Raises:
        LedgerError: a missing column, a value of the wrong type, an empty value.
    """
    src_c, src_u = candidates_file, units_file
    _require(candidates, CANDIDATE_COLUMNS, src_c)
    _require(units, UNIT_COLUMNS, src_u)
    if by is not None and by not in candidates.column_names:
        raise LedgerError("the --by column is not in the candidates table", file=src_c, field=by)
    if ROW not in candidates.column_names:
        candidates = candidates.append_column(
            ROW, pa.array(np.arange(1, candidates.num_rows + 1, dtype=np.int64))
        )
    if ROW not in units.column_names:
        units = units.append_column(ROW, pa.array(np.arange(1, units.num_rows + 1, dtype=np.int64)))
    return Columns(
        candidates_file=src_c,
        units_file=src_u,
        rows=candidates.column(ROW).to_numpy(),
        answer=as_id(candidates, "answer_id", src_c),
        candidate=as_id(candidates, "candidate_id", src_c),
        fingerprint=_as_string(candidates, "fingerprint", src_c),
        status=_as_string(candidates, "status", src_c),
        faithful=_as_bool(candidates, "faithful", src_c),
        atomic=_as_bool(candidates, "atomic", src_c),
        preserves=_preserves(candidates, src_c),
        model=as_id(candidates, by, src_c, group=True) if by else None,
        unit_answer=as_id(units, "answer_id", src_u),
        unit_id=as_id(units, "unit_id", src_u),
        unit_rows=units.column(ROW).to_numpy(),
        has_model_column="model" in candidates.column_names,
    )


@dataclass(frozen=True)
class Codes:
    """Step 2, encode: every row as integer codes (groups, statuses, units) for array counting."""

    group: np.ndarray  # (model, answer) per candidate row
    answers: pa.Array
    model_names: tuple[str, ...]
    status: np.ndarray  # index into STATUSES, -1 for an unknown status
    unit_answer: np.ndarray
    unit_key: np.ndarray  # (answer, unit) per unit row
    n_units: int
    parent: np.ndarray  # the candidate row of each preserved unit
    preserved_key: np.ndarray  # (answer, unit) per preserved unit
    preserved_known: np.ndarray  # whether that unit is in the units table


def encode(cols: Columns, *, models: Sequence[str] | None = None) -> Codes:
    """Integer codes for answers, models, statuses and units (dictionary columns come for free).

    ``models`` fixes the list of models (default: those in the table), so that a partition of a
    larger ledger scores the same empty selections as the whole would.
    """
    import pandas as pd

    a_c, answers = _encode(cols.answer)
    a_u = _codes(_decoded(cols.unit_answer), answers)
    if (a_u < 0).any():  # answers with units but no candidate row at all
        extra = _uniq(pc.filter(_decoded(cols.unit_answer), pa.array(a_u < 0)))
        a_u = np.where(a_u < 0, _codes(_decoded(cols.unit_answer), extra) + len(answers), a_u)
        answers = pa.concat_arrays([answers.cast(pa.string()), extra.cast(pa.string())])
    n_ans = len(answers)
    if cols.model is not None:
        mc, mdict = _encode(cols.model)
        if models is not None:
            model_names = sorted(models)
        else:  # the models that occur (a dictionary read from Parquet may hold unused values)
            used = np.flatnonzero(np.bincount(mc, minlength=len(mdict)))
            model_names = sorted(mdict.take(pa.array(used)).to_pylist())
        m_c = _codes(mdict, pa.array(model_names, type=pa.string()))[mc] if len(mc) else mc
    else:
        m_c = np.zeros(len(a_c), dtype=np.int64)
        model_names = [NO_MODEL]
    st_codes, st_dict = _encode(cols.status)
    st = _codes(st_dict, pa.array(list(STATUSES)))[st_codes] if len(st_codes) else st_codes
    unit_codes, units_all = _encode(
        pa.chunked_array(
            _decoded(cols.unit_id).chunks + list(pc.list_flatten(cols.preserves).chunks),
            type=pa.string(),
        )
    )
    n_units = max(len(units_all), 1)
    ukey = a_u * n_units + unit_codes[: len(cols.unit_id)]
    parent = pc.list_parent_indices(cols.preserves).to_numpy()
    fkey = a_c[parent] * n_units + unit_codes[len(cols.unit_id) :]
    known = pd.Index(ukey).get_indexer(fkey) >= 0 if len(ukey) else np.zeros(len(fkey), dtype=bool)
    return Codes(
        group=m_c * n_ans + a_c,
        answers=answers,
        model_names=tuple(model_names),
        status=st,
        unit_answer=a_u,
        unit_key=ukey,
        n_units=n_units,
        parent=parent,
        preserved_key=fkey,
        preserved_known=known,
    )


@dataclass(frozen=True)
class RowCheck:
    """Step 3, check: the rows that fail one rule, and how to say so for a row."""

    field: str
    bad: np.ndarray
    message: Callable[[int], str]


def check_rows(cols: Columns, codes: Codes, *, by: str | None) -> list[RowCheck]:
    """Every rule a candidate row must meet, as a mask per rule.

    Raises:
        LedgerError: a unit listed twice for one answer in the units table (that table has
            no rows to skip).
    """
    udup = _repeats(codes.unit_key)
    if udup.any():
        i = int(np.flatnonzero(udup)[0])
        raise LedgerError(
            f"unit {cols.unit_id[i].as_py()!r} listed twice for answer "
            f"{cols.unit_answer[i].as_py()!r}",
            file=cols.units_file,
            record=row_label(cols.units_file, int(cols.unit_rows[i])),
            field="unit_id",
        )
    status, cid, ans = cols.status, cols.candidate, cols.answer
    checks = [
        RowCheck(
            "status",
            codes.status < 0,
            lambda i: unknown("status", status[i].as_py(), STATUSES),
        )
    ]
    cid_codes, cids = _encode(cid)
    hint = (
        " (the table has a 'model' column: score each decomposer apart with --by model)"
        if by is None and cols.has_model_column
        else ""
    )
    checks.append(
        RowCheck(
            "candidate_id",
            _repeats(codes.group * len(cids) + cid_codes),
            lambda i: (
                f"candidate id {cid[i].as_py()!r} appears twice in answer {ans[i].as_py()!r}" + hint
            ),
        )
    )
    unknown_units = np.zeros(len(codes.group), dtype=bool)
    unknown_units[codes.parent[~codes.preserved_known]] = True
    flat = pc.list_flatten(cols.preserves)
    first_unknown: dict[int, str] = {}
    for j in np.flatnonzero(~codes.preserved_known)[:1000]:
        first_unknown.setdefault(int(codes.parent[j]), flat[int(j)].as_py())
    checks.append(
        RowCheck(
            "preserves",
            unknown_units,
            lambda i: (
                f"unit {first_unknown.get(i, '?')!r} is not in the units table for answer "
                f"{ans[i].as_py()!r}"
            ),
        )
    )
    return checks


@dataclass(frozen=True)
class Kept:
    """Step 4, apply ``--on-error``: which rows count, and the bad ones reported."""

    keep: np.ndarray
    issues: tuple[Issue, ...]
    skipped: int
    unlisted: Mapping[str, int]


def apply_on_error(
    cols: Columns, checks: Sequence[RowCheck], *, on_error: OnError, listed: int = 20
) -> Kept:
    """Stop at the first bad row in file order, or leave every bad row out and report it.

    Raises:
        LedgerError: with ``on_error="stop"``, naming file, row and field of the first bad row.
    """
    src = cols.candidates_file
    firsts = [(int(np.flatnonzero(c.bad)[0]), c) for c in checks if c.bad.any()]
    if firsts and on_error == "stop":
        i, c = min(firsts, key=lambda t: t[0])
        raise LedgerError(
            c.message(i), file=src, record=row_label(src, int(cols.rows[i])), field=c.field
        )
    bad = np.zeros(len(cols.rows), dtype=bool)
    issues: list[Issue] = []
    unlisted: dict[str, int] = {}
    for c in checks:
        idx = np.flatnonzero(c.bad & ~bad)
        issues += [Issue(src, int(cols.rows[i]), c.field, c.message(int(i))) for i in idx[:listed]]
        if len(idx) > listed:
            unlisted[c.field] = len(idx) - listed
        bad |= c.bad
    issues.sort(key=lambda x: x.row)
    return Kept(~bad, tuple(issues), int(bad.sum()), unlisted)


def count_rows(cols: Columns, codes: Codes, kept: Kept, duplicate: np.ndarray) -> Any:
    """Step 5, count and frame: every count per (model, answer), as a pandas DataFrame.

    ``duplicate`` marks rows whose fingerprint occurred earlier in their (model, answer) among
    the kept rows (D -> D*). Three bincounts give the status counts over kept and unique rows;
    coverage counts distinct (model, answer, unit) among faithful unique rows.
    """
    import pandas as pd

    group, keep, n_units = codes.group, kept.keep, codes.n_units
    n_ans, n_models = len(codes.answers), len(codes.model_names)
    size = n_models * n_ans
    uniq = keep & ~duplicate
    st = np.where(codes.status >= 0, codes.status, 0)
    by_status_raw = np.bincount((group * 3 + st)[keep], minlength=size * 3).reshape(size, 3)
    by_status_uniq = np.bincount((group * 3 + st)[uniq], minlength=size * 3).reshape(size, 3)
    raw_n = by_status_raw.sum(axis=1)
    uniq_n = by_status_uniq.sum(axis=1)
    faithful_n = np.bincount(group[uniq & cols.faithful], minlength=size)
    non_atomic_n = np.bincount(group[uniq & ~cols.atomic], minlength=size)
    p_rows = (uniq & cols.faithful)[codes.parent] & codes.preserved_known
    cover_key = group[codes.parent[p_rows]] * n_units + (codes.preserved_key[p_rows] % n_units)
    if size * n_units <= 1 << 26:  # a flag per possible (model, answer, unit): no hashing
        seen = np.zeros(size * n_units, dtype=bool)
        seen[cover_key] = True
        cover_key = np.flatnonzero(seen)
    else:
        cover_key = pd.unique(cover_key)
    covered = np.bincount((cover_key // n_units).astype(np.int64), minlength=size)
    units_per_answer = np.bincount(codes.unit_answer, minlength=n_ans)
    # every answer of the units table for every model: candidate-less answers are empty selections
    include = (raw_n > 0) | np.tile(units_per_answer > 0, n_models)
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

    The steps, each a function of its own: :func:`coerce_columns`, :func:`encode`,
    :func:`check_rows`, :func:`apply_on_error`, the repeated fingerprints
    (:func:`~claimlab.metrics.repeats._repeats_within`) and :func:`count_rows`. The costliest,
    finding repeated fingerprints, runs on a second thread while the rows are checked (both
    mostly outside the GIL).

    Raises:
        LedgerError: on the first bad row (``on_error="stop"``), naming file, row and field.
    """
    cols = coerce_columns(
        candidates, units, candidates_file=candidates_file, units_file=units_file, by=by
    )
    codes = encode(cols, models=models)
    with ThreadPoolExecutor(max_workers=1) as pool:  # joined even when a check raises
        repeats = pool.submit(_repeats_within, codes.group, cols.fingerprint)
        kept = apply_on_error(cols, check_rows(cols, codes, by=by), on_error=on_error)
        duplicate = repeats.result()
    if kept.skipped:  # skipped rows never count, not even as the first occurrence
        duplicate = np.zeros(len(kept.keep), dtype=bool)
        duplicate[kept.keep] = _repeats_within(
            codes.group[kept.keep], cols.fingerprint.filter(pa.array(kept.keep))
        )
    df = count_rows(cols, codes, kept, duplicate)
    return LedgerCounts(df, kept.issues, kept.skipped, int((df["raw"] == 0).sum()), kept.unlisted)


METRIC_NAMES = TOY_METRICS
RATIO_DEFS = {
    "preservation": ("faithful", "unique"),
    "coverage": ("covered", "units"),
    "confirmed_support": ("supported_unique", "unique"),
    "raw_support": ("supported_raw", "raw"),
}


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
        macro[name] = MeanOfDefined(
            float(vals.mean()) if defined.any() else None, int(defined.sum()), int((~defined).sum())
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
    cand = read_table(candidates)
    steps.update()
    steps.set_postfix_str("reading units")
    unit_table = read_table(units)
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
) -> LedgerResult:
    """Score ledger tables already in memory (e.g. a generated or converted ledger)."""
    return summarise(count_ledger(candidates, units, by=by, on_error=on_error), by=by)


def fixture_from_rows(
    rows: Sequence[Mapping[str, Any]], unit_ids: Sequence[str]
) -> DecompositionFixture:
    """One answer's ledger rows as an in-memory decomposition fixture (for the lab's own scorer).

    ``rows`` are dicts with the candidates columns, in file order; the fixture scorer then scores
    ``[row["candidate_id"] for row in rows]`` with the same definitions the ledger scorer counts.
    A ledger's ``preserves`` are the units that count (a decomposition file's rows list only the
    units a source span backs), so every candidate here gets a span at each unit's place.
    """
    return DecompositionFixture(
        "ledger rows",
        Original("answer", "ledger", ""),
        tuple(Unit(u, Span(0, 0, "")) for u in unit_ids),
        (),
        tuple(
            Candidate(
                id=r["candidate_id"],
                text="",
                entity="",
                version="",
                predicate="",
                qualifiers=(),
                source_spans=(Span(0, 0, ""),),
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
