"""Lint, types and floors: ruff (code, tests, benchmarks, quality scripts, notebooks and the docs hook), mypy, the import contract."""

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

BIN = Path(sys.executable).parent
TARGETS = ["claimlab", "tests", "benchmarks", "quality", "notebooks", "docs"]


def run(*args):
    return subprocess.run([str(a) for a in args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_lint_and_format_are_clean():
    lint = run(BIN / "ruff", "check", *TARGETS)
    assert lint.returncode == 0, lint.stdout
    fmt = run(BIN / "ruff", "format", "--check", *TARGETS)
    assert fmt.returncode == 0, fmt.stdout


def test_mypy_strict_is_clean_on_every_floor():
    out = run(BIN / "mypy", "--strict", "claimlab")
    assert out.returncode == 0, out.stdout[-3000:]
    assert "Success: no issues found" in out.stdout


def test_each_floor_imports_only_from_the_floors_below_it():
    """The layers contract of pyproject.toml, checked by import-linter (not a hand-written walk)."""
    out = run(BIN / "lint-imports")
    assert out.returncode == 0, out.stdout[-3000:]
    assert "0 broken" in out.stdout


def test_a_floor_that_imports_upward_breaks_the_contract(tmp_path):
    """The contract can fail: a copy of the package with one upward import is refused."""
    import shutil

    pkg = tmp_path / "claimlab"
    shutil.copytree(ROOT / "claimlab", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    bad = pkg / "metrics" / "ratio_view.py"
    bad.write_text("from claimlab.notebook import display  # noqa\n")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    out = subprocess.run(
        [str(BIN / "lint-imports")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode != 0 and "broken" in out.stdout
