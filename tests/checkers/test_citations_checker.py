"""``citations --checker``: each covered sentence's meaning against each claim matched to it."""

from __future__ import annotations

import json

import pytest

from claimlab.io.context_lab import parse_answer
from claimlab.metrics.citations import check_sentences, covered_pairs
from claimlab.tooling.cli import main
from tests.conftest import FIXTURES

LAB = json.loads((FIXTURES / "leave_policy_en.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(LAB["answers"]))
def test_covered_pairs_are_the_sentences_check_sentences_finds_covered(name):
    answer = parse_answer(LAB["answers"][name], source="x.json")
    uncovered = {u.sentence for u in check_sentences(answer).uncovered}
    pairs = covered_pairs(answer)
    assert not {i for _, i in pairs} & uncovered
    assert len({k for k, _ in pairs}) == len(pairs)  # a claim goes to one sentence


def run(tmp_path, capsys, checker):
    sent = tmp_path / "sent.json"
    sent.write_text(json.dumps(LAB["chunks"], ensure_ascii=False), encoding="utf-8")
    args = ["citations", str(FIXTURES / "leave_policy_en.json"), "--name", "seed"]
    assert main([*args, "--context", str(sent), "--checker", checker, "--no-cache", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_citations_checker_reports_each_pair_and_the_checker(tmp_path, capsys):
    lexical = run(tmp_path, capsys, "lexical")
    assert lexical["checker"]["name"] == "lexical" and lexical["checker"]["pairs"]
    assert lexical["checker"]["not_supported"] == 0  # the seed answer's claims restate it
    contra = run(tmp_path, capsys, "python:tests.checkers.stand_ins:contradicts")
    assert contra["checker"]["not_supported"] == len(contra["checker"]["pairs"])
    assert contra["verdict"] == lexical["verdict"]  # the checker adds a finding, not a verdict
