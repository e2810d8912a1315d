"""The metrics: pure functions over the reader's typed records, counting first, then dividing.

One module per lab or data set, each opening with a metric card (definition in counts, when
undefined, reference): ``decomposition`` (the four Toy ratios, DecompScore and atomicity),
``selection`` (Core-style selection and entity groups), ``memory`` (which
audited claims may be reused as trusted facts), ``groups`` (the AND/OR primitive of
evidence groups), ``sufficiency`` (the witness core), ``selective`` (answering only when the evidence is complete), ``fever``, ``wice``,
``factscore``, ``context_budget`` (packing and the calibrated threshold), ``citations``,
``ledger`` (the decomposition metrics over many answers, vectorised, counting the rows the io
floor has parsed and checked, and ``ledger_dask`` for a cluster), ``rag`` (RAGChecker's eleven
metrics), ``meta_eval`` (a checker against people's preferences), ``multihop_scores`` (the
official HotpotQA and MuSiQue figures), ``gate`` (a release gate: a run's paired drop against an
earlier run's), ``diff`` (which claims, answers or queries changed between two runs,
grouped, counted and weighed on a figure), ``agreement``
(Krippendorff's alpha, Cohen's kappa and raw agreement between annotators, pooled over answers,
the items coded by ``agreement_items``) and
``uncertainty`` (the intervals, paired comparisons and prediction-powered estimates of the
ledger's and FActScore's figures), built on ``stats`` (resampling, intervals, comparisons,
prediction-powered: each returns frozen records). Imports ``claimlab.core`` and ``claimlab.io``; never matplotlib,
ipywidgets, papermill or nbconvert.
"""
