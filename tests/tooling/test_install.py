"""Installable anywhere: the built wheel in a fresh virtual environment outside the checkout.

The wheel is built from the project, installed into a new environment in a temporary folder,
and used from there only: ``claimlab --version``, ``claimlab notebooks labs``, then ``claimlab
run`` inside ``labs`` executes every notebook on the copied fixtures, and real data is found
only through ``--data`` (the installed package has no ``../shared/data`` to guess).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = ROOT.parent / "shared" / "data"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FIXTURES = sorted(
    str(p.relative_to(ROOT / "fixtures"))
    for p in [*(ROOT / "fixtures").glob("*.json*"), *(ROOT / "fixtures").glob("*/*.json")]
)

pytestmark = [pytest.mark.install, pytest.mark.xdist_group("install")]


def _uv() -> list[str]:
    found = shutil.which("uv") or shutil.which("uv", path=str(Path(sys.executable).parent))
    if found:
        return [found]
    return [sys.executable, "-m", "uv"]


def _run(args, *, cwd, env, timeout=300):
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, (
        f"{args}: exit {out.returncode}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    )
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel, environment variables, the venv's bin folder, a work folder outside the checkout)."""
    base = tmp_path_factory.mktemp("install")
    env = {
        k: v
        for k, v in os.environ.items()
        # nor the suite's own kernels (tests/forkkernel.py): the wheel's run starts its own
        if k not in ("PYTHONPATH", "CLAIMLAB_DATA", "VIRTUAL_ENV", "JUPYTER_PATH")
        and k != "CLAIMLAB_TEST_FORK_SOCKET"
    }
    # built from a copy, so the build leaves nothing (build/, *.egg-info) in the checkout
    source = base / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "outputs",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".*_cache",
            ".hypothesis",
        ),
    )
    _run(
        [*_uv(), "build", "--quiet", "--wheel", "--out-dir", str(base / "dist"), str(source)],
        cwd=base,
        env=env,
    )
    (wheel,) = (base / "dist").glob("claimlab-*.whl")
    venv = base / "venv"
    _run([*_uv(), "venv", "--quiet", "--python", sys.executable, str(venv)], cwd=base, env=env)
    # bytecode compiled at install, as pip does by default (uv does not): with
    # PYTHONDONTWRITEBYTECODE set, every kernel would otherwise compile pandas and matplotlib
    # again (about 4 s a notebook here)
    python = str(venv / "bin" / "python")
    _run(
        [*_uv(), "pip", "install", "--quiet", "--compile-bytecode", "--python", python, str(wheel)],
        cwd=base,
        env=env,
    )
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    work = base / "work"
    work.mkdir()
    return wheel, env, venv / "bin", work


def test_the_wheel_carries_every_floor_the_notebooks_and_the_fixtures(installed):
    wheel, *_ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for floor in ("core", "io", "metrics", "labs", "notebook", "tooling", "tooling/cli"):
        assert f"claimlab/{floor}/__init__.py" in names
    assert (
        sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("claimlab/_notebooks/"))
        == NOTEBOOKS
    )
    assert (
        sorted(
            n.split("claimlab/_fixtures/", 1)[1]
            for n in names
            if n.startswith("claimlab/_fixtures/") and not n.endswith("__init__.py")
        )
        == FIXTURES
    )


def test_the_installed_claimlab_is_the_wheel_and_knows_its_version(installed):
    _, env, bin_dir, work = installed
    where = _run(
        [str(bin_dir / "python"), "-c", "import claimlab; print(claimlab.__file__)"],
        cwd=work,
        env=env,
    )
    assert Path(where.stdout.strip()).is_relative_to(bin_dir.parent)  # not the checkout
    version = re.search(r'(?m)^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text())[1]
    out = _run(["claimlab", "--version"], cwd=work, env=env)
    assert out.stdout.strip() == f"claimlab {version}"


def test_notebooks_then_run_executes_every_lab_outside_the_checkout(installed):
    _, env, _, work = installed
    out = _run(["claimlab", "notebooks", "labs"], cwd=work, env=env)
    labs = work / "labs"
    assert sorted(p.name for p in (labs / "notebooks").iterdir()) == NOTEBOOKS
    copied = labs / "fixtures"
    assert sorted(str(p.relative_to(copied)) for p in copied.rglob("*") if p.is_file()) == FIXTURES
    assert "cd labs && claimlab run" in out.stdout
    # copying again over unchanged copies is fine; over a copy the user edited it is refused
    _run(["claimlab", "notebooks", "labs"], cwd=work, env=env)
    edited = labs / "notebooks" / NOTEBOOKS[0]
    original = edited.read_bytes()
    edited.write_bytes(original.replace(b'"cells"', b'"cells" ', 1))
    again = subprocess.run(
        ["claimlab", "notebooks", "labs"], cwd=work, env=env, capture_output=True, text=True
    )
    assert again.returncode == 2 and "--force" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and edited.read_bytes() != original
    _run(["claimlab", "notebooks", "labs", "--force"], cwd=work, env=env)
    assert edited.read_bytes() == original

    run = _run(["claimlab", "run"], cwd=labs, env=env, timeout=400)
    assert f"{len(NOTEBOOKS)} of {len(NOTEBOOKS)} notebooks executed" in run.stdout
    for name in NOTEBOOKS:
        stem = name.removesuffix(".ipynb")
        assert (labs / "outputs" / name).is_file()
        records = json.loads((labs / "outputs" / f"{stem}.records.json").read_text())
        assert records["records"], stem
    # no data folder to guess: the real-data lab says how to pass one
    real = json.loads((labs / "outputs" / "03_witnesses_on_real_data.records.json").read_text())
    assert "claimlab run --data DIR" in real["records"]["fever"]["skipped"]


@pytest.mark.skipif(
    not (SHARED_DATA / "fever" / "paper_dev.jsonl").exists(), reason="../shared/data/fever absent"
)
def test_real_data_is_found_through_data_or_the_environment(installed):
    _, env, _, work = installed
    labs = work / "labs"
    if not labs.exists():
        _run(["claimlab", "notebooks", "labs"], cwd=work, env=env)
    for how in (["--data", str(SHARED_DATA)], None):
        run_env = dict(env) if how else {**env, "CLAIMLAB_DATA": str(SHARED_DATA)}
        _run(["claimlab", "run", *(how or []), "03_witnesses_on_real_data"], cwd=labs, env=run_env)
        real = json.loads((labs / "outputs" / "03_witnesses_on_real_data.records.json").read_text())
        fever = real["records"]["fever"]
        assert "skipped" not in fever and fever["counts"]["claims"] == 9999
        assert fever["counts"]["label"]["display"] == "52.1% (5208/9999)"
