"""The RAG lab's views on files of another domain whose every text is a payload."""

from __future__ import annotations

import json

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

matplotlib.use("Agg")

from claimlab.io.ragchecker import load_checking, load_meta_evaluation  # noqa: E402
from claimlab.labs.rag import views  # noqa: E402
from claimlab.labs.rag.study import meta_study, rag_record, rag_study  # noqa: E402
from claimlab.metrics.meta_eval import score_meta_evaluation  # noqa: E402
from claimlab.metrics.rag import RAG_METRICS, score_rag  # noqa: E402
from claimlab.notebook.display import table_html  # noqa: E402
from tests.hostile.corpus import PAYLOADS  # noqa: E402
from tests.hostile.files import _ragchecker_files  # noqa: E402
from tests.labs.test_display_views import (  # noqa: E402
    assert_counts_beside_percentages,
    assert_figure,
    strings_of,
)
from tests.metrics.test_rag import checked  # noqa: E402  (at import: a @given applied inside a @given fails)


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
    result = score_meta_evaluation(pairs, resamples=100)
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


# --- a walked query with no retrieved chunk (RAGChecker's example with one query's chunks removed)

E, N = "Entailment", "Neutral"


def without_chunks(doc, index):
    """The document with query ``index``'s retrieved chunks removed (its label rows emptied)."""
    doc = json.loads(json.dumps(doc))
    q = doc["results"][index]
    q["retrieved_context"] = []
    q["retrieved2response"] = [[] for _ in q["retrieved2response"]]
    q["retrieved2answer"] = [[] for _ in q["retrieved2answer"]]
    return doc


def small(query_id, query):
    claims = ["r0", "r1"]
    return {
        "query_id": query_id, "query": query, "response_claims": claims,
        "gt_answer_claims": ["g0"], "retrieved_context": [{"doc_id": "d0", "text": "t"}],
        "answer2response": [E, N], "response2answer": [E],
        "retrieved2response": [[E], [N]], "retrieved2answer": [[E]],
    }  # fmt: skip


# (case, document, query walked, rows of its chunk table)
NO_CHUNK = [
    ("en: the only query has no chunk", {"results": [small("q1", "Which pier?")]}, 0, 0),
    ("tr: ikinci sorgunun parçası yok",
     {"results": [small("s1", "Hangi iskele?"), small("s2", "Kaçta kalkıyor?")]}, 1, 0),
    ("ko: 청크가 없는 질의", {"results": [small("k1", "몇 호실입니까?")]}, 0, 0),
]  # fmt: skip


@pytest.mark.parametrize(("case", "doc", "walked", "rows"), NO_CHUNK, ids=[c[0] for c in NO_CHUNK])
def test_a_query_with_no_retrieved_chunk_gives_empty_tables_not_a_key_error(
    tmp_path, case, doc, walked, rows
):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(without_chunks(doc, walked), ensure_ascii=False), encoding="utf-8")
    q = load_checking(path).queries[walked]
    chunks = views.chunk_table(q)
    assert len(chunks) == rows and chunks.index.name == "chunk"
    assert list(chunks.columns) == list(views.CHUNK_COLUMNS[1:])
    claims = views.claim_table(q, side="response")
    assert list(claims["entailed by chunks"]) == ["none"] * len(q.response_claims)
    f = score_rag(load_checking(path)).per_query[walked]
    assert f.ratios["context_precision"].display == "N/A (0/0)"
    assert f.ratios["faithfulness"].display == "0.0% (0/2)"


@pytest.mark.parametrize(
    "make",
    [
        lambda: views.pairs_table([]),
        lambda: views.per_query_table(score_rag(_empty_checking())),
    ],
    ids=["no-pair", "no-query"],
)
def test_tables_of_nothing_keep_their_header(make):
    assert len(make()) == 0


def _empty_checking():
    from claimlab.io.ragchecker import RagChecking

    return RagChecking("none.json", (), {})


@pytest.mark.realdata
def test_the_published_example_with_one_querys_chunks_removed(tmp_path):
    from tests.conftest import require_data

    doc = json.loads(require_data("ragchecker", "checking_outputs.json").read_text("utf-8"))
    for index in range(len(doc["results"])):
        path = tmp_path / f"no_chunks_{index}.json"
        path.write_text(json.dumps(without_chunks(doc, index)), encoding="utf-8")
        q = load_checking(path).queries[index]
        assert len(views.chunk_table(q)) == 0 and len(views.claim_table(q)) == 11 - 6 * index


@st.composite
def any_query(draw):
    nr, ng, nk = draw(st.integers(0, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 3))
    lab = st.sampled_from([E, N, "Contradiction"])
    rows = lambda n: draw(st.lists(st.lists(lab, min_size=nk, max_size=nk), min_size=n, max_size=n))  # noqa: E731
    return (
        draw(st.lists(lab, min_size=nr, max_size=nr)),
        draw(st.lists(lab, min_size=ng, max_size=ng)),
        rows(nr),
        rows(ng),
        nk,
    )


@settings(max_examples=60, deadline=None)
@given(query=any_query())
def test_every_walk_table_has_one_row_per_chunk_or_claim(tmp_path_factory, query):
    """Invariant: the walk's tables have one row per chunk and per claim, none included."""
    path = tmp_path_factory.mktemp("walk") / "c.json"
    path.write_text(json.dumps(checked([query])), encoding="utf-8")
    q = load_checking(path).queries[0]
    assert len(views.chunk_table(q)) == len(q.chunks)
    assert len(views.claim_table(q, side="response")) == len(q.response_claims)
    assert len(views.claim_table(q, side="answer")) == len(q.answer_claims)


@pytest.mark.parametrize("rows", [[], [{"chunk": "d0", "relevant": "yes"}]], ids=["none", "one"])
def test_rows_table_keeps_its_columns_with_or_without_rows(rows):
    from claimlab.notebook.display import rows_table

    t = rows_table(rows, ["chunk", "relevant"], index="chunk")
    assert (len(t), list(t.columns), t.index.name) == (len(rows), ["relevant"], "chunk")
    assert "<table" in table_html(t)


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
