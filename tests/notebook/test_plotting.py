"""Plots show counts and N/A: every bar labelled, undefined ratios hatched, labels readable."""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from claimlab.core.ratio import MeanOfDefined, Ratio  # noqa: E402
from claimlab.labs.ledger import views as ledger_plots  # noqa: E402
from claimlab.notebook import style as plotting  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def bars(ax):
    """(x centre, height, hatch) of every bar drawn."""
    return [
        (p.get_x() + p.get_width() / 2, p.get_height(), p.get_hatch())
        for p in ax.patches
        if isinstance(p, matplotlib.patches.Rectangle)
    ]


def texts_at(ax, x):
    return [t.get_text() for t in ax.texts if abs(t.get_position()[0] - x) < 1e-9]


GROUPED = {
    "baseline": {"p": Ratio(3, 5), "c": Ratio(5, 5), "s": Ratio(0, 4)},
    "empty": {"p": Ratio(0, 0), "c": Ratio(0, 5), "s": Ratio(0, 0)},
}


def test_grouped_ratios_label_every_bar_with_its_counts_and_hatch_na():
    ax = plotting.plot_grouped_ratios(GROUPED, title="t")
    drawn = bars(ax)
    assert len(drawn) == 6  # one bar per cell: N/A is a bar too, never a gap
    expected = [r for cells in GROUPED.values() for r in cells.values()]
    for (x, height, hatch), r in zip(drawn, expected, strict=True):
        labels = texts_at(ax, x)
        if r.value is None:
            assert (height, hatch) == (1.0, "//") and labels == ["N/A (0/0)"]
        else:
            assert height == pytest.approx(r.value) and not hatch and labels == [r.counts]
    # a defined zero (0/5, 0/4) is a zero-height bar with its counts, not N/A
    assert texts_at(ax, drawn[4][0]) == ["0/5"] and texts_at(ax, drawn[2][0]) == ["0/4"]


@pytest.mark.parametrize(
    ("ratio", "label", "height", "hatch"),
    [
        (Ratio(3, 5), "60%\n3/5", 0.6, ""),
        (Ratio(1, 8), "12%\n1/8", 0.125, ""),  # short bar: label above it
        (Ratio(0, 0), "N/A\n(0/0)", 1.0, "//"),
    ],
)
def test_single_ratio_bars(ratio, label, height, hatch):
    ax = plotting.plot_ratios({"m": ratio})
    ((x, h, got_hatch),) = bars(ax)
    assert (h, got_hatch or "") == (pytest.approx(height), hatch)
    assert texts_at(ax, x) == [label]
    legend = ax.get_legend()
    assert (legend is not None) == (ratio.value is None)


class Group:
    """The two attributes plot_ledger_models reads from corpus figures."""

    def __init__(self, micro, macro):
        self.micro, self.macro = micro, macro


def long_label_axes():
    full = {m: Ratio(1986, 1986) for m in ("preservation", "coverage", "raw_support")}
    micro = {**full, "confirmed_support": Ratio(0, 0)}
    macro = {m: MeanOfDefined(1.0, 123456, 7890) for m in micro}
    macro["confirmed_support"] = MeanOfDefined(None, 0, 400)
    groups = {f"model-{i}": Group(micro, macro) for i in range(3)}
    return [
        ledger_plots.plot_ledger_models(groups, kind="micro"),
        ledger_plots.plot_ledger_models(groups, kind="macro"),
        plotting.plot_grouped_values(
            {"r": {"a": (1.0, "a label much longer than usual: 123456/123456"), "b": (0.5, "1/2")}}
        ),
    ]


@pytest.mark.parametrize("index", [0, 1, 2], ids=["micro", "macro", "very-long"])
def test_labels_on_full_bars_stay_inside_the_axes_and_clear_of_the_legend(index):
    ax = long_label_axes()[index]
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axes_box = ax.get_window_extent(renderer)
    legend_box = ax.get_legend().get_window_extent(renderer)
    assert ax.texts
    for text in ax.texts:
        box = text.get_window_extent(renderer)
        assert box.y1 <= axes_box.y1 + 0.5, text.get_text()
        assert not box.overlaps(legend_box), text.get_text()
    assert ax.get_yticks()[-1] == 1.0  # the scale still ends at 100 %


def test_macro_bars_say_how_many_answers_were_defined():
    ax = long_label_axes()[1]
    labels = {t.get_text() for t in ax.texts}
    assert labels == {"123456 def., 7890 N/A", "0 def., 400 N/A"}
    assert sum(1 for _, h, hatch in bars(ax) if hatch == "//") == 3  # all-undefined: hatched


def test_same_figure_same_bytes():
    def render():
        ax = plotting.plot_grouped_ratios(GROUPED, title="t")
        out = io.BytesIO()
        ax.figure.savefig(out, format="png")
        plt.close(ax.figure)
        return out.getvalue()

    assert render() == render()
