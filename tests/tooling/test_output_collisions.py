"""Outputs never collide: two outputs naming one path, or an output naming an input, are refused.

Every command's outputs are read from its parser (the options declared ``type=output_path``),
so a command or an output option added later is covered; the table below says how to call each
command and which inputs it names. Inputs need not exist: the refusal comes before anything is
read, and nothing is written.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.notebook.terminal import output_folder, output_path
from claimlab.tooling.cli import build_parser, main
from tests.scratch import scratch_dir

# command -> (arguments with {IN1}/{IN2} for inputs and {OUT} for a positional output,
#             the options naming inputs, or positional placeholders)
CALLS: dict[str, tuple[list[str], list[str]]] = {
    "decomposition": (["{IN1}", "--mode", "m", "--earlier", "{IN2}"], ["{IN1}", "--earlier"]),
    "fever": (["{IN1}", "{IN2}", "--baseline", "{IN3}"], ["{IN1}", "{IN2}", "--baseline"]),
    "factscore": (["{IN1}", "--baseline", "{IN2}"], ["{IN1}", "--baseline"]),
    "ledger": (
        ["{IN1}", "--units", "{IN2}", "--baseline", "{IN3}"],
        ["{IN1}", "--units", "--baseline"],
    ),
    "draft": (["{IN1}"], ["{IN1}"]),
    "adjudicate": (["{IN1}", "{IN2}", "--out", "gold-default"], ["{IN1}", "{IN2}"]),
    "convert": (["musique", "{IN1}"], ["{IN1}"]),
    "sufficiency-cases": (["{IN1}"], ["{IN1}"]),
    "rag": (["{IN1}", "--baseline", "{IN2}"], ["{IN1}", "--baseline"]),
    "check": (["{IN1}", "--out", "labelled-default.json"], ["{IN1}"]),
    "fact-estimate": (["{IN1}"], ["{IN1}"]),
    "citations": (["{IN1}", "--context", "{IN2}"], ["{IN1}", "--context"]),
    "run": ([], []),
    "handouts": ([], []),
    "notebooks": (["{OUT}"], []),
    "history": (["--store", "{IN1}"], ["--store"]),
}
# the outputs each command declares (a new output option must be declared and listed here)
OUTPUTS = {
    "decomposition": {"--record", "--store"},
    "fever": {"--details", "--store", "--out", "--junit", "--summary"},
    "factscore": {"--ledger-dir", "--store", "--out", "--junit", "--summary"},
    "ledger": {"--out", "--junit", "--summary", "--store"},
    "draft": {"--out"},
    "adjudicate": {"--out", "--decisions-template"},
    "convert": {"--out"},
    "sufficiency-cases": {"--out"},
    "rag": {"--store", "--out", "--cache", "--check", "--junit", "--summary"},
    "check": {"--out", "--store", "--cache"},
    "fact-estimate": {"--cache"},
    "citations": {"--cache"},
    "run": {"--output"},
    "handouts": {"--to"},
    "notebooks": {"folder"},
    "history": {"--plot"},
}


def _commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


# the outputs that are folders (the command writes files in them)
FOLDERS = {
    "factscore": {"--ledger-dir"},
    "draft": {"--out"},
    "adjudicate": {"--out"},
    "run": {"--output"},
    "handouts": {"--to"},
    "notebooks": {"folder"},
}


def _declared(p: argparse.ArgumentParser, kinds=(output_path, output_folder)) -> set[str]:
    return {max(a.option_strings, key=len, default=a.dest) for a in p._actions if a.type in kinds}


def test_every_command_declares_exactly_its_outputs():
    declared = {name: _declared(p) for name, p in _commands().items()}
    assert {k: v for k, v in declared.items() if v} == OUTPUTS
    folders = {name: _declared(p, (output_folder,)) for name, p in _commands().items()}
    assert {k: v for k, v in folders.items() if v} == FOLDERS


FOLDER_CASES = [
    (command, folder, src)
    for command, folders in sorted(FOLDERS.items())
    for folder in sorted(folders)
    for src in CALLS[command][1]
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FOLDER_CASES), st.integers(0, 2), st.booleans())
def test_an_output_folder_that_holds_an_input_is_refused(case, spelling, nested):
    """Invariant: a folder the command writes files in never holds one of its inputs (a file it
    writes there could take the input's name), however the folder is spelt."""
    command, folder, src = case
    tmp = Path(os.path.realpath(scratch_dir("claimlab-dir-")))
    (tmp / "sub").mkdir()
    where = tmp / "sub" if nested else tmp
    (where / "q1.json").write_text("{}", encoding="utf-8")  # the input, named as an answer id
    spelt = [str(tmp), str(tmp / "."), str(tmp / "sub" / "..")][spelling]
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        elsewhere = Path(scratch_dir("claimlab-in-"))  # other inputs
        code, err = _run(_argv(command, elsewhere, {folder: spelt, src: str(where / "q1.json")}))
    finally:
        os.chdir(cwd)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert "never holds an input" in lines[0] and "q1.json" in lines[0], err
    assert (where / "q1.json").read_text(encoding="utf-8") == "{}"
    assert sorted(p.name for p in tmp.rglob("*")) == ["q1.json", "sub"]  # nothing written


def _argv(command: str, tmp: Path, given: dict[str, str]) -> list[str]:
    """The command's call with each output in ``given`` (option -> path) and inputs in tmp."""
    base, _ = CALLS[command]
    argv = [command]
    for part in base:
        if part.startswith("{IN"):
            argv.append(given.get(part, str(tmp / f"in{part[3]}.json")))
        elif part == "{OUT}":
            argv.append(given["folder"])
        else:
            argv.append(part)
    for option, path in given.items():
        if option.startswith("--") and option not in base:
            argv += [option, path]
        elif option.startswith("--"):
            argv[argv.index(option) + 1] = path
    return argv


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def _spellings(tmp: Path, name: str) -> list[str]:
    """One path written four ways."""
    return [str(tmp / name), str(tmp / "." / name), str(tmp / "sub" / ".." / name), name]


CASES = [
    (command, a, b)
    for command, outputs in sorted(OUTPUTS.items())
    for a, b in itertools.permutations(sorted(outputs) + CALLS[command][1], 2)
    if a in outputs
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 3), st.integers(0, 3))
def test_two_outputs_or_an_output_and_an_input_naming_one_path_are_refused(case, i, j):
    """Invariant: whatever two of a command's paths (one an output) name one file, exit 2."""
    command, output, other = case
    tmp = Path(os.path.realpath(scratch_dir("claimlab-out-")))
    (tmp / "sub").mkdir()
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        paths = _spellings(tmp, "same.csv")
        code, err = _run(_argv(command, tmp, {output: paths[i], other: paths[j]}))
    finally:
        os.chdir(cwd)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"claimlab {command}: error: ")
    assert "same.csv" in lines[0] and ("two outputs" in lines[0] or "replace the input" in lines[0])
    assert sorted(p.name for p in tmp.iterdir()) == ["sub"]  # nothing read, nothing written


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["ledger", "c.csv", "--units", "u.csv", "--out", "o.csv", "--junit", "o.csv"], "--junit"),
        (["ledger", "c.csv", "--units", "u.csv", "--out", "o.csv", "--summary", "o.csv"], "--out"),
        (["ledger", "c.csv", "--units", "u.csv", "--junit", "o", "--summary", "./o"], "--junit"),
        (["decomposition", "d.json", "--mode", "m", "--record", "r", "--store", "r"], "--record"),
        (["fever", "g", "p", "--details", "g"], "replace the input"),
    ],
)
def test_the_named_collisions_are_refused_in_one_line(argv, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, err = _run(argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err
    assert list(tmp_path.iterdir()) == []


def test_the_same_output_given_by_one_option_and_derived_again_is_one_output(tmp_path):
    from claimlab.notebook.terminal import check_outputs

    out = tmp_path / "o.csv"
    check_outputs([], [("--out", str(out)), ("--out", str(out))])  # one output, twice named
    with pytest.raises(ValueError, match="two outputs"):
        check_outputs([], [("--out", str(out)), ("--junit", str(tmp_path / "." / "o.csv"))])


def test_declared_outputs_lists_what_the_user_gave_by_its_long_option():
    from claimlab.notebook.terminal import declared_outputs

    p = _commands()["ledger"]
    args = p.parse_args(["c.csv", "--units", "u.csv", "--out", "o.csv", "--junit", "j.xml"])
    assert sorted(declared_outputs(p, args)) == [("--junit", "j.xml"), ("--out", "o.csv")]
