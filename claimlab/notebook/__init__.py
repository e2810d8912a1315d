"""Shared display primitives, never a metric computed here and nothing of one lab.

``display`` (showing tables that are never typeset as maths, escaped Markdown, figures),
``style`` (the house style as a context manager, bars that carry their counts, hatched N/A),
``uncertainty`` (intervals and comparisons, shown by several labs), ``widgets`` (the widget
base: escaped HTML panes, toggles, the game view both games share), ``records`` (values a
notebook records for its tests) and ``terminal`` (what the commands print: one-line errors,
JSON, progress steps, option types, outputs that never replace inputs) and ``gate`` (the
release gate's options, run and JUnit and Markdown reports, shared by every gated command) and
``words`` (the catalogue mechanism a lesson's words are told by, in the file's language, and the
words several labs and the handouts share) and ``diff`` (what changed between two runs, in the
terminal, Markdown and JUnit text).
Imports the floors below.
"""
