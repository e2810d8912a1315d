"""Errors raised on bad input: every message names the file, the record id and the field."""

from __future__ import annotations


class ClaimlabInputError(ValueError):
    """Bad input from a user's file or argument.

    The message reads ``file: record: field: problem`` with the parts that are known, so a
    researcher can find the exact place to fix, e.g.
    ``answers.json: claim-7: source_spans[0].text: does not match the UTF-16 slice 12..40``.

    Args:
        problem: What is wrong, in plain words.
        file: The file the input came from, if any.
        record: The record id (or line/row number) that holds the problem, if known.
        field: The field path inside the record, if known.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        record: str | None = None,
        field: str | None = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.record = record
        self.field = field
        parts = [p for p in (file, record, field) if p]
        super().__init__(": ".join([*parts, problem]))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (a worker process raises it; the command reports it)."""
        return (_rebuild, (type(self), self.problem, self.file, self.record, self.field))


def _rebuild(
    kind: type[ClaimlabInputError],
    problem: str,
    file: str | None,
    record: str | None,
    field: str | None,
) -> ClaimlabInputError:
    return kind(problem, file=file, record=record, field=field)


class FixtureError(ClaimlabInputError):
    """A fixture file (decomposition, sufficiency, chunks, ...) fails a structural check."""


class LedgerError(ClaimlabInputError):
    """A ledger row or column that cannot be scored."""
