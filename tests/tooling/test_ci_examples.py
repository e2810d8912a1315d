"""The CI how-to's RAG and decomposition release jobs, run step by step as written.

Each job's YAML is read from docs/how-to/ci-gate.md and its steps run in a temporary
repository as a runner would: ``uses:`` steps are the runner's own (the upload's paths must
exist), ``pip install .`` is the installed claimlab, and ``if:`` decides as GitHub Actions does
(``success()`` by default, ``always()``). A release that passes keeps its table as the next
baseline; one that regresses fails the job, writes the summary and keeps the old baseline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from tests.conftest import doc_section, run_cli
from tests.labs.ledger.test_empty_selections import write_folders
from tests.labs.rag.test_rag_gate import greenhouse, lose_a_fifth

pytestmark = [pytest.mark.notebook, pytest.mark.journey]  # the CLI as a CI runner calls it


def job(title: str) -> dict:
    """The YAML job under the how-to's section ``title`` (the block naming that job)."""
    section = doc_section("A RAG release job and a decomposition release job")
    blocks = [b.split("```", 1)[0] for b in section.split("```yaml\n")[1:]]
    (block,) = [b for b in blocks if f"name: {title}\n" in b]
    (steps,) = [j["steps"] for j in yaml.safe_load(block)["jobs"].values()]
    return steps


def run_job(steps: list[dict], repo: Path) -> tuple[bool, list[str]]:
    """Run the steps in ``repo``: whether the job passed, and the steps that ran (by name)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "GITHUB_STEP_SUMMARY": str(repo / "summary.md")}  # fmt: skip
    ok, ran = True, []
    for step in steps:
        when = step.get("if", "success()")
        if not (when == "always()" or (when == "success()" and ok)):
            continue
        name = step.get("name") or step.get("uses") or step["run"]
        ran.append(name)
        if step.get("uses", "").startswith("actions/upload-artifact"):
            for path in step["with"]["path"].split():
                assert (repo / path).exists(), f"the upload's {path} is missing"
        if "run" not in step or step["run"] == "pip install .":
            continue  # the runner's own steps; claimlab is installed
        proc = subprocess.run(
            ["bash", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True
        )
        ok = ok and proc.returncode == 0
    return ok, ran


def test_the_rag_release_job(tmp_path):
    doc, relevant = greenhouse(120, seed=4)
    worse, _ = lose_a_fifth(doc, relevant)
    (tmp_path / "history").mkdir()
    (tmp_path / "release").mkdir()
    accepted = tmp_path / "accepted.json"
    accepted.write_text(json.dumps(doc), encoding="utf-8")
    proc = run_cli("rag", accepted, "--out", tmp_path / "history" / "per_query.csv",
                   "--store", tmp_path / "history" / "runs.sqlite")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    steps = job("rag release gate")
    release = tmp_path / "release" / "checking.json"
    release.write_text(json.dumps(worse), encoding="utf-8")  # the retriever lost a fifth
    before = (tmp_path / "history" / "per_query.csv").read_bytes()
    ok, ran = run_job(steps, tmp_path)
    assert not ok and "keep the new table as the accepted one" not in ran
    assert (tmp_path / "history" / "per_query.csv").read_bytes() == before  # baseline kept
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "**REGRESSED**" in summary and "claim_recall" in summary
    failures = ET.parse(tmp_path / "rag-gate.xml").getroot().get("failures")
    assert int(failures) >= 2  # claim recall and context precision
    release.write_text(json.dumps(doc), encoding="utf-8")  # the same release again: it passes
    ok, ran = run_job(steps, tmp_path)
    assert ok and "keep the new table as the accepted one" in ran
    runs = json.loads(run_cli("history", "--store", tmp_path / "history" / "runs.sqlite",
                              "--json").stdout)  # fmt: skip
    assert len(runs["runs"]) == 3  # the accepted run and both releases


def test_the_decomposition_release_job(tmp_path):
    answers = [f"kargo_{i}" for i in range(40)]
    write_folders(tmp_path / "accepted", {"decompositions": {a: {1, 2} for a in answers}})
    lossy = {a: ({1} if i % 3 == 0 else {1, 2}) for i, a in enumerate(answers)}
    write_folders(tmp_path / "release", {"decompositions": lossy})  # a third lose a unit
    (tmp_path / "history").mkdir()
    proc = run_cli("ledger", "--from-decompositions", tmp_path / "accepted" / "decompositions",
                   "--out", tmp_path / "history" / "answers.csv",
                   "--store", tmp_path / "history" / "runs.sqlite")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    steps = job("decomposition release gate")
    ok, ran = run_job(steps, tmp_path)
    assert not ok and "keep the new table as the accepted one" not in ran
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "**REGRESSED**" in summary and "coverage" in summary
    assert ET.parse(tmp_path / "decomposition-gate.xml").getroot().get("failures") != "0"
    (tmp_path / "release" / "decompositions").rename(tmp_path / "lossy")
    write_folders(tmp_path / "release", {"decompositions": {a: {1, 2} for a in answers}})
    ok, ran = run_job(steps, tmp_path)
    assert ok and "keep the new table as the accepted one" in ran
