"""``claimlab run``'s parameters per notebook: one rule for ``-p``, ``-p STEM:NAME`` and a file.

Invariants (hypothesis): every planned parameter is declared by its notebook; a plain ``-p``
reaches exactly the notebooks that declare it; a stem-qualified one reaches only its notebook
and wins there; a plain name is refused exactly when no listed notebook declares it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import did_you_mean
from claimlab.tooling.plan import plan_parameters

NAMES = st.sampled_from(["FIXTURE", "MODES", "PUZZLE", "STUDENT", "HARD_CASES", "SEED"])
DECLARED = st.dictionaries(
    st.sampled_from(["01_a", "02_b", "06_c", "07_d"]),
    st.lists(NAMES, unique=True, max_size=4),
    min_size=1,
)


@settings(max_examples=150, deadline=None)
@given(DECLARED, st.lists(st.tuples(NAMES, st.integers()), max_size=6), st.data())
def test_plain_parameters_reach_exactly_the_notebooks_that_declare_them(declared, plain, data):
    everyone = {n for names in declared.values() for n in names}
    stem = data.draw(st.sampled_from(sorted(declared)))
    qualified = [
        (f"{stem}:{n}", -1) for n in data.draw(st.lists(st.sampled_from(declared[stem] or ["X"])))
    ]
    qualified = [q for q in qualified if q[0].split(":")[1] in declared[stem]]
    given_ = plain + qualified
    if any(name not in everyone for name, _ in plain):
        with pytest.raises(ClaimlabInputError):
            plan_parameters(declared, given_)
        return
    plan = plan_parameters(declared, given_)
    for s, values in plan.items():
        assert set(values) <= set(declared[s])  # nothing undeclared is ever passed
    last = dict(plain)
    for name, value in last.items():
        for s, names in declared.items():
            if s == stem and any(q == f"{stem}:{name}" for q, _ in qualified):
                assert plan[s][name] == -1  # the stem-qualified value wins in its notebook
            elif name in names:
                assert plan[s][name] == value
            else:
                assert name not in plan[s]


@pytest.mark.parametrize(
    ("given_", "file", "expected"),
    [
        # the Turkish teacher's class: one FIXTURE per notebook in one run
        (
            [("01:FIXTURE", "tr.json"), ("06_decomposition_game:FIXTURE", "tr.json")],
            {"02_evidence_sufficiency": {"FIXTURE": "s.json"}},
            {
                "01": {"FIXTURE": "tr.json"},
                "02": {"FIXTURE": "s.json"},
                "06": {"FIXTURE": "tr.json"},
            },
        ),
        # a plain -p for all, a file entry over it, a qualified -p over both
        (
            [("FIXTURE", "all.json"), ("06:FIXTURE", "six.json")],
            {"02": {"FIXTURE": "two.json"}, "06": {"FIXTURE": "file.json"}},
            {
                "01": {"FIXTURE": "all.json"},
                "02": {"FIXTURE": "two.json"},
                "06": {"FIXTURE": "six.json"},
            },
        ),
        # HARD_CASES is declared by 02 only: it goes there, and 01 and 06 run without it
        ([("HARD_CASES", "")], None, {"01": {}, "02": {"HARD_CASES": ""}, "06": {}}),
    ],
)
def test_named_cases(given_, file, expected):
    declared = {
        "01_decomposition_pitfalls": ["FIXTURE", "MODES"],
        "02_evidence_sufficiency": ["FIXTURE", "HARD_CASES"],
        "06_decomposition_game": ["FIXTURE", "STUDENT"],
    }
    plan = plan_parameters(declared, given_, file)
    assert {stem[:2]: values for stem, values in plan.items()} == expected


@pytest.mark.parametrize(
    ("given_", "file", "message"),
    [
        (
            [("FIXTUR", "x")],
            None,
            "-p FIXTUR: undeclared parameter(s) FIXTUR (did you mean FIXTURE?): no notebook of this",
        ),
        ([("09:FIXTURE", "x")], None, "-p 09:FIXTURE: '09' is not a notebook of this run"),
        (
            [("06:MODES", "x")],
            None,
            "-p 06:MODES: 06_c does not declare MODES; it declares FIXTURE",
        ),
        (
            [],
            {"06_c": {"FIXTUR": 1}},
            "p.json: 06_c: FIXTUR: 06_c does not declare it (did you mean FIXTURE?)",
        ),
        ([], {"08_x": {}}, "p.json: 08_x: not a notebook of this run"),
        ([], {"06_c": 3}, "p.json: 06_c: must map parameter names to values"),
    ],
)
def test_refusals_are_one_line_naming_the_place(given_, file, message):
    with pytest.raises(ClaimlabInputError) as err:
        plan_parameters(
            {"01_a": ["FIXTURE", "MODES"], "06_c": ["FIXTURE"]}, given_, file, source="p.json"
        )
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_did_you_mean_offers_only_close_names():
    assert did_you_mean("STUDNET", ["STUDENT", "SCRIPT"]) == " (did you mean STUDENT?)"
    assert did_you_mean("Q", ["STUDENT"]) == ""
