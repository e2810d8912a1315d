"""The sufficiency lab's explanations in the file's language: English is the metric's own words.

The metric floor says why in English and keeps codes; the lab words the same cases from the
codes. On every shipped sufficiency file, every scenario and a few more contexts (each record
alone, all of them, with and without the metadata rules), the English wording is the metric's
word for word, and Turkish and Thai carry the same ids.
"""

from __future__ import annotations

import pytest

from claimlab.io.sufficiency import load_sufficiency
from claimlab.labs.sufficiency import lesson
from claimlab.labs.sufficiency.explain import (
    conflict_text,
    explanation,
    link_text,
    reason_word,
    rejection_detail,
)
from claimlab.metrics.sufficiency import score_fixture_sufficiency
from tests.conftest import FIXTURES

FILES = sorted(
    p.name
    for p in FIXTURES.glob("*.json")
    if '"claimlab/sufficiency' in p.read_text(encoding="utf-8")[:200]
)


def checks(fixture):
    """(question, result) for every scenario and for each record alone and all together."""
    ids = [e.id for e in fixture.evidence]
    for sc in fixture.scenarios.values():
        yield (
            sc.question,
            score_fixture_sufficiency(
                fixture, sc.question, list(sc.context), ignore_metadata=sc.ignore_metadata
            ),
        )
    for q in fixture.questions:
        for context in [[i] for i in ids] + [ids, [ids[0], ids[0]], ["no-such-record"]]:
            for ignore in (False, True):
                yield q, score_fixture_sufficiency(fixture, q, context, ignore_metadata=ignore)


@pytest.mark.parametrize("name", FILES)
def test_the_english_words_are_the_metrics_own(name):
    fixture = load_sufficiency(FIXTURES / name)
    reasons = set()
    for question, r in checks(fixture):
        reasons.add(r.reason)
        assert explanation(r, "en") == r.explanation == explanation(r, "ko")
        for c in r.conflicts:
            assert conflict_text(c, "en") == c.explanation
        for b in r.branches:
            assert [link_text(x, "en") for x in b.link_errors] == [
                x.explanation for x in b.link_errors
            ]
        for x in (*r.rejected, *r.unsafe_candidates):
            assert rejection_detail(x, fixture, question, "en") == x.detail
            assert reason_word(x.reason, "en") == x.reason
    assert reasons, name


@pytest.mark.parametrize("language", ["tr", "th"])
def test_turkish_and_thai_words_keep_every_id_and_status(language):
    fixture = load_sufficiency(FIXTURES / "lale_fuari_tr.json")
    for question, r in checks(fixture):
        told = explanation(r, language)
        assert told != r.explanation
        for b in r.branches if r.reason == "gaps" else ():
            assert all(m in told for m in b.missing)
        for x in (*r.rejected, *r.unsafe_candidates):
            detail = rejection_detail(x, fixture, question, language)
            assert x.id in detail and detail != x.detail
            assert "fails" not in detail and "already in the context" not in detail


def test_a_rejection_of_a_record_the_file_does_not_hold_keeps_the_metrics_words():
    fixture = load_sufficiency(FIXTURES / "aurora.json")
    r = score_fixture_sufficiency(fixture, next(iter(fixture.questions)), ["x1"])
    assert r.unknown == ("x1",) and "x1" in explanation(r, "tr")


def test_the_game_rules_and_exercises_are_in_the_files_language():
    tr = load_sufficiency(FIXTURES / "lale_fuari_tr.json")
    th = load_sufficiency(FIXTURES / "aurora_th.json")
    en = load_sufficiency(FIXTURES / "aurora.json")
    assert lesson.sufficiency_game_rules(tr).startswith("Bütçe **")
    assert lesson.sufficiency_game_rules(th).startswith("งบ **")
    assert lesson.sufficiency_game_rules(en).startswith("Budget **")
    for x in lesson.sufficiency_game_exercises(tr):
        assert "Round " not in x.question and "cheapest" not in (x.solution or "")
    walk = lesson.scenario_results(tr)
    for x in lesson.sufficiency_exercises(tr, walk):
        assert "Scenario " not in x.question and "Why is" not in x.question
        assert "metadata rules" not in (x.solution or "")


def test_the_views_and_widgets_speak_the_files_language():
    from claimlab.labs.sufficiency import views
    from claimlab.labs.sufficiency.game import SufficiencyGame
    from claimlab.labs.sufficiency.widgets import (
        SufficiencyExplorer,
        SufficiencyGameView,
        sufficiency_html,
    )
    from claimlab.metrics.selective import score_selective, selective_items

    fx = load_sufficiency(FIXTURES / "lale_fuari_tr.json")
    sc = next(s for s in fx.scenarios.values() if s.ignore_metadata)
    r = score_fixture_sufficiency(fx, sc.question, list(sc.context), ignore_metadata=True)
    assert list(views.evidence_table(fx, language="tr").columns)[:2] == ["metin", "ilişki"]
    assert "eksiksiz tanık" in views.branches_table(r, language="tr").columns
    assert list(views.findings_table(r, language="tr").columns) == ["bulgu", "konu", "ayrıntı"]
    rejected = views.rejected_table(r, fixture=fx, question=sc.question, language="tr")
    assert "üst veri kurallarını geçemiyor" in " ".join(rejected["ayrıntı"])
    html = sufficiency_html(r, fixture=fx, question=sc.question, language="tr")
    assert "durum: " in html and "üst veri kurallarını" in html and "fails" not in html
    selective = score_selective(selective_items(fx))
    summary = views.selective_summary(selective, language="tr")
    assert summary.startswith("Yanıtlananlarda doğruluk **")
    english = views.selective_summary(selective)
    assert english == (
        f"Accuracy on answered **{selective.accuracy}** · answered **{selective.coverage}** · "
        f"answered with gaps: {views.md_ids(selective.answered_with_gaps)} · abstained with "
        f"complete evidence: {views.md_ids(selective.abstained_with_complete_evidence)}"
    )
    paper = SufficiencyGameView(SufficiencyGame(fx)).paper_html()
    assert "Kâğıt üzerinde yeterlilik oyunu" in paper and "on paper" not in paper
    assert "Sınıf görünümü" in SufficiencyExplorer(fx, student=True).snapshot_html()
