"""From raw subclaims to a gold set (notebook 09).

``draft`` (raw subclaims aligned into a draft to annotate), ``session`` (a person's
annotation session: every change saved at once), ``adjudicate`` (several annotators' files
become one gold file, with provenance), ``views`` (tables of drafts, agreement and
adjudication), ``widgets`` (the annotator: select text for units and spans) and ``cli``
(``claimlab draft``, ``agreement`` and ``adjudicate``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "adjudicate_paths": "adjudicate",
    "add_adjudicate": "cli",
    "add_agreement": "cli",
    "add_draft": "cli",
    "ensure_draft": "draft",
    "agreement_inputs": "session",
    "open_workspace": "session",
    "shown_path": "session",
    "views": "views",
    "Annotator": "widgets",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
