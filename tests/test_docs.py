"""The README and the docs pages: the README is short, its links resolve, its example runs; each
format's example files validate against the JSON Schema the docs build derives for it.

The site itself is built in strict mode and opened in chromium by tests/browser/test_docs_site.py.
"""

import importlib.util
import json
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_is_at_most_10_kb():
    assert README.stat().st_size <= 10 * 1024


def test_every_link_in_the_readme_resolves_to_a_file():
    links = LINK.findall(README.read_text(encoding="utf-8"))
    assert links
    missing = [link for link in links if not (ROOT / link.split("#")[0]).is_file()]
    assert missing == []


def test_each_journey_is_one_click_from_the_readme():
    links = set(LINK.findall(README.read_text(encoding="utf-8")))
    for reader in ("researcher", "rag-engineer", "ci-maintainer", "teacher"):
        assert f"docs/journeys/{reader}.md" in links


# pages the docs build generates (docs/hooks.py); the strict build checks links into them
GENERATED = (
    "gallery/",
    "reference/commands/",
    "reference/formats/",
    "explanation/",
    "changelog.md",
)


def test_every_link_between_hand_written_docs_pages_resolves():
    docs = ROOT / "docs"
    missing = []
    for page in sorted(docs.rglob("*.md")):
        for link in LINK.findall(page.read_text(encoding="utf-8")):
            target = (page.parent / link.split("#")[0]).resolve()
            if re.match(r"[a-z]+:", link) or target.is_file():
                continue
            if not target.relative_to(docs).as_posix().startswith(GENERATED):
                missing.append(f"{page.relative_to(ROOT)}: {link}")
    assert missing == []


def test_the_readme_python_example_runs_as_written():
    (code,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "60.0% (3/5) 100.0% (3/3)"


def test_the_readme_command_example_prints_what_the_readme_says():
    from tests.conftest import run_cli

    (block,) = re.findall(r"## One example\n\n```sh\n(.*?)```", README.read_text("utf-8"), re.S)
    command, *args = block.split()
    assert command.endswith("claimlab")
    out = run_cli(*args, check=True).stdout
    assert "100.0% (3/3)" in out and "60.0% (3/5)" in out and "U4, U5" in out


def hooks():
    """docs/hooks.py, the generator of the site's reference pages, as a module."""
    pytest.importorskip("mkdocs", reason="the docs tools are not installed (make setup)")
    spec = importlib.util.spec_from_file_location("claimlab_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def examples():
    """Every shipped example file (fixtures/), as the format reference finds them."""
    folder = ROOT / "fixtures"
    paths = sorted([*folder.rglob("*.json"), *folder.rglob("*.jsonl")])
    return [p.relative_to(folder).as_posix() for p in paths]


@pytest.mark.parametrize("example", examples())
def test_each_example_has_its_format_page_and_is_read_by_its_reader(example):
    import claimlab

    module = hooks()
    fmt = module.format_of(ROOT / "fixtures" / example)
    assert fmt in module.FORMATS, f"{example}: format {fmt!r} has no reference page"
    assert example in module.format_examples()[fmt]
    getattr(claimlab, module.FORMATS[fmt].reader)(ROOT / "fixtures" / example)


@pytest.mark.parametrize("example", examples())
def test_each_example_validates_against_its_formats_schema(example):
    import jsonschema

    module = hooks()
    path = ROOT / "fixtures" / example
    fmt = module.format_of(path)
    schema = module.format_schema(fmt)
    if schema is None:
        pytest.skip(f"{fmt}: no declaration to derive a schema from yet")
    lines = path.read_text(encoding="utf-8").splitlines() if example.endswith(".jsonl") else None
    documents = [json.loads(x) for x in lines] if lines else [json.loads(path.read_text("utf-8"))]
    for document in documents:
        jsonschema.validate(document, schema)


def with_parts():
    """The examples whose format declares a list of records on its own (``parts``)."""
    module = hooks()
    formats = {e: module.FORMATS.get(module.format_of(ROOT / "fixtures" / e)) for e in examples()}
    return [e for e, fmt in formats.items() if fmt is not None and fmt.parts]


@pytest.mark.parametrize("example", with_parts())
def test_each_examples_declared_records_validate_against_their_schema(example):
    """The parts a format declares (``claimlab.io.declared``): every item of a declared list,
    and a declared object itself, of every example against the schema derived from it."""
    import jsonschema

    module = hooks()
    path = ROOT / "fixtures" / example
    parts = module.part_schemas(module.format_of(path))
    assert parts
    document = json.loads(path.read_text(encoding="utf-8"))
    for field, schema in parts.items():
        given = document.get(field, [])  # an optional part (``game``) may be left out
        for item in given if isinstance(given, list) else [given]:
            jsonschema.validate(item, schema)


def test_every_declared_part_is_shown_by_some_example():
    """Each part of a format's page has an example that holds it (validated above)."""
    module = hooks()
    held = {
        (module.format_of(ROOT / "fixtures" / e), field)
        for e in with_parts()
        for field in json.loads((ROOT / "fixtures" / e).read_text(encoding="utf-8"))
    }
    declared = {(fmt, field) for fmt, f in module.FORMATS.items() for field, _ in f.parts}
    assert declared <= held, sorted(declared - held)


def test_a_declared_record_that_breaks_its_schema_is_refused():
    import jsonschema

    schema = hooks().part_schemas("claimlab/sufficiency@1")["evidence"]
    document = json.loads((ROOT / "fixtures" / "aurora.json").read_text(encoding="utf-8"))
    item = document["evidence"][0]
    del item["subject"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(item, schema)


def test_a_document_that_breaks_the_schema_is_refused():
    import jsonschema

    schema = hooks().format_schema("claimlab/decomposition@1")
    document = json.loads((ROOT / "fixtures" / "atlas_nova.json").read_text(encoding="utf-8"))
    del document["units"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema)


def test_every_command_has_a_generated_page():
    pages = hooks().command_pages()
    from claimlab.tooling.cli import build_parser

    help_text = build_parser().format_help()
    assert "reference/commands/index.md" in pages
    for name, page in pages.items():
        if not name.endswith("index.md"):
            assert "usage: claimlab " in page and name.split("/")[-1][:-3] in help_text
