"""A class that moves from game 06 to game 07: a closed page frees its kernel (issue 42).

Five students in real chromium pages open game 06 on ``claimlab serve --max-kernels 8``, play
nothing, close it and open game 07: all ten page views are served, and no more than eight
kernels ever run. Before, a closed page kept its kernel for ``--cull-idle`` (600 s) and the
second game was refused ("The classroom is full") on a server of eight for five students.
"""

from __future__ import annotations

import time

import pytest

from claimlab.tooling.rush import free_port, kernels_of, start_server, stop_server
from tests.conftest import server_tracebacks

pytestmark = [
    pytest.mark.usefixtures("user_kernels"),
    pytest.mark.browser,
    pytest.mark.xdist_group("browser"),
]
STUDENTS = 5


def _open_all(browser, url, button, students):
    """The students' pages, asked for together (a class arrives at once): each one's context
    and HTTP status, once every served page shows its game's button."""
    opened = []
    for _ in range(students):
        ctx = browser.new_context(viewport={"width": 1200, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(120_000)
        opened.append((ctx, page, page.goto(url, wait_until="commit")))
    out = []
    for ctx, page, answer in opened:
        if answer is not None and answer.status == 200:
            page.locator(button).first.wait_for()
        out.append((ctx, answer.status if answer is not None else 0))
    return out


def _wait_until(test, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not test():
        time.sleep(0.25)
    return test()


def test_five_students_close_game_06_and_open_game_07_on_eight_kernels(browser, tmp_path):
    log = tmp_path / "serve.log"
    proc = start_server(
        ["--max-kernels", "8", "--warm", "1", "--cull-idle", "600"], free_port(), log
    )
    port = proc.args[proc.args.index("--port") + 1]
    base = f"http://127.0.0.1:{port}/voila/render"
    peak = 0
    try:
        statuses = {}
        for game, button in (
            ("06_decomposition_game", ".claimlab-check"),
            ("07_sufficiency_game", ".claimlab-submit"),
        ):
            pages = []
            for ctx, status in _open_all(browser, f"{base}/{game}.ipynb", button, STUDENTS):
                pages.append(ctx)
                statuses.setdefault(game, []).append(status)
                peak = max(peak, len(kernels_of(proc.pid)))
            running = len(kernels_of(proc.pid))
            for ctx in pages:  # the students close the page (the browser's unload)
                ctx.close()
            # every page's kernel is freed within seconds (the warm pages, one per game, stay)
            most = running - STUDENTS + 1
            assert _wait_until(lambda most=most: len(kernels_of(proc.pid)) <= most, 30), (
                running,
                len(kernels_of(proc.pid)),
            )
        assert statuses == {
            g: [200] * STUDENTS for g in ("06_decomposition_game", "07_sufficiency_game")
        }
        assert peak <= 8
    finally:
        left = stop_server(proc)
    assert left == []
    text = log.read_text(errors="replace")
    assert "freed: its page was closed" in text and server_tracebacks(text) == []
