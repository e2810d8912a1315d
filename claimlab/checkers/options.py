"""The options every command that labels claims takes, and running its checker from them.

``--checker`` (``lexical``, ``python:MODULE:ATTR``, ``command:"CMD"``, ``openai:URL``),
``--model``, ``--cache`` / ``--no-cache``, ``--repeats``, ``--workers``, ``--timeout``,
``--retries``, ``--batch``. The run shows a progress bar on a terminal.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from claimlab.checkers import CACHE_VARIABLE
from claimlab.notebook.terminal import Steps, count_type, output_path, positive_type

if TYPE_CHECKING:  # the checkers are imported when one runs, not when the options are added
    from claimlab.checkers.runner import CheckRun
    from claimlab.checkers.verdicts import Item


def add_checker_options(p: argparse.ArgumentParser, *, default: str | None = "lexical") -> None:
    """Add the checker's options to a command."""
    g = p.add_argument_group("checker")
    g.add_argument(
        "--checker",
        metavar="SPEC",
        default=default,
        help='lexical (BM25 and content words, offline), python:MODULE:ATTR, command:"CMD ARGS" '
        "(JSON Lines over stdin/stdout) or openai:URL (a chat-completions server; the key from "
        f"$CLAIMLAB_CHECKER_KEY){f' (default {default})' if default else ''}",
    )
    g.add_argument("--model", metavar="NAME", help="the model an openai: server runs")
    g.add_argument(
        "--cache",
        metavar="FILE.sqlite",
        type=output_path,
        help=f"the verdict cache (default ${CACHE_VARIABLE} or ~/.cache/claimlab/verdicts.sqlite)",
    )
    g.add_argument("--no-cache", action="store_true", help="ask the checker for every item")
    g.add_argument(
        "--repeats",
        type=count_type(1, 100),
        default=1,
        metavar="K",
        help="ask each item K times (default 1)",
    )
    g.add_argument(
        "--workers",
        type=count_type(1, 64),
        default=4,
        metavar="N",
        help="calls at once, at most (default 4; a command: checker runs at most 2 programs "
        "at once, a python: checker one batch at a time)",
    )
    g.add_argument(
        "--timeout",
        type=positive_type,
        default=60.0,
        metavar="SECONDS",
        help="seconds per call of a command: or openai: checker (default 60); a python: checker "
        "runs in this process and is not stopped by it",
    )
    g.add_argument(
        "--retries",
        type=count_type(0, 20),
        default=3,
        metavar="N",
        help="tries again per call (default 3)",
    )
    g.add_argument(
        "--batch",
        type=count_type(1, 10000),
        metavar="N",
        help="items per call (default: the checker's)",
    )


def run_from_args(
    args: argparse.Namespace,
    items: Sequence[Item],
    *,
    command: str,
    threshold: float = 0.6,
    top: int = 5,
) -> CheckRun:
    """Run the checker the options name over the items."""
    from claimlab.checkers.backends import checker_from_spec
    from claimlab.checkers.cache import VerdictCache, default_cache_path
    from claimlab.checkers.runner import RunOptions, run_checker

    checker = checker_from_spec(args.checker, model=args.model, threshold=threshold, top=top)
    cache = None
    if checker.cached and not args.no_cache:
        cache = VerdictCache(args.cache or default_cache_path())
    steps = Steps(command)
    options = RunOptions(
        workers=args.workers,
        timeout=args.timeout,
        retries=args.retries,
        batch_size=args.batch,
        progress=steps.step("checking", total=len(items) * args.repeats, unit="claim"),
    )
    try:
        return run_checker(items, checker, cache=cache, repeats=args.repeats, options=options)
    finally:
        steps.close()
        if cache is not None:
            cache.close()
