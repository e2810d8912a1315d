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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names, for type checkers; at run time each is loaded on first use
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
    from claimlab.checkers.repeats import RepeatReport, majority_labels, score_repeats
    from claimlab.checkers.runner import CheckRun, RunOptions, run_checker
    from claimlab.checkers.verdicts import (
        CheckerAnswerError,
        CheckerFailed,
        Item,
        Verdict,
        from_ragchecker,
        parse_verdict,
        to_ragchecker,
    )

# the environment variable naming the verdict cache (``checkers.cache``), here so the command
# line's options name it without importing the cache (and sqlite3)
CACHE_VARIABLE = "CLAIMLAB_CHECKER_CACHE"

# public name -> the module that defines it (imported on first use: `claimlab --help` and a
# command that needs no checker import none of them, nor numpy through ``people``)
_PUBLIC = {
    "KEY_VARIABLE": "claimlab.checkers.backends",
    "PROMPT_VERSION": "claimlab.checkers.backends",
    "SYSTEM_PROMPT": "claimlab.checkers.backends",
    "Checker": "claimlab.checkers.backends",
    "checker_from_spec": "claimlab.checkers.backends",
    "user_prompt": "claimlab.checkers.backends",
    "VerdictCache": "claimlab.checkers.cache",
    "LexicalChecker": "claimlab.checkers.lexical",
    "content_words": "claimlab.checkers.lexical",
    "AgainstPeople": "claimlab.checkers.people",
    "against_people": "claimlab.checkers.people",
    "RepeatReport": "claimlab.checkers.repeats",
    "score_repeats": "claimlab.checkers.repeats",
    "majority_labels": "claimlab.checkers.repeats",
    "CheckerFailed": "claimlab.checkers.verdicts",
    "CheckRun": "claimlab.checkers.runner",
    "RunOptions": "claimlab.checkers.runner",
    "run_checker": "claimlab.checkers.runner",
    "CheckerAnswerError": "claimlab.checkers.verdicts",
    "Item": "claimlab.checkers.verdicts",
    "Verdict": "claimlab.checkers.verdicts",
    "from_ragchecker": "claimlab.checkers.verdicts",
    "parse_verdict": "claimlab.checkers.verdicts",
    "to_ragchecker": "claimlab.checkers.verdicts",
}

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
    "score_repeats",
    "from_ragchecker",
    "majority_labels",
    "parse_verdict",
    "run_checker",
    "to_ragchecker",
    "user_prompt",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (see ``_PUBLIC``)."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'claimlab.checkers' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
