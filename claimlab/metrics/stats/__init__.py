"""Statistics over answers as clusters: each piece returns frozen records.

``resampling`` (weights drawn in blocks, resampled sums, a figure's parts), ``intervals``
(percentile, BCa, Wilson, or no interval with its reason), ``comparisons`` (paired differences,
permutation tests, Holm, ranking stability) and ``prediction_powered`` (a few people's labels
correcting many autorated ones). See :mod:`claimlab.metrics.uncertainty` for the metric card and
the figures of the ledger and of FActScore built on them.
"""

MIN_CLUSTERS = 2  # one answer cannot show how answers vary (read here without numpy: a gate's)
