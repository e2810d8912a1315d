"""The verdict cache: SQLite, one row per (checker, parameters, claim, evidence, repeat).

The key is the SHA-256 of the checker's identity (name, version, parameters), the claim, the
SHA-256 of the evidence passages and the repeat number; an item's id is not part of it, so the
same claim on the same evidence is asked once whatever file it comes from. Each answer's
verdicts are committed as they arrive (write-ahead log), so a run killed half-way keeps every
verdict it received and the next run asks only for the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from claimlab.checkers import CACHE_VARIABLE
from claimlab.checkers.verdicts import Item, Verdict
from claimlab.core.errors import ClaimlabInputError
from claimlab.core.vocab import Status


def default_cache_path() -> Path:
    """``$CLAIMLAB_CHECKER_CACHE``, else ``$XDG_CACHE_HOME/claimlab/verdicts.sqlite``."""
    named = os.environ.get(CACHE_VARIABLE)
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "claimlab" / "verdicts.sqlite"


def identity(name: str, version: str, parameters: Mapping[str, Any]) -> dict[str, Any]:
    """A checker's identity as written into outputs and the cache key."""
    return {"name": name, "version": version, "parameters": dict(parameters)}


def evidence_hash(passages: tuple[str, ...]) -> str:
    """SHA-256 of the passages (their order counts)."""
    return hashlib.sha256(json.dumps(passages, ensure_ascii=False).encode()).hexdigest()


def verdict_key(who: Mapping[str, Any], item: Item, evidence: str | None = None) -> str:
    """The cache key of one ask of one item."""
    doc = [who, item.claim, evidence or evidence_hash(item.passages), item.repeat]
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class VerdictCache:
    """Verdicts by key, each put in its own transaction."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open (or create) the cache at ``path``.

        Raises:
            ClaimlabInputError: the path cannot hold a cache (its folder cannot be made, the file
                cannot be opened, or it is not an SQLite file with this cache's table), one line
                naming the file and ``--cache``; a file that is no cache is left as it was.
        """
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as err:
            raise self._refused("cannot open the verdict cache", err) from None
        try:
            self._check_table()
        except sqlite3.Error as err:
            self.db.close()
            raise self._refused("not a verdict cache", err) from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, checker TEXT NOT NULL, "
                "label TEXT NOT NULL, probability REAL, used TEXT NOT NULL)"
            )
        except sqlite3.Error as err:
            self.db.close()
            raise self._refused("cannot use the verdict cache", err) from None

    def _check_table(self) -> None:
        """Read, before writing anything: an SQLite file whose ``verdicts`` has the columns."""
        found = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'verdicts'"
        ).fetchone()  # a file that is not SQLite fails here
        if found is not None:
            self.db.execute("SELECT key, checker, label, probability, used FROM verdicts LIMIT 0")

    def _refused(self, problem: str, err: BaseException) -> ClaimlabInputError:
        """The one-line error naming the file and ``--cache``, the cause in brackets."""
        cause = getattr(err, "strerror", None) or str(err) or type(err).__name__
        return ClaimlabInputError(f"{problem} ({cause})", file=str(self.path), field="--cache")

    def get(self, key: str) -> Verdict | None:
        """The cached verdict, or None."""
        row = self.db.execute(
            "SELECT label, probability, used FROM verdicts WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        return Verdict(Status(row[0]), row[1], tuple(json.loads(row[2])))

    def put(self, key: str, verdict: Verdict, checker: str) -> None:
        """Store one verdict (committed at once)."""
        self.db.execute(
            "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?)",
            (key, checker, verdict.label.value, verdict.probability, json.dumps(verdict.used)),
        )

    def put_all(self, verdicts: Sequence[tuple[str, Verdict]], checker: str) -> None:
        """Store the verdicts of one answer in one transaction."""
        self.db.execute("BEGIN")
        try:
            for key, verdict in verdicts:
                self.put(key, verdict, checker)
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def count(self) -> int:
        """Verdicts stored."""
        return int(self.db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0])

    def close(self) -> None:
        """Close the database."""
        self.db.close()
