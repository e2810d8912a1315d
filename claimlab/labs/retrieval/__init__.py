"""Retrieval depth on multi-hop data (notebook 10): MuSiQue and HotpotQA.

``study`` (the BM25 depth study and selective answering with a simulated reader),
``selective`` (Sufficient Context: when to abstain, calibrated on one split, judged held out
and on another data set), ``reader`` (a lexical reader that needs no model, writing predictions in the official formats),
``views`` (figures and tables) and ``cli`` (``claimlab convert``, ``hotpotqa``, ``musique``).
"""
