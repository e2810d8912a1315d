"""The gate's shared edge: its options, settings and reports, the same for every command."""

import argparse

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.metrics.gate import GateFigure, release_gate
from claimlab.notebook.gate import (
    add_gate_options,
    check_gate_options,
    gate_junit,
    gate_line,
    gate_options,
    gate_summary,
    keep_table,
    say_gate,
    write_reports,
    write_table,
)


def parser(figures=("a", "b")):
    p = argparse.ArgumentParser()
    add_gate_options(p, figures=figures, table="per-query")
    return p


def test_the_options_parse_with_their_defaults_and_the_figures_named():
    args = parser().parse_args(["--baseline", "t.csv", "--gate-figures", "b"])
    assert gate_options(args) == {
        "aggregate": "micro", "margin": 0.0, "level": 0.95, "resamples": 2000, "seed": 0,
        "allow_missing": 0,
    }  # fmt: skip
    assert args.gate_figures == ["b"]
    with pytest.raises(SystemExit):
        parser().parse_args(["--gate-figures", "c"])


def test_the_resampling_options_come_only_with_what_is_resampled(capsys):
    p = argparse.ArgumentParser()
    add_gate_options(p, figures=("a",), table="per-query", resampled="queries")
    args = p.parse_args(["--baseline", "t.csv", "--bootstrap", "500", "--seed", "7"])
    assert (gate_options(args)["resamples"], gate_options(args)["seed"]) == (500, 7)
    assert "resamples of queries" in p.format_help()
    with pytest.raises(SystemExit):
        parser().parse_args(["--bootstrap", "500"])  # declared only where asked for
    with pytest.raises(SystemExit):
        p.parse_args(["--bootstrap", "5"])  # under the floor of 100
    capsys.readouterr()


@pytest.mark.parametrize(
    "given",
    [["--margin", "0.1"], ["--allow-missing", "2"], ["--junit", "j.xml"], ["--gate-figures", "a"]],
)
def test_a_gate_option_without_a_baseline_is_refused(given):
    with pytest.raises(ClaimlabInputError, match="--baseline"):
        check_gate_options(parser().parse_args(given))
    check_gate_options(parser().parse_args([*given, "--baseline", "t.csv"]))  # no error


def gate(missing=0):
    rows = pd.DataFrame({"id": [f"q{i}" for i in range(6)], "n": [1, 2, 1, 0, 2, 1],
                         "d": [2, 2, 2, 2, 2, 2]})  # fmt: skip
    return release_gate(rows, rows.iloc[missing:], keys=["id"],
                        figures=[GateFigure("hits", "n", "d")], resamples=100)  # fmt: skip


def test_the_reports_name_each_figure_and_the_missing_items(tmp_path, capsys):
    g = gate(missing=2)
    args = parser().parse_args(
        [
            "--baseline",
            "t.csv",
            "--junit",
            str(tmp_path / "g.xml"),
            "--summary",
            str(tmp_path / "g.md"),
        ]
    )
    write_reports(args, g)
    assert 'type="MISSING"' in (tmp_path / "g.xml").read_text()
    md = (tmp_path / "g.md").read_text()
    assert "| hits (micro) |" in md and "q0, q1" in md and "Gate: **FAIL** (exit 1)" in md
    assert gate_line(g.rows[0]).startswith("hits (micro): ")
    say_gate(args, g, items="queries")
    out = capsys.readouterr().out
    assert "4 queries in both runs" in out and out.rstrip().endswith("FAIL: exit 1")
    assert (
        gate_junit(g, tmp_path / "h.xml").exists() and gate_summary(g, tmp_path / "h.md").exists()
    )


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_write_table_writes_by_suffix_and_refuses_an_unknown_one(tmp_path, suffix):
    table = pd.DataFrame({"id": ["a|b"], "n": [1]})
    path = write_table(table, tmp_path / f"t{suffix}")
    read = {".csv": pd.read_csv, ".jsonl": lambda p: pd.read_json(p, lines=True),
            ".parquet": pd.read_parquet}[suffix](path)  # fmt: skip
    assert read.to_dict("records") == [{"id": "a|b", "n": 1}]
    with pytest.raises(ClaimlabInputError, match="unknown file type"):
        write_table(table, tmp_path / "t.txt")


def test_keep_table_names_the_file_by_its_hash_and_keeps_one_copy(tmp_path):
    from claimlab.io.store import sha256_of

    table = pd.DataFrame({"query_id": ["q1", "q2"], "n": [1, 0]})
    first = keep_table(table, tmp_path / "runs.sqlite")
    again = keep_table(table.copy(), tmp_path / "runs.sqlite")
    assert first == again and sha256_of(first["path"]) == first["sha256"]
    assert first["path"].endswith(f"per_query-{first['sha256']}.csv")
    assert len(list((tmp_path / "runs.sqlite.tables").iterdir())) == 1


CONTROLS = "\x00\x07\x1b\x7f\x85\x9b\u202e\ufeff\r"


@settings(max_examples=40, deadline=None)
@given(ids=st.lists(st.text(alphabet=st.sampled_from([*CONTROLS, "a", "<", "&", "|", "$", "é", " "]),
                            min_size=1, max_size=8), min_size=2, max_size=6, unique=True))  # fmt: skip
def test_ids_with_control_characters_leave_both_reports_well_formed(tmp_path_factory, ids):
    """Whatever the ids of the answers a release lost, the JUnit report parses as XML and the
    Markdown summary carries no control character (each shown as an escape, as on a terminal)."""
    import unicodedata
    import xml.dom.minidom

    from claimlab.core.text import nfc

    ids = list(dict.fromkeys(nfc(i) for i in ids))
    rows = pd.DataFrame({"id": ids + ["k1", "k2"], "n": 1, "d": 2})
    g = release_gate(rows, rows.iloc[len(ids):], keys=["id"],
                     figures=[GateFigure("hits", "n", "d")], resamples=100)  # fmt: skip
    folder = tmp_path_factory.mktemp("reports")
    xml.dom.minidom.parse(str(gate_junit(g, folder / "g.xml")))  # well-formed
    for text in (
        (folder / "g.xml").read_text("utf-8"),
        gate_summary(g, folder / "g.md").read_text("utf-8"),
    ):
        assert not [c for c in text if unicodedata.category(c) == "Cc" and c not in "\n\t"]
        assert "\u202e" not in text
