"""Checkers: anything that labels a claim against evidence, behind one interface.

A batch of items (a claim and its evidence passages) goes in; each comes back with a label
(SUPPORTED, CONTRADICTED, NOT_IN_REFERENCE; RAGChecker's Entailment, Contradiction, Neutral),
a probability when the checker gives one, and the passages it used.

This floor sits above the display floor and below the labs: it calls out (processes, the
network, a cache on disk) and shows progress, which the pure floors below must never do, and
the labs that need labels call it. Modules:

* ``verdicts``: items, verdicts, the label mapping, reading a checker's answers;
* ``lexical``: the offline BM25 and content-word checker (the default);
* ``backends``: ``python:``, ``command:`` and ``openai:`` checkers, and ``--checker`` specs;
* ``cache``: the SQLite verdict cache;
* ``runner``: the cache first, then batches in bounded parallel with timeouts and retries;
* ``repeats``: flip rate, majority labels and alpha across repeats;
* ``people``: a checker's labels against people's (kappa, confusion table);
* ``options``: the command-line options and running a checker from them.
"""

from claimlab.checkers.backends import (
    KEY_VARIABLE,
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    Checker,
    checker_from_spec,
    user_prompt,
)
from claimlab.checkers.cache import VerdictCache
from claimlab.checkers.lexical import LexicalChecker, content_words
from claimlab.checkers.people import AgainstPeople, against_people
from claimlab.checkers.repeats import RepeatReport, find_repeats, majority_labels
from claimlab.checkers.runner import CheckerFailed, CheckRun, RunOptions, run_checker
from claimlab.checkers.verdicts import (
    CheckerAnswerError,
    Item,
    Verdict,
    from_ragchecker,
    parse_verdict,
    to_ragchecker,
)

__all__ = [
    "KEY_VARIABLE",
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "AgainstPeople",
    "CheckRun",
    "Checker",
    "CheckerAnswerError",
    "CheckerFailed",
    "Item",
    "LexicalChecker",
    "RepeatReport",
    "RunOptions",
    "Verdict",
    "VerdictCache",
    "against_people",
    "checker_from_spec",
    "content_words",
    "find_repeats",
    "from_ragchecker",
    "majority_labels",
    "parse_verdict",
    "run_checker",
    "to_ragchecker",
    "user_prompt",
]
