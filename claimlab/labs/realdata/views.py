"""Tables and figures of the witnesses-on-real-data lab (notebook 03): FEVER and WiCE."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from claimlab.notebook.display import (
    md_code,
    md_text,
    pandas,
    rows_table,
    show,
    show_figure,
    show_markdown,
)
from claimlab.notebook.style import DEFAULT_COLOR, styled

if TYPE_CHECKING:
    import pandas as pd

    from claimlab.labs.realdata.studies import FeverStudy, WiceStudy
    from claimlab.metrics.fever import FeverResult

    _Key = TypeVar("_Key")  # a bar's label: a value or a count of something


def fever_table(result: FeverResult) -> pd.DataFrame:
    """The five official figures with their counts."""
    pd = pandas()

    c = result.to_dict()["counts"]

    def na(value: object) -> object:
        return "N/A" if value is None else value

    rows: list[tuple[str, object, str]] = [
        ("strict score (FEVER score)", result.strict_score, result.strict.display),
        ("label accuracy", result.label_accuracy, result.label.display),
        (
            "evidence precision (macro)",
            result.precision,
            f"mean over {c['verifiable']} verifiable claims",
        ),
        ("evidence recall (macro)", result.recall.value, result.recall.display),
        ("evidence F1", result.f1, "harmonic mean of the two above"),
    ]
    rows = [(name, na(value), counts) for name, value, counts in rows]
    return pd.DataFrame(rows, columns=["figure", "value", "counts"]).set_index("figure")


def show_fever_study(study: FeverStudy | str) -> None:
    """Everything the real-data notebook shows about FEVER, or the reason it is skipped."""
    if isinstance(study, str):
        show_markdown(f"**Skipped:** {md_text(study)}")
        return
    pd = pandas()

    r = study.result
    show_markdown(
        f"**{len(r.claims)} claims** from {md_code(study.predictions_path.name)} scored against "
        f"{md_code(study.gold_path.name)} (paired by id; first {r.max_evidence} predicted sentences)."
    )
    show(fever_table(r))
    c = r.to_dict()["counts"]
    show_markdown(
        f"Beyond the official figures: **{c['one_sentence_away']} of {c['verifiable']}** verifiable "
        "claims are one predicted sentence away from a complete gold group."
    )
    show(
        rows_table(
            [
                {
                    "max evidence": k,
                    "strict score": f"{x.strict_score:.4f} ({x.strict.counts})",
                    "recall": x.recall.display,
                    "precision": "N/A" if x.precision is None else f"{x.precision:.4f}",
                }
                for k, x in study.sweep.items()
            ],
            ("max evidence", "strict score", "recall", "precision"),
            index="max evidence",
        )
    )
    show_figure(
        plot_count_bars(
            study.group_sizes,
            title="Sentences per gold evidence group",
            xlabel="sentences in the group",
        )
    )
    show_figure(
        plot_count_bars(
            study.alternatives,
            title="Alternative gold groups per verifiable claim",
            xlabel="alternative groups",
        )
    )
    show_figure(
        plot_count_bars(
            study.missing,
            title="Fewest sentences missing from any gold group (0 = witness found)",
            xlabel="missing sentences",
            highlight=1,
        )
    )
    show_markdown("**Near misses**: claims one sentence away from a witness (first five).")
    show(pd.DataFrame(list(study.near_misses)))


def show_wice_study(study: WiceStudy | str) -> None:
    """WiCE through the witness core, or the reason it is skipped."""
    if isinstance(study, str):
        show_markdown(f"**Skipped:** {md_text(study)}")
        return
    pd = pandas()

    labels = ", ".join(f"{md_text(k)} {v}" for k, v in study.labels.items())
    empty = ", ".join(f"{md_text(k)} {v}" for k, v in study.empty_group_claims.items()) or "none"
    show_markdown(
        f"**{len(study.claims)} WiCE claims** ({labels}). The release lists an **empty supporting "
        f"set** {study.empty_groups} times (claims by label: {empty}); a scorer testing `all(...)` "
        "over an empty set would call those claims fully supported by no sentence. They are left "
        "out here and counted."
    )
    show_figure(
        plot_count_bars(
            study.alternatives,
            title="Alternative supporting sets per claim",
            xlabel="alternative sets",
        )
    )
    show_figure(
        plot_count_bars(
            study.set_sizes, title="Sentences per supporting set", xlabel="sentences in the set"
        )
    )
    show_markdown(
        "Sufficiency when the context is the first *k* sentences of the evidence article:"
    )
    show(pd.DataFrame(dict(study.lead_k)).T)


@styled
def plot_count_bars(
    counts: Mapping[_Key, int],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "",
    highlight: _Key | None = None,
) -> Axes:
    """A distribution as bars, each labelled with its count and share of the total."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7.2, 3.2))
    keys = list(counts)
    total = sum(counts.values())
    for i, k in enumerate(keys):
        v = counts[k]
        color = "#C44E52" if highlight is not None and k == highlight else DEFAULT_COLOR
        ax.bar(i, v, color=color)
        ax.text(
            i,
            v,
            f"{v}/{total}",
            ha="center",
            va="bottom",
            fontsize=8,
            rotation=90 if len(keys) > 8 else 0,
        )
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([str(k) for k in keys], fontsize=8)
    ax.set_ylabel("count")
    ax.set_xlabel(xlabel)
    ax.margins(y=0.2)
    if title:
        ax.set_title(title, fontsize=10)
    return ax
