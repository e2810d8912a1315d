"""The README's two-decomposer round trip when one decomposer skips answers.

The same thirty trail answers as ``tests/labs/annotation/test_round_trip.py``, but decomposer B
gives nothing for every fifth answer (its raw file has no line for them). The ledger scores those
answers for B as empty selections, so the paired difference is taken over every answer and
equals the hand computation over all thirty.
"""

import json

import pytest

from tests.conftest import run_cli
from tests.labs.annotation.test_round_trip import ANSWERS, annotate, raw_lines, readme_commands

pytestmark = [pytest.mark.notebook, pytest.mark.journey]

SKIPPED = {i for i in range(ANSWERS) if i % 5 == 0}  # 6 answers B produced nothing for


def test_a_decomposer_that_skips_answers_is_compared_on_every_answer(tmp_path):
    commands = readme_commands()
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "A.jsonl").write_text(raw_lines("A"), encoding="utf-8")
    b_lines = raw_lines("B").splitlines(keepends=True)
    kept = "".join(line for i, line in enumerate(b_lines) if i not in SKIPPED)
    (tmp_path / "raw" / "B.jsonl").write_text(kept, encoding="utf-8")

    def run(args, *extra):
        proc = run_cli(*args[1:], *extra, cwd=tmp_path)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    for c in commands[:4]:  # the drafts and each annotator's copies
        run(c)
    annotate(tmp_path / "ana", "Ana")
    annotate(tmp_path / "ben", "Ben")
    first = run(commands[5])
    decisions = [line.split("--decide ", 1)[1].split()[0] for line in first.splitlines()
                 if "settle with --decide " in line]  # fmt: skip
    (tmp_path / "decisions.txt").write_text("\n".join(decisions) + "\n", encoding="utf-8")
    run(commands[6])
    assert len(list((tmp_path / "gold" / "B").rglob("*.json"))) == ANSWERS - len(SKIPPED)

    data = json.loads(run(commands[7], "--json"))
    by = {(c["metric"], c["aggregate"]): c for c in data["comparisons"]}
    cov = by[("coverage", "micro")]
    # by hand over all 30 answers (3 units each):
    #   A covers U1, U2 of every answer and U3 of the 22 with i % 4 != 0: 60 + 22 = 82 of 90
    #   B covers U1, U2 of the 24 answers it decomposed, nothing of the 6 it skipped: 48 of 90
    assert cov["difference"]["value"] == pytest.approx(82 / 90 - 48 / 90, abs=1e-12)
    assert (cov["shared"], cov["only_a"], cov["only_b"], cov["undefined"]) == (30, 0, 0, 0)
    assert data["by_group"]["B"]["micro"]["coverage"]["display"] == "53.3% (48/90)"
    assert data["by_group"]["B"]["answers_without_candidates"] == len(SKIPPED)
    # preservation is N/A (0/0) for B on the skipped answers: left out of that pairing, counted
    assert (
        by[("preservation", "micro")]["shared"],
        by[("preservation", "micro")]["undefined"],
    ) == (
        24,
        6,
    )
