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


@pytest.fixture(autouse=True)
def _remove_scratch():
    """Remove the folders a test's examples asked for (tests/scratch.py) when it ends."""
    from tests.scratch import remove_scratch

    yield
    remove_scratch()


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


def doc_section(title):
    """The text under a heading of README.md or a docs page, up to the next heading as high.

    The README's long sections moved into the site's pages (docs/); a test that runs what a
    section shows reads it wherever it now lives, by its heading's title.
    """
    import re

    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        found = re.search(rf"^(#+) {re.escape(title)}[ \t]*$", text, re.M)
        if found:
            level = len(found.group(1))
            rest = text[found.end() :]
            end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
            return rest[: end.start()] if end else rest
    raise AssertionError(f"no heading {title!r} in README.md or docs/")


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


# the long groups (each runs on one worker, start to end, longest first) are handed out first,
# then the other slow tests, so that the short tests fill the end of the run on both workers
# instead of one worker idling while the other finishes a long group; "browser" keeps every
# test of a real chromium or JupyterLab on one worker, the hostile corpus's too: one lab
# server, one chromium and one first load of JupyterLab's page (about 8 s), not one per worker
LONG_GROUPS = ("browser", "print", "faults")  # "print" holds the install tests
HOSTILE_DIR = ROOT / "tests" / "hostile"  # the hostile level (marker `hostile`)


def pytest_collection_modifyitems(session, config, items):
    def rank(item):
        marker = item.get_closest_marker("xdist_group")
        name = (marker.args[0] if marker.args else marker.kwargs.get("name")) if marker else None
        if name in LONG_GROUPS:
            return LONG_GROUPS.index(name)
        return len(LONG_GROUPS) + (0 if item.get_closest_marker("slow") else 1)

    for item in items:  # the long groups are a tier of their own: `make test-fast` leaves them out
        if rank(item) < len(LONG_GROUPS):
            item.add_marker(pytest.mark.long)
        if HOSTILE_DIR in item.path.parents:  # the hostile level: `make test` only
            item.add_marker(pytest.mark.hostile)
    mark_grid_points(items)
    items.sort(key=rank)  # stable: the order within each rank is the collection order


def mark_grid_points(items):
    """A notebook test's parameter grid (tests/notebooks/): its first point stays in the quick
    tier, every other point is marked ``grid`` (run by `make test`, left out by `make test-fast`)."""
    seen = set()
    for item in items:
        if item.path.parent.name != "notebooks" or not hasattr(item, "callspec"):
            continue
        key = (item.path, item.originalname)
        if key in seen:
            item.add_marker(pytest.mark.grid)
        seen.add(key)


# ------------------------------------------------------------------ the suite's kernels
# Each worker starts one zygote (tests/forkkernel.py) and points the ``python3`` kernelspec at
# it, so every papermill run in this process and in the commands it starts gets a real
# ipykernel forked with its libraries imported, instead of two seconds of imports per kernel.
# CLAIMLAB_TEST_COLD_KERNELS=1 turns it off (every kernel cold, as a user's).
_ZYGOTE = {}


def pytest_sessionstart(session):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    distributed = getattr(session.config.option, "dist", "no") != "no"
    if os.environ.get("CLAIMLAB_TEST_COLD_KERNELS") or (distributed and not worker):
        return
    import tempfile

    from tests.forkkernel import SOCKET_ENV

    home = Path(tempfile.mkdtemp(prefix="claimlab-kernels-"))
    spec_dir = home / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3").to_dict()
    launcher = Path(__file__).with_name("forkkernel.py")
    spec["argv"] = [sys.executable, "-I", "-S", str(launcher), "launch", "-f", "{connection_file}"]
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    sock = home / "zygote.sock"
    log = open(home / "zygote.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, str(launcher), "serve", str(sock)],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    _ZYGOTE.update(proc=proc, home=home, log=log)
    os.environ["JUPYTER_PATH"] = str(home)
    os.environ[SOCKET_ENV] = str(sock)


@pytest.fixture
def user_kernels(monkeypatch):
    """The kernelspec a user has, not the suite's forked kernels: for tests that start a server
    (``claimlab serve``) and count, time or kill its kernel processes."""
    from tests.forkkernel import SOCKET_ENV

    if "JUPYTER_PATH" in os.environ and SOCKET_ENV in os.environ:
        monkeypatch.delenv("JUPYTER_PATH")
        monkeypatch.delenv(SOCKET_ENV)


def pytest_sessionfinish(session):
    proc = _ZYGOTE.pop("proc", None)
    if proc is not None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        _ZYGOTE["log"].close()
        import shutil

        shutil.rmtree(_ZYGOTE["home"], ignore_errors=True)


# pyzmq's ZMQStream logs this when a kernel's socket is closed while a callback for it is still
# queued (a race of the libraries when a kernel is shut down, reported upstream in
# zeromq/pyzmq and jupyter/jupyter_client): the kernel is stopped as asked, nothing fails
_CLOSE_RACE = "zmq.error.ZMQError: Socket operation on non-socket"


def server_tracebacks(log: str) -> list[str]:
    """The tracebacks a server's log holds, but the libraries' socket-close race."""
    out = []
    for part in log.split("Traceback (most recent call last):")[1:]:
        lines = [line for line in part.splitlines() if line.strip()]
        last = next((line.strip() for line in lines if not line.startswith((" ", "\t"))), "")
        if last != _CLOSE_RACE:
            out.append("Traceback (most recent call last):" + part[:2000])
    return out
