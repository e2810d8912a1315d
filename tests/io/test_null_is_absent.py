"""In every declared format, null for a field that has a default is the same as leaving it out.

Invariant: for each shipped file of a declared format (decomposition, sufficiency, context lab,
raw decomposer output) and each field of it the declaration gives a default (at any depth the
declaration reaches: the document, its records, their nested records), the file with that field
written ``null`` reads as the file without it: the same records, or the same error (file,
record, field and words). The formats' page says so of every declared format.
"""

import copy
import functools
import json
from pathlib import Path

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io import declared
from claimlab.io.context_lab import ContextLabDocument, load_context_lab
from claimlab.io.decomposition import DecompositionDocument, read_decomposition
from claimlab.io.raw import RawLine, read_raw_answer
from claimlab.io.sufficiency import SufficiencyDocument, read_sufficiency

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _context_lab(data, tmp):
    path = tmp / "lab.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return load_context_lab(path)


READERS = {  # format -> (its declaration, how parsed data is read)
    "claimlab/decomposition@1": (
        DecompositionDocument,
        lambda data, _tmp: read_decomposition(data, source="f.json"),
    ),
    "claimlab/sufficiency@1": (
        SufficiencyDocument,
        lambda data, _tmp: read_sufficiency(data, source="f.json"),
    ),
    "claimlab/context-lab@1": (ContextLabDocument, _context_lab),
}


def optional_places(cls, data, place=()):
    """Where ``data`` writes a field of ``cls`` that has a default (not null): key paths."""
    if not isinstance(data, dict):
        return
    for f in declared._fields(cls):
        if f.name not in data or data[f.name] is None:
            continue
        if f.default is not declared._REQUIRED:
            yield (*place, f.name)
        if not declared._is_record(f.kind):
            continue
        value = data[f.name]
        if f.keyed and isinstance(value, dict):
            for key, item in value.items():
                yield from optional_places(f.kind, item, (*place, f.name, key))
        elif f.many and isinstance(value, list):
            for j, item in enumerate(value):
                yield from optional_places(f.kind, item, (*place, f.name, j))
        elif not f.many:
            yield from optional_places(f.kind, value, (*place, f.name))


# the parts a format reads by rules of its own (held as ``Any`` by its declaration), where every
# field shown here has a default: the same rule
OWN_RULES = {
    "claimlab/decomposition@1": lambda data: [
        *[("game", k) for k in ("slots", "puzzles") if k in data.get("game", {})],
        *[
            ("game", "puzzles", name, k)
            for name, puzzle in data.get("game", {}).get("puzzles", {}).items()
            for k in ("start", "title", "note")
            if k in puzzle
        ],
        *[
            ("exercises", j, "solution")
            for j, x in enumerate(data.get("exercises", []))
            if "solution" in x
        ],
    ],
    "claimlab/sufficiency@1": lambda data: [
        *[
            ("exercises", j, "solution")
            for j, x in enumerate(data.get("exercises", []))
            if "solution" in x
        ],
        *[("game", "search_cost", "default")]
        * ("default" in (data.get("game") or {}).get("search_cost", {})),
    ],
    "claimlab/context-lab@1": lambda data: [],
}


def _changed(data, place, null):
    out = copy.deepcopy(data)
    *path, last = place
    holder = out
    for step in path:
        holder = holder[step]
    if null:
        holder[last] = None
    else:
        del holder[last]
    return out


def _outcome(read, data, tmp):
    try:
        return ("read", read(data, tmp))
    except ClaimlabInputError as exc:
        return ("refused", str(exc).replace(str(tmp), "TMP"), exc.field)


def _documents():
    for path in sorted(FIXTURES.glob("*.json")):
        fmt = json.loads(path.read_text(encoding="utf-8")).get("format")
        if fmt in READERS:
            yield path.name


@pytest.mark.parametrize("name", list(_documents()))
def test_a_field_written_null_reads_as_the_field_left_out(name, tmp_path):
    """And the format's JSON Schema (its reference page) takes the file with the null."""
    import jsonschema

    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    cls, read = READERS[data["format"]]
    schema = declared.declared_schema(cls)
    places = [*optional_places(cls, data), *OWN_RULES[data["format"]](data)]
    assert places, f"{name}: no optional field written (the test would hold nothing)"
    for place in places:
        written_null = _changed(data, place, True)
        null = _outcome(read, written_null, tmp_path)
        absent = _outcome(read, _changed(data, place, False), tmp_path)
        assert null == absent, place
        jsonschema.validate(written_null, schema)


def _raw(data, _tmp, *, line):
    return read_raw_answer(data, source="r.jsonl", line=line)


def test_a_raw_lines_field_written_null_reads_as_the_field_left_out():
    import jsonschema

    schema = declared.declared_schema(RawLine)
    lines = (FIXTURES / "raw_subclaims.jsonl").read_text(encoding="utf-8").splitlines()
    checked = 0
    for n, text in enumerate(lines, 1):
        value = json.loads(text)
        for place in optional_places(RawLine, value):
            read = functools.partial(_raw, line=n)
            jsonschema.validate(_changed(value, place, True), schema)
            null = _outcome(read, _changed(value, place, True), Path("/nowhere"))
            absent = _outcome(read, _changed(value, place, False), Path("/nowhere"))
            assert null == absent, (n, place)
            checked += 1
    assert checked


def test_each_formats_page_schema_takes_a_null_optional_field():
    """The schema the reference pages show (docs/hooks.py) is the one that allows it."""
    import importlib.util

    hooks_path = FIXTURES.parent / "docs" / "hooks.py"
    spec = importlib.util.spec_from_file_location("docs_hooks", hooks_path)
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    for fmt, (cls, _) in READERS.items():
        assert hooks.format_schema(fmt) == declared.declared_schema(cls), fmt
