"""Tables and figures of the FActScore lab (notebook 04)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from claimlab.core.ratio import percent
from claimlab.core.text import terminal
from claimlab.metrics.factscore import FactscoreResult
from claimlab.metrics.ledger import CorpusFigures
from claimlab.notebook.display import pandas, rows_table
from claimlab.notebook.style import plot_grouped_values, styled

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.labs.factscore.estimator import EstimatorReport
    from claimlab.labs.factscore.studies import UncertaintyStudy
    from claimlab.metrics.factscore import EstimatorCheck, FactRevisions, PositionBucket


def factscore_table(
    results: Mapping[str, FactscoreResult] | Mapping[tuple[str, ...], FactscoreResult],
) -> pd.DataFrame:
    """Rows of FactscoreResult: value, init_score, respond, facts/response, counts, policy, gamma."""

    def pct(v: float | None) -> str:
        return "N/A" if v is None else f"{100 * v:.1f}"

    rows = []
    for key, r in results.items():
        fpr = r.facts_per_response
        rows.append(
            {
                "subject": key if isinstance(key, str) else " · ".join(map(str, key)),
                "FActScore": pct(r.factscore),
                "init_score": pct(r.init_score),
                "respond": r.respond.display,
                "scored": r.scored,
                "responding without facts": r.undefined,
                "facts/response": "N/A" if fpr is None else f"{fpr:.1f}",
                "supported/facts": f"{r.supported}/{r.facts}",
                "policy": r.policy,
                "gamma": r.gamma,
            }
        )
    return rows_table(
        rows,
        (
            "subject",
            "FActScore",
            "init_score",
            "respond",
            "scored",
            "responding without facts",
            "facts/response",
            "supported/facts",
            "policy",
            "gamma",
        ),
        index="subject",
    )


def factscore_ledger_table(
    factscores: Mapping[str, FactscoreResult], ledgers: Mapping[str, CorpusFigures]
) -> pd.DataFrame:
    """One column per subject: FActScore's init_score beside the responses scored as a ledger.

    ``factscores`` and ``ledgers`` come from the same responses under the same policy
    (:func:`claimlab.labs.ledgers.factscore_beside_ledgers`).
    """
    pd = pandas()
    columns = {}
    for name, corpus in ledgers.items():
        fs = factscores[name]
        raw = corpus.macro["raw_support"]
        columns[name] = {
            "FActScore init_score": "N/A"
            if fs.init_score is None
            else f"{100 * fs.init_score:.1f}",
            "ledger raw support (macro)": raw.display,
            "ledger raw support (micro)": corpus.micro["raw_support"].display,
            "sentences with a checked fact (coverage, micro)": corpus.micro["coverage"].display,
            "repeated facts": str(corpus.duplicates),
            "responding responses": str(corpus.answers),
        }
    table = pd.DataFrame(columns)
    table.index.name = "measure"
    return table


def estimator_table(checks: Mapping[float, EstimatorCheck]) -> pd.DataFrame:
    """One row per flip share: error per subject and whether the ranking is kept."""
    pd = pandas()

    rows = []
    for share, c in checks.items():
        row: dict[str, object] = {"flipped share (SIMULATED)": share}
        for k, e in c.error.items():
            row[f"error {k}"] = "N/A" if e is None else f"{100 * e:.1f} pts"
        row["human ranking"] = " > ".join(c.human_ranking)
        row["estimated ranking"] = " > ".join(c.estimated_ranking)
        row["ranking kept"] = c.ranking_verdict
        rows.append(row)
    return pd.DataFrame(rows).set_index("flipped share (SIMULATED)")


@styled
def plot_factscore_table(
    results: Mapping[str, Mapping[str, FactscoreResult]], *, title: str, value: str = "factscore"
) -> Axes:
    """FActScore per subject (rows) and setting (series); each bar says n scored and respond n/N.

    ``results[row][series]`` is a FactscoreResult; N/A when no response could be scored.
    """
    rows: dict[str, dict[str, tuple[float | None, str]]] = {}
    for row, cells in results.items():
        rows[row] = {}
        for series, r in cells.items():
            v = getattr(r, value)
            if v is None:
                rows[row][series] = (None, f"N/A · respond {r.respond.counts}")
            else:
                rows[row][series] = (v, f"{100 * v:.1f} · n={r.scored} · resp {r.respond.counts}")
    return plot_grouped_values(
        rows, title=title, na_label="N/A (no scored response)", ylabel="FActScore"
    )


@styled
def plot_penalty_curve(
    penalties: Mapping[int, float], gamma: int, *, ax: Axes | None = None
) -> Axes:
    """The length-penalty multiplier (``penalties``: facts -> multiplier) with pinned points marked."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 3.4))
    ns = sorted(penalties)
    ax.plot(ns, [penalties[n] for n in ns], marker="o", color="#4C72B0")
    for n in (1, gamma - 1, gamma, gamma + 1):
        if n in penalties:
            v = penalties[n]
            ax.annotate(
                f"n={n}: ×{v:.4g}", (n, v), textcoords="offset points", xytext=(4, 8), fontsize=8
            )
    ax.axvline(gamma, color="#999999", linestyle=":", linewidth=1)
    ax.set_xlabel("atomic facts in the response (n)")
    ax.set_ylabel("multiplier exp(1 − γ/n)")
    ax.set_title(
        f"Length penalty, γ = {gamma}: only responses with fewer than γ facts are scaled",
        fontsize=10,
    )
    ax.set_ylim(-0.05, 1.15)
    return ax


@styled
def plot_score_vs_init(
    results: Mapping[str, FactscoreResult], *, title: str = "score (penalised) vs init_score"
) -> Axes:
    """Per subject: init_score and the penalised score side by side, with n scored on each bar."""
    rows: dict[str, dict[str, tuple[float | None, str]]] = {}
    for name, r in results.items():
        rows[name] = {}
        for key, v in (
            ("init_score (no penalty)", r.init_score),
            (f"score (γ = {r.gamma})", r.factscore),
        ):
            rows[name][key] = (v, "N/A" if v is None else f"{100 * v:.1f} · n={r.scored}")
    return plot_grouped_values(
        rows, title=title, na_label="N/A (no scored response)", ylabel="FActScore"
    )


def ppi_table(study: Any) -> pd.DataFrame:
    """Three estimates of one figure: their interval in one run and their coverage over all runs."""
    pd = pandas()
    ex = study.example
    rows = []
    for key, name, est in (
        ("ppi", "prediction-powered (autorater + people)", ex.ppi),
        ("naive", "autorater alone, every response", ex.naive),
        ("human", "people alone, labelled responses", ex.human),
    ):
        rows.append(
            {
                "estimate": name,
                f"one run ({100 * study.level:g}% interval)": est.display,
                f"covers the human figure ({100 * study.truth:.1f}%)": f"{study.covered[key]} of {study.runs} runs",
                "mean width": f"{100 * study.mean_width[key]:.1f} points",
            }
        )
    return pd.DataFrame(rows).set_index("estimate")


def position_table(by_subject: Mapping[str, Sequence[PositionBucket]]) -> pd.DataFrame:
    """Per subject and position bucket: unsupported facts with counts."""
    pd = pandas()
    rows = []
    for name, buckets in by_subject.items():
        row: dict[str, object] = {"subject": name}
        for b in buckets:
            row[f"{100 * b.low:.0f}–{100 * b.high:.0f}% of the text"] = b.unsupported.display
        rows.append(row)
    return pd.DataFrame(rows).set_index("subject")


@styled
def plot_error_by_position(
    by_subject: Mapping[str, Sequence[PositionBucket]], *, title: str | None = None
) -> Axes:
    """Unsupported share by position bucket, one bar per subject, counts on every bar."""
    from claimlab.notebook.style import plot_grouped_ratios

    rows: dict[str, dict[str, Any]] = {}
    for name, buckets in by_subject.items():
        for b in buckets:
            rows.setdefault(f"{100 * b.low:.0f}–{100 * b.high:.0f}%", {})[name] = b.unsupported
    return plot_grouped_ratios(
        rows, title=title, xlabel="relative position of the fact in the generation"
    )


def revisions_table(by_subject: Mapping[str, FactRevisions]) -> pd.DataFrame:
    """Per subject: model facts against the annotators' revised facts of the same sentences."""
    rows = []
    for name, r in by_subject.items():
        rows.append(
            {
                "subject": name,
                "sentences": r.sentences,
                "model facts": r.model_facts,
                "human facts": r.human_facts,
                "kept word for word": r.kept_share.display,
                "more facts after revision (split or added)": r.more_after_revision,
                "fewer (merged or dropped)": r.fewer_after_revision,
                "as many": r.same_count,
            }
        )
    return rows_table(
        rows,
        (
            "subject",
            "sentences",
            "model facts",
            "human facts",
            "kept word for word",
            "more facts after revision (split or added)",
            "fewer (merged or dropped)",
            "as many",
        ),
        index="subject",
    )


def rarity_gap_table(
    rarity: Mapping[str, Mapping[str, FactscoreResult]], order: Iterable[str]
) -> pd.DataFrame:
    """Per subject and rarity bucket: FActScore as defined, and with abstentions counted as 0."""
    rows = []
    for name, buckets in rarity.items():
        for bucket in order:
            r = buckets.get(bucket)
            if r is None:
                continue
            zero = r.abstentions_as_zero
            rows.append(
                {
                    "subject": name,
                    "rarity": bucket,
                    "FActScore (mean over scored responses)": "N/A"
                    if r.factscore is None
                    else f"{100 * r.factscore:.1f} ({r.scored} scored)",
                    "abstentions counted as 0": "N/A" if zero is None else f"{100 * zero:.1f}",
                    "respond": r.respond.display,
                }
            )
    return rows_table(
        rows,
        (
            "subject",
            "rarity",
            "FActScore (mean over scored responses)",
            "abstentions counted as 0",
            "respond",
        ),
        index="subject",
    )


def show_uncertainty(
    study: UncertaintyStudy, chosen: Mapping[str, FactscoreResult], level: float
) -> None:
    """The uncertainty study: its kinds, FActScore with intervals, comparison and ranking.

    Each sentence is built from the study's own figures.
    """
    from claimlab.notebook import uncertainty as unc
    from claimlab.notebook.display import md_text, show, show_figure, show_markdown

    show(unc.uncertainty_kinds_table(study))
    values = {
        n: (r.factscore, f"{r.scored} scored; respond {r.respond.counts}")
        for n, r in chosen.items()
    }
    show_figure(
        unc.plot_figure_with_intervals(
            values,
            {n: study.clustered[n]["factscore"] for n in chosen},
            series="FActScore",
            title=f"FActScore, {100 * level:g}% intervals (prompts resampled)",
        )
    )
    if not study.comparisons:
        return
    show(unc.comparisons_table(study.comparisons))
    c, up, rk = study.comparisons[0], study.unpaired, study.ranking
    d = c.difference
    show_markdown(
        f"Paired on {c.shared} shared prompts, {md_text(c.a)} − {md_text(c.b)} is "
        f"{100 * d.value:+.1f} points [{100 * d.low:+.1f}, {100 * d.high:+.1f}]; an unpaired "
        f"bootstrap of the same data gives [{100 * up.low:+.1f}, {100 * up.high:+.1f}]."
    )
    show_markdown(
        f"Ranking by FActScore: {' > '.join(md_text(n) for n in rk.order)}; it holds "
        f"in {100 * rk.same_order:.1f}% of {rk.resamples} resamples of the "
        f"{rk.about['prompts']} shared prompts (compare the estimator error rates above)."
    )


def estimate_table(report: EstimatorReport) -> pd.DataFrame:
    """Per system: people and checker FActScore, ER, agreement and kappa, the corrected figure."""
    rows = []
    for s in report.systems:
        d = s.to_dict()
        rows.append(
            {
                "system": s.name,
                "people": f"{percent(s.human.factscore)} ({s.human.scored} responses)",
                "checker": f"{percent(s.estimated.factscore)} ({s.estimated.scored} responses)",
                "ER (points)": "N/A"
                if d["error_rate_points"] is None
                else f"{d['error_rate_points']:+.1f}",
                "facts agreed": s.agreement.display,
                "kappa": "N/A" if s.people is None else s.people.kappa.display,
                "prediction-powered": s.ppi.ppi.display if s.ppi else f"N/A ({s.ppi_reason})",
                "people alone": s.ppi.human.display if s.ppi else "N/A",
            }
        )
    return rows_table(
        rows,
        (
            "system",
            "people",
            "checker",
            "ER (points)",
            "facts agreed",
            "kappa",
            "prediction-powered",
            "people alone",
        ),
        index="system",
    )


def estimate_lines(report: EstimatorReport) -> list[str]:
    """What ``claimlab fact-estimate`` prints."""
    c = report.checker
    how = (
        f"lexical checker ({c['knowledge']}; threshold {c['threshold']}, top {c['top']} passages)"
        if c["kind"] == "lexical"
        else "the given labels"
    )
    if "checker" in c:  # --checker: which one, and what the run cost
        run = c["checker"]
        how = (
            f"checker {terminal(run['name'])} (version {terminal(run['version'] or '-')}; "
            f"{run['calls']} calls, {run['hits']} from the cache)"
        )
    lines = [
        f"{how}; people's labels used for {100 * c['labelled_share']:.0f}% of topics (seed {c['seed']})"
    ]
    if "checker" in c:
        from claimlab.checkers.repeats import repeats_line

        repeats = repeats_line(c["checker"].get("repeats"))
        lines += [repeats] if repeats else []
    bare = {k: n for k, n in c.get("topics_without_passages", {}).items() if n}
    if bare:
        lines.append(
            "topics with no passage to check against (their facts are judged not supported): "
            + ", ".join(f"{k} {n}" for k, n in bare.items())
        )
    for s in report.systems:
        d = s.to_dict()
        er = "N/A" if d["error_rate_points"] is None else f"{d['error_rate_points']:+.1f} points"
        lines.append(
            f"{s.name}: people {percent(s.human.factscore)}, checker {percent(s.estimated.factscore)} (ER {er}); facts agreed {s.agreement.display}"
        )
        if s.people is not None:
            lines.append(f"  kappa with the people {s.people.kappa.display}")
        lines.append(
            "  prediction-powered (no length penalty) "
            + (s.ppi.ppi.display if s.ppi else f"N/A: {s.ppi_reason}")
            + (f"; people alone {s.ppi.human.display}" if s.ppi else "")
        )
    lines.append(
        f"ranking {report.check.ranking_verdict}: people {' > '.join(report.check.human_ranking)}; checker {' > '.join(report.check.estimated_ranking)}"
    )
    return lines
