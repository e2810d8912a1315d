"""The top floor: what runs the labs. Paths, atomic writes, the runner, handouts, server, CLI.

``paths`` (where notebooks, fixtures and outputs live, installed or in a checkout), ``files``
(the one atomic write, temporary names that a later run clears), ``writers`` (tables written
to CSV, JSONL or Parquet), ``runner`` (papermill with declared, typed parameters), ``handouts``
(sanitised HTML and PDF), ``serve`` (the classroom server) and ``cli`` (one module per command
family). May import every floor below.
"""
