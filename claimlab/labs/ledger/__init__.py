"""Your own ledgers at scale (notebook 08): many decomposers x many answers.

``demo`` (the SIMULATED demo ledger), ``study`` (the notebook's ledger: where it comes from,
its intervals per decomposer), ``writers`` (the per-answer table as CSV, JSONL or
Parquet, and the release gate's JUnit report and Markdown summary, written atomically),
``views`` (per-decomposer figures, comparisons, coverage) and ``cli`` (``claimlab ledger``:
figures, intervals, paired comparisons, the release gate against ``--baseline``).
"""
