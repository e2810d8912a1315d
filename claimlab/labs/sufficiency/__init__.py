"""Evidence sufficiency: the witnesses lab (notebook 02) and its game (notebook 07).

``game`` (the sufficiency game: search, copy, submit a proof within a budget; the cheapest
wins), ``lesson`` (notes, exercises and game rules computed from the file), ``prose`` (the
lesson text in English, Turkish and Thai), ``cases``
(premise-cut test cases from every complete witness), ``views`` (chain figures, rounds,
selective answering), ``widgets`` (the explorer and the game as ipywidgets) and ``cli``
(``claimlab sufficiency`` and ``claimlab sufficiency-cases``).
"""
