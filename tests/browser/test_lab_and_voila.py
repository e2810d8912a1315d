"""JupyterLab and Voila in Debian chromium: run the interactive notebooks, click, and read the page."""

import json
import time

import pytest

from claimlab.io.decomposition import load_decomposition
from tests.browser.conftest import SCREENSHOTS, record_timing
from tests.conftest import DATA, FIXTURES

pytestmark = [
    pytest.mark.usefixtures("user_kernels"),
    pytest.mark.browser,
    pytest.mark.notebook,
    pytest.mark.xdist_group("browser"),
]


def metric(page, name):
    return page.locator(f'[data-metric="{name}"]').first.inner_text()


# JupyterLab already loaded in a page (the shared ``lab_page``): its notebooks and their kernels
# closed, as a person closes every tab, without loading the application again (about 3 s a test)
CLOSE_ALL = """async () => {
  const app = window.jupyterapp;
  for (const w of [...app.shell.widgets('main')]) {
    if (w.sessionContext?.session) await w.sessionContext.shutdown();
    if (w.context) w.context.model.dirty = false;
    w.dispose();
  }
}"""


def open_and_run_all(page, base, token, notebook, *, reuse=False):
    """Open ``notebook`` in JupyterLab and run all its cells, then wait until every cell ran.

    ``reuse``: the page is the shared ``lab_page``; when it already shows this server's
    JupyterLab, every open notebook is closed (its kernel shut down) and this one opened in it.
    """
    # a dialog left open by an earlier test (one that failed half-way): load the lab afresh
    loaded = (
        reuse
        and page.url.startswith(f"{base}/lab")
        and page.evaluate("() => typeof window.jupyterapp === 'object'")
        and page.locator(".jp-Dialog").count() == 0
    )
    if loaded:
        page.evaluate(CLOSE_ALL)
        page.evaluate(
            "async (path) => { await window.jupyterapp.commands.execute("
            "'docmanager:open', {path, factory: 'Notebook'}); }",
            notebook,
        )
    else:
        # a workspace of its own, reset, so no earlier notebook is restored beside this one
        workspace = notebook.split(".")[0]
        page.goto(f"{base}/lab/workspaces/{workspace}/tree/{notebook}?token={token}&reset")
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first
    panel.wait_for()
    # the kernel is really ready when this notebook's execution indicator says idle
    panel.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').first.wait_for()
    # and its debugger button is enabled (the kernel answered its info request): clicks are not lost
    panel.locator('.jp-DebuggerBugButton[aria-disabled="false"]').first.wait_for(state="attached")
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # every cell has run when each code cell shows an execution count and the kernel is idle
    page.wait_for_function(
        "() => { const cells = [...document.querySelectorAll("
        "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];"
        " return cells.length > 0 && cells.every(c => /\\[\\d+\\]/.test(c.textContent)); }"
    )
    panel.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').first.wait_for()


def click_and_time(page, locator, metric_name, expected):
    """Click, then wait until the metric shows the expected text; return milliseconds."""
    started = time.perf_counter()
    locator.click()
    page.wait_for_function(
        "([name, want]) => { const el = document.querySelector(`[data-metric='${name}']`); return el && el.textContent.trim() === want; }",
        arg=[metric_name, expected],
    )
    return (time.perf_counter() - started) * 1000


def test_decomposition_explorer_and_game_in_jupyterlab(lab_server, lab_page):
    base, token = lab_server
    page = lab_page
    open_and_run_all(page, base, token, "06_decomposition_game.ipynb", reuse=True)
    c4 = page.locator("button.claimlab-cand-C4").first
    c4.wait_for()
    # the explorer starts with nothing selected: N/A shown as such
    page.wait_for_function(
        "document.querySelector(`[data-metric='preservation']`)?.textContent.trim() === 'N/A (0/0)'"
    )
    assert metric(page, "coverage") == "0.0% (0/5)"
    source = page.locator(".claimlab-game-source").first.inner_text()  # the game's sources
    for ref in load_decomposition(FIXTURES / "atlas_nova.json").references:
        assert ref.text in source, ref.id
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".claimlab-metrics").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "lab_decomposition_explorer_empty.png"))
    for cid in ("C1", "C2", "C3", "C5"):
        page.locator(f"button.claimlab-cand-{cid}").first.click()
    page.wait_for_function(
        "document.querySelector(`[data-metric='confirmed_support']`)?.textContent.trim() === '75.0% (3/4)'"
    )
    ms = click_and_time(page, c4, "confirmed_support", "60.0% (3/5)")
    record_timing("lab: toggle C4 -> metrics updated", ms)
    assert metric(page, "coverage") == "100.0% (5/5)"
    # win the game: the first round (supported_only) -> add C4 and C5, annotate, Check
    for cid in ("C4", "C5"):
        page.locator(f"button.claimlab-game-{cid}").first.click()
    truth = {
        "C1": "SUPPORTED",
        "C2": "SUPPORTED",
        "C3": "SUPPORTED",
        "C4": "NOT_IN_REFERENCE",
        "C5": "CONTRADICTED",
    }
    for cid, status in truth.items():
        page.locator(f".claimlab-annot-{cid} select").first.select_option(status)
    page.wait_for_function(
        "document.querySelector('.claimlab-message')?.textContent.includes('C5 annotated CONTRADICTED')"
    )
    page.locator("button.claimlab-check").first.click()
    page.wait_for_function("document.querySelector('.claimlab-board')?.textContent.includes('WON')")
    # the round is over: its controls are locked until Reset, so no verdict can go stale
    page.wait_for_function("document.querySelector('button.claimlab-check')?.disabled === true")
    assert page.locator(".claimlab-annot-C4 select").first.is_disabled()
    assert "press Reset to play again" in page.locator(".claimlab-message").first.inner_text()
    page.locator(".claimlab-board").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "lab_decomposition_game_won.png"))


def test_sufficiency_explorer_in_jupyterlab(lab_server, lab_page):
    base, token = lab_server
    page = lab_page
    open_and_run_all(page, base, token, "07_sufficiency_game.ipynb", reuse=True)
    page.locator(".claimlab-sufficiency-box .claimlab-status").first.wait_for()
    page.locator("button.claimlab-ev-E1").first.click()
    page.wait_for_function(
        "document.querySelector('.claimlab-sufficiency-box')?.textContent.includes('missing E2')"
    )
    started = time.perf_counter()
    page.locator("button.claimlab-ev-E2").first.click()
    page.wait_for_function(
        "document.querySelector('.claimlab-sufficiency-box .claimlab-status')?.textContent === 'SUFFICIENT'"
    )
    record_timing("lab: toggle E2 -> status updated", (time.perf_counter() - started) * 1000)
    page.locator("button.claimlab-ev-E8").first.click()
    page.wait_for_function(
        "document.querySelector('.claimlab-sufficiency-box')?.textContent.includes('E8 (metadata)')"
    )
    page.locator(".claimlab-ignore input").first.check()
    page.wait_for_function(
        "document.querySelector('.claimlab-sufficiency-box')?.textContent.includes('UNSAFE CANDIDATE')"
    )
    page.locator(".claimlab-sufficiency-box").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "lab_sufficiency_explorer.png"))


def test_sufficiency_game_won_in_voila(voila_server, page):
    page.goto(f"{voila_server}/voila/render/07_sufficiency_game.ipynb")
    page.locator("button.claimlab-search-E2").first.wait_for()
    page.locator("button.claimlab-search-E2").first.click()
    page.wait_for_function("document.querySelector('.claimlab-budget')?.textContent === '5'")
    page.locator(".claimlab-cite-E1 input").first.check()
    page.locator(".claimlab-cite-E2 input").first.check()
    page.locator(".claimlab-answer-room select").first.select_option("Room A3")
    page.locator("button.claimlab-submit").first.click()
    page.wait_for_function("document.querySelector('.claimlab-board')?.textContent.includes('WON')")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "voila_sufficiency_game_won.png"), full_page=True)


def test_decomposition_explorer_in_voila(voila_server, page):
    page.goto(f"{voila_server}/voila/render/06_decomposition_game.ipynb")
    page.locator("button.claimlab-cand-C6").first.wait_for()
    for cid in ("C1", "C2", "C3", "C4", "C5"):
        page.locator(f"button.claimlab-cand-{cid}").first.click()
    page.wait_for_function(
        "document.querySelector(`[data-metric='raw_support']`)?.textContent.trim() === '60.0% (3/5)'"
    )
    c6 = page.locator("button.claimlab-cand-C6").first
    ms = click_and_time(page, c6, "raw_support", "66.7% (4/6)")
    record_timing("voila: toggle C6 -> metrics updated", ms)
    assert metric(page, "confirmed_support") == "60.0% (3/5)"
    page.screenshot(path=str(SCREENSHOTS / "voila_decomposition_explorer.png"), full_page=True)


def _serve(*args):
    """``claimlab serve`` on a free port: (process, base URL, port).

    A port found free can be taken by another process (a kernel's or a browser's connection in
    the other test worker) before the server binds it; the server then refuses to start, and a
    new port is tried. Any other early exit fails with the server's own output.
    """
    import subprocess
    import sys
    from pathlib import Path

    from tests.browser.conftest import free_port, wait_http

    exe = Path(sys.executable).parent / "claimlab"
    if "--warm" not in args:  # one warm page per game: the default pool (8 each) is for a class,
        args = (*args, "--warm", "1")  # and would take the suite's two cores while it warms
    for attempt in range(3):
        port = free_port()
        proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(port), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_http(f"http://127.0.0.1:{port}/", proc)
        except RuntimeError:
            out = proc.stdout.read() if proc.stdout else ""
            if f"port {port} on" in out and "already in use" in out and attempt < 2:
                continue
            raise RuntimeError(f"claimlab serve exited with {proc.returncode}: {out}") from None
        return proc, f"http://127.0.0.1:{port}", port
    raise AssertionError("unreachable")


def _shown(page) -> str:
    return page.locator("body").inner_text()


def test_classroom_student_pages_play_choose_and_reset_without_spoilers(page, chromium):
    """claimlab serve (student view) in chromium: no solution, no status count before Check;
    a round is chosen, played, won and reset; the evidence texts are on the page."""
    from tests.browser.conftest import stop

    proc, base, _ = _serve()
    try:
        page.goto(f"{base}/voila/render/06_decomposition_game.ipynb")
        page.locator("button.claimlab-game-C4").first.wait_for()
        before = _shown(page)
        for spoiler in (
            "Solutions.",
            "A scripted round",
            "SUPPORTED 3",
            "duplicates:",
            "Toy Confirmed Support",
        ):
            assert spoiler not in before, spoiler
        assert page.locator("[data-metric]").count() == 0  # no metric anywhere before Check
        # what a player decides from: the answer (its units marked) and every reference's text
        fx = load_decomposition(FIXTURES / "atlas_nova.json")
        source = page.locator(".claimlab-game-source").first.inner_text()
        answer = page.locator(".claimlab-game-source .claimlab-original").first.evaluate(
            "el => { const c = el.cloneNode(true); c.querySelectorAll('sup').forEach((s) => s.remove()); return c.textContent; }"
        )
        assert answer.strip() == fx.original.text
        for ref in fx.references:
            assert ref.text in before and ref.text in source, ref.id
        marks = page.locator(".claimlab-game-source mark.claimlab-unit")
        assert [m.inner_text() for m in marks.all()] == [u.span.text for u in fx.units]
        page.locator(".claimlab-round select").first.select_option(
            label="Products mixed (products_mixed)"
        )
        page.wait_for_function(
            "document.querySelector('.claimlab-intro')?.textContent.includes('Products mixed')"
        )
        for cid in ("C9", "C10"):
            page.locator(f"button.claimlab-game-{cid}").first.click()
        page.locator("button.claimlab-game-C1").first.click()
        truth = {"C1": "SUPPORTED", "C2": "SUPPORTED", "C3": "SUPPORTED",
                 "C4": "NOT_IN_REFERENCE", "C5": "CONTRADICTED"}  # fmt: skip
        for cid, status in truth.items():
            page.locator(f".claimlab-annot-{cid} select").first.select_option(status)
        page.wait_for_function(
            "document.querySelector('.claimlab-message')?.textContent.includes('C5 annotated')"
        )
        assert page.locator("[data-metric]").count() == 0  # still nothing before Check
        page.locator("button.claimlab-check").first.click()
        page.wait_for_function(
            "document.querySelector('.claimlab-board')?.textContent.includes('WON')"
        )
        assert page.locator("[data-metric]").count() == 4  # the metrics after Check
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "classroom_decomposition_won.png"), full_page=True)
        page.locator("button.claimlab-reset").first.click()
        page.wait_for_function(
            "!document.querySelector('.claimlab-board')?.textContent.includes('WON')"
        )
        assert page.locator("[data-metric]").count() == 0
        page.screenshot(path=str(SCREENSHOTS / "classroom_decomposition_reset.png"), full_page=True)

        page.goto(f"{base}/voila/render/07_sufficiency_game.ipynb")
        page.locator("button.claimlab-search-E2").first.wait_for()
        text = _shown(page)
        assert "The Solar Route leads to Room A3." in text  # what the evidence says
        for spoiler in ("Solutions.", "A scripted round", "SUFFICIENT", "witness:"):
            assert spoiler not in text, spoiler
        page.locator(".claimlab-round select").first.select_option("route_and_room")
        page.wait_for_function("document.querySelector('.claimlab-answer-route select') !== null")
        for eid in ("E3", "E4"):
            page.locator(f"button.claimlab-search-{eid}").first.click()
        page.wait_for_function("document.querySelector('.claimlab-budget')?.textContent === '4'")
        page.locator(".claimlab-cite-E3 input").first.check()
        page.locator(".claimlab-cite-E4 input").first.check()
        page.locator(".claimlab-answer-route select").first.select_option("Orbit Building")
        page.locator(".claimlab-answer-room select").first.select_option("Room A3")
        page.locator("button.claimlab-submit").first.click()
        page.wait_for_function(
            "document.querySelector('.claimlab-board')?.textContent.includes('WON')"
        )
        page.screenshot(path=str(SCREENSHOTS / "classroom_sufficiency_won.png"), full_page=True)
        page.locator("button.claimlab-reset").first.click()
        page.wait_for_function("document.querySelector('.claimlab-budget')?.textContent === '6'")
        assert not page.locator(".claimlab-cite-E3 input").first.is_checked()
        assert page.locator(".claimlab-answer-route select").first.input_value() == "(choose)"
        assert "WON" not in page.locator(".claimlab-board").first.inner_text()
        page.screenshot(path=str(SCREENSHOTS / "classroom_sufficiency_reset.png"), full_page=True)
        kernels = children_of(proc.pid)
        assert kernels  # the games' kernels
    finally:
        stop(proc)
    # stopping the command stops the server and its kernels: nothing is left running behind
    port = int(base.rsplit(":", 1)[1])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (alive(kernels) or serving(port)):
        time.sleep(0.25)
    assert not alive(kernels) and not serving(port)


def test_classroom_instructor_view_plays_the_teachers_own_files(tmp_path):
    """--instructor shows the solutions; --decomposition / --sufficiency play the teacher's files."""
    import urllib.request

    from tests.browser.conftest import stop
    from tests.own_files import own_decomposition, own_sufficiency

    proc, base, _ = _serve(
        "--instructor",
        "--decomposition",
        str(own_decomposition(tmp_path)),
        "--sufficiency",
        str(own_sufficiency(tmp_path)),
    )
    try:
        pages = {}
        for nb in ("06_decomposition_game", "07_sufficiency_game"):
            with urllib.request.urlopen(f"{base}/voila/render/{nb}.ipynb", timeout=120) as r:
                pages[nb] = r.read().decode("utf-8")
        assert "Maple Tea House serves oat milk." in pages["06_decomposition_game"]
        assert "Desk 4 sends its passengers to Gate 17." in pages["07_sufficiency_game"]
        for html in pages.values():
            assert "Solutions." in html  # the instructor view
            assert "Atlas" not in html and "Aurora" not in html
    finally:
        stop(proc)


def _processes():
    """(pid, parent pid, command line) of every process, read from /proc."""
    from pathlib import Path

    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.append((int(d.name), ppid, cmd))
    return out


def children_of(pid):
    return [p for p, parent, _ in _processes() if parent == pid]


def alive(pids):
    return [p for p, _, cmd in _processes() if p in pids and cmd]


def serving(port):
    return [p for p, _, cmd in _processes() if f"--port={port}" in cmd]


# (notebook, text its first output must show once run): every other notebook, as a researcher
# opens it in JupyterLab; real data sections skip with a message when ../shared/data is absent
LAB_NOTEBOOKS = [
    ("01_decomposition_pitfalls.ipynb", "N/A (0/0)"),
    ("02_evidence_sufficiency.ipynb", "INSUFFICIENT"),
    ("03_witnesses_on_real_data.ipynb", "FEVER"),
    ("04_factscore.ipynb", "FActScore"),
    ("05_context_and_citations.ipynb", "REJECT"),
    ("08_your_ledger.ipynb", "(decomposer, answer) pairs"),
    ("11_rag_diagnostics.ipynb", "noise_sensitivity_in_relevant"),
]


@pytest.mark.parametrize(("notebook", "shows"), LAB_NOTEBOOKS, ids=[n for n, _ in LAB_NOTEBOOKS])
def test_every_notebook_runs_all_in_jupyterlab_without_errors(
    lab_server, lab_page, notebook, shows
):
    base, token = lab_server
    page = lab_page
    open_and_run_all(page, base, token, notebook, reuse=True)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first
    errors = panel.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert errors.count() == 0, errors.first.inner_text()[:2000]
    text = panel.inner_text()
    assert "Traceback" not in text and shows in text
    if notebook.startswith(("03_", "11_")) and not DATA.exists():  # every part reads real data
        assert "this part is skipped" in text
    else:
        assert panel.locator(".jp-RenderedImage img").count() >= 1  # the figures are drawn
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"lab_{notebook.split('.')[0]}.png"))


def test_make_lab_starts_jupyterlab_offline(tmp_path):
    """`make lab` serves JupyterLab (as root too) with no update check or PyPI extension search."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    from tests.browser.conftest import server_env
    from tests.conftest import ROOT

    log = tmp_path / "lab.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            ["make", "--no-print-directory", "lab"],
            cwd=ROOT,
            env=server_env(tmp_path),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make and the server in one group, stopped together
        )
    try:
        deadline = time.monotonic() + 120
        found = None
        while not found and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
            found = re.search(r"http://127\.0\.0\.1:\d+/lab\?token=\w+", log.read_text())
        assert found, log.read_text()[-2000:]
        url = found.group(0)
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200
        text = log.read_text()
        assert "Extension Manager is 'readonly'" in text and "Running as root" not in text
        # the news toast is off: the lab's settings say no to news (seen in chromium by hand)
        overrides = json.loads(
            (
                Path(sys.executable).parent.parent / "share/jupyter/lab/settings/overrides.json"
            ).read_text()
        )
        assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def test_classroom_server_serves_the_games_only_caps_and_culls_kernels(tmp_path):
    """Only the game notebooks render; a third page view past --max-kernels 2 is refused (503);
    a closed page's kernel is stopped after --cull-idle; a taken port is an error up front.
    (No warm pages here: warm pages are never culled; tests/tooling/test_rush.py.)"""
    import subprocess
    import sys
    import urllib.error
    import urllib.request
    from pathlib import Path

    from tests.browser.conftest import stop

    exe = Path(sys.executable).parent / "claimlab"
    proc, _, port = _serve("--max-kernels", "2", "--cull-idle", "3", "--warm", "0")

    def status(path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code

    try:
        assert status("/voila/render/01_decomposition_pitfalls.ipynb") == 404
        assert status("/voila/render/05_context_and_citations.ipynb") == 404
        assert status("/voila/render/06_decomposition_game.ipynb") == 200
        assert status("/voila/render/07_sufficiency_game.ipynb") == 200
        assert status("/voila/render/06_decomposition_game.ipynb") == 503  # the cap: 2 kernels
        assert len(children_of(proc.pid)) == 2
        # both pages are closed (no websocket ever opened): culled after 3 s idle
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and children_of(proc.pid):
            time.sleep(0.5)
        assert children_of(proc.pid) == []
        assert status("/voila/render/06_decomposition_game.ipynb") == 200  # room again
        taken = subprocess.run(
            [str(exe), "serve", "--port", str(port)], capture_output=True, text=True, timeout=60
        )
        assert taken.returncode == 2 and f"port {port}" in taken.stderr
        assert taken.stdout == ""  # no address printed for a server that never listens
    finally:
        stop(proc)


def test_annotator_in_jupyterlab_select_text_make_a_unit_confirm_reload_and_see_it_kept(
    lab_server, workdir, lab_page
):
    """A person selects text with the mouse, makes a unit, confirms a candidate, reloads."""
    base, token = lab_server
    page = lab_page
    open_and_run_all(page, base, token, "09_annotate.ipynb", reuse=True)
    answer = page.locator(".claimlab-answer").first
    answer.wait_for()
    answer.scroll_into_view_if_needed()
    first = answer.locator("span").first  # the first unit's text: "Lumen Reader 3.2 opens ..."
    box = first.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 1, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.4, y, steps=8)
    page.mouse.up()
    selected = page.evaluate("() => window.getSelection().toString()")
    assert selected and selected.startswith("Lumen")
    status = page.locator(".claimlab-selection").first
    page.wait_for_function(
        "() => document.querySelector('.claimlab-selection').textContent.startsWith('selected 0..')"
    )
    shown = status.inner_text()
    end = int(shown.split("..")[1].split(" ")[0])
    assert end == len(selected.encode("utf-16-le")) // 2  # UTF-16 offsets of what was selected
    page.locator(".claimlab-new-unit button, button.claimlab-new-unit").first.click()
    message = page.locator(".claimlab-message").first
    message.get_by_text(f"Unit U4 marked at 0..{end}; saved.").wait_for()
    # the keyboard: n steps to the next candidate, c confirms it
    answer.focus()
    page.keyboard.press("n")
    page.locator(".claimlab-candidate-text").get_by_text("S2").first.wait_for()
    page.keyboard.press("c")
    message.get_by_text("S2 confirmed by annotator; saved.").wait_for()
    progress = page.locator(".claimlab-progress").first
    assert "1 of 6 candidates confirmed · 1 of 4 units confirmed" in progress.inner_text()
    saved = workdir.parent / "outputs" / "annotation" / "reader-en.annotator.json"
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert any(u["span"] == {"start": 0, "end": end, "text": selected} for u in doc["units"])
    # reload the page and run the notebook again: the work is kept and resumed
    page.reload()
    open_and_run_all(page, base, token, "09_annotate.ipynb")
    progress = page.locator(".claimlab-progress").first
    progress.wait_for()
    assert "1 of 6 candidates confirmed · 1 of 4 units confirmed" in progress.inner_text()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    annotator = page.locator(".claimlab-annotator").first
    annotator.scroll_into_view_if_needed()
    annotator.screenshot(path=str(SCREENSHOTS / "lab_09_annotate.png"))
