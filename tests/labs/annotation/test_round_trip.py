"""The gold-set how-to's round trip (docs/how-to/gold-set.md), run as written: two decomposers' raw output to a paired comparison.

Thirty answers about hiking trails (another domain than the shipped files, other ids), split by
two decomposers; two simulated annotators confirm every label through the annotation session
(as a person does in notebook 09), and disagree on a few; the ties are settled in the decisions
file the command writes (a person uncomments one choice) and Ana's value on every tie left
(``--prefer``): no script of the user's own. The pooled agreement and the paired difference are
checked against hand computations.
"""

import json
import re
import shlex

import pytest

from claimlab.labs.annotation.session import AnnotationSession
from tests.conftest import doc_section, run_cli

pytestmark = [pytest.mark.notebook, pytest.mark.journey]

ANSWERS = 30
PLACES = ["north", "lake", "mill", "ridge", "bridge", "forest"]


def readme_commands():
    section = doc_section("From raw subclaims to a gold set")
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [shlex.split(re.sub(r"\s+#.*$", "", line)) for line in block.strip().splitlines()]


def sentences(i):
    return [
        f"Trail {i} is {i % 9 + 3} km long.",
        f"It starts at the {PLACES[i % 6]} car park.",
        "Dogs must stay on a leash.",
    ]


def raw_lines(decomposer):
    rows = []
    for i in range(ANSWERS):
        s = sentences(i)
        if decomposer == "A":  # every fourth answer: the leash rule loosened (a qualifier error)
            claims = [s[0], s[1], "Dogs may run free." if i % 4 == 0 else s[2]]
        else:  # B drops the leash rule and adds a claim the answer never made
            claims = [s[0], s[1], f"Trail {i} has a café."]
        rows.append(
            {
                "id": f"t{i:02d}",
                "answer": " ".join(s),
                "subclaims": claims,
                "units": s,
                "references": [
                    {"id": "R1", "title": f"Trail {i} sheet", "version": "2026",
                     "text": f"Trail {i}: {i % 9 + 3} km, from the {PLACES[i % 6]} car park; "
                             "dogs on a leash."}
                ],
            }
        )  # fmt: skip
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def annotate(folder, who):
    """What a person decides: Ana as the fixture's truth; Ben differs on 6 statuses, 5 atomics."""
    for path in sorted(folder.rglob("*.json")):
        s = AnnotationSession(path, who)
        i, decomposer = int(s.fixture.original.id[1:]), path.parent.name
        for c in s.fixture.candidates:
            introduced = not c.source_spans
            if decomposer == "A" and c.id == "S3" and i % 4 == 0:
                s.set_errors(c.id, ["qualifier"])
                s.set_faithful(c.id, False)
                s.set_status(c.id, "CONTRADICTED")
                s.set_references(c.id, ["R1"])
            elif introduced:
                s.set_status(c.id, "NOT_IN_REFERENCE")
            elif who == "Ben" and decomposer == "A" and c.id == "S2" and i % 5 == 0:
                s.set_status(c.id, "NOT_IN_REFERENCE")
            else:
                s.set_status(c.id, "SUPPORTED")
                s.set_references(c.id, ["R1"])
            if who == "Ben" and decomposer == "B" and c.id == "S1" and i % 6 == 0:
                s.set_atomic(c.id, False)
            s.confirm(c.id)


def test_two_decomposers_from_raw_output_to_a_paired_comparison(tmp_path):
    commands = readme_commands()
    assert len(commands) <= 8
    assert [c[1] for c in commands] == [
        "draft", "draft", "run", "run", "agreement", "adjudicate", "adjudicate", "ledger",
    ]  # fmt: skip
    (tmp_path / "raw").mkdir()
    for name in ("A", "B"):
        (tmp_path / "raw" / f"{name}.jsonl").write_text(raw_lines(name), encoding="utf-8")

    def run(args, *extra):
        proc = run_cli(*args[1:], *extra, cwd=tmp_path)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    for c in commands[:4]:
        run(c)
    assert len(list((tmp_path / "ana").rglob("*.json"))) == 2 * ANSWERS  # ana/A/t00.json, ...
    assert not list(tmp_path.glob("*-adjudicated"))  # no shipped example adjudicated in there
    annotate(tmp_path / "ana", "Ana")
    annotate(tmp_path / "ben", "Ben")

    assert "over 30 answers" in run(commands[4])
    fields = {f["field"]: f for f in json.loads(run(commands[4], "--json"))["fields"]}
    status = fields["evidence status"]
    # 180 items (2 decomposers x 30 answers x 3 candidates), 6 disagreements (A's S2, i % 5 == 0)
    # Ana: SUPPORTED 142, CONTRADICTED 8, NOT_IN_REFERENCE 30; Ben: 136, 8, 36
    # kappa: p_o = 174/180, p_e = (142*136 + 8*8 + 30*36)/180^2 = 20456/32400
    #        (31320 - 20456) / (32400 - 20456) = 10864/11944
    assert status["kappa"]["value"] == pytest.approx(10864 / 11944, abs=1e-6)
    # alpha: n = 360; n_S 278, n_C 16, n_N 66; sum over c != k of o_ck = 12
    #        1 - 359 * 12 / (360^2 - (278^2 + 16^2 + 66^2)) = 1 - 4308/47704
    assert status["alpha"]["value"] == pytest.approx(1 - 4308 / 47704, abs=1e-6)
    assert (status["answers"], status["items"]) == (30, 180)
    atomic = fields["atomic"]  # Ana all atomic; Ben not on B's S1 for i % 6 == 0 (5 items)
    assert atomic["alpha"]["value"] == pytest.approx(1 - 359 * 10 / (2 * 355 * 5), abs=1e-6)
    assert atomic["kappa"]["value"] == 0.0

    first = run(commands[5])
    assert "NOT yet gold: 11 answers" in first
    template = (tmp_path / "decisions.txt").read_text(encoding="utf-8")
    choices = re.findall(r"^# (\S+:S\d\.\w+=\S+)$", template, flags=re.MULTILINE)
    assert len(choices) == 22  # 11 ties, Ana's value and Ben's, each commented out
    # the person settles one tie by hand (Ben's status of A/t05's S2), Ana's value on the rest
    chosen = "A/t05:S2.evidence=NOT_IN_REFERENCE"
    assert chosen in choices
    (tmp_path / "decisions.txt").write_text(
        template.replace(f"# {chosen}\n", f"{chosen}\n"), encoding="utf-8"
    )
    assert "a gold set: every label settled" in run(commands[6])
    t05 = json.loads((tmp_path / "gold" / "A" / "t05.json").read_text(encoding="utf-8"))
    s2 = next(c for c in t05["candidates"] if c["id"] == "S2")
    assert s2["evidence"]["status"] == "NOT_IN_REFERENCE"
    assert s2["provenance"]["evidence"]["rule"] == "decided"
    t00 = json.loads((tmp_path / "gold" / "A" / "t00.json").read_text(encoding="utf-8"))
    s2 = next(c for c in t00["candidates"] if c["id"] == "S2")
    assert s2["evidence"]["status"] == "SUPPORTED"  # Ana's, preferred
    assert s2["provenance"]["evidence"]["rule"] == "preferred"
    assert len(list((tmp_path / "gold").rglob("*.json"))) == 2 * ANSWERS

    scored = run(commands[7])
    assert "A - B  coverage" in scored and (tmp_path / "scores.csv").exists()
    data = json.loads(run(commands[7], "--json"))
    c = next(
        x for x in data["comparisons"] if x["metric"] == "coverage" and x["aggregate"] == "micro"
    )
    # A covers U1 and U2 of every answer and U3 of 22 (not i % 4 == 0): 82/90; B 60/90
    assert c["difference"]["value"] == pytest.approx(82 / 90 - 60 / 90, abs=1e-12)
    assert c["shared"] == 30 and c["difference"]["low"] > 0
    assert data["labels"]["gold"] is True and data["corpus"]["answers"] == 30
