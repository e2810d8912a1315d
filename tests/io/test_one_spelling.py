"""One text, one spelling: a value written composed (NFC) or decomposed (NFD) is one value.

Every reader gives ids, values, entities, conditions, labels and names in NFC, and so does the
command line; the texts that UTF-16 offsets point into (a decomposition's ``text`` fields)
stay as written. The property: a file whose strings are each written either way at random
loads to the very records of the same file written composed, for every loader.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.io.decomposition import AS_WRITTEN, load_decomposition, read_decomposition
from claimlab.io.reader import nfc_json
from claimlab.tooling.cli import main
from tests.conftest import FIXTURES
from tests.scratch import scratch_dir

ACCENT = str.maketrans({"e": "\u00e9", "a": "\u00e1", "o": "\u00f6"})  # one UTF-16 unit each
VOCAB = {"format", "offset_unit", "status", "errors", "review", "mapping", "language", "split"}
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _keys(value) -> set[str]:
    if isinstance(value, list):
        return set().union(*map(_keys, value)) if value else set()
    if isinstance(value, dict):
        return set(value).union(*map(_keys, value.values()))
    return set()


def accented(doc):
    """The document with letters accented everywhere but in vocabulary fields, composed.

    A letter-for-letter map keeps every id reference, every substring and every UTF-16
    offset of the original document; a value naming a key (a question, a mode) stays.
    """
    names = _keys(doc)

    def walk(value, key=None):
        if isinstance(value, str):
            return value if key in VOCAB or value in names else value.translate(ACCENT)
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        return value

    return walk(doc)


def mixed(doc, as_written=frozenset()):
    """Strategy: the document with each string (but those kept as written) composed or not."""

    def spelt(seed: int):
        coin = random.Random(seed)

        def walk(value, key=None):
            if isinstance(value, str):
                return nfd(value) if key not in as_written and coin.random() < 0.5 else value
            if isinstance(value, list):
                return [walk(v, key) for v in value]
            if isinstance(value, dict):
                return {k: walk(v, k) for k, v in value.items()}
            return value

        return walk(doc)

    return st.integers(0, 2**32).map(spelt)


def _fixture(name: str):
    return accented(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


def _write(path: Path, doc) -> Path:
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


DECOMPOSITIONS = {n: _fixture(n) for n in ("atlas_nova.json", "ferry_lines.json")}
DECOMPOSITIONS["reader-en.ana.json"] = _fixture("annotations/reader-en.ana.json")


@SETTINGS
@given(
    st.sampled_from(sorted(DECOMPOSITIONS)).flatmap(
        lambda n: mixed(DECOMPOSITIONS[n], AS_WRITTEN).map(lambda d: (n, d))
    ),
    st.booleans(),
)
def test_a_decomposition_in_mixed_spellings_loads_to_the_composed_ones_records(case, escaped):
    """Invariant: the reader of parsed documents and the loader give the composed records."""
    name, doc = case
    tmp = Path(scratch_dir("claimlab-nfc-"))
    composed = load_decomposition(_write(tmp / "d.json", DECOMPOSITIONS[name]))
    text = json.dumps(doc, ensure_ascii=escaped)  # \u escapes spell combining marks too
    (tmp / "d.json").write_text(text, encoding="utf-8")
    assert load_decomposition(tmp / "d.json") == composed
    assert read_decomposition(json.loads(text), source=str(tmp / "d.json")) == composed


SUFFICIENCY = {n: _fixture(n) for n in ("library_loans.json", "aurora.json", "parcel_routes.json")}


@SETTINGS
@given(
    st.sampled_from(sorted(SUFFICIENCY)).flatmap(
        lambda n: mixed(SUFFICIENCY[n]).map(lambda d: (n, d))
    )
)
def test_a_sufficiency_file_in_mixed_spellings_loads_to_the_composed_ones_records(case):
    from claimlab.io.sufficiency import load_sufficiency

    name, doc = case
    tmp = Path(scratch_dir("claimlab-nfc-"))
    composed = load_sufficiency(_write(tmp / "s.json", SUFFICIENCY[name]))
    assert load_sufficiency(_write(tmp / "s.json", doc)) == composed


CONTEXT = _fixture("leave_policy_tr.json")


@SETTINGS
@given(mixed(CONTEXT))
def test_a_context_lab_file_in_mixed_spellings_loads_to_the_composed_ones_records(doc):
    from claimlab.io.context_lab import load_context_lab

    tmp = Path(scratch_dir("claimlab-nfc-"))
    composed = load_context_lab(_write(tmp / "c.json", CONTEXT))
    assert load_context_lab(_write(tmp / "c.json", doc)) == composed


def _jsonl(rows) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


LEDGER = [
    {"answer_id": "réponse", "candidate_id": "c1", "fingerprint": "f", "preserves": ["U1"],
     "faithful": True, "atomic": True, "status": "SUPPORTED", "model": "modèle"},
    {"answer_id": "réponse", "candidate_id": "c2", "fingerprint": "g", "preserves": [],
     "faithful": False, "atomic": True, "status": "CONTRADICTED", "model": "modèle"},
]  # fmt: skip
UNITS = [{"answer_id": "réponse", "unit_id": "U1"}, {"answer_id": "réponse", "unit_id": "U2"}]


def _cell(v) -> str:
    """A CSV cell: a list of one id as the id, true/false in lower case."""
    return ";".join(v) if isinstance(v, list) else json.dumps(v, ensure_ascii=False).strip('"')


@settings(max_examples=15, deadline=None)
@given(mixed(LEDGER), mixed(UNITS), st.sampled_from(["jsonl", "csv"]))
def test_ledger_tables_in_mixed_spellings_read_as_the_composed_ones(cands, units, kind):
    from claimlab.io.ledger import load_table

    tmp = Path(scratch_dir("claimlab-nfc-"))
    for rows, spelt in ((LEDGER, cands), (UNITS, units)):
        assert load_table(_table(rows, tmp / f"a.{kind}")) == load_table(
            _table(spelt, tmp / f"b.{kind}")
        )


def _table(rows, path: Path) -> Path:
    if path.suffix == ".jsonl":
        path.write_text(_jsonl(rows), encoding="utf-8")
        return path
    lines = [",".join(rows[0])] + [",".join(_cell(v) for v in r.values()) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ------------------------------------------------------------------ the named cases, exactly


def _run(*argv) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    assert code == 0, err.getvalue()
    return code, json.loads(out.getvalue())


def _loans(tmp_path: Path, change) -> Path:
    doc = json.loads((FIXTURES / "library_loans.json").read_text(encoding="utf-8"))
    by_id = {e["id"]: e for e in doc["evidence"]}
    change(by_id)
    return _write(tmp_path / "loans.json", doc)


def test_fourteen_days_composed_and_decomposed_are_one_value_not_a_conflict(tmp_path):
    def change(ev):
        for eid, spelling in (("L2", "14 d\u00edas"), ("L3", nfd("14 d\u00edas"))):
            ev[eid]["text"] = f"Under the short-loan rule a loan lasts {spelling}."
            ev[eid]["object"] = spelling

    f = _loans(tmp_path, change)
    _, got = _run("sufficiency", f, "--question", "loan_period", "--context", "L1,L2,L3", "--json")
    assert got["status"] == "SUFFICIENT" and not got.get("conflicts")


@pytest.mark.parametrize(("condition", "given"), [(True, False), (False, True)])
def test_a_condition_is_met_by_the_same_circumstance_in_the_other_spelling(
    tmp_path, condition, given
):
    said = "prestado en s\u00e1bado"  # composed

    def change(ev):
        ev["L4"]["conditions"] = [nfd(said) if condition else said]

    f = _loans(tmp_path, change)
    args = ["sufficiency", f, "--question", "loan_period", "--context", "L4,L5", "--json"]
    _, got = _run(*args, "--circumstance", nfd(said) if given else said)
    assert got["status"] == "SUFFICIENT"


def test_a_reference_entity_decomposed_keeps_confirmed_support_by_entity(tmp_path):
    doc = accented(json.loads((FIXTURES / "ferry_lines.json").read_text(encoding="utf-8")))
    args = ["decomposition", None, "--mode", "faithful", "--by-entity", "--json"]
    args[1] = _write(tmp_path / "composed.json", doc)
    _, composed = _run(*args)
    for r in doc["references"]:
        if "entity" in r:
            r["entity"] = nfd(r["entity"])
    args[1] = _write(tmp_path / "decomposed.json", doc)
    _, decomposed = _run(*args)
    assert decomposed["confirmed_support"] == composed["confirmed_support"]
    assert decomposed["entity_groups"] == composed["entity_groups"]


def test_two_keys_that_are_one_name_once_composed_are_refused():
    with pytest.raises(ValueError, match="written twice"):
        nfc_json({"d\u00edas": 1, nfd("d\u00edas"): 2}, file="f.json")


def test_texts_that_offsets_point_into_stay_as_written():
    doc = {"id": nfd("\u00e9"), "original": {"text": nfd("\u00e9t\u00e9")}}
    got = nfc_json(copy.deepcopy(doc), as_written=AS_WRITTEN)
    assert got["id"] == "\u00e9" and got["original"]["text"] == doc["original"]["text"]


def test_the_command_line_gives_texts_one_spelling_and_leaves_paths_as_the_system_spells_them(
    tmp_path,
):
    import argparse

    from claimlab.notebook.terminal import nfc_arguments, output_path

    named = tmp_path / nfd("d\u00edas.json")  # a file whose name is written decomposed
    named.write_text("{}", encoding="utf-8")
    me = nfd("m\u00e9")
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--circumstance", nargs="+")
    p.add_argument("--out", type=output_path)
    p.add_argument("--folders", nargs="+")
    args = p.parse_args(
        [str(named), "--circumstance", nfd("s\u00e1bado"), "--out", nfd("r\u00e9sum\u00e9.csv")]
        + ["--folders", f"{me}={named}", f"@{named}"]
    )
    nfc_arguments(p, args)
    assert args.file == str(named) and args.out == nfd("r\u00e9sum\u00e9.csv")
    assert args.circumstance == ["s\u00e1bado"]
    assert args.folders == [f"{me}={named}", f"@{named}"]


_line_texts = st.text(alphabet='ae\u0301\u00e9\u0308ก가\n\\"u', max_size=4)
_line_values = st.recursive(
    st.one_of(st.none(), st.integers(-3, 3), _line_texts),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(_line_texts, inner, max_size=2),
    max_leaves=5,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_line_values, max_size=4), st.booleans(), st.booleans())
def test_a_json_lines_file_reads_as_each_of_its_lines_read_alone(values, escaped, as_written):
    """Lines are given one spelling as if each were a file of its own (one check of the whole
    file where it is spelt one way, line by line where not): the same values either way."""
    import tempfile

    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.reader import iter_jsonl, read_json

    keep = frozenset({"e\u0301"}) if as_written else frozenset()
    lines = [json.dumps(v, ensure_ascii=escaped) for v in values]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "f.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            got = list(iter_jsonl(path, as_written=keep))
        except ClaimlabInputError as exc:
            got = ("refused", exc.field)
        want = []
        for n, line in enumerate(lines, 1):
            alone = Path(d) / f"{n}.json"
            alone.write_text(line, encoding="utf-8")
            try:
                want.append((n, read_json(alone, error=ClaimlabInputError, as_written=keep)))
            except ClaimlabInputError as exc:
                want = ("refused", exc.field)
                break
    assert got == want
