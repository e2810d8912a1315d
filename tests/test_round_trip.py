"""The README's five commands, from raw subclaims to a scored gold set, run as written."""

import json
import re
import shlex

import pytest

from claimlab.labs.annotation import AnnotationSession
from tests.conftest import ROOT, run_cli

pytestmark = pytest.mark.notebook


def readme_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From raw subclaims to a gold set", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [shlex.split(re.sub(r"\s+#.*$", "", line)) for line in block.strip().splitlines()]


def annotate(path, who, atomic_s6):
    s = AnnotationSession(path, who)
    s.confirm_units()
    for c in s.fixture.candidates:
        if c.id == "S6":
            s.set_atomic("S6", atomic_s6)
        if c.faithful and not c.errors:
            s.set_status(c.id, "SUPPORTED")
            s.set_references(c.id, ["R1"])
        s.confirm(c.id)


def test_the_five_commands_of_the_readme(tmp_path):
    commands = readme_commands()
    assert [c[:2] for c in commands] == [
        ["claimlab", "draft"],
        ["claimlab", "run"],
        ["claimlab", "agreement"],
        ["claimlab", "adjudicate"],
        ["claimlab", "ledger"],
    ]
    line = json.loads(
        (ROOT / "fixtures" / "raw_subclaims.jsonl").read_text("utf-8").splitlines()[0]
    )
    line["id"] = "q1"
    (tmp_path / "raw.jsonl").write_text(json.dumps(line, ensure_ascii=False) + "\n", "utf-8")

    def run(args):
        proc = run_cli(*args[1:], cwd=tmp_path)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    assert "PROPOSED, not gold" in run(commands[0])
    for who in ("Ana", "Ben"):  # step 2 for each annotator: their copy beside the draft
        run([*commands[1][:-1], who, "--output", "outputs"])
    annotate(tmp_path / "drafts" / "q1.ana.json", "Ana", atomic_s6=False)
    annotate(tmp_path / "drafts" / "q1.ben.json", "Ben", atomic_s6=True)
    agreement = run(commands[2])
    assert "atomic: S6: Ana=false, Ben=true" in agreement
    adjudicated = run(commands[3])
    assert "decided by adjudicator: S6.atomic" in adjudicated and "a gold set" in adjudicated
    gold = json.loads((tmp_path / "gold" / "q1.json").read_text("utf-8"))
    s6 = next(c for c in gold["candidates"] if c["id"] == "S6")
    assert s6["atomic"] is False and s6["provenance"]["atomic"]["rule"] == "decided"
    scored = run(commands[4])
    assert "every label confirmed by a person" in scored and "non-atomic 1" in scored
    assert (tmp_path / "gold_scores.csv").exists()
