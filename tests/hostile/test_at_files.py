"""Files named beside the main input: ``@FILE`` lists, pipes, devices, a line of megabytes.

The rules: an ``@FILE`` of every option is read by one reader (a pipe read, never waited on;
a device refused; ``@`` alone named as such); a ``--decide`` line that cannot be read is named
by its file and line; an error never echoes a value of megabytes (one line of at most
``ERROR_WIDTH`` characters and what it says it cut). The pipes run in a process of their own
with a timeout: waiting on a writer that never comes is the failure they look for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from claimlab.core.text import ERROR_WIDTH
from tests.conftest import FIXTURES
from tests.hostile.test_loaders_property import run

ROOT = Path(__file__).resolve().parents[2]  # this checkout's package, in every process
ANNOTATORS = sorted((FIXTURES / "annotations").glob("*.json"))[:2]
# each option that takes @FILE, as a user gives it: (command, arguments before the @FILE)
AT_OPTIONS = {
    "decomposition --select": ["decomposition", str(FIXTURES / "atlas_nova.json"), "--select"],
    "sufficiency --context": [
        "sufficiency",
        str(FIXTURES / "aurora.json"),
        "--question",
        "room",
        "--context",
    ],  # fmt: skip
    "adjudicate --decide": ["adjudicate", *map(str, ANNOTATORS), "--decide"],
}


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from claimlab.tooling.cli import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=cwd, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


@pytest.mark.parametrize("option", sorted(AT_OPTIONS))
def test_an_at_file_that_is_a_pipe_with_no_writer_is_read_not_waited_on(option, tmp_path):
    pipe = tmp_path / "ids.pipe"
    os.mkfifo(pipe)
    extra = ["--out", tmp_path / "gold.json"] if option.startswith("adjudicate") else []
    proc = _cli([*AT_OPTIONS[option], f"@{pipe}", *extra], tmp_path)  # waited on: timeout
    assert proc.returncode in (0, 2), proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) <= 1


@pytest.mark.parametrize("option", sorted(AT_OPTIONS))
def test_an_at_sign_alone_names_no_file_and_says_so(option, tmp_path):
    extra = ["--out", tmp_path / "gold.json"] if option.startswith("adjudicate") else []
    code, _, err = run([*AT_OPTIONS[option], "@", *extra])
    assert code == 2 and "@ names no file" in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("option", ["adjudicate --decide", "decomposition --select"])
def test_an_at_file_with_a_line_of_megabytes_gives_one_short_line(option, tmp_path):
    """(``sufficiency --context`` takes an unknown id as evidence it cannot map: no error.)"""
    ids = tmp_path / "ids.txt"
    ids.write_text("S1.faithful=" + "x" * 3_000_000 + "\n", encoding="utf-8")
    extra = ["--out", tmp_path / "gold.json"] if option.startswith("adjudicate") else []
    code, _, err = run([*AT_OPTIONS[option], f"@{ids}", *extra])
    assert code == 2 and len(err.splitlines()) == 1, err[:300]
    assert len(err) < ERROR_WIDTH + 200 and "more characters cut" in err, err[-200:]


def test_a_decision_that_cannot_be_read_is_named_by_its_file_and_line(tmp_path):
    decisions = tmp_path / "decisions.txt"
    decisions.write_text("# ties\n\nS1.faithful=true\nS2.atomic=maybe\n", encoding="utf-8")
    code, _, err = run([*AT_OPTIONS["adjudicate --decide"], f"@{decisions}",
                        "--out", tmp_path / "gold.json"])  # fmt: skip
    assert code == 2, err
    assert f"{decisions}: line 4 (S2): --decide: atomic is true or false, got 'maybe'" in err
    assert not (tmp_path / "gold.json").exists()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_given_as_an_input_file_is_refused_not_read(device, tmp_path):
    proc = _cli(["decomposition", device, "--json"], tmp_path)  # /dev/zero read: no end
    assert proc.returncode == 2 and f"{device}: is a device or a socket, not a file" in proc.stderr


def test_a_named_pipe_with_a_writer_is_read_as_its_file(tmp_path):
    """``<(...)`` of a shell: the pipe has a writer, and its bytes are the file."""
    proc = subprocess.run(
        ["bash", "-c", f'{sys.executable} -c "import sys; from claimlab.tooling.cli import main; '
         f'sys.exit(main())" decomposition <(sleep 0.3; cat {FIXTURES / "atlas_nova.json"}) '
         "--mode baseline --json"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert '"coverage"' in proc.stdout


def test_a_decision_naming_a_candidate_the_files_lack_is_named_by_its_file_and_line(tmp_path):
    decisions = tmp_path / "decisions.txt"
    decisions.write_text("S1.faithful=true\nS99.atomic=true\n", encoding="utf-8")
    code, _, err = run([*AT_OPTIONS["adjudicate --decide"], f"@{decisions}",
                        "--out", tmp_path / "gold.json"])  # fmt: skip
    assert code == 2 and f"{decisions}: line 2 (S99): --decide: unknown candidate id" in err, err
