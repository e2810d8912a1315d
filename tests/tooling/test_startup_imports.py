"""Start-up: ``claimlab --help`` and a one-record command import only what they use.

A test of what is imported, not of seconds (the start-up time is ``benchmarks/bench_startup.py``'s):
each command runs in a fresh process, and the libraries only some commands need (tables,
arrays, figures, Parquet) must not be in ``sys.modules`` when it ends.
"""

import json
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES

HEAVY = ("pandas", "numpy", "matplotlib", "scipy", "pyarrow")
PROGRAM = """
import contextlib, io, json, sys
from claimlab.tooling.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main(sys.argv[2:])
    except SystemExit as exc:  # --help ends the program
        code = exc.code
print(json.dumps([code, sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)]))
"""


def imported(*args, heavy=HEAVY):
    """The exit code of ``claimlab ARGS`` in a fresh process and which of ``heavy`` it imported."""
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps(heavy), *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout.splitlines()[-1])


def one_fever_claim(folder):
    gold, pred = folder / "gold.jsonl", folder / "pred.jsonl"
    gold.write_text(
        json.dumps({"id": 1, "label": "SUPPORTS", "claim": "c", "evidence": [[[1, 2, "P", 0]]]})
    )
    pred.write_text(
        json.dumps({"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [["P", 0]]})
    )
    return gold, pred


def test_help_imports_no_table_array_figure_or_parquet_library():
    assert imported("--help") == [0, []]
    assert imported("citations", "--help") == [0, []]


@pytest.mark.parametrize("command", ["fever", "citations"])
def test_a_one_record_command_imports_none_of_them(command, tmp_path):
    if command == "fever":
        gold, pred = one_fever_claim(tmp_path)
        args = ["fever", gold, pred, "--json"]
    else:
        fixture = FIXTURES / "leave_policy_en.json"
        args = ["citations", fixture, "--name", "seed", "--context", fixture, "--json"]
    assert imported(*args) == [0, []]


# the libraries a command on a few records may load, beyond the standard library and its
# readers (orjson, msgspec): what it computes with, never what another command needs
NEEDS = {
    "ledger": {"pyarrow", "pandas", "numpy", "multiprocessing"},  # tables; tqdm's lock
    "draft": {"numpy"},  # rapidfuzz's word matrix (cdist) is an array
    "agreement": {"numpy"},  # the coefficients are counted in arrays
    "meta-eval": {"numpy"},  # correlations and their bootstrap
}
SMALL = ("pandas", "numpy", "matplotlib", "scipy", "pyarrow", "multiprocessing")


def test_every_command_on_a_few_records_imports_only_what_it_computes_with(hostile_files, tmp_path):
    """Each command that reads and ends, on the hostile corpus's few records: none of the
    table, array, figure or Parquet libraries, nor worker processes, unless it computes with
    them (:data:`NEEDS`; statistics asked for with ``--ci`` or ``--bootstrap`` load numpy).
    A gate's figures, a pool of workers for one chunk, FActScore without intervals: loaded
    nothing they did not use."""
    from tests.hostile.files import command_lines

    found = {}
    printed = [("rag", [hostile_files["rag_checking"], "--per-query", "--format", shape])
               for shape in ("lines", "table", "csv")]  # fmt: skip
    for name, args in [*command_lines(hostile_files, tmp_path), *printed]:
        code, loaded = imported(name, *args, heavy=SMALL)
        needs = NEEDS.get(name, set()) | (
            {"numpy"} if {"--ci", "--bootstrap"} & set(args) else set()
        )
        assert code == 0, name
        if set(loaded) - needs:
            found[" ".join(map(str, [name, *args[:1], *args[-2:]]))] = sorted(set(loaded) - needs)
    assert found == {}


def _meta_files(folder):
    """Two responses to each of two queries, judged by people and scored by a checker."""
    labels = ("correctness_label", "completeness_label", "overall_label")
    human = [{"instance_id": i // 2, "dataset": "d", "query": "q", **dict.fromkeys(labels, 1)}
             for i in range(4)]  # fmt: skip
    scores = [{"instance_id": i, "model1": {"ragchecker": dict.fromkeys(labels, 0.1 * i)},
               "model2": {"ragchecker": dict.fromkeys(labels, 0.5)}} for i in range(2)]  # fmt: skip
    (folder / "human.json").write_text(json.dumps(human), encoding="utf-8")
    (folder / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    return folder / "human.json", folder / "scores.json"


@pytest.mark.parametrize("output", [[], ["--json"], ["--per-query"]])
def test_rag_and_meta_eval_print_their_figures_without_a_figure_library(output, tmp_path):
    """Their terminal lines live beside the lab's plots: the plots' library is imported when a
    plot is drawn, never for a command that prints (it was half a second of a small file's run)."""
    rag = imported("rag", FIXTURES / "rag_greenhouse.json", *output)
    human, scores = _meta_files(tmp_path)
    json_only = [o for o in output if o == "--json"]
    meta = imported("meta-eval", human, scores, "--bootstrap", "100", *json_only)
    for code, found in (rag, meta):
        assert code == 0
        assert "matplotlib" not in found


def test_a_small_fever_file_never_imports_msgspec(tmp_path):
    """msgspec's typed lines are a large file's path: importing it would cost a small file more
    than they save."""
    gold, pred = one_fever_claim(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps(["msgspec"]), "fever", gold, pred, "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(proc.stdout.splitlines()[-1]) == [0, []]


def test_the_check_sees_a_library_that_is_imported():
    """The program reports what a command imports (numpy imported first is seen)."""
    code, found = imported("history", "--help")
    assert code == 0 and found == []
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM.replace("from claimlab", "import numpy\nfrom claimlab"),
         json.dumps(HEAVY), "--help"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(proc.stdout.splitlines()[-1]) == [0, ["numpy"]]


# the labs a command imported (each lab's package, the registry aside)
LABS_PROGRAM = PROGRAM.replace(
    "sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)",
    "sorted({'.'.join(m.split('.')[:3]) for m in sys.modules"
    " if m.startswith('claimlab.labs.') and m != 'claimlab.labs.registry'})",
)


def test_a_command_named_first_loads_its_own_lab_only(tmp_path):
    """``claimlab fever ...`` builds the fever command alone: no other lab is imported."""
    gold, pred = one_fever_claim(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-c", LABS_PROGRAM, "[]", "fever", gold, pred, "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(proc.stdout.splitlines()[-1]) == [0, ["claimlab.labs.realdata"]]


def test_every_command_alone_has_the_help_and_options_it_has_among_all():
    """The parser built for one command is the one the whole command line holds for it."""
    from claimlab.tooling.cli import build_parser

    full = build_parser()
    assert len(full.commands) >= 20
    for name, parser in full.commands.items():
        alone = build_parser(name)
        assert list(alone.commands) == [name]
        assert alone.commands[name].format_help() == parser.format_help(), name


def test_the_outline_for_help_lists_what_the_whole_parser_lists():
    """``claimlab --help`` builds the commands' names and one-line help only (their options
    unbuilt): the page is the one the whole parser prints, and no metric or cache is imported."""
    from claimlab.tooling.cli import build_parser

    assert build_parser(outline=True).format_help() == build_parser().format_help()
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps(["sqlite3", "claimlab.metrics.factscore",
                                                    "claimlab.metrics.fever", "tempfile"]), "--help"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(proc.stdout.splitlines()[-1]) == [0, []]


@pytest.mark.parametrize("words", [["--bogus", "fever", "x"], ["-q", "run"], ["--help", "rag"]])
def test_an_option_before_a_command_is_refused_in_one_line(words, capsys):
    """An unknown option first, then a command: the whole parser is built, one line, exit 2
    (``--help`` first prints the list)."""
    from claimlab.tooling.cli import main

    with pytest.raises(SystemExit) as exc:
        main(words)
    out = capsys.readouterr()
    if words[0] == "--help":
        assert exc.value.code == 0 and "COMMAND" in out.out
    else:
        assert exc.value.code == 2 and len(out.err.strip().splitlines()) == 1, out.err


@pytest.mark.parametrize(("first", "meant"), [("fevr", "fever"), ("meta_eval", "meta-eval")])
def test_a_word_that_is_no_command_still_sees_every_command(first, meant, capsys):
    """An unknown command is answered from the whole list, with the one it is closest to."""
    from claimlab.tooling.cli import main

    with pytest.raises(SystemExit) as exc:
        main([first, "x.json"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"did you mean {meant}?" in err and "'rag'" in err and "'diff'" in err, err


def test_fever_loads_no_other_format_than_its_own(tmp_path):
    """The AND/OR primitive FEVER shares with sufficiency loads neither sufficiency's format."""
    gold, pred = one_fever_claim(tmp_path)
    others = [
        "claimlab.io.sufficiency",
        "claimlab.metrics.sufficiency",
        "claimlab.io.decomposition",
    ]
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, json.dumps(others), "fever", gold, pred, "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(proc.stdout.splitlines()[-1]) == [0, []]


def test_the_commands_run_with_the_collector_paused_are_commands_that_end():
    """BATCH names real commands only, none that serves, runs kernels or starts a cluster
    (the collector stays on for those), and a caller of ``main`` keeps its collector on."""
    import gc

    from claimlab.tooling.cli import BATCH, _command_names, main

    assert BATCH <= set(_command_names())
    assert not BATCH & {"serve", "run", "handouts", "notebooks", "check", "ledger"}
    before = gc.isenabled()
    assert main(["decomposition", str(FIXTURES / "ferry_lines.json"), "--mode", "faithful"]) == 0
    assert gc.isenabled() == before
