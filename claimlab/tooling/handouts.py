"""Teaching handouts from executed notebooks: HTML and PDF, student and instructor variants.

A handout shows exactly the executed notebook's outputs (the numbers the regression tests read),
with code hidden, figures embedded as data URIs, maths rendered offline by Debian's MathJax, widget
views replaced by their static snapshot, and every fixture or data string escaped. Cells tagged
``remove-cell`` never appear; cells tagged ``solution`` appear only in the instructor variant.
PDFs come from headless Debian chromium with print CSS (title page, page numbers, no figure or
table split across pages where avoidable).
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import shutil
import signal
import string
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claimlab import __version__
from claimlab.core.errors import ClaimlabInputError
from claimlab.core.processes import end_group, running
from claimlab.io.files import atomic_write, replacing, temp_dir
from claimlab.notebook.records import records_from_notebook
from claimlab.notebook.words import WORDS, say
from claimlab.tooling.runner import load_notebook

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
    "ragchecker": "RAGChecker's example checking output and meta-evaluation (Ru et al., 2024), Apache-2.0; queries from KIWI, ClapNQ, RobustQA and NovelQA, under their own terms",
    "fixtures": "claimlab teaching fixture (SIMULATION: made up for teaching)",
}

# one family, Noto, with its script and symbol members for what Noto Sans has no glyph for
# (Thai, arrows in bold or italic, emoji); Debian: fonts-noto-core, -mono, -color-emoji
_FALLBACK = '"Noto Sans Thai", "Noto Sans Math", "Noto Sans Symbols", "Noto Sans Symbols2", "Noto Color Emoji"'
FONT_FAMILY = f'"Noto Sans", {_FALLBACK}, sans-serif'
MONO_FAMILY = f'"Noto Sans Mono", {_FALLBACK}, monospace'
PRINT_CSS = """
<style>
  /* one font family (Noto) for every text; MathJax draws maths as SVG paths, not fonts */
  body, body :not(svg):not(svg *), *::before, *::after, *::marker { font-family: FONT !important; }
  pre, code, kbd, samp, pre *, code * { font-family: MONO !important; }
  .claimlab-title { page-break-after: always; break-after: page; padding-top: 20vh; }
  .claimlab-title h1 { font-size: 2.2em; }
  .claimlab-stamp { font-size: 0.9em; color: #333; border-top: 1px solid #999; margin-top: 2em; padding-top: 1em; }
  .claimlab-stamp table { border-collapse: collapse; }
  .claimlab-stamp td, .claimlab-stamp th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
  .claimlab-variant { display: inline-block; padding: 2px 8px; border: 1px solid #555; border-radius: 4px; }
  img, table, pre, .jp-RenderedImage { break-inside: avoid; page-break-inside: avoid; }
  /* a figure stays with the table or text just before it */
  .jp-OutputArea-child:has(+ .jp-OutputArea-child .jp-RenderedImage) { break-after: avoid; page-break-after: avoid; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
  ol, ul, li { break-inside: avoid; page-break-inside: avoid; }  /* an exercise list stays whole */
  table, .jp-RenderedHTMLCommon table { font-size: 8.5pt !important; }
  /* headers wrap between words, never inside one (a column is at least as wide as its
     header's longest word); cells keep whole words too */
  th, .jp-RenderedHTMLCommon th { white-space: normal !important; word-break: keep-all !important; overflow-wrap: normal !important; hyphens: none !important; }
  td { word-break: normal; overflow-wrap: break-word; hyphens: manual; }
  .jp-RenderedHTMLCommon table { table-layout: auto; max-width: 100%; }
  .jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th { padding: 2px 4px; }
  .jp-OutputArea-output, .jp-RenderedHTMLCommon { overflow: visible !important; }
  .jp-Cell-outputWrapper, .jp-OutputArea-child { padding-left: 0; }
  .jp-OutputArea-prompt { display: none; }
  .jp-RenderedImage img { max-width: 100%; height: auto; }
  /* room to write an answer after each exercise, in the student handout only */
  .claimlab-answer-space { height: 3.2cm; border: 1px dashed #999; border-radius: 4px; margin: 4px 0 14px; }
  .claimlab-instructor .claimlab-answer-space { display: none; }
  .claimlab-paper table td { height: 1.6em; }
  @page { size: A4; margin: 16mm 12mm 18mm 12mm;
          @bottom-center { content: PAGE; font-size: 9pt; color: #555;
                           font-family: FONT; } }
  @media print { .jp-InputPrompt, .jp-OutputPrompt { display: none; } }
</style>
""".replace("FONT", FONT_FAMILY).replace("MONO", MONO_FAMILY)


def print_css(language: str = "en") -> str:
    """The print CSS, its page footer ("page 2 of 9") in the lesson's language.

    Examples:
        >>> 'content: "sayfa " counter(page) " / " counter(pages);' in print_css("tr")
        True
    """
    template = say(WORDS, "handout.page", language)
    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        if literal:
            parts.append(json.dumps(literal, ensure_ascii=False))
        if field is not None:
            parts.append(f"counter({field})")
    return PRINT_CSS.replace("PAGE", " ".join(parts), 1)


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


def _strip_records(nb: Any) -> int:
    """Remove the recorded values' outputs (data for the regression tests, not for readers).

    nbconvert cannot show their media type and warned once for each; the records stay in the
    executed notebook and its ``.records.json``.
    """
    from claimlab.notebook.records import MIME

    n = 0
    for cell in nb.cells:
        outputs = cell.get("outputs", [])
        kept = [
            o
            for o in outputs
            if set(o.get("data", {})) - {MIME, "text/plain"} or MIME not in o.get("data", {})
        ]
        n += len(outputs) - len(kept)
        if len(kept) != len(outputs):
            cell["outputs"] = kept
    return n


def _strip_widgets(nb: Any) -> int:
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


def shown_value(value: Any) -> Any:
    """A parameter value as a handout shows it: an absolute path by its file name only.

    A handout travels to students: the teacher's folders are not theirs to read.

    Examples:
        >>> shown_value("/home/ayse/ders/izin.json"), shown_value("fixtures/aurora.json")
        ('izin.json', 'fixtures/aurora.json')
        >>> shown_value(["/srv/a.json", 3])
        ['a.json', 3]
    """
    if isinstance(value, list):
        return [shown_value(v) for v in value]
    if isinstance(value, str) and (os.path.isabs(value) or value.startswith("~")):
        return Path(value).name
    return value


def _data_files(parameters: dict[str, Any], language: str = "en") -> list[tuple[str, str, str]]:
    """Parameters that name data (a known data folder, a path, or a data file), with provenance.

    The provenance of a teaching fixture or of the user's own file is said in the lesson's
    language; a data set's citation and licence stay as published.
    """
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
        if key == "fixtures":
            provenance = say(WORDS, "handout.fixture", language)
        else:
            provenance = PROVENANCE.get(key or "", say(WORDS, "handout.user_file", language))
        rows.append((name, value, provenance))
    return rows


def _stamp(
    title: str,
    stem: str,
    variant: Variant,
    parameters: dict[str, Any],
    records_file: Path | None,
    language: str = "en",
) -> str:
    def word(key: str, values: dict[str, object] | None = None) -> str:
        return say(WORDS, key, language, values)

    parameters = {k: shown_value(v) for k, v in parameters.items()}
    params = "".join(
        f"<tr><th>{html.escape(k)}</th><td><code>{html.escape(json.dumps(v, ensure_ascii=False))}</code></td></tr>"
        for k, v in parameters.items()
    )
    files = (
        "".join(
            f"<tr><th>{html.escape(n)}</th><td><code>{html.escape(v)}</code></td><td>{html.escape(p)}</td></tr>"
            for n, v, p in _data_files(parameters, language)
        )
        or f"<tr><td colspan='3'>{html.escape(word('handout.no_data_files'))}</td></tr>"
    )
    rec = html.escape(records_file.name) if records_file else word("handout.no_records")
    made = word("handout.made_by", {"version": html.escape(__version__), "records": rec})
    return f"""
<section class="claimlab-title">
  <h1>{html.escape(title)}</h1>
  <p><span class="claimlab-variant">{html.escape(word("handout." + variant))}</span> &nbsp; {html.escape(word("handout.notebook"))} <code>{html.escape(stem)}.ipynb</code></p>
  <div class="claimlab-stamp">
    <p>{made}</p>
    <h3>{html.escape(word("handout.parameters"))}</h3><table>{params or f"<tr><td>{html.escape(word('handout.none'))}</td></tr>"}</table>
    <h3>{html.escape(word("handout.data_files"))}</h3><table>{files}</table>
  </div>
</section>
"""


ALLOWED_TAGS = frozenset(
    {
        "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del",
        "details", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5",
        "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "section",
        "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "u", "ul", "wbr",
    }
)  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "*": ["class", "id", "title", "lang", "dir", "data-metric"],
    "a": ["href", "title"],
    "img": ["src", "alt", "width", "height"],
    "td": ["colspan", "rowspan", "style"],
    "th": ["colspan", "rowspan", "style"],
    "tr": ["style"],
    "table": ["border"],
}


def clean_html(fragment: object) -> str:
    """The handouts' HTML sanitiser: an allowlist of tags and attributes, no script of any kind.

    nbconvert's own ``clean_html`` (used when ``sanitize_html`` is on) also drops headings,
    paragraphs and table headers; this one keeps what notebooks and pandas tables need and
    still removes ``<script>``, ``<svg>``, ``<style>``, event handlers and ``javascript:`` URLs
    (links may point to http, https, mailto or within the page; images only to data URIs).
    """
    import bleach
    from bleach.css_sanitizer import CSSSanitizer

    text = fragment.decode() if isinstance(fragment, bytes) else str(fragment)
    text = _DROPPED.sub("", text)  # pandas' scoped styles and any script: gone, not shown
    cleaned: str = bleach.clean(
        text,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        protocols=["http", "https", "mailto", "data"],
        css_sanitizer=CSSSanitizer(
            allowed_css_properties=[
                "text-align",
                "vertical-align",
                "width",
                "min-width",
                "white-space",
                "word-break",
                "overflow-wrap",
                "hyphens",
            ]
        ),
        strip=False,
        strip_comments=True,
    )
    return cleaned


_DROPPED = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)

MATHJAX_CONFIG = """window.MathJax = {
  extensions: ["tex2jax.js", "Safe.js"],
  jax: ["input/TeX", "output/SVG"],
  tex2jax: {
    inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]],
    displayMath: [["$$", "$$"], ["\\\\[", "\\\\]"]],
    processEscapes: true,
    processEnvironments: false,
    ignoreClass: "claimlab-nomath",
    processClass: "claimlab-math"
  },
  TeX: { extensions: ["AMSmath.js", "AMSsymbols.js"] },
  Safe: { allow: { URLs: "none", classes: "none", cssIDs: "none", styles: "none" } },
  messageStyle: "none",
  showMathMenu: false,
  SVG: { linebreaks: { automatic: true }, font: "TeX" }
};"""


def _script_hash(source: str) -> str:
    import base64
    import hashlib

    return "sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode()


def content_security_policy(inline_scripts: Sequence[str]) -> str:
    """The handout's policy: scripts only from files (MathJax) and the listed inline scripts.

    No inline event handler, ``javascript:`` URL or injected ``<script>`` can run; nothing is
    fetched from the network.
    """
    hashes = " ".join(f"'{_script_hash(src)}'" for src in inline_scripts)
    return (
        "default-src 'none'; "
        f"script-src file: {hashes}; "
        "style-src 'unsafe-inline' file:; img-src data: file:; font-src data: file:; "
        "connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; "
        "form-action 'none'"
    )


_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL)
_MARKDOWN_CELL = re.compile(r'(<div\b[^>]*class="[^"]*\bjp-MarkdownCell\b)')


@functools.cache
def _exporter(variant: Variant) -> Any:
    """The HTML exporter of one variant, made once.

    Its templates are compiled once per process, not once per handout (24 HTML handouts: 8.2 s ->
    6.7 s here).
    """
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    remove = ["remove-cell"] + (["solution"] if variant == "student" else [])
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_cell_tags = remove
    c.TagRemovePreprocessor.remove_input_tags = []
    c.HTMLExporter.exclude_input = True
    c.HTMLExporter.exclude_input_prompt = True
    c.HTMLExporter.exclude_output_prompt = True
    c.HTMLExporter.embed_images = True
    c.HTMLExporter.sanitize_html = True
    c.HTMLExporter.filters = {"clean_html": clean_html}
    c.HTMLExporter.mathjax_url = ""
    return HTMLExporter(config=c, template_name="lab")


def render_html(
    notebook: Path,
    variant: Variant,
    *,
    parameters: dict[str, Any] | None = None,
    records_file: Path | None = None,
) -> str:
    """The handout HTML of one executed notebook.

    Safety: every output and Markdown cell goes through :func:`clean_html`; every script the
    template adds is removed; MathJax (Debian's, offline) typesets only the notebook's own
    Markdown cells, with its Safe extension on; and a Content-Security-Policy lets no other
    script run, so nothing from a data file can execute, in a browser or in the chromium that
    prints the PDF.
    """
    nb = load_notebook(notebook)
    lesson = records_from_notebook(nb).get("lesson")
    _strip_widgets(nb)
    _strip_records(nb)
    body, _ = _exporter(variant).from_notebook_node(nb)
    body = _SCRIPT.sub("", body)
    title = _title(lesson, nb, notebook.stem)
    language = str(lesson.get("language") or "en") if isinstance(lesson, dict) else "en"
    stamp = _stamp(title, notebook.stem, variant, parameters or {}, records_file, language)
    head = f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy([MATHJAX_CONFIG])}">\n'
    if MATHJAX_FILE.exists():
        head += f"<script>{MATHJAX_CONFIG}</script>\n"
        head += f'<script src="{MATHJAX_FILE.as_uri()}"></script>\n'
    body = body.replace(
        "<title>Notebook</title>", f"<title>{html.escape(title)} ({variant})</title>", 1
    )
    body = body.replace("<head>", "<head>\n" + head, 1)
    body = body.replace("</head>", print_css(language) + "</head>", 1)
    # no external fetches: drop links to web fonts or CDNs the template might add
    body = body.replace("https://cdnjs.cloudflare.com", "about:blank#")
    # maths only in the notebook's own Markdown cells: never in outputs (data) or the stamp
    body = re.sub(r"<body\b([^>]*)>", lambda m: _mark_body(m, variant), body, count=1)
    body = _MARKDOWN_CELL.sub(r"\1 claimlab-math", body)
    i = body.find("<main>")
    if i < 0:
        i = body.find("<body") + body[body.find("<body") :].find(">") + 1
    else:
        i += len("<main>")
    return body[:i] + stamp + body[i:]


def _title(lesson: Any, nb: Any, stem: str) -> str:
    """The title page's title: the lesson's own (in its language), else the notebook's."""
    own = lesson.get("title") if isinstance(lesson, dict) else None
    return str(own or nb.metadata.get("claimlab", {}).get("title", stem))


def _mark_body(match: re.Match[str], variant: str = "student") -> str:
    attrs = match.group(1)
    classes = f"claimlab-nomath claimlab-{variant}"
    if 'class="' in attrs:
        return "<body" + attrs.replace('class="', f'class="{classes} ', 1) + ">"
    return f'<body class="{classes}"{attrs}>'


def _kill_group(proc: subprocess.Popen[Any]) -> None:
    """Kill a process and everything it started (its own group); return once none of them runs.

    The group is killed even when its first process has ended: chromium's main process ends
    as soon as its DevTools pipe closes, while its renderers may still be ending; a command
    that returned then left them running for a moment (a test caught two after Ctrl-C).
    """
    end_group(proc.pid)  # its own group: started in a session of its own
    if proc.poll() is None:  # no such group (never made): the process itself
        proc.kill()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL
        pass
    deadline = time.monotonic() + 10
    while _group_runs(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.01)


def _group_runs(group: int) -> bool:
    """Whether a process of ``group`` still runs (not a zombie), as /proc tells (else False)."""
    return bool(running(group=group))


def _die_with_parent() -> None:
    """In the child before exec: its own process group, and SIGKILL when the parent dies."""
    os.setsid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the process group still lets us kill it
        pass


def _chromium_command(chromium: str, profile: Path) -> list[str]:
    return [
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
        f"--user-data-dir={profile}",
        "--run-all-compositor-stages-before-draw",
        # pages load side by side: one not in front must not have its timers (MathJax) slowed
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
    ]


def print_pdfs(
    jobs: Sequence[tuple[Path, Path]], *, chromium: str, timeout: int = 120, parallel: int = 2
) -> None:
    """Print HTML files to PDF with one headless chromium, ``parallel`` pages at a time.

    The browser runs in a process group of its own that is killed when this process stops
    (an error, Ctrl-C, SIGTERM) and dies with it when it is killed outright; its profile
    folder is removed afterwards (or, after a kill -9, by the next run). Each PDF is written to
    a temporary file and renamed.

    Raises:
        ClaimlabInputError: chromium failed or timed out on a file, naming it.
    """
    from claimlab.tooling.devtools import Browser

    if not jobs:
        return
    profile = temp_dir("chromium")
    browser = None
    try:
        browser = Browser(
            _chromium_command(chromium, profile), log=profile / "stderr.log",
            preexec=_die_with_parent,
        )  # fmt: skip
        for at in range(0, len(jobs), parallel):
            _print_batch(browser, jobs[at : at + parallel], profile, timeout)
    finally:
        if browser is not None:
            browser.close()
            _kill_group(browser.proc)
        _remove_profile(profile)


def _print_batch(
    browser: Any, batch: Sequence[tuple[Path, Path]], profile: Path, timeout: int
) -> None:
    """Load a few pages side by side, then print each in turn (an error names its file)."""
    from claimlab.tooling.devtools import DevToolsError, open_page, print_page

    doing = batch[0][0]  # the file an error names
    pages: list[tuple[str, str]] = []
    try:
        for html_file, _ in batch:
            doing = html_file
            pages.append(open_page(browser, html_file.resolve().as_uri(), timeout=timeout))
        for (html_file, pdf_file), (target, session) in zip(batch, pages, strict=True):
            doing = html_file
            with replacing(pdf_file) as tmp_pdf:
                print_page(browser, target, session, tmp_pdf, timeout=timeout)
    except DevToolsError as exc:
        raise ClaimlabInputError(
            f"chromium could not print the PDF: {exc}{_log_tail(profile)}", file=str(doing)
        ) from None


def _log_tail(profile: Path) -> str:
    """The last line chromium wrote to its error log, if any (after ": ")."""
    try:
        lines = (profile / "stderr.log").read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return ""
    last = next((line.strip() for line in reversed(lines) if line.strip()), "")
    return f" ({last[-300:]})" if last else ""


def _remove_profile(profile: Path) -> None:
    """Remove a chromium profile folder; a child still dying may add a file, so try again."""
    for _ in range(40):
        shutil.rmtree(profile, ignore_errors=True)
        if not profile.exists():
            return
        time.sleep(0.05)


@dataclass(frozen=True)
class HandoutRun:
    """Everything one ``claimlab handouts`` call wrote, and how long it took."""

    handouts: tuple[Handout, ...]
    index: Path
    seconds: float


def _executed(src: Path, stems: Sequence[str] | None) -> list[Path]:
    """The executed notebooks in ``src`` (no failed ones), those of ``stems`` if given.

    Raises:
        ClaimlabInputError: there is none.
    """
    notebooks = sorted(
        p for p in src.glob("[0-9][0-9]_*.ipynb") if not p.name.endswith(".failed.ipynb")
    )
    if stems:
        notebooks = [p for p in notebooks if p.stem in stems]
    if not notebooks:
        raise ClaimlabInputError(
            "no executed notebooks found (run `claimlab run` first)", file=str(src)
        )
    return notebooks


def _in_mode(
    nb: Path, rec_file: Path, params: dict[str, Any], variant: Variant, scratch: Path
) -> tuple[Path, Path, dict[str, Any]]:
    """The executed notebook, its records and parameters to print ``variant`` from, in its mode.

    A notebook with a ``STUDENT`` parameter run in the other mode is executed once more with the
    same parameters and ``STUDENT`` set for the variant, so a student handout never shows what
    the instructor mode shows before a round is checked.
    """
    from claimlab.tooling.runner import run_notebook

    student = variant == "student"
    if "STUDENT" not in params or bool(params["STUDENT"]) == student:
        return nb, rec_file, params
    run = run_notebook(nb, parameters={**params, "STUDENT": student}, output_dir=scratch / variant)
    return run.notebook, run.records_path, run.parameters


def _html_handouts(
    nb: Path, src: Path, dst: Path, variants: Sequence[Variant], *, pdf: bool, scratch: Path
) -> list[Handout]:
    """Write one notebook's HTML handout per variant, stamped with its run's parameters."""
    rec_file = src / f"{nb.stem}.records.json"
    params = (
        json.loads(rec_file.read_text(encoding="utf-8")).get("parameters", {})
        if rec_file.exists()
        else {}
    )
    out = []
    for variant in variants:
        source, records, used = _in_mode(nb, rec_file, params, variant, scratch)
        html_file = dst / f"{nb.stem}.{variant}.html"
        html = render_html(
            source, variant, parameters=used, records_file=records if records.exists() else None
        )
        atomic_write(html_file, html)
        pdf_file = dst / f"{nb.stem}.{variant}.pdf" if pdf else None
        out.append(Handout(nb.stem, variant, html_file, pdf_file))
    return out


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
    notebooks = _executed(src, stems)
    chromium = find_chromium() if "pdf" in formats else None
    if "pdf" in formats and chromium is None:
        raise ClaimlabInputError(
            "PDF needs chromium on PATH (Debian package 'chromium')", field="--format"
        )
    dst.mkdir(parents=True, exist_ok=True)
    jobs = []
    written: list[Handout] = []
    scratch = temp_dir("handouts")
    try:
        for nb in notebooks:
            for h in _html_handouts(nb, src, dst, variants, pdf="pdf" in formats, scratch=scratch):
                if h.pdf is not None:
                    jobs.append((h.html, h.pdf))
                written.append(h)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if jobs and chromium is not None:
        print_pdfs(jobs, chromium=chromium)
    if "html" not in formats:
        for h in written:
            h.html.unlink(missing_ok=True)
    index = dst / "index.html"
    atomic_write(index, _index_html(written, formats))
    return HandoutRun(tuple(written), index, time.perf_counter() - started)


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
<style>body{{font-family:"Noto Sans","Noto Sans Thai",sans-serif;margin:2em}} td,th{{padding:4px 12px;text-align:left}}</style>
</head><body>
<h1>claimlab handouts</h1>
<p>Made by claimlab {html.escape(__version__)} from the executed notebooks. Student handouts hide the
solutions; instructor handouts include them.</p>
<table>{"".join(rows)}</table>
</body></html>
"""
