"""Adjudication by majority with ties left for a person, and the ledger over a folder of files."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimlab.core.spans import utf16_slice
from claimlab.io.decomposition import load_decomposition
from claimlab.io.reader import read_json
from claimlab.labs.annotation.adjudicate import adjudicate, parse_decision
from tests.conftest import ROOT, run_cli
from tests.metrics.test_agreement import atlas_pair

SHIPPED = sorted((ROOT / "fixtures" / "annotations").glob("*.json"))


def _three(tmp_path):
    """A and B of the Atlas pair, and C: a copy of B except C7, where C agrees with A."""
    a, b = atlas_pair(tmp_path)
    doc = read_json(b)
    doc["annotation"]["annotator"] = "C"
    c7 = next(c for c in doc["candidates"] if c["id"] == "C7")
    c7.update(faithful=False, errors=["qualifier"], preserves=[])
    c = tmp_path / "atlas.c.json"
    c.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return [a, b, c]


def _merge(paths, **kw):
    return adjudicate(
        [read_json(p) for p in paths],
        [load_decomposition(p) for p in paths],
        clock=lambda: "T",
        **kw,
    )


def test_two_annotators_leave_every_disagreement_as_a_tie(tmp_path):
    result = _merge(atlas_pair(tmp_path))
    ties = {(t.candidate, t.label) for t in result.ties}
    assert ties == {
        ("C7", "faithful"), ("C7", "errors"), ("C7", "preserves"),
        ("C11", "atomic"), ("C4", "evidence"), ("C5", "evidence"),
    }  # fmt: skip
    assert not result.gold
    doc = result.document
    c7 = next(c for c in doc["candidates"] if c["id"] == "C7")
    assert c7["review"] == ["preserves", "faithful", "errors"] and "confirmed" not in c7
    assert c7["provenance"]["faithful"] == {"votes": {"A": "false", "B": "true"}, "rule": "tie"}
    c1 = next(c for c in doc["candidates"] if c["id"] == "C1")
    assert c1["review"] == [] and c1["confirmed"]["by"] == "adjudication"
    assert c1["provenance"]["faithful"]["rule"] == "unanimous"
    # C9, C10: nobody confirmed them, so nothing is settled
    c9 = next(c for c in doc["candidates"] if c["id"] == "C9")
    assert c9["provenance"]["faithful"]["rule"] == "none" and len(c9["review"]) == 6


def test_three_annotators_settle_by_majority(tmp_path):
    result = _merge(_three(tmp_path))
    doc = result.document
    c7 = next(c for c in doc["candidates"] if c["id"] == "C7")
    assert c7["faithful"] is False and c7["errors"] == ["qualifier"]  # A and C against B
    assert c7["provenance"]["faithful"]["rule"] == "majority"
    assert c7["provenance"]["faithful"]["of"] == "2 of 3"
    c11 = next(c for c in doc["candidates"] if c["id"] == "C11")
    assert c11["atomic"] is True  # B and C against A
    assert not result.ties


def test_decisions_settle_ties_and_are_recorded_as_the_adjudicators(tmp_path):
    decisions = [
        parse_decision(d)
        for d in (
            "C7.faithful=false", "C7.errors=qualifier", "C7.preserves=", "C11.atomic=false",
            "C4.evidence=NOT_IN_REFERENCE", "C5.evidence=CONTRADICTED:R3",
        )
    ]  # fmt: skip
    result = _merge(atlas_pair(tmp_path), decisions=decisions, by="Dana")
    c5 = next(c for c in result.document["candidates"] if c["id"] == "C5")
    assert c5["evidence"] == {"status": "CONTRADICTED", "references": ["R3"]}
    assert c5["provenance"]["evidence"]["rule"] == "decided"
    assert c5["provenance"]["evidence"]["by"] == "Dana"
    assert c5["confirmed"]["by"] == "adjudication (Dana)"
    assert not result.ties and len(result.decided) == 6


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("C7faithful=false", "CANDIDATE.LABEL=VALUE"),
        ("C7.faithful=maybe", "true or false"),
        ("C7.errors=typo", "unknown error kind"),
        ("C7.evidence=TRUE", "unknown status"),
        ("C7.colour=red", "unknown label"),
    ],
)
def test_bad_decisions_are_refused(text, problem):
    with pytest.raises(Exception, match=problem):
        parse_decision(text)


def test_adjudicate_command_writes_the_merged_file_and_lists_ties(tmp_path):
    paths = atlas_pair(tmp_path)
    out = tmp_path / "gold.json"
    proc = run_cli("adjudicate", *paths, "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "tie: C11.atomic: A=false, B=true" in proc.stdout
    assert "NOT yet gold: 1 answer of 1 still holds ties under review" in proc.stdout
    fx = load_decomposition(out)
    assert fx.is_draft and set(fx.proposed) >= {"C7", "C11", "C4", "C5"}
    proc = run_cli("adjudicate", *paths, "--out", out, "--decide", "C7.colour=x")
    assert proc.returncode == 2 and "--decide" in proc.stderr and "C7" in proc.stderr
    proc = run_cli("adjudicate", paths[0], "--out", out)
    assert proc.returncode == 2 and "two or more" in proc.stderr


def test_shipped_annotators_merge_with_unit_ties(tmp_path):
    result = _merge(SHIPPED)
    # one annotator kept a sentence whole, the other split it: each unit has half the votes
    assert len(result.unit_ties) == 3 and not result.gold
    units = [t for t in result.ties if t.label == "unit"]
    assert [t.candidate for t in units] == list(result.unit_ties)
    assert all(sorted(t.values.values()) == ["drop", "keep"] for t in units)


def test_every_unit_tie_is_settled_by_the_decide_it_prints(tmp_path):
    """SPEC 7: every tie adjudicate names can be settled by the --decide it prints, units too.

    The printed decisions (the first choice of each tie) make a gold set; ``--prefer`` does as
    well; a unit decision naming no unit, or neither keep nor drop, is one line, exit 2."""
    out = tmp_path / "gold.json"
    proc = run_cli("adjudicate", *SHIPPED, "--out", out, "--json")
    ties = json.loads(proc.stdout)["ties"]
    unit_ties = [t for t in ties if t["label"] == "unit"]
    assert len(unit_ties) == 3 and all(len(t["decide"]) == 2 for t in unit_ties)
    chosen = [arg for t in ties for arg in ("--decide", t["decide"][0])]
    proc = run_cli("adjudicate", *SHIPPED, "--out", out, *chosen, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["gold"], proc.stdout
    fx = load_decomposition(out)
    assert not fx.is_draft and not any(u.review for u in fx.units)
    names = sorted({load_decomposition(p).annotation.annotator for p in SHIPPED})
    proc = run_cli("adjudicate", *SHIPPED, "--out", tmp_path / "p.json", "--prefer", names[0])
    assert proc.returncode == 0 and "a gold set: every label settled" in proc.stdout
    for bad in ("U99.unit=keep", f"{unit_ties[0]['candidate']}.unit=maybe"):
        proc = run_cli("adjudicate", *SHIPPED, "--out", tmp_path / "x.json", "--decide", bad)
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr


def test_ledger_scores_a_folder_of_decompositions_and_flags_drafts(tmp_path):
    run_cli(
        "draft", ROOT / "fixtures" / "raw_subclaims.jsonl", "--out", tmp_path / "drafts", check=True
    )
    out = tmp_path / "answers.csv"
    proc = run_cli("ledger", "--from-decompositions", tmp_path / "drafts", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert (
        "DRAFT, not gold: 3 files still hold proposed labels (14 candidates, 9 units)"
        in proc.stdout
    )
    assert "non-atomic 1" in proc.stdout  # the English compound subclaim, proposed non-atomic
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "en.json").write_bytes(
        (tmp_path / "drafts" / "reader-en.json").read_bytes()
    )
    one = run_cli("ledger", "--from-decompositions", tmp_path / "one")
    assert "DRAFT, not gold: 1 file still holds proposed labels" in one.stdout, one.stderr
    import pandas as pd

    rows = pd.read_csv(out)
    assert set(rows["proposed_candidates"]) == {6, 4} and "non_atomic" in rows.columns
    assert rows["non_atomic"].sum() == 1
    data = json.loads(
        run_cli("ledger", "--from-decompositions", tmp_path / "drafts", "--json").stdout
    )
    assert (
        data["labels"]["gold"] is False and data["labels"]["candidates_with_proposed_labels"] == 14
    )


def test_ledger_from_decompositions_equals_the_labs_own_scorer(tmp_path):
    gold = tmp_path / "gold"
    gold.mkdir()
    for name in ("atlas_nova.json", "ferry_lines.json"):
        (gold / name).write_bytes((ROOT / "fixtures" / name).read_bytes())
    data = json.loads(run_cli("ledger", "--from-decompositions", gold, "--json").stdout)
    assert data["labels"]["gold"] is True
    from claimlab.metrics.decomposition import score_decomposition

    pres = [
        score_decomposition(fx, fx.candidate_ids)
        for fx in map(load_decomposition, sorted(gold.glob("*.json")))
    ]
    micro = data["corpus"]["micro"]["coverage"]
    assert (micro["numerator"], micro["denominator"]) == (
        sum(r.coverage.numerator for r in pres),
        sum(r.coverage.denominator for r in pres),
    )


def test_ledger_from_decompositions_refuses_two_files_of_one_answer(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    for p in SHIPPED:
        (folder / p.name).write_bytes(p.read_bytes())
    proc = run_cli("ledger", "--from-decompositions", folder)
    assert proc.returncode == 2 and "annotates the same answer" in proc.stderr
    assert proc.stderr.count("\n") == 1
    proc = run_cli("ledger", "--from-decompositions", folder, "--units", "u.csv")
    assert proc.returncode == 2 and "give one" in proc.stderr
    proc = run_cli("ledger")
    assert proc.returncode == 2 and "--from-decompositions" in proc.stderr


def _c1_three_ways(tmp_path):
    """Three annotators whose majorities contradict on C1: faithful (B, C), kept unit U1 (A, B),
    source span 67..107 inside U2 only (A, C). Each file alone is consistent."""
    a, b = atlas_pair(tmp_path)
    c = tmp_path / "atlas.c.json"
    c.write_bytes(b.read_bytes())
    u2 = {"start": 67, "end": 107}
    for path, name, change in (
        (a, "A", {"faithful": False, "errors": [], "preserves": ["U1"], "source_spans": [u2]}),
        (c, "C", {"faithful": True, "preserves": ["U2"], "source_spans": [u2]}),
    ):
        doc = read_json(path)
        doc["annotation"]["annotator"] = name
        u2["text"] = utf16_slice(doc["original"]["text"], 67, 107)
        next(x for x in doc["candidates"] if x["id"] == "C1").update(change)
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return [a, b, c]


def test_majorities_that_contradict_go_back_to_review_and_the_note_says_not_gold(tmp_path):
    result = _merge(_c1_three_ways(tmp_path))
    c1 = next(c for c in result.document["candidates"] if c["id"] == "C1")
    assert c1["faithful"] is True and c1["preserves"] == ["U1"]
    assert [(s["start"], s["end"]) for s in c1["source_spans"]] == [(67, 107)]
    assert c1["review"] == ["faithful"] and "confirmed" not in c1
    assert not result.gold
    assert result.document["note"].endswith("not yet a gold set.")


def test_adjudicate_command_writes_no_gold_note_over_contradicting_majorities(tmp_path):
    paths = _c1_three_ways(tmp_path)
    out = tmp_path / "gold.json"
    proc = run_cli("adjudicate", *map(str, paths), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    doc = read_json(out)
    assert "Every label settled" not in doc["note"]
    assert "gold set" not in proc.stdout.replace("not yet a gold set", "").replace(
        "NOT yet gold", ""
    )


def test_a_contradiction_is_listed_as_a_tie_its_decision_settles(tmp_path):
    paths = _c1_three_ways(tmp_path)
    result = _merge(paths)
    tie = next(t for t in result.ties if t.candidate == "C1")
    assert tie.label == "faithful" and tie.values == {"A": "false", "B": "true", "C": "true"}
    c1 = next(c for c in result.document["candidates"] if c["id"] == "C1")
    assert c1["provenance"]["faithful"]["rule"] == "contradiction"
    settled = _merge(paths, decisions=[parse_decision("C1.faithful=false")], by="Dana")
    c1 = next(c for c in settled.document["candidates"] if c["id"] == "C1")
    assert c1["review"] == [] and c1["faithful"] is False
    assert c1["confirmed"]["by"] == "adjudication (Dana)"


@pytest.mark.parametrize("copies", [2, 3])
def test_candidates_everyone_labelled_alike_merge_as_the_vote_by_vote_path_does(tmp_path, copies):
    """Copies of one file (by other annotators) take the one-read path for every candidate;
    the merged file, ties and decisions equal those of the vote-by-vote path."""
    from claimlab.labs.annotation import adjudicate as module

    a, _ = atlas_pair(tmp_path)
    doc = read_json(a)
    docs = []
    for k in range(copies):
        doc["annotation"]["annotator"] = f"P{k}"
        docs.append(json.loads(json.dumps(doc)))
    names, sources = [f"P{k}" for k in range(copies)], [f"f{k}" for k in range(copies)]

    def merged():
        return module.merge_documents(json.loads(json.dumps(docs)), sources, names, at="T")

    fast = merged()
    calls = []
    real = module._agreed
    try:
        module._agreed = lambda *a: calls.append(a) or None  # every candidate by its votes
        slow = merged()
    finally:
        module._agreed = real
    assert calls and fast == slow
    labels = fast.document["candidates"][0]["provenance"]
    assert labels["faithful"]["of"] == f"{copies} of {copies}"


# --prefer and --decisions-template: adjudication a person can finish


@pytest.mark.parametrize(
    ("prefer", "expected_c11_atomic", "rule"),
    [({"": "A"}, False, "preferred"), ({"": "B"}, True, "preferred"),
     ({"": "A", "C11": "B"}, True, "preferred"), ({"C4": "B"}, None, "tie")],
)  # fmt: skip
def test_prefer_settles_ties_with_that_annotators_value(
    tmp_path, prefer, expected_c11_atomic, rule
):
    result = _merge(atlas_pair(tmp_path), prefer=prefer)
    c11 = next(c for c in result.document["candidates"] if c["id"] == "C11")
    assert c11["provenance"]["atomic"]["rule"] == rule
    if expected_c11_atomic is not None:
        assert c11["atomic"] is expected_c11_atomic and "atomic" not in c11["review"]
        assert c11["provenance"]["atomic"]["preferred"] == prefer.get("C11", prefer.get(""))
    everyone = "" in prefer
    # with a preference for every candidate, only the ties nobody voted on stay
    assert result.gold is False  # C9, C10: confirmed by nobody, no vote to prefer
    left = {(t.candidate, t.label) for t in result.ties}
    assert (not left) if everyone else ("C11", "atomic") in left


def test_a_decision_comes_before_a_preference(tmp_path):
    result = _merge(
        atlas_pair(tmp_path), decisions=[parse_decision("C11.atomic=true")], prefer={"": "A"}
    )
    c11 = next(c for c in result.document["candidates"] if c["id"] == "C11")
    assert c11["atomic"] is True and c11["provenance"]["atomic"]["rule"] == "decided"


def test_prefer_and_the_decisions_template_on_the_command_line(tmp_path):
    a, b = atlas_pair(tmp_path)
    bad = run_cli("adjudicate", a, b, "--out", tmp_path / "g.json", "--prefer", "Nobody")
    assert bad.returncode == 2 and "'Nobody', who is not among the annotators (A, B)" in bad.stderr
    template = tmp_path / "decisions.txt"
    first = run_cli(
        "adjudicate", a, b, "--out", tmp_path / "g.json", "--decisions-template", template
    )
    assert first.returncode == 0, first.stderr
    assert "6 ties written to" in first.stdout
    text = template.read_text(encoding="utf-8")
    assert "# C11.atomic: A=false, B=true\n# C11.atomic=false\n# C11.atomic=true\n" in text
    # left as written it decides nothing
    same = run_cli("adjudicate", a, b, "--out", tmp_path / "g.json", "--decide", f"@{template}")
    assert "NOT yet gold" in same.stdout and "decided by" not in same.stdout
    # a person keeps B's value of C11.atomic, A's of every other tie
    edited = text.replace("# C11.atomic=true", "C11.atomic=true")
    (tmp_path / "mine.txt").write_text(edited, encoding="utf-8")
    done = run_cli(
        "adjudicate", a, b, "--out", tmp_path / "g.json",
        "--decide", f"@{tmp_path / 'mine.txt'}", "--prefer", "A",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    gold = read_json(tmp_path / "g.json")
    c11 = next(c for c in gold["candidates"] if c["id"] == "C11")
    assert c11["atomic"] is True and c11["provenance"]["atomic"]["rule"] == "decided"
    c4 = next(c for c in gold["candidates"] if c["id"] == "C4")
    assert c4["provenance"]["evidence"]["rule"] == "preferred"
    assert "C4.evidence (A's)" in done.stdout


votes_of = st.dictionaries(
    st.sampled_from(["Ana", "Ben", "Cem"]), st.booleans(), min_size=1, max_size=3
)


@given(votes=votes_of, prefer=st.sampled_from(["", "Ana", "Ben", "Cem"]))
def test_a_preference_settles_only_ties_and_never_overrules_a_majority(votes, prefer):
    """Invariant: where a strict majority exists it decides, whoever is preferred; a tie is
    settled by the preferred annotator's value when they voted, else left under review.
    Caught mutation: applying the preference before the majority (``prefer in given`` checked
    without ``rule == "tie"``): a preferred minority then overrules the majority."""
    from collections import Counter

    from claimlab.labs.annotation.adjudicate import _settle

    cand = {"id": "S1", "atomic": None}
    merge = _settle(cand, {"atomic": votes}, {}, by="adj", at="T", answer="", prefer=prefer)
    counts = Counter(votes.values()).most_common()
    tie = len(counts) > 1 and counts[0][1] == counts[1][1]
    if not tie:
        assert cand["atomic"] is counts[0][0] and "atomic" not in merge.review
    elif prefer in votes:
        assert cand["atomic"] is votes[prefer] and not merge.ties
        assert merge.provenance["atomic"]["rule"] == "preferred"
    else:
        assert "atomic" in merge.review and len(merge.ties) == 1


@pytest.mark.parametrize("command", ["agreement", "adjudicate"])
def test_one_candidate_id_holding_two_claims_is_refused_naming_it(tmp_path, command):
    """Two annotators' files where one id holds different claims (an added claim reusing an
    id, or files of two drafts) were merged silently: the second claim was lost. A claim
    respelled (case, spaces, NFD) is the same claim and is read as before."""
    import unicodedata

    a, b = (read_json(p) for p in SHIPPED)
    first = a["candidates"][0]
    twin = next(c for c in b["candidates"] if c["id"] == first["id"])
    folder = tmp_path / command
    for respelled, refused in ((unicodedata.normalize("NFD", first["text"].upper()), False),
                               ("An altogether different claim about a ferry.", True)):  # fmt: skip
        twin["text"] = respelled
        paths = []
        for k, doc in enumerate((a, b)):
            path = folder / f"{k}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            paths.append(path)
        extra = ["--out", folder / "gold.json"] if command == "adjudicate" else []
        proc = run_cli(command, *paths, *extra)
        assert (proc.returncode == 2) == refused, proc.stderr
        if refused:
            assert len(proc.stderr.splitlines()) == 1 and first["id"] in proc.stderr, proc.stderr
            assert "text" in proc.stderr and "1.json" in proc.stderr


def test_every_answer_one_annotator_alone_annotated_is_named(tmp_path):
    """Two answers lack Ben's file: the one error line names both (it named the first only)."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from scale_inputs import annotator_folders

    ana, ben = annotator_folders(tmp_path, 5)
    gone = sorted(ben.iterdir())[1:3]
    for f in gone:
        f.unlink()
    proc = run_cli("adjudicate", ana, ben, "--out", tmp_path / "gold")
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "1 more answer too" in proc.stderr
    assert all(f.stem in proc.stderr for f in gone), proc.stderr


def test_a_decision_for_an_answer_not_adjudicated_names_that_answer(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from scale_inputs import annotator_folders

    ana, ben = annotator_folders(tmp_path, 3)
    out = tmp_path / "gold"
    proc = run_cli("adjudicate", ana, ben, "--out", out, "--decide", "nowhere:S1.atomic=true")
    assert proc.returncode == 2 and "no answer 'nowhere' among those adjudicated" in proc.stderr
    proc = run_cli("adjudicate", ana, ben, "--out", out, "--decide", "S1.atomic=true")
    assert proc.returncode == 2 and "name the answer" in proc.stderr
