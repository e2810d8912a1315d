"""Witnesses on real data: FEVER and WiCE (notebook 03).

``studies`` (FEVER and WiCE run through the metrics, skipped with a message when the data is
absent), ``views`` (figures and tables with counts) and ``cli`` (``claimlab fever``).
"""
