"""Sufficiency v3: conflicts, conditions, per-item answers, what to search next, the new case kinds,
``--context`` in every form, MuSiQue's unanswerable questions and the game on a conflict."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.io.sufficiency import load_sufficiency, read_sufficiency
from claimlab.labs.play import play_script
from claimlab.labs.sufficiency.cases import build_cases, check_cases, trivial_scores
from claimlab.labs.sufficiency.game import SufficiencyGame, solve_sufficiency, sufficiency_wins
from claimlab.metrics.sufficiency import score_fixture_sufficiency
from claimlab.tooling.cli import main
from tests.conftest import FIXTURES, require_data, run_cli

LIBRARY = ["library_loans.json", "library_loans_th.json"]


def _result(source, question, context, **kw):
    return score_fixture_sufficiency(load_sufficiency(FIXTURES / source), question, context, **kw)


@pytest.mark.parametrize("source", LIBRARY)
def test_two_approved_texts_that_disagree_are_a_conflict_never_sufficient(source):
    r = _result(source, "loan_period", ["L1", "L2", "L3"])
    assert r.status == "CONFLICT" and not r.sufficient
    (c,) = r.conflicts
    assert {v: list(ids) for v, ids in c.values.items()} == {
        load_sufficiency(FIXTURES / source).item("L2").object: ["L2"],
        load_sufficiency(FIXTURES / source).item("L3").object: ["L3"],
    }
    assert r.items["period"].status == "CONFLICT" and r.items["period"].value is None
    # without the circular, the same file is sufficient: the conflict comes from L3
    assert _result(source, "loan_period", ["L1", "L2"]).status == "SUFFICIENT"
    # a stale text giving a third value is rejected for its metadata, not a side of a conflict
    r = _result(source, "loan_period", ["L1", "L2", "L6"])
    assert r.status == "SUFFICIENT" and r.conflicts == ()


@pytest.mark.parametrize("source", LIBRARY)
def test_a_dropped_condition_is_conditional_and_the_asker_circumstances_meet_it(source):
    fx = load_sufficiency(FIXTURES / source)
    (condition,) = fx.item("L4").conditions
    r = _result(source, "loan_period", ["L4", "L5"])
    assert r.status == "CONDITIONAL" and not r.sufficient
    assert [(u.id, list(u.conditions)) for u in r.conditions_unmet] == [("L4", [condition])]
    met = _result(source, "loan_period", ["L4", "L5"], circumstances=[condition])
    assert met.status == "SUFFICIENT" and met.conditions_unmet == ()
    # the question that states the circumstance itself
    assert _result(source, "saturday_period", ["L4", "L5"]).status == "SUFFICIENT"


def test_a_partial_chain_confirms_the_item_it_names_and_says_what_to_search_next():
    r = _result("aurora.json", "route_and_room", ["E1"])
    assert r.status == "INSUFFICIENT"
    assert r.items["route"].status == "CONFIRMED" and r.items["route"].value == "Solar Route"
    assert r.items["route"].by == ("E1",)
    assert r.items["room"].status == "UNKNOWN"
    first = r.next_search[0]
    assert first.subject == "Solar Route" and first.missing == "E2"
    assert "Solar Route" in first.explanation


@pytest.mark.parametrize(
    ("context", "want"),
    [
        (["L1", "L2"], ["L1", "L2"]),  # space-separated (nargs)
        (["L1,L2"], ["L1", "L2"]),  # comma-separated
        (["L1, L2"], ["L1", "L2"]),  # with a space after the comma
    ],
)
def test_context_forms(context, want, capsys):
    f = FIXTURES / "library_loans.json"
    assert (
        main(["sufficiency", str(f), "--question", "loan_period", "--context", *context, "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["context"] == want


def test_context_repeated_from_a_file_and_with_a_comma_in_an_id(tmp_path, capsys):
    text = (FIXTURES / "library_loans.json").read_text("utf-8")
    doc = json.loads(text.replace('"L1"', '"Laie, Hawaii#0"'))  # an own file, a comma in an id
    f = tmp_path / "own.json"
    f.write_text(json.dumps(doc), "utf-8")
    ids = tmp_path / "ids.txt"
    ids.write_text("Laie, Hawaii#0\n\nL2\n", "utf-8")
    for args in (
        ["--context", "Laie, Hawaii#0", "--context", "L2"],
        ["--context", "Laie, Hawaii#0,L2"],
        ["--context", f"@{ids}"],
    ):
        assert main(["sufficiency", str(f), "--question", "loan_period", *args, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["context"] == ["Laie, Hawaii#0", "L2"] and out["status"] == "SUFFICIENT", args


def test_cli_text_and_json_show_the_conflict_the_condition_and_the_next_search():
    f = FIXTURES / "library_loans.json"
    text = run_cli(
        "sufficiency", f, "--question", "loan_period", "--context", "L1", "L2", "L3"
    ).stdout
    assert "status: CONFLICT" in text and "14 days (L2); 7 days (L3)" in text
    out = json.loads(
        run_cli(
            "sufficiency", f, "--question", "loan_period", "--context", "L4,L5", "--json"
        ).stdout
    )
    assert out["status"] == "CONDITIONAL"
    assert out["conditions_unmet"] == [{"id": "L4", "conditions": ["borrowed on a Saturday"]}]
    met = run_cli(
        "sufficiency", f, "--question", "loan_period", "--context", "L4,L5",
        "--circumstance", "borrowed on a Saturday", "--json",
    )  # fmt: skip
    assert json.loads(met.stdout)["status"] == "SUFFICIENT"
    out = json.loads(
        run_cli("sufficiency", f, "--question", "loan_period", "--context", "L1", "--json").stdout
    )
    assert out["next_search"][0] == {
        "subject": "short-loan rule", "relation": "lasts", "missing": "L2"
    }  # fmt: skip
    assert out["items"] == {"period": {"status": "UNKNOWN", "value": None, "by": []}}


# --- the case builder, kind by kind -------------------------------------------------------------
# library_loans: four complete witnesses (loan_period {L1,L2} {L1,L3} {L4,L5}; saturday_period
# {L4,L5}), eight premises in all; "lasts" is single-valued; L4 holds only on a Saturday.
# aurora: five witnesses (room {E5} {E1,E2} {E3,E4}; route_and_room {E1,E2} {E3,E4}), nine
# premises, no single-valued relation, no condition.
KIND_TABLE = [
    # source, kind, count (how it follows), statuses expected
    ("library_loans.json", "wrong-relation", 8, {"INSUFFICIENT"}),  # one per premise
    ("library_loans.json", "conflict", 4, {"CONFLICT"}),  # premises of "lasts": L2, L3, L5, L5
    ("library_loans.json", "dropped-condition", 2, {"CONDITIONAL"}),  # witnesses holding L4
    ("library_loans.json", "condition-met", 2, {"SUFFICIENT"}),  # the same, circumstances named
    # {L1,L2} and {L1,L3} with saturday_period; {L4,L5} holds an alternative of the other one
    ("library_loans.json", "changed-question", 2, {"INSUFFICIENT"}),
    # one per witness: SUFFICIENT, except loan_period's {L4,L5} (its condition unmet)
    ("library_loans.json", "whole", 4, {"SUFFICIENT", "CONDITIONAL"}),
    ("library_loans.json", "with-distractors", 4, {"SUFFICIENT", "CONDITIONAL"}),  # L7 added
    ("aurora.json", "wrong-relation", 9, {"INSUFFICIENT"}),
    ("aurora.json", "conflict", 0, set()),  # nothing is single-valued: no conflict to make
    ("aurora.json", "dropped-condition", 0, set()),  # no evidence has conditions
    ("aurora.json", "changed-question", 1, {"INSUFFICIENT"}),  # only {E5} leaves route_and_room
    ("aurora.json", "whole", 5, {"SUFFICIENT"}),
]


@pytest.mark.parametrize(("source", "kind", "count", "statuses"), KIND_TABLE)
def test_each_case_kind_by_its_arithmetic(source, kind, count, statuses):
    doc = json.loads((FIXTURES / source).read_text("utf-8"))
    cases = build_cases(doc, source=source)
    made = [c for c in cases["cases"] if c["kind"] == kind]
    assert len(made) == count
    assert {c["expect"]["status"] for c in made} == statuses
    assert check_cases(cases) == []
    if kind == "whole" and source == "library_loans.json":
        conditional = [c for c in made if c["expect"]["status"] == "CONDITIONAL"]
        assert [(c["question"], c["context"]) for c in conditional] == [
            ("loan_period", ["L4", "L5"])
        ]
    if kind == "conflict":
        for c in made:
            (values,) = [c["expect"]["conflict_values"]]
            assert len(values) == 2 and all(len(ids) == 1 for ids in values.values())
    if kind == "changed-question":
        fx = read_sufficiency(cases["fixture"], source=source)
        for c in made:  # the same context, another question, none of whose alternatives it holds
            assert not any(
                set(a) <= set(c["context"]) for a in fx.question(c["question"]).alternatives
            )


def test_each_new_kind_is_caught_when_its_expectation_is_wrong():
    doc = json.loads((FIXTURES / "library_loans.json").read_text("utf-8"))
    for kind, status in (
        ("wrong-relation", "SUFFICIENT"),
        ("conflict", "SUFFICIENT"),
        ("dropped-condition", "SUFFICIENT"),
        ("condition-met", "CONDITIONAL"),
        ("changed-question", "SUFFICIENT"),
    ):
        cases = build_cases(doc)
        case = next(c for c in cases["cases"] if c["kind"] == kind)
        case["expect"]["status"] = status
        (failure,) = check_cases(cases)
        assert case["name"] in failure and f"expected {status}" in failure


@pytest.mark.parametrize(
    ("source", "sufficient", "insufficient"),
    [
        # SUFFICIENT: whole 3 + with-distractors 3 + duplicate 3 + condition-met 2 = 11 of 58;
        # INSUFFICIENT: cut 8 + look-alike 8 + chain 4 + wrong-relation 8 + stale 8 + changed 2
        ("library_loans.json", (11, 58), (38, 58)),
        ("library_loans_th.json", (11, 58), (38, 58)),
        # whole 5 + with-distractors 5 + duplicate 5 of 56; the other 41 INSUFFICIENT
        ("aurora.json", (15, 56), (41, 56)),
    ],
)
def test_trivial_checkers_fail_on_the_built_set(source, sufficient, insufficient):
    cases = build_cases(json.loads((FIXTURES / source).read_text("utf-8")), source=source)
    scores = trivial_scores(cases)
    assert (scores.always_sufficient.numerator, scores.always_sufficient.denominator) == sufficient
    assert (
        scores.always_insufficient.numerator,
        scores.always_insufficient.denominator,
    ) == insufficient
    assert scores.telling
    # a set of cut cases only cannot tell an always-INSUFFICIENT checker from a real one
    only_cuts = dict(cases, cases=[c for c in cases["cases"] if c["kind"] == "cut"])
    assert not trivial_scores(only_cuts).telling


def test_sufficiency_cases_command_reports_the_trivial_checkers(tmp_path):
    out = tmp_path / "cases.json"
    proc = run_cli("sufficiency-cases", FIXTURES / "library_loans.json", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "always says SUFFICIENT gets 19.0% (11/58)" in proc.stdout
    assert "always says INSUFFICIENT 65.5% (38/58)" in proc.stdout


# --- real data through the command line --------------------------------------------------------


@pytest.fixture(scope="module")
def converted_files(tmp_path_factory):
    out = tmp_path_factory.mktemp("converted")
    musique = require_data("musique", "hipporag_musique_ans_train_100.json")
    hotpot = require_data("hotpotqa", "hipporag_hotpotqa_train_100_distractor.json")
    run_cli("convert", "musique", musique, "--contrast", "--out", out / "m.json", check=True)
    run_cli("convert", "hotpotqa", hotpot, "--out", out / "h.json", check=True)
    return {"musique": out / "m.json", "hotpotqa": out / "h.json"}


def _status(path, question, context, capsys):
    assert (
        main(["sufficiency", str(path), "--question", question, "--context", *context, "--json"])
        == 0
    )
    return json.loads(capsys.readouterr().out)


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["musique", "hotpotqa"])
def test_every_real_question_is_sufficient_with_its_full_support_through_the_cli(
    converted_files, name, capsys
):
    doc = json.loads(converted_files[name].read_text("utf-8"))
    assert not any("," in e["id"] for e in doc["evidence"])  # every id can be passed as it is
    answerable = {n: q for n, q in doc["questions"].items() if q.get("answerable", True)}
    assert len(answerable) == 100
    for n, q in answerable.items():
        (alt,) = q["alternatives"]
        out = _status(converted_files[name], n, alt, capsys)
        assert out["status"] == "SUFFICIENT", n
        assert out["items"]["answer"]["status"] == "CONFIRMED", n


@pytest.mark.realdata
def test_no_unanswerable_twin_is_ever_sufficient(converted_files, capsys):
    path = converted_files["musique"]
    doc = json.loads(path.read_text("utf-8"))
    twins = {n: q for n, q in doc["questions"].items() if q.get("answerable") is False}
    assert len(twins) == 100
    for n in twins:
        own = [e["id"] for e in doc["evidence"] if e["id"].startswith(n + "/")]
        out = _status(path, n, own, capsys)  # every paragraph the twin has
        assert out["status"] != "SUFFICIENT" and out["unanswerable"] is True, n
        assert "unanswerable" in out["explanation"]
        twin_of = n.removesuffix("~unanswerable")
        full = [
            e.replace(twin_of + "/", n + "/") for e in doc["questions"][twin_of]["alternatives"][0]
        ]
        removed = [e for e in full if e not in own]
        assert len(removed) == 1, n  # the twin lacks exactly one supporting paragraph


BAD_HOP = {"paragraph_support_idx": None}


def _musique_rows():
    from tests.io.test_multihop import MUSIQUE_ROW

    good = copy.deepcopy(MUSIQUE_ROW)
    bad = copy.deepcopy(MUSIQUE_ROW)
    bad["id"] = "2hop__3_4"
    bad["question_decomposition"][1].update(BAD_HOP)
    unanswerable = copy.deepcopy(bad)
    unanswerable["id"] = "2hop__5_6"
    unanswerable["answerable"] = False
    return good, bad, unanswerable


def test_a_bad_musique_record_is_skipped_and_named_the_others_converted(tmp_path):
    good, bad, unanswerable = _musique_rows()
    f = tmp_path / "m.json"
    f.write_text(json.dumps([good, bad, unanswerable]))
    proc = run_cli("convert", "musique", f, "--out", tmp_path / "s.json")
    assert proc.returncode == 0, proc.stderr
    assert "skipped" in proc.stdout and "2hop__3_4" in proc.stdout
    assert "paragraph_support_idx" in proc.stdout
    doc = json.loads((tmp_path / "s.json").read_text("utf-8"))
    assert set(doc["questions"]) == {"2hop__1_2", "2hop__5_6"}
    assert doc["questions"]["2hop__5_6"]["answerable"] is False
    assert [s["record"] for s in doc["skipped"]] == ["2hop__3_4"]
    fx = read_sufficiency(doc, source="s.json")
    every = [e.id for e in fx.evidence if e.id.startswith("2hop__5_6/")]
    assert score_fixture_sufficiency(fx, "2hop__5_6", every).status != "SUFFICIENT"


def test_a_file_of_bad_records_is_refused_naming_every_one(tmp_path):
    _, bad, _ = _musique_rows()
    other = copy.deepcopy(bad)
    other["id"] = "2hop__7_8"
    f = tmp_path / "m.json"
    f.write_text(json.dumps([bad, other]))
    proc = run_cli("convert", "musique", f, "--out", tmp_path / "s.json")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "2hop__3_4" in proc.stderr and "2hop__7_8" in proc.stderr and str(f) in proc.stderr
    assert not (tmp_path / "s.json").exists()


# --- the game on a conflict ----------------------------------------------------------------------


@pytest.mark.parametrize("source", LIBRARY)
def test_a_conflict_round_is_won_by_showing_the_conflict_never_by_picking_a_side(source):
    fx = load_sufficiency(FIXTURES / source)
    seven = fx.item("L3").object
    game = SufficiencyGame(fx, "conflicting_rules")
    picked = game.submit(["L1", "L3"], {"period": seven})
    assert not picked.won and [r.code for r in picked.reasons] == ["PICKED_A_SIDE"]
    game.reset()
    one_side = game.submit(["L1", "L3"], {}, conflict=True)
    assert [r.code for r in one_side.reasons] == ["CONFLICT_NOT_CITED"]
    game.reset()
    assert game.submit(["L2", "L3"], {}, conflict=True).won
    # the solver finds the winning report, and its script wins
    (win,) = sufficiency_wins(fx, "conflicting_rules")
    assert win.conflict and set(win.witness) == {"L2", "L3"}
    log = play_script(
        SufficiencyGame(fx, "conflicting_rules"), solve_sufficiency(fx, "conflicting_rules")
    )
    assert log[-1]["won"]


@pytest.mark.parametrize("source", LIBRARY)
def test_reporting_a_conflict_that_is_not_there_loses(source):
    fx = load_sufficiency(FIXTURES / source)
    game = SufficiencyGame(fx, "missing_rule")
    game.search("L2")
    lost = game.submit(["L1", "L2"], {}, conflict=True)
    assert [r.code for r in lost.reasons] == ["NO_CONFLICT"]
    assert solve_sufficiency(fx, "missing_rule")  # the round can be won by answering
    assert solve_sufficiency(fx, "saturday_asked")


def test_a_conditional_witness_wins_nothing_in_the_game(tmp_path):
    doc = json.loads((FIXTURES / "library_loans.json").read_text("utf-8"))
    doc["game"]["scenarios"].append("saturday_rule")
    doc["answer_key"]["loan_period"]["period"].append("3 days")
    fx = read_sufficiency(doc, source="own")
    game = SufficiencyGame(fx, "saturday_rule")
    result = game.submit(["L4", "L5"], {"period": "3 days"})
    assert not result.won and "CONDITIONS_UNMET" in [r.code for r in result.reasons]
    assert all(not w.witness == ("L4", "L5") for w in sufficiency_wins(fx, "saturday_rule"))


SUFFICIENCY_FIXTURES = sorted(
    p.name
    for p in FIXTURES.glob("*.json")
    if '"claimlab/sufficiency@1"' in p.read_text("utf-8")[:200]
)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SUFFICIENCY_FIXTURES), st.data())
def test_every_case_built_from_any_file_behaves_as_stated(source, data):
    """The builder's expectations follow the file's own rules.

    On a file whose questions say at random that their alternatives are not complete, every
    case built behaves as stated (a context short of every alternative: UNKNOWN, not
    INSUFFICIENT, for a question whose alternatives are not complete).
    """
    doc = json.loads((FIXTURES / source).read_text("utf-8"))
    for name, q in doc["questions"].items():
        q["alternatives_complete"] = data.draw(st.booleans(), label=f"{name} complete")
    cases = build_cases(doc, source=source)
    assert check_cases(cases) == []
    incomplete = {n for n, q in doc["questions"].items() if not q["alternatives_complete"]}
    short = [c for c in cases["cases"] if c["expect"]["status"] in ("INSUFFICIENT", "UNKNOWN")]
    for c in short:
        want = "UNKNOWN" if c["question"].split("~")[0] in incomplete else "INSUFFICIENT"
        assert c["expect"]["status"] == want, c["name"]


def _relations(doc):
    return sorted({e["relation"] for e in doc["evidence"]})


def _conditions(doc):
    return sorted({c for e in doc["evidence"] for c in e.get("conditions") or []})


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SUFFICIENCY_FIXTURES), st.data())
def test_every_case_behaves_as_stated_whatever_the_files_rules_and_circumstances(source, data):
    """The builder's expectations hold under any rules a file may state.

    Any relations single-valued, current texts required or not, any circumstances per
    question, alternatives widened by a text or written twice: every case built behaves as stated (the cases never contradict the file, so
    ``sufficiency-cases`` exits 0 on every valid file).
    """
    doc = json.loads((FIXTURES / source).read_text("utf-8"))
    doc["rules"]["require_current"] = data.draw(st.booleans(), label="require_current")
    doc["rules"]["single_valued"] = data.draw(
        st.lists(st.sampled_from(_relations(doc)), unique=True), label="single_valued"
    )
    ids = [e["id"] for e in doc["evidence"]]
    for name, q in doc["questions"].items():
        if _conditions(doc):
            q["circumstances"] = data.draw(
                st.lists(st.sampled_from(_conditions(doc)), unique=True), label=f"{name} holds"
            )
        for alt in list(q["alternatives"]):  # a wider alternative, or one written twice
            more = data.draw(st.sampled_from([None, [], *ids]), label=f"{name} widened")
            if more is None or more in alt:
                continue
            q["alternatives"].append([*alt, more] if more else list(alt))
            if q.get("links") is not None:
                q["links"].append(None)
    cases = build_cases(doc, source=source)
    assert check_cases(cases) == []
    if not doc["rules"]["require_current"]:
        assert not [c for c in cases["cases"] if c["kind"] == "stale"]


# a ferry timetable: the second question asks on a holiday, and a harbour sign states the
# weekday pier outright; a stale leaflet gives a third pier
FERRY = {
    "format": "claimlab/sufficiency@1",
    "language": "en",
    "evidence": [
        {"id": "F1", "text": "The island ferry is line 4.", "subject": "island ferry",
         "relation": "is line", "object": "4", "status": "OK", "current": True, "topic": "ferry"},
        {"id": "F2", "text": "Line 4 sails from Pier 2.", "subject": "4", "relation": "sails from",
         "object": "Pier 2", "status": "OK", "current": True, "topic": "ferry"},
        {"id": "F3", "text": "On holidays line 4 sails from Pier 6.", "subject": "4",
         "relation": "sails from", "object": "Pier 6", "status": "OK", "current": True,
         "topic": "ferry", "conditions": ["on a holiday"]},
        {"id": "F4", "text": "Old leaflet: line 4 sails from Pier 1.", "subject": "4",
         "relation": "sails from", "object": "Pier 1", "status": "OK", "current": False,
         "topic": "ferry"},
        {"id": "F5", "text": "Harbour sign: the island ferry boards at Pier 2.",
         "subject": "island ferry", "relation": "boards at", "object": "Pier 2", "status": "OK",
         "current": True, "topic": "ferry"},
        {"id": "F6", "text": "A return costs 9 euros.", "subject": "return", "relation": "costs",
         "object": "9 euros", "status": "OK", "current": True, "topic": "fares"},
    ],
    "rules": {"required_status": "OK", "require_current": True, "single_valued": ["sails from"]},
    "questions": {
        "pier": {"text": "Which pier?", "asks": ["pier"], "topic": "ferry",
                 "alternatives": [["F5"], ["F1", "F2"], ["F1", "F3"]]},
        "holiday_pier": {"text": "Which pier on a holiday?", "asks": ["line", "pier"],
                         "topic": "ferry", "alternatives": [["F1", "F3"]],
                         "circumstances": ["on a holiday"]},
    },
}  # fmt: skip


@pytest.mark.parametrize("require_current", [True, False])
def test_distractors_are_texts_the_rules_keep_out_and_no_case_contradicts_the_file(
    require_current,
):
    doc = copy.deepcopy(FERRY)
    doc["rules"]["require_current"] = require_current
    cases = build_cases(doc)
    assert check_cases(cases) == []
    noisy = {c["question"]: c["context"] for c in cases["cases"] if c["kind"] == "with-distractors"}
    # the off-topic fare always; the stale leaflet only where the rules keep it out; never the
    # harbour sign, which states the weekday pier itself
    kept_out = ["F4", "F6"] if require_current else ["F6"]
    assert noisy["holiday_pier"] == ["F1", "F3", *kept_out]
    assert [c["kind"] for c in cases["cases"]].count("stale") == (
        7 if require_current else 0
    )  # 5 + 2 premises
    # the conditioned copies hold the one witness they test
    fixture = cases["fixture"]["questions"]
    assert fixture["pier~condition-met~2"]["alternatives"] == [["F1", "F3"]]


def test_only_minimal_witnesses_that_agree_with_themselves_give_cases():
    """A wider alternative ({platform sign, route} beside {platform sign}) and a witness whose
    two texts give one single-valued fact two values are no witnesses to cut from."""
    doc = copy.deepcopy(FERRY)
    pier = doc["questions"]["pier"]
    pier["alternatives"] += [["F5", "F1"], ["F5"]]
    doc["evidence"].append(dict(doc["evidence"][1], id="F7", object="Pier 8"))
    doc["questions"]["twice"] = {
        "text": "Which pier, twice?", "asks": ["line", "pier"], "topic": "ferry",
        "alternatives": [["F1", "F2", "F7"]], "links": [[["F1", "F2"], ["F1", "F7"]]],
    }  # fmt: skip
    cases = build_cases(doc)
    assert check_cases(cases) == []
    wholes = [(c["question"], c["context"]) for c in cases["cases"] if c["kind"] == "whole"]
    assert ("pier", ["F5"]) in wholes and ("pier", ["F5", "F1"]) not in wholes
    assert wholes.count(("pier", ["F5"])) == 1 and not [w for w in wholes if w[0] == "twice"]


def test_the_notes_say_why_a_kind_is_missing_in_both_outputs(tmp_path):
    doc = copy.deepcopy(FERRY)
    doc["rules"]["require_current"] = False
    doc["rules"]["single_valued"] = ["costs"]
    path = tmp_path / "ferry.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = run_cli("sufficiency-cases", path, "--out", tmp_path / "c.json", "--json", check=True)
    notes = json.loads(proc.stdout)["notes"]
    assert notes == [
        "no conflict case: no premise of a witness has a single-valued relation",
        "no stale case: the file's rules accept texts that are not current (require_current)",
    ]
    proc = run_cli("sufficiency-cases", path, "--out", tmp_path / "c.json", check=True)
    assert all(n in proc.stdout for n in notes)


def _respelled(text, how):
    """The same subject written another way: case changed, spaces doubled or added at an end."""
    if how == "upper":
        return text.upper()
    if how == "lower":
        return text.lower()
    if how == "spaces":
        return "  ".join(text.split()) + " "
    return text


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SUFFICIENCY_FIXTURES), st.data())
def test_a_subject_spelled_another_way_changes_no_verdict(source, data):
    """A chain links through a value as values are compared (case and spaces aside): writing a
    subject or an input ``Solar Route``, ``solar route`` or ``Solar  Route`` changes no status,
    for every question and every context made of its alternatives and other items."""
    doc = json.loads((FIXTURES / source).read_text("utf-8"))
    other = copy.deepcopy(doc)
    for e in other["evidence"]:
        how = data.draw(st.sampled_from(["same", "upper", "lower", "spaces"]), label=e["id"])
        e["subject"] = _respelled(e["subject"], how)
        e["inputs"] = [_respelled(x, how) for x in e.get("inputs") or []] or None
    before = read_sufficiency(doc, source=source)
    after = read_sufficiency(other, source=source)
    ids = [e["id"] for e in doc["evidence"]]
    for name, q in before.questions.items():
        contexts = [list(a) for a in q.alternatives]
        contexts.append(data.draw(st.lists(st.sampled_from(ids), max_size=6), label=name))
        for context in contexts:
            was = score_fixture_sufficiency(before, name, context).status
            assert score_fixture_sufficiency(after, name, context).status == was, (name, context)


def test_an_id_the_file_lacks_is_said_beside_a_complete_witness(capsys):
    q = next(iter(load_sufficiency(FIXTURES / "aurora.json").questions.values()))
    context = [*q.alternatives[0], "E99-typo"]
    assert main(["sufficiency", str(FIXTURES / "aurora.json"), "--question", q.name,
                 "--context", *context]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "status: SUFFICIENT" in out and "not in the file, left out: E99-typo" in out
