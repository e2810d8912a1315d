"""RAG diagnostics claim by claim (notebook 11): RAGChecker's metrics and its meta-evaluation.

``study`` (the checking output scored, walked through query by query, and the meta-evaluation
loaded, skipped with a message when the data is absent), ``views`` (tables and figures with
counts), ``check`` (``rag --check``: the four label sets filled by a checker) and ``cli``
(``claimlab rag`` and ``claimlab meta-eval``).
"""
