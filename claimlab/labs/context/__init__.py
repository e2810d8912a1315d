"""Context budget and claim-to-source citations (notebook 05).

``lesson`` (exercises on packing, citations and thresholds, computed from the file),
``views`` (the packing figure, prompt, citation checks, calibration) and ``cli``
(``claimlab pack`` and ``claimlab citations``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_citations": "cli",
    "add_pack": "cli",
    "lesson": "lesson",
    "views": "views",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
