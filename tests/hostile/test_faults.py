"""Killed, interrupted and out of space: good outputs survive, nothing is left behind for long.

Real processes, real signals and a real write limit (RLIMIT_FSIZE: the kernel refuses to let
the file grow, as a full disk would); no mocks.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from claimlab.tooling.handouts import find_chromium
from tests.conftest import FIXTURES, ROOT

EXE = Path(sys.executable).parent / "claimlab"
pytestmark = [pytest.mark.notebook, pytest.mark.xdist_group("faults")]


def _as_from_a_terminal() -> None:
    """In the child: SIGINT as a terminal delivers it.

    A shell running the suite in the background hands its jobs SIGINT ignored, and Ctrl-C
    would then never arrive.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*args, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [str(EXE), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_from_a_terminal,  # noqa: PLW1509 - before exec, no threads
        **kwargs,
    )


def wait_for(condition, timeout: float = 60.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"{what} not seen within {timeout} s")


def temps(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.claimlab-tmp*"))


def processes_with(marker: str) -> list[int]:
    out = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_kill_9_during_a_run_keeps_the_good_output_and_the_next_run_clears_the_leftover(tmp_path):
    """The output and the kernel's folder (its sockets and connection file, in the system's
    temporary folder) that a killed run leaves are removed by the next run; the good output is
    kept. Killed once the kernel has started: its connection file is in that folder, not loose
    in the temporary folder where no run would know it as its own."""
    from tests.scratch import scratch_dir

    system_tmp = scratch_dir(prefix="k9-")  # short: the kernel's socket paths fit in it
    env = {**os.environ, "TMPDIR": str(system_tmp)}
    run = [EXE, "run", "01", "--output", tmp_path]
    subprocess.run(run, check=True, capture_output=True, env=env)
    good = (tmp_path / "01_decomposition_pitfalls.ipynb").read_bytes()
    assert list(system_tmp.iterdir()) == []  # a run that ends leaves nothing there
    proc = start("run", "01", "--output", tmp_path, env=env)
    wait_for(lambda: temps(tmp_path), what="the run's temporary notebook")
    connection = "*.claimlab-kernel.*/kernel-*.json"
    wait_for(lambda: list(system_tmp.glob(connection)), what="the kernel's connection file")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert temps(tmp_path), "kill -9 leaves the temporary file (nothing can remove it then)"
    assert [p.name.split(".")[1] for p in system_tmp.iterdir()] == ["claimlab-kernel"]
    assert (tmp_path / "01_decomposition_pitfalls.ipynb").read_bytes() == good
    subprocess.run(run, check=True, capture_output=True, env=env)
    assert temps(tmp_path) == [] and list(system_tmp.iterdir()) == []


def test_sigterm_during_a_run_is_handled_like_ctrl_c(tmp_path):
    proc = start("run", "01", "--output", tmp_path)
    wait_for(lambda: temps(tmp_path), what="the run's temporary notebook")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)  # a run that ignored it would end 0, not 130
    assert proc.returncode == 130 and "interrupted" in err
    assert temps(tmp_path) == []
    assert not (tmp_path / "01_decomposition_pitfalls.ipynb").exists()


def test_a_killed_writers_leftover_is_removed_by_the_next_write(tmp_path):
    rows = {"answer_id": "a", "candidate_id": "c", "fingerprint": "f", "preserves": ["U1"],
            "faithful": True, "atomic": True, "status": "SUPPORTED"}  # fmt: skip
    (tmp_path / "c.jsonl").write_text(json.dumps(rows) + "\n")
    (tmp_path / "u.jsonl").write_text(json.dumps({"answer_id": "a", "unit_id": "U1"}) + "\n")
    pid = dead_pid()
    leftover = tmp_path / f".out.csv.{pid}-0badf00d.claimlab-tmp"
    leftover.write_text("half a file")
    alive = tmp_path / f".out.csv.{os.getpid()}-0badf00d.claimlab-tmp"  # a writer still running
    alive.write_text("being written")
    subprocess.run(
        [EXE, "ledger", tmp_path / "c.jsonl", "--units", tmp_path / "u.jsonl", "--out",
         tmp_path / "out.csv"], check=True, capture_output=True,
    )  # fmt: skip
    assert not leftover.exists() and alive.exists()
    assert (tmp_path / "out.csv").read_text().startswith("model,") or (
        tmp_path / "out.csv"
    ).exists()


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    if find_chromium() is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    out = tmp_path_factory.mktemp("executed")
    subprocess.run([EXE, "run", "01", "04", "--output", out], check=True, capture_output=True)
    return out


def _printing(proc: subprocess.Popen) -> list[int]:
    return processes_with(f".claimlab-chromium.{proc.pid}-")


def test_a_killed_handout_run_takes_its_chromium_with_it(executed, tmp_path):
    target = tmp_path / "handouts"
    proc = start("handouts", "--from", executed, "--to", target, "--format", "pdf")
    wait_for(lambda: _printing(proc), what="a printing chromium")
    os.kill(proc.pid, signal.SIGKILL)  # the command only: its chromium must notice alone
    proc.wait()
    wait_for(lambda: not _printing(proc), timeout=15, what="chromium gone after its parent")
    profiles = sorted(Path("/tmp").glob(f".claimlab-chromium.{proc.pid}-*"))
    assert profiles, "kill -9 leaves the profile folder for the next run"
    subprocess.run(
        [EXE, "handouts", "--from", executed, "--to", target, "--format", "pdf"],
        check=True,
        capture_output=True,
    )
    assert not any(p.exists() for p in profiles)
    assert temps(target) == []
    assert sorted(p.name for p in target.glob("*.pdf")) == [
        "01_decomposition_pitfalls.instructor.pdf",
        "01_decomposition_pitfalls.student.pdf",
        "04_factscore.instructor.pdf",
        "04_factscore.student.pdf",
    ]


def test_ctrl_c_while_printing_returns_within_seconds_and_leaves_nothing(executed, tmp_path):
    for attempt in range(3):  # a signal that lands after the last page was printed: again
        target = tmp_path / f"handouts{attempt}"
        proc = start("handouts", "--from", executed, "--to", target, "--format", "pdf")
        wait_for(lambda proc=proc: _printing(proc), what="a printing chromium")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        if proc.returncode != 0 or len(list(target.glob("*.pdf"))) < 4:
            break
    assert proc.returncode == 130 and "interrupted" in err
    assert _printing(proc) == []
    assert not sorted(Path("/tmp").glob(f".claimlab-chromium.{proc.pid}-*"))
    assert temps(target) == []


def _limit_file_size(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_replaces_neither_file_of_a_ledger(tmp_path):
    responses = []
    for i in range(300):
        facts = [
            {"text": f"fact {i}.{k} " + "x" * 40, "label": "S" if k % 3 else "NS"}
            for k in range(30)
        ]
        responses.append(
            {
                "topic": f"t{i}",
                "cat": ["rare"],
                "annotations": [
                    {
                        "text": "s",
                        "is-relevant": True,
                        "model-atomic-facts": facts,
                        "human-atomic-facts": facts,
                    }
                ],
            }  # fmt: skip
        )
    src = tmp_path / "ChatGPT.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in responses))
    out = tmp_path / "ledgers"
    out.mkdir()
    old = {
        name: f"old {name}".encode()
        for name in ("ChatGPT.candidates.parquet", "ChatGPT.units.parquet")
    }
    for name, content in old.items():
        (out / name).write_bytes(content)
    proc = subprocess.run(
        [EXE, "factscore", src, "--irrelevant", "exclude", "--ledger-dir", out],
        capture_output=True,
        text=True,
        preexec_fn=_limit_file_size(16_384),
        # no bytecode written under the limit: a module compiled there for the first time
        # would leave a .pyc cut at 16 KiB in the checkout ("marshal data too short" after)
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "cannot write" in proc.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == old


def test_the_serve_folder_holds_the_games_only(tmp_path):
    from claimlab.tooling.serve import GAME_NOTEBOOKS, prepare_games_folder

    copies = prepare_games_folder(ROOT / "notebooks", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(GAME_NOTEBOOKS)
    assert all(p.exists() for p in copies)
    assert FIXTURES.exists()


def test_a_killed_adjudicate_takes_its_worker_processes_with_it(tmp_path):
    """kill -9 of the command alone (not its group): the workers it forked end with it, at
    once, instead of running on under init (SIGTERM did not stop them either)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from scale_inputs import annotator_folders

    ana, ben = annotator_folders(tmp_path, 12_000)  # six chunks: the work is shared out
    proc = start("adjudicate", ana, ben, "--out", tmp_path / "gold")

    def workers() -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    forked = wait_for(workers, timeout=120, what="adjudicate's worker processes")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    try:
        wait_for(lambda: not any(map(_running, forked)), timeout=10, what="the workers' end")
    finally:
        for pid in filter(_running, forked):  # never left running by a failing run
            os.kill(pid, signal.SIGKILL)


def _running(pid: int) -> bool:
    """Whether a process is alive and not a zombie awaiting its reaper."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False
