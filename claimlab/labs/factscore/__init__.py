"""FActScore (notebook 04): the paper's human annotations, uncertainty and autoraters.

``studies`` (per-claim, clustered and paired uncertainty; prediction-powered inference),
``simulations`` (the SIMULATED subjects, estimators and autorater the notebook says are made
up), ``estimator`` (a real offline estimator: a lexical checker, its error rate and its
prediction-powered correction), ``ledgers`` (the human annotations read as claim ledgers),
``views`` (tables and figures) and ``cli`` (``claimlab factscore``, ``claimlab fact-estimate``).
"""
