"""What the labs teach with: explanations in plain words, the games, the studies and the workflows.

``explain`` (the pitfall a selection shows, with its own numbers), ``lessons`` (the notes,
rules, exercises and solutions a notebook shows, computed from the file it was given),
``games`` (the two games as state machines: rules, actions, named reasons), ``simulations``
(the SIMULATED subjects, estimators and demo ledger the notebooks say are made up),
``studies`` (FEVER and WiCE run through the metrics, skipped with a message when the data is
absent), ``ledgers`` (FActScore's human annotations read as claim ledgers), ``audit`` (one
audit of one answer version, everything it decided), ``retrieval`` (the BM25 depth study and
selective answering on multi-hop data), ``selective`` (Sufficient Context: when to abstain,
calibrated on one split, judged held out and on another data set) and ``cases`` (test cases
cut from every complete witness). From raw subclaims to a gold set: ``draft`` (raw subclaims aligned into a draft to
annotate), ``annotation`` (a person's session: every change saved at once) and ``adjudicate``
(several annotators' files become one gold file, with provenance). Imports ``claimlab.core``,
``claimlab.io`` and ``claimlab.metrics``.
"""
