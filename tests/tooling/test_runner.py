import os

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.tooling.runner import (
    absolutise_paths,
    declared_parameters,
    parse_value,
    registered_notebooks,
    resolve_notebooks,
)
from tests.conftest import ROOT, run_cli


def test_every_registered_notebook_declares_literal_parameters():
    nbs = registered_notebooks()
    assert nbs, "no notebooks registered"
    for nb in nbs:
        params = declared_parameters(nb)
        assert params, nb


def test_notebooks_are_committed_without_outputs():
    import json

    for nb in registered_notebooks():
        data = json.loads(nb.read_text(encoding="utf-8"))
        for cell in data["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, nb.name


def test_notebooks_define_no_functions_or_classes():
    import json

    for nb in registered_notebooks():
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code":
                assert "def " not in src and "class " not in src, nb.name


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", 3),
        ("true", True),
        ('["a", "b"]', ["a", "b"]),
        ("my.json", "my.json"),
        ("all", "all"),
        ("[" * 5000 + "]" * 5000, "[" * 5000 + "]" * 5000),
    ],  # too deep to read: the text itself
)
def test_parse_value(text, value):
    assert parse_value(text) == value


def test_absolutise_paths_only_touches_existing_relative_files(tmp_path):
    (tmp_path / "my.json").write_text("{}")
    out = absolutise_paths({"FIXTURE": "my.json", "MODES": "all", "N": 3}, cwd=tmp_path)
    assert out == {"FIXTURE": str(tmp_path / "my.json"), "MODES": "all", "N": 3}


def test_resolve_unknown_notebook_names_the_registered_ones():
    with pytest.raises(
        ClaimlabInputError, match="unknown notebook .registered: 01_decomposition_pitfalls"
    ):
        resolve_notebooks(["99_nothing"])


def test_cli_run_refuses_undeclared_parameter(tmp_path):
    proc = run_cli("run", "01", "-p", "NOPE", "1", "--output", tmp_path)
    assert proc.returncode == 2  # refused input: one line on stderr
    assert "undeclared parameter(s) NOPE" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.ipynb"))


@pytest.mark.journey  # claimlab run, as a user runs it
def test_cli_run_with_users_own_file_and_parameters(tmp_path):
    import shutil

    shutil.copy(ROOT / "fixtures" / "atlas_nova_th.json", tmp_path / "mine.json")
    proc = run_cli(
        "run",
        ROOT / "notebooks" / "01_decomposition_pitfalls.ipynb",
        "-p",
        "FIXTURE",
        "mine.json",
        "-p",
        "MODES",
        '["empty"]',
        "--output",
        tmp_path / "out",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[1/1] 01_decomposition_pitfalls ... ok" in proc.stdout
    assert "summary: 1 of 1 notebooks executed" in proc.stdout
    from claimlab.notebook.records import load_records

    rec = load_records(tmp_path / "out" / "01_decomposition_pitfalls.records.json")
    assert rec["fixture"] == str(tmp_path / "mine.json")
    assert rec["results"]["empty"]["coverage"]["display"] == "0.0% (0/5)"


@pytest.mark.parametrize("fails", [False, True])
def test_a_kernels_own_stderr_is_shown_only_when_the_run_fails(capfd, fails):
    """What a process started during a run (a kernel) writes to its standard error stays off
    the terminal when the run succeeds (libzmq's shutdown assertion once broke the progress
    lines), and follows the failure when it fails."""
    import subprocess
    import sys

    from claimlab.tooling.runner import _kernels_stderr_aside

    noise = [sys.executable, "-c", "import os; os.write(2, b'kernel noise\\n')"]
    try:
        with _kernels_stderr_aside():
            subprocess.run(noise, check=True)
            if fails:
                raise RuntimeError("Kernel died")
    except RuntimeError:
        assert fails
    sys.stderr.write("after\n")
    err = capfd.readouterr().err
    assert ("kernel noise" in err) == fails and err.endswith("after\n")


def _notebook(path, parameters, *cells):
    """A notebook at ``path``: a ``parameters`` cell, then the code ``cells``."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Py"}
    nb.cells = [
        nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]}),
        *map(nbformat.v4.new_code_cell, cells),
    ]
    nbformat.write(nb, path)
    return path


def test_a_runs_kernel_talks_over_sockets_in_a_folder_of_its_own(tmp_path):
    """A kernel given TCP ports picked free a moment before it binds them can lose one to any
    other process (a make test once waited 60 s on a kernel that could not bind its port and
    did not die): the runner's kernels use IPC sockets in a temporary folder made for the run,
    and the folder is gone when the run ends."""
    import json
    import os

    import nbformat

    from claimlab.tooling.runner import run_notebook

    path = _notebook(
        tmp_path / "where.ipynb",
        "WHERE = 1",
        "import ipykernel, json\ninfo = ipykernel.get_connection_info(unpack=True)\n"
        'print(json.dumps({k: info[k] for k in ("transport", "ip")}))',
    )
    result = run_notebook(path, output_dir=tmp_path / "out")
    printed = nbformat.read(result.notebook, as_version=4).cells[-1].outputs[0].text
    info = json.loads(printed)
    assert info["transport"] == "ipc"
    folder = os.path.dirname(info["ip"])
    assert os.path.basename(folder).startswith(f".claimlab-kernel.{os.getpid()}-")
    assert not os.path.exists(folder)


def test_a_kernel_that_will_not_end_after_its_run_is_ended_and_the_run_kept(tmp_path):
    """ipykernel 7 now and then blocks its own shutdown (its control thread waits on a socket
    the closing IOPub thread no longer reads): the runner's kernel manager waits
    ``KERNEL_SHUTDOWN_WAIT`` seconds in all, not jupyter_client's five, then terminates and
    kills it. A kernel that ignores both the shutdown request and SIGTERM is ended all the
    same, and the notebook and its records are written whole."""
    import json

    from claimlab.tooling.runner import KERNEL_SHUTDOWN_WAIT, _kernel_sockets, run_notebook

    with _kernel_sockets() as config:
        assert config.KernelManager.shutdown_wait_time == KERNEL_SHUTDOWN_WAIT < 5
    path = _notebook(
        tmp_path / "stubborn.ipynb",
        "N = 1",
        "import signal, threading\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "threading.Thread(target=threading.Event().wait).start()  # never ends, not daemon",
        "from claimlab.notebook.records import record\nrecord('n', N + 1)",
    )
    result = run_notebook(path, parameters={"N": 41}, output_dir=tmp_path / "out")
    assert result.records == {"n": 42}
    assert json.loads(result.records_path.read_text(encoding="utf-8"))["records"] == {"n": 42}


def _gone(pid: int) -> bool:
    """Whether a process has ended (absent, or a zombie nobody reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_a_process_the_kernel_left_in_its_group_is_ended_with_the_run(tmp_path, user_kernels):
    """A notebook that forks a child ignoring SIGINT and SIGTERM and leaves it running: once
    the kernel has ended, what is left of its process group is killed, so the run leaves no
    process behind holding the standard output it shares (a pipe into ``tee`` stayed open for
    the child's whole life). A cold kernel, as a user's: the suite's forked kernels are in
    a session of their own."""
    import json
    import time

    from claimlab.tooling.runner import run_notebook

    path = _notebook(
        tmp_path / "forks.ipynb",
        "LABEL = 'x'",
        "import os, signal, time\n"
        "from claimlab.notebook.records import record\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "    signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "    time.sleep(300)\n"
        "    os._exit(0)\n"
        "record('child', child)\nrecord('label', LABEL)",
    )
    result = run_notebook(path, parameters={"LABEL": "çatal"}, output_dir=tmp_path / "out")
    child = result.records["child"]
    try:
        deadline = time.monotonic() + 10  # a killed process ends a moment after the signal
        while not _gone(child) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert result.records["label"] == "çatal" and _gone(child)
        saved = json.loads(result.records_path.read_text(encoding="utf-8"))["records"]
        assert saved["label"] == "çatal"
    finally:
        if not _gone(child):
            os.kill(child, 9)
