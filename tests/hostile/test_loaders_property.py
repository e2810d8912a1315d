"""Generated bad structures for every loader: one line on stderr, exit 2, never a traceback.

Each case starts from a valid file, changes one place in it (a value of another type, a huge
or non-finite number, deep nesting, a missing field, broken bytes), and runs the command a
user would run. The command either still works (exit 0: the change was harmless) or refuses
in one line naming the file (exit 2). Exit 1, a second line or a traceback fails the test.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.tooling.cli import main
from tests.conftest import FIXTURES
from tests.io.test_multihop import MUSIQUE_ROW
from tests.scratch import scratch_dir

DEEP = "[" * 3000 + "]" * 3000  # beyond the parser's 1,024 levels
# within them, and beyond Python's default recursion limit when walked, shown or written again
NESTED = ["[" * n + "]" * n for n in (600, 1000, 1018)]
NESTED_OBJECTS = '{"a":' * 1018 + "1" + "}" * 1018
NESTED_TEXT = "[" * 1018 + '"e\\u0301"' + "]" * 1018  # a decomposed spelling to compose, deep
BAD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just([[]]),
    st.just({}),
    st.just("RAW:" + DEEP),
    st.sampled_from(["RAW:" + x for x in (*NESTED, NESTED_OBJECTS, NESTED_TEXT)]),
    st.just("RAW:1" + "0" * 400),
    st.just("RAW:NaN"),
    st.just("RAW:-Infinity"),
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            yield from _paths(v, (*prefix, i))


def _set(doc, path, value, delete):
    if not path:
        return value
    target = doc
    for p in path[:-1]:
        target = target[p]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


RAW_MARK = "\x00RAW\x00"


def mutated_json(data, data_strategy):
    """A strategy for the text of ``data`` with one place changed."""
    paths = list(_paths(data))

    @st.composite
    def build(draw):
        path = draw(st.sampled_from(paths))
        value = draw(BAD_VALUES)
        delete = draw(st.booleans())
        doc = _set(copy.deepcopy(data), path, value, delete)
        raw = None
        if isinstance(value, str) and value.startswith("RAW:"):
            raw = value[4:]
            doc = _set(copy.deepcopy(data), path, RAW_MARK, False)
        text = json.dumps(doc, ensure_ascii=False, allow_nan=True)
        if raw is not None:
            text = text.replace(json.dumps(RAW_MARK), raw, 1)
        return text.encode("utf-8")

    return build()


@st.composite
def broken_bytes(draw, data: bytes):
    """The file with bytes inserted (not UTF-8, control bytes) or cut short."""
    at = draw(st.integers(min_value=0, max_value=len(data)))
    kind = draw(st.sampled_from(["insert", "truncate", "bom", "nul"]))
    if kind == "insert":
        junk = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]))
        return data[:at] + junk + data[at:]
    if kind == "truncate":
        return data[:at]
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    return data[:at] + b"\x00" + data[at:]


def run(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def assert_refused_or_fine(args, command, file):
    code, out, err = run(args)
    assert code in (0, 2), f"exit {code}: {err}"
    assert "Traceback" not in err and "\x1b" not in out + err
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith(f"claimlab {command}: error: "), lines[0]
        assert Path(file).name in lines[0] or "--" in lines[0], lines[0]
    return code


def _write(folder: Path, name: str, data: bytes) -> Path:
    p = folder / name
    p.write_bytes(data)
    return p


SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FX = {
    name: json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    for name in (
        "atlas_nova.json",
        "aurora.json",
        "leave_policy_tr.json",
        "library_loans.json",
        "ferry_lines.json",
    )
}
SEED = FX["leave_policy_tr.json"]["answers"]["seed"]
CHUNKS = FX["leave_policy_tr.json"]["chunks"]


def _tmp() -> Path:
    return Path(scratch_dir("claimlab-prop-"))


@SETTINGS
@given(mutated_json(FX["atlas_nova.json"], None))
def test_decomposition_loader(data):
    f = _write(_tmp(), "d.json", data)
    assert_refused_or_fine(["decomposition", f, "--mode", "baseline", "--json"], "decomposition", f)


@SETTINGS
@given(mutated_json(FX["ferry_lines.json"], None))
def test_decomposition_loader_with_weights_entailment_and_background(data):
    f = _write(_tmp(), "d.json", data)
    args = ["decomposition", f, "--mode", "faithful", "--select-core", "--by-entity", "--json"]
    assert_refused_or_fine(args, "decomposition", f)


@SETTINGS
@given(broken_bytes((FIXTURES / "atlas_nova.json").read_bytes()))
def test_decomposition_loader_bytes(data):
    f = _write(_tmp(), "d.json", data)
    assert_refused_or_fine(["decomposition", f, "--mode", "baseline"], "decomposition", f)


@SETTINGS
@given(mutated_json(FX["aurora.json"], None))
def test_sufficiency_loader(data):
    f = _write(_tmp(), "s.json", data)
    args = ["sufficiency", f, "--question", "room", "--context", "E1,E2"]
    assert_refused_or_fine(args, "sufficiency", f)


@SETTINGS
@given(mutated_json(FX["library_loans.json"], None))
def test_sufficiency_v3_loader(data):
    """Conditions, circumstances and single-valued rules broken every way: refused or fine."""
    f = _write(_tmp(), "s.json", data)
    args = ["sufficiency", f, "--question", "loan_period", "--context", "L1", "L2", "L3"]
    assert_refused_or_fine(args, "sufficiency", f)


@SETTINGS
@given(mutated_json(CHUNKS, None))
def test_chunks_loader(data):
    f = _write(_tmp(), "c.json", data)
    args = ["pack", f, "--max-chunks", "4", "--max-tokens", "120", "--show-prompt"]
    assert_refused_or_fine(args, "pack", f)


@SETTINGS
@given(mutated_json(SEED, None))
def test_answer_loader(data):
    d = _tmp()
    f = _write(d, "a.json", data)
    sent = _write(d, "sent.json", json.dumps(CHUNKS).encode())
    assert_refused_or_fine(["citations", f, "--context", sent], "citations", f)


@SETTINGS
@given(mutated_json(FX["leave_policy_tr.json"], None))
def test_context_lab_loader(data):
    from claimlab.io.context_lab import load_context_lab

    f = _write(_tmp(), "lab.json", data)
    with contextlib.suppress(ClaimlabInputError):
        load_context_lab(f)


GOLD = [
    {"id": 1, "label": "SUPPORTS", "claim": "c", "evidence": [[[1, 2, "P", 0]]]},
    {"id": 2, "label": "NOT ENOUGH INFO", "claim": "d", "evidence": [[[3, None, None, None]]]},
]
PRED = [
    {"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [["P", 0]]},
    {"id": 2, "predicted_label": "REFUTES", "predicted_evidence": []},
]


def _jsonl(rows) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in rows)


def _records(data: bytes):
    """The mutated list as records, or None when it is no longer a list (or too deep to read)."""
    try:
        rows = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return rows if isinstance(rows, list) else None


def _as_jsonl(data: bytes) -> bytes:
    """The mutated list as JSON Lines, one record a line; as it is when no longer a list."""
    rows = _records(data)
    return _jsonl(rows) if rows is not None else data


@SETTINGS
@given(mutated_json(GOLD, None), st.booleans())
def test_fever_loaders(data, mutate_gold):
    d = _tmp()
    body = _as_jsonl(data)
    g = _write(d, "g.jsonl", body if mutate_gold else _jsonl(GOLD))
    p = _write(d, "p.jsonl", _jsonl(PRED) if mutate_gold else body)
    assert_refused_or_fine(["fever", g, p], "fever", g if mutate_gold else p)


FACTSCORE = [
    {
        "topic": "t",
        "cat": ["rare"],
        "annotations": [
            {
                "text": "s",
                "is-relevant": True,
                "model-atomic-facts": [{"text": "a"}],
                "human-atomic-facts": [{"text": "a", "label": "S"}],
            }
        ],
    },
    {"topic": "u", "cat": ["freq"], "annotations": None},
]


@SETTINGS
@given(mutated_json(FACTSCORE, None))
def test_factscore_loader(data):
    f = _write(_tmp(), "ChatGPT.jsonl", _as_jsonl(data))
    assert_refused_or_fine(["factscore", f], "factscore", f)


LEDGER = [
    {
        "answer_id": "a",
        "candidate_id": "c1",
        "fingerprint": "f",
        "preserves": ["U1"],
        "faithful": True,
        "atomic": True,
        "status": "SUPPORTED",
    },
    {
        "answer_id": "a",
        "candidate_id": "c2",
        "fingerprint": "g",
        "preserves": [],
        "faithful": False,
        "atomic": True,
        "status": "CONTRADICTED",
    },
]
UNITS = [{"answer_id": "a", "unit_id": "U1"}, {"answer_id": "a", "unit_id": "U2"}]


@SETTINGS
@given(mutated_json(LEDGER, None), st.booleans())
def test_ledger_loaders(data, mutate_candidates):
    d = _tmp()
    body = _as_jsonl(data)
    c = _write(d, "c.jsonl", body if mutate_candidates else _jsonl(LEDGER))
    u = _write(d, "u.jsonl", _jsonl(UNITS) if mutate_candidates else body)
    args = ["ledger", c, "--units", u, "--out", d / "out.csv"]
    assert_refused_or_fine(args, "ledger", c if mutate_candidates else u)


@SETTINGS
@given(
    broken_bytes(
        b"answer_id,candidate_id,fingerprint,preserves,faithful,atomic,status\n"
        b'a,c1,f,U1,true,true,SUPPORTED\na,c2,"g\nh",,false,true,CONTRADICTED\n'
    )
)
def test_ledger_csv_bytes(data):
    d = _tmp()
    c = _write(d, "c.csv", data)
    u = _write(d, "u.csv", b"answer_id,unit_id\na,U1\na,U2\n")
    assert_refused_or_fine(["ledger", c, "--units", u], "ledger", c)


WICE = {
    "label": "supported",
    "supporting_sentences": [[1, 2], [0]],
    "claim": "c",
    "evidence": ["s0", "s1", "s2"],
    "meta": {"id": "w1"},
}


@SETTINGS
@given(mutated_json(WICE, None))
def test_wice_loader(data):
    from claimlab.io.wice import load_wice

    f = _write(_tmp(), "w.jsonl", data.replace(b"\n", b" ") + b"\n")
    for mode in ("error", "drop"):
        with contextlib.suppress(ClaimlabInputError):
            load_wice(f, empty_groups=mode)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["ledger", "x.csv"], "give CANDIDATES and --units UNITS, or --from-decompositions"),
        (["fever", "g.jsonl", "p.jsonl", "--max-evidence", "-1"], "--max-evidence"),
        (["pack", "c.json", "--max-chunks", "x", "--max-tokens", "1"], "--max-chunks"),
        (["serve", "--port", "99999"], "--port"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(args, needle):
    code, _, err = run(args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err


RAW_ANSWERS = [
    {
        "id": "q1",
        "answer": "📘 Version 2 reads PDF. It exports notes.",
        "subclaims": ["Version 2 reads PDF", "It exports notes"],
        "units": ["Version 2 reads PDF.", {"start": 24, "end": 41}],
        "references": [{"id": "R1", "title": "t", "version": "v", "text": "Reads PDF."}],
        "labels": [{"status": "SUPPORTED", "references": ["R1"]}, None],
    },
    {"id": "q2", "answer": "แอปอ่าน PDF ได้ ส่งออกโน้ตได้", "subclaims": ["แอปอ่าน PDF ได้"]},
]


@SETTINGS
@given(mutated_json(RAW_ANSWERS, None))
def test_raw_subclaims_loader(data):
    d = _tmp()
    f = _write(d, "raw.jsonl", _as_jsonl(data))
    assert_refused_or_fine(["draft", f, "--out", d / "drafts"], "draft", f)


ANNOTATED = json.loads(
    (FIXTURES / "annotations" / "reader-en.ana.json").read_text(encoding="utf-8")
)


@SETTINGS
@given(mutated_json(ANNOTATED, None))
def test_annotated_file_loader_and_agreement(data):
    d = _tmp()
    f = _write(d, "a.json", data)
    other = FIXTURES / "annotations" / "reader-en.ben.json"
    assert_refused_or_fine(["agreement", f, other, "--json"], "agreement", f)
    assert_refused_or_fine(["adjudicate", f, other, "--out", d / "gold.json"], "adjudicate", f)


MUSIQUE = [MUSIQUE_ROW]
HOTPOTQA = [
    {
        "_id": "hp1",
        "question": "q",
        "answer": "a",
        "type": "bridge",
        "level": "easy",
        "supporting_facts": [["T1", 0], ["T2", 1]],
        "context": [["T1", ["s0", "s1"]], ["T2", ["s0", "s1"]]],
    }
]


CONVERTED = {"musique": MUSIQUE, "hotpotqa": HOTPOTQA}


@SETTINGS
@given(
    st.sampled_from(sorted(CONVERTED)).flatmap(
        lambda kind: mutated_json(CONVERTED[kind], None).map(lambda data: (kind, data))
    )
)
def test_multihop_converters(case):
    kind, data = case
    d = _tmp()
    f = _write(d, f"{kind}.json", data)
    args = ["convert", kind, f, "--out", d / "out.json"]
    if assert_refused_or_fine(args, "convert", f) == 0:
        # whatever the converter accepts, the sufficiency commands read back
        args = ["sufficiency-cases", d / "out.json", "--out", d / "cases.json"]
        assert assert_refused_or_fine(args, "sufficiency-cases", d / "out.json") == 0


@SETTINGS
@given(mutated_json(LEDGER, None))
def test_ledger_human_labels(data):
    d = _tmp()
    h = _write(d, "human.jsonl", _as_jsonl(data))
    c = _write(d, "c.jsonl", _jsonl(LEDGER))
    u = _write(d, "u.jsonl", _jsonl(UNITS))
    args = ["ledger", c, "--units", u, "--human", h, "--json"]
    assert_refused_or_fine(args, "ledger", h)


def _read_both_ways(data: bytes, source: str):
    """A decomposition document converted by its declaration and walked by it, and the reader.

    Returns (converted records or None where msgspec refuses, walked records or the walk's
    error, the reader's fixture or its error); (None, None, None) when it is not JSON.
    """
    import msgspec
    import orjson

    from claimlab.io.declared import check_record
    from claimlab.io.decomposition import AS_WRITTEN, DecompositionDocument, read_decomposition
    from claimlab.io.reader import Record, nfc_json

    try:
        doc = orjson.loads(data)  # what the command line parses: refused here, read by neither
        doc = nfc_json(doc, as_written=AS_WRITTEN, file=source)
    except (orjson.JSONDecodeError, ClaimlabInputError):  # two keys one once composed: refused
        return None, None, None
    outcomes = []
    for read in (  # null for a field with a default is that field left out (the formats' page)
        lambda d: msgspec.convert(_nulls_left_out(DecompositionDocument, d), DecompositionDocument),
        lambda d: check_record(DecompositionDocument, Record(d, file=source)),
        lambda d: read_decomposition(d, source=source),
    ):
        try:
            outcomes.append(read(doc))
        except msgspec.ValidationError:
            outcomes.append(None)
        except ClaimlabInputError as exc:
            outcomes.append(exc)
    return tuple(outcomes)


def _nulls_left_out(cls, value):
    """``value`` with every field of the declaration that has a default and is null left out."""
    from claimlab.io import declared

    if not isinstance(value, dict):
        return value
    out = {}
    for name, item in value.items():
        f = next((f for f in declared._fields(cls) if f.name == name), None)
        if f is not None and item is None and f.default is not declared._REQUIRED:
            continue
        if f is not None and declared._is_record(f.kind):
            if f.keyed and isinstance(item, dict):
                item = {k: _nulls_left_out(f.kind, v) for k, v in item.items()}
            elif f.many and isinstance(item, list):
                item = [_nulls_left_out(f.kind, v) for v in item]
            elif not f.many:
                item = _nulls_left_out(f.kind, item)
        out[name] = item
    return out


def _spelt_both_ways():
    """Decomposition files accented, each string then composed or decomposed at random."""
    from claimlab.io.decomposition import AS_WRITTEN
    from tests.io.test_one_spelling import DECOMPOSITIONS, mixed

    return st.sampled_from(sorted(DECOMPOSITIONS)).flatmap(
        lambda n: mixed(DECOMPOSITIONS[n], AS_WRITTEN).map(
            lambda d: json.dumps(d, ensure_ascii=False).encode("utf-8")
        )
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        mutated_json(FX["atlas_nova.json"], None),
        mutated_json(FX["ferry_lines.json"], None),
        mutated_json(ANNOTATED, None),
        _spelt_both_ways(),
    )
)
def test_the_declarations_conversion_and_its_walk_read_every_document_alike(data):
    """Invariant: msgspec's conversion of the declaration and its field-by-field walk agree.

    The same records where both read the document; where the conversion refuses, the walk
    names a problem (so the reader's error is the walk's, file, record and field). A field
    with a default written null is that field left out, for both.
    """
    converted, walked, fx = _read_both_ways(data, "x.json")
    if fx is None:  # not JSON the command line reads
        return
    if converted is not None:
        assert walked == converted, "the walk refused or read otherwise what msgspec converted"
        return
    assert isinstance(walked, ClaimlabInputError), "the walk accepted what msgspec refused"
    assert isinstance(fx, ClaimlabInputError)
    if fx.field not in ("format", "offset_unit"):  # the header's own words come first
        assert str(fx) == str(walked)


def _rag_doc():
    from tests.metrics.test_rag import HAND, checked

    return checked([HAND, HAND])


@SETTINGS
@given(mutated_json(_rag_doc(), None))
def test_ragchecker_checking_output_loader(data):
    f = _write(_tmp(), "checked.json", data)
    assert_refused_or_fine(["rag", f, "--json", "--per-query"], "rag", f)


META_HUMAN = [
    {"instance_id": i // 2, "dataset": "d", "query": "q", "correctness_label": (i % 5) - 2,
     "completeness_label": 1, "overall_label": (i % 3) - 1}
    for i in range(8)
]  # fmt: skip
META_SCORES = [
    {"instance_id": i, "model1": {"ragchecker": {k: 0.1 * i for k in ("correctness_label",
     "completeness_label", "overall_label")}}, "model2": {"ragchecker": {"correctness_label": 0.5,
     "completeness_label": 0.2 * i, "overall_label": None}}}
    for i in range(4)
]  # fmt: skip


@SETTINGS
@given(st.booleans(), st.data())
def test_meta_evaluation_loaders(mutate_human, data):
    d = _tmp()
    human = _write(d, "human.json", json.dumps(META_HUMAN).encode())
    scores = _write(d, "scores.json", json.dumps(META_SCORES).encode())
    target = human if mutate_human else scores
    target.write_bytes(data.draw(mutated_json(META_HUMAN if mutate_human else META_SCORES, None)))
    args = ["meta-eval", human, scores, "--bootstrap", "100", "--json"]
    code, _, err = run(args)
    assert code in (0, 2) and "Traceback" not in err, err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and ("human.json" in err or "scores.json" in err)


HOTPOT_PRED = {"answer": {"hp1": "a"}, "sp": {"hp1": [["T1", 0]]}}
MUSIQUE_PRED = [
    {"id": MUSIQUE_ROW["id"], "predicted_answer": "x", "predicted_support_idxs": [0, 1],
     "predicted_answerable": True}
]  # fmt: skip


@SETTINGS
@given(st.sampled_from(["gold", "pred"]), st.data())
def test_official_scorer_loaders(which, data):
    d = _tmp()
    for kind, gold, pred in (
        ("hotpotqa", HOTPOTQA, HOTPOT_PRED),
        ("musique", MUSIQUE, MUSIQUE_PRED),
    ):
        g = _write(d, f"{kind}-gold.json", json.dumps(gold).encode())
        p = _write(d, f"{kind}-pred.json", json.dumps(pred).encode())
        target = g if which == "gold" else p
        target.write_bytes(data.draw(mutated_json(gold if which == "gold" else pred, None)))
        assert_refused_or_fine([kind, g, p, "--json"], kind, target)


SPELT_COMMANDS = {
    "ferry_lines.json": ["decomposition", "{F}", "--mode", "faithful", "--select-core",
                         "--by-entity", "--json"],
    "library_loans.json": ["sufficiency", "{F}", "--question", "loan_period", "--context",
                           "L1,L2,L3,L4,L5", "--json"],
}  # fmt: skip


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SPELT_COMMANDS)), st.data())
def test_a_command_given_mixed_spellings_prints_what_it_prints_for_the_composed_file(name, data):
    """Invariant: no figure, status or id printed changes with how a file spells its strings."""
    from claimlab.io.decomposition import AS_WRITTEN
    from tests.io.test_one_spelling import _fixture, mixed

    composed = _fixture(name)
    keep = AS_WRITTEN if name == "ferry_lines.json" else frozenset()
    spelt = data.draw(mixed(composed, keep))
    f = _tmp() / name
    outputs = []
    for doc in (composed, spelt):
        f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        args = [str(f) if a == "{F}" else a for a in SPELT_COMMANDS[name]]
        code, out, err = run(args)
        assert code == 0, err
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1]


# ------------------------------------------------------------------ nested as deep as read
def _deep_values(depth):
    """Values nested ``depth`` levels: lists, objects, and a list holding a decomposed text."""
    return (
        "[" * depth + "]" * depth,
        '{"a":' * depth + "1" + "}" * depth,
        "[" * depth + '"e\\u0301"' + "]" * depth,
    )


def _in_place(data, path, raw):
    doc = _set(copy.deepcopy(data), path, RAW_MARK, False)
    return json.dumps(doc, ensure_ascii=False).replace(json.dumps(RAW_MARK), raw, 1).encode()


def _deep_runs(d):
    """(loader, its base data, how to run it on a file's bytes): a command per reader."""
    sent = _write(d, "sent.json", json.dumps(CHUNKS).encode())
    other = FIXTURES / "annotations" / "reader-en.ben.json"
    gold, pred = _write(d, "g.jsonl", _jsonl(GOLD)), _write(d, "p.jsonl", _jsonl(PRED))

    def one(name, suffix, args, lines=False):
        def run_on(data):
            f = _write(_tmp(), name + suffix, _as_jsonl(data) if lines else data)
            return assert_refused_or_fine([a if a != "{F}" else f for a in args], args[0], f)

        return run_on

    return {
        "decomposition": (FX["ferry_lines.json"], one("d", ".json", ["decomposition", "{F}",
                          "--mode", "faithful", "--select-core", "--by-entity", "--json"])),
        "sufficiency": (FX["library_loans.json"], one("s", ".json", ["sufficiency", "{F}",
                        "--question", "loan_period", "--context", "L1", "L2", "L3", "--json"])),
        "pack": (CHUNKS, one("c", ".json", ["pack", "{F}", "--max-chunks", "4", "--show-prompt"])),
        "citations": (SEED, one("a", ".json", ["citations", "{F}", "--context", sent, "--json"])),
        "fever gold": (GOLD, one("g", ".jsonl", ["fever", "{F}", pred, "--json"], lines=True)),
        "fever predictions": (PRED, one("p", ".jsonl", ["fever", gold, "{F}"], lines=True)),
        "factscore": (FACTSCORE, one("ChatGPT", ".jsonl", ["factscore", "{F}"], lines=True)),
        "ledger": (LEDGER, one("c", ".jsonl", ["ledger", "{F}", "--units",
                   _write(d, "u.jsonl", _jsonl(UNITS)), "--json"], lines=True)),
        "draft": (RAW_ANSWERS, one("raw", ".jsonl", ["draft", "{F}", "--out", d / "drafts"],
                  lines=True)),
        "agreement": (ANNOTATED, one("a", ".json", ["agreement", "{F}", other, "--json"])),
        "rag": (_rag_doc(), one("checked", ".json", ["rag", "{F}", "--json", "--per-query"])),
        "musique": (MUSIQUE, one("m", ".json", ["musique", "{F}",
                    _write(d, "mp.json", json.dumps(MUSIQUE_PRED).encode()), "--json"])),
        "convert hotpotqa": (HOTPOTQA, one("h", ".json", ["convert", "hotpotqa", "{F}", "--out",
                             d / "out.json"])),
        "spans": (FX["atlas_nova.json"], one("d", ".json", ["spans", "{F}", "--out",
                  d / "spans.json"])),
        "sufficiency-cases": (FX["library_loans.json"], one("s", ".json", ["sufficiency-cases", "{F}",
                              "--out", d / "cases.json"])),
        "adjudicate": (ANNOTATED, one("a", ".json", ["adjudicate", "{F}", other, "--out",
                       d / "gold.json"])),
        "hotpotqa predictions": (HOTPOT_PRED, one("p", ".json", ["hotpotqa",
                                 _write(d, "hg.json", json.dumps(HOTPOTQA).encode()), "{F}"])),
        "meta-eval": (META_HUMAN, one("human", ".json", ["meta-eval", "{F}",
                      _write(d, "scores.json", json.dumps(META_SCORES).encode()),
                      "--bootstrap", "100", "--json"])),
    }  # fmt: skip


DEEP_LOADERS = sorted(_deep_runs(_tmp()))


def test_a_ledger_line_nested_far_beyond_the_parser_is_refused_in_one_line(tmp_path):
    """pyarrow's JSON reader recursed without a bound (a 100,000-level line ended the process
    with SIGSEGV): such a file is read by the line reader, which refuses it naming the line.
    Run as a process of its own, so a crash is seen as one."""
    import subprocess
    import sys

    cand = _write(tmp_path, "c.jsonl", _jsonl(LEDGER).replace(b"}\n", b', "x": ' + b"[" * 100_000
                  + b"]" * 100_000 + b"}\n", 1))  # fmt: skip
    units = _write(tmp_path, "u.jsonl", _jsonl(UNITS))
    code = "import sys; from claimlab.tooling.cli import main; sys.exit(main())"
    proc = subprocess.run([sys.executable, "-c", code, "ledger", str(cand), "--units", str(units),
                           "--json"], capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2, proc
    assert proc.stderr.count("\n") == 1 and "c.jsonl: line 1: " in proc.stderr


@pytest.mark.parametrize("loader", DEEP_LOADERS)
def test_a_value_nested_as_deep_as_the_parser_reads_is_read_or_refused(loader, tmp_path):
    """Invariant: a value nested up to the parser's depth (1,024 levels, orjson's), in any
    place of any reader's file, is read or refused in one line; never a RecursionError (an
    error message showing it, the composing walk or a text made of it, within Python's own
    recursion limit of 1,000 frames). Each place of the file (the first 80) gets each value."""
    data, run_on = _deep_runs(tmp_path)[loader]
    for path in list(_paths(data))[:80]:
        for raw in _deep_values(1018 - len(path)):
            run_on(_in_place(data, path, raw))
