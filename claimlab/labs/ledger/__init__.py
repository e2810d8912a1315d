"""Your own ledgers at scale (notebook 08): many decomposers x many answers.

``demo`` (the SIMULATED demo ledger), ``study`` (the notebook's ledger: where it comes from,
its intervals per decomposer), ``writers`` (the per-answer table as CSV, JSONL or
Parquet, written atomically), ``views`` (per-decomposer figures, comparisons,
coverage) and ``cli`` (``claimlab ledger``: figures, intervals, paired comparisons).
"""
