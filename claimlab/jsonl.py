"""JSON Lines reading (kept for older imports; the reader lives in :mod:`claimlab._parse`)."""

from __future__ import annotations

from claimlab._parse import iter_jsonl, where

__all__ = ["iter_jsonl", "where"]
