"""RAG diagnostics claim by claim (notebook 11): RAGChecker's metrics and its meta-evaluation.

``study`` (the checking output scored, walked through query by query, and the meta-evaluation
loaded, skipped with a message when the data is absent), ``views`` (tables and figures with
counts), ``check`` (``rag --check``: the four label sets filled by a checker) and ``cli``
(``claimlab rag`` and ``claimlab meta-eval``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_meta_eval": "cli",
    "add_rag": "cli",
    "checker_study": "study",
    "meta_study": "study",
    "rag_record": "study",
    "rag_study": "study",
    "views": "views",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
