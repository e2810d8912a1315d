"""The documentation site: built in strict mode from an executed notebook, opened from file://.

`mkdocs build --strict` fails on a broken link, a missing page or an unresolved API name; the
built site is then opened in Debian chromium with every request to the network refused: search
finds a word, and a gallery page shows the notebook's figures.
"""

import os
import subprocess
import sys

import pytest

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.xdist_group("browser")]

# one notebook with figures, tables and an N/A: the gallery's page, and its index naming the
# notebooks this build did not execute
NOTEBOOKS = ("01_decomposition_pitfalls",)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="the docs tools are not installed (make setup)")
    executed = tmp_path_factory.mktemp("docs-notebooks")
    for stem in NOTEBOOKS:
        run_notebook(ROOT / "notebooks" / f"{stem}.ipynb", output_dir=executed)
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "CLAIMLAB_DOCS_NOTEBOOKS": str(executed), "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert not (ROOT / ".cache").exists()  # nothing written into the checkout
    return out


def test_every_command_and_format_has_its_page(site):
    import argparse

    from claimlab.tooling.cli import build_parser

    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(sub.choices) >= 20
    for name in sub.choices:
        page = (site / "reference" / "commands" / f"{name}.html").read_text(encoding="utf-8")
        assert f"claimlab {name}" in page and "usage:" in page
    formats = sorted((site / "reference" / "formats").glob("*.html"))
    assert len(formats) >= 4 and all("Example" in p.read_text(encoding="utf-8") for p in formats)


def test_no_page_fetches_a_script_or_style_from_the_network(site):
    import re

    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        fetched = re.findall(r"<(?:script|link)\b[^>]*(?:src|href)=\"(https?:[^\"]+)\"", text)
        assert fetched == [], page


def offline_page(browser):
    """A page whose every request to the network is refused and recorded."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    refused = []

    def refuse(route):
        refused.append(route.request.url)
        route.abort()

    ctx.route("http*://**/*", refuse)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    return ctx, page, refused


def test_search_finds_a_word_from_file_urls(site, browser):
    ctx, page, refused = offline_page(browser)
    try:
        page.goto((site / "index.html").as_uri())
        search = page.locator("input.md-search__input")
        search.click()
        meta = page.locator(".md-search-result__meta")  # "Initializing search" until it is ready
        meta.filter(has_text="Type to start searching").wait_for()
        search.type("adjudicate", delay=20)
        results = page.locator(".md-search-result__item")
        results.first.wait_for()
        assert results.count() > 0
        assert "adjudicate" in results.first.inner_text().lower()
    finally:
        ctx.close()
    assert refused == []


def test_a_gallery_page_shows_its_figures(site, browser):
    ctx, page, refused = offline_page(browser)
    try:
        page.goto((site / "gallery" / f"{NOTEBOOKS[0]}.html").as_uri())
        page.wait_for_load_state("load")
        sizes = page.eval_on_selector_all(
            "article img", "imgs => imgs.map(i => i.complete ? i.naturalWidth : 0)"
        )
        assert len(sizes) >= 3 and min(sizes) > 0
        assert "N/A (0/0)" in page.locator("article").inner_text()
    finally:
        ctx.close()
    assert refused == []
