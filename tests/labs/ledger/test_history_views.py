"""The release-history views on a store whose every text is a payload."""

import matplotlib

matplotlib.use("Agg")

from claimlab.io.store import load_runs  # noqa: E402
from claimlab.labs.ledger import history_views as views  # noqa: E402
from claimlab.labs.ledger.history import compare_runs, load_history, pick  # noqa: E402
from claimlab.notebook.display import table_html  # noqa: E402
from tests.hostile.files import HOSTILE_METRIC, _history_store  # noqa: E402
from tests.labs.test_display_views import assert_figure, strings_of  # noqa: E402


def test_runs_table_and_trend_show_counts_and_escape_the_store(tmp_path):
    runs = tuple(load_runs(_history_store(tmp_path)))
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
    runs = tuple(load_runs(_history_store(tmp_path / "h")))
    assert "kept no per-answer or per-query table" in compare_runs(runs[0], runs[1], margin=0.0)
    assert pick(runs, 99, last=True) is None and pick((), 0, last=True) is None


def test_trend_ticks_are_runs_labelled_by_release_and_intervals_are_error_bars(tmp_path):
    import pytest

    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.store import Figure, record_run

    store = tmp_path / "runs.sqlite"
    name = "by_group.gpt$\\frac{1}{$x.micro.coverage"
    for k, (low, high) in enumerate([(0.3, 0.55), (0.35, 0.7), (None, None)], start=1):
        record_run(
            store, command="ledger", argv=[], inputs=[], parameters={"release": f"r{k}.0"},
            figures=[Figure(name, 3 + k, 10, (3 + k) / 10, low, high, level=0.95, method="BCa",
                            note="" if low else "only 1 answer")],
        )  # fmt: skip
    runs = tuple(load_runs(store))
    ax = views.plot_trend(runs, "coverage")
    assert list(ax.get_xticks()) == [1, 2, 3]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["#1\nr1.0", "#2\nr2.0", "#3\nr3.0"]
    (bars,) = [c for c in ax.containers if hasattr(c, "lines")]  # the error bars
    segments = bars.lines[2][0].get_segments()
    assert [tuple(s[:, 1]) for s in segments[:2]] == [
        pytest.approx((30.0, 55.0)), pytest.approx((35.0, 70.0))
    ]  # fmt: skip
    ax.figure.canvas.draw()  # a name with "$" draws as text, never as mathematics
    table = views.runs_table(runs, "coverage")
    assert table.loc[1, name] == "40.0% (4/10) [30.0%, 55.0%] 95% BCa"
    assert table.loc[3, name] == "60.0% (6/10) no interval: only 1 answer"
    with pytest.raises(ClaimlabInputError, match="known names: by_group"):
        views.runs_table(runs, "precision")


def test_the_simulated_history_of_no_folder_is_removed_once_let_go(tmp_path, monkeypatch):
    import gc
    import tempfile
    from pathlib import Path

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    history = load_history("")
    store = Path(history.store)
    assert history.simulated and store.parent.parent == tmp_path and store.is_file()
    assert len(load_runs(history.store)) == 4
    del history
    gc.collect()
    assert list(tmp_path.iterdir()) == []
