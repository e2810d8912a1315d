"""What the labs teach with: explanations in plain words, the games, and the studies.

``explain`` (the pitfall a selection shows, with its own numbers), ``games`` (the two games as
state machines: rules, actions, named reasons), ``simulations`` (the SIMULATED subjects,
estimators and demo ledger the notebooks say are made up), ``studies`` (FEVER and WiCE run
through the metrics, skipped with a message when the data is absent) and ``ledgers``
(FActScore's human annotations read as claim ledgers). Imports ``claimlab.core``,
``claimlab.io`` and ``claimlab.metrics``.
"""
