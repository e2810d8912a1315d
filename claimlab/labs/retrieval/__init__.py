"""Retrieval depth on multi-hop data (notebook 10): MuSiQue and HotpotQA.

``study`` (the BM25 depth study and selective answering with a simulated reader),
``selective`` (Sufficient Context: when to abstain, calibrated on one split, judged held out
and on another data set), ``reader`` (a lexical reader that needs no model, writing predictions in the official formats),
``views`` (figures and tables) and ``cli`` (``claimlab convert``, ``hotpotqa``, ``musique``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_convert": "cli",
    "add_hotpotqa": "cli",
    "add_musique": "cli",
    "reader_scores": "reader",
    "sufficient_context_studies": "selective",
    "depth_study": "study",
    "load_sources": "study",
    "selective_study": "study",
    "views": "views",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
