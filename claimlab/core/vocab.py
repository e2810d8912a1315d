"""The closed vocabularies: evidence statuses, verdicts, problem codes and reasons, as enums.

Each member is a ``str`` whose value is the word files and JSON use, so ``Status.SUPPORTED ==
"SUPPORTED"``, ``json.dumps`` writes ``"SUPPORTED"`` and ``f"{status}"`` reads ``SUPPORTED``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Literal

from claimlab.core.text import describe


class Vocab(str, Enum):
    """A closed vocabulary: members compare, print and serialise as their value."""

    __hash__ = str.__hash__  # Enum hashes the name; a member must find its plain-string twin

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:  # reads as the word it stands for, in results and doctests
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class Status(Vocab):
    """What the references say about a subclaim (reference -> subclaim)."""

    SUPPORTED = "SUPPORTED"
    CONTRADICTED = "CONTRADICTED"
    NOT_IN_REFERENCE = "NOT_IN_REFERENCE"


STATUSES: tuple[Status, ...] = tuple(Status)


class ErrorKind(Vocab):
    """How a subclaim departs from the original answer (original -> subclaim)."""

    INTRODUCED = "introduced"
    QUALIFIER = "qualifier"
    ENTITY = "entity"
    VERSION = "version"


ERROR_KINDS: tuple[ErrorKind, ...] = tuple(ErrorKind)


class ReviewField(Vocab):
    """A label of a candidate that a draft proposes and a person must confirm."""

    SOURCE_SPANS = "source_spans"
    PRESERVES = "preserves"
    FAITHFUL = "faithful"
    ATOMIC = "atomic"
    ERRORS = "errors"
    EVIDENCE = "evidence"


REVIEW_FIELDS: tuple[ReviewField, ...] = tuple(ReviewField)

EMPTY = "none"  # how an empty list is written in a decision: errors=none, preserves=none
# what each label takes in an adjudication decision (``claimlab adjudicate --decide``)
LABEL_VALUES: dict[str, str] = {
    "faithful": "true or false",
    "atomic": "true or false",
    "errors": f"{EMPTY}, or error kinds joined by commas ({', '.join(ERROR_KINDS)})",
    "evidence": f"STATUS or STATUS:REF1,REF2 (STATUS one of {', '.join(STATUSES)})",
    "preserves": f"{EMPTY}, or unit ids of the merged units joined by commas (U10,U11)",
    "source_spans": f"{EMPTY}, or UTF-16 spans START..END joined by ';' (12..40;52..60)",
}


# the four Toy ratios of a selection, in the order every table and figure shows them
TOY_METRICS: tuple[str, ...] = ("preservation", "coverage", "confirmed_support", "raw_support")
# RAGChecker's metrics: the ten ratios of per-query counts, and all eleven in its order (f1 third)
RAG_RATIO_METRICS: tuple[str, ...] = (
    "precision",
    "recall",
    "claim_recall",
    "context_precision",
    "context_utilization",
    "noise_sensitivity_in_relevant",
    "noise_sensitivity_in_irrelevant",
    "hallucination",
    "self_knowledge",
    "faithfulness",
)
RAG_METRICS: tuple[str, ...] = (*RAG_RATIO_METRICS[:2], "f1", *RAG_RATIO_METRICS[2:])
# the per-answer column that records an absent file: 1 when a decomposer's folder holds no file
# for the answer (the ledger still scores it, as an empty selection; the gate counts it missing)
NO_FILE = "no_file"


class SourceMapping(Vocab):
    """Whether a candidate's source in the original answer can be fixed."""

    MAPPED = "MAPPED"
    AMBIGUOUS = "AMBIGUOUS"  # its source cannot be fixed: audited, never counted


MAPPINGS: tuple[SourceMapping, ...] = tuple(SourceMapping)


def unknown(what: str, value: object, allowed: Iterable[str]) -> str:
    """The one message for a value outside a closed vocabulary (a long value shortened).

    Examples:
        >>> unknown("status", "MAYBE", STATUSES)
        "unknown status 'MAYBE' (one of SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE)"
        >>> unknown("label", "x" * 80, ["A"])
        "unknown label 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (one of A)"
    """
    return f"unknown {what} {describe(value)} (one of {', '.join(str(a) for a in allowed)})"


class SufficiencyStatus(Vocab):
    """Whether a context holds a complete, linked, valid witness for a question.

    CONFLICT (two usable items give one subject different objects of a single-valued
    relation) and CONDITIONAL (every complete witness has a condition the asker's
    circumstances do not meet) are never SUFFICIENT.
    """

    SUFFICIENT = "SUFFICIENT"
    INSUFFICIENT = "INSUFFICIENT"
    UNKNOWN = "UNKNOWN"
    CONFLICT = "CONFLICT"
    CONDITIONAL = "CONDITIONAL"


class ItemState(Vocab):
    """What a context says of one asked item (a route, a room)."""

    CONFIRMED = "CONFIRMED"
    UNKNOWN = "UNKNOWN"
    CONFLICT = "CONFLICT"


class SufficiencyReason(Vocab):
    """Which case a sufficiency result's explanation tells (a view words it by this code)."""

    UNANSWERABLE = "unanswerable"
    CONFLICT = "conflict"
    CONDITIONAL = "conditional"
    WITNESS = "witness"
    UNMAPPED = "unmapped"
    OPEN_LIST = "open list"
    GAPS = "gaps"


class MetadataProblem(Vocab):
    """Which metadata rule a record fails (status not the required one, not current)."""

    STATUS = "status"
    NOT_CURRENT = "not current"


class CandidateState(Vocab):
    """Where a candidate stands in an audit: counted, or why it is not."""

    COUNTED = "counted"
    DUPLICATE = "duplicate"  # repeats a counted candidate (the same fingerprint)
    LEFT_OUT = "left out"  # ambiguous mapping or untagged background: never counted
    NOT_SELECTED = "not selected"
    AMBIGUOUS = "ambiguous"
    UNTAGGED_BACKGROUND = "untagged background"


class RejectReason(Vocab):
    """Why a context item cannot serve as a premise."""

    DUPLICATE = "duplicate"
    OFF_TOPIC = "off-topic"
    METADATA = "metadata"
    NOT_A_PREMISE = "not a premise"
    UNSAFE = "unsafe: metadata ignored"


class Verdict(Vocab):
    """What the pipeline does with an answer's citations."""

    ACCEPT = "ACCEPT"
    REJECT = "REJECT"


class ProblemCode(Vocab):
    """A failed citation check."""

    FABRICATED_ID = "FABRICATED_ID"
    QUOTE_NOT_FOUND = "QUOTE_NOT_FOUND"
    MISSING_QUOTE = "MISSING_QUOTE"
    QUOTE_TOO_SHORT = "QUOTE_TOO_SHORT"
    UNSOURCED_CLAIM = "UNSOURCED_CLAIM"
    UNCOVERED_SENTENCE = "UNCOVERED_SENTENCE"
    DONT_KNOW_WITH_CLAIMS = "DONT_KNOW_WITH_CLAIMS"
    FLAG_MISMATCH = "FLAG_MISMATCH"
    NUMBER_MISMATCH = "NUMBER_MISMATCH"
    BELOW_THRESHOLD = "BELOW_THRESHOLD"
    POLARITY_MISMATCH = "POLARITY_MISMATCH"
    SCOPE_MISMATCH = "SCOPE_MISMATCH"


class FeverLabel(Vocab):
    """A FEVER claim label."""

    SUPPORTS = "SUPPORTS"
    REFUTES = "REFUTES"
    NOT_ENOUGH_INFO = "NOT ENOUGH INFO"


class FactLabel(Vocab):
    """A FActScore human label for an atomic fact."""

    SUPPORTED = "S"
    NOT_SUPPORTED = "NS"
    IRRELEVANT = "IR"


class CheckLabel(Vocab):
    """A claim checker's verdict on one claim against one reference (RAGChecker's labels)."""

    ENTAILMENT = "Entailment"
    NEUTRAL = "Neutral"
    CONTRADICTION = "Contradiction"


class WiceLabel(Vocab):
    """A WiCE claim label."""

    SUPPORTED = "supported"
    PARTIALLY_SUPPORTED = "partially_supported"
    NOT_SUPPORTED = "not_supported"


def status_line(counts: Mapping[str, int], *, sep: str = " · ") -> str:
    """``SUPPORTED 3 · CONTRADICTED 1 · NOT_IN_REFERENCE 1``: the one way status counts are shown.

    Examples:
        >>> status_line({"SUPPORTED": 3, "CONTRADICTED": 1, "NOT_IN_REFERENCE": 1})
        'SUPPORTED 3 · CONTRADICTED 1 · NOT_IN_REFERENCE 1'
        >>> status_line({}, sep=", ")
        'SUPPORTED 0, CONTRADICTED 0, NOT_IN_REFERENCE 0'
    """
    return sep.join(f"{s} {counts.get(s, 0)}" for s in STATUSES)


# Names the commands' options offer when the command line is built, before any metric module is
# imported (``claimlab --help`` stays light); each metric module re-exports its own under its name.
FactscorePolicy = Literal["exclude", "unsupported", "paper"]
FACTSCORE_POLICIES: tuple[FactscorePolicy, ...] = ("exclude", "unsupported", "paper")
FACTSCORE_GAMMA = 10  # FActScore's length penalty: full credit from 10 facts on
FACTSCORE_GATED = ("support", "respond_ratio")  # the figures a FActScore release gate checks
FEVER_GATED = ("strict_score", "label_accuracy", "recall")  # ... and a FEVER one
