"""Teaching handouts from executed notebooks: HTML and PDF, student and instructor variants.

A handout shows exactly the executed notebook's outputs (the numbers the regression tests read),
with code hidden, figures embedded as data URIs, maths rendered offline by Debian's MathJax, widget
views replaced by their static snapshot, and every fixture or data string escaped. Cells tagged
``remove-cell`` never appear; cells tagged ``solution`` appear only in the instructor variant.
PDFs come from headless Debian chromium with print CSS (title page, page numbers, no figure or
table split across pages where avoidable).
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from claimlab import __version__
from claimlab.errors import ClaimlabInputError
from claimlab.runner import atomic_write

Variant = Literal["student", "instructor"]
VARIANTS: tuple[Variant, ...] = ("student", "instructor")
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MATHJAX_FILE = Path("/usr/share/javascript/mathjax/MathJax.js")
CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")

PROVENANCE = {
    "fever": "FEVER (Thorne et al., 2018), CC BY-SA 3.0; baseline predictions from the FEVER scorer's tests (Apache-2.0)",
    "wice": "WiCE (Kamoi et al., 2023), annotations ODC-BY 1.0, text Wikipedia CC BY-SA",
    "factscore": "FActScore human annotations (Min et al., EMNLP 2023), MIT",
    "factcheck_gpt": "Factcheck-GPT benchmark (Wang et al.), Apache-2.0",
    "hotpotqa": "HotpotQA, CC BY-SA 4.0",
    "musique": "MuSiQue, CC BY 4.0",
    "fixtures": "claimlab teaching fixture (SIMULATION: fictional products, rooms and documents)",
}

PRINT_CSS = """
<style>
  body { font-family: "DejaVu Sans", "Noto Sans", "Noto Sans Thai", sans-serif; }
  .claimlab-title { page-break-after: always; break-after: page; padding-top: 20vh; }
  .claimlab-title h1 { font-size: 2.2em; }
  .claimlab-stamp { font-size: 0.9em; color: #333; border-top: 1px solid #999; margin-top: 2em; padding-top: 1em; }
  .claimlab-stamp table { border-collapse: collapse; }
  .claimlab-stamp td, .claimlab-stamp th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
  .claimlab-variant { display: inline-block; padding: 2px 8px; border: 1px solid #555; border-radius: 4px; }
  img, table, pre, .jp-RenderedImage, .jp-OutputArea-output { break-inside: avoid; page-break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  ol, ul, li { break-inside: avoid; page-break-inside: avoid; }  /* an exercise list stays whole */
  table, .jp-RenderedHTMLCommon table { font-size: 8.5pt !important; }
  /* cells keep whole words (break-word does not let a column shrink below its longest word);
     column headers such as NOT_IN_REFERENCE over short numbers may break anywhere */
  td, th { word-break: normal; overflow-wrap: break-word; hyphens: manual; white-space: normal !important; }
  thead th { overflow-wrap: anywhere; }
  .jp-RenderedHTMLCommon table { table-layout: auto; max-width: 100%; }
  .jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th { padding: 2px 4px; }
  .jp-OutputArea-output, .jp-RenderedHTMLCommon { overflow: visible !important; }
  .jp-Cell-outputWrapper, .jp-OutputArea-child { padding-left: 0; }
  .jp-OutputArea-prompt { display: none; }
  @page { size: A4; margin: 16mm 12mm 18mm 12mm;
          @bottom-center { content: "page " counter(page) " of " counter(pages); font-size: 9pt; color: #555; } }
  @media print { .jp-InputPrompt, .jp-OutputPrompt { display: none; } }
</style>
"""


@dataclass(frozen=True)
class Handout:
    """One written handout file."""

    stem: str
    variant: Variant
    html: Path
    pdf: Path | None


def find_chromium() -> str | None:
    """The chromium executable on PATH, if any."""
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _strip_widgets(nb) -> int:
    """Replace widget views by their static snapshot (text/html) or a plain note; count them."""
    n = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data and WIDGET_MIME in data:
                n += 1
                del data[WIDGET_MIME]
                if "text/html" not in data:
                    data.pop("text/plain", None)
                    data["text/html"] = (
                        "<p><em>(interactive widget: open the notebook in JupyterLab to use it; "
                        "its values at execution time are shown above and below)</em></p>"
                    )
    return n


def _data_files(parameters: dict) -> list[tuple[str, str, str]]:
    """Parameters that name data (a known data folder, a path, or a data file), with provenance."""
    rows = []
    for name, value in parameters.items():
        if not isinstance(value, str):
            continue
        parts = value.replace("\\", "/").split("/")
        key = next((k for k in PROVENANCE if k in parts), None)
        if (
            key is None
            and "/" not in value
            and not value.endswith((".json", ".jsonl", ".csv", ".parquet"))
        ):
            continue
        rows.append(
            (
                name,
                value,
                PROVENANCE.get(key or "", "user-supplied file (provenance as given by the user)"),
            )
        )
    return rows


def _stamp(
    title: str, stem: str, variant: Variant, parameters: dict, records_file: Path | None
) -> str:
    params = "".join(
        f"<tr><th>{html.escape(k)}</th><td><code>{html.escape(json.dumps(v, ensure_ascii=False))}</code></td></tr>"
        for k, v in parameters.items()
    )
    files = (
        "".join(
            f"<tr><th>{html.escape(n)}</th><td><code>{html.escape(v)}</code></td><td>{html.escape(p)}</td></tr>"
            for n, v, p in _data_files(parameters)
        )
        or "<tr><td colspan='3'>no data file parameters</td></tr>"
    )
    rec = html.escape(records_file.name) if records_file else "(no records file)"
    return f"""
<section class="claimlab-title">
  <h1>{html.escape(title)}</h1>
  <p><span class="claimlab-variant">{variant} handout</span> &nbsp; notebook <code>{html.escape(stem)}.ipynb</code></p>
  <div class="claimlab-stamp">
    <p>Made by claimlab {html.escape(__version__)} from the executed notebook; the numbers are the ones
    recorded in <code>{rec}</code> and checked by the regression tests.</p>
    <h3>Parameters</h3><table>{params or "<tr><td>none</td></tr>"}</table>
    <h3>Data files and provenance</h3><table>{files}</table>
  </div>
</section>
"""


def render_html(
    notebook: Path,
    variant: Variant,
    *,
    parameters: dict | None = None,
    records_file: Path | None = None,
) -> str:
    """The handout HTML of one executed notebook."""
    import nbformat
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    nb = nbformat.read(str(notebook), as_version=4)
    _strip_widgets(nb)
    remove = ["remove-cell"] + (["solution"] if variant == "student" else [])
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = remove
    c.TagRemovePreprocessor.remove_input_tags = []
    c.HTMLExporter.exclude_input = True
    c.HTMLExporter.exclude_input_prompt = True
    c.HTMLExporter.exclude_output_prompt = True
    c.HTMLExporter.embed_images = True
    c.HTMLExporter.sanitize_html = False  # fixture text is escaped where it is displayed
    c.HTMLExporter.mathjax_url = (
        MATHJAX_FILE.as_uri() + "?config=TeX-AMS_CHTML" if MATHJAX_FILE.exists() else ""
    )
    exporter = HTMLExporter(config=c, template_name="lab")
    body, _ = exporter.from_notebook_node(nb)
    title = nb.metadata.get("claimlab", {}).get("title") or notebook.stem
    stamp = _stamp(title, notebook.stem, variant, parameters or {}, records_file)
    body = body.replace(
        "<title>Notebook</title>", f"<title>{html.escape(title)} ({variant})</title>", 1
    )
    body = body.replace("</head>", PRINT_CSS + "</head>", 1)
    # no external fetches: drop links to web fonts or CDNs the template might add
    body = body.replace("https://cdnjs.cloudflare.com", "about:blank#")
    i = body.find("<main>")
    if i < 0:
        i = body.find("<body") + body[body.find("<body") :].find(">") + 1
    else:
        i += len("<main>")
    return body[:i] + stamp + body[i:]


def print_pdf(html_file: Path, pdf_file: Path, *, chromium: str, timeout: int = 120) -> None:
    """Print an HTML file to PDF with headless chromium (temporary file, then rename)."""
    tmp_dir = Path(tempfile.mkdtemp(prefix="claimlab-chromium-"))
    tmp_pdf = pdf_file.with_name(f".{pdf_file.name}.tmp")
    cmd = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        f"--user-data-dir={tmp_dir}",
        "--no-pdf-header-footer",
        "--run-all-compositor-stages-before-draw",
        "--virtual-time-budget=15000",
        f"--print-to-pdf={tmp_pdf}",
        html_file.resolve().as_uri(),
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0 or not tmp_pdf.exists():
            raise ClaimlabInputError(
                f"chromium could not print the PDF: {proc.stderr.strip()[-300:]}",
                file=str(html_file),
            )
        os.replace(tmp_pdf, pdf_file)
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
        if tmp_pdf.exists():
            tmp_pdf.unlink()


@dataclass(frozen=True)
class HandoutRun:
    """Everything one ``claimlab handouts`` call wrote, and how long it took."""

    handouts: tuple[Handout, ...]
    index: Path
    seconds: float
    pdf_skipped: str | None


def build_handouts(
    source: str | Path = "outputs",
    target: str | Path | None = None,
    *,
    variants: Sequence[Variant] = VARIANTS,
    formats: Sequence[str] = ("html", "pdf"),
    stems: Sequence[str] | None = None,
) -> HandoutRun:
    """Write handouts for every executed notebook in ``source`` and an index linking them.

    Raises:
        ClaimlabInputError: when ``source`` holds no executed notebook, or PDF is asked for and
            chromium is missing.
    """
    started = time.perf_counter()
    src = Path(source)
    dst = Path(target) if target is not None else src / "handouts"
    notebooks = sorted(
        p for p in src.glob("[0-9][0-9]_*.ipynb") if not p.name.endswith(".failed.ipynb")
    )
    if stems:
        notebooks = [p for p in notebooks if p.stem in stems]
    if not notebooks:
        raise ClaimlabInputError(
            "no executed notebooks found (run `claimlab run` first)", file=str(src)
        )
    chromium = find_chromium() if "pdf" in formats else None
    if "pdf" in formats and chromium is None:
        raise ClaimlabInputError(
            "PDF needs chromium on PATH (Debian package 'chromium')", field="--format"
        )
    dst.mkdir(parents=True, exist_ok=True)
    jobs = []
    written: list[Handout] = []
    for nb in notebooks:
        rec_file = src / f"{nb.stem}.records.json"
        params = (
            json.loads(rec_file.read_text(encoding="utf-8")).get("parameters", {})
            if rec_file.exists()
            else {}
        )
        for variant in variants:
            html_file = dst / f"{nb.stem}.{variant}.html"
            atomic_write(
                html_file,
                render_html(
                    nb,
                    variant,
                    parameters=params,
                    records_file=rec_file if rec_file.exists() else None,
                ),
            )
            pdf_file = dst / f"{nb.stem}.{variant}.pdf" if "pdf" in formats else None
            if pdf_file is not None:
                jobs.append((html_file, pdf_file))
            written.append(Handout(nb.stem, variant, html_file, pdf_file))
    if jobs:
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda job: print_pdf(job[0], job[1], chromium=chromium), jobs))
    if "html" not in formats:
        for h in written:
            h.html.unlink(missing_ok=True)
    index = dst / "index.html"
    atomic_write(index, _index_html(written, formats))
    return HandoutRun(tuple(written), index, time.perf_counter() - started, None)


def _index_html(handouts: Sequence[Handout], formats: Sequence[str]) -> str:
    rows = []
    stems = list(dict.fromkeys(h.stem for h in handouts))
    for stem in stems:
        cells = []
        for h in (x for x in handouts if x.stem == stem):
            links = []
            if "html" in formats:
                links.append(f'<a href="{html.escape(h.html.name)}">HTML</a>')
            if h.pdf is not None:
                links.append(f'<a href="{html.escape(h.pdf.name)}">PDF</a>')
            cells.append(f"<td>{h.variant}: {' · '.join(links)}</td>")
        rows.append(f"<tr><th>{html.escape(stem)}</th>{''.join(cells)}</tr>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>claimlab handouts</title>
<style>body{{font-family:"DejaVu Sans",sans-serif;margin:2em}} td,th{{padding:4px 12px;text-align:left}}</style>
</head><body>
<h1>claimlab handouts</h1>
<p>Made by claimlab {html.escape(__version__)} from the executed notebooks. Student handouts hide the
solutions; instructor handouts include them.</p>
<table>{"".join(rows)}</table>
</body></html>
"""
