"""``claimlab ledger --baseline``: the release gate on generated ledgers, as CI runs it."""

import json
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from tests.conftest import run_cli

ANSWERS = 600


def write_ledger(folder, lost):
    """600 answers of three units, three faithful SUPPORTED candidates each (one per unit);
    the answers in ``lost`` have their third candidate preserve nothing."""
    folder.mkdir(parents=True, exist_ok=True)
    cand = [
        {"answer_id": f"a{i}", "candidate_id": f"C{k}", "fingerprint": f"f{k}",
         "preserves": "" if (k == 3 and i in lost) else f"U{k}", "faithful": "true",
         "atomic": "true", "status": "SUPPORTED"}
        for i in range(ANSWERS) for k in (1, 2, 3)
    ]  # fmt: skip
    units = [{"answer_id": f"a{i}", "unit_id": f"U{k}"} for i in range(ANSWERS) for k in (1, 2, 3)]
    pd.DataFrame(cand).to_csv(folder / "c.csv", index=False)
    pd.DataFrame(units).to_csv(folder / "u.csv", index=False)
    return folder / "c.csv", folder / "u.csv"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    d = tmp_path_factory.mktemp("gate")
    c, u = write_ledger(d / "base", lost=set())
    run_cli("ledger", c, "--units", u, "--out", d / "answers.csv", check=True)
    return d


def gate(baseline, folder, lost, *extra):
    c, u = write_ledger(baseline / folder, lost)
    return run_cli(
        "ledger", c, "--units", u, "--baseline", baseline / "answers.csv",
        "--bootstrap", "500", *extra,
    )  # fmt: skip


def test_an_identical_release_passes(baseline):
    proc = gate(baseline, "same", set(), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [g["verdict"] for g in data["gate"]] == ["PASS"] * 4
    assert data["shared"] == ANSWERS and data["only_baseline"] == data["only_now"] == 0


def test_eight_points_of_coverage_lost_regress_with_a_junit_failure(baseline, tmp_path):
    lost = set(range(0, ANSWERS, 4))  # a quarter of the answers lose one unit of three
    junit, summary = tmp_path / "gate.xml", tmp_path / "gate.md"
    proc = gate(baseline, "worse", lost, "--junit", junit, "--summary", summary, "--json")
    assert proc.returncode == 1, proc.stderr
    rows = {g["metric"]: g for g in json.loads(proc.stdout)["gate"]}
    cov = rows["coverage"]
    assert cov["verdict"] == "REGRESSED"
    # by hand: 150 of 1800 units lost: 1 - 1650/1800 = 0.0833 (8.3 points)
    assert cov["difference"]["value"] == pytest.approx(150 / 1800)
    assert cov["difference"]["low"] > 0
    assert rows["raw_support"]["verdict"] == "PASS"  # support did not change
    suite = ET.parse(junit).getroot().find("testsuite")
    # a case per figure, and one for the answers kept (none lost here)
    assert suite.get("tests") == "5" and suite.get("failures") == "1"
    (failure,) = suite.iter("failure")
    assert "coverage" in failure.get("message") and "REGRESSED" in failure.get("message")
    text = summary.read_text(encoding="utf-8")
    assert (
        "| coverage (micro) | 100.0% (1800/1800) | 91.7% (1650/1800) | +8.3 [" in text
        and "**REGRESSED**" in text
    )


def test_half_a_point_lost_with_a_two_point_margin_passes(baseline):
    lost = set(range(0, ANSWERS, 67))  # 9 answers: 9 of 1800 units, half a point
    proc = gate(baseline, "slightly", lost, "--margin", "0.02", "--json")
    assert proc.returncode == 0, proc.stderr
    cov = next(g for g in json.loads(proc.stdout)["gate"] if g["metric"] == "coverage")
    assert cov["difference"]["value"] == pytest.approx(9 / 1800) and cov["verdict"] == "PASS"
    assert cov["margin"] == 0.02
    text = gate(baseline, "slightly", lost, "--margin", "0.02").stdout
    assert "release gate against" in text and text.strip().endswith("PASS")


def test_gate_options_without_a_baseline_and_a_bad_baseline_are_one_line_errors(baseline, tmp_path):
    c, u = write_ledger(tmp_path / "x", set())
    proc = run_cli("ledger", c, "--units", u, "--junit", tmp_path / "g.xml")
    assert (
        proc.returncode == 2 and "give --baseline" in proc.stderr and proc.stderr.count("\n") == 1
    )
    bad = tmp_path / "bad.csv"
    frame = pd.read_csv(baseline / "answers.csv")
    frame.loc[3, "covered"] = -1
    frame.to_csv(bad, index=False)
    proc = run_cli("ledger", c, "--units", u, "--baseline", bad)
    assert proc.returncode == 2 and "bad.csv" in proc.stderr and "covered" in proc.stderr
    assert "row 4" in proc.stderr


def test_the_readmes_ci_job_runs_as_written(baseline, tmp_path):
    """The CI how-to's job (docs/how-to/ci-gate.md), its shell steps run in a temporary folder as a runner would."""
    import os
    import re
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from tests.conftest import doc_section

    block = doc_section("Release gate (CI)")
    yaml = block[block.index("```yaml") + 7 : block.index("```", block.index("```yaml") + 7)]
    steps = re.findall(r"run: \|\n\s+(claimlab .+)\n|run: (cat .+)\n", yaml)
    commands = [a or b for a, b in steps]
    assert len(commands) == 2 and commands[0].startswith("claimlab ledger")
    (tmp_path / "accepted").mkdir()
    shutil.copy(baseline / "answers.csv", tmp_path / "accepted" / "answers.csv")
    write_ledger(tmp_path / "release", lost=set(range(0, ANSWERS, 4)))
    for name in ("c.csv", "u.csv"):
        target = {"c.csv": "candidates.csv", "u.csv": "units.csv"}[name]
        (tmp_path / "release" / name).rename(tmp_path / "release" / target)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}  # fmt: skip
    scored = subprocess.run(
        ["bash", "-c", commands[0]], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert scored.returncode == 1 and "REGRESSED" in scored.stdout  # the job fails, as it should
    subprocess.run(["bash", "-c", commands[1]], cwd=tmp_path, env=env, check=True)
    assert "**REGRESSED**" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert ET.parse(tmp_path / "gate.xml").getroot().get("failures") == "1"
    assert (tmp_path / "release" / "answers.csv").is_file()  # the next release's baseline


def test_a_units_csv_with_a_repeated_row_is_one_line_naming_the_row(tmp_path):
    c, u = write_ledger(tmp_path / "dup", set())
    u.write_text(u.read_text() + "a0,U1\n")
    proc = run_cli("ledger", c, "--units", u)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "u.csv" in proc.stderr and "unit_id" in proc.stderr and "listed twice" in proc.stderr


@pytest.mark.parametrize("content", ["", "\n\n", "\ufeff\n"], ids=["no-byte", "blank-lines", "bom"])
def test_a_release_that_lost_every_candidate_written_as_json_lines_fails(
    baseline, tmp_path, content
):
    """An empty JSON Lines candidates file is the empty table, as a header-only CSV is."""
    units = pd.read_csv(baseline / "base" / "u.csv", dtype=str)
    (tmp_path / "u.jsonl").write_text(units.to_json(orient="records", lines=True), encoding="utf-8")
    (tmp_path / "c.jsonl").write_text(content, encoding="utf-8")
    proc = run_cli(
        "ledger", tmp_path / "c.jsonl", "--units", tmp_path / "u.jsonl",
        "--baseline", baseline / "answers.csv", "--json",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    rows = {g["metric"]: g for g in json.loads(proc.stdout)["gate"]}
    assert rows["coverage"]["verdict"] == "REGRESSED" and rows["coverage"]["now"] == 0.0
