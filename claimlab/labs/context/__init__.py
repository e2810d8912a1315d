"""Context budget and claim-to-source citations (notebook 05).

``lesson`` (exercises on packing, citations and thresholds, computed from the file),
``views`` (the packing figure, prompt, citation checks, calibration) and ``cli``
(``claimlab pack`` and ``claimlab citations``).
"""
