"""A wrong word on the command line is refused by the command it was given to, with a hint.

Invariants (hypothesis): a misspelt option of any subcommand is refused in one line by that
subcommand (its name and its ``--help``), never by the top level, and a did-you-mean names one
of that subcommand's own options.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.tooling.cli import build_parser, main

PARSER = build_parser()
COMMANDS = sorted(PARSER.commands)


def _refusal(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@st.composite
def misspelt_options(draw):
    command = draw(st.sampled_from(COMMANDS))
    options = [o for o in PARSER.commands[command].options() if o.startswith("--") and len(o) > 6]
    if not options:
        return command, None, []
    option = draw(st.sampled_from(options))
    cut = draw(st.integers(min_value=3, max_value=len(option) - 2))
    typo = option[:cut] + option[cut + 1 :]
    all_options = PARSER.commands[command].options()
    if any(o.startswith(typo) for o in all_options):  # an abbreviation argparse accepts
        return command, None, []
    return command, typo, all_options


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(misspelt_options())
def test_a_misspelt_option_is_refused_by_its_own_command(capsys, case):
    command, typo, options = case
    if typo is None:
        return
    err = _refusal(capsys, [command, typo])
    assert err.startswith(f"claimlab {command}: error: ")
    assert err.rstrip().endswith(f"(see claimlab {command} --help)")
    assert "--context ID1" not in err or "--context" in options
    if "did you mean" in err:
        suggested = err.split("did you mean ")[1].split("?")[0]
        assert suggested in options


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["decomposition", "x.json", "--mode", "m", "--jsn"],
            "claimlab decomposition: error: unrecognized arguments: --jsn (did you mean --json?)"
            " (see claimlab decomposition --help)\n",
        ),
        (
            ["history", "--store", "x.sqlite", "--metrc", "f1"],
            "claimlab history: error: unrecognized arguments: --metrc f1 (did you mean --metric?)"
            " (see claimlab history --help)\n",
        ),
        (["decompositon", "x"], "(did you mean decomposition?) (see claimlab --help)\n"),
        (["factscore", "x", "--irrelevant", "paperr"], "'paperr' (choose from"),
        (["citations", "x", "--context", "T1", "T2"], "comma-separated (--context ID1,ID2)"),
    ],
)
def test_named_cases(capsys, argv, expected):
    err = _refusal(capsys, argv)
    assert expected in err
    if argv[0] != "citations":
        assert "--context ID1" not in err  # the hint belongs to the commands that take --context
