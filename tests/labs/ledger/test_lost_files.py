"""A release whose folder lost an answer's file never passes the gate (issue 40, item 4).

An answer a decomposer's folder holds no file for is still scored (an empty selection:
coverage 0 of its units), and the per-answer table records it (``no_file`` 1). The gate
counts such an answer as missing from the release when the baseline read it from a file.
"""

import json
import shutil
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.labs.ledger.test_empty_selections import ledger, write_folders

ANSWERS = [f"farmacia_{i}" for i in range(6)]
# the tester's folders (/tmp/variants40/f4/dec): A covers both units of every answer, B one
BASE = {"A": {a: {1, 2} for a in ANSWERS}, "B": {a: {1} for a in ANSWERS}}


def folders(root, covered_by, drop=()):
    """The folders of ``covered_by``, less the files ``drop`` lists as (decomposer, answer)."""
    write_folders(root, covered_by)
    for name, aid in drop:
        (root / name / f"{aid}.json").unlink()
    return [f"{name}={root / name}" for name in covered_by]


def gate(capsys, root, base, release, *extra):
    """The per-answer table of ``base`` written, then ``release`` gated against it (JSON)."""
    out = root / "base.answers.csv"
    code, _, err = ledger(capsys, "--from-decompositions", *base, "--by", "model", "--out", out)
    assert code == 0, err
    code, text, err = ledger(
        capsys, "--from-decompositions", *release, "--by", "model", "--baseline", out,
        "--bootstrap", "100", "--json", *extra,
    )  # fmt: skip
    return code, json.loads(text) if text else {}, err


@pytest.mark.parametrize(
    ("drop", "allow", "code", "missing", "files"),
    [
        # the tester's case: rel_b/B lacks farmacia_4 (base/B had it): was PASS, exit 0
        ([("B", "farmacia_4")], 0, 1, 1, 1),
        ([("B", "farmacia_4")], 1, 0, 1, 1),
        # both decomposers lost it: the answer is gone from the release's table altogether
        ([("A", "farmacia_4"), ("B", "farmacia_4")], 0, 1, 2, 0),
        # nothing lost: the identical release passes
        ([], 0, 0, 0, 0),
    ],
    ids=["one-file-lost", "one-file-allowed", "answer-gone", "identical"],
)
def test_a_lost_file_counts_as_missing(tmp_path, capsys, drop, allow, code, missing, files):
    base = folders(tmp_path / "base", BASE)
    release = folders(tmp_path / "rel", BASE, drop)
    extra = ("--allow-missing", str(allow)) if allow else ()
    got, data, err = gate(capsys, tmp_path, base, release, *extra)
    assert got == code == data["exit_code"], err
    assert (data["missing"], data["missing_files"]) == (missing, files)
    if files:
        assert "B / farmacia_4" in data["missing_ids"]


def test_the_per_answer_table_records_the_absent_file_and_still_scores_it(tmp_path, capsys):
    release = folders(tmp_path / "rel", BASE, [("B", "farmacia_4")])
    out = tmp_path / "rel.answers.csv"
    code, text, err = ledger(capsys, "--from-decompositions", *release, "--by", "model",
                             "--out", out, "--json")  # fmt: skip
    assert code == 0, err
    rows = pd.read_csv(out).set_index(["model", "answer_id"])
    lost = rows.loc[("B", "farmacia_4")]
    # scored as an empty selection: 0 of its 2 units covered, and its file recorded as absent
    assert (lost["raw"], lost["covered"], lost["units"], lost["no_file"]) == (0, 0, 2, 1)
    assert int(rows["no_file"].sum()) == 1
    # B covers 1 of 2 units of the 5 answers it has a file for: 5 of 12 in all
    assert json.loads(text)["by_group"]["B"]["micro"]["coverage"]["display"] == "41.7% (5/12)"


def test_a_baseline_written_before_the_column_still_fails_a_lost_file(tmp_path, capsys):
    """A baseline without ``no_file`` read every answer it holds from a file."""
    base = folders(tmp_path / "base", BASE)
    out = tmp_path / "old.answers.csv"
    assert ledger(capsys, "--from-decompositions", *base, "--by", "model", "--out", out)[0] == 0
    pd.read_csv(out).drop(columns="no_file").to_csv(out, index=False)
    release = folders(tmp_path / "rel", BASE, [("B", "farmacia_4")])
    code, text, err = ledger(capsys, "--from-decompositions", *release, "--by", "model",
                             "--baseline", out, "--bootstrap", "200")  # fmt: skip
    assert code == 1, err
    assert "1 answer of the baseline missing from this run, 1 of them with no file" in text
    assert text.strip().endswith("FAIL: exit 1")


@st.composite
def releases(draw):
    """Baseline folders of two decomposers and the (decomposer, answer) files a release lost."""
    n = draw(st.integers(2, 5))
    answers = [f"q{i}" for i in range(n)]
    covered = st.sets(st.integers(1, 2), max_size=2)
    base = {name: {a: draw(covered) for a in answers} for name in ("A", "B")}
    files = [(name, a) for name in base for a in answers]
    lost = draw(st.lists(st.sampled_from(files), min_size=1, unique=True))
    for name in base:  # a folder keeps one file at least (an empty folder is refused)
        if all((name, a) in lost for a in answers):
            lost.remove((name, answers[0]))
    return base, lost if lost else [files[-1]]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(releases())
def test_removing_any_answer_file_never_lets_the_gate_pass(capsys, case):
    """Property: a release folder less any file fails the gate without --allow-missing."""
    base, lost = case
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        code, data, err = gate(
            capsys, root, folders(root / "base", base), folders(root / "rel", base, lost)
        )
        shutil.rmtree(root / "rel")
    assert code == 1 == data["exit_code"] and data["verdict"] == "FAIL", err
    # each lost file is one missing (decomposer, answer); lost by both, the answer is gone
    # from the release's table, else its row says it had no file
    gone = {a for a in {a for _, a in lost} if all((n, a) in lost for n in base)}
    assert data["missing"] == len(lost)
    assert data["missing_files"] == len(lost) - 2 * len(gone)


def test_an_answer_a_folder_has_no_file_for_is_named_in_the_summary_and_the_json(tmp_path, capsys):
    """Counted was not enough: the summary and the JSON name the answer a folder lacks."""
    release = folders(tmp_path / "rel", BASE, [("B", "farmacia_4"), ("B", "farmacia_1")])
    code, text, err = ledger(capsys, "--from-decompositions", *release, "--by", "model")
    assert code == 0, err
    assert (
        "  B has no file for 2 answers another folder holds (scored as empty selections): "
        "farmacia_1, farmacia_4" in text.splitlines()
    )
    code, text, err = ledger(capsys, "--from-decompositions", *release, "--by", "model", "--json")
    assert json.loads(text)["labels"]["without_file"] == {
        "B": {"count": 2, "ids": ["farmacia_1", "farmacia_4"]}
    }
