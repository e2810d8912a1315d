"""Your own ledgers at scale (notebook 08) and their release history (notebook 12).

``demo`` (the SIMULATED demo ledger), ``study`` (the notebook's ledger: where it comes from,
its intervals per decomposer), ``writers`` (the per-answer table as CSV, JSONL or
Parquet, and the release gate's JUnit report and Markdown summary, written atomically),
``views`` (per-decomposer figures, comparisons, coverage) and ``cli`` (``claimlab ledger``:
figures, intervals, paired comparisons, the release gate against ``--baseline``);
``history`` (a store's runs, or a SIMULATED history of four releases, and two runs paired
through their per-answer tables) and ``history_views`` (its tables and the trend figure).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_ledger": "cli",
    "compare_runs": "history",
    "load_history": "history",
    "pick": "history",
    "run_changes": "history",
    "history_views": "history_views",
    "plot_trend": "history_views",
    "study": "study",
    "views": "views",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
