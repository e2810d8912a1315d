"""The run history: every recorded run in one SQLite file (the standard library's ``sqlite3``).

Schema (version 1; :data:`SCHEMA_VERSION`), documented in the README:

* ``claimlab_meta(key, value)``: ``application`` = ``claimlab``, ``schema_version``;
* ``runs(id, time, version, command, argv, parameters)``: one row per run (UTC ISO time, the
  claimlab version, the command, its arguments and parameters as JSON);
* ``inputs(run_id, path, sha256)``: every input file of the run and its SHA-256;
* ``figures(run_id, name, numerator, denominator, value, low, high)``: every figure the run
  reported with its counts (and interval, when it had one), named by its place in the command's
  JSON output (``corpus.micro.coverage``);
* ``claims(run_id, answer_id, answer_version, candidate_id, text, state, reason, status,
  source_spans, refs, proposed, faithful)``: what an audit decided for each candidate (the memory
  rule: ``claimlab history --trusted``).

A store is created on first use; one written by an older claimlab is migrated forward in one
transaction; one that is not claimlab's, or was written by a newer claimlab, is refused. Each run
is appended in one transaction (``BEGIN IMMEDIATE``) in WAL mode with a busy timeout, so writers
running at once (two CI jobs) wait for one another and never corrupt the file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError

SCHEMA_VERSION = 1
SCORES = ("factscore", "init_score", "strict_score", "label_accuracy")
_SCHEMA_1 = (
    "CREATE TABLE IF NOT EXISTS claimlab_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, "
    "version TEXT NOT NULL, command TEXT NOT NULL, argv TEXT NOT NULL, parameters TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS inputs (run_id INTEGER NOT NULL REFERENCES runs(id), "
    "path TEXT NOT NULL, sha256 TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS figures (run_id INTEGER NOT NULL REFERENCES runs(id), "
    "name TEXT NOT NULL, numerator INTEGER, denominator INTEGER, value REAL, low REAL, high REAL)",
    "CREATE TABLE IF NOT EXISTS claims (run_id INTEGER NOT NULL REFERENCES runs(id), "
    "answer_id TEXT NOT NULL, answer_version TEXT, candidate_id TEXT NOT NULL, text TEXT, "
    "state TEXT, reason TEXT, status TEXT, source_spans TEXT, refs TEXT, proposed INTEGER, "
    "faithful INTEGER)",
    "CREATE INDEX IF NOT EXISTS figures_by_run ON figures(run_id)",
    "CREATE INDEX IF NOT EXISTS claims_by_answer ON claims(answer_id, run_id)",
)
MIGRATIONS: dict[int, tuple[str, ...]] = {1: _SCHEMA_1}  # to version N from N - 1


@dataclass(frozen=True)
class Figure:
    """One reported figure with its counts and interval."""

    name: str
    numerator: int | None
    denominator: int | None
    value: float | None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Run:
    """One recorded run."""

    id: int
    time: str
    version: str
    command: str
    argv: tuple[str, ...]
    parameters: Mapping[str, Any]
    inputs: tuple[tuple[str, str], ...]
    figures: tuple[Figure, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``claimlab history --json``)."""
        return {
            "id": self.id,
            "time": self.time,
            "version": self.version,
            "command": self.command,
            "argv": list(self.argv),
            "parameters": dict(self.parameters),
            "inputs": [{"path": p, "sha256": h} for p, h in self.inputs],
            "figures": [f.__dict__ for f in self.figures],
        }


def sha256_of(path: str | Path) -> str:
    """The SHA-256 of a file (or of every file of a folder, in name order)."""
    p = Path(path)
    digest = hashlib.sha256()
    files = sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
    for f in files:
        with open(f, "rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
    return digest.hexdigest()


def _connect(path: str | Path) -> sqlite3.Connection:
    source = str(path)
    try:
        con = sqlite3.connect(source, timeout=60, isolation_level=None)
        con.execute("PRAGMA busy_timeout = 60000")
        mode = con.execute("PRAGMA journal_mode = WAL").fetchone()
    except sqlite3.DatabaseError as err:
        raise ClaimlabInputError(f"not a claimlab store ({err})", file=source) from None
    if mode is None:  # pragma: no cover - SQLite always answers
        raise ClaimlabInputError("not a claimlab store", file=source)
    return con


def _version(con: sqlite3.Connection, source: str) -> int:
    """The store's schema version (0: a new, empty file), or the refusal."""
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return 0
    if "claimlab_meta" not in tables:
        raise ClaimlabInputError("not a claimlab store (it has other tables)", file=source)
    meta = dict(con.execute("SELECT key, value FROM claimlab_meta").fetchall())
    if meta.get("application") != "claimlab":
        raise ClaimlabInputError("not a claimlab store", file=source)
    version = int(meta.get("schema_version", "0"))
    if version > SCHEMA_VERSION:
        raise ClaimlabInputError(
            f"written by a newer claimlab (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}): upgrade claimlab",
            file=source,
        )
    return version


def open_store(path: str | Path) -> sqlite3.Connection:
    """Open (create, or migrate forward) a store; the caller closes it.

    Raises:
        ClaimlabInputError: not a SQLite file, not claimlab's, or newer than this claimlab.
    """
    source = str(path)
    con = _connect(path)
    try:
        con.execute("BEGIN IMMEDIATE")
        version = _version(con, source)
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target]:
                con.execute(statement)
        con.execute(
            "INSERT OR REPLACE INTO claimlab_meta VALUES ('application', 'claimlab'), "
            "('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        con.close()
        raise
    return con


def record_run(
    path: str | Path,
    *,
    command: str,
    argv: Sequence[str],
    inputs: Iterable[str | Path],
    parameters: Mapping[str, Any],
    figures: Iterable[Figure],
    claims: Iterable[Mapping[str, Any]] = (),
    version: str = "",
) -> int:
    """Append one run in one transaction; returns its id."""
    hashed = [(str(p), sha256_of(p)) for p in inputs]  # before the write lock is taken
    now = datetime.now(UTC).isoformat(timespec="microseconds")
    with closing(open_store(path)) as con:
        con.execute("BEGIN IMMEDIATE")
        try:
            cur = con.execute(
                "INSERT INTO runs (time, version, command, argv, parameters) VALUES (?, ?, ?, ?, ?)",
                (
                    now,
                    version,
                    command,
                    json.dumps(list(argv)),
                    json.dumps(parameters, default=str),
                ),
            )
            run_id = int(cur.lastrowid or 0)
            con.executemany(
                "INSERT INTO inputs VALUES (?, ?, ?)", [(run_id, p, h) for p, h in hashed]
            )
            con.executemany(
                "INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (run_id, f.name, f.numerator, f.denominator, f.value, f.low, f.high)
                    for f in figures
                ],
            )
            con.executemany(
                "INSERT INTO claims VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (run_id, c["answer_id"], c.get("answer_version"), c["id"], c.get("text"),
                     c.get("state"), c.get("reason"), c.get("status"),
                     json.dumps(c.get("source_spans", [])), json.dumps(c.get("references", [])),
                     int(bool(c.get("proposed"))), int(bool(c.get("faithful", True))))
                    for c in claims
                ],
            )  # fmt: skip
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return run_id


def read_runs(path: str | Path, *, metric: str | None = None) -> list[Run]:
    """Every run in time order, with its inputs and figures (only ``metric``'s, when given).

    Raises:
        ClaimlabInputError: no store there, or not a claimlab store.
    """
    if not Path(path).is_file():
        raise ClaimlabInputError("no store here (record a run with --store first)", file=str(path))
    with closing(open_store(path)) as con:
        runs = con.execute(
            "SELECT id, time, version, command, argv, parameters FROM runs ORDER BY time, id"
        ).fetchall()
        inputs = con.execute("SELECT run_id, path, sha256 FROM inputs ORDER BY rowid").fetchall()
        query = "SELECT run_id, name, numerator, denominator, value, low, high FROM figures"
        args: tuple[Any, ...] = ()
        if metric:
            query += " WHERE name = ? OR name LIKE ?"
            args = (metric, f"%.{metric}")
        figures = con.execute(query + " ORDER BY rowid", args).fetchall()
    by_run_inputs: dict[int, list[tuple[str, str]]] = {}
    for rid, p, h in inputs:
        by_run_inputs.setdefault(rid, []).append((p, h))
    by_run_figures: dict[int, list[Figure]] = {}
    for rid, *fig in figures:
        by_run_figures.setdefault(rid, []).append(Figure(*fig))
    return [
        Run(
            rid,
            t,
            v,
            c,
            tuple(json.loads(a)),
            json.loads(p),
            tuple(by_run_inputs.get(rid, ())),
            tuple(by_run_figures.get(rid, ())),
        )  # fmt: skip
        for rid, t, v, c, a, p in runs
    ]


def trusted_claims(path: str | Path) -> list[dict[str, Any]]:
    """The claims that may be reused as trusted facts (the decomposition seed's memory rule).

    SUPPORTED, with source spans, faithful to its source, confirmed (no proposed label) and not
    ambiguous, from the latest audit of each answer only: a revised answer replaces its earlier audit here, while
    both stay in the store.
    """
    if not Path(path).is_file():
        raise ClaimlabInputError("no store here (record a run with --store first)", file=str(path))
    with closing(open_store(path)) as con:
        rows = con.execute(
            "SELECT c.answer_id, c.answer_version, c.candidate_id, c.text, c.state, c.status, "
            "c.source_spans, c.refs, c.proposed, c.faithful, c.run_id, r.time FROM claims c "
            "JOIN runs r ON r.id = c.run_id "
            "WHERE c.run_id = (SELECT c2.run_id FROM claims c2 JOIN runs r2 ON r2.id = c2.run_id "
            "WHERE c2.answer_id = c.answer_id ORDER BY r2.time DESC, r2.id DESC LIMIT 1) "
            "ORDER BY c.answer_id, c.rowid"
        ).fetchall()
    out = []
    for aid, ver, cid, text, state, status, spans, refs, proposed, faithful, rid, time in rows:
        spans_l = json.loads(spans or "[]")
        unusable = not faithful or proposed or state == "ambiguous"
        if status != "SUPPORTED" or not spans_l or unusable:
            continue
        out.append(
            {"answer_id": aid, "answer_version": ver, "candidate_id": cid, "text": text,
             "source_spans": spans_l, "references": json.loads(refs or "[]"),
             "run_id": rid, "time": time}
        )  # fmt: skip
    return out


def figures_of(data: Any, prefix: str = "") -> list[Figure]:
    """Every ratio-shaped object in a command's JSON output, named by its path.

    A ratio-shaped object has ``numerator``, ``denominator`` and ``value``; an interval
    (``low``, ``high``) beside them is kept.
    """
    found: list[Figure] = []
    if isinstance(data, Mapping):
        for key in SCORES:  # figures reported as a bare number (FActScore, FEVER's scores)
            value = data.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found.append(Figure(f"{prefix}.{key}" if prefix else key, None, None, float(value)))
        if {"numerator", "denominator", "value"} <= set(data):
            found.append(
                Figure(
                    prefix,
                    data.get("numerator"),
                    data.get("denominator"),
                    data.get("value"),
                    data.get("low"),
                    data.get("high"),
                )  # fmt: skip
            )
            return found
        for key, value in data.items():
            found += figures_of(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:1000]):
            name = (
                value.get("query_id") or value.get("name") if isinstance(value, Mapping) else None
            )
            found += figures_of(value, f"{prefix}[{name if isinstance(name, str) else i}]")
    return found
