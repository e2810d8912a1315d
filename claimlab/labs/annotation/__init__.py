"""From raw subclaims to a gold set (notebook 09).

``draft`` (raw subclaims aligned into a draft to annotate), ``session`` (a person's
annotation session: every change saved at once), ``adjudicate`` (several annotators' files
become one gold file, with provenance), ``views`` (tables of drafts, agreement and
adjudication), ``widgets`` (the annotator: select text for units and spans) and ``cli``
(``claimlab draft``, ``agreement`` and ``adjudicate``).
"""
