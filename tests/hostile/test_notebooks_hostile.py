"""Every notebook on the hostile corpus: it runs, and nothing from the files is live markup or maths."""

import json

import pytest

from tests.hostile.checks import notebook_problems

pytestmark = [pytest.mark.notebook, pytest.mark.xdist_group("browser")]
STEMS = [
    "01_decomposition_pitfalls",
    "02_evidence_sufficiency",
    "03_witnesses_on_real_data",
    "04_factscore",
    "05_context_and_citations",
    "06_decomposition_game",
    "07_sufficiency_game",
    "08_your_ledger",
    "09_annotate",
    "10_retrieval_depth",
    "11_rag_diagnostics",
    "12_release_history",
]


@pytest.mark.parametrize("stem", STEMS)
def test_notebook_runs_on_hostile_files_and_shows_them_as_text(hostile_runs, stem):
    _, results = hostile_runs
    run = results[stem]
    if isinstance(run, Exception):
        pytest.fail(f"{stem} failed on the hostile corpus: {run}")
    nb = json.loads(run.notebook.read_text(encoding="utf-8"))
    assert notebook_problems(nb) == []
