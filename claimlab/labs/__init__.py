"""The labs: one package each, holding its game, lesson text, views, widgets and command.

``decomposition``, ``sufficiency``, ``context``, ``realdata``, ``factscore``, ``ledger``,
``annotation``, ``retrieval`` and ``rag``: each a folder holding the lab's game, lesson text, views,
widgets and command line, and its own studies, independent of one another (an import
contract). What several labs share: ``registry`` (the labs, their notebooks, commands and
games: the one list the runner, the handouts, the server and the command line read),
``play`` (the actions and reasons of both games, and a scripted round), ``teaching`` (a
file's note, exercises of one's own, the message for absent data). Imports the floors below
(core, io, metrics and the shared display primitives of ``claimlab.notebook``).
"""
