"""Evidence sufficiency: the witnesses lab (notebook 02) and its game (notebook 07).

``game`` (the sufficiency game: search, copy, submit a proof within a budget; the cheapest
wins), ``lesson`` (notes, exercises and game rules computed from the file), ``prose`` (the
lesson text in English, Turkish and Thai), ``words`` (the explanations, headers, game texts and
exercises in the same three languages), ``explain`` (a result, its conflicts, link errors and
rejections worded from the metric's codes in the file's language), ``cases``
(premise-cut test cases from every complete witness), ``views`` (chain figures, rounds,
selective answering), ``widgets`` (the explorer and the game as ipywidgets) and ``cli``
(``claimlab sufficiency`` and ``claimlab sufficiency-cases``).
"""

from claimlab.core.faces import face

# the lab's face: each public name -> the module that defines it (loaded on first use); the
# rest of the lab is its own, imported by no module outside it (tests/labs/test_faces.py)
_FACE = {
    "build_cases": "cases",
    "check_cases": "cases",
    "add_sufficiency": "cli",
    "add_sufficiency_cases": "cli",
    "SufficiencyGame": "game",
    "conflict_round": "game",
    "game_from_file": "game",
    "solve_sufficiency": "game",
    "lesson": "lesson",
    "show_round": "views",
    "views": "views",
    "SufficiencyExplorer": "widgets",
    "SufficiencyGameView": "widgets",
}
__all__ = sorted(_FACE)
__getattr__, __dir__ = face(__name__, _FACE)
