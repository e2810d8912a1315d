"""Installable anywhere: the built wheel in a fresh virtual environment outside the checkout.

The wheel is built from the project, installed into a new environment in a temporary folder,
and used from there only: ``claimlab --version``, ``claimlab notebooks labs``, then ``claimlab
run`` inside ``labs`` executes every notebook on the copied fixtures, and real data is found
only through ``--data`` (the installed package has no ``../shared/data`` to guess).
"""

from __future__ import annotations

import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.tooling.conftest import ROOT, SHARED_DATA, run_ok

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FIXTURES = sorted(
    str(p.relative_to(ROOT / "fixtures"))
    for p in [*(ROOT / "fixtures").glob("*.json*"), *(ROOT / "fixtures").glob("*/*.json")]
)

# one worker builds and installs the wheel and runs its labs once for this file and the
# handouts printing tests (tests/tooling/conftest.py)
pytestmark = [pytest.mark.install, pytest.mark.xdist_group("print")]


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
    where = run_ok(
        [str(bin_dir / "python"), "-c", "import claimlab; print(claimlab.__file__)"],
        cwd=work,
        env=env,
    )
    assert Path(where.stdout.strip()).is_relative_to(bin_dir.parent)  # not the checkout
    version = re.search(r'(?m)^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text())[1]
    out = run_ok(["claimlab", "--version"], cwd=work, env=env)
    assert out.stdout.strip() == f"claimlab {version}"


def test_notebooks_copies_the_labs_and_keeps_a_users_edit(installed):
    _, env, _, work = installed
    out = run_ok(["claimlab", "notebooks", "my-labs"], cwd=work, env=env)
    labs = work / "my-labs"
    assert sorted(p.name for p in (labs / "notebooks").iterdir()) == NOTEBOOKS
    copied = labs / "fixtures"
    assert sorted(str(p.relative_to(copied)) for p in copied.rglob("*") if p.is_file()) == FIXTURES
    assert "cd my-labs && claimlab run" in out.stdout
    # copying again over unchanged copies is fine; over a copy the user edited it is refused
    run_ok(["claimlab", "notebooks", "my-labs"], cwd=work, env=env)
    edited = labs / "notebooks" / NOTEBOOKS[0]
    original = edited.read_bytes()
    edited.write_bytes(original.replace(b'"cells"', b'"cells" ', 1))
    again = subprocess.run(
        ["claimlab", "notebooks", "my-labs"], cwd=work, env=env, capture_output=True, text=True
    )
    assert again.returncode == 2 and "--force" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and edited.read_bytes() != original
    run_ok(["claimlab", "notebooks", "my-labs", "--force"], cwd=work, env=env)
    assert edited.read_bytes() == original


def test_run_executes_every_lab_outside_the_checkout(installed_run):
    labs = installed_run.labs
    assert f"{len(NOTEBOOKS)} of {len(NOTEBOOKS)} notebooks executed" in installed_run.run
    for name in NOTEBOOKS:
        stem = name.removesuffix(".ipynb")
        assert (labs / "outputs" / name).is_file()
        records = json.loads((labs / "outputs" / f"{stem}.records.json").read_text())
        assert records["records"], stem
    # no data folder to guess: the real-data lab says how to pass one
    real = json.loads(installed_run.without_data)
    assert "claimlab run --data DIR" in real["records"]["fever"]["skipped"]


@pytest.mark.skipif(
    not (SHARED_DATA / "fever" / "paper_dev.jsonl").exists(), reason="../shared/data/fever absent"
)
def test_real_data_is_found_through_data_or_the_environment(installed, installed_run):
    """The run of the labs passed ``--data`` to the real-data lab (tests/tooling/conftest.py);
    here ``CLAIMLAB_DATA`` finds it the same way."""
    _, env, _, _ = installed
    labs = installed_run.labs
    records = labs / "outputs" / "03_witnesses_on_real_data.records.json"
    for how in ("--data", "CLAIMLAB_DATA"):
        if how == "CLAIMLAB_DATA":
            run_env = {**env, "CLAIMLAB_DATA": str(SHARED_DATA)}
            run_ok(["claimlab", "run", "03_witnesses_on_real_data"], cwd=labs, env=run_env)
        fever = json.loads(records.read_text())["records"]["fever"]
        assert "skipped" not in fever and fever["counts"]["claims"] == 9999, how
        assert fever["counts"]["label"]["display"] == "52.1% (5208/9999)"
