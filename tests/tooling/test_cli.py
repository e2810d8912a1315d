import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli


def cli_json(*args):
    proc = run_cli(*args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("fixture", ["fixtures/atlas_nova.json", "fixtures/atlas_nova_th.json"])
def test_decomposition_baseline_json(fixture):
    out = cli_json("decomposition", fixture, "--mode", "baseline")
    assert out["preservation"]["display"] == "100.0% (5/5)"
    assert out["coverage"]["display"] == "100.0% (5/5)"
    assert out["confirmed_support"] == {
        "numerator": 3,
        "denominator": 5,
        "value": 0.6,
        "display": "60.0% (3/5)",
    }
    assert out["raw_support"]["display"] == "60.0% (3/5)"
    assert out["status_counts"] == {"SUPPORTED": 3, "CONTRADICTED": 1, "NOT_IN_REFERENCE": 1}
    for key in ("duplicates", "introduced", "missing_units", "non_atomic", "audit"):
        assert key in out


@pytest.mark.parametrize("fixture", ["fixtures/atlas_nova.json", "fixtures/atlas_nova_th.json"])
def test_decomposition_empty_supported_only_duplicate(fixture):
    empty = cli_json("decomposition", fixture, "--mode", "empty")
    for key in ("preservation", "confirmed_support", "raw_support"):
        assert empty[key] == {
            "numerator": 0,
            "denominator": 0,
            "value": None,
            "display": "N/A (0/0)",
        }
    assert empty["coverage"]["display"] == "0.0% (0/5)"
    so = cli_json("decomposition", fixture, "--mode", "supported_only")
    assert so["confirmed_support"]["display"] == "100.0% (3/3)"
    assert so["coverage"]["display"] == "60.0% (3/5)"
    dup = cli_json("decomposition", fixture, "--mode", "duplicate")
    assert dup["raw_support"]["display"] == "66.7% (4/6)"
    assert dup["confirmed_support"]["display"] == "60.0% (3/5)"
    assert dup["coverage"]["display"] == "100.0% (5/5)"


def test_decomposition_select_matches_mode():
    a = cli_json("decomposition", "fixtures/atlas_nova.json", "--select", "C1,C2,C3,C4,C5")
    b = cli_json("decomposition", "fixtures/atlas_nova.json", "--mode", "baseline")
    assert {k: a[k] for k in ("preservation", "coverage", "confirmed_support", "raw_support")} == {
        k: b[k] for k in ("preservation", "coverage", "confirmed_support", "raw_support")
    }


def test_decomposition_text_output_shows_counts():
    proc = run_cli("decomposition", "fixtures/atlas_nova.json", "--mode", "empty")
    assert proc.returncode == 0
    assert "N/A (0/0)" in proc.stdout and "0.0% (0/5)" in proc.stdout


def _broken(tmp_path, text):
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--mode", "nope"], "modes.nope: unknown mode"),
        (["--select", "C1,C77"], "C77: unknown candidate id"),
    ],
)
def test_cli_errors_are_one_line_without_traceback(args, fragment):
    proc = run_cli("decomposition", "fixtures/atlas_nova.json", *args)
    assert proc.returncode == 2
    assert fragment in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_cli_bad_file_names_file_record_field(tmp_path):
    data = json.loads(open("fixtures/atlas_nova.json", encoding="utf-8").read())
    data["candidates"][3]["evidence"]["status"] = "PROBABLY"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    proc = run_cli("decomposition", p, "--mode", "baseline")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"claimlab decomposition: error: {p}: C4: evidence.status: unknown status 'PROBABLY' "
        "(one of SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE)"
    )


def test_cli_missing_file_is_one_line(tmp_path):
    proc = run_cli("decomposition", tmp_path / "nope.json", "--mode", "baseline")
    assert proc.returncode == 2 and "cannot read file" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def suff(*args):
    return cli_json("sufficiency", "fixtures/aurora.json", *args)


def test_sufficiency_acceptance():
    r = suff("--question", "room", "--context", "E1")
    assert r["status"] == "INSUFFICIENT"
    solar = next(b for b in r["branches"] if b["alternative"] == ["E1", "E2"])
    assert solar["missing"] == ["E2"] and solar["complete"] is False
    r = suff("--question", "room", "--context", "E1,E4")
    assert r["status"] == "INSUFFICIENT"
    assert any(
        e["from"] == "E1" and e["to"] == "E4" for b in r["branches"] for e in b["link_errors"]
    )
    assert suff("--question", "room", "--context", "E1,E2")["status"] == "SUFFICIENT"
    assert suff("--question", "room", "--context", "E5")["witnesses"] == [["E5"]]
    assert suff("--question", "route_and_room", "--context", "E5")["status"] == "INSUFFICIENT"
    r = suff("--question", "room", "--context", "E1,E1")
    assert (r["context_raw"], r["context_unique"]) == (2, 1)
    r = suff("--question", "room", "--context", "E8")
    assert r["status"] == "INSUFFICIENT"
    assert r["rejected"][0]["id"] == "E8" and r["rejected"][0]["reason"] == "metadata"
    r = suff("--question", "room", "--context", "E8", "--ignore-metadata")
    assert [u["id"] for u in r["unsafe_candidates"]] == ["E8"]
    assert r["rejected"] == [] and r["witnesses"] == []


def test_sufficiency_unknown_question_is_one_line():
    proc = run_cli("sufficiency", "fixtures/aurora.json", "--question", "colour", "--context", "E1")
    assert proc.returncode == 2
    assert "questions.colour: unknown question (known: room, route_and_room)" in proc.stderr


def test_output_cut_short_by_the_reader_is_quiet():
    """`claimlab ... | true`: no error line when the reader has closed the pipe already."""
    exe = Path(sys.executable).parent / "claimlab"
    proc = subprocess.run(
        [
            "bash",
            "-o",
            "pipefail",
            "-c",
            f"'{exe}' decomposition fixtures/atlas_nova.json --mode baseline | true",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.stderr == "" and proc.returncode == 141


@pytest.mark.notebook
@pytest.mark.journey  # claimlab run, as a user runs it
def test_run_prints_one_line_per_notebook_without_papermills_or_nbformats_warnings(tmp_path):
    """A declared typed parameter set with -p, and a notebook without cell ids: no noise."""
    nb = json.loads((ROOT / "notebooks" / "12_release_history.ipynb").read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        cell.pop("id", None)
    no_ids = tmp_path / "no_ids.ipynb"
    no_ids.write_text(json.dumps(nb), encoding="utf-8")
    for args in (["02_evidence_sufficiency", "-p", "QUESTION", '"room"'], [str(no_ids)]):
        proc = run_cli("run", *args, "--output", tmp_path / "out")
        assert proc.returncode == 0, proc.stderr
        text = proc.stdout + proc.stderr
        for noise in ("Unable to parse", "unknown parameter", "MissingIDFieldWarning", "Warning"):
            assert noise not in text
        assert (
            proc.stdout.splitlines()[0].startswith("[1/1]")
            and " ok " in proc.stdout.splitlines()[0]
        )


def test_every_commands_help_has_a_description_and_an_example_that_parses():
    """Each example in --help is a command line the parser accepts (up to reading files)."""
    import shlex

    from claimlab.tooling.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, command in sub.choices.items():
        assert command.description, name
        assert command.epilog and command.epilog.startswith("example: claimlab "), name
        example = command.epilog.removeprefix("example: ").split(" && ")[0]
        words = shlex.split(example)[1:]
        assert words[0] == name, (name, example)
        parser.parse_args(words)  # an example with a wrong option would exit 2 here


def test_a_value_too_many_gets_a_hint_on_how_to_give_several():
    proc = run_cli(
        "citations", "fixtures/leave_policy_tr.json", "--name", "seed", "--context", "T1", "T2"
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "unrecognized arguments: T2" in proc.stderr and "comma-separated" in proc.stderr
