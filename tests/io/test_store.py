"""The run history store: created, refused, migrated, and safe under eight writers at once."""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import sqlite3
import subprocess
import sys

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.store import (
    SCHEMA_VERSION,
    Figure,
    figures_of,
    load_runs,
    record_run,
    run_ids,
    trusted_claims,
)
from tests.conftest import FIXTURES


def test_a_run_is_kept_with_its_inputs_hash_and_figures(tmp_path):
    data = tmp_path / "in.csv"
    data.write_text("a,b\n1,2\n")
    store = tmp_path / "runs.sqlite"
    rid = record_run(
        store, command="ledger", argv=["ledger", str(data)], inputs=[data],
        parameters={"by": None}, figures=[Figure("corpus.micro.coverage", 3, 4, 0.75, 0.5, 0.9)],
        version="1.2.3",
    )  # fmt: skip
    (run,) = load_runs(store)
    assert run.id == rid and run.command == "ledger" and run.version == "1.2.3"
    assert run.inputs == ((str(data), hashlib.sha256(data.read_bytes()).hexdigest()),)
    assert run.figures == (Figure("corpus.micro.coverage", 3, 4, 0.75, 0.5, 0.9),)
    assert load_runs(store, metric="coverage")[0].figures
    with pytest.raises(ClaimlabInputError, match="known names: corpus.micro.coverage"):
        load_runs(store, metric="x")


def test_figures_are_found_by_their_place_in_the_output():
    data = {
        "corpus": {"micro": {"coverage": {"numerator": 1, "denominator": 2, "value": 0.5, "low": 0.1, "high": 0.9}}},
        "files": [{"name": "ChatGPT", "factscore": 0.58, "respond": {"numerator": 1, "denominator": 1, "value": 1.0}}],
    }  # fmt: skip
    assert figures_of(data) == [
        Figure("corpus.micro.coverage", 1, 2, 0.5, 0.1, 0.9, aggregate="micro"),
        Figure("files[ChatGPT].factscore", None, None, 0.58),
        Figure("files[ChatGPT].respond", 1, 1, 1.0),
    ]


def test_paired_comparisons_are_named_by_their_sides_metric_and_aggregate():
    diff = {"value": 0.1, "low": 0.02, "high": 0.2}
    data = {"comparisons": [{"a": "A", "b": "B", "metric": "coverage", "aggregate": agg,
                             "difference": diff, "level": 0.95} for agg in ("micro", "macro")]}  # fmt: skip
    assert [(f.name, f.aggregate, f.low) for f in figures_of(data)] == [
        ("comparisons[A|B|coverage|micro].difference", "micro", 0.02),
        ("comparisons[A|B|coverage|macro].difference", "macro", 0.02),
    ]


def test_a_file_that_is_not_a_claimlab_store_is_refused(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE people (name TEXT)")
    for path, problem in ((junk, "not a claimlab store"), (other, "other tables")):
        with pytest.raises(ClaimlabInputError, match=problem):
            record_run(path, command="x", argv=[], inputs=[], parameters={}, figures=[])


def test_a_newer_store_is_refused_and_an_older_one_migrates_forward(tmp_path):
    store = tmp_path / "runs.sqlite"
    record_run(store, command="x", argv=[], inputs=[], parameters={}, figures=[])
    with sqlite3.connect(store) as con:
        con.execute(
            "UPDATE claimlab_meta SET value = ? WHERE key = 'schema_version'",
            (str(SCHEMA_VERSION + 1),),
        )
    with pytest.raises(ClaimlabInputError, match="newer claimlab"):
        load_runs(store)
    old = tmp_path / "old.sqlite"  # a store from before the first schema: the meta table only
    with sqlite3.connect(old) as con:
        con.execute("CREATE TABLE claimlab_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute(
            "INSERT INTO claimlab_meta VALUES ('application', 'claimlab'), ('schema_version', '0')"
        )
    record_run(old, command="x", argv=[], inputs=[], parameters={}, figures=[])
    assert len(load_runs(old)) == 1
    with sqlite3.connect(old) as con:
        assert con.execute(
            "SELECT value FROM claimlab_meta WHERE key='schema_version'"
        ).fetchone() == (str(SCHEMA_VERSION),)


WRITER = """
import sys
from claimlab.io.store import Figure, record_run
for k in range(int(sys.argv[3])):
    record_run(sys.argv[1], command="w", argv=[sys.argv[2], str(k)], inputs=[], parameters={"w": sys.argv[2]},
               figures=[Figure("f", k, 10, k / 10)])
"""


def test_eight_processes_writing_at_once_leave_every_run(tmp_path):
    store = tmp_path / "runs.sqlite"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(store), str(w), "15"], stderr=subprocess.PIPE
        )
        for w in range(8)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, errors
    runs = load_runs(store)
    assert len(runs) == 120
    assert sorted((r.argv[0], r.argv[1]) for r in runs) == sorted(
        (str(w), str(k)) for w in range(8) for k in range(15)
    )
    assert all(len(r.figures) == 1 for r in runs)
    with sqlite3.connect(store) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def claim(cid, trusted=True, **extra):
    return {"answer_id": "A", "answer_version": "v1", "id": cid, "text": cid, "state": "counted",
            "status": "SUPPORTED", "source_spans": [{"start": 0, "end": 3}], "references": ["R1"],
            "faithful": True, "trusted": trusted, **extra}  # fmt: skip


def test_trusted_claims_keep_the_audits_verdict_of_the_latest_revision(tmp_path):
    store = tmp_path / "runs.sqlite"
    first = [claim("C1"), claim("C2"), claim("C3", False, not_trusted_because="CONTRADICTED")]
    record_run(
        store, command="decomposition", argv=[], inputs=[], parameters={}, figures=[], claims=first
    )
    assert [c["candidate_id"] for c in trusted_claims(store)] == ["C1", "C2"]
    revised = [{**c, "answer_version": "v2"} for c in first]
    revised[1] = {**revised[1], "trusted": False}  # the revision contradicts C2 now
    record_run(
        store, command="decomposition", argv=[], inputs=[], parameters={}, figures=[],
        claims=revised,
    )  # fmt: skip
    trusted = trusted_claims(store)
    assert [(c["candidate_id"], c["answer_version"]) for c in trusted] == [("C1", "v2")]
    with sqlite3.connect(store) as con:  # both versions are kept
        assert con.execute("SELECT COUNT(DISTINCT answer_version) FROM claims").fetchone() == (2,)
    assert json.dumps(trusted)


@pytest.mark.parametrize(
    ("spans", "problem"),
    [("[[1]]", "is not a list of span objects"), ("[" * 40 + "]" * 40, "is nested deeper than 32"),
     ("[" * 5000 + "]" * 5000, "is not a JSON list")],
)  # fmt: skip
def test_a_trusted_claim_whose_stored_spans_are_no_spans_is_refused_as_corrupted(
    tmp_path, spans, problem
):
    store = tmp_path / "runs.sqlite"
    record_run(store, command="decomposition", argv=[], inputs=[], parameters={}, figures=[],
               claims=[claim("C1")])  # fmt: skip
    with sqlite3.connect(store) as con:
        con.execute("UPDATE claims SET source_spans = ?", (spans,))
    with pytest.raises(StoreError, match="corrupted store: claims.source_spans " + problem):
        trusted_claims(store)


# --- the figures the command printed are the figures read back, intervals included ---------

from hypothesis import HealthCheck, given, reject, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SERIAL = itertools.count()
FAST = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SHARE = st.floats(0, 1, allow_nan=False)
NAMES = st.text(st.sampled_from("ab$\\{}_ é"), min_size=1, max_size=6)


@st.composite
def intervals(draw):
    """``ci`` as the commands print it: an interval object, or null with its reason."""
    if draw(st.booleans()):
        low, high = sorted((draw(SHARE), draw(SHARE)))
        method = draw(st.sampled_from(["BCa", "percentile", "Wilson"]))
        return {"ci": {"low": low, "high": high, "level": draw(st.sampled_from([0.9, 0.95])),
                       "method": method, "resamples": 100, "clusters": 7}}  # fmt: skip
    return {"ci": None, "ci_reason": draw(st.sampled_from(["only 1 answer", "no denominator"]))}


@st.composite
def printed_figure(draw):
    """A ratio (counts) or a macro mean (defined / undefined), with or without an interval."""
    if draw(st.booleans()):
        d = draw(st.integers(0, 50))
        n = draw(st.integers(0, d))
        fig = {"numerator": n, "denominator": d, "value": None if d == 0 else n / d}
    else:
        defined, undefined = draw(st.integers(0, 9)), draw(st.integers(0, 9))
        fig = {"value": None if defined == 0 else draw(SHARE), "defined": defined,
               "undefined": undefined}  # fmt: skip
    return {**fig, "display": "as printed", **draw(intervals())}


def ledger_like(groups, figure):
    """A ``ledger --by model --ci`` document: corpus and groups, micro and macro."""
    part = st.fixed_dictionaries({m: figure for m in ("coverage", "preservation")})
    block = st.fixed_dictionaries({"micro": part, "macro": part, "answers": st.integers(0, 9)})
    return st.fixed_dictionaries(
        {"corpus": block, "by_group": st.dictionaries(groups, block, max_size=3)}
    )


@st.composite
def factscore_like(draw):
    """A ``factscore --ci`` document: bare scores whose intervals sit in the file's ``ci`` map."""
    files = []
    for name in draw(st.lists(NAMES, min_size=1, max_size=3, unique=True)):
        keys = ("factscore", "micro_precision")
        ivs = {k: draw(intervals())["ci"] for k in keys}
        files.append({"name": name, "factscore": draw(SHARE),
                      "counts": {"micro_precision": draw(printed_figure()) | {"ci": None}},
                      "ci": ivs, "ci_reason": {k: None if ivs[k] else "why" for k in keys}})  # fmt: skip
    return {"files": files}


def printed(data, path=""):
    """Every figure a document prints, found without the store's code: path -> (value, counts, ci)."""
    out = {}
    if isinstance(data, dict):
        if "value" in data and ("numerator" in data or "defined" in data):
            counts = tuple(
                data.get(k) for k in ("numerator", "denominator", "defined", "undefined")
            )
            return {path: (data["value"], counts, data.get("ci"))}
        ci = data.get("ci") if isinstance(data.get("ci"), dict) else {}
        if "factscore" in data:
            out[f"{path}.factscore"] = (data["factscore"], (None,) * 4, ci.get("factscore"))
        for k, v in data.items():
            if k not in ("ci", "ci_reason"):
                for p, (value, counts, own) in printed(v, f"{path}.{k}" if path else k).items():
                    out[p] = (value, counts, own or ci.get(p.rsplit(".", 1)[-1]))
    elif isinstance(data, list):
        for item in data:
            out.update(printed(item, f"{path}[{item['name']}]"))
    return out


def read_back(tmp_path, data):
    store = tmp_path / f"runs-{next(SERIAL)}.sqlite"
    record_run(store, command="x", argv=[], inputs=[], parameters={}, figures=figures_of(data))
    (run,) = load_runs(store)
    return {f.name: f for f in run.figures}


@FAST
@given(data=st.one_of(ledger_like(NAMES, printed_figure()), factscore_like()))
def test_property_history_reads_back_every_printed_figure_with_its_interval(tmp_path, data):
    got = read_back(tmp_path, data)
    expected = printed(data)
    assert set(expected) <= set(got)
    for name, (value, counts, ci) in expected.items():
        f = got[name]
        assert (f.value, (f.numerator, f.denominator, f.defined, f.undefined)) == (value, counts)
        bounds = (ci["low"], ci["high"], ci["level"], ci["method"]) if ci else (None,) * 3 + ("",)
        assert (f.low, f.high, f.level, f.method) == bounds, name
        assert f.aggregate == ("macro" if "macro" in name.split(".") or f.defined is not None
                               else "micro" if "micro" in name else "")  # fmt: skip


def test_a_real_ledger_result_is_read_back_with_its_intervals(tmp_path):
    import pyarrow.compute as pc

    from claimlab.labs.ledger.demo import demo_ledger
    from claimlab.labs.ledger.history import _with_intervals
    from claimlab.metrics.ledger import score_tables

    cand, units = demo_ledger(40, seed=3)
    cand = cand.filter(pc.equal(cand.column("model"), "drops-hard")).drop_columns(["model"])
    data = _with_intervals(score_tables(cand, units), seed=0)
    got = read_back(tmp_path, data)
    ci = data["corpus"]["micro"]["coverage"]["ci"]  # 40 answers, coverage varies between them
    f = got["corpus.micro.coverage"]
    assert (f.low, f.high, f.level, f.method) == (ci["low"], ci["high"], 0.95, "BCa")
    macro = got["corpus.macro.coverage"]
    assert (macro.defined, macro.undefined, macro.aggregate) == (
        data["corpus"]["macro"]["coverage"]["defined"], data["corpus"]["macro"]["coverage"]["undefined"], "macro"
    )  # fmt: skip
    assert f.display.startswith(f"{100 * f.value:.1f}% ({f.numerator}/{f.denominator}) [")


# --- a store that reads anywhere, and says what it is when it cannot ------------------------

from claimlab.io.store import StoreError  # noqa: E402


def one_run(path, **extra):
    return record_run(path, command="x", argv=["a"], inputs=[], parameters={},
                      figures=[Figure("f", 1, 2, 0.5)], **extra)  # fmt: skip


def test_reading_takes_no_lock_writes_nothing_and_never_migrates(tmp_path, monkeypatch):
    store = tmp_path / "runs.sqlite"
    one_run(store)
    with sqlite3.connect(store) as con:  # an older store: schema 1
        con.execute("UPDATE claimlab_meta SET value = '1' WHERE key = 'schema_version'")
    before = store.read_bytes()
    monkeypatch.setenv("CLAIMLAB_STORE_TIMEOUT", "0")
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process is writing
    try:
        assert len(load_runs(store)) == 1 and trusted_claims(store) == []
        with pytest.raises(StoreError, match="^.*runs.sqlite: store locked: "):
            one_run(store)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.read_bytes() == before  # no row, no migration


@pytest.mark.parametrize(
    "break_it, message",
    [
        ("UPDATE runs SET argv = '{not json'", r"run 1: corrupted store: runs.argv is not a JSON list"),
        ("UPDATE runs SET argv = '{\"a\": 1}'", r"run 1: corrupted store: runs.argv is not a JSON list"),
        ("UPDATE runs SET parameters = '[1]'", r"runs.parameters is not a JSON dict"),
        # nested deeper than a run is written: too deep to parse, or to show once parsed
        ("UPDATE runs SET argv = '" + "[" * 3000 + "]" * 3000 + "'", r"runs.argv is not a JSON list"),
        ("UPDATE runs SET parameters = '" + '{"a":' * 900 + "1" + "}" * 900 + "'",
         r"runs.parameters is nested deeper than 32 levels"),
        ("UPDATE runs SET argv = '" + "[" * 33 + "]" * 33 + "'", r"runs.argv is nested deeper than 32"),
        ("UPDATE figures SET value = 'abc'", r"figures.value of 'f' is text \('abc'\), not a number"),
        ("UPDATE figures SET numerator = 1.5", r"figures.numerator of 'f' is float"),
        ("UPDATE figures SET low = x'00'", r"figures.low of 'f' is text"),
        ("UPDATE runs SET time = x'00'", r"runs.time is bytes, not text"),
        ("UPDATE claimlab_meta SET value = 'two' WHERE key = 'schema_version'", "corrupted store: schema_version"),
        # digits past Python's int-from-text limit, and a digit that is no ASCII digit
        ("UPDATE claimlab_meta SET value = '" + "9" * 5000 + "' WHERE key = 'schema_version'",
         "corrupted store: schema_version is '9999"),
        ("UPDATE claimlab_meta SET value = '\u00b2' WHERE key = 'schema_version'", "corrupted store: schema_version"),
        # NaN and Infinity: no JSON, and no figure claimlab writes
        ("UPDATE runs SET parameters = '{\"a\": NaN}'", r"runs.parameters is not a JSON dict"),
        ("UPDATE runs SET argv = '[Infinity]'", r"runs.argv is not a JSON list"),
        ("UPDATE figures SET value = 9e999", r"figures.value of 'f' is float \(inf\), not a number \(finite\)"),
        ("UPDATE figures SET denominator = -3", r"figures.denominator of 'f' is int \(-3\), not a number of 0"),
        ("UPDATE claimlab_meta SET value = '99' WHERE key = 'schema_version'", "newer store: written by a newer claimlab"),
        ("UPDATE claimlab_meta SET value = 'other' WHERE key = 'application'", "not a claimlab store"),
    ],
)  # fmt: skip
def test_a_store_whose_rows_break_the_schema_is_refused_in_one_line(tmp_path, break_it, message):
    store = tmp_path / "runs.sqlite"
    one_run(store)
    with sqlite3.connect(store) as con:
        con.execute(break_it)
    with pytest.raises(StoreError, match=message) as info:
        load_runs(store)
    assert "\n" not in str(info.value) and str(store) in str(info.value)


@FAST
@given(
    table_column=st.sampled_from(
        [("runs", "argv"), ("runs", "parameters"), ("figures", "value"), ("figures", "high"),
         ("figures", "denominator"), ("figures", "numerator"), ("figures", "name"),
         ("figures", "method")]
    ),
    junk=st.one_of(st.text(max_size=8), st.binary(max_size=4), st.floats(),
                   st.integers(min_value=-(2**63), max_value=2**63 - 1),
                   st.sampled_from(["NaN", '{"a": NaN}', "[Infinity]", '{"b": [-Infinity]}']),
                   st.sampled_from([x for n in (33, 999, 5000)  # nested deeper than a run is
                                    for x in ("[" * n + "]" * n, '{"a":' * n + "1" + "}" * n)])),
)  # fmt: skip
def test_property_any_junk_in_a_column_is_read_or_refused_as_corrupted(
    tmp_path, table_column, junk
):
    table, column = table_column
    store = tmp_path / f"s{next(SERIAL)}.sqlite"
    one_run(store)
    with sqlite3.connect(store) as con:
        try:
            con.execute(f"UPDATE {table} SET {column} = ?", (junk,))
        except sqlite3.IntegrityError:  # SQLite keeps a NaN as NULL: a NOT NULL column refuses it
            reject()  # no store can hold it
    try:
        runs = load_runs(store)
    except StoreError as err:
        assert "corrupted store" in str(err) and column in str(err) and "\n" not in str(err)
    else:  # what was read is what the schema says
        f = runs[0].figures[0]
        assert isinstance(f.name, str) and isinstance(f.method, str)
        assert all(v is None or math.isfinite(v) for v in (f.value, f.low, f.high))
        assert all(v is None or v >= 0 for v in (f.numerator, f.denominator))
        assert isinstance(runs[0].argv, tuple) and isinstance(runs[0].parameters, dict)


def test_a_corrupted_page_is_refused_as_corrupted(tmp_path):
    store = tmp_path / "runs.sqlite"
    for _ in range(30):
        one_run(store)
    with sqlite3.connect(store) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = con.execute("PRAGMA page_size").fetchone()[0]
    raw = bytearray(store.read_bytes())
    raw[page : 2 * page] = b"\xa5" * page  # the whole second page: a b-tree's root
    store.write_bytes(bytes(raw))
    with pytest.raises(StoreError, match="corrupted store|not a claimlab store"):
        load_runs(store)


@settings(FAST, max_examples=60)
@given(where=st.integers(0, 10**6), junk=st.binary(min_size=1, max_size=64))
def test_property_a_clobbered_store_is_read_or_refused_never_a_bare_exception(
    tmp_path, where, junk
):
    store = tmp_path / "runs.sqlite"
    if not store.exists():
        for _ in range(5):
            one_run(store)
        with sqlite3.connect(store) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pristine = tmp_path / "pristine.bin"
    if not pristine.exists():
        pristine.write_bytes(store.read_bytes())
    raw = bytearray(pristine.read_bytes())
    at = where % len(raw)
    raw[at : at + len(junk)] = junk
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(bytes(raw))
    for read in (load_runs, trusted_claims):
        try:
            read(bad)
        except StoreError as err:
            assert "\n" not in str(err)


def test_a_run_whose_id_reads_as_null_is_refused_as_corrupted(tmp_path):
    """A clobbered schema can turn the id column into a plain one, whose stored value is NULL
    (hypothesis found it: junk written over the table's declaration): refused, naming the
    column, never a TypeError."""
    store = tmp_path / "runs.sqlite"
    one_run(store)
    with sqlite3.connect(store) as con:
        con.execute("PRAGMA writable_schema = ON")
        con.execute("UPDATE sqlite_master SET sql = replace(sql, 'id INTEGER PRIMARY KEY "
                    "AUTOINCREMENT', 'id INTEGER') WHERE name = 'runs'")  # fmt: skip
    with sqlite3.connect(store) as con:
        assert con.execute("SELECT id FROM runs").fetchall() == [(None,)]
    for read in (load_runs, run_ids):
        with pytest.raises(StoreError, match=r"corrupted store: runs.id is NoneType, not a whole"):
            read(store)


def test_missing_store_and_missing_folder_say_so(tmp_path):
    with pytest.raises(StoreError, match="missing store: no store here"):
        load_runs(tmp_path / "none.sqlite")
    with pytest.raises(StoreError, match="missing folder: .*nowhere does not exist"):
        one_run(tmp_path / "nowhere" / "runs.sqlite")
    with pytest.raises(StoreError, match="not a claimlab store \\(a folder\\)"):
        load_runs(tmp_path)
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    empty.touch()
    with pytest.raises(StoreError, match="not a claimlab store"):
        load_runs(empty)


def test_a_full_disk_is_named_full(tmp_path):
    """A real SQLITE_FULL (the page limit of one connection) read by the store's one classifier."""
    from claimlab.io.store import _store_error

    con = sqlite3.connect(tmp_path / "small.sqlite")
    con.execute("CREATE TABLE t (x BLOB)")
    con.execute("PRAGMA max_page_count = 3")
    with pytest.raises(sqlite3.OperationalError) as info:
        con.execute("INSERT INTO t VALUES (zeroblob(100000))")
    con.close()
    err = _store_error(info.value, "s.sqlite", "writing a run")
    assert str(err).startswith("s.sqlite: store full (no space left on its disk) while writing")


MOUNTED = """
set -e
mount -t tmpfs -o size={size} tmpfs {dir}
cp {store} {dir}/runs.sqlite 2>/dev/null || true
{ro}
{python} -c '{code}' {args}
"""
PROBE = """
import sys
from claimlab.io.store import Figure, StoreError, load_runs, record_run
try:
    if sys.argv[1] == "read":
        print(len(load_runs(sys.argv[2])))
    for k in range(int(sys.argv[3])):
        record_run(sys.argv[2], command="x", argv=["y" * 4000], inputs=[], parameters={},
                   figures=[Figure("f" * 2000, 1, 2, 0.5)] * 20)
except StoreError as err:
    print("StoreError:", err)
"""


def in_a_mount(tmp_path, store, mode, *, ro, size="2m", runs=0):
    """The probe run in a private mount namespace (a tmpfs, read-only when ``ro``)."""
    import shutil

    if shutil.which("unshare") is None:
        pytest.skip("unshare is not available")
    mnt = tmp_path / "mnt"
    mnt.mkdir(exist_ok=True)
    script = MOUNTED.format(
        size=size, dir=mnt, store=store, python=sys.executable, code=PROBE.replace("'", '"'),
        ro=f"mount -o remount,ro {mnt}" if ro else "", args=f"{mode} {mnt}/runs.sqlite {runs}",
    )  # fmt: skip
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True)
    if proc.returncode != 0 and "Traceback" not in proc.stderr:  # no namespace or mount here
        pytest.skip(f"cannot mount here: {proc.stderr.strip()}")
    return proc.stdout.strip()


def test_a_store_on_a_read_only_mount_is_read_and_refuses_writes_as_read_only(tmp_path):
    store = tmp_path / "runs.sqlite"
    one_run(store)
    one_run(store)
    assert in_a_mount(tmp_path, store, "read", ro=True) == "2"
    out = in_a_mount(tmp_path, store, "write", ro=True, runs=1)
    assert out.startswith("StoreError:") and "read-only store" in out


def test_a_store_on_a_full_disk_says_full(tmp_path):
    out = in_a_mount(tmp_path, tmp_path / "absent", "write", ro=False, size="256k", runs=200)
    assert out.startswith("StoreError:") and "store full" in out, out


def test_an_answer_id_stored_in_nfd_by_an_older_claimlab_is_the_same_answer(tmp_path):
    import unicodedata

    store = tmp_path / "runs.sqlite"
    nfc_id, nfd_id = (unicodedata.normalize(f, "réponse") for f in ("NFC", "NFD"))
    one_run(store, claims=[claim("C1", answer_id=nfc_id)])
    one_run(store, claims=[claim("C2", answer_id=nfc_id, answer_version="v2")])
    with sqlite3.connect(store) as con:  # written before ids were normalised at the store's edge
        con.execute("UPDATE claims SET answer_id = ? WHERE answer_version = 'v2'", (nfd_id,))
    assert [(c["answer_id"], c["candidate_id"]) for c in trusted_claims(store)] == [(nfc_id, "C2")]


def test_a_writer_told_busy_at_once_tries_again_until_the_timeout(tmp_path, monkeypatch):
    """SQLite answers "busy" without waiting in a few races; the run still lands, or the
    one-line error comes once the timeout has passed."""
    import claimlab.io.store as store_module

    real, calls = store_module.open_store, []

    def busy_twice(path):
        calls.append(path)
        if len(calls) <= 2:
            raise store_module.StoreLocked("store locked: busy at once", file=str(path))
        return real(path)

    monkeypatch.setattr(store_module, "open_store", busy_twice)
    store = tmp_path / "runs.sqlite"
    record_run(store, command="x", argv=[], inputs=[], parameters={}, figures=[])
    assert len(calls) == 3 and len(load_runs(store)) == 1
    monkeypatch.setattr(
        store_module, "open_store",
        lambda p: (_ for _ in ()).throw(store_module.StoreLocked("store locked", file=str(p))),
    )  # fmt: skip
    monkeypatch.setenv("CLAIMLAB_STORE_TIMEOUT", "0.05")
    with pytest.raises(StoreError, match="store locked"):
        record_run(store, command="x", argv=[], inputs=[], parameters={}, figures=[])


def test_a_schema_2_store_migrates_forward_and_keeps_rag_claims_from_then_on(tmp_path):
    """A store written before schema 3 (no rag_claims) gains the table; old runs keep none."""
    from claimlab.io.ragchecker import load_checking
    from claimlab.io.store import MIGRATIONS, run_rag_queries
    from claimlab.metrics.rag import score_rag

    old = tmp_path / "v2.sqlite"
    with sqlite3.connect(old) as con:
        for version in (1, 2):
            for statement in MIGRATIONS[version]:
                con.execute(statement)
        con.execute("INSERT INTO claimlab_meta VALUES ('application', 'claimlab'), "
                    "('schema_version', '2')")  # fmt: skip
        con.execute("INSERT INTO runs (time, version, command, argv, parameters) "
                    "VALUES ('2024-01-01', '0', 'rag', '[]', '{}')")  # fmt: skip
    assert run_rag_queries(old, 1) == ()  # read as it is: no table, no claims, nothing written
    checking = load_checking(FIXTURES / "rag_greenhouse.json")
    rid = record_run(old, command="rag", argv=[], inputs=[], parameters={}, figures=[],
                     rag_queries=checking.queries)  # fmt: skip
    with sqlite3.connect(old) as con:
        assert con.execute("SELECT value FROM claimlab_meta WHERE key = 'schema_version'"
                           ).fetchone() == (str(SCHEMA_VERSION),)  # fmt: skip
    assert [r.id for r in load_runs(old)] == [1, rid] and run_rag_queries(old, 1) == ()
    back = run_rag_queries(old, rid)
    assert [q.query_id for q in back] == [q.query_id for q in checking.queries]
    assert [(q.response_claims, q.correct, q.chunk_response, q.chunk_answer) for q in back] == [
        (q.response_claims, q.correct, q.chunk_response, q.chunk_answer) for q in checking.queries
    ]
    from claimlab.io.ragchecker import RagChecking

    again = score_rag(RagChecking("f", back, {}))
    assert again.to_dict()["micro"] == score_rag(checking).to_dict()["micro"]


def test_a_rag_claims_row_that_breaks_the_schema_is_refused_as_corrupted(tmp_path):
    from claimlab.io.ragchecker import load_checking
    from claimlab.io.store import StoreError, run_rag_queries

    store = tmp_path / "s.sqlite"
    rid = record_run(store, command="rag", argv=[], inputs=[], parameters={}, figures=[],
                     rag_queries=load_checking(FIXTURES / "rag_greenhouse.json").queries)  # fmt: skip
    with sqlite3.connect(store) as con:
        con.execute("UPDATE rag_claims SET chunks = 'not json' WHERE kind = 'response'")
    with pytest.raises(StoreError, match="corrupted store: rag_claims.chunks"):
        run_rag_queries(store, rid)


def test_a_store_that_is_a_named_pipe_is_refused_for_reading_and_writing(tmp_path):
    import os

    pipe = tmp_path / "runs.sqlite"
    os.mkfifo(pipe)  # opened by SQLite, it would wait for a writer that never comes
    with pytest.raises(StoreError, match="a pipe, a device or a socket: not a file"):
        load_runs(pipe)
    with pytest.raises(StoreError, match="a pipe, a device or a socket: not a file"):
        one_run(pipe)
