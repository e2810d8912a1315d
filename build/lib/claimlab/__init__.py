"""claimlab: check long answers claim by claim, with counts and N/A shown everywhere.

The package is built in floors; each imports only from the floors below it (a contract checked
by import-linter in the test suite):

* ``claimlab.core``: Ratio (counts + N/A), errors, UTF-16 spans, sentences, text escaping and
  the closed vocabularies; no I/O, no third-party imports.
* ``claimlab.io``: the one reader (bytes -> JSON/JSONL/CSV/Parquet -> frozen typed records) with
  every structural check; one module per file format.
* ``claimlab.metrics``: pure functions over typed records: decomposition, sufficiency, selective
  answering, FEVER, WiCE, FActScore, context budget, citations, ledger.
* ``claimlab.labs``: what the labs teach with: explanations, games, simulated and real-data studies.
* ``claimlab.notebook``: display only: tables, figures, widgets and the record helper.
* ``claimlab.tooling``: paths, atomic writes, the notebook runner, handouts, the classroom
  server and the command line.

``import claimlab`` is light: it loads the core only.
"""

from __future__ import annotations

from importlib import metadata

from claimlab.core.errors import ClaimlabInputError, FixtureError
from claimlab.core.ratio import Ratio

try:
    __version__ = metadata.version("claimlab")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0+unknown"

__all__ = ["ClaimlabInputError", "FixtureError", "Ratio", "__version__"]
