"""Claim decomposition: the pitfalls lab (notebook 01) and its game (notebook 06).

``game`` (the decomposition game as a state machine: select, annotate, check, with named
reasons; the solver), ``lesson`` (notes, exercises and game rules computed from the file), ``prose`` (the
lesson text in English, Turkish and Thai), ``words`` (the explanations, headers, game texts and
exercises in the same three languages), ``spans`` (UTF-16 offsets filled from quoted text),
``explain`` (the pitfall a selection shows, with its own numbers), ``audit`` (one audit of one
answer version, everything it decided), ``views`` (tables and figures), ``widgets`` (the
explorer and the game as ipywidgets), ``check`` (``claimlab check``: the reference layer filled
by a checker) and ``cli`` (``claimlab decomposition``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "add_check": "check",
    "add_decomposition": "cli",
    "add_spans": "cli",
    "DecompositionGame": "game",
    "game_from_file": "game",
    "solve_decomposition": "game",
    "lesson": "lesson",
    "views": "views",
    "DecompositionExplorer": "widgets",
    "DecompositionGameView": "widgets",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
