"""Every answer counted, and a gate that cannot be passed by losing answers (issues 40 and 47).

The cases as a user meets them on the command line: folders where one decomposer produced
nothing for an answer, and releases gated against a baseline that lost answers, holds only a
header or claims counts past their denominators.
"""

import json
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from claimlab.tooling.cli import main
from tests.conftest import run_cli

SENTENCES = ["The red lamp is on.", "The blue door is shut."]


def decomposition(answer_id, sentences, covered):
    """A checked decomposition file: one faithful SUPPORTED candidate per unit in ``covered``."""
    text = " ".join(sentences)
    units, candidates, at = [], [], 0
    for k, s in enumerate(sentences, 1):
        start = text.index(s, at)
        end = at = start + len(s)
        span = {"start": start, "end": end, "text": s}
        units.append({"id": f"U{k}", "span": span})
        if k in covered:
            candidates.append(
                {"id": f"C{k}", "text": s, "entity": "lamp", "version": "1", "predicate": f"p{k}",
                 "qualifiers": [], "fingerprint": f"f{k}", "preserves": [f"U{k}"],
                 "faithful": True, "atomic": True, "errors": [], "source_spans": [span],
                 "evidence": {"status": "SUPPORTED", "references": ["R1"]}}
            )  # fmt: skip
    return {
        "format": "claimlab/decomposition@1",
        "offset_unit": "utf16",
        "original": {"id": answer_id, "version": "v1", "text": text},
        "units": units,
        "references": [{"id": "R1", "title": "sheet", "version": "1", "text": "a sheet"}],
        "candidates": candidates,
    }


def write_folders(root, covered_by):
    """``{decomposer: {answer: units covered}}`` as one folder of files per decomposer."""
    for name, answers in covered_by.items():
        (root / name).mkdir(parents=True)
        for aid, covered in answers.items():
            doc = decomposition(aid, SENTENCES, covered)
            (root / name / f"{aid}.json").write_text(json.dumps(doc), encoding="utf-8")


def ledger(capsys, *args):
    """``claimlab ledger ...`` in this process: its exit code and what it printed."""
    code = main(["ledger", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_empty_selection_is_shared_in_the_paired_comparison(tmp_path, capsys):
    """B produced nothing for q3 (its file holds ``"candidates": []``): A covers 3/6, B 2/6."""
    write_folders(
        tmp_path,
        {"A": {"q1": {1}, "q2": {1}, "q3": {1}}, "B": {"q1": {1}, "q2": {1}, "q3": set()}},
    )
    args = ["--from-decompositions", f"A={tmp_path / 'A'}", f"B={tmp_path / 'B'}", "--by",
            "model", "--compare", "A", "B", "--bootstrap", "200", "--permutations", "200"]  # fmt: skip
    code, text, err = ledger(capsys, *args)
    assert code == 0, err
    line = next(x for x in text.splitlines() if "A - B  coverage" in x and "micro" in x)
    assert "+16.7 points" in line and "(3 shared, 0 only A, 0 only B;" in line
    code, out, _ = ledger(capsys, *args, "--json")
    data = json.loads(out)
    assert data["by_group"]["B"]["micro"]["coverage"]["display"] == "33.3% (2/6)"
    by = {(c["metric"], c["aggregate"]): c for c in data["comparisons"]}
    cov = by[("coverage", "micro")]
    # by hand: A 3/6 - B 2/6 over all three answers
    assert cov["difference"]["value"] == pytest.approx(3 / 6 - 2 / 6)
    assert (cov["shared"], cov["only_a"], cov["only_b"], cov["undefined"]) == (3, 0, 0, 0)
    pres = by[("preservation", "micro")]  # B's q3 is N/A (0/0): left out, and said so
    assert (pres["shared"], pres["undefined"]) == (2, 1)


# ------------------------------------------------------------------------------ the gate


def write_ledger(folder, answers, covered=2):
    """Answers of three units, ``covered`` of them preserved by a faithful candidate each."""
    folder.mkdir(parents=True, exist_ok=True)
    cand = [
        {"answer_id": f"a{i}", "candidate_id": f"C{k}", "fingerprint": f"f{k}",
         "preserves": f"U{k}", "faithful": "true", "atomic": "true", "status": "SUPPORTED"}
        for i in answers for k in range(1, covered + 1)
    ]  # fmt: skip
    units = [{"answer_id": f"a{i}", "unit_id": f"U{k}"} for i in answers for k in (1, 2, 3)]
    pd.DataFrame(cand).to_csv(folder / "c.csv", index=False)
    pd.DataFrame(units).to_csv(folder / "u.csv", index=False)
    return folder / "c.csv", folder / "u.csv"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    d = tmp_path_factory.mktemp("gate")
    c, u = write_ledger(d / "base", range(80))
    assert main(["ledger", str(c), "--units", str(u), "--out", str(d / "answers.csv")]) == 0
    return d / "answers.csv"


def test_a_release_that_lost_78_of_its_80_answers_fails_the_gate(baseline, tmp_path):
    c, u = write_ledger(tmp_path / "rel", range(2), covered=3)  # the two it kept even improved
    junit, summary = tmp_path / "gate.xml", tmp_path / "gate.md"
    proc = run_cli("ledger", c, "--units", u, "--baseline", baseline, "--bootstrap", "200",
                   "--junit", junit, "--summary", summary)  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert (
        "78 answers of the baseline missing from this run (--allow-missing 0): FAIL" in proc.stdout
    )
    assert proc.stdout.strip().endswith("FAIL: exit 1")
    suite = ET.parse(junit).getroot().find("testsuite")
    failure = next(
        case.find("failure")
        for case in suite.iter("testcase")
        if case.get("name") == "answers kept"
    )
    assert failure is not None and "78 answers" in failure.get("message")
    text = summary.read_text(encoding="utf-8")
    assert "**78 answers of the baseline missing" in text and "Gate: **FAIL** (exit 1)." in text


@pytest.mark.parametrize(("allow", "code"), [(77, 1), (78, 0)], ids=["one-too-few", "enough"])
def test_allow_missing_lets_that_many_answers_go(baseline, tmp_path, capsys, allow, code):
    c, u = write_ledger(tmp_path / "rel", range(2))
    got, text, err = ledger(capsys, c, "--units", u, "--baseline", baseline, "--bootstrap", "200",
                            "--allow-missing", allow, "--json")  # fmt: skip
    data = json.loads(text)
    assert got == code == data["exit_code"], err
    assert (data["missing"], data["allow_missing"]) == (78, allow)
    assert data["verdict"] == ("FAIL" if code else "PASS")


def test_one_shared_answer_or_a_header_only_baseline_is_undecided(baseline, tmp_path, capsys):
    header = tmp_path / "header.csv"
    header.write_text(baseline.read_text(encoding="utf-8").splitlines()[0] + "\n")
    one = tmp_path / "one.csv"
    pd.read_csv(baseline).head(1).to_csv(one, index=False)
    c, u = write_ledger(tmp_path / "rel", range(1))
    for base in (header, one):
        junit = tmp_path / f"{base.stem}.xml"
        code, text, err = ledger(capsys, c, "--units", u, "--baseline", base, "--junit", junit)
        assert code == 3, err
        assert text.strip().endswith("UNDECIDED: exit 3") and "too few to decide" in text
        suite = ET.parse(junit).getroot().find("testsuite")
        assert (suite.get("skipped"), suite.get("failures")) == ("4", "0")


def test_a_baseline_row_past_its_denominator_is_one_line(baseline, tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    frame = pd.read_csv(baseline)
    frame.loc[3, ["covered", "units"]] = [7, 2]  # 7 of 2 units covered
    frame.to_csv(bad, index=False)
    c, u = write_ledger(tmp_path / "rel", range(80))
    code, _, err = ledger(capsys, c, "--units", u, "--baseline", bad)
    assert code == 2 and err.count("\n") == 1
    assert "bad.csv: row 4 (line 5): covered: 7 is more than its denominator units (2)" in err


def test_a_candidate_left_out_by_the_audit_is_counted_as_not_counted(tmp_path, capsys):
    """An AMBIGUOUS candidate is in the record as ``left_out``, never in a figure."""
    write_folders(tmp_path, {"A": {"q1": {1, 2}}})
    path = tmp_path / "A" / "q1.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["candidates"][1]["mapping"] = "AMBIGUOUS"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "answers.csv"
    code, text, err = ledger(capsys, "--from-decompositions", tmp_path / "A", "--out", out)
    assert code == 0, err
    assert "not counted        1 candidate audited but left out" in text
    row = pd.read_csv(out).iloc[0]
    # C2 is audited, not counted: 1 of 1 unique candidates faithful, 1 of 2 units covered
    assert (row["raw"], row["unique"], row["covered"], row["units"], row["left_out"]) == (
        1, 1, 1, 2, 1,
    )  # fmt: skip
