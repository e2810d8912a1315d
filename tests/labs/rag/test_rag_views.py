"""The RAG lab's views on files of another domain whose every text is a payload."""

from __future__ import annotations

import json

import matplotlib
import pytest

matplotlib.use("Agg")

from claimlab.io.ragchecker import load_checking, load_meta_evaluation  # noqa: E402
from claimlab.labs.rag import views  # noqa: E402
from claimlab.labs.rag.study import meta_study, rag_record, rag_study  # noqa: E402
from claimlab.metrics.meta_eval import meta_evaluate  # noqa: E402
from claimlab.metrics.rag import RAG_METRICS, score_rag  # noqa: E402
from claimlab.notebook.display import table_html  # noqa: E402
from tests.hostile.corpus import PAYLOADS  # noqa: E402
from tests.hostile.files import _ragchecker_files  # noqa: E402
from tests.labs.test_display_views import (  # noqa: E402
    assert_counts_beside_percentages,
    assert_figure,
    strings_of,
)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return _ragchecker_files(tmp_path_factory.mktemp("rag"))


@pytest.fixture(scope="module")
def report(files):
    return score_rag(load_checking(files["rag_checking"]))


def test_terminal_lines_carry_counts_and_every_metric(report):
    lines = list(views.report_lines(report, per_query=True))
    assert sum(m in " ".join(lines) for m in RAG_METRICS) == len(RAG_METRICS)
    assert any("mean of 2 queries" in line for line in lines)


def test_tables_show_counts_and_escape_the_files_text(report, files):
    assert_counts_beside_percentages(strings_of(views.per_query_table(report)))
    strings_of(views.metric_table(report))
    q = load_checking(files["rag_checking"]).queries[0]
    for t in (
        views.claim_table(q, side="response"),
        views.claim_table(q, side="answer"),
        views.chunk_table(q),
    ):
        html = table_html(t)
        assert "<script>" not in html and "<img" not in html and "&lt;" in html


@pytest.mark.parametrize("part", ["overall", "retriever", "generator"])
def test_each_part_is_a_figure_with_counts(report, part):
    assert_figure(views.plot_part(report, part))


def test_meta_views(files):
    pairs = load_meta_evaluation(files["rag_human"], files["rag_scores"])
    result = meta_evaluate(pairs, resamples=100)
    lines = list(views.meta_lines(result, checker="ragchecker"))
    assert lines[0].startswith("6 response pairs, 12 judgments")
    assert "<script>" not in table_html(views.pairs_table(pairs))
    strings_of(views.meta_table(result))
    ax = views.plot_preferences(pairs, label="correctness_label")
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert all("n=" in t for t in ticks)


def test_show_functions_run_and_skip_with_a_message(files, capsys):
    study = rag_study(str(files["rag_checking"]))
    views.show_metrics(study)
    views.show_walkthrough(study, limit=1)
    views.show_meta(
        meta_study(str(files["rag_human"]), str(files["rag_scores"]), resamples=100),
        label="overall_label",
    )
    views.show_metrics("the file was not found")
    views.show_meta("the file was not found", label="overall_label")
    record = rag_record(study)
    assert record["queries"] == 2 and json.dumps(record)
    assert rag_study("absent/nothing.json").startswith("RAGChecker's checking output")
    ids = [q["query_id"] for q in record["per_query"]]
    assert ids == [q.query_id for q in study.checking.queries]
    assert all(any(p in i for p in PAYLOADS) for i in ids)  # the file's ids, kept as data


@pytest.mark.parametrize(
    ("below", "verdict"),
    [
        ({"pearson": True, "spearman": False},
         "significantly below the people's own agreement (pearson)"),
        ({"pearson": False, "spearman": False},
         "not significantly below the people's own agreement"),
        ({"pearson": None, "spearman": None},
         "undecided against the people's own agreement (pearson, spearman: no interval)"),
        ({"pearson": True, "spearman": None},
         "significantly below the people's own agreement (pearson); undecided against the "
         "people's own agreement (spearman: no interval)"),
    ],
)  # fmt: skip
def test_below_verdict_never_claims_what_no_interval_decides(below, verdict):
    from types import SimpleNamespace

    assert views.below_verdict(SimpleNamespace(below_people=below)) == verdict
