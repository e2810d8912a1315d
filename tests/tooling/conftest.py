"""The wheel installed outside the checkout, and one full run of its labs, shared by the tests
of installing (test_install.py) and of printing the handouts (test_handouts_print.py).

Both run in the ``print`` group, on one worker: the wheel is built and installed once, its
``claimlab run`` executes every notebook once (cold kernels, as a user's), and the handouts
printed from that run are the ones the printing tests read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from claimlab.tooling.handouts import find_chromium

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = ROOT.parent / "shared" / "data"


def uv() -> list[str]:
    """The uv command of this environment."""
    found = shutil.which("uv") or shutil.which("uv", path=str(Path(sys.executable).parent))
    if found:
        return [found]
    return [sys.executable, "-m", "uv"]


def run_ok(args, *, cwd, env, timeout=300):
    """Run a command that must succeed; its output on failure."""
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, (
        f"{args}: exit {out.returncode}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    )
    return out


def _user_env() -> dict[str, str]:
    """The environment without the checkout's paths, data or the suite's own kernels
    (tests/forkkernel.py): the wheel's run starts its own. Bytecode is written (as a user's
    Python does unless told not to): each module is compiled the first time it is imported."""
    drop = (
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONPATH",
        "CLAIMLAB_DATA",
        "VIRTUAL_ENV",
        "JUPYTER_PATH",
        "CLAIMLAB_TEST_FORK_SOCKET",
    )
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    """(wheel, environment variables, the venv's bin folder, a work folder outside the checkout)."""
    base = tmp_path_factory.mktemp("install")
    env = _user_env()
    # built from a copy, so the build leaves nothing (build/, *.egg-info) in the checkout
    source = base / "source"
    skip = (".git", ".venv", "outputs", "build", "dist", "*.egg-info", "__pycache__",
            ".*_cache", ".hypothesis")  # fmt: skip
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*skip))
    dist = base / "dist"
    run_ok([*uv(), "build", "--quiet", "--wheel", "--out-dir", str(dist), str(source)],
           cwd=base, env=env)  # fmt: skip
    (wheel,) = dist.glob("claimlab-*.whl")
    venv = base / "venv"
    run_ok([*uv(), "venv", "--quiet", "--python", sys.executable, str(venv)], cwd=base, env=env)
    # no bytecode compiled at install (uv's default; pip compiles): the modules a run imports are
    # compiled as it first imports them (about 2 s of CPU), not every module of every
    # dependency (8 s); PYTHONDONTWRITEBYTECODE is left out of the environment (_user_env), or
    # every kernel would compile pandas and matplotlib again (about 4 s a notebook here)
    python = str(venv / "bin" / "python")
    run_ok([*uv(), "pip", "install", "--quiet", "--python", python, str(wheel)],
           cwd=base, env=env)  # fmt: skip
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    work = base / "work"
    work.mkdir()
    return wheel, env, venv / "bin", work


@pytest.fixture(scope="session")
def installed_run(installed):
    """``claimlab notebooks labs`` then ``claimlab run`` inside ``labs``, as a user of the wheel
    does; then real data's lab again with ``--data`` (when ../shared/data is here) and
    ``claimlab handouts``. Returns the labs folder, what each command said, and the records of
    the real-data lab as the first run left them (no data folder to guess)."""
    _, env, _, work = installed
    said = [run_ok(["claimlab", "notebooks", "labs"], cwd=work, env=env).stdout]
    labs = work / "labs"
    run = run_ok(["claimlab", "run"], cwd=labs, env=env, timeout=400)
    said.append(run.stdout + run.stderr)
    real = labs / "outputs" / "03_witnesses_on_real_data.records.json"
    without_data = real.read_text(encoding="utf-8")
    if (SHARED_DATA / "fever").is_dir():
        again = ["claimlab", "run", "--data", str(SHARED_DATA), "03_witnesses_on_real_data"]
        said.append(run_ok(again, cwd=labs, env=env).stdout)
    out = labs / "outputs"
    if find_chromium() is None:  # the printing tests say so and skip
        return SimpleNamespace(labs=labs, said=said, run=run.stdout, without_data=without_data)
    made = run_ok(["claimlab", "handouts", "--from", out, "--to", out / "handouts"],
                  cwd=labs, env=env, timeout=400)  # fmt: skip
    said.append(made.stdout + made.stderr)
    return SimpleNamespace(labs=labs, said=said, run=run.stdout, without_data=without_data)
