"""MuSiQue and HotpotQA as sufficiency files, the premise-cut builder, and the depth study."""

import json

import pytest

from claimlab.io.multihop import convert_hotpotqa, convert_musique
from claimlab.io.sufficiency import read_sufficiency
from claimlab.labs.retrieval.study import depth_study
from claimlab.labs.sufficiency.cases import build_cases, check_cases
from claimlab.metrics.sufficiency import score_fixture_sufficiency
from tests.conftest import FIXTURES, require_data, run_cli

MUSIQUE = ("musique", "hipporag_musique_ans_train_100.json")
HOTPOTQA = ("hotpotqa", "hipporag_hotpotqa_train_100_distractor.json")


@pytest.fixture(scope="module")
def converted():
    out = {}
    for name, parts, convert in (
        ("musique", MUSIQUE, convert_musique),
        ("hotpotqa", HOTPOTQA, convert_hotpotqa),
    ):
        path = require_data(*parts)
        doc = convert(path)
        out[name] = (doc, read_sufficiency(doc, source=str(path)))
    return out


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["musique", "hotpotqa"])
def test_every_record_full_support_is_sufficient_and_each_cut_names_its_premise(converted, name):
    _, fx = converted[name]
    assert len(fx.questions) == 100
    for q in fx.questions.values():
        (alt,) = q.alternatives
        assert all(eid.startswith(q.name + "/") for eid in alt)  # ids trace back to the record
        assert score_fixture_sufficiency(fx, q.name, list(alt)).status == "SUFFICIENT", q.name
        for m in alt:
            r = score_fixture_sufficiency(fx, q.name, [x for x in alt if x != m])
            assert r.status == "INSUFFICIENT" and r.branches[0].missing == (m,), (q.name, m)


@pytest.mark.realdata
def test_musique_links_follow_the_hops_references(converted):
    doc, fx = converted["musique"]
    joined = [q for q in fx.questions.values() if q.kind == "3hop2"]
    assert len(joined) == 3
    q = joined[0]
    a, b, c = q.alternatives[0]
    assert set(q.pairs(0)) == {(a, c), (b, c)}  # hop 3 joins the answers of hops 1 and 2
    assert len(fx.item(c).takes) == 2
    # the chain breaks when hop 2's premise leads elsewhere
    kinds = {q.kind for q in fx.questions.values()}
    assert kinds == {"2hop", "3hop1", "3hop2", "4hop1", "4hop3"}


@pytest.mark.realdata
def test_hotpotqa_keeps_bridge_and_comparison_apart(converted):
    _, fx = converted["hotpotqa"]
    kinds = [q.kind for q in fx.questions.values()]
    assert kinds.count("bridge") == 78 and kinds.count("comparison") == 22
    assert all(q.pairs(0) == () for q in fx.questions.values())  # sets: no link to hold


@pytest.mark.realdata
def test_depth_study_figures(converted, capsys):
    for name, (_, fx) in converted.items():
        rows = depth_study(fx, [2, 5, 10])
        for r in rows:
            if r.query == "question":
                print(f"{name} top {r.k}: {r.sufficient.display}")
        oracle = next(r for r in rows if r.query == "oracle")
        assert oracle.sufficient.numerator == oracle.sufficient.denominator == 100
        by_q = {r.k: r.sufficient.numerator for r in rows if r.query == "question"}
        assert by_q[2] <= by_q[5] <= by_q[10]
    rows = depth_study(converted["musique"][1], [2, 5, 10], queries=["question"])
    for r in rows:
        print("musique top", r.k, "missing per hop:", [r.missing(h).display for h in range(1, 5)])
    # the bridge (hop 2) goes missing more often than hop 1 when ranked by the question
    assert all(r.missing_by_hop[1] > r.missing_by_hop[0] for r in rows)
    assert rows[0].missing(1).denominator == 100 and rows[0].missing(3).denominator == 32


@pytest.mark.parametrize("source", ["aurora.json", "aurora_th.json", "parcel_routes.json"])
def test_premise_cut_cases_behave_on_the_teaching_files(source):
    doc = json.loads((FIXTURES / source).read_text(encoding="utf-8"))
    cases = build_cases(doc, source=source)
    kinds = {c["kind"] for c in cases["cases"]}
    assert kinds == {
        "whole", "with-distractors", "cut", "look-alike", "look-alike-chain", "wrong-relation",
        "stale", "duplicate", "changed-question",
    }  # fmt: skip
    assert check_cases(cases) == []


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["musique", "hotpotqa"])
def test_premise_cut_cases_behave_on_the_real_data(converted, name):
    doc, _ = converted[name]
    cases = build_cases(doc, source=name)
    assert len(cases["cases"]) > 700 and check_cases(cases) == []


def test_the_checker_fails_a_case_that_does_not_behave():
    doc = json.loads((FIXTURES / "aurora.json").read_text(encoding="utf-8"))
    cases = build_cases(doc)
    cut = next(c for c in cases["cases"] if c["kind"] == "cut")
    cut["expect"]["status"] = "SUFFICIENT"
    stale = next(c for c in cases["cases"] if c["kind"] == "stale")
    stale["context"] = [x.replace("~stale", "") for x in stale["context"]]
    failures = check_cases(cases)
    assert len(failures) == 2 and "expected SUFFICIENT" in failures[0]


def test_commands_convert_and_cases(tmp_path):
    out = tmp_path / "cases.json"
    proc = run_cli("sufficiency-cases", FIXTURES / "parcel_routes.json", "--out", out)
    assert proc.returncode == 0 and "every case behaves as stated" in proc.stdout
    assert json.loads(out.read_text("utf-8"))["format"] == "claimlab/sufficiency-cases@1"
    bad = tmp_path / "m.json"
    bad.write_text(
        json.dumps(
            [
                {
                    "id": "r1",
                    "paragraphs": [],
                    "question": "q",
                    "question_decomposition": [],
                    "answer": "a",
                }
            ]
        )
    )
    proc = run_cli("convert", "musique", bad, "--out", tmp_path / "s.json")
    assert proc.returncode == 2 and "r1" in proc.stderr and "question_decomposition" in proc.stderr
    assert not (tmp_path / "s.json").exists()


MUSIQUE_ROW = {
    "id": "2hop__1_2",
    "paragraphs": [
        {"idx": 0, "title": "A", "paragraph_text": "A is in B.", "is_supporting": True},
        {"idx": 1, "title": "B", "paragraph_text": "B has C.", "is_supporting": True},
    ],
    "question": "What does the place of A have?",
    "question_decomposition": [
        {"id": 1, "question": "Where is A?", "answer": "B", "paragraph_support_idx": 0},
        {"id": 2, "question": "What does #1 have?", "answer": "C", "paragraph_support_idx": 1},
    ],
    "answer": "C",
    "answer_aliases": [],
}


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (lambda r: r.pop("question"), "question", "missing required field"),
        (lambda r: r["paragraphs"][1].update(idx=0), "paragraphs[1].idx", "occurs twice"),
        (
            lambda r: r["question_decomposition"][1].update(paragraph_support_idx=9),
            "paragraph_support_idx",
            "no paragraph",
        ),
        (
            lambda r: r["question_decomposition"][1].update(question="What does #2 have?"),
            "question",
            "not an earlier hop",
        ),
        (
            lambda r: r["question_decomposition"][1].update(paragraph_support_idx=0),
            "paragraph_support_idx",
            "already supports",
        ),
        (
            lambda r: r["paragraphs"][0].update(is_supporting="yes"),
            "is_supporting",
            "true or false",
        ),
    ],
)
def test_bad_musique_records_name_file_record_and_field(tmp_path, change, field, problem):
    row = json.loads(json.dumps(MUSIQUE_ROW))
    change(row)
    f = tmp_path / "m.json"
    f.write_text(json.dumps([row]))
    proc = run_cli("convert", "musique", f, "--out", tmp_path / "s.json")
    assert proc.returncode == 2, proc.stdout
    err = proc.stderr.strip()
    assert (
        err.count("\n") == 0
        and str(f) in err
        and "2hop__1_2" in err
        and field in err
        and problem in err
    )


def test_a_tiny_musique_record_converts_and_links(tmp_path):
    f = tmp_path / "m.json"
    f.write_text(json.dumps([MUSIQUE_ROW]))
    proc = run_cli("convert", "musique", f, "--out", tmp_path / "s.json", "--json")
    assert json.loads(proc.stdout)["questions"] == 1
    fx = read_sufficiency(json.loads((tmp_path / "s.json").read_text()), source="s")
    r = score_fixture_sufficiency(fx, "2hop__1_2", ["2hop__1_2/p0", "2hop__1_2/p1"])
    assert r.status == "SUFFICIENT"


@pytest.mark.parametrize(
    ("links", "problem"),
    [
        ([[["E1", "E9"]]], "not a member"),
        ([[["E1"]]], "pair of evidence ids"),
        ([[["E1", "E2"], ["E2", "E1"]]], "cycle"),
        ([None, None], "entries for 1 alternatives"),
    ],
)
def test_bad_links_are_refused(tmp_path, links, problem):
    doc = {
        "format": "claimlab/sufficiency@1",
        "evidence": [
            {
                "id": e,
                "text": "t",
                "subject": "s",
                "relation": "r",
                "object": "o",
                "status": "OK",
                "current": True,
                "topic": "x",
            }
            for e in ("E1", "E2")
        ],
        "rules": {"required_status": "OK", "require_current": True},
        "questions": {
            "q": {
                "text": "?",
                "asks": ["a"],
                "topic": "x",
                "alternatives": [["E1", "E2"]],
                "links": links,
            }
        },
    }
    f = tmp_path / "s.json"
    f.write_text(json.dumps(doc))
    proc = run_cli("sufficiency", f, "--question", "q", "--context", "E1")
    assert proc.returncode == 2 and problem in proc.stderr and "questions.q.links" in proc.stderr


def test_each_asked_item_is_confirmed_or_unknown_on_its_own(tmp_path):
    doc = json.loads((FIXTURES / "aurora.json").read_text(encoding="utf-8"))
    q = doc["questions"]["route_and_room"]
    q["alternatives"].append(["E5"])  # names the room, not the route
    f = tmp_path / "a.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    proc = run_cli("sufficiency", f, "--question", "route_and_room", "--context", "E5", "--json")
    items = json.loads(proc.stdout)["items"]
    assert json.loads(proc.stdout)["status"] == "SUFFICIENT"
    assert items == {
        "route": {"status": "UNKNOWN", "value": None, "by": []},
        "room": {"status": "CONFIRMED", "value": "Room A3", "by": ["E5"]},
    }
    text = run_cli("sufficiency", f, "--question", "route_and_room", "--context", "E1,E2").stdout
    assert (
        "per asked item: route CONFIRMED (Solar Route, from E1) · "
        "room CONFIRMED (Room A3, from E1, E2)" in text
    )


@pytest.mark.realdata
def test_selective_answering_on_real_data(converted):
    from claimlab.labs.retrieval.study import selective_study

    for name in ("musique", "hotpotqa"):
        rows = selective_study(converted[name][1], [2, 10])
        for s in rows:
            # the reader answers everything; answering only with a complete witness answers less
            assert s.reader.coverage.numerator == 100
            assert s.gated.coverage.numerator <= 100
            assert s.gated.abstained_with_complete_evidence == ()
            assert len(s.reader.answered_with_gaps) == 100 - s.gated.coverage.numerator
            assert s.risk_coverage[0].coverage.numerator == 100
    musique = selective_study(converted["musique"][1], [2])[0]
    assert musique.gated.accuracy.value > musique.reader.accuracy.value
