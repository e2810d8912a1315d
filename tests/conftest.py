import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATA = Path(os.environ.get("CLAIMLAB_DATA", ROOT.parent / "shared" / "data"))


def load_json(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.fixture
def write_variant(tmp_path):
    """Write a modified copy of a fixture: write_variant("atlas_nova.json", fn) -> path."""

    def make(name, mutate, filename=None):
        data = copy.deepcopy(load_json(name))
        mutate(data)
        path = tmp_path / (filename or name)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return path

    return make


def run_cli(*args, cwd=ROOT, check=False):
    """Run the installed command as a user would."""
    exe = Path(sys.executable).parent / "claimlab"
    proc = subprocess.run([str(exe), *map(str, args)], cwd=cwd, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"claimlab {args} failed: {proc.stderr}")
    return proc


def require_data(*parts):
    """The path of a shared data file, or skip with a clear message when it is absent."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not found at {path} (set CLAIMLAB_DATA or place ../shared/data)")
    return path


@pytest.fixture(scope="session")
def hostile_files(tmp_path_factory):
    """The hostile corpus as input files (tests/hostile/corpus.py), written once per process."""
    from tests.hostile.files import write_hostile_files

    return write_hostile_files(tmp_path_factory.mktemp("hostile-files"))


@pytest.fixture(scope="session")
def hostile_runs(hostile_files, tmp_path_factory):
    """Every notebook executed on the hostile corpus once: (folder, {stem: result or error})."""
    from tests.hostile.files import run_hostile_notebooks

    out = tmp_path_factory.mktemp("hostile-runs")
    return out, run_hostile_notebooks(hostile_files, out)
