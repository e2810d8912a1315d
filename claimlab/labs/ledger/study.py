"""Notebook 08's ledger: where it comes from, and its intervals per decomposer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from claimlab.metrics import ledger, uncertainty
from claimlab.notebook.display import md_code

if TYPE_CHECKING:
    from claimlab.metrics.stats.comparisons import Comparison


def notebook_ledger(
    decompositions: str, candidates: str, units: str, by: str
) -> tuple[ledger.LedgerResult, str]:
    """The scored ledger and a sentence saying where it came from (Markdown, escaped).

    A folder of decomposition files when ``decompositions`` is given (drafts said to be drafts),
    else the SIMULATED demo ledger for ``candidates == "demo"``, else the user's two tables.
    """
    if decompositions:
        from claimlab.io.ledger import decomposition_folder, tables_from_decompositions

        files = decomposition_folder(decompositions)
        source = f"{len(files)} decomposition files in {md_code(decompositions)}"
        drafts = [fx for fx in files if fx.is_draft]
        if drafts:
            source += f" (**DRAFT, not gold**: {len(drafts)} files hold proposed labels, counted as given)"
        return ledger.score_tables(*tables_from_decompositions(files), by=None), source
    if candidates == "demo":
        from claimlab.labs.ledger.demo import demo_ledger

        return ledger.score_tables(*demo_ledger(), by=by or None), "the SIMULATED demo ledger"
    return ledger.score_ledger(candidates, units, by=by or None), md_code(candidates)


def group_intervals(
    result: ledger.LedgerResult, *, level: float, resamples: int, seed: int
) -> dict[str, Any]:
    """Each decomposer's (or the corpus's) intervals, answers resampled."""
    table = result.counts.table
    parts = (
        {name: table[table["model"] == name] for name in result.groups}
        if result.groups
        else {"all": table}
    )
    return {
        name: uncertainty.ledger_intervals(sub, level=level, resamples=resamples, seed=seed)
        for name, sub in parts.items()
    }


def intervals_record(intervals: dict[str, Any]) -> dict[str, Any]:
    """What notebook 08 records of the intervals: per group, figure/aggregate -> interval."""
    return {
        n: {"/".join(k): (v.to_dict() if v else None) for k, v in ivs.items()}
        for n, ivs in intervals.items()
    }


def group_comparisons(
    result: ledger.LedgerResult, compare: str, *, level: float, resamples: int, seed: int
) -> list[Comparison] | None:
    """Paired comparisons of the groups ``compare`` names ("all", or two names).

    None when there are fewer than two groups or nothing is asked.
    """
    names = sorted(result.groups)
    if not compare or len(names) < 2:
        return None
    if compare == "all":
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    else:
        pairs = [cast("tuple[str, str]", tuple(n.strip() for n in compare.split()))]
    return list(
        uncertainty.ledger_comparisons(
            result.counts.table,
            pairs,
            level=level,
            resamples=resamples,
            permutations=resamples,
            seed=seed,
        )
    )
