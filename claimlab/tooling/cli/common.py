"""What every command shares: terminal-safe printing, JSON output, argument types."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from claimlab.core.text import json_safe, terminal
from claimlab.io.reader import decode_utf8, read_bytes
from claimlab.notebook.records import to_jsonable


def say(*parts: object, file: Any = None, end: str = "\n", flush: bool = False) -> None:
    """Print for a person: every control character from a file's text is shown, not obeyed."""
    print(terminal(" ".join(str(p) for p in parts)), file=file, end=end, flush=flush)


def emit_json(data: Any) -> None:
    """Write one JSON document to stdout, C1 controls and bidirectional overrides escaped."""
    text = json.dumps(to_jsonable(data), ensure_ascii=False, indent=2)
    sys.stdout.write(json_safe(text) + "\n")


def count_type(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer within bounds (one-line error otherwise)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            bounds = f"at least {minimum}" if maximum is None else f"{minimum}..{maximum}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def id_list(text: str) -> list[str]:
    """Comma-separated ids, or ``@FILE``: the ids in a file, separated by commas or lines."""
    if text.startswith("@"):
        path = text[1:]
        text = decode_utf8(read_bytes(path), file=path).replace("\n", ",")
    return [s.strip() for s in text.split(",") if s.strip()] if text else []


def level_type(text: str) -> float:
    """An argparse type: a confidence level strictly between 0 and 1."""
    from claimlab.metrics.uncertainty import check_level

    try:
        return check_level(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a number between 0 and 1 (e.g. 0.95), got {text!r}"
        ) from None


def compare_pairs(asked: list[str], names: list[str], *, what: str) -> list[tuple[str, str]]:
    """The pairs ``--compare`` names: two of ``names``, or every pair with ``all``.

    Raises:
        ClaimlabInputError: not two names nor ``all``, or a name that is not there.
    """
    from claimlab.core.errors import ClaimlabInputError

    names = sorted(names)
    if asked == ["all"]:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    if len(asked) != 2:
        raise ClaimlabInputError(f"--compare takes two {what} names, or all")
    for name in asked:
        if name not in names:
            raise ClaimlabInputError(
                f"no {what} {name!r} (there are: {', '.join(names)})", field="--compare"
            )
    return [(asked[0], asked[1])]


def add_uncertainty_options(p: argparse.ArgumentParser, *, compared: str) -> None:
    """``--ci``, ``--bootstrap``, ``--permutations``, ``--seed``, ``--ci-method``, ``--compare``."""
    p.add_argument(
        "--ci",
        type=level_type,
        metavar="LEVEL",
        help="intervals for every corpus figure (e.g. 0.95): answers resampled as clusters",
    )
    p.add_argument(
        "--bootstrap", type=count_type(1, 1_000_000), default=2000, help="resamples (default 2000)"
    )
    p.add_argument(
        "--permutations",
        type=count_type(1, 1_000_000),
        default=2000,
        help="permutations of the paired test (default 2000)",
    )
    p.add_argument("--seed", type=count_type(0), default=0, help="random seed (default 0)")
    p.add_argument(
        "--ci-method", choices=("bca", "percentile"), default="bca", help="interval (default bca)"
    )
    p.add_argument(
        "--compare",
        nargs="+",
        metavar="NAME",
        help=f"paired comparison of two {compared} (A B), or every pair (all), Holm-corrected",
    )
