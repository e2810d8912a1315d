"""The ``claimlab`` command line: thin over the package, the labs' commands from the registry.

Each lab's commands live in its own ``cli`` module (``claimlab.labs.<lab>.cli``) and are
listed in :data:`claimlab.labs.registry.LABS`; ``notebooks`` holds the commands that run the
notebooks themselves (run, handouts, serve, notebooks); ``history`` reads the run history a
``--store`` keeps; ``diff`` compares two runs (stored, or per-item tables) claim by claim; ``examples`` gives every command's ``--help`` a description and an example. Every command but ``serve`` takes
``--json``. Errors are one line on stderr: exit 2 for input the command refuses (naming file,
record and field, or the option), 1 for a failed run; set ``CLAIMLAB_DEBUG=1`` to see a
traceback.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import did_you_mean, error_line, terminal
from claimlab.labs.registry import command_adders, command_refs, load
from claimlab.notebook.terminal import (
    check_outputs,
    declared_outputs,
    escape_unencodable,
    nfc_arguments,
    say,
)
from claimlab.tooling.cli import diff, examples, history, notebooks

# the labs' commands (the registry's order), then running, exporting and serving the notebooks
TOOLING_COMMANDS: list[Callable[[Any], None]] = [
    notebooks.add_run,
    notebooks.add_handouts,
    notebooks.add_serve,
    notebooks.add_notebooks,
    history.add_history,
    diff.add_diff,
]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``claimlab CMD: error: ...``) and exit code 2."""

    commands: dict[str, argparse.ArgumentParser]  # the subcommands' own parsers (top level)

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print one line naming the option and where to read more, then exit 2."""
        choice = _INVALID_CHOICE.search(message)
        if choice:  # a command, or an option's value, that is not one of the choices
            message += did_you_mean(choice[1], _CHOICE.findall(choice[2]))
        self.exit(
            2, f"{terminal(self.prog)}: error: {error_line(message)} (see {self.prog} --help)\n"
        )

    def options(self) -> list[str]:
        """Every option string this parser knows (``--json``, ``-p``, ...)."""
        return [s for action in self._actions for s in action.option_strings]

    def unrecognized(self, extra: Sequence[str]) -> None:
        """Refuse arguments this (sub)command does not take, with its own name and hints."""
        options = self.options()
        message = f"unrecognized arguments: {' '.join(extra)}"
        stray = False  # a value with no option of its own (not one after an unknown option)
        for before, word in zip(["", *extra], extra, strict=False):
            if word.startswith("-"):
                message += did_you_mean(word.split("=", 1)[0], options)
            elif not before.startswith("-"):
                stray = True
        if stray:
            message += "; an option takes the values its --help shows"
            if "--context" in options:
                message += (
                    ": give ids comma-separated (--context ID1,ID2) or repeat the option "
                    "(--context ID1 --context ID2)"
                )
        self.error(message)


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")
_CHOICE = re.compile(r"'([^']*)'")


def command_name(adder: str) -> str:
    """The command an ``add_COMMAND`` function adds: ``add_fact_estimate`` -> ``fact-estimate``.

    Examples:
        >>> command_name("claimlab.labs.rag:add_meta_eval"), command_name("add_run")
        ('meta-eval', 'run')
    """
    return adder.rsplit(":", 1)[-1].removeprefix("add_").replace("_", "-")


def _adders(only: str | None) -> list[Callable[[Any], None]]:
    """The functions that add the subcommands: every one, or only the one named ``only``.

    A lab's command is found by its ``module:add_COMMAND`` reference in the registry, so naming
    one command imports that lab alone (start-up: ``claimlab fever`` loads no other lab).
    """
    tooling = {command_name(add.__name__): add for add in TOOLING_COMMANDS}
    if only in tooling:
        return [tooling[only]]
    refs = {command_name(ref): ref for ref in command_refs()}
    if only in refs:
        return [load(refs[only])]
    return [*command_adders(), *TOOLING_COMMANDS]


class _Unbuilt:
    """A subcommand's parser left unbuilt: every call on it is taken and ignored.

    ``claimlab --help``, ``--version`` or an unknown word need the commands' names and one-line
    help only, which ``add_parser`` records; building the options of 25 commands would double
    the start-up (argparse looks up its translations for each parser and option).
    """

    def __init__(self, **_: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> _Unbuilt:
        return self


class _Outline(argparse._SubParsersAction):  # type: ignore[type-arg]
    """Subcommands that record their name and help, with their parsers left unbuilt."""

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        parser_class = self._parser_class
        self._parser_class = _Unbuilt
        try:
            return super().add_parser(name, **kwargs)
        finally:
            self._parser_class = parser_class


def _command_names() -> set[str]:
    """Every command's name, from the registry and the tooling's adders (none imported)."""
    return {
        *(command_name(ref) for ref in command_refs()),
        *(command_name(add.__name__) for add in TOOLING_COMMANDS),
    }


def build_parser(only: str | None = None, *, outline: bool = False) -> argparse.ArgumentParser:
    """The argument parser with every subcommand, or with the one named ``only`` if it is one.

    With ``outline``, the subcommands' own parsers are left unbuilt (their names and one-line
    help are all the top-level ``--help`` shows).
    """
    parser = _Parser(
        prog="claimlab", description="Check long answers claim by claim, with counts and N/A."
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    if outline:
        parser.register("action", "parsers", _Outline)
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    for add in _adders(only):
        add(sub)
    if outline:
        parser.commands = {}
        return parser
    examples.complete_help(sub)
    parser.commands = dict(sub.choices)
    return parser


class _Version(argparse.Action):
    """``--version``: the installed version, read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from claimlab import __version__

        sys.stdout.write(f"claimlab {__version__}\n")  # on stdout, as argparse's own version
        parser.exit()


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM ends a command the way Ctrl-C does: clean-up runs, temporary files go."""
    raise KeyboardInterrupt


def _command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of one subcommand."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise KeyError(name)  # pragma: no cover - every command is a subcommand


def _check_paths(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Before anything is read: texts in one spelling; outputs never collide nor replace an input.

    The outputs are the options a command declares as such (``type=output_path``) and the
    files its ``paths`` names beside them (derived ones, e.g. one per input); the inputs are
    what ``paths`` names.
    """
    inputs, derived = args.paths(args) if getattr(args, "paths", None) is not None else ([], [])
    nfc_arguments(_command_parser(parser, args.command), args)
    check_outputs(
        inputs, [*declared_outputs(_command_parser(parser, args.command), args), *derived]
    )


# the commands that read files, score them and end: no server, no kernel, no cluster; run as
# the claimlab program, each runs with the cyclic garbage collector paused (their records hold
# no cycle, and every collection walked all of them again: `decomposition --json` on 30,000
# candidates 3.9 s -> 1.7 s, `hotpotqa` on 100,000 questions 2.5 s -> 1.6 s)
BATCH = frozenset({
    "decomposition", "spans", "sufficiency", "fever", "factscore", "fact-estimate", "pack",
    "citations", "draft", "agreement", "adjudicate", "convert", "sufficiency-cases",
    "hotpotqa", "musique", "rag", "meta-eval", "history", "diff",
})  # fmt: skip


def _handle(args: argparse.Namespace) -> int:
    """Run the command's handler (see :data:`BATCH`)."""
    if not (args.whole_process and args.command in BATCH):
        code: int = args.handler(args)
        return code
    from claimlab.io.reader import bulk_load

    with bulk_load(freeze=True):
        code = args.handler(args)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``claimlab`` command."""
    words = list(sys.argv[1:] if argv is None else argv)
    # the first word, when it is a command, is the only subcommand built (start-up); an option
    # first (--help, --version) or an unknown word builds them all (the list, did-you-mean)
    # and with no command named anywhere, the others are left unbuilt (the list is all it needs)
    first = words[0] if words and not words[0].startswith("-") else None
    names = _command_names()
    parser = build_parser(first, outline=first not in names and not names.intersection(words))
    args, extra = parser.parse_known_args(words)
    if extra:  # refused by the command itself: its own name, its options, its --help
        command = getattr(parser, "commands", {}).get(args.command, parser)
        if isinstance(command, _Parser):
            command.unrecognized(extra)
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.whole_process = argv is None  # the claimlab program itself: it ends with the command
    if args.whole_process:
        escape_unencodable()
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread (an embedding program): leave its signals alone
        previous = None
    try:
        _check_paths(parser, args)
        code: int = _handle(args)
        return code
    except ClaimlabInputError as exc:
        say(f"claimlab {args.command}: error: {error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        say(f"claimlab {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped early (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:  # a file the command had to read or write: name it, one line
        if os.environ.get("CLAIMLAB_DEBUG"):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        say(
            f"claimlab {args.command}: error: {error_line(f'{where}{exc.strerror or exc}')}",
            file=sys.stderr,
        )
        return 2
    except Exception as exc:  # one line, no traceback, unless asked
        if os.environ.get("CLAIMLAB_DEBUG"):
            raise
        say(
            f"claimlab {args.command}: error: {type(exc).__name__}: {error_line(exc)}",
            file=sys.stderr,
        )
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
