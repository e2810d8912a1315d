"""claimlab: check long answers claim by claim, with counts and N/A shown everywhere.

The stable names a user imports are here (``claimlab.load_decomposition``,
``claimlab.DecompositionGame``, ...): a module below may move, a name here may not. Each is
loaded on first use, so ``import claimlab`` stays light (the core only).

The package is built in floors; each imports only from the floors below it (contracts checked
by import-linter in the test suite):

* ``claimlab.core``: Ratio (counts + N/A), errors, UTF-16 spans, sentences, text escaping and
  the closed vocabularies; no I/O, no third-party imports.
* ``claimlab.io``: the one reader (bytes -> JSON/JSONL/CSV/Parquet -> frozen typed records) with
  every structural check; one module per file format.
* ``claimlab.metrics``: pure functions over typed records: decomposition, sufficiency, selective
  answering, FEVER, WiCE, FActScore, context budget, citations, ledger, agreement, uncertainty.
* ``claimlab.notebook``: shared display primitives: tables, figures, the widget base, records,
  what a command prints.
* ``claimlab.labs``: one package per lab (its game, lesson, views, widgets and command) and the
  registry of labs.
* ``claimlab.tooling``: paths, the notebook runner, handouts, the classroom server and the
  command line's entry point.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from claimlab.core.errors import ClaimlabInputError, FixtureError

if TYPE_CHECKING:  # loaded on first use, as every name below
    from claimlab.core.ratio import Ratio

# public name -> the module that defines it (imported on first use)
_PUBLIC = {
    # counts and N/A
    "Ratio": "claimlab.core.ratio",
    # reading files into typed records
    "load_decomposition": "claimlab.io.decomposition",
    "read_decomposition": "claimlab.io.decomposition",
    "load_sufficiency": "claimlab.io.sufficiency",
    "read_sufficiency": "claimlab.io.sufficiency",
    "load_context_lab": "claimlab.io.context_lab",
    "load_gold": "claimlab.io.fever",
    "load_predictions": "claimlab.io.fever",
    "load_labelled": "claimlab.io.factscore",
    "load_raw_answers": "claimlab.io.raw",
    "load_checking": "claimlab.io.ragchecker",
    "load_table": "claimlab.io.ledger",
    # scoring
    "score_decomposition": "claimlab.metrics.decomposition",
    "named_selections": "claimlab.metrics.decomposition",
    "score_sufficiency": "claimlab.metrics.sufficiency",
    "score_fixture_sufficiency": "claimlab.metrics.sufficiency",
    "score_fever": "claimlab.metrics.fever",
    "score_factscore": "claimlab.metrics.factscore",
    "pack": "claimlab.metrics.context_budget",
    "score_citations": "claimlab.metrics.citations",
    "score_ledger": "claimlab.metrics.ledger",
    "score_tables": "claimlab.metrics.ledger",
    "score_agreement": "claimlab.metrics.agreement",
    "score_pooled_agreement": "claimlab.metrics.agreement",
    "load_for_agreement": "claimlab.metrics.agreement",
    # the games and the labs
    "DecompositionGame": "claimlab.labs.decomposition",
    "SufficiencyGame": "claimlab.labs.sufficiency",
    "play_script": "claimlab.labs.play",
    "LABS": "claimlab.labs.registry",
}

__all__ = ["ClaimlabInputError", "FixtureError", "Ratio", "__version__", *_PUBLIC]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (see ``_PUBLIC``)."""
    if name == "__version__":  # read from the installed metadata on first use (30-70 ms)
        globals()[name] = _version()
        return globals()[name]
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'claimlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


def _version() -> str:
    """The installed version, or ``0+unknown`` in a bare checkout."""
    from importlib import metadata

    try:
        return metadata.version("claimlab")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0+unknown"
