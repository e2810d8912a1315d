"""The release-history views on a store whose every text is a payload."""

import matplotlib

matplotlib.use("Agg")

from claimlab.io.store import read_runs  # noqa: E402
from claimlab.labs.ledger import history_views as views  # noqa: E402
from claimlab.labs.ledger.history import compare_runs, load_history, pick  # noqa: E402
from claimlab.notebook.display import table_html  # noqa: E402
from tests.hostile.files import HOSTILE_METRIC, _history_store  # noqa: E402
from tests.labs.test_display_views import assert_figure, strings_of  # noqa: E402


def test_runs_table_and_trend_show_counts_and_escape_the_store(tmp_path):
    runs = tuple(read_runs(_history_store(tmp_path)))
    table = views.runs_table(runs, HOSTILE_METRIC)
    html = table_html(table)
    assert "<script>" not in html and "<img" not in html
    assert "40.0% (2/5)" in strings_of(table)
    assert_figure(views.plot_trend(runs, HOSTILE_METRIC))


def test_gate_table_of_the_simulated_history_and_a_run_without_a_table(tmp_path):
    history = load_history("", tmp_path / "demo")
    assert history.simulated and len(history.runs) == 4
    gate = compare_runs(
        pick(history.runs, 0, last=False),
        pick(history.runs, 0, last=True),
        margin=0.01,
        resamples=200,
    )
    table = views.gate_table(gate)
    assert table.loc["coverage (micro)", "verdict"] == "REGRESSED"
    runs = tuple(read_runs(_history_store(tmp_path / "h")))
    assert "kept no per-answer table" in compare_runs(runs[0], runs[1], margin=0.0)
    assert pick(runs, 99, last=True) is None and pick((), 0, last=True) is None
