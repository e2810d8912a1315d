"""The shared display primitives, named one by one: what a command prints and a notebook shows."""

from __future__ import annotations

import argparse
import json

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from claimlab.core.errors import ClaimlabInputError  # noqa: E402
from claimlab.notebook import display, style, terminal  # noqa: E402


@pytest.mark.parametrize(
    ("parse", "text", "value"),
    [
        (terminal.count_type(1, 5), "3", 3),
        (terminal.count_type(1, 5), "5", 5),
        (terminal.count_type(1), "1", 1),
        (terminal.finite_type, "-0.25", -0.25),
        (terminal.level_type, "0.9", 0.9),
        (terminal.positive_type, "1e-9", 1e-9),
        (terminal.positive_type, "100", 100.0),
    ],
)
def test_option_types_take_values_within_their_bounds(parse, text, value):
    assert parse(text) == value


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (terminal.count_type(1, 5), "0", "must be 1..5, got 0"),
        (terminal.count_type(1, 5), "6", "must be 1..5, got 6"),
        (terminal.count_type(1), "0", "must be at least 1, got 0"),
        (terminal.count_type(1), "2.5", "must be an integer, got '2.5'"),
        (terminal.finite_type, "nan", "must be a finite number, got 'nan'"),
        (terminal.finite_type, "x", "must be a number, got 'x'"),
        (terminal.level_type, "1", "between 0 and 1"),
        (terminal.level_type, "0", "between 0 and 1"),
        (terminal.positive_type, "0", "must be above 0, got '0'"),
        (terminal.positive_type, "-1", "must be above 0, got '-1'"),
        (terminal.positive_type, "inf", "must be a finite number, got 'inf'"),
    ],
)
def test_option_types_refuse_in_one_line(parse, text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message.replace("(", r"\(")):
        parse(text)


def test_id_lists_from_commas_or_a_file(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("E1\nE2, E3\n\n", encoding="utf-8")
    assert terminal.id_list("E1, E2,,E3") == ["E1", "E2", "E3"]
    assert terminal.id_list(f"@{ids}") == ["E1", "E2", "E3"]
    assert terminal.id_list("") == []


def test_compare_pairs_names_two_or_all_and_refuses_the_rest():
    assert terminal.compare_pairs(["all"], ["b", "a", "c"], what="model") == [
        ("a", "b"),
        ("a", "c"),
        ("b", "c"),
    ]
    assert terminal.compare_pairs(["b", "a"], ["a", "b"], what="model") == [("b", "a")]
    with pytest.raises(ClaimlabInputError, match="no model 'x' \\(there are: a, b\\)"):
        terminal.compare_pairs(["a", "x"], ["a", "b"], what="model")
    with pytest.raises(ClaimlabInputError, match="takes two model names"):
        terminal.compare_pairs(["a"], ["a", "b"], what="model")


@pytest.mark.parametrize(
    ("asked", "problem"),
    [
        (["a", "a"], "'a' twice"),
        (["a"], "takes two"),
        (["a", "b", "c"], "takes two"),
        ([], "takes two"),
    ],
)
def test_check_compare_refuses_a_bad_shape_before_any_name_is_known(asked, problem):
    with pytest.raises(ClaimlabInputError, match=problem):
        terminal.check_compare(asked, what="model")


@pytest.mark.parametrize(
    ("text", "ok"),
    [("0.6", True), ("1", True), ("0", False), ("1.5", False), ("nan", False), ("x", False)],
)
def test_share_type_takes_above_0_up_to_1_and_a_margin_takes_0_too(text, ok):
    assert terminal.share_or_zero("0") == 0.0
    with pytest.raises(argparse.ArgumentTypeError):
        terminal.share_or_zero("-0.1")
    if ok:
        assert terminal.share_type(text) == float(text)
    else:
        with pytest.raises(argparse.ArgumentTypeError):
            terminal.share_type(text)


@pytest.mark.parametrize("asked", [["all"], ["a", "b"], ["b", "a"]])
def test_check_compare_lets_two_names_or_all_through(asked):
    assert terminal.check_compare(asked, what="model") is None


def test_uncertainty_options_are_added_with_their_defaults():
    p = argparse.ArgumentParser()
    terminal.add_uncertainty_options(p, compared="decomposer")
    args = p.parse_args(["--ci", "0.9"])
    assert args.ci == 0.9 and args.bootstrap >= 100


def test_an_output_that_is_an_input_is_refused(tmp_path):
    src = tmp_path / "in.json"
    src.write_text("{}", encoding="utf-8")
    terminal.check_outputs([str(src)], [("--out", tmp_path / "out.json")])
    with pytest.raises(ClaimlabInputError, match="--out"):
        terminal.check_outputs([str(src)], [("--out", src)])


def test_json_out_escapes_terminal_controls(capsys):
    terminal.emit_json({"id": "a\u202eb\x9bc", "n": 2**70})
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x9b" not in out
    assert json.loads(out) == {"id": "a\u202eb\x9bc", "n": 2**70}


def test_steps_report_progress_only_when_enabled(capsys):
    quiet = terminal.Steps("demo", enabled=False)
    quiet.step("reading", 3)(1)
    quiet.close()
    assert capsys.readouterr().err == ""
    loud = terminal.Steps("demo", enabled=True)
    advance = loud.step("reading", 3, "file")
    advance(3)
    (bar,) = loud._bars  # shown on stderr once the step has run two seconds
    assert (bar.desc, bar.n, bar.total, bar.unit) == ("claimlab demo: reading", 3, 3, "file")
    loud.close()
    assert loud._bars == []


def test_tables_become_one_header_row_of_escaped_html():
    import pandas as pd

    html = display.table_html(pd.DataFrame({"id": ["<b>x</b>"], "ratio": ["60.0% (3/5)"]}))
    assert "&lt;b&gt;" in html and "<b>x</b>" not in html and "60.0% (3/5)" in html
    assert html.count("<tr") == 2


def test_figures_print_at_their_size_with_readable_text():
    with style.house_style():
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.set_title("title \x1b[31m red")
        style.visible_text(ax)
        png, meta = display.figure_png(fig)
        sizes = display.figure_fonts(fig)
    plt.close(fig)
    assert png.startswith(b"\x89PNG") and meta["width"] > 0
    assert min(sizes) >= 8 and "\\x1b" in ax.get_title()


def test_a_styled_plot_runs_in_the_house_style():
    @style.styled
    def draw():
        _, ax = plt.subplots()
        ax.set_xlabel("a\x07b")
        return ax

    ax = draw()
    assert ax.get_xlabel() == "a\\x07b"
    plt.close(ax.figure)


def test_exercises_and_skips_are_escaped(monkeypatch):
    from claimlab.io.lesson import Exercise

    shown = []
    monkeypatch.setattr(display, "show_markdown", shown.append)
    display.show_skip("data <x> absent")
    display.show_exercises([Exercise("Why *not*?", "Because")], solutions=True)
    assert shown[0] == "**Skipped:** data \\<x\\> absent" or "&lt;x&gt;" in shown[0]
    assert "Because" in "".join(shown[1:])


def test_records_are_read_back_from_a_notebook():
    from claimlab.notebook.records import MIME, records_from_notebook

    def cell(name, value):
        data = {MIME: {"name": name, "value": value}}
        return {"cell_type": "code", "outputs": [{"output_type": "display_data", "data": data}]}

    nb = {"cells": [cell("a", 1), {"cell_type": "markdown"}, cell("a", 2), cell("b", [3])]}
    assert records_from_notebook(nb) == {"a": 2, "b": [3]}


def test_the_widget_base_escapes_and_never_typesets_a_files_text():
    import ipywidgets as W

    from claimlab.labs.decomposition.widgets import DecompositionGameView
    from claimlab.labs.sufficiency.widgets import SufficiencyExplorer
    from claimlab.notebook.widgets import GameView, Html, View, message_html, style_toggle

    pane = Html("costs $5 and $6")
    assert pane.value.startswith('<div class="tex2jax_ignore mathjax_ignore">')
    assert message_html("<b>no</b>") == "<p>&lt;b&gt;no&lt;/b&gt;</p>" and message_html("") == ""
    t = W.ToggleButton(value=True)
    style_toggle(t)
    assert (t.button_style, t.icon) == ("success", "check")
    t.value = False
    style_toggle(t)
    assert (t.button_style, t.icon) == ("", "")
    assert issubclass(DecompositionGameView, GameView) and issubclass(GameView, View)
    assert issubclass(SufficiencyExplorer, View)


def test_add_store_option_reads_the_environment_and_remember_records_only_with_a_store(
    tmp_path, monkeypatch
):
    from claimlab.io.store import load_runs

    store = tmp_path / "runs.sqlite"
    monkeypatch.setenv("CLAIMLAB_STORE", str(store))
    p = argparse.ArgumentParser()
    terminal.add_store_option(p)
    args = p.parse_args([])
    assert args.store == str(store)
    data_file = tmp_path / "in.json"
    data_file.write_text("{}")
    args.paths = lambda a: ([str(data_file), None], [])
    rid = terminal.remember(args, "test", {"x": {"numerator": 1, "denominator": 2, "value": 0.5}})
    (run,) = load_runs(store)
    assert run.id == rid and run.figures[0].name == "x" and run.inputs[0][0] == str(data_file)
    assert terminal.remember(argparse.Namespace(store=None), "test", {}) is None


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_that_cannot_encode_a_character_escapes_it_and_the_command_succeeds(
    tmp_path, encoding
):
    """A terminal that cannot write Thai or an arrow (``PYTHONIOENCODING=ascii``, Latin-1): the
    text output writes them as escapes and the JSON output as JSON's escapes, exit 0, the same
    data; the command used to end with Python's encoding error (exit 1)."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from claimlab.io.locate import FIXTURES_DIR

    path = tmp_path / "ไฟล์.json"
    shutil.copy(FIXTURES_DIR / "rag_greenhouse.json", path)
    exe = str(Path(sys.executable).parent / "claimlab")

    def run(*args, io="utf-8"):
        env = {**os.environ, "PYTHONIOENCODING": io}
        return subprocess.run([exe, "rag", str(path), *args], capture_output=True, env=env)

    text = run(io=encoding)
    assert text.returncode == 0 and text.stderr == b""
    assert b"\\u0e44\\u0e1f\\u0e25\\u0e4c.json" in text.stdout and b"\\u2191" in text.stdout
    data = run("--json", io=encoding)
    assert data.returncode == 0 and data.stdout.isascii()
    assert json.loads(data.stdout) == json.loads(run("--json").stdout)


def test_escape_unencodable_changes_only_an_output_that_cannot_write_every_character(
    monkeypatch,
):
    import io
    import sys

    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    terminal.escape_unencodable()
    ascii_out.write("ก ↑\n")
    ascii_out.flush()
    assert ascii_out.buffer.getvalue() == b"\\u0e01 \\u2191\n"
    utf8_out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", utf8_out)
    terminal.escape_unencodable()
    assert utf8_out.errors == "strict"  # left as it was


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("x\ny", "x\\ny"),
        ("x\r\ny", "x\\x0d\\ny"),  # not shown as "x\ny": another id
        ("x\u2028y\u2029z", "x\\u2028y\\u2029z"),  # separators that end a line for many readers
        ("x\ty", "x\ty"),
    ],
)
def test_one_line_shows_every_line_break_and_tells_them_apart(text, shown, capsys):
    from claimlab.core.text import one_line
    from claimlab.notebook.terminal import say

    assert one_line(text) == shown
    say("id", text)
    assert capsys.readouterr().out == f"id {shown}\n"
    say("a\nb", block=True)  # a text of several lines, printed as such
    assert capsys.readouterr().out == "a\nb\n"
