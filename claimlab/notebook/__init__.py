"""Display only: the tables, figures and widgets a notebook shows, never a metric computed here.

``display`` (showing tables that are never typeset as maths, escaped Markdown, figures),
``style`` (the house style as a context manager, bars that carry their counts, hatched N/A),
one module per lab with its tables and figures (``decomposition``, ``sufficiency``,
``realdata``, ``factscore``, ``context``, ``ledger``, ``annotation``, ``retrieval``, and
``uncertainty`` for intervals and comparisons), ``widgets`` (the explorers and games as
ipywidgets), ``annotator`` (the annotation widget: select text for units and spans) and
``records`` (values a notebook records for its tests). Imports the floors below.
"""
