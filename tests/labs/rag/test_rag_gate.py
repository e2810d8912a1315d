"""``rag --out`` and ``rag --baseline``: the shared gate on RAGChecker's eleven metrics.

The files are generated (a greenhouse help desk, not RAGChecker's domain): every relevant chunk
entails exactly one ground-truth claim of its own, so a retriever that loses chunks loses claim
recall and context precision by amounts a hand computation gives (see ``release``).
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.tooling.cli import main

E, N = "Entailment", "Neutral"
PLANTS = ("tomato", "basil", "fern", "orchid", "cucumber", "lettuce", "pepper", "mint")


def greenhouse(n=300, seed=0):
    """A RAGChecker checking output of ``n`` queries, and each query's relevant chunk indices."""
    rng = random.Random(seed)
    results, relevant = [], {}
    for i in range(n):
        plant = PLANTS[i % len(PLANTS)]
        g, r, irr, resp = rng.randint(3, 7), 0, rng.randint(1, 4), rng.randint(2, 6)
        r = rng.randint(1, min(g, 5))
        k = r + irr
        k2a = [[E if c == j else N for c in range(k)] for j in range(g)]  # chunk j -> claim j
        k2r = [[E if rng.random() < 0.3 else N for _ in range(k)] for _ in range(resp)]
        results.append(
            {
                "query_id": f"gh-{i:03d}",
                "query": f"How often should the {plant} be watered in week {i}?",
                "response_claims": [f"The {plant} needs water on day {j}." for j in range(resp)],
                "gt_answer_claims": [f"The {plant} likes {j} hours of light." for j in range(g)],
                "retrieved_context": [
                    {"doc_id": f"care-{i}-{c}", "text": f"{plant} care sheet, part {c}"}
                    for c in range(k)
                ],
                "answer2response": [rng.choice([E, N]) for _ in range(resp)],
                "response2answer": [rng.choice([E, N]) for _ in range(g)],
                "retrieved2response": k2r,
                "retrieved2answer": k2a,
            }
        )
        relevant[i] = list(range(r))
    return {"results": results}, relevant


def lose_a_fifth(doc, relevant, seed=1):
    """The same file with a fifth of all relevant chunks made irrelevant, and the hand figures.

    A lost chunk stays in the context (|K| unchanged) but entails no ground-truth claim, so:
    context precision drops by lost / sum |K| and claim recall by lost / sum |G| (micro).
    """
    doc = json.loads(json.dumps(doc))
    pool = [(q, c) for q, cs in relevant.items() for c in cs]
    lost = random.Random(seed).sample(pool, len(pool) // 5)
    for q, c in lost:
        for row in doc["results"][q]["retrieved2answer"]:
            row[c] = N
    chunks = sum(len(q["retrieved_context"]) for q in doc["results"])
    claims = sum(len(q["gt_answer_claims"]) for q in doc["results"])
    return doc, {"lost": len(lost), "context_precision": len(lost) / chunks,
                 "claim_recall": len(lost) / claims}  # fmt: skip


def write(path, doc):
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def rag(*args):
    return main(["rag", *map(str, args)])


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """The first release scored with --out (the baseline table), and a second release's files."""
    d = tmp_path_factory.mktemp("greenhouse")
    doc, relevant = greenhouse()
    first = write(d / "first.json", doc)
    table = d / "first.csv"
    assert rag(first, "--out", table, "--json") == 0
    worse, hand = lose_a_fifth(doc, relevant)
    cut = json.loads(json.dumps(doc))
    cut["results"] = cut["results"][10:]
    return {
        "dir": d,
        "first": first,
        "table": table,
        "worse": write(d / "worse.json", worse),
        "cut": write(d / "cut.json", cut),
        "hand": hand,
    }


def gate_json(capsys, *args):
    capsys.readouterr()
    code = rag(*args, "--json", "--bootstrap", "200")
    return code, json.loads(capsys.readouterr().out)


def test_the_per_query_table_holds_every_metrics_counts(releases):
    import pandas as pd

    from claimlab.metrics.rag import RAG_METRICS

    table = pd.read_csv(releases["table"])
    assert len(table) == 300 and table["query_id"].iloc[0] == "gh-000"
    for m in RAG_METRICS:
        assert {f"{m}_numerator", f"{m}_denominator", m} <= set(table.columns)
    first = json.loads(releases["first"].read_text())["results"][0]
    assert table["context_precision_denominator"].iloc[0] == len(first["retrieved_context"])


def test_an_identical_release_passes(releases, capsys):
    code, data = gate_json(capsys, releases["first"], "--baseline", releases["table"])
    assert (code, data["verdict"], data["missing"]) == (0, "PASS", 0)
    assert {r["metric"] for r in data["gate"]} == {
        "precision", "recall", "claim_recall", "context_precision", "context_utilization",
        "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant", "hallucination",
        "self_knowledge", "faithfulness",
    }  # fmt: skip
    assert all(r["difference"]["value"] == 0 for r in data["gate"])


def test_a_retriever_losing_a_fifth_of_its_relevant_chunks_is_regressed(releases, capsys):
    d, hand = releases["dir"], releases["hand"]
    code, data = gate_json(
        capsys, releases["worse"], "--baseline", releases["table"], "--margin", "0.02",
        "--junit", d / "gate.xml", "--summary", d / "gate.md",
    )  # fmt: skip
    rows = {r["metric"]: r for r in data["gate"]}
    assert (code, data["verdict"]) == (1, "FAIL")
    for m in ("claim_recall", "context_precision"):
        assert rows[m]["verdict"] == "REGRESSED"
        assert rows[m]["difference"]["value"] == pytest.approx(hand[m], abs=1e-12)
    assert rows["precision"]["verdict"] == rows["recall"]["verdict"] == "PASS"
    assert 'type="REGRESSED"' in (d / "gate.xml").read_text()
    assert "| claim_recall (micro) |" in (d / "gate.md").read_text()


def test_ten_queries_missing_fail_unless_allowed(releases, capsys):
    code, data = gate_json(capsys, releases["cut"], "--baseline", releases["table"])
    assert (code, data["verdict"], data["missing"]) == (1, "FAIL", 10)
    assert data["missing_ids"][:2] == ["gh-000", "gh-001"]
    code, data = gate_json(
        capsys, releases["cut"], "--baseline", releases["table"], "--allow-missing", "10"
    )
    assert (code, data["verdict"]) == (0, "PASS")


def test_macro_gates_f1_and_micro_refuses_it(releases, capsys):
    code, data = gate_json(
        capsys, releases["first"], "--baseline", releases["table"], "--gate-aggregate", "macro"
    )
    rows = {r["metric"]: r for r in data["gate"]}
    assert code == 0 and rows["f1"]["verdict"] == "PASS"
    assert rows["f1"]["baseline"] == pytest.approx(data["macro"]["f1"]["value"], abs=1e-12)
    capsys.readouterr()
    assert rag(releases["first"], "--baseline", releases["table"], "--gate-figures", "f1") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--gate-figures" in err[0] and "macro" in err[0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--margin", "0.1"], "give --baseline"),
        (["--junit", "x.xml"], "give --baseline"),
        (["--baseline", "missing.csv"], "missing.csv"),
    ],
)
def test_bad_gate_input_is_one_line_and_exit_2(releases, capsys, args, words):
    capsys.readouterr()
    assert rag(releases["first"], *args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_a_baseline_without_a_metrics_counts_names_file_and_field(releases, capsys):
    bad = releases["dir"] / "bad.csv"
    bad.write_text("query_id,precision_numerator\ngh-000,1\n", encoding="utf-8")
    capsys.readouterr()
    assert rag(releases["first"], "--baseline", bad) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.csv" in err[0] and "precision_denominator" in err[0]


# Which way is better, by name: the three faults are lower-is-better, the rest higher.
DIRECTIONS = [
    ("precision", True), ("recall", True), ("f1", True), ("claim_recall", True),
    ("context_precision", True), ("context_utilization", True),
    ("noise_sensitivity_in_relevant", False), ("noise_sensitivity_in_irrelevant", False),
    ("hallucination", False), ("self_knowledge", True), ("faithfulness", True),
]  # fmt: skip


@pytest.mark.parametrize(("metric", "higher"), DIRECTIONS)
def test_each_metric_knows_its_better_side(metric, higher):
    from claimlab.metrics.rag import better_arrow, gate_figures

    (figure,) = gate_figures([metric])
    assert figure.higher_is_better is higher
    assert better_arrow(metric) == ("↑" if higher else "↓")


# ---- invariants on generated queries (the functions the command itself calls) ----


@st.composite
def rag_queries(draw, min_size=2, max_size=12):
    """Typed RAGChecker queries with 0..4 claims on each side and 0..4 chunks (0/0 included)."""
    from claimlab.io.ragchecker import RagQuery

    out = []
    for i in range(draw(st.integers(min_size, max_size))):
        r, g, k = draw(st.integers(0, 4)), draw(st.integers(0, 4)), draw(st.integers(0, 4))
        bools = lambda n: tuple(draw(st.lists(st.booleans(), min_size=n, max_size=n)))  # noqa: E731
        out.append(
            RagQuery(
                f"q{i}",
                "",
                tuple(f"r{j}" for j in range(r)),
                tuple(f"g{j}" for j in range(g)),
                tuple((f"d{c}", "t") for c in range(k)),
                bools(r),
                bools(g),
                tuple(bools(k) for _ in range(r)),
                tuple(bools(k) for _ in range(g)),
                {},
            )  # fmt: skip
        )
    return out


def scored(queries):
    from claimlab.io.ragchecker import RagChecking
    from claimlab.metrics.rag import per_query_table, score_rag

    report = score_rag(RagChecking("gen.json", tuple(queries), {}))
    return report, per_query_table(report)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 40), st.integers(1, 40), st.integers(0, 40), st.integers(1, 40))
def test_f1_counts_equal_the_harmonic_mean(a, b, c, d):
    from claimlab.core.ratio import Ratio
    from claimlab.metrics.rag import F1, f1_counts

    p, r = Ratio(min(a, b), b), Ratio(min(c, d), d)
    got = f1_counts(p, r)
    assert got.numerator <= got.denominator
    assert got.value == pytest.approx(F1(p, r).value, abs=1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rag_queries())
def test_the_table_holds_the_reports_counts_and_macro_figures(queries):
    from claimlab.metrics.rag import RAG_METRICS, query_counts

    report, table = scored(queries)
    for q, (_, row) in zip(report.per_query, table.iterrows(), strict=True):
        for m, ratio in query_counts(q).items():
            assert (row[f"{m}_numerator"], row[f"{m}_denominator"]) == (
                ratio.numerator,
                ratio.denominator,
            )
    for m in RAG_METRICS:  # the table's per-query values average to the report's macro figure
        values = table[m].dropna()
        want = report.macro[m].value
        assert (values.mean() if len(values) else None) == pytest.approx(want, abs=1e-12)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rag_queries(min_size=3), st.data())
def test_an_identical_release_passes_and_a_lost_query_never_does(queries, data):
    from claimlab.metrics.gate import release_gate
    from claimlab.metrics.rag import RATIO_METRICS, gate_figures

    _, table = scored(queries)
    figures = gate_figures(RATIO_METRICS)
    same = release_gate(table, table.copy(), keys=["query_id"], figures=figures, resamples=100)
    assert same.verdict != "FAIL" and all(r.verdict != "REGRESSED" for r in same.rows)
    lost = data.draw(st.integers(1, len(queries) - 1))
    allowed = data.draw(st.integers(0, lost - 1))
    cut = release_gate(table, table.iloc[lost:], keys=["query_id"], figures=figures,
                       resamples=100, allow_missing=allowed)  # fmt: skip
    assert (cut.verdict, cut.exit_code, cut.missing) == ("FAIL", 1, lost)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rag_queries(min_size=4), st.sampled_from([m for m, _ in DIRECTIONS if m != "f1"]))
def test_a_release_worse_on_a_metric_shows_a_positive_drop(queries, metric):
    """Worse is a higher count for a lower-is-better metric, a lower one otherwise."""
    from claimlab.metrics.gate import gate_row
    from claimlab.metrics.rag import gate_figures

    _, table = scored(queries)
    (figure,) = gate_figures([metric])
    num, den, higher = figure.numerator, figure.denominator, dict(DIRECTIONS)[metric]
    worse = table.copy()
    room = (worse[num] > 0) if higher else (worse[num] < worse[den])
    if not room.any():
        return
    worse.loc[room, num] += -1 if higher else 1
    row = gate_row(figure, table.set_index("query_id"), worse.set_index("query_id"),
                   resamples=100, min_shared=1)  # fmt: skip
    assert row.difference is not None and row.difference > 0


def test_a_stored_run_keeps_macro_micro_f1_and_its_table_and_can_be_gated_from_it(releases, capsys):
    store = releases["dir"] / "runs.sqlite"
    assert rag(releases["first"], "--store", store, "--json") == 0
    capsys.readouterr()
    assert main(["history", "--store", str(store), "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    figures = {f["name"]: f for f in run["figures"]}
    assert figures["macro.claim_recall"]["aggregate"] == "macro"
    assert figures["macro.claim_recall"]["defined"] == 300
    assert figures["macro.f1"]["value"] is not None
    assert figures["micro.f1"]["denominator"] > 0 and figures["micro.f1"]["value"] is not None
    assert figures["micro.claim_recall"]["numerator"] > 0
    kept = run["parameters"]["per_query_table"]
    from claimlab.io.store import sha256_of

    assert sha256_of(kept["path"]) == kept["sha256"]
    # the stored run alone is the baseline: the worse release against it is REGRESSED
    code, data = gate_json(
        capsys, releases["worse"], "--baseline", kept["path"], "--margin", "0.02"
    )
    assert (
        code == 1
        and {r["metric"]: r["verdict"] for r in data["gate"]}["claim_recall"] == "REGRESSED"
    )


@pytest.mark.parametrize(
    ("figures", "want"),
    [
        ({"claim_recall": (3, 4), "context_precision": (1, 4)}, "context_precision"),
        ({"claim_recall": (1, 4), "context_precision": (1, 4)}, "claim_recall"),  # tie: first
        ({"faithfulness": (9, 10), "hallucination": (2, 10)}, "hallucination"),  # 0.2 > 0.1
        ({"faithfulness": (5, 10), "hallucination": (2, 10)}, "faithfulness"),
        ({"claim_recall": (0, 0), "context_precision": (2, 4)}, "context_precision"),  # N/A out
        ({"claim_recall": (0, 0)}, None),
    ],
)
def test_the_worst_metric_is_furthest_from_its_best_side(figures, want):
    from claimlab.core.ratio import Ratio
    from claimlab.metrics.rag import worst_metric

    ratios = {m: Ratio(*c) for m, c in figures.items()}
    assert worst_metric(ratios, list(figures)) == want


def test_rag_prints_arrows_and_names_the_worst_metrics(releases, capsys):
    capsys.readouterr()
    assert rag(releases["worse"]) == 0
    out = capsys.readouterr().out
    assert "  ↓ hallucination " in out and "  ↑ claim_recall " in out
    assert "worst retriever metric (micro): " in out and "worst generator metric (micro): " in out


def test_the_shipped_example_reads_as_the_readme_states(capsys):
    from tests.conftest import FIXTURES

    capsys.readouterr()
    assert rag(FIXTURES / "rag_greenhouse.json", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["queries"] == 2
    assert data["micro"]["claim_recall"]["display"] == "66.7% (2/3)"  # g1 of q1, g1 of q2
    assert data["micro"]["hallucination"]["display"] == "66.7% (2/3)"  # misted at noon; 16 degrees


def test_a_store_named_relatively_is_gated_from_another_folder(releases, capsys, monkeypatch):
    """The kept table's path is recorded as the store was named; read from elsewhere (or with
    the store moved with its tables), history gives where the table is, and the gate finds it."""
    work, elsewhere = releases["dir"] / "ci", releases["dir"] / "later"
    work.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(work)
    assert rag(releases["first"], "--store", "runs.sqlite", "--json") == 0
    capsys.readouterr()
    moved = elsewhere / "kept"
    (work / "runs.sqlite").rename(moved.with_suffix(".sqlite"))
    (work / "runs.sqlite.tables").rename(elsewhere / "kept.sqlite.tables")
    monkeypatch.chdir(elsewhere)
    assert main(["history", "--store", "kept.sqlite", "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    kept = run["parameters"]["per_query_table"]
    from claimlab.io.store import sha256_of

    assert sha256_of(kept["path"]) == kept["sha256"]
    code, data = gate_json(
        capsys, releases["worse"], "--baseline", kept["path"], "--store", "kept.sqlite",
        "--margin", "0.02",
    )  # fmt: skip
    assert code == 1 and data["verdict"] == "FAIL"


def _query(qid):
    return {"query_id": qid, "query": "q", "response_claims": ["x"], "gt_answer_claims": ["x"],
            "retrieved_context": [{"doc_id": "d", "text": "x"}], "answer2response": [E],
            "response2answer": [E], "retrieved2response": [[E]], "retrieved2answer": [[E]]}  # fmt: skip


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
@pytest.mark.parametrize(
    "ids",
    [["007", "008"], ["007", "7"], ["7", "7.0", "1e3", "0x1"], [" 7", "7 ", "True", "NaN", "null"]],
    ids=["leading-zeros", "007-and-7", "number-spellings", "spaces-and-words"],
)
def test_ids_that_look_like_numbers_are_read_back_as_written(tmp_path, capsys, ids, suffix):
    """A per-query table written with --out pairs its queries again as the ids were written,
    whatever they look like, and an identical release passes against it (diff sees no change)."""
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"results": [_query(i) for i in ids]}), encoding="utf-8")
    table = tmp_path / f"t{suffix}"
    assert main(["rag", str(run), "--out", str(table)]) == 0
    capsys.readouterr()
    code = main(
        ["rag", str(run), "--baseline", str(table), "--gate-figures", "precision", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert (data["shared"], data["only_baseline"], data["only_now"]) == (len(ids), 0, 0)
    assert code in (0, 3)  # identical: never a lost query (undecided with too few pairs)
    assert main(["diff", str(table), str(table), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"] == 0
