"""FActScore (notebook 04): the paper's human annotations, uncertainty and autoraters.

``studies`` (per-claim, clustered and paired uncertainty; prediction-powered inference),
``simulations`` (the SIMULATED subjects, estimators and autorater the notebook says are made
up), ``estimator`` (a real offline estimator: a lexical checker, its error rate and its
prediction-powered correction), ``ledgers`` (the human annotations read as claim ledgers),
``views`` (tables and figures) and ``cli`` (``claimlab factscore``, ``claimlab fact-estimate``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_fact_estimate": "cli",
    "add_factscore": "cli",
    "offline_report": "estimator",
    "factscore_beside_ledgers": "ledgers",
    "simulations": "simulations",
    "studies": "studies",
    "factscore_ledger_table": "views",
    "views": "views",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
