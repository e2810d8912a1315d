"""The top floor: what runs the labs. Paths, the runner, handouts, server, CLI.

``paths`` (where notebooks, fixtures and outputs live, installed or in a checkout),
``writers`` (tables written to CSV, JSONL or Parquet through the one atomic write of
``claimlab.io.files``), ``runner`` (papermill with declared, typed parameters), ``handouts``
(sanitised HTML and PDF), ``serve`` (the classroom server) and ``cli`` (one module per command
family). May import every floor below.
"""
