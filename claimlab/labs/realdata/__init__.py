"""Witnesses on real data: FEVER and WiCE (notebook 03).

``studies`` (FEVER and WiCE run through the metrics, skipped with a message when the data is
absent), ``views`` (figures and tables with counts) and ``cli`` (``claimlab fever``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_fever": "cli",
    "study_fever": "studies",
    "study_wice": "studies",
    "views": "views",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
