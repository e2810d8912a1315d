"""The reader: every file is parsed once, here, into frozen typed records, or refused in one line.

``reader`` holds the one mechanism (bytes -> UTF-8 -> orjson, and :class:`~claimlab.io.reader.Record`
for field-by-field checks with file, record and field in every error; ``declared`` reads a format
declared once as frozen dataclasses, in one pass, with the same checks and errors, and gives its
JSON Schema); then one module per
format: ``decomposition``, ``sufficiency``, ``context_lab`` (chunks, answers, the lab file),
``fever``, ``factscore`` (with Factcheck-GPT), ``wice`` and ``ledger`` (CSV/JSONL/Parquet tables,
coerced and checked column by column; ``ledger_rows`` parses a ledger's rows into codes and
checks every row before a metric counts it, on the array helpers of ``arrays``: codes, repeats); ``raw`` reads a decomposer's raw output (answers and
their subclaims, for ``claimlab draft``); ``multihop`` turns MuSiQue and HotpotQA records into
sufficiency files (``claimlab convert``) and ``official`` reads gold answers and predictions in the
official HotpotQA and MuSiQue formats; ``ragchecker`` reads RAGChecker's checking output and its
meta-evaluation files; ``lesson`` reads what a file may say about itself for
the lessons (its own ``exercises``); ``annotations`` reads annotators' files and folders,
pairs them by answer and refuses what would make gold by accident. ``store`` keeps the run history (SQLite: runs, inputs' sha256, figures, audited claims, RAG claims).
``files`` is the one atomic
write (a temporary file beside
the target, renamed when complete; leftovers of a killed run are cleared by the next). ``locate``
finds input files (the working folder, the labs folder, the packaged fixtures, the real-data
folder). Imports ``claimlab.core`` only.
"""
