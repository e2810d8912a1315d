"""The offline FActScore estimator: the lexical checker, the report, real data and the command."""

import json

import pytest

from claimlab.io.factscore import LabelledResponse, LabelledSentence, load_subjects
from claimlab.labs.factscore.estimator import (
    TopicIndex,
    content_words,
    estimator_report,
    judge,
    pooled_passages,
    relabel,
)
from claimlab.metrics.stats.prediction_powered import is_labelled
from tests.conftest import DATA, require_data, run_cli

JUDGE = [
    # (fact, passages' content words, threshold, label)
    ("Ada Lovelace was a mathematician.", [{"ada", "lovelace", "mathematician"}], 1.0, "S"),
    ("Ada Lovelace was a poet.", [{"ada", "lovelace", "mathematician"}], 1.0, "NS"),
    ("Ada Lovelace was a poet.", [{"ada", "lovelace", "mathematician"}], 0.6, "S"),  # 2 of 3
    ("Ada Lovelace was a poet.", [{"ada"}, {"poet"}], 0.6, "S"),  # words from two passages
    ("Ada Lovelace was a poet.", [], 0.1, "NS"),  # nothing retrieved supports nothing
    ("It was the one.", [{"one"}], 1.0, "S"),  # stop words do not count
    ("the of a", [{"x"}], 0.1, "NS"),  # a fact without content words is not supported
]


@pytest.mark.parametrize(("fact", "best", "threshold", "want"), JUDGE)
def test_judge(fact, best, threshold, want):
    assert judge(fact, best, threshold) == want


def test_content_words_leave_stop_words_out():
    assert content_words("The Nile is the longest river of Africa.") == {
        "nile",
        "longest",
        "river",
        "africa",
    }


def response(topic, facts, line=1):
    return LabelledResponse(
        line, topic, ("rare",), (LabelledSentence("s", True, (), tuple(facts)),)
    )


def test_pooled_passages_never_use_the_judged_systems_own_facts():
    subjects = {
        "A": [response("Kemal", [("Kemal was a ferry captain.", "S"), ("Kemal sang.", "NS")])],
        "B": [response("Kemal", [("Kemal was born in İzmir.", "S")])],
    }
    assert pooled_passages(subjects, "A") == {"Kemal": ["Kemal was born in İzmir."]}
    assert pooled_passages(subjects, "B") == {"Kemal": ["Kemal was a ferry captain."]}


def test_relabel_keeps_ir_abstentions_and_the_structure():
    rs = [
        response("Kemal", [("Kemal was born in İzmir.", "NS"), ("Kemal likes tea.", "IR")]),
        LabelledResponse(2, "Ayşe", (), None),
    ]
    index = TopicIndex({"Kemal": ["Kemal was born in İzmir in 1950."]})
    out = relabel(rs, index, threshold=1.0, top=1)
    assert out[0].sentences[0].human_facts == (
        ("Kemal was born in İzmir.", "S"),
        ("Kemal likes tea.", "IR"),
    )
    assert out[1] is rs[1]


def test_the_labelled_topics_are_seeded_and_the_same_for_every_system():
    topics = [f"topic {i}" for i in range(400)]
    chosen = [t for t in topics if is_labelled(t, 0.25, 0)]
    assert chosen == [t for t in topics if is_labelled(t, 0.25, 0)]
    assert 60 < len(chosen) < 140 and chosen != [t for t in topics if is_labelled(t, 0.25, 1)]


def test_a_perfect_checker_has_no_error_and_keeps_the_ranking():
    good = [
        response(f"t{i}", [("a b", "S"), ("c d", "S" if i % 2 else "NS")], i) for i in range(12)
    ]
    weak = [
        response(f"t{i}", [("a b", "NS"), ("c d", "S" if i % 3 else "NS")], i) for i in range(12)
    ]
    human = {"good": good, "weak": weak}
    report = estimator_report(human, human, gamma=0, share=0.5)
    for s in report.systems:
        assert s.to_dict()["error_rate_points"] == 0.0
        assert s.agreement.numerator == s.agreement.denominator == 24
        # nothing to correct: the estimate is the (exact) mean over the unlabelled responses
        rs = human[s.name]
        unlabelled = [r for r in rs if not is_labelled(r.topic, 0.5, 0)]
        shares = [sum(lab == "S" for _, lab in r.sentences[0].human_facts) / 2 for r in unlabelled]
        assert s.ppi.ppi.value == pytest.approx(sum(shares) / len(shares))
    assert report.check.ranking_kept


@pytest.mark.realdata
def test_on_the_human_annotations_the_checker_misses_and_the_correction_recovers():
    require_data("factscore", "ChatGPT.jsonl")
    report = estimator_report(load_subjects(DATA / "factscore"))
    by = {s.name: s for s in report.systems}
    assert round(100 * by["InstructGPT"].human.factscore, 1) == 42.6  # the paper's table: 42.5
    assert not report.check.ranking_kept  # the pooled passages underrate the system saying most
    for s in report.systems:
        assert s.estimated.factscore < s.human.factscore
        low, high = s.ppi.ppi.low, s.ppi.ppi.high
        assert low <= s.human.init_score <= high  # the corrected interval holds the people's figure
    ranked = sorted(by, key=lambda n: -by[n].ppi.ppi.value)
    assert tuple(ranked) == report.check.human_ranking  # corrected, the ranking comes back
    from claimlab.labs.factscore.views import estimate_lines, estimate_table

    table = estimate_table(report)
    assert list(table.index) == list(by) and "(" in table.loc["ChatGPT", "facts agreed"]
    assert estimate_lines(report)[-1].startswith("ranking NOT kept")


@pytest.mark.realdata
def test_the_command_on_real_data_and_with_a_checkers_own_labels(tmp_path):
    files = [require_data("factscore", f"{n}.jsonl") for n in ("InstructGPT", "ChatGPT")]
    data = json.loads(run_cli("fact-estimate", *files, "--json", check=True).stdout)
    text = run_cli("fact-estimate", *files, check=True).stdout
    assert "ranking" in text and "prediction-powered (no length penalty)" in text
    assert [s["name"] for s in data["systems"]] == ["InstructGPT", "ChatGPT"]
    assert data["checker"]["kind"] == "lexical" and data["systems"][0]["error_rate_points"] < 0
    same = json.loads(
        run_cli("fact-estimate", *files, "--auto", *files, "--json", check=True).stdout
    )
    assert [s["error_rate_points"] for s in same["systems"]] == [0.0, 0.0]
    assert same["ranking"]["ranking_kept"] is True
    proc = run_cli("fact-estimate", *files, "--auto", files[0])
    assert proc.returncode == 2 and "one per file" in proc.stderr
    proc = run_cli("fact-estimate", *files, "--auto", files[1], files[0])
    assert proc.returncode == 2 and "same responses" in proc.stderr


def test_a_knowledge_file_is_read_and_a_bad_one_refused(tmp_path):
    facts = tmp_path / "mine.jsonl"
    row = {"topic": "Kemal", "cat": ["rare"], "annotations": [
        {"text": "s", "is-relevant": True, "model-atomic-facts": [],
         "human-atomic-facts": [{"text": "Kemal was born in İzmir.", "label": "S"},
                                {"text": "Kemal sang opera.", "label": "NS"}]}]}  # fmt: skip
    facts.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    knowledge = tmp_path / "k.jsonl"
    knowledge.write_text(json.dumps({"topic": "Kemal", "text": "Kemal was born in İzmir."}) + "\n")
    data = json.loads(
        run_cli("fact-estimate", facts, "--knowledge", knowledge, "--json", check=True).stdout
    )
    (system,) = data["systems"]
    assert system["fact_agreement"]["display"] == "100.0% (2/2)"
    assert (
        system["prediction_powered"] is None
        and "two or more" in system["prediction_powered_reason"]
    )
    knowledge.write_text(json.dumps({"topic": "Kemal"}) + "\n")
    proc = run_cli("fact-estimate", facts, "--knowledge", knowledge)
    assert proc.returncode == 2 and "k.jsonl" in proc.stderr and "text" in proc.stderr


# ------------------------------------------------- no silent zero: nothing to check against
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from claimlab.core.errors import ClaimlabInputError  # noqa: E402
from claimlab.metrics.factscore import check_estimator  # noqa: E402

KEMAL = [response("Kemal", [("Kemal was born in İzmir.", "S"), ("Kemal sang.", "NS")])]
AYSE = [response("Ayşe", [("Ayşe wrote poems.", "S")])]


@pytest.mark.parametrize(
    ("systems", "knowledge"),
    [
        ({"only": KEMAL}, None),  # one system: the pooled source is the others', none
        ({"a": KEMAL, "b": [response("Kemal", [("Kemal sang.", "NS")])]}, None),  # no S facts
        ({"a": KEMAL}, {"Ayşe": ["Ayşe wrote poems."]}),  # passages on other topics only
        ({"a": KEMAL}, {"Kemal": ["", "the of a"]}),  # passages without a content word
    ],
)
def test_a_knowledge_source_with_nothing_on_a_systems_topics_is_refused(systems, knowledge):
    with pytest.raises(ClaimlabInputError, match="no passage on any of its 1 topics"):
        estimator_report(systems, knowledge=knowledge)


def test_a_topic_without_passages_is_counted_and_said():
    from claimlab.labs.factscore.views import estimate_lines

    report = estimator_report({"a": KEMAL + AYSE}, knowledge={"Kemal": ["Kemal sang."]})
    assert report.checker["topics_without_passages"] == {"a": 1}
    assert any("no passage" in line and "a 1" in line for line in estimate_lines(report))


def test_one_system_has_no_ranking_to_keep():
    from claimlab.labs.factscore.views import estimate_lines

    report = estimator_report({"only": KEMAL}, {"only": KEMAL})
    assert report.check.ranking_kept is None
    assert report.to_dict()["ranking"]["ranking_reason"].startswith("a ranking needs two")
    assert estimate_lines(report)[-1].startswith("ranking N/A: a ranking needs two subjects")


FACT = st.tuples(
    st.sampled_from(["Kemal sang.", "Ayşe wrote poems.", "the of"]),
    st.sampled_from("S NS IR".split()),
)
TOPIC = st.sampled_from(["Kemal", "Ayşe", "Ömer"])
SYSTEM = st.lists(st.tuples(TOPIC, st.lists(FACT, min_size=1, max_size=3)), min_size=1, max_size=3)
PASSAGES = st.none() | st.dictionaries(
    TOPIC, st.lists(st.sampled_from(["Kemal sang.", "", "the"]), max_size=2), max_size=3
)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from("abc"), SYSTEM, min_size=1, max_size=3), PASSAGES)
def test_the_checker_never_estimates_a_system_from_nothing(systems, knowledge):
    """Invariant: a report is given only when each system has a passage on a judged topic."""
    human = {
        k: [response(t, facts, i) for i, (t, facts) in enumerate(rows)]
        for k, rows in systems.items()
    }
    try:
        report = estimator_report(human, knowledge=knowledge)
    except ClaimlabInputError as exc:
        assert "no passage on any of its" in str(exc)
        return
    for name, rows in human.items():
        judged = {
            r.topic for r in rows for s in r.sentences for _, lab in s.human_facts if lab != "IR"
        }
        assert report.checker["topics_without_passages"][name] < len(judged) or not judged


SCORE = st.none() | st.floats(0, 1)


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from("abcd"), st.tuples(SCORE, SCORE), max_size=4))
def test_a_ranking_is_decided_only_over_two_subjects_with_figures(scores):
    """Invariant: ranking_kept is N/A exactly when fewer than two subjects have both figures."""
    from types import SimpleNamespace as S

    check = check_estimator(
        {k: S(factscore=h) for k, (h, _) in scores.items()},  # type: ignore[misc]
        {k: S(factscore=e) for k, (_, e) in scores.items()},
    )
    both = [k for k, (h, e) in scores.items() if h is not None and e is not None]
    assert (check.ranking_kept is None) == (len(both) < 2)
    assert (check.ranking_reason == "") == (len(both) >= 2)
    if len(both) >= 2 and all(scores[k][0] == scores[k][1] for k in both):
        assert check.ranking_kept is True  # an estimator equal to the people keeps it
