"""The run history: every recorded run in one SQLite file (the standard library's ``sqlite3``).

Schema (version 3; :data:`SCHEMA_VERSION`), documented in the README:

* ``claimlab_meta(key, value)``: ``application`` = ``claimlab``, ``schema_version``;
* ``runs(id, time, version, command, argv, parameters)``: one row per run (UTC ISO time, the
  claimlab version, the command, its arguments and parameters as JSON);
* ``inputs(run_id, path, sha256)``: every input file of the run and its SHA-256;
* ``figures(run_id, name, numerator, denominator, value, low, high, aggregate, defined,
  undefined, level, method, note)``: every figure the command reported, as it reported it:
  its counts (a ratio's numerator and denominator, a macro mean's defined and undefined
  items), its value and its interval (bounds, level, method; ``note`` says why there is none),
  named by its place in the command's JSON output (``corpus.micro.coverage``);
* ``claims(run_id, answer_id, answer_version, candidate_id, text, state, reason, status,
  source_spans, refs, proposed, faithful, trusted, not_trusted_because)``: what an audit
  decided for each candidate, with the memory rule's verdict (``claimlab history --trusted``);
* ``rag_claims(run_id, query_id, kind, position, text, entailed, chunks)``: what ``rag`` read
  of each query (schema 3): a ``query`` row (its text), a ``chunk`` row per retrieved chunk
  (its doc id), and a ``response`` or ``answer`` row per response or ground-truth claim with
  its entailment (by the ground truth, by the response) and the positions of the chunks that
  entail it (JSON), so ``claimlab diff`` can say which claims moved between two stored runs.

Writing creates a store on first use and migrates an older one forward in one transaction;
each run is appended in one transaction (``BEGIN IMMEDIATE``) in WAL mode with a busy timeout
(:data:`LOCK_TIMEOUT`, or ``CLAIMLAB_STORE_TIMEOUT`` seconds), so writers running at once wait
for one another. Reading never writes: it opens the file read-only, takes no write lock and
reads an older schema as it is, so a store on a read-only mount can be read. Every failure is
one :class:`StoreError` saying what it is: read-only, missing, full, locked, corrupted, newer,
or not claimlab's. Answer and candidate ids are NFC at this edge: one answer, one spelling.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sqlite3
import time
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.reader import bulk_load, deeper_than, describe

SCHEMA_VERSION = 3
LOCK_TIMEOUT = 60.0  # seconds a writer waits for another one's lock
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
_SCHEMA_2 = (  # a figure as printed (macro counts, the whole interval); the memory rule's verdict
    "ALTER TABLE figures ADD COLUMN aggregate TEXT",
    "ALTER TABLE figures ADD COLUMN defined INTEGER",
    "ALTER TABLE figures ADD COLUMN undefined INTEGER",
    "ALTER TABLE figures ADD COLUMN level REAL",
    "ALTER TABLE figures ADD COLUMN method TEXT",
    "ALTER TABLE figures ADD COLUMN note TEXT",
    "ALTER TABLE claims ADD COLUMN trusted INTEGER",
    "ALTER TABLE claims ADD COLUMN not_trusted_because TEXT",
)
_SCHEMA_3 = (  # each RAG claim's entailment and the chunks that entail it (claimlab diff)
    "CREATE TABLE IF NOT EXISTS rag_claims (run_id INTEGER NOT NULL REFERENCES runs(id), "
    "query_id TEXT NOT NULL, kind TEXT NOT NULL, position INTEGER NOT NULL, text TEXT, "
    "entailed INTEGER, chunks TEXT)",
    "CREATE INDEX IF NOT EXISTS rag_claims_by_run ON rag_claims(run_id)",
)
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: _SCHEMA_1,
    2: _SCHEMA_2,
    3: _SCHEMA_3,
}  # to version N from N - 1
FIGURE_COLUMNS = (
    "name", "numerator", "denominator", "value", "low", "high",
    "aggregate", "defined", "undefined", "level", "method", "note",
)  # fmt: skip
_COUNT_COLUMNS = ("numerator", "denominator", "defined", "undefined")
_NUMBER_COLUMNS = ("value", "low", "high", "level")
_TEXT_COLUMNS = ("aggregate", "method", "note")
# the SQLite result codes (by name) and what each means for a store, in one line
_KINDS = {
    "SQLITE_READONLY": "read-only store",
    "SQLITE_CANTOPEN": "cannot open the store",
    "SQLITE_FULL": "store full (no space left on its disk)",
    "SQLITE_BUSY": "store locked",
    "SQLITE_LOCKED": "store locked",
    "SQLITE_CORRUPT": "corrupted store",
    "SQLITE_NOTADB": "not a claimlab store (not an SQLite file)",
    "SQLITE_IOERR": "cannot read or write the store (an I/O error)",
}


class StoreError(ClaimlabInputError):
    """A store that cannot be read or written, saying what it is in one line."""


class StoreLocked(StoreError):
    """Another writer held the store's lock (SQLite may say so at once, without waiting)."""


def _store_error(err: sqlite3.Error | UnicodeDecodeError, source: str, doing: str) -> StoreError:
    """The one-line error for an SQLite failure while ``doing`` (reading, writing) a store.

    Text that is not UTF-8 where SQLite keeps its schema or a row is a corrupted store.
    """
    if isinstance(err, UnicodeDecodeError):
        return StoreError(f"corrupted store while {doing} (text that is not UTF-8)", file=source)
    name = str(getattr(err, "sqlite_errorname", "") or "")
    base = next((kind for code, kind in _KINDS.items() if name.startswith(code)), "")
    text = str(err)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StoreLocked(
            f"store locked: another process held its lock past the timeout while {doing} "
            f"({_timeout():g} s; CLAIMLAB_STORE_TIMEOUT sets it)",
            file=source,
        )
    if not base:  # an error without a result code: read it from the message
        low = text.lower()
        base = next(
            (kind for code, kind in _KINDS.items() if code[7:].lower().replace("_", " ") in low),
            "corrupted store" if "malformed" in low else "store error",
        )
    return StoreError(f"{base} while {doing} ({text})", file=source)


def _text(raw: bytes) -> str:
    """A stored text read back; text that is not UTF-8 is a malformed (corrupted) store."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise sqlite3.DataError("malformed text: not UTF-8") from None


def _timeout() -> float:
    """Seconds a writer waits for another's lock (``CLAIMLAB_STORE_TIMEOUT``, else the default)."""
    raw = os.environ.get("CLAIMLAB_STORE_TIMEOUT", "")
    try:
        value = float(raw) if raw.strip() else LOCK_TIMEOUT
    except ValueError:
        raise StoreError(
            f"not a number of seconds: {raw!r}", field="CLAIMLAB_STORE_TIMEOUT"
        ) from None
    return value if math.isfinite(value) and value >= 0 else LOCK_TIMEOUT


def nfc(text: str) -> str:
    """One spelling of an id at the store's edge (NFC)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


@dataclass(frozen=True)
class Figure:
    """One reported figure, as the command reported it: counts, value and interval.

    A ratio carries ``numerator``/``denominator``; a macro mean ``defined``/``undefined``; a
    bare score neither. ``low``/``high`` bound its interval at ``level`` (``method``); without
    one, ``note`` may say why. ``aggregate`` is ``micro``, ``macro`` or ``""``.
    """

    name: str
    numerator: int | None
    denominator: int | None
    value: float | None
    low: float | None = None
    high: float | None = None
    aggregate: str = ""
    defined: int | None = None
    undefined: int | None = None
    level: float | None = None
    method: str = ""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``claimlab history --json``): every field, as stored."""
        return {c: getattr(self, c) for c in FIGURE_COLUMNS}

    @property
    def counts(self) -> str:
        """``(68/72)``, ``(mean of 24 defined; 0 N/A)`` or ``""``."""
        if self.denominator is not None:
            return f"({self.numerator}/{self.denominator})"
        if self.defined is not None and self.name.endswith(".difference"):  # a paired comparison
            return f"(paired over {self.defined} answers; {self.undefined or 0} N/A on one side)"
        if self.defined is not None:
            return f"(mean of {self.defined} defined; {self.undefined or 0} N/A)"
        return ""

    @property
    def interval(self) -> str:
        """``[90.3%, 97.2%] 90% BCa``, ``no interval: why`` or ``""``."""
        if self.low is None or self.high is None:
            return f"no interval: {self.note}" if self.note else ""
        level = "" if self.level is None else f" {100 * self.level:g}%"
        method = f" {self.method}" if self.method else ""
        return f"[{100 * self.low:.1f}%, {100 * self.high:.1f}%]{level}{method}"

    @property
    def display(self) -> str:
        """The figure in one line: value, counts, interval (``N/A`` when undefined)."""
        value = "N/A" if self.value is None else f"{100 * self.value:.1f}%"
        return " ".join(p for p in (value, self.counts, self.interval) if p)


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

    @property
    def release(self) -> str:
        """What the run is called on a plot: its ``release`` parameter, else its date."""
        given = self.parameters.get("release") if isinstance(self.parameters, Mapping) else None
        return str(given) if given not in (None, "") else self.time[:10]

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
            "figures": [f.to_dict() for f in self.figures],
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
    """A connection for writing (the file is created when missing, its folder must exist)."""
    source = str(path)
    if not Path(path).parent.is_dir():
        raise StoreError(
            f"missing folder: {Path(path).parent} does not exist (create it first)", file=source
        )
    if Path(path).is_dir():
        raise StoreError("not a claimlab store (a folder)", file=source)
    if Path(path).exists() and not Path(path).is_file():
        raise StoreError(
            "not a claimlab store (a pipe, a device or a socket: not a file)", file=source
        )
    folder_ok = os.access(Path(path).parent, os.W_OK)  # the journal lives beside the file
    if not folder_ok or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise StoreError(
            "read-only store: it cannot be written here (a read-only file or mount); "
            "claimlab history still reads it",
            file=source,
        )
    timeout = _timeout()
    try:
        con = sqlite3.connect(source, timeout=timeout, isolation_level=None)
        con.text_factory = _text
        con.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        con.execute("PRAGMA journal_mode = WAL").fetchone()
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise _store_error(err, source, "opening it to write") from None
    return con


def _version(con: sqlite3.Connection, source: str, *, empty_ok: bool) -> int:
    """The store's schema version (0: a new, empty file), or the refusal."""
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables and empty_ok:
        return 0
    if "claimlab_meta" not in tables:
        other = " (it has other tables)" if tables else " (an empty SQLite file)"
        raise StoreError(f"not a claimlab store{other}", file=source)
    meta = dict(con.execute("SELECT key, value FROM claimlab_meta").fetchall())
    if meta.get("application") != "claimlab":
        raise StoreError("not a claimlab store (another application's meta table)", file=source)
    raw = str(meta.get("schema_version", "0"))
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:  # "²" is a digit; 5,000 of them
        raise StoreError(f"corrupted store: schema_version is {describe(raw)}", file=source)
    version = int(raw)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"newer store: written by a newer claimlab (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}): upgrade claimlab",
            file=source,
        )
    return version


def open_store(path: str | Path) -> sqlite3.Connection:
    """Open a store to write (create, or migrate forward); the caller closes it.

    Raises:
        StoreError: what the store is: missing folder, read-only, full, locked, corrupted,
            newer, or not claimlab's.
    """
    source = str(path)
    con = _connect(path)
    try:
        con.execute("BEGIN IMMEDIATE")
        version = _version(con, source, empty_ok=True)
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target]:
                con.execute(statement)
        con.execute(
            "INSERT OR REPLACE INTO claimlab_meta VALUES ('application', 'claimlab'), "
            "('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )
        con.execute("COMMIT")
    except (sqlite3.Error, UnicodeDecodeError) as err:
        _rollback(con)
        raise _store_error(err, source, "opening it to write") from None
    except BaseException:
        _rollback(con)
        raise
    return con


def _rollback(con: sqlite3.Connection) -> None:
    """Undo the open transaction (when there is one) and close."""
    try:
        if con.in_transaction:
            con.execute("ROLLBACK")
    except sqlite3.Error:  # pragma: no cover - the failure itself is what gets reported
        pass
    con.close()


def _open_read(path: str | Path) -> tuple[sqlite3.Connection, int]:
    """A read-only connection and the schema version (immutable when the mount is read-only)."""
    source = str(path)
    p = Path(path)
    if not p.exists():
        raise StoreError(
            "missing store: no store here (record a run with --store first)", file=source
        )
    if not p.is_file():
        what = "a folder" if p.is_dir() else "a pipe, a device or a socket: not a file"
        raise StoreError(f"not a claimlab store ({what})", file=source)
    uri = p.absolute().as_uri()
    for query in ("?mode=ro", "?mode=ro&immutable=1"):
        con = None
        try:
            con = sqlite3.connect(uri + query, uri=True, isolation_level=None, timeout=_timeout())
            con.text_factory = _text
            return con, _version(con, source, empty_ok=False)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            if con is not None:
                con.close()
            name = str(getattr(err, "sqlite_errorname", ""))
            if "immutable" in query or not name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY")):
                raise _store_error(err, source, "reading it") from None
        except BaseException:
            if con is not None:
                con.close()
            raise
    raise AssertionError("unreachable")  # pragma: no cover


@contextmanager
def reading(path: str | Path) -> Iterator[tuple[sqlite3.Connection, int]]:
    """A read-only connection to an existing store and its schema version: nothing is written.

    Opened ``mode=ro`` (no write lock, no migration, an older schema read as it is); a store
    whose folder cannot be written (a read-only mount) is opened as immutable.

    Raises:
        StoreError: missing, corrupted, newer, or not claimlab's.
    """
    con, version = _open_read(path)
    try:
        yield con, version
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise _store_error(err, str(path), "reading it") from None
    finally:
        con.close()


def record_run(
    path: str | Path,
    *,
    command: str,
    argv: Sequence[str],
    inputs: Iterable[str | Path],
    parameters: Mapping[str, Any],
    figures: Iterable[Figure],
    claims: Iterable[Mapping[str, Any]] = (),
    rag_queries: Iterable[Any] = (),
    version: str = "",
) -> int:
    """Append one run in one transaction; returns its id.

    ``claims`` are an audit's candidates; ``rag_queries`` the queries ``rag`` read
    (:class:`~claimlab.io.ragchecker.RagQuery`), kept claim by claim.

    Raises:
        StoreError: the store cannot be written (see :func:`open_store`).
    """
    hashed = [(str(p), sha256_of(p)) for p in inputs]  # before the write lock is taken
    now = datetime.now(UTC).isoformat(timespec="microseconds")
    run = (now, version, command, json.dumps(list(argv)), json.dumps(parameters, default=str))
    figure_rows = [tuple(getattr(f, c) for c in FIGURE_COLUMNS) for f in figures]
    claim_rows = [_claim_row(c) for c in claims]
    rag_rows = [row for q in rag_queries for row in _rag_rows(q)]
    deadline = time.monotonic() + _timeout()
    for pause in _pauses():
        try:
            return _append(path, run, hashed, figure_rows, (claim_rows, rag_rows))
        except StoreLocked:
            # SQLite answers "busy" at once in a few races (a writer opening the file while
            # another switches it to WAL or checkpoints on close): wait and try again, until
            # the same timeout the busy handler keeps
            if time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
    raise AssertionError("unreachable")  # pragma: no cover - _pauses never ends


def _pauses() -> Iterator[float]:
    """Growing pauses between attempts to write a locked store (10 ms up to 0.5 s)."""
    pause = 0.01
    while True:
        yield pause
        pause = min(pause * 2, 0.5)


def _append(
    path: str | Path,
    run: tuple[Any, ...],
    hashed: list[tuple[str, str]],
    figure_rows: list[tuple[Any, ...]],
    claim_rows: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]],
) -> int:
    """One attempt at appending a run in one transaction (nothing is kept when it fails)."""
    with closing(open_store(path)) as con:
        try:
            con.execute("BEGIN IMMEDIATE")
            cur = con.execute(
                "INSERT INTO runs (time, version, command, argv, parameters) VALUES (?, ?, ?, ?, ?)",
                run,
            )
            run_id = int(cur.lastrowid or 0)
            con.executemany(
                "INSERT INTO inputs VALUES (?, ?, ?)", [(run_id, p, h) for p, h in hashed]
            )
            con.executemany(
                f"INSERT INTO figures (run_id, {', '.join(FIGURE_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (len(FIGURE_COLUMNS) + 1))})",
                [(run_id, *row) for row in figure_rows],
            )
            con.executemany(
                f"INSERT INTO claims (run_id, {', '.join(_CLAIM_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (len(_CLAIM_COLUMNS) + 1))})",
                [(run_id, *row) for row in claim_rows[0]],
            )
            con.executemany(
                "INSERT INTO rag_claims VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(run_id, *row) for row in claim_rows[1]],
            )
            con.execute("COMMIT")
        except (sqlite3.Error, UnicodeDecodeError) as err:
            _rollback(con)
            raise _store_error(err, str(path), "writing a run") from None
        except BaseException:
            _rollback(con)
            raise
    return run_id


_CLAIM_COLUMNS = (
    "answer_id", "answer_version", "candidate_id", "text", "state", "reason", "status",
    "source_spans", "refs", "proposed", "faithful", "trusted", "not_trusted_because",
)  # fmt: skip


def _claim_row(c: Mapping[str, Any]) -> tuple[Any, ...]:
    """One audited candidate as the store keeps it (ids in NFC)."""
    version = c.get("answer_version")
    return (
        nfc(str(c["answer_id"])),
        None if version is None else nfc(str(version)),
        nfc(str(c["id"])),
        c.get("text"),
        c.get("state"),
        c.get("reason"),
        c.get("status"),
        json.dumps(c.get("source_spans", [])),
        json.dumps(c.get("references", [])),
        int(bool(c.get("proposed"))),
        int(bool(c.get("faithful", True))),
        int(bool(c.get("trusted"))),
        c.get("not_trusted_because"),
    )


def _rag_rows(q: Any) -> list[tuple[Any, ...]]:
    """One RAG query as the store keeps it: its text, chunks and claims (ids in NFC)."""
    qid = nfc(str(q.query_id))
    rows: list[tuple[Any, ...]] = [(qid, "query", 0, q.query, None, None)]
    rows += [(qid, "chunk", i, str(doc), None, None) for i, (doc, _) in enumerate(q.chunks)]
    for kind, claims, entailed, matrix in (
        ("response", q.response_claims, q.correct, q.chunk_response),
        ("answer", q.answer_claims, q.recalled, q.chunk_answer),
    ):
        for i, (text, ok, row) in enumerate(zip(claims, entailed, matrix, strict=True)):
            chunks = [k for k, hit in enumerate(row) if hit]
            rows.append((qid, kind, i, text, int(bool(ok)), json.dumps(chunks)))
    return rows


def run_ids(path: str | Path) -> list[int]:
    """Every run's id in time order (read-only)."""
    with reading(path) as (con, _):
        ids = con.execute("SELECT id FROM runs ORDER BY time, id").fetchall()
    return [_whole(str(path), r[0], "runs.id") for r in ids]


def run_claims(path: str | Path, run_id: int) -> list[dict[str, Any]]:
    """The audited candidates one run kept (``decomposition --store``), in their order.

    Raises:
        StoreError: missing, corrupted (an id that is not text), newer, or not claimlab's.
    """
    wanted = ("answer_id", "candidate_id", "text", "state", "status", "faithful")
    with reading(path) as (con, _):
        rows = con.execute(
            _select(con, "claims", wanted) + " FROM claims WHERE run_id = ? ORDER BY rowid",
            (run_id,),
        ).fetchall()
    out = []
    for row in rows:
        c = dict(zip(wanted, row, strict=True))
        if not isinstance(c["answer_id"], str) or not isinstance(c["candidate_id"], str):
            raise _corrupted(str(path), run_id, "claims.candidate_id", "is not text")
        out.append({**c, "answer_id": nfc(c["answer_id"]), "candidate_id": nfc(c["candidate_id"])})
    return out


def run_rag_queries(path: str | Path, run_id: int) -> tuple[Any, ...]:
    """The RAG queries one run kept claim by claim (``rag --store``; none before schema 3).

    Each comes back as a :class:`~claimlab.io.ragchecker.RagQuery` (chunk texts are not kept:
    a chunk is its doc id) that scores as the file the run read did.

    Raises:
        StoreError: missing, corrupted (a row that is not what the schema says), newer, or not
            claimlab's.
    """
    with reading(path) as (con, _):
        if "rag_claims" not in _tables(con):
            return ()
        rows = con.execute(
            "SELECT query_id, kind, position, text, entailed, chunks FROM rag_claims "
            "WHERE run_id = ? ORDER BY rowid",
            (run_id,),
        ).fetchall()
    queries: list[dict[str, Any]] = []
    for row in rows:
        _rag_row(str(path), run_id, row, queries)
    return tuple(_rag_query(q) for q in queries)


@dataclass(frozen=True)
class KeptRun:
    """What a stored run kept to be compared later, as read back.

    Its RAG queries, its audited candidates, or the per-item table it wrote (``table``: a path,
    its SHA-256 checked).
    """

    id: int
    command: str
    parameters: Mapping[str, Any]
    queries: tuple[Any, ...]  # RagQuery, claim by claim (rag --store)
    claims: tuple[Mapping[str, Any], ...]  # audited candidates (decomposition --store)
    table: str | None  # the per-query or per-answer table kept beside the store, or --out

    @property
    def name(self) -> str:
        """``run 3 (rag)``."""
        return f"run {self.id} ({self.command})"


def resolve_run(path: str | Path, ref: str) -> int:
    """A run's id from how it was named: its id, ``latest`` or ``previous``.

    Raises:
        StoreError: no run has that id, or the store holds too few runs (or cannot be read).
    """
    ids = run_ids(path)
    if ref in ("latest", "previous"):
        back = 1 if ref == "latest" else 2
        if len(ids) < back:
            raise StoreError(f"{ref}: the store holds {len(ids)} run(s)", file=str(path))
        return ids[-back]
    if not ref.isdigit() or int(ref) not in ids:
        shown = ", ".join(map(str, ids[-20:])) or "none"
        raise StoreError(
            f"no run {ref!r} in the store (its runs: {shown}; or latest, previous)", file=str(path)
        )
    return int(ref)


def kept_run(path: str | Path, ref: str) -> KeptRun:
    """One stored run (by id, ``latest`` or ``previous``) with what it kept to compare.

    Raises:
        StoreError: no such run, a store that cannot be read, or a kept table that changed
            since it was stored (its SHA-256 no longer matches).
    """
    run_id = resolve_run(path, ref)
    run = next(r for r in load_runs(path) if r.id == run_id)
    return KeptRun(run_id, run.command, run.parameters, run_rag_queries(path, run_id),
                   tuple(run_claims(path, run_id)), _kept_table(path, run))  # fmt: skip


def kept_table_path(store: str | Path, recorded: object) -> str | None:
    """Where a table a run kept is now: the path recorded, or the same file in ``STORE.tables``.

    The path is recorded as the store was named when the run was written (relative to the folder
    the command ran in); read from another folder, or with the store moved along with its
    ``.tables`` folder, the table is found beside the store by its file name.

    Examples:
        >>> kept_table_path("/no/such/runs.sqlite", "runs.sqlite.tables/per_query-ab.csv") is None
        True
    """
    if not isinstance(recorded, str) or not recorded:
        return None
    for candidate in (Path(recorded), Path(f"{store}.tables") / Path(recorded).name):
        if candidate.is_file():
            return str(candidate)
    return None


def _kept_table(path: str | Path, run: Run) -> str | None:
    """The per-item table a run kept beside the store (hash checked), else its ``--out``."""
    p = run.parameters
    kept = p.get("per_query_table") or p.get("per_answer_table")
    found = kept_table_path(path, kept.get("path")) if isinstance(kept, Mapping) else None
    if isinstance(kept, Mapping) and found is not None:
        if sha256_of(found) != kept.get("sha256"):
            raise StoreError(
                f"run {run.id}'s table {found} changed since it was stored (its SHA-256 differs)",
                file=str(path),
            )
        return found
    out = p.get("out")
    return out if isinstance(out, str) and Path(out).is_file() else None


def kept_baseline(path: str | Path | None, table: str | Path) -> KeptRun | None:
    """The latest stored run that kept this very table (by its SHA-256), or None.

    A gate's ``--baseline`` file is found in ``--store`` this way, so the changes can go claim
    by claim when that run kept its claims. No store, or no such run: None.
    """
    if not path or not Path(path).is_file():
        return None
    digest = sha256_of(table)
    for run in reversed(load_runs(path)):
        kept = run.parameters.get("per_query_table") or run.parameters.get("per_answer_table")
        if isinstance(kept, Mapping) and kept.get("sha256") == digest:
            return kept_run(path, str(run.id))
    return None


def _tables(con: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _rag_row(source: str, run_id: int, row: Sequence[Any], queries: list[dict[str, Any]]) -> None:
    """One stored RAG row added to the query it belongs to, or the corruption named."""
    qid, kind, _, text, entailed, chunks = row
    if not isinstance(qid, str) or kind not in ("query", "chunk", "response", "answer"):
        raise _corrupted(source, run_id, "rag_claims", f"has a row of kind {kind!r:.40}")
    if kind == "query":
        queries.append({"id": qid, "query": text or "", "chunk": [], "response": [], "answer": []})
        return
    if not queries or queries[-1]["id"] != qid:
        raise _corrupted(
            source, run_id, "rag_claims", f"has a {kind} row outside its query {qid!r:.40}"
        )
    if kind == "chunk":
        queries[-1]["chunk"].append(str(text))
        return
    hits = _json(source, run_id, "rag_claims.chunks", chunks, list)
    if entailed not in (0, 1) or not all(isinstance(k, int) for k in hits):
        raise _corrupted(source, run_id, "rag_claims", f"has a bad {kind} claim in {qid!r:.40}")
    queries[-1][kind].append((str(text or ""), bool(entailed), set(hits)))


def _rag_query(q: Mapping[str, Any]) -> Any:
    """A stored query back as the reader's typed record."""
    from claimlab.io.ragchecker import RagQuery

    n = len(q["chunk"])

    def matrix(side: str) -> tuple[tuple[bool, ...], ...]:
        return tuple(tuple(k in hits for k in range(n)) for _, _, hits in q[side])

    return RagQuery(
        q["id"], q["query"], tuple(t for t, _, _ in q["response"]),
        tuple(t for t, _, _ in q["answer"]), tuple((d, "") for d in q["chunk"]),
        tuple(ok for _, ok, _ in q["response"]), tuple(ok for _, ok, _ in q["answer"]),
        matrix("response"), matrix("answer"), {},
    )  # fmt: skip


def _columns(con: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in con.execute(f"PRAGMA table_info({table})")}


def _select(con: sqlite3.Connection, table: str, wanted: Sequence[str]) -> str:
    """``SELECT`` of ``wanted`` columns, NULL for those an older schema lacks."""
    have = _columns(con, table)
    return "SELECT " + ", ".join(c if c in have else f"NULL AS {c}" for c in wanted)


def _corrupted(source: str, run_id: object, where: str, problem: str) -> StoreError:
    return StoreError(f"corrupted store: {where} {problem}", file=source, record=f"run {run_id}")


def _whole(source: str, run_id: object, where: str) -> int:
    """A run's id read back, or the corruption named (a clobbered schema can make it NULL)."""
    if isinstance(run_id, bool) or not isinstance(run_id, int):
        raise _corrupted(source, run_id, where, f"is {type(run_id).__name__}, not a whole number")
    return run_id


STORED_DEPTH = 32  # claimlab writes a run's argv and parameters a few levels deep at most


def _json(source: str, run_id: object, column: str, raw: object, kind: type) -> Any:
    """A JSON column read back, or the corruption named.

    A value nested deeper than :data:`STORED_DEPTH` levels is no run claimlab wrote: it is
    refused as corrupted (too deep to parse here, it would end the command; parsed, it would
    end the first walk that shows it).
    """
    try:  # NaN and Infinity are no JSON: claimlab never writes them
        value = (
            json.loads(raw, parse_constant=_no_constant) if isinstance(raw, (str, bytes)) else None
        )
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, kind):
        raise _corrupted(source, run_id, column, f"is not a JSON {kind.__name__} ({raw!r:.60})")
    if deeper_than(value, STORED_DEPTH):
        raise _corrupted(source, run_id, column, f"is nested deeper than {STORED_DEPTH} levels")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _spans(source: str, run_id: object, raw: object) -> list[Any]:
    """A claim's stored source spans: a JSON list of span objects, or the corruption named."""
    spans: list[Any] = _json(source, run_id, "claims.source_spans", raw, list)
    if not all(isinstance(s, dict) for s in spans):
        raise _corrupted(source, run_id, "claims.source_spans", "is not a list of span objects")
    return spans


def _figure(source: str, row: Sequence[Any]) -> Figure:
    """A stored figure row checked: counts integers, bounds numbers, texts text."""
    run_id, *values = row
    fig = dict(zip(FIGURE_COLUMNS, values, strict=True))
    name = fig["name"]
    if not isinstance(name, str):
        raise _corrupted(source, run_id, "figures.name", f"is {type(name).__name__}, not text")
    for column in _COUNT_COLUMNS + _NUMBER_COLUMNS:
        v = fig[column]
        ok = v is None or (
            isinstance(v, int) and v >= 0
            if column in _COUNT_COLUMNS
            else isinstance(v, (int, float)) and math.isfinite(v)
        )
        if not ok:
            what = "text" if isinstance(v, (str, bytes)) else type(v).__name__
            raise _corrupted(
                source,
                run_id,
                f"figures.{column} of {name!r}",
                f"is {what} ({v!r:.40}), not a number"
                + (" of 0 or more" if column in _COUNT_COLUMNS else " (finite)"),
            )
    for column in _TEXT_COLUMNS:
        if fig[column] is not None and not isinstance(fig[column], str):
            raise _corrupted(source, run_id, f"figures.{column} of {name!r}", "is not text")
        fig[column] = fig[column] or ""
    for column in _NUMBER_COLUMNS:
        fig[column] = None if fig[column] is None else float(fig[column])
    return Figure(**fig)


def _run(
    source: str, row: Sequence[Any], inputs: Sequence[tuple[str, str]], figs: Sequence[Figure]
) -> Run:
    """A stored run row checked: texts text, ``argv`` a JSON list, ``parameters`` a JSON object."""
    rid, time, version, command, argv, parameters = row
    for column, v in (("time", time), ("version", version), ("command", command)):
        if not isinstance(v, str):
            raise _corrupted(source, rid, f"runs.{column}", f"is {type(v).__name__}, not text")
    run_id = _whole(source, rid, "runs.id")
    args = _json(source, rid, "runs.argv", argv, list)
    params = _json(source, rid, "runs.parameters", parameters, dict)
    return Run(
        run_id, time, version, command, tuple(map(str, args)), params, tuple(inputs), tuple(figs)
    )


@bulk_load()  # records without cycles: no collector pass over them
def load_runs(path: str | Path, *, metric: str | None = None) -> list[Run]:
    """Every run in time order, with its inputs and figures (only ``metric``'s, when given).

    Read-only: no lock is taken and nothing is written.

    Raises:
        StoreError: missing, corrupted (a row that is not what the schema says), newer, or not
            claimlab's.
        ClaimlabInputError: ``metric`` names no figure of the store (the known names listed).
    """
    source = str(path)
    with reading(path) as (con, _):
        rows = con.execute(
            "SELECT id, time, version, command, argv, parameters FROM runs ORDER BY time, id"
        ).fetchall()
        inputs = con.execute("SELECT run_id, path, sha256 FROM inputs ORDER BY rowid").fetchall()
        figures = con.execute(
            _select(con, "figures", ("run_id", *FIGURE_COLUMNS)) + " FROM figures ORDER BY rowid"
        ).fetchall()
    by_run_inputs: dict[int, list[tuple[str, str]]] = {}
    for rid, p, h in inputs:
        by_run_inputs.setdefault(rid, []).append((str(p), str(h)))
    by_run_figures: dict[int, list[Figure]] = {}
    for row in figures:
        by_run_figures.setdefault(row[0], []).append(_figure(source, row))
    runs = [
        _run(source, row, by_run_inputs.get(row[0], ()), by_run_figures.get(row[0], ()))
        for row in rows
    ]
    return runs if metric is None else select_metric(runs, metric, source=source)


def matches(name: str, metric: str) -> bool:
    """Whether a figure's name is ``metric``: the full name, or its last part(s)."""
    return name == metric or name.endswith("." + metric)


def select_metric(runs: Sequence[Run], metric: str, *, source: str = "") -> list[Run]:
    """The runs with only ``metric``'s figures (its full name or last part).

    Raises:
        ClaimlabInputError: no figure of any run has that name: the known names listed.
    """
    known = sorted({f.name for r in runs for f in r.figures})
    if not any(matches(n, metric) for n in known):
        shown = ", ".join(known[:60]) + (
            f", ... and {len(known) - 60} more" if len(known) > 60 else ""
        )
        raise ClaimlabInputError(
            f"no figure named {metric!r} in {source or 'the store'}; known names: "
            + (shown or "none (the store holds no figure yet)"),
            field="--metric",
        )
    return [
        Run(r.id, r.time, r.version, r.command, r.argv, r.parameters, r.inputs,
            tuple(f for f in r.figures if matches(f.name, metric)))
        for r in runs
    ]  # fmt: skip


def version_key(version: str | None) -> tuple[tuple[int, int | str], ...]:
    """How a file's own versions are ordered: runs of digits as numbers, the rest as text.

    Examples:
        >>> version_key("v2") < version_key("v10") < version_key("v10-revised")
        True
        >>> version_key(None) == version_key("")
        True
    """
    parts = re.findall(r"[0-9]+|[^0-9]+", nfc(version or ""))
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts)


_TRUST_COLUMNS = (
    "run_id", "answer_id", "answer_version", "candidate_id", "text", "source_spans", "refs",
    "trusted", "not_trusted_because",
)  # fmt: skip


def latest_audits(rows: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str | None, int]]:
    """Each answer's (NFC id) latest audit: the version and the run that audited it last.

    Latest by the file's own version (:func:`version_key`), then by run time, then run id;
    each row holds ``answer_id``, ``answer_version``, ``run_id`` and ``time``.
    """
    best: dict[str, tuple[Any, str | None, int]] = {}
    for r in rows:
        aid, version = nfc(str(r["answer_id"])), r["answer_version"]
        version = None if version is None else nfc(str(version))
        key = (version_key(version), str(r["time"]), int(r["run_id"]))
        if aid not in best or key > best[aid][0]:
            best[aid] = (key, version, int(r["run_id"]))
    return {aid: (v, rid) for aid, (_, v, rid) in best.items()}


def trusted_claims(path: str | Path) -> list[dict[str, Any]]:
    """The claims that may be reused as trusted facts (the decomposition seed's memory rule).

    The memory rule itself is the metrics' (:mod:`claimlab.metrics.memory`), decided when the
    audit ran and kept with each candidate; here only the latest audit of each answer counts
    (:func:`latest_audits`): a revised answer replaces its earlier audit, while both stay in
    the store. A candidate recorded before the rule was kept (schema 1) is never trusted.

    Raises:
        StoreError: missing, corrupted, newer, or not claimlab's.
    """
    source = str(path)
    with reading(path) as (con, _):
        query = _select(con, "claims", _TRUST_COLUMNS).replace("SELECT ", "SELECT r.time, ", 1)
        rows = con.execute(
            query + " FROM claims JOIN runs r ON r.id = claims.run_id ORDER BY claims.rowid"
        ).fetchall()
    records = [dict(zip(("time", *_TRUST_COLUMNS), row, strict=True)) for row in rows]
    for r in records:
        r["run_id"] = _whole(source, r["run_id"], "claims.run_id")
    latest = latest_audits(records)
    out = []
    for r in records:
        aid = nfc(str(r["answer_id"]))
        version = None if r["answer_version"] is None else nfc(str(r["answer_version"]))
        if latest[aid] != (version, r["run_id"]) or r["trusted"] != 1:
            continue
        out.append(
            {"answer_id": aid, "answer_version": version, "candidate_id": nfc(str(r["candidate_id"])),
             "text": r["text"], "source_spans": _spans(source, r["run_id"], r["source_spans"]),
             "references": _json(source, r["run_id"], "claims.refs", r["refs"], list),
             "run_id": r["run_id"], "time": r["time"]}
        )  # fmt: skip
    return sorted(out, key=lambda c: c["answer_id"])


def _interval(data: Mapping[str, Any], inherited: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A figure's interval fields: its own ``ci`` (or top-level bounds), else its parent's."""
    ci = data.get("ci") if isinstance(data, Mapping) else None
    if not (isinstance(ci, Mapping) and "low" in ci):
        ci = data if isinstance(data, Mapping) and "low" in data else inherited.get(key)
    reason = data.get("ci_reason") if isinstance(data, Mapping) else None
    if not isinstance(ci, Mapping):
        return {"note": reason if isinstance(reason, str) else str(inherited.get(f"{key}/") or "")}
    method = ci.get("method", inherited.get(f"{key}#method"))
    level = ci.get("level", inherited.get(f"{key}#level"))
    reason = inherited.get(f"{key}/") if ci.get("low") is None else None
    return {
        "low": _number(ci.get("low")),
        "high": _number(ci.get("high")),
        "level": _number(level),
        "method": method if isinstance(method, str) else "",
        **({"note": reason} if isinstance(reason, str) and reason else {}),
    }


def _number(v: object) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _count(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _aggregate(name: str, macro_shaped: bool) -> str:
    parts = re.split(r"[._|\[\]]", name)
    if macro_shaped or "macro" in parts:
        return "macro"
    return "micro" if "micro" in parts else ""


def _shaped(data: Mapping[str, Any], prefix: str, inherited: Mapping[str, Any]) -> Figure | None:
    """The figure a ratio-, mean- or interval-shaped object is, or None."""
    key = prefix.rsplit(".", 1)[-1]
    ratio = {"numerator", "denominator", "value"} <= set(data)
    mean = {"value", "defined", "undefined"} <= set(data)
    bounded = {"value", "low", "high"} <= set(data)
    if not (ratio or mean or bounded):
        return None
    return Figure(
        prefix,
        _count(data.get("numerator")),
        _count(data.get("denominator")),
        _number(data.get("value")),
        aggregate=_aggregate(prefix, mean),
        defined=_count(data.get("defined", inherited.get(f"{key}#pairs"))),
        undefined=_count(data.get("undefined", inherited.get(f"{key}#undefined"))),
        **_interval(data, inherited, key),
    )


def _siblings(data: Mapping[str, Any], inherited: Mapping[str, Any]) -> dict[str, Any]:
    """Intervals a mapping gives its figures by name (``ci: {factscore: {...}}``), inherited on."""
    ci, reasons = data.get("ci"), data.get("ci_reason")
    out = dict(inherited)
    if isinstance(ci, Mapping) and "low" not in ci:
        out.update({str(k): v for k, v in ci.items() if isinstance(v, Mapping)})
    if isinstance(reasons, Mapping):
        out.update({f"{k}/": v for k, v in reasons.items() if isinstance(v, str)})
    if isinstance(data.get("difference"), Mapping) and isinstance(data.get("shared"), int):
        out.update(_paired(data))
    return out


def _paired(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a paired comparison says of its ``difference``: level, method, pairs and reason."""
    resamples = data.get("resamples")
    method = f"paired bootstrap, {resamples} resamples" if isinstance(resamples, int) else ""
    return {
        "difference#level": _number(data.get("level")),
        "difference#method": method,
        "difference#pairs": _count(data.get("shared")),
        "difference#undefined": _count(data.get("undefined")),
        "difference/": data.get("reason") if isinstance(data.get("reason"), str) else "",
    }


def figures_of(
    data: Any, prefix: str = "", inherited: Mapping[str, Any] | None = None
) -> list[Figure]:
    """Every figure in a command's JSON output, named by its path, as the command printed it.

    A figure is an object with ``numerator``, ``denominator`` and ``value`` (a ratio), with
    ``value``, ``defined`` and ``undefined`` (a macro mean), or with ``value``, ``low`` and
    ``high``; or a bare score (``factscore``). Its interval is its own ``ci`` object (bounds,
    level, method; ``ci_reason`` when there is none), or the one its parent's ``ci`` names it by.
    """
    found: list[Figure] = []
    inherited = inherited or {}
    if isinstance(data, Mapping):
        if (shaped := _shaped(data, prefix, inherited)) is not None:
            return [shaped]
        near = _siblings(data, inherited)
        for key in SCORES:  # figures reported as a bare number (FActScore, FEVER's scores)
            if (value := _number(data.get(key))) is not None:
                name = f"{prefix}.{key}" if prefix else key
                found.append(Figure(name, None, None, value, **_interval({}, near, key)))
        for key, value in data.items():
            if key not in ("ci", "ci_reason"):
                found += figures_of(value, f"{prefix}.{key}" if prefix else str(key), near)
    elif isinstance(data, list):
        for i, value in enumerate(data[:1000]):
            item = _item_name(value)
            found += figures_of(value, f"{prefix}[{item if item is not None else i}]", inherited)
    return found


def _item_name(value: object) -> str | None:
    """What names an item of a list in a figure's name: its identifying texts, joined by ``|``.

    A query, a file's name or a group (``files[ChatGPT]``); a comparison by its two sides,
    metric and aggregate (``comparisons[A|B|coverage|macro]``), so no two items share a name.
    """
    if not isinstance(value, Mapping):
        return None
    keys = ("query_id", "name", "group", "model", "a", "b", "metric", "aggregate")
    parts = [str(value[k]) for k in keys if isinstance(value.get(k), str)]
    return "|".join(parts) if parts else None
