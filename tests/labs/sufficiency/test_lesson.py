"""The sufficiency lessons on the variants that broke them: an exercise solution that said "the
context completes none of them" of a CONDITIONAL context, and a teacher's own file whose lesson
still added the shipped hard-case rounds."""

from __future__ import annotations

import pytest

from claimlab.io.sufficiency import load_sufficiency, read_sufficiency
from claimlab.labs.sufficiency.lesson import (
    hard_cases,
    scenario_results,
    sufficiency_exercises,
    why_not,
)
from claimlab.metrics.sufficiency import score_fixture_sufficiency
from tests.conftest import FIXTURES
from tests.own_files import hard_cases_data, own_hard_cases, own_sufficiency


def _question_matters(fx, enough="enough for"):
    (x,) = [x for x in sufficiency_exercises(fx, scenario_results(fx)) if enough in x.question]
    return x


@pytest.mark.parametrize(
    ("source", "enough", "says", "none"),
    [
        ("library_loans.json", "enough for", "CONDITIONAL, not SUFFICIENT", "completes none"),
        ("library_loans_th.json", "พอสำหรับ", "CONDITIONAL ไม่ใช่ SUFFICIENT", "ไม่ทำให้ชุดใดครบ"),
    ],
)
def test_the_solution_for_a_conditional_context_names_the_condition(source, enough, says, none):
    """Scenario {L4, L5}: enough for the Saturday question, CONDITIONAL for the general one.
    The old solution said "the context completes none of them": it completes {L4, L5}. The
    Thai file's solution says so in Thai."""
    fx = load_sufficiency(FIXTURES / source)
    x = _question_matters(fx, enough)
    (condition,) = fx.item("L4").conditions
    assert none not in x.solution
    assert says in x.solution
    assert "{L4, L5}" in x.solution and condition in x.solution


def _pool():
    return read_sufficiency(hard_cases_data(), source="pool.json")


@pytest.mark.parametrize(
    ("context", "says", "never"),
    [
        # CONDITIONAL: a complete witness whose condition the question does not state
        (["pool/evening", "pool/evening-length"], "CONDITIONAL, not SUFFICIENT", "completes none"),
        # CONFLICT: two complete witnesses, two values
        (["pool/desk", "pool/notice-a", "pool/notice-b"], "CONFLICT", "completes none"),
        # INSUFFICIENT: this one does complete none
        (["pool/desk"], "completes none of them.", "CONDITIONAL"),
    ],
)
def test_why_not_says_what_the_status_says(context, says, never):
    fx = _pool()
    r = score_fixture_sufficiency(fx, "pass_length", context)
    text = why_not(fx, "pass_length", r)
    assert says in text and never not in text


def test_a_shipped_hard_case_file_joins_only_a_shipped_lesson(tmp_path):
    own, mine = own_sufficiency(tmp_path), own_hard_cases(tmp_path)
    shipped = "fixtures/library_loans.json"
    assert hard_cases(own, shipped).path is None
    assert "whole lesson" in hard_cases(own, shipped).note
    assert hard_cases(own, str(mine)).path == mine.resolve()
    assert (
        hard_cases(FIXTURES / "aurora.json", shipped).path
        == (FIXTURES / "library_loans.json").resolve()
    )
    assert hard_cases(FIXTURES / "aurora.json", "").path is None
