"""claimlab.metrics.uncertainty."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from claimlab.core.vocab import TOY_METRICS
from claimlab.metrics.stats.comparisons import (
    Comparison,
    Ranking,
    pair_items,
    paired_comparisons,
    ranking_stability,
    rankings_stability,
    with_holm,
)
from claimlab.metrics.stats.intervals import Interval, NoInterval, bootstrap_intervals, wilson
from claimlab.metrics.stats.prediction_powered import PredictionPowered, prediction_powered
from claimlab.metrics.stats.resampling import (
    AGGREGATES,
    Aggregate,
    Floats,
    Method,
    macro_parts,
    ratio_parts,
)

LEDGER_METRICS = TOY_METRICS


def _ledger_defs() -> dict[str, tuple[str, str]]:
    from claimlab.metrics.ledger import RATIO_DEFS

    return dict(RATIO_DEFS)


def _ledger_figures(table: Any, codes: Any = None) -> tuple[Any, dict[str, tuple[Any, Any]]]:
    """Per-answer ratio parts of every figure of a ledger group (answers in sorted order)."""
    ids = table["answer_id"].to_numpy().astype(str)
    found, clusters = np.unique(ids, return_inverse=True)
    n_clusters = len(found)

    def per_answer(values: Floats) -> Floats:
        return np.bincount(clusters, weights=values, minlength=n_clusters).astype(np.float64)

    figures: dict[str, tuple[Any, Any]] = {}
    for metric, (num, den) in _ledger_defs().items():
        n, d = table[num].to_numpy(np.float64), table[den].to_numpy(np.float64)
        figures[f"micro/{metric}"] = (per_answer(n), per_answer(d))
        r, defined = macro_parts(n, d)
        figures[f"macro/{metric}"] = (per_answer(r), per_answer(defined))
    return found, figures


def ledger_intervals(
    table: Any,
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[tuple[str, str], Interval | NoInterval]:
    """Every corpus figure of one ledger group: ``{(aggregate, metric): interval}``.

    ``table`` is the per-answer table of :func:`claimlab.metrics.ledger.count_ledger` (one row
    per decomposer and answer). The clusters are the original answers: when several
    decomposers split the same answer (the whole corpus), its rows are resampled together.
    """
    _, figures = _ledger_figures(table)
    out = bootstrap_intervals(figures, level=level, resamples=resamples, seed=seed, method=method)
    return {tuple(k.split("/")): v for k, v in out.items()}  # type: ignore[misc]


def ledger_group_intervals(
    table: Any,
    *,
    by_group: bool,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[str | None, dict[tuple[str, str], Interval | NoInterval]]:
    """:func:`ledger_intervals` of the corpus (None) and of each group (``model``), at once.

    Groups over the same answers as the corpus (the ledger scores every answer for every
    decomposer) share one resampling: the same weights each would draw on its own, so the
    intervals are those of separate calls, computed once.
    """
    parts: dict[str | None, tuple[Any, dict[str, tuple[Any, Any]]]] = {None: _ledger_figures(table)}
    for name, sub in table.groupby("model", observed=True) if by_group else ():
        parts[str(name)] = _ledger_figures(sub)
    same = [g for g, (ids, _) in parts.items() if np.array_equal(ids, parts[None][0])]
    shared = {f"{i}|{k}": v for i, g in enumerate(same) for k, v in parts[g][1].items()}
    done = bootstrap_intervals(shared, level=level, resamples=resamples, seed=seed, method=method)
    out: dict[str | None, dict[tuple[str, str], Interval | NoInterval]] = {}
    for i, g in enumerate(same):
        out[g] = {tuple(k.split("/")): done[f"{i}|{k}"] for k in parts[g][1]}  # type: ignore[misc]
    for g, (_, figures) in parts.items():
        if g not in out:
            one = bootstrap_intervals(
                figures, level=level, resamples=resamples, seed=seed, method=method
            )
            out[g] = {tuple(k.split("/")): v for k, v in one.items()}  # type: ignore[misc]
    return out


def scored_by_group(table: Any) -> dict[str, Any]:
    """Per group (``model``), every answer it was given, indexed by answer id.

    The records the per-group figures are computed from
    (:func:`claimlab.metrics.ledger.group_records`): an answer a group produced nothing for
    is one of them, scored as an empty selection, and is paired wherever its figure is defined.
    """
    from claimlab.metrics.ledger import group_records

    return group_records(table)


def _groups_named(groups: dict[str, Any], names: Sequence[str]) -> None:
    """Refuse a name that is not a group of the ledger."""
    for name in names:
        if name not in groups:
            known = ", ".join(sorted(groups)) or "none"
            raise KeyError(f"no group {name!r} in the ledger (groups: {known})")


def ledger_comparisons(
    table: Any,
    pairs: Sequence[tuple[str, str]],
    *,
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
) -> list[Comparison]:
    """Paired comparisons of groups (``model`` values) over their answer records, Holm-adjusted.

    Each figure pairs the two groups' records by the one rule of
    :func:`~claimlab.metrics.stats.comparisons.pair_items`: every answer both were given,
    including those one of them produced nothing for, except where the figure is N/A (0/0) on
    one side (counted as ``undefined``). Every pair gives eight comparisons (four metrics,
    micro and macro, which share their pairs); Holm's adjustment runs over all of them.
    """
    groups = scored_by_group(table)
    out: list[Comparison] = []
    for a, b in pairs:
        _groups_named(groups, (a, b))
        for metric, (num, den) in _ledger_defs().items():
            pairing = pair_items(groups[a], groups[b], num, den)
            figures: dict[tuple[str, str], tuple[tuple[Floats, Floats], tuple[Floats, Floats]]]
            figures = {
                (metric, aggregate): (
                    ratio_parts(*pairing.a, aggregate),
                    ratio_parts(*pairing.b, aggregate),
                )
                for aggregate in AGGREGATES
            }
            out += paired_comparisons(
                figures, names=(a, b), only=(pairing.only_a, pairing.only_b),
                undefined=pairing.undefined, level=level, resamples=resamples,
                permutations=permutations, seed=seed,
            )  # fmt: skip
    return with_holm(out)


FACTSCORE_FIGURES = ("factscore", "init_score", "micro_precision", "respond_ratio")


def _prompt_keys(result: Any) -> list[str]:
    """One key per prompt: its topic (a repeated topic gets its occurrence number)."""
    seen: dict[str, int] = {}
    keys = []
    for r in result.responses:
        k = seen.get(r.topic, 0)
        seen[r.topic] = k + 1
        keys.append(r.topic if k == 0 else f"{r.topic} #{k + 1}")
    return keys


def factscore_parts(result: Any) -> dict[str, tuple[Floats, Floats]]:
    """A FActScore result's figures as per-prompt ratio parts (prompts are the clusters).

    ``factscore`` and ``init_score``: the mean over scored responses (a prompt without a
    scored response adds nothing to either sum); ``micro_precision``: supported facts over all
    facts; ``respond_ratio``: responding prompts over prompts.
    """
    rs = result.responses
    score = np.array([r.score if r.score is not None else 0.0 for r in rs], dtype=np.float64)
    init = np.array([r.init_score if r.init_score is not None else 0.0 for r in rs], np.float64)
    defined = np.array([r.init_score is not None for r in rs], dtype=np.float64)
    sup = np.array([r.support.numerator if r.support else 0 for r in rs], dtype=np.float64)
    facts = np.array([r.support.denominator if r.support else 0 for r in rs], dtype=np.float64)
    responded = np.array([r.responded for r in rs], dtype=np.float64)
    return {
        "factscore": (score * defined, defined),
        "init_score": (init * defined, defined),
        "micro_precision": (sup, facts),
        "respond_ratio": (responded, np.ones(len(rs))),
    }


def factscore_intervals(
    result: Any,
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    method: Method = "bca",
) -> dict[str, Interval | NoInterval | None]:
    """Intervals of a FActScore result's figures.

    A cluster bootstrap over prompts; Wilson for the respond ratio (one independent item per
    prompt).
    """
    parts = factscore_parts(result)
    respond = parts.pop("respond_ratio")
    out: dict[str, Interval | NoInterval | None] = dict(
        bootstrap_intervals(parts, level=level, resamples=resamples, seed=seed, method=method)
    )
    out["respond_ratio"] = wilson(int(respond[0].sum()), int(respond[1].sum()), level)
    return out


def aligned_parts(
    results: dict[str, Any], names: Sequence[str]
) -> tuple[list[str], dict[str, dict[str, tuple[Floats, Floats]]]]:
    """The prompts every named result has, and each result's parts on them, in one order."""
    keys = {n: _prompt_keys(results[n]) for n in names}
    shared = [k for k in keys[names[0]] if all(k in set(keys[n]) for n in names[1:])]
    out = {}
    for n in names:
        index = {k: i for i, k in enumerate(keys[n])}
        take = np.array([index[k] for k in shared], dtype=np.int64)
        out[n] = {f: (a[take], b[take]) for f, (a, b) in factscore_parts(results[n]).items()}
    return shared, out


def factscore_comparisons(
    results: dict[str, Any],
    pairs: Sequence[tuple[str, str]],
    *,
    level: float = 0.95,
    resamples: int = 2000,
    permutations: int = 2000,
    seed: int = 0,
) -> list[Comparison]:
    """Paired comparisons of FActScore subjects on their shared prompts, Holm-adjusted.

    A prompt is shared when both files hold it (by topic); each side's figure is its own
    FActScore over the shared prompts it answered with facts, as the metric defines it.
    """
    out: list[Comparison] = []
    for a, b in pairs:
        shared, parts = aligned_parts(results, [a, b])
        only = (len(results[a].responses) - len(shared), len(results[b].responses) - len(shared))
        figures = {
            (f, "macro" if f in ("factscore", "init_score") else "micro"): (
                parts[a][f],
                parts[b][f],
            )
            for f in FACTSCORE_FIGURES
        }
        out += paired_comparisons(
            figures,
            names=(a, b),
            only=only,
            level=level,
            resamples=resamples,
            permutations=permutations,
            seed=seed,
        )
    return with_holm(out)


def factscore_ranking(
    results: dict[str, Any], *, figure: str = "factscore", resamples: int = 2000, seed: int = 0
) -> Ranking:
    """How often the order of the subjects by a figure holds when shared prompts are resampled."""
    names = list(results)
    shared, parts = aligned_parts(results, names)
    out = ranking_stability({n: parts[n][figure] for n in names}, resamples=resamples, seed=seed)
    return out.with_about(prompts=len(shared), figure=figure)


def ledger_ranking(
    table: Any,
    *,
    metric: str = "coverage",
    aggregate: Aggregate = "micro",
    resamples: int = 2000,
    seed: int = 0,
) -> Ranking:
    """How often the decomposers' order by one figure holds under resampling.

    The answers every decomposer was given are resampled, those where the figure is N/A (0/0)
    for one of them left out, as in a comparison.
    """
    return ledger_rankings(
        table, metrics=(metric,), aggregate=aggregate, resamples=resamples, seed=seed
    )[0]


def ledger_rankings(
    table: Any,
    *,
    metrics: Sequence[str] = LEDGER_METRICS,
    aggregate: Aggregate = "micro",
    resamples: int = 2000,
    seed: int = 0,
) -> list[Ranking]:
    """:func:`ledger_ranking` of several metrics over the answers every decomposer was given.

    Per metric, the answers resampled are those every group holds with the figure defined
    (the pairing rule of :func:`~claimlab.metrics.stats.comparisons.pair_items`, over all
    groups); ``about["answers"]`` says how many.
    """
    groups = scored_by_group(table)
    if len(groups) < 2:
        return [Ranking(tuple(groups), None, (), 0, about={"metric": m}) for m in metrics]
    out = []
    for metric in metrics:
        num, den = _ledger_defs()[metric]
        defined = [g.index[g[den].to_numpy() > 0] for g in groups.values()]
        shared = defined[0]
        for ids in defined[1:]:
            shared = shared.intersection(ids, sort=False)
        figure = {
            name: ratio_parts(
                g.loc[shared, num].to_numpy(np.float64),
                g.loc[shared, den].to_numpy(np.float64),
                aggregate,
            )
            for name, g in groups.items()
        }
        ranked = rankings_stability({metric: figure}, resamples=resamples, seed=seed)[metric]
        out.append(ranked.with_about(metric=metric, aggregate=aggregate, answers=len(shared)))
    return out


def ledger_prediction_powered(
    auto: Any, human: Any, *, level: float = 0.95
) -> list[PredictionPowered]:
    """Every figure of a ledger labelled by an autorater, corrected by people's labels on some.

    ``auto`` and ``human`` are per-answer tables (:func:`claimlab.metrics.ledger.count_ledger`)
    over the same units; an answer is labelled by people when the human table has a
    candidate row for it. One decomposer: the tables must not be split by model.

    Raises:
        ValueError: fewer than two labelled or unlabelled answers.
    """
    a = auto.set_index("answer_id")
    h = human.set_index("answer_id").reindex(a.index)
    labelled = (h["raw"].fillna(0) > 0).to_numpy()
    out = []
    for metric, (num, den) in _ledger_defs().items():
        an, ad = a[num].to_numpy(np.float64), a[den].to_numpy(np.float64)
        hn = h[num].fillna(0).to_numpy(np.float64)
        hd = h[den].fillna(0).to_numpy(np.float64)
        for aggregate in AGGREGATES:
            out.append(
                prediction_powered(
                    (an, ad), (hn, hd), labelled, figure=metric, aggregate=aggregate, level=level
                )
            )
    return out
