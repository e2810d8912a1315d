"""A small class opening a game at once on ``claimlab serve`` (loopback): the cap holds.

The benchmark (``benchmarks/bench_classroom.py``) gives the figures for 1 to 60 students; this
test keeps the behaviour: with ``--max-kernels 3`` and 8 students at once, at most 3 kernels
ever run, every student is answered (a page or "the classroom is full", HTTP 503, never a
hang), no kernel start fails on a taken port, and SIGTERM leaves no kernel running.
"""

from __future__ import annotations

import pytest

from claimlab.tooling.rush import (
    free_port,
    kernels_of,
    rush,
    start_server,
    stop_server,
    wait_for_kernels,
)

pytestmark = [pytest.mark.notebook, pytest.mark.xdist_group("browser")]


def test_a_class_of_eight_on_a_cap_of_three(tmp_path):
    log = tmp_path / "serve.log"
    port = free_port()
    proc = start_server(["--max-kernels", "3", "--cull-idle", "600"], port, log)
    try:
        assert wait_for_kernels(proc.pid, 2) == 2  # one warm page per game: 2 of the 3
        url = f"http://127.0.0.1:{port}/voila/render/06_decomposition_game.ipynb"
        first = rush(url, 8, server_pid=proc.pid, marker="Decomposition game", timeout=120)
        assert first.peak_kernels <= 3 and len(kernels_of(proc.pid)) <= 3
        assert {v.status for v in first.visits} <= {200, 503}  # every one answered
        assert all(v.page for v in first.visits if v.status == 200)
        # the warm page of 06, and room made by stopping 07's: 2 or 3 served, the rest refused
        assert 2 <= len(first.served) <= 3 and first.refused == 8 - len(first.served)
        assert max(v.seconds for v in first.visits if v.status == 503) < 10  # at once
        assert all(
            v.reason.startswith("The classroom is full (3 games running)")
            for v in first.visits
            if v.status == 503
        )
        again = rush(url, 4, server_pid=proc.pid, marker="Decomposition game", timeout=120)
        assert again.refused == 4 and again.peak_kernels <= 3  # full, whatever the timing
    finally:
        left = stop_server(proc)
    assert left == []  # SIGTERM stopped every kernel, warm ones included
    text = log.read_text(errors="replace")
    assert "Address already in use" not in text and "Traceback" not in text


def test_a_kernel_that_dies_before_it_answers_is_a_clear_error_within_seconds(tmp_path):
    """The games' kernel crashes as it starts (a kernelspec whose process exits at once): the
    student gets "could not start ... reload the page" (HTTP 503) within seconds, never a page
    that waits for ever, and nothing is left running."""
    import json
    import os
    import sys
    import time
    import urllib.error
    import urllib.request

    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    crash = [sys.executable, "-c", "import sys; sys.exit(3)", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": crash, "display_name": "crashes", "language": "python"})
    )
    env = {**os.environ, "JUPYTER_PATH": str(tmp_path / "jupyter")}
    log, port = tmp_path / "serve.log", free_port()
    proc = start_server(["--warm", "0", "--cull-idle", "600"], port, log, env=env)
    try:
        url = f"http://127.0.0.1:{port}/voila/render/06_decomposition_game.ipynb"
        started = time.monotonic()
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(url, timeout=60)
        waited = time.monotonic() - started
        body = answer.value.read().decode("utf-8", "replace")
        assert answer.value.code == 503 and "could not start" in answer.value.reason
        assert "503: This game could not start" in body and "reload the page" in body
        assert waited < 15, waited
    finally:
        left = stop_server(proc)
    assert left == []
