import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_ruff_lint_and_format_are_clean():
    ruff = Path(sys.executable).parent / "ruff"
    targets = ["claimlab", "tests", "benchmarks"]
    lint = subprocess.run([str(ruff), "check", *targets], cwd=ROOT, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout
    fmt = subprocess.run(
        [str(ruff), "format", "--check", *targets], cwd=ROOT, capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stdout
