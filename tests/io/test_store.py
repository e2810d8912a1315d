"""The run history store: created, refused, migrated, and safe under eight writers at once."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.store import (
    SCHEMA_VERSION,
    Figure,
    figures_of,
    read_runs,
    record_run,
    trusted_claims,
)


def test_a_run_is_kept_with_its_inputs_hash_and_figures(tmp_path):
    data = tmp_path / "in.csv"
    data.write_text("a,b\n1,2\n")
    store = tmp_path / "runs.sqlite"
    rid = record_run(
        store, command="ledger", argv=["ledger", str(data)], inputs=[data],
        parameters={"by": None}, figures=[Figure("corpus.micro.coverage", 3, 4, 0.75, 0.5, 0.9)],
        version="1.2.3",
    )  # fmt: skip
    (run,) = read_runs(store)
    assert run.id == rid and run.command == "ledger" and run.version == "1.2.3"
    assert run.inputs == ((str(data), hashlib.sha256(data.read_bytes()).hexdigest()),)
    assert run.figures == (Figure("corpus.micro.coverage", 3, 4, 0.75, 0.5, 0.9),)
    assert read_runs(store, metric="coverage")[0].figures
    with pytest.raises(ClaimlabInputError, match="known names: corpus.micro.coverage"):
        read_runs(store, metric="x")


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
        read_runs(store)
    old = tmp_path / "old.sqlite"  # a store from before the first schema: the meta table only
    with sqlite3.connect(old) as con:
        con.execute("CREATE TABLE claimlab_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute(
            "INSERT INTO claimlab_meta VALUES ('application', 'claimlab'), ('schema_version', '0')"
        )
    record_run(old, command="x", argv=[], inputs=[], parameters={}, figures=[])
    assert len(read_runs(old)) == 1
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
    runs = read_runs(store)
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
