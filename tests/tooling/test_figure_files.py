"""Every figure a notebook draws is also a PNG and an SVG in ``outputs/<stem>/``.

Invariants (hypothesis): a figure's file name is its place and a slug of its title, never a
path (no separator, no dot-dot, whatever the title holds), and unique within a run; the folder
appears only when the run ends without error, replacing the earlier one whole.
"""

from __future__ import annotations

import re

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.notebook.display import FIGURES_ENV, figure_file_stem, show_figure
from claimlab.tooling.runner import figures_folder

matplotlib.use("Agg")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=80), min_size=1, max_size=6))
def test_figure_file_names_are_plain_unique_and_in_order(titles):
    names = [figure_file_stem(n, t) for n, t in enumerate(titles, 1)]
    for n, name in enumerate(names, 1):
        assert re.fullmatch(r"\d{2,}-[a-z0-9]+(-[a-z0-9]+)*", name), name
        assert name.startswith(f"{n:02d}-")
    assert len(set(names)) == len(names)


def _plot(title):
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    ax.bar(["a"], [1])
    ax.set_title(title)
    return ax


def test_show_figure_writes_png_and_svg_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: None)
    show_figure(_plot("not written"))  # no folder asked for: nothing written
    monkeypatch.setenv(FIGURES_ENV, str(tmp_path))
    show_figure(_plot("Four metrics: 3/5"))
    show_figure(_plot("../../etc/passwd"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "01-four-metrics-3-5.png",
        "01-four-metrics-3-5.svg",
        "02-etc-passwd.png",
        "02-etc-passwd.svg",
    ]
    assert (tmp_path / "01-four-metrics-3-5.png").read_bytes().startswith(b"\x89PNG")
    svg = (tmp_path / "01-four-metrics-3-5.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "Four metrics: 3/5" in svg and "<dc:date>" not in svg


def test_the_folder_replaces_the_earlier_one_only_after_a_clean_run(tmp_path):
    target = tmp_path / "01_x"
    with figures_folder(target) as fresh:
        (fresh / "01-a.png").write_bytes(b"1")
    assert [p.name for p in target.iterdir()] == ["01-a.png"]
    with pytest.raises(RuntimeError), figures_folder(target) as fresh:
        (fresh / "01-b.png").write_bytes(b"2")
        raise RuntimeError("a cell failed")
    assert [p.name for p in target.iterdir()] == ["01-a.png"]  # the earlier run's figures stay
    with figures_folder(target) as fresh:
        (fresh / "01-c.png").write_bytes(b"3")
    assert [p.name for p in target.iterdir()] == ["01-c.png"]  # replaced whole, nothing stale
    assert sorted(p.name for p in tmp_path.iterdir()) == ["01_x"]  # no temporary folder left
