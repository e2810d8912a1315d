"""Real servers on 127.0.0.1 (JupyterLab, Voila) and a real Debian chromium driven by Playwright."""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from claimlab.tooling.handouts import find_chromium
from tests.conftest import ROOT

SCREENSHOTS = ROOT / "outputs" / "screenshots"
TIMINGS = SCREENSHOTS / "timings.json"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port():
    """A port no other test worker picks, below the range the system hands out by itself.

    ``bind(0)`` gives any free port, and two workers (or a kernel's outgoing connection) can be
    handed the same one before a server binds it. Each worker picks from its own band instead
    (gw0 20000-24999, gw1 25000-29999, no worker 15000-19999), all below the kernel's ephemeral
    range, and only a port that binds now is returned.
    """
    import random

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    band = int(worker[2:]) + 1 if worker.startswith("gw") and worker[2:].isdigit() else 0
    low = 15000 + 5000 * min(band, 3)
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(low, low + 5000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port between {low} and {low + 4999}")


def wait_http(url, proc, timeout=120):
    """Poll until the server answers (bounded), failing early if it died."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError as exc:
            last = exc
        time.sleep(0.25)
    raise TimeoutError(f"{url} not ready after {timeout}s: {last}")


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def chromium():
    path = find_chromium()
    if path is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return path


@pytest.fixture(scope="session")
def workdir(tmp_path_factory):
    """A copy of the notebooks, so a browser session never writes into the repository."""
    d = tmp_path_factory.mktemp("lab")
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        shutil.copy(nb, d / nb.name)
    return d


def server_env(home, *, forked_kernels=False):
    """A server's environment in its own Jupyter folders; ``forked_kernels`` keeps the suite's
    kernelspec (tests/forkkernel.py) for a JupyterLab whose tests drive pages only."""
    env = dict(os.environ)
    env.update(
        {
            "JUPYTER_CONFIG_DIR": str(home / "config"),
            "JUPYTER_DATA_DIR": str(home / "data"),
            "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
            "IPYTHONDIR": str(home / "ipython"),
        }
    )
    if not forked_kernels:
        env.pop("JUPYTER_PATH", None)
    # every cell stays in the DOM (no windowing), so tests can read any output
    settings = home / "lab-settings"
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True, exist_ok=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"})
    )
    # no prompt about fetching news from the internet over the page (nothing leaves this machine)
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
    (
        settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    ).write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env["JUPYTERLAB_SETTINGS_DIR"] = str(settings)
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(home / "workspaces")
    return env


@pytest.fixture(scope="session")
def lab_server(workdir, tmp_path_factory):
    home = tmp_path_factory.mktemp("lab-home")
    port = free_port()
    token = "claimlab-test"
    log = open(home / "lab.log", "w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={workdir}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.news_url=",
            "--ServerApp.disable_check_xsrf=True",
            # window.jupyterapp: the shared lab_page opens each test's notebook in the loaded lab
            "--LabApp.expose_app_in_browser=True",
        ],
        cwd=workdir,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=server_env(home, forked_kernels=True),
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/api/status?token={token}", proc)
        yield f"http://127.0.0.1:{port}", token
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="session")
def voila_server(workdir, tmp_path_factory):
    home = tmp_path_factory.mktemp("voila-home")
    port = free_port()
    log = open(home / "voila.log", "w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voila",
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--show_tracebacks=True",
            str(workdir),
        ],
        cwd=workdir,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=server_env(home),
    )
    try:
        wait_http(f"http://127.0.0.1:{port}/", proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="session")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    yield pg
    ctx.close()


@pytest.fixture(scope="session")
def lab_page(browser):
    """One page for the JupyterLab sessions of this worker: the application loads once, and each
    test closes the notebooks before it and opens its own (``open_and_run_all(reuse=True)``)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(120_000)
    yield pg
    ctx.close()


def record_timing(name, ms):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    data = json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}
    data.setdefault(name, []).append(round(ms, 1))
    TIMINGS.write_text(json.dumps(data, indent=2))
    print(f"{name}: {ms:.1f} ms")
