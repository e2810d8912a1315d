"""What every command shares: terminal-safe printing, JSON output, argument types."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from claimlab.core.text import json_safe, one_line, terminal
from claimlab.io.reader import at_file
from claimlab.notebook.records import to_jsonable


def say(
    *parts: object, file: Any = None, end: str = "\n", flush: bool = False, block: bool = False
) -> None:
    r"""Print one line for a person: every control character from a file's text is shown.

    A line break inside (from an id, a question, a document name) is shown as ``\n``: no
    file's text can start a line of its own (a forged ``status: SUFFICIENT``). ``block=True``
    prints a text of several lines made to be read as such (a CSV, a prompt, a JSON file).
    """
    text = " ".join(str(p) for p in parts)
    print(terminal(text) if block else one_line(text), file=file, end=end, flush=flush)


def emit_json(data: Any) -> None:
    """Write one JSON document to stdout, C1 controls and bidirectional overrides escaped.

    Encoded by ``orjson`` (in C: a 100,000-candidate audit in a second, not ten); an integer
    beyond 64 bits, which it refuses, falls back to the standard encoder.
    """
    import orjson

    plain = to_jsonable(data)
    try:
        text = orjson.dumps(plain, option=orjson.OPT_INDENT_2).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        import json

        text = json.dumps(plain, ensure_ascii=False, indent=2)
    if not text.isascii() and not _encodes(sys.stdout, text):
        import json

        text = json.dumps(plain, ensure_ascii=True, indent=2)  # every character an escape
    sys.stdout.write(json_safe(text) + "\n")


def _encodes(stream: Any, text: str) -> bool:
    """Whether ``stream`` can write ``text`` as it is (a UTF-8 one always can)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig"):
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def escape_unencodable() -> None:
    r"""Standard output that cannot encode every character writes the others as escapes.

    ``PYTHONIOENCODING=ascii`` or a Latin-1 terminal: a Thai answer is written ``\u0e01``
    instead of failing the command (standard error does so already); JSON output is written
    with JSON's own escapes there (:func:`emit_json`).
    """
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and not _encodes(sys.stdout, "\u0e01\U0001f600"):
        reconfigure(errors="backslashreplace")


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


def finite_type(text: str) -> float:
    """An argparse type: a finite number (a score threshold)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


finite_type.__name__ = "number"


def positive_type(text: str) -> float:
    """An argparse type: a finite number above 0 (a scale)."""
    value = finite_type(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text!r}")
    return value


positive_type.__name__ = "number"


def share_type(text: str) -> float:
    """An argparse type: a share above 0 and at most 1 (a threshold, a labelled share)."""
    value = finite_type(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1, got {text!r}")
    return value


share_type.__name__ = "share"


def share_or_zero(text: str) -> float:
    """An argparse type: a share from 0 to 1 (a margin)."""
    value = finite_type(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1 (0.02 = 2 points), got {text!r}")
    return value


share_or_zero.__name__ = "share"


def id_list(text: str) -> list[str]:
    """Comma-separated ids, or ``@FILE``: the ids in a file, separated by commas or lines."""
    if (lines := at_file(text, option="")) is not None:
        text = ",".join(lines[1])
    return [s.strip() for s in text.split(",") if s.strip()] if text else []


def level_type(text: str) -> float:
    """An argparse type: a confidence level strictly between 0 and 1."""
    from claimlab.metrics.stats.resampling import check_level

    try:
        return check_level(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a number between 0 and 1 (e.g. 0.95), got {text!r}"
        ) from None


def check_compare(asked: list[str], *, what: str) -> None:
    """The shape of ``--compare``, checked before anything is read: two different names, or all.

    Raises:
        ClaimlabInputError: one name, three, or the same name twice.
    """
    from claimlab.core.errors import ClaimlabInputError

    if asked == ["all"]:
        return
    if len(asked) != 2:
        raise ClaimlabInputError(f"--compare takes two {what} names, or all", field="--compare")
    if asked[0] == asked[1]:
        raise ClaimlabInputError(
            f"--compare names {asked[0]!r} twice: a {what} compared with itself", field="--compare"
        )


def compare_pairs(asked: list[str], names: list[str], *, what: str) -> list[tuple[str, str]]:
    """The pairs ``--compare`` names: two of ``names``, or every pair with ``all``.

    Raises:
        ClaimlabInputError: not two names nor ``all``, or a name that is not there.
    """
    from claimlab.core.errors import ClaimlabInputError

    names = sorted(names)
    check_compare(asked, what=what)
    if asked == ["all"]:
        return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
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
        "--bootstrap",
        type=count_type(100, 1_000_000),
        default=2000,
        help="resamples (default 2000; at least 100, fewer cannot place a 2.5%% quantile)",
    )
    p.add_argument(
        "--permutations",
        type=count_type(100, 1_000_000),
        default=2000,
        help="permutations of the paired test (default 2000; at least 100)",
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


def _same(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def _nested(a: Path, b: Path) -> bool:
    ra, rb = a.resolve(), b.resolve()
    return ra == rb or ra.is_relative_to(rb) or rb.is_relative_to(ra)


def _holds(folder: Path, path: Path) -> bool:
    """Whether ``path`` lies anywhere inside ``folder`` (both resolved)."""
    return path.resolve().is_relative_to(folder.resolve())


def output_path(text: str) -> str:
    """An argparse type that declares an option an output: a file or folder the command writes.

    The value comes back as given. The command line reads the declaration (every option of a
    command whose type is this one, see :func:`declared_outputs`) and refuses, before anything
    is read, two outputs naming one path or an output naming an input (:func:`check_outputs`).

    Examples:
        >>> output_path("out.csv")
        'out.csv'
    """
    return text


def output_folder(text: str) -> str:
    """An argparse type that declares an option an output folder (the command writes files in it).

    Besides the rules of :func:`output_path`, a folder that holds an input is refused: a file
    the command writes there could take an input's name.

    Examples:
        >>> output_folder("drafts")
        'drafts'
    """
    return text


_OUTPUT_TYPES = (output_path, output_folder)


def declared_outputs(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> list[tuple[str, str]]:
    """``(option, path)`` for every output a command's parser declares and the user gave.

    An option is named by its long form (``--out``), a positional by its metavar or name.

    Examples:
        >>> p = argparse.ArgumentParser()
        >>> _ = p.add_argument("--out", type=output_path)
        >>> _ = p.add_argument("--name")
        >>> declared_outputs(p, p.parse_args(["--out", "a.csv", "--name", "a.csv"]))
        [('--out', 'a.csv')]
    """
    found: list[tuple[str, str]] = []
    for action in parser._actions:
        value = getattr(args, action.dest, None)
        if action.type not in _OUTPUT_TYPES or value is None:
            continue
        name = max(action.option_strings, key=len, default=str(action.metavar or action.dest))
        if action.type is output_folder:
            name += FOLDER_MARK
        found.extend((name, str(v)) for v in (value if isinstance(value, list) else [value]))
    return found


FOLDER_MARK = "/"  # an option name ending so, in check_outputs's pairs, is an output folder


def nfc_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every text a command was given in one spelling (NFC), as the readers give a file's.

    Ids, names, values and circumstances typed composed or decomposed compare equal to a
    file's. A path stays as the system spells it: an output the command declares, a value
    naming a file or folder that exists (or ``NAME=FOLDER``), and ``@FILE`` (whose lines are
    read in NFC).

    Examples:
        >>> p = argparse.ArgumentParser()
        >>> _ = p.add_argument("--circumstance", nargs="+")
        >>> a = p.parse_args(["--circumstance", "14 di\u0301as"])
        >>> nfc_arguments(p, a)
        >>> a.circumstance == ["14 d\u00edas"]
        True
    """
    from claimlab.core.text import nfc

    def one(value: Any) -> Any:
        if isinstance(value, list | tuple):
            return type(value)(one(v) for v in value)
        if not isinstance(value, str) or value.startswith("@") or os.path.exists(value):
            return value
        if "=" in value and os.path.exists(value.split("=", 1)[1]):  # NAME=FOLDER
            return value
        return nfc(value)

    for action in parser._actions:
        if action.type not in _OUTPUT_TYPES and hasattr(args, action.dest):
            setattr(args, action.dest, one(getattr(args, action.dest)))


def check_outputs(
    inputs: Sequence[str | os.PathLike[str] | None],
    outputs: Sequence[tuple[str, str | os.PathLike[str] | None]],
) -> None:
    """Refuse, before anything is read or written, outputs that collide with each other or an input.

    ``outputs`` are ``(option, path)`` pairs (an option ending in ``/`` is an output folder,
    see :func:`output_folder`). Two outputs naming one path are refused (the second would
    replace the first; a pair given twice is one output); an output that is an input file is
    refused; so is an output that is or lies inside an input folder, and an output folder
    that holds an input (a file the command writes there could take the input's name).

    Raises:
        ClaimlabInputError: naming the option, the output and what it collides with.
    """
    from claimlab.core.errors import ClaimlabInputError

    _check_distinct(outputs)
    given = [Path(p) for p in inputs if p is not None and str(p)]
    for option, out in outputs:
        if out is None or not str(out):
            continue
        target, folder = Path(out), option.endswith(FOLDER_MARK)
        option = option.removesuffix(FOLDER_MARK)
        for src in given:
            if src.is_dir() and _nested(target, src) or _same(target, src):
                why = ""
            elif folder and _holds(target, src):
                why = " (an output folder never holds an input: a file written there could take its name)"
            else:
                continue
            raise ClaimlabInputError(
                f"would replace the input {src}{why}: outputs never replace inputs (choose "
                f"another {option})",
                file=str(target),
                field=option,
            )


def _check_distinct(outputs: Sequence[tuple[str, str | os.PathLike[str] | None]]) -> None:
    """Refuse the first output whose path an earlier, different output already names."""
    from claimlab.core.errors import ClaimlabInputError

    seen: dict[tuple[str, str], Path] = {}
    for marked, out in outputs:
        option = marked.removesuffix(FOLDER_MARK)
        if out is None or not str(out) or (option, str(out)) in seen:
            continue
        target = Path(out)
        for (other, _), path in seen.items():
            if _same(target, path):
                raise ClaimlabInputError(
                    f"is also the {other} output: two outputs never write one path (choose "
                    f"another {option})",
                    file=str(target),
                    field=option,
                )
        seen[(option, str(out))] = target


def _ignore(n: int = 1) -> None:
    """A progress step nobody watches."""


class Steps:
    """A progress line on stderr for each step that runs over two seconds (on a terminal).

    ``step(desc, total)`` returns a callable to advance it by n; the line appears only once the
    step has run two seconds, so quick runs print nothing.
    """

    def __init__(self, command: str, *, enabled: bool | None = None) -> None:
        self.command = command
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bars: list[Any] = []

    def step(self, desc: str, total: int | None = None, unit: str = "") -> Callable[[int], None]:
        """Start a step; the returned function advances it."""
        self.close()
        if not self.enabled:
            return _ignore
        from tqdm import tqdm

        bar = tqdm(
            total=total,
            desc=terminal(f"claimlab {self.command}: {desc}"),
            unit=unit or "it",
            delay=2,
            leave=False,
            file=sys.stderr,
            dynamic_ncols=True,
        )
        self._bars.append(bar)

        def advance(n: int = 1) -> None:
            bar.update(n)

        return advance

    def close(self) -> None:
        """End the current step."""
        while self._bars:
            self._bars.pop().close()


def add_store_option(p: argparse.ArgumentParser) -> None:
    """``--store FILE.sqlite``: append this run to a run history (default ``$CLAIMLAB_STORE``)."""
    p.add_argument(
        "--store",
        metavar="FILE.sqlite",
        default=os.environ.get("CLAIMLAB_STORE") or None,
        type=output_path,
        help="append this run (inputs' sha256, parameters, every figure with its counts) to a "
        "run history (default: $CLAIMLAB_STORE)",
    )


def remember(
    args: argparse.Namespace,
    command: str,
    data: Any,
    *,
    claims: Sequence[Any] = (),
    rag_queries: Sequence[Any] = (),
) -> int | None:
    """Record the run in ``--store`` when one is given; returns its id (None without a store).

    ``claims`` are an audit's candidates, ``rag_queries`` the RAG queries read: both kept
    claim by claim, so ``claimlab diff`` can compare two stored runs.
    """
    if not getattr(args, "store", None):
        return None
    from importlib import metadata

    from claimlab.io.store import figures_of, record_run

    inputs = [p for p in (args.paths(args)[0] if getattr(args, "paths", None) else []) if p]
    skip = {"handler", "paths", "store", "json"}
    parameters = {k: v for k, v in vars(args).items() if k not in skip and not callable(v)}
    try:
        version = metadata.version("claimlab")
    except metadata.PackageNotFoundError:  # pragma: no cover - a checkout without install
        version = "0+unknown"
    return record_run(
        args.store,
        command=command,
        argv=sys.argv[1:],
        inputs=[p for p in inputs if Path(p).exists()],
        parameters=to_jsonable(parameters),
        figures=figures_of(to_jsonable(data)),
        claims=claims,
        rag_queries=rag_queries,
        version=version,
    )
