"""The pages the docs build generates from the code (a mkdocs hook named in mkdocs.yml).

Nothing here is copied by hand: every command's page is its ``--help`` from
``claimlab.tooling.cli.build_parser()``; the format pages show the shipped example files and the
JSON Schema derived from the format's declaration where there is one; the Python API page lists
``claimlab.__all__`` for mkdocstrings; the metric cards are the metric modules' docstrings; the
gallery is the notebooks ``claimlab run`` executed (``outputs/``, or the folder named by
``CLAIMLAB_DOCS_NOTEBOOKS``), in the order of the labs' registry.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_ENV = "CLAIMLAB_DOCS_NOTEBOOKS"
RECORDS = {"application/vnd.claimlab.record+json"}  # claimlab.notebook.records' MIME type
COPIES: list[Path] = []  # the folders on_files copied the notebooks into


class Format(NamedTuple):
    """A file format as the reference shows it (its example files are found in fixtures/)."""

    title: str
    reader: str  # the public name of ``claimlab`` that reads it (a test reads every example)
    declaration: str = ""  # "module:attribute" a JSON Schema is derived from, when there is one
    # the parts declared on their own (``claimlab.io.declared``): field -> declaration (of each
    # item of a list, or of the object itself)
    parts: tuple[tuple[str, str], ...] = ()


RAW = "raw subclaims (JSON Lines)"  # a format without a "format" field: fixtures/*.jsonl
RAGCHECKER = "RAGChecker checking output"  # RAGChecker's own format: a top-level "results" list
FORMATS: dict[str, Format] = {
    "claimlab/decomposition@1": Format(
        "Decomposition file",
        "load_decomposition",
        "claimlab.io.decomposition:DecompositionDocument",
    ),
    "claimlab/sufficiency@1": Format(
        "Sufficiency file",
        "load_sufficiency",
        "claimlab.io.sufficiency:SufficiencyDocument",
        parts=(
            ("evidence", "claimlab.io.sufficiency:EvidenceItem"),
            ("rules", "claimlab.io.sufficiency:Rules"),
            ("game", "claimlab.io.sufficiency:Game"),
        ),
    ),
    "claimlab/context-lab@1": Format(
        "Context-lab file",
        "load_context_lab",
        "claimlab.io.context_lab:ContextLabDocument",
        parts=(
            ("chunks", "claimlab.io.context_lab:Chunk"),
            ("calibration", "claimlab.io.context_lab:Calibration"),
        ),
    ),
    RAW: Format("Raw subclaims", "load_raw_answers", "claimlab.io.raw:RawLine"),
    RAGCHECKER: Format("RAGChecker checking output", "load_checking"),
}


def format_of(path: Path) -> str:
    """The format a file under fixtures/ declares ("" when it declares none)."""
    if path.suffix == ".jsonl":
        return RAW
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("results"), list):
        return RAGCHECKER
    return str(data.get("format", "")) if isinstance(data, dict) else ""


def format_examples() -> dict[str, list[str]]:
    """Format -> the shipped example files (paths under fixtures/) that declare it."""
    found: dict[str, list[str]] = {fmt: [] for fmt in FORMATS}
    folder = ROOT / "fixtures"
    for path in sorted([*folder.rglob("*.json"), *folder.rglob("*.jsonl")]):
        found.setdefault(format_of(path), []).append(path.relative_to(folder).as_posix())
    return found


def notebooks_folder() -> Path:
    """The folder of executed notebooks the gallery shows."""
    return Path(os.environ.get(NOTEBOOKS_ENV) or ROOT / "outputs")


def executed_notebooks() -> dict[str, Path]:
    """Stem -> executed notebook, for every registry notebook the folder holds."""
    from claimlab.labs.registry import notebook_stems

    folder = notebooks_folder()
    return {s: folder / f"{s}.ipynb" for s in notebook_stems() if (folder / f"{s}.ipynb").is_file()}


def commands() -> dict[str, argparse.ArgumentParser]:
    """Command name -> its parser, in help order, from the command line's own parser."""
    from claimlab.tooling.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise RuntimeError("the command line has no subcommands")


def metric_cards() -> dict[str, str]:
    """Module name -> its docstring, for every metric module that opens with a metric card."""
    cards = {}
    folder = ROOT / "claimlab" / "metrics"
    for path in sorted([*folder.glob("*.py"), *folder.glob("stats/*.py")]):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if path.stem != "__init__" and "metric card" in doc.lower():
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            cards[name] = doc
    return cards


def format_schema(fmt: str) -> dict[str, Any] | None:
    """The JSON Schema of a format, derived from its declaration (None when it has none)."""
    ref = FORMATS[fmt].declaration
    if not ref:
        return None
    from claimlab.io.declared import declared_schema

    module, name = ref.split(":")
    return declared_schema(getattr(importlib.import_module(module), name))


def slug(name: str) -> str:
    """A file name for a format or module name."""
    return "".join(c if c.isalnum() else "-" for c in name).strip("-").lower()


def fenced(text: str, lang: str = "text") -> str:
    """Text in a code block whose fence no line of it can close."""
    fence = "````" if "```" in text else "```"
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}\n"


def help_text(parser: argparse.ArgumentParser) -> str:
    """A command's ``--help`` at 80 columns (argparse wraps to the terminal's width)."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        return parser.format_help()
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def command_pages() -> dict[str, str]:
    """reference/commands/*.md: an index and one page per command with its ``--help``."""
    parsers = commands()
    rows = [
        f"| [`{n}`]({n}.md) | {(p.description or '').splitlines()[0]} |" for n, p in parsers.items()
    ]
    index = (
        "# Commands\n\nEvery command of `claimlab`, its `--help` as the installed command prints "
        "it (generated when the site is built). What the commands share (`--json`, errors, exit "
        "codes, id lists) and what each prints: [the command line](../command-line.md).\n\n"
        "| command | what it does |\n|---|---|\n" + "\n".join(rows) + "\n"
    )
    pages = {"reference/commands/index.md": index}
    for name, parser in parsers.items():
        pages[f"reference/commands/{name}.md"] = (
            f"# claimlab {name}\n\n{fenced(help_text(parser))}\n"
            "Back to [every command](index.md); fields and exit codes: "
            "[the command line](../command-line.md).\n"
        )
    return pages


def part_schemas(fmt: str) -> dict[str, dict[str, Any]]:
    """The JSON Schema of each list of records the format declares on its own (by field)."""
    from claimlab.io.declared import declared_schema

    found = {}
    for field, ref in FORMATS[fmt].parts:
        module, name = ref.split(":")
        found[field] = declared_schema(getattr(importlib.import_module(module), name))
    return found


def schema_section(fmt: str) -> str:
    """The JSON Schema section of a format's page."""
    schema = format_schema(fmt)
    if schema is None:
        parts = "".join(
            f"\n`{field}` (each item of a list), derived from its declaration when the site is "
            "built (a test validates the examples against it):\n\n"
            + fenced(json.dumps(part, indent=2), "json")
            for field, part in part_schemas(fmt).items()
        )
        return (
            "## JSON Schema\n\nThis format as a whole has no declaration a schema is derived "
            "from yet; the reader's checks are described in [file formats](../formats.md).\n"
            + parts
        )
    each = " (of each line: the file is JSON Lines)" if fmt == RAW else ""
    return (
        f"## JSON Schema{each}\n\nDerived from the format's declaration when the site is built; "
        "a test validates every example below against it.\n\n"
        + fenced(json.dumps(schema, indent=2), "json")
    )


def format_pages() -> dict[str, str]:
    """reference/formats/*.md: each format's example files and, where derived, its JSON Schema."""
    rows, pages = [], {}
    examples = format_examples()
    for fmt, (title, reader, _, _) in FORMATS.items():
        page = f"reference/formats/{slug(fmt)}.md"
        rows.append(f"| [{title}]({slug(fmt)}.md) | `{fmt}` | {len(examples[fmt])} |")
        text = (
            f"# {title}: `{fmt}`\n\nThe fields are described in [file formats](../formats.md); "
            f"`claimlab.{reader}` reads it (a test reads every example below with it).\n\n"
        )
        text += schema_section(fmt) + "\n## Examples\n\nThe shipped files of this format.\n"
        for i, example in enumerate(examples[fmt]):
            body = (ROOT / "fixtures" / example).read_text(encoding="utf-8")
            block = fenced(body, "json" if example.endswith(".json") else "text")
            indented = "".join(f"    {line}" for line in block.splitlines(True))
            text += f'\n{"???+" if i == 0 else "???"} example "fixtures/{example}"\n\n{indented}'
        pages[page] = text
    pages["reference/formats/index.md"] = (
        "# Example files\n\nEach format with a shipped example file (in `fixtures/`, shipped in "
        "the wheel) and its JSON Schema where the format's declaration gives one.\n\n"
        "| format | name | examples |\n|---|---|---|\n" + "\n".join(rows) + "\n\n"
        "The full rules of each format: [file formats](../formats.md).\n"
    )
    return pages


def card_pages() -> dict[str, str]:
    """explanation/metric-cards/*.md: each metric module's card, as its docstring says it."""
    cards = metric_cards()
    rows, pages = [], {}
    for module, doc in cards.items():
        first, _, rest = doc.partition("\n")
        rows.append(f"| [`{module}`]({slug(module)}.md) | {first} |")
        pages[f"explanation/metric-cards/{slug(module)}.md"] = (
            f"# {first.rstrip('.')}\n\n`{module}`: the card opens the module's docstring."
            f"\n\n{fenced(rest.strip())}"
        )
    pages["explanation/metric-cards/index.md"] = (
        "# Metric cards\n\nEach metric module opens with a card: the definition in counts, when "
        "the figure is undefined (N/A), and the reference. These pages are those docstrings.\n\n"
        "| module | what it scores |\n|---|---|\n" + "\n".join(rows) + "\n"
    )
    return pages


def without_records(notebook: Path) -> str:
    """A notebook's JSON without the outputs only the record reader reads (no page shows them)."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in data.get("cells", []):
        if "outputs" in cell:
            cell["outputs"] = [o for o in cell["outputs"] if set(o.get("data", {"": 0})) - RECORDS]
    return json.dumps(data)


def gallery_index(executed: dict[str, Path]) -> str:
    """gallery/index.md: every lab's notebooks, linked where the build found them executed."""
    from claimlab.labs.registry import LABS

    lines = [
        "# Tutorial gallery\n",
        "The notebooks as `make run` executed them with their defaults, outputs and figures "
        "included. What each one shows and its parameters: [the notebooks](../guide/notebooks.md). "
        "The explorers and games are live widgets in JupyterLab (`make lab`) or a classroom "
        "server (`claimlab serve`); a static page shows their headless rounds and tables.\n",
    ]
    for lab in LABS:
        lines.append(f"\n## {lab.title}\n")
        for stem in lab.notebooks:
            shown = f"[{stem}]({stem}.ipynb)" if stem in executed else f"`{stem}`: not executed "
            lines.append(f"- {shown}" + ("" if stem in executed else "in this build (`make run`)"))
    return "\n".join(lines) + "\n"


def generated_pages() -> dict[str, str]:
    """Every generated Markdown page, by its path under docs/."""
    pages = {**command_pages(), **format_pages(), **card_pages()}
    pages["gallery/index.md"] = gallery_index(executed_notebooks())
    pages["changelog.md"] = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return pages


def nav_entries(section: str) -> list[Any]:
    """The generated pages a section of the nav lists after its index page."""
    if section == "gallery/index.md":
        return [{s: f"gallery/{s}.ipynb"} for s in executed_notebooks()]
    if section == "reference/commands/index.md":
        return [{n: f"reference/commands/{n}.md"} for n in commands()]
    if section == "reference/formats/index.md":
        return [{t: f"reference/formats/{slug(f)}.md"} for f, (t, *_) in FORMATS.items()]
    if section == "explanation/metric-cards/index.md":
        return [
            {m.split(".")[-1]: f"explanation/metric-cards/{slug(m)}.md"} for m in metric_cards()
        ]
    return []


def expand(nav: Any) -> Any:
    """The nav with each generated section's pages listed under its index page."""
    if isinstance(nav, list):
        return [expand(item) for item in nav]
    if isinstance(nav, dict):
        out = {}
        for title, value in nav.items():
            extra = nav_entries(value) if isinstance(value, str) else []
            out[title] = [value, *extra] if extra else expand(value)
        return out
    return nav


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """List the generated pages in the nav (the notebooks found, every command, ...)."""
    config.nav = expand(config.nav)
    return config


@event_priority(100)  # before mkdocs-jupyter, which wraps the notebooks it finds
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages and the executed notebooks to the site's files."""
    for path, text in generated_pages().items():
        files.append(File.generated(config, path, content=text))
    # copied into a folder of their own: mkdocs-jupyter reads a notebook from its source folder
    copies = Path(tempfile.mkdtemp(prefix="claimlab-gallery-"))
    COPIES.append(copies)
    (copies / "gallery").mkdir()
    for stem, notebook in executed_notebooks().items():
        (copies / "gallery" / f"{stem}.ipynb").write_text(without_records(notebook))
        files.append(
            File(
                f"gallery/{stem}.ipynb",
                src_dir=str(copies),
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
        )
    return files


def on_post_build(config: MkDocsConfig) -> None:
    """Remove the gallery's copies of the notebooks."""
    while COPIES:
        shutil.rmtree(COPIES.pop(), ignore_errors=True)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Append the reference of every public name to the Python API page."""
    if page.file.src_uri != "reference/python-api.md":
        return markdown
    import claimlab

    names = sorted(set(claimlab.__all__) - {"__version__"}, key=str.lower)
    blocks = []
    for name in names:
        value = getattr(claimlab, name)
        module = getattr(value, "__module__", None) or claimlab._PUBLIC[name]
        blocks.append(f"::: {module}.{name}\n    options:\n      show_root_heading: true\n")
    return markdown + "\n## Reference\n\nFrom the docstrings:\n\n" + "\n".join(blocks)


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Refuse a page that would fetch a script or style from the internet."""
    import re

    output = output.replace('<script src=""> </script>', "")  # no MathJax: nothing to load
    found = re.findall(r"<(?:script|link)\b[^>]*(?:src|href)=\"(https?:[^\"]+)\"", output)
    if found:
        raise RuntimeError(f"{page.file.src_uri}: fetches {found[0]} (the site must work offline)")
    return output
