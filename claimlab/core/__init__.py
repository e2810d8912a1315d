"""The ground floor: values every other floor speaks in, without file I/O or third-party imports.

``ratio`` (Ratio: a value that never hides its counts; macro and micro aggregation), ``errors``
(the one error type, naming file, record and field), ``vocab`` (statuses, verdicts, problem
codes and reasons as str-valued enums), ``spans`` (UTF-16 offsets), ``sentences`` (a sentence
splitter for English, Turkish and Thai), ``content`` (what a sentence states: content words
and numbers compared as values), ``polarity`` (negation, scope words, clauses and clause
labels a claim must carry), ``text`` (escaping a file's text for Markdown and the terminal),
``frozen`` (read-only mappings in frozen records; ``Plain``, a result's JSON form of JSON values
only), ``parallel`` (independent work split over the cores, results in order), ``processes``
(what still runs in a process group or a session, as /proc tells, and ending them) and
``faces`` (a package's public names, loaded on first use). Imports only the standard library.
"""
