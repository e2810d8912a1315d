"""The top floor: what runs the labs. Paths, the runner, handouts, server, CLI.

``paths`` (where notebooks, fixtures and outputs live, installed or in a checkout),
``runner`` (papermill with declared, typed parameters), ``plan`` (which notebook of a run
gets which parameter), ``handouts`` (sanitised HTML and PDF), ``devtools`` (one headless
chromium printing many pages), ``serve`` (the classroom server), ``warm`` (its warm pool,
refilled in the lulls between page views), ``labsave`` (a notebook
saved from ``make lab`` keeps no outputs), ``rush`` (a class opening a game
at once, measured) and ``cli`` (the entry point: parses,
then hands off to a lab's command). May import every floor below.
"""
