"""Every public view of the display floor and of each lab, run as its notebook runs it.

Each view is called on the shipped fixture of its lab (real data where it needs it, skipped
with a message where absent) and checked for what every view owes its reader: a table with
rows, every percentage beside its counts, a figure whose bar labels carry their counts, and
Markdown in which the file's text is escaped.
"""

from __future__ import annotations

import re

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from tests.conftest import FIXTURES  # noqa: E402

PERCENT = re.compile(r"\d%")
# counts (3/5), N/A (with its reason), the n behind an interval or a macro mean, or a
# position bucket ("0–20% of the text", a label, not a ratio)
WITH_COUNTS = re.compile(
    r"\(\d+/\d+\)|N/A|\d+/\d+|resamples of \d+|mean of \d+|\d+ independent items|% of the text|n = \d+"
)


def strings_of(table):
    """Every cell of a table, as text (headers such as "90% interval" name, they do not count)."""
    assert isinstance(table, pd.DataFrame) and len(table) > 0
    return [str(v) for v in table.to_numpy().ravel()]


def assert_counts_beside_percentages(texts):
    """A ratio never hides its denominator: every percentage has its counts beside it."""
    bare = [t for t in texts if PERCENT.search(t) and not WITH_COUNTS.search(t)]
    assert bare == []


def figure_texts(ax):
    """The texts written on a figure's axes (bar labels, notes), not its tick labels."""
    fig = ax.figure
    texts = [t.get_text() for a in fig.axes for t in a.texts]
    plt.close(fig)
    return texts


def assert_figure(ax):
    texts = figure_texts(ax)
    assert texts, "a figure shows its numbers"
    assert_counts_beside_percentages(texts)


# ------------------------------------------------------------------ decomposition


@pytest.fixture(scope="module")
def atlas():
    from claimlab.io.decomposition import load_decomposition
    from claimlab.metrics.decomposition import named_selections, score_decomposition
    from claimlab.metrics.selection import core_select, entity_groups

    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    results = {n: score_decomposition(fx, ids) for n, ids in named_selections(fx, "all").items()}
    core = {n: core_select(fx, r.selection) for n, r in results.items()}
    groups = {n: entity_groups(fx, r.selection) for n, r in results.items()}
    return fx, results, core, groups


def test_decomposition_tables_show_every_ratio_with_its_counts(atlas):
    from claimlab.labs.decomposition import views

    fx, results, core, groups = atlas
    one = results["baseline"]
    for table in (
        views.units_table(fx),
        views.candidates_table(fx),
        views.audit_table(one),
        views.metrics_table(results),
        views.findings_table(results),
        views.papers_table(results, core),
        views.entity_table(groups),
        views.flags_table(results),
        views.versions_table(fx, results, fx, results),
    ):
        assert_counts_beside_percentages(strings_of(table))
    assert views.metrics_table(results).loc["empty", "Toy Preservation"] == "N/A (0/0)"
    record = views.papers_record(results, core)
    assert set(record) == set(results) and record["baseline"]["core"] == core["baseline"].to_dict()


def test_decomposition_figures_label_every_bar_with_its_counts(atlas):
    from claimlab.labs.decomposition import views

    fx, results, core, groups = atlas
    assert_figure(views.plot_decomposition(results["baseline"], title="one"))
    assert_figure(views.plot_mode_comparison(results, title="all"))
    assert_figure(views.plot_decompscore_atomicity(results, title="papers"))
    assert_figure(views.plot_core_coverage(results, core, title="core"))
    assert_figure(views.plot_entity_groups(groups, title="groups"))
    assert_figure(views.plot_versions(results, results, labels=("a", "b"), title="versions"))


def test_decomposition_markdown_views_escape_the_file(atlas, monkeypatch, hostile_decomposition):
    from claimlab.labs.decomposition import views
    from claimlab.labs.decomposition.game import DecompositionGame
    from claimlab.labs.play import play_script

    shown = []
    monkeypatch.setattr(views, "show_markdown", shown.append)
    monkeypatch.setattr(views, "show", lambda *a, **k: None)
    monkeypatch.setattr(views, "show_figure", lambda *a, **k: None)
    fx, results, _, _ = atlas
    views.show_decomposition_mode("baseline", results["baseline"])
    views.show_original(hostile_decomposition)
    assert "(3/5)" in shown[0]  # the explanation quotes the selection's own counts
    assert "`<img src=x onerror=alert(1)>`" in shown[-1] and "\\*v1\\*" in shown[-1]
    game = DecompositionGame(fx)
    play_script(game, [["check"]])
    outcome = views.game_outcome(game, solver=False)
    assert outcome["won"] is False and outcome["reasons"]
    fresh = DecompositionGame(fx)
    assert views.game_outcome(fresh, solver=True)["reasons"][0]["code"] == "NOT_CHECKED"


@pytest.fixture
def hostile_decomposition(tmp_path):
    """The Atlas file with an original answer id, version and text that are markup."""
    import json

    from claimlab.io.decomposition import load_decomposition

    doc = json.loads((FIXTURES / "atlas_nova.json").read_text(encoding="utf-8"))
    doc["original"]["id"] = "<img src=x onerror=alert(1)>"
    doc["original"]["version"] = "*v1* `x`"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return load_decomposition(path)


def test_decomposition_widget_html_carries_counts_and_escapes(atlas):
    from claimlab.labs.decomposition import widgets

    fx, results, _, _ = atlas
    html = widgets.metrics_html(results["empty"]) + widgets.audit_html(results["baseline"])
    assert "N/A (0/0)" in html
    assert widgets.candidate_texts_html(fx, list(results["baseline"].selection))


# ------------------------------------------------------------------ sufficiency


@pytest.fixture(scope="module")
def aurora():
    from claimlab.io.sufficiency import load_sufficiency
    from claimlab.metrics.sufficiency import score_fixture_sufficiency

    fx = load_sufficiency(FIXTURES / "aurora.json")
    walk = {
        n: score_fixture_sufficiency(fx, s.question, s.context, ignore_metadata=s.ignore_metadata)
        for n, s in fx.scenarios.items()
    }
    return fx, walk


def test_sufficiency_tables_and_figures(aurora, capsys):
    from claimlab.labs.sufficiency import views
    from claimlab.metrics.selective import risk_coverage, score_selective, selective_items

    fx, walk = aurora
    name, result = next((n, r) for n, r in walk.items() if r.branches and r.rejected)
    for table in (
        views.evidence_table(fx),
        views.branches_table(result),
        views.rejected_table(result),
        views.findings_table(result),
    ):
        assert_counts_beside_percentages(strings_of(table))
    question = fx.scenarios[name].question
    assert_figure(views.plot_chains(fx, question, result))
    views.show_sufficiency(fx, question, list(fx.scenarios[name].context), result)
    views.show_scenarios(fx, walk)
    assert capsys.readouterr().out
    items = selective_items(fx)
    rows = risk_coverage(items, [0.5, 0.9])
    assert_counts_beside_percentages(strings_of(views.selective_table(items)))
    assert_counts_beside_percentages(strings_of(views.risk_coverage_table(rows)))
    assert_figure(views.plot_risk_coverage(rows, title="risk"))
    assert score_selective(items).to_dict()


def test_a_sufficiency_round_is_shown_with_its_log(aurora):
    from claimlab.labs.sufficiency import views, widgets
    from claimlab.labs.sufficiency.game import SufficiencyGame, solve_sufficiency

    fx, walk = aurora
    game = SufficiencyGame(fx)
    log, outcome = views.show_round(game, solve_sufficiency(fx, game.scenario), solver=True)
    assert log and outcome["won"] is True
    assert "SUFFICIENT" in widgets.sufficiency_html(next(iter(walk.values())))


# ------------------------------------------------------------------ context


@pytest.fixture(scope="module")
def leave():
    from claimlab.io.context_lab import load_context_lab
    from claimlab.metrics.citations import score_citations
    from claimlab.metrics.context_budget import pack

    lab = load_context_lab(FIXTURES / "leave_policy_en.json")
    packed = pack(lab.chunks, max_chunks=4, max_tokens=120, question=lab.question)
    sent = [c for c in lab.chunks if c.id in packed.kept]
    reports = {n: score_citations(a, sent) for n, a in lab.answers.items()}
    return lab, packed, reports


def test_context_tables_and_figures(leave, capsys):
    from claimlab.labs.context import views
    from claimlab.metrics.context_budget import (
        calibrate_held_out,
        compare_thresholds,
        threshold_sweep,
    )

    lab, packed, reports = leave
    held = calibrate_held_out(lab.queries, target_precision=lab.target_precision)
    out = [q for q in lab.queries if q.id in set(held.held_out_queries)]
    rows = compare_thresholds(out, lab.fixed_thresholds, held.calibration)
    items = [c for q in lab.queries if q.id in set(held.calibration_queries) for c in q.candidates]
    for table in (
        views.chunks_table(lab.chunks, packed),
        views.citations_table(reports),
        views.thresholds_table(rows),
        views.held_out_table(held),
        views.score_ranges_table(lab),
    ):
        assert_counts_beside_percentages(strings_of(table))
    assert_figure(views.plot_packing(packed))
    sweep = threshold_sweep(items, lab.fixed_thresholds)
    ax = views.plot_calibration(sweep, held.calibration, lab.fixed_thresholds)
    assert any(t.startswith("calibrated") or t.startswith("fixed") for t in figure_texts(ax))
    views.show_prompt(packed.prompt)
    assert capsys.readouterr().out
    assert views.gate_note(packed, max(c.score for c in lab.chunks))


# ------------------------------------------------------------------ annotation


@pytest.fixture(scope="module")
def annotated():
    from claimlab.metrics.agreement import load_for_agreement, score_pooled_agreement

    files = [FIXTURES / "annotations" / n for n in ("reader-en.ana.json", "reader-en.ben.json")]
    sets, items = load_for_agreement(files)
    return files, score_pooled_agreement(sets, items)


def test_annotation_views_of_agreement_and_adjudication(annotated, tmp_path):
    from claimlab.io.decomposition import load_decomposition
    from claimlab.io.ledger import decomposition_folder
    from claimlab.io.reader import read_json
    from claimlab.labs.annotation import views
    from claimlab.labs.annotation.adjudicate import adjudicate_paths

    files, report = annotated
    for table in (
        views.agreement_table(report),
        views.disagreements_table(report),
        views.figures_table(report),
        views.draft_table(load_decomposition(files[0])),
    ):
        assert_counts_beside_percentages(strings_of(table))
    assert_figure(views.plot_annotator_figures(report, title="labels"))
    results, targets = adjudicate_paths(files, tmp_path / "gold", by="tester")
    heading = views.adjudication_heading(results, targets, tmp_path / "gold")
    assert "tie" in heading or "gold" in heading
    if len(results) - sum(r.gold for r in results) == 1:
        assert "1 answer still holds ties" in heading
    ties = views.ties_table(results, report.annotators)
    assert isinstance(ties, pd.DataFrame)
    assert len(views.provenance_table(read_json(targets[0]))) > 0
    gold = decomposition_folder(tmp_path / "gold")
    assert views.gold_ledger_heading(gold, tmp_path / "gold").startswith("1 file in ")
    assert "**About this file.**" in views.draft_heading(gold[0]) or "**File.**" in (
        views.draft_heading(gold[0])
    )


# ------------------------------------------------------------------ ledger and intervals


def test_ledger_views_and_intervals_beside_their_counts():
    from claimlab.labs.ledger import study, views
    from claimlab.labs.ledger.demo import demo_ledger
    from claimlab.metrics import ledger
    from claimlab.notebook import uncertainty as unc

    result = ledger.score_tables(*demo_ledger(60, seed=2), by="model")
    intervals = study.group_intervals(result, level=0.9, resamples=200, seed=0)
    assert set(study.intervals_record(intervals)) == set(result.groups)
    assert_figure(views.plot_ledger_models(result.groups, kind="micro", intervals=intervals))
    ax = views.plot_coverage_distribution(result.counts.table)
    assert ax.get_xlabel() and ax.patches  # a bar per coverage bin
    plt.close(ax.figure)
    shown = {
        n: {k: getattr(g, k[0])[k[1]].display for k in intervals[n]}
        for n, g in result.groups.items()
    }
    table = unc.intervals_table(intervals, values=shown)
    assert_counts_beside_percentages(strings_of(table))
    assert len(table) == sum(len(v) for v in intervals.values())
    values = {
        n: (g.micro["coverage"].value, g.micro["coverage"].display)
        for n, g in result.groups.items()
    }
    ivs = {n: intervals[n][("micro", "coverage")] for n in result.groups}
    assert_figure(unc.plot_figure_with_intervals(values, ivs, series="coverage", title="c"))
    demo, source = study.notebook_ledger("", "demo", "", "model")
    assert source == "the SIMULATED demo ledger" and demo.groups


# ------------------------------------------------------------------ primitives


def test_round_titles_and_verdicts():
    from claimlab.notebook.widgets import round_title, verdict_html

    assert round_title("free", "free") == "free"
    assert round_title("r1", "First round") == "First round (r1)"
    assert verdict_html(None) == ""


# ------------------------------------------------------------------ real data


@pytest.mark.realdata
def test_retrieval_views_on_musique(monkeypatch):
    from claimlab.labs.retrieval import views
    from claimlab.labs.retrieval.selective import sufficient_context_studies
    from claimlab.labs.retrieval.study import depth_study, load_sources, selective_study
    from claimlab.labs.sufficiency.cases import build_cases, check_cases
    from tests.conftest import require_data

    path = require_data("musique", "hipporag_musique_ans_train_100.json")
    sources, seen = load_sources(str(path), "no/such/hotpotqa.json")
    assert seen["MuSiQue"]["questions"] == 100 and "skipped" in seen["HotpotQA"]
    doc, fx = sources["MuSiQue"]
    rows = depth_study(fx, [1, 5])
    for table in (
        views.depth_table(rows),
        views.kind_table(rows),
        views.hop_table(rows, query="question"),
        views.selective_table(selective_study(fx, [5])),
    ):
        assert_counts_beside_percentages(strings_of(table))
    assert_figure(views.plot_depth(rows, title="depth"))
    cases = build_cases(doc, source="MuSiQue")
    table = views.cases_table({"MuSiQue": (cases, check_cases(cases))})
    assert_counts_beside_percentages(strings_of(table))
    (study,) = sufficient_context_studies({"MuSiQue": fx}, k=5, target=0.8, seed=0).values()
    assert_counts_beside_percentages(strings_of(views.sufficient_context_table(study)))
    assert_figure(views.plot_coverage_accuracy(study))


@pytest.mark.realdata
def test_the_lexical_readers_official_figures_table():
    from claimlab.labs.retrieval import views
    from claimlab.labs.retrieval.reader import reader_scores
    from tests.conftest import require_data

    path = require_data("musique", "hipporag_musique_ans_train_100.json")
    scores = reader_scores(str(path), "no/such/hotpotqa.json")
    assert isinstance(scores["HotpotQA"], str) and "not found" in scores["HotpotQA"]
    table = views.official_table(scores)
    assert list(table.columns) == ["MuSiQue"]
    assert set(table.index) == {"answer_f1", "answer_em", "support_f1"}
    assert all("(mean of 100)" in s for s in strings_of(table))


@pytest.mark.realdata
def test_fever_and_wice_views(monkeypatch):
    from claimlab.labs.realdata import studies, views
    from tests.conftest import require_data

    shown = []
    monkeypatch.setattr(views, "show", lambda table: shown.append(table))
    monkeypatch.setattr(views, "show_markdown", lambda text: None)
    monkeypatch.setattr(views, "show_figure", lambda ax: shown.append(ax))
    gold = require_data("fever", "paper_dev.jsonl")
    pred = require_data("fever", "fever_scorer_tests_baseline_predictions.jsonl")
    fever = studies.study_fever(str(gold), str(pred), limit=2000, max_evidence=5)
    assert_counts_beside_percentages(strings_of(views.fever_table(fever.result)))
    views.show_fever_study(fever)
    views.show_wice_study(studies.study_wice(str(require_data("wice", "wice_claim_test.jsonl"))))
    tables = [s for s in shown if isinstance(s, pd.DataFrame)]
    figures = [s for s in shown if not isinstance(s, pd.DataFrame)]
    assert tables and figures
    for ax in figures:
        plt.close(ax.figure)


@pytest.mark.realdata
def test_factscore_views_on_the_human_annotations(monkeypatch):
    from claimlab.io import factscore as fs_io
    from claimlab.labs.factscore import simulations, studies, views
    from claimlab.metrics import factscore as fs
    from tests.conftest import require_data

    subjects = fs_io.load_subjects(require_data("factscore"))
    chosen = {
        n: fs.score_factscore(r, name=n, policy="paper", gamma=10) for n, r in subjects.items()
    }
    assert_counts_beside_percentages(strings_of(views.factscore_table(chosen)))
    by_policy = {
        n: {p: fs.score_factscore(r, name=n, policy=p, gamma=0) for p in fs.POLICIES}
        for n, r in subjects.items()
    }
    assert_figure(views.plot_factscore_table(by_policy, title="policies"))
    assert_figure(views.plot_score_vs_init(chosen))
    ax = views.plot_penalty_curve({n: fs.length_penalty(n, 10) for n in range(1, 21)}, 10)
    assert ax.lines
    plt.close(ax.figure)
    rarity = {n: fs.by_category(r, policy="paper", gamma=10) for n, r in subjects.items()}
    assert_counts_beside_percentages(strings_of(views.rarity_gap_table(rarity, fs.RARITY_ORDER)))
    assert set(studies.rarity_gap_record(rarity)) == set(subjects)
    checks = simulations.estimator_checks(chosen, subjects, policy="paper", gamma=10, shares=[0.2])
    assert_counts_beside_percentages(strings_of(views.estimator_table(checks)))
    positions = {n: fs.error_by_position(r, policy="paper") for n, r in subjects.items()}
    revisions = {n: fs.fact_revisions(r) for n, r in subjects.items()}
    assert_counts_beside_percentages(strings_of(views.position_table(positions)))
    assert_counts_beside_percentages(strings_of(views.revisions_table(revisions)))
    assert_figure(views.plot_error_by_position(positions, title="positions"))
    record = studies.position_record(positions, revisions)
    assert set(record["fact_revisions"]) == set(subjects)
    pooled = [r for resp in subjects.values() for r in resp]
    ppi = studies.ppi_study(pooled, runs=20, policy="paper", seed=0)
    assert ppi is not None and studies.ppi_record(ppi)["runs"] == 20
    assert_counts_beside_percentages(strings_of(views.ppi_table(ppi)))


@pytest.mark.realdata
def test_the_uncertainty_study_is_shown_with_its_comparison_and_ranking(monkeypatch):
    from claimlab.io import factscore as fs_io
    from claimlab.labs.factscore import studies, views
    from claimlab.metrics import factscore as fs
    from claimlab.notebook import display
    from claimlab.notebook import uncertainty as unc
    from tests.conftest import require_data

    shown = []
    monkeypatch.setattr(display, "show", shown.append)
    monkeypatch.setattr(display, "show_figure", lambda ax: plt.close(ax.figure))
    monkeypatch.setattr(display, "show_markdown", shown.append)
    subjects = fs_io.load_subjects(require_data("factscore"))
    chosen = {
        n: fs.score_factscore(r, name=n, policy="paper", gamma=10) for n, r in subjects.items()
    }
    pair = ("ChatGPT", "InstructGPT")
    study = studies.uncertainty_study(chosen, pair=pair, level=0.9, resamples=200, seed=0)
    views.show_uncertainty(study, chosen, 0.9)
    texts = [s for s in shown if isinstance(s, str)]
    assert any(t.startswith("Paired on ") for t in texts)
    assert any(t.startswith("Ranking by FActScore: ") for t in texts)
    kinds = unc.uncertainty_kinds_table(study)
    assert_counts_beside_percentages(strings_of(kinds))
    assert_counts_beside_percentages(strings_of(unc.comparisons_table(study.comparisons)))
    record = studies.uncertainty_record(study)
    assert record["comparisons"][0]["a"] == "ChatGPT" and set(record["clustered"]) == set(chosen)


def test_a_folder_of_drafts_lists_each_copy_and_its_progress(tmp_path):
    from claimlab.labs.annotation.session import open_workspace
    from claimlab.labs.annotation.views import copies_table
    from tests.conftest import run_cli

    drafts = tmp_path / "drafts"
    run_cli("draft", FIXTURES / "raw_subclaims.jsonl", "--out", drafts)
    space = open_workspace(drafts, "tester", tmp_path / "work")
    table = copies_table(space)
    assert list(table.columns) == ["file", "answer", "progress"] and len(table) > 1
    assert all(re.match(r"0 of \d+ candidates confirmed", p) for p in table["progress"])


def test_count_bars_label_each_bar_and_the_answer_text_widget_holds_the_text():
    from claimlab.labs.annotation.widgets import AnswerText
    from claimlab.labs.realdata.views import plot_count_bars

    ax = plot_count_bars({1: 10, 2: 3, 3: 0}, title="sizes", xlabel="members", highlight=2)
    texts = figure_texts(ax)
    assert {"10/13", "3/13", "0/13"} <= set(texts)
    widget = AnswerText(text="Stop 1 opens at 6 am.")
    assert widget.text == "Stop 1 opens at 6 am." and widget.selection == []
