"""Commands around the notebooks: ``run``, ``handouts``, ``serve`` and ``notebooks``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from claimlab.core.errors import ClaimlabInputError
from claimlab.core.text import one_line
from claimlab.notebook.terminal import (
    check_outputs,
    count_type,
    emit_json,
    output_folder,
    say,
)


def cmd_run(args: argparse.Namespace) -> int:
    """Run ``claimlab run``; returns the exit code."""
    if args.data:
        data = Path(args.data).expanduser()
        if not data.is_dir():
            raise ClaimlabInputError("not a folder", file=str(args.data), field="--data")
        os.environ["CLAIMLAB_DATA"] = str(data.resolve())  # the kernels inherit it
    notebooks = _notebooks_to_run(args)
    plan = _parameters_per_notebook(args, notebooks)
    started = time.perf_counter()
    results, failures = _run_each(args, notebooks, plan)
    total = time.perf_counter() - started
    if args.json:
        emit_json(
            {
                "output": str(args.output),
                "seconds": round(total, 3),
                "notebooks": [
                    {
                        "stem": r.stem,
                        "notebook": str(r.notebook),
                        "records": str(r.records_path),
                        "seconds": round(r.seconds, 3),
                        "parameters": r.parameters,
                    }
                    for r in results
                ],
                "failed": [{"stem": s, "error": e, "input": bad} for s, e, bad in failures],
            }
        )
    else:
        failed = f"; {len(failures)} failed: {', '.join(s for s, _, _ in failures)}"
        say(
            f"summary: {len(results)} of {len(notebooks)} notebooks executed in {total:.1f} s"
            + (failed if failures else "")
            + f"; outputs in {args.output}/"
        )
    if not failures:
        return 0
    # refused input is the user's to fix (2); any other failure is a failed run (1)
    return 2 if all(bad for _, _, bad in failures) else 1


def _parameters_per_notebook(
    args: argparse.Namespace, notebooks: list[Path]
) -> dict[str, dict[str, Any]]:
    """Each notebook's parameters from ``-p`` (plain or ``STEM:NAME``) and ``--parameters``."""
    from claimlab.io.reader import read_json
    from claimlab.tooling.plan import plan_parameters
    from claimlab.tooling.runner import absolutise_paths, declared_parameters, parse_value

    per_file: Any = {}
    if args.parameters:
        per_file = read_json(args.parameters, error=ClaimlabInputError)
        if not isinstance(per_file, dict):
            raise ClaimlabInputError(
                "must be a JSON object {NOTEBOOK: {NAME: VALUE}}", file=args.parameters
            )
    declared = {nb.stem: list(declared_parameters(nb)) for nb in notebooks}
    given = [(name, parse_value(value)) for name, value in args.parameter or []]
    plan = plan_parameters(declared, given, per_file, source=str(args.parameters))
    return {stem: absolutise_paths(values) for stem, values in plan.items()}


def _notebooks_to_run(args: argparse.Namespace) -> list[Path]:
    """The notebooks named (or every lab's), checked not to be replaced by their outputs."""
    from claimlab.tooling.runner import resolve_notebooks

    notebooks = resolve_notebooks(args.notebooks)
    if not notebooks:
        raise ClaimlabInputError("no notebooks registered", file="notebooks/")
    out = Path(args.output)
    check_outputs(  # an executed notebook never replaces its source
        [str(nb) for nb in notebooks],
        [
            ("--output", out / f"{nb.stem}{suffix}")
            for nb in notebooks
            for suffix in (".ipynb", ".records.json")
        ],
    )
    return list(notebooks)


def _run_each(
    args: argparse.Namespace, notebooks: list[Path], plan: dict[str, dict[str, Any]]
) -> tuple[list[Any], list[tuple[str, str, bool]]]:
    """Execute each notebook, a line each; returns the results and the failures."""
    from claimlab.tooling.runner import NotebookFailed, run_notebook

    results = []
    failures: list[tuple[str, str, bool]] = []
    for i, nb in enumerate(notebooks, 1):
        if not args.json:
            say(f"[{i}/{len(notebooks)}] {nb.stem} ...", end="", flush=True)
        try:
            res = run_notebook(
                nb, parameters=plan[nb.stem], output_dir=args.output, timeout=args.timeout
            )
        except NotebookFailed as exc:
            failures.append((nb.stem, str(exc), exc.input_error))
            if not args.json:
                say(" FAILED", flush=True)
            say(f"claimlab run: error: {one_line(exc)}", file=sys.stderr, flush=True)
            continue
        except ClaimlabInputError:
            if not args.json:
                say(" refused", flush=True)
            raise
        results.append(res)
        if not args.json:
            say(
                f" ok {res.seconds:6.1f} s  {len(res.records)} records -> {res.notebook}",
                flush=True,
            )
    return results, failures


def add_run(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab run`` to the command parser."""
    p = sub.add_parser("run", help="execute notebooks headless with papermill")
    p.add_argument("notebooks", nargs="*", help="notebook paths or stems (default: all registered)")
    p.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        metavar=("NAME", "VALUE"),
        help="set a parameter in every listed notebook that declares NAME (refused if none"
        " does), or in one notebook as STEM:NAME (06_decomposition_game:FIXTURE, or 06:FIXTURE);"
        " VALUE is parsed as JSON when it can be",
    )
    p.add_argument(
        "--parameters",
        metavar="FILE.json",
        help='per-notebook parameters {"STEM": {"NAME": VALUE}}; a STEM:NAME -p wins over it,'
        " and it wins over a plain -p",
    )
    p.add_argument(
        "--output", default="outputs", type=output_folder, help="output folder (default: outputs)"
    )
    p.add_argument(
        "--data", help="the real-data folder (default: $CLAIMLAB_DATA, or ../shared/data)"
    )
    p.add_argument(
        "--timeout", type=count_type(1), default=600, help="seconds per cell (default: 600)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(handler=cmd_run)


def cmd_handouts(args: argparse.Namespace) -> int:
    """Run ``claimlab handouts``; returns the exit code."""
    from claimlab.tooling.handouts import VARIANTS, build_handouts

    variants = VARIANTS if args.variant == "both" else (args.variant,)
    formats = ("html", "pdf") if args.format == "both" else (args.format,)
    run = build_handouts(args.source, args.target, variants=variants, formats=formats)
    if args.json:
        emit_json(
            {
                "index": str(run.index),
                "seconds": round(run.seconds, 3),
                "handouts": [
                    {
                        "stem": h.stem,
                        "variant": h.variant,
                        "html": str(h.html) if "html" in formats else None,
                        "pdf": None if h.pdf is None else str(h.pdf),
                    }
                    for h in run.handouts
                ],
            }
        )
        return 0
    for h in run.handouts:
        parts = ([str(h.html)] if "html" in formats else []) + ([str(h.pdf)] if h.pdf else [])
        say(f"  {h.stem} ({h.variant}): {', '.join(parts)}")
    say(f"handouts: {len(run.handouts)} written in {run.seconds:.1f} s; index {run.index}")
    return 0


def add_handouts(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab handouts`` to the command parser."""
    p = sub.add_parser("handouts", help="export executed notebooks as HTML/PDF handouts")
    p.add_argument(
        "--from", dest="source", default="outputs", help="executed notebooks (default outputs/)"
    )
    p.add_argument(
        "--to",
        dest="target",
        default=None,
        type=output_folder,
        help="handout folder (default FROM/handouts/)",
    )
    p.add_argument("--variant", choices=("student", "instructor", "both"), default="both")
    p.add_argument("--format", choices=("html", "pdf", "both"), default="both")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_handouts)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run ``claimlab serve``; returns the exit code."""
    from claimlab.io.files import temp_dir
    from claimlab.labs.registry import LABS, load
    from claimlab.tooling.paths import NOTEBOOKS_DIR
    from claimlab.tooling.serve import (
        check_port,
        prepare_games_folder,
        voila_command,
        warm_pool,
    )

    fixtures = {}
    for lab in LABS:  # a teacher's own file, refused now in one line rather than in a page
        own = getattr(args, lab.name, None) if lab.game_from_file else None
        if own:
            load(lab.game_from_file)(own)  # type: ignore[arg-type]
            fixtures[f"{lab.game}.ipynb"] = Path(own)
    check_port(args.ip, args.port)
    # a folder named with this process's pid: Voila keeps the pid, and the next run of any
    # claimlab command that needs one removes it once the server has stopped
    folder = temp_dir("serve")
    games = prepare_games_folder(
        NOTEBOOKS_DIR, folder, student=not args.instructor, fixtures=fixtures
    )
    host = f"[{args.ip}]" if ":" in args.ip else args.ip
    base = f"http://{host}:{args.port}"
    query = f"?token={args.token}" if args.token else ""
    view = "instructor view (solutions shown)" if args.instructor else "student view"
    say(f"claimlab serve: the games as standalone pages (Voila), {view}; Ctrl-C stops the server")
    for nb in games:
        say(f"  {base}/voila/render/{nb.name}{query}")
    warm = warm_pool(args.warm, args.max_kernels, len(games))
    say(
        f"  at most {args.max_kernels} games at once, {warm} page(s) of each game executed "
        f"ahead; a closed page frees its kernel within seconds, one that never connects after"
        f" {args.cull_idle} s idle"
    )
    cmd = voila_command(
        folder,
        ip=args.ip,
        port=args.port,
        token=args.token,
        max_kernels=args.max_kernels,
        cull_idle=args.cull_idle,
        warm=warm,
    )
    # become the server (no parent left between it and the signals): a stop or kill of this
    # command stops Voila and its kernels instead of leaving them running behind
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, cmd)
    return 0  # not reached


def add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``claimlab serve`` to the command parser."""
    from claimlab.labs.registry import LABS

    p = sub.add_parser("serve", help="serve the games as standalone pages (Voila) for a classroom")
    p.add_argument("--port", type=count_type(1, 65535), default=8866, help="port (default 8866)")
    p.add_argument("--ip", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--token", default=None, help="require this token in every URL (set it on a shared network)"
    )
    p.add_argument(
        "--max-kernels",
        type=count_type(1),
        default=40,
        help="most games running at once (default 40)",
    )
    p.add_argument(
        "--cull-idle",
        type=count_type(1),
        default=60,
        help="seconds before the kernel of a page that never connected (or lost its connection)"
        " is stopped when idle (default 60); a page that closes frees its kernel within seconds",
    )
    p.add_argument(
        "--warm",
        type=count_type(0),
        default=None,
        help="pages of each game executed ahead, served at once in a rush; counted within "
        "--max-kernels (default: the cap shared between the games, at most 8 each)",
    )
    p.add_argument(
        "--instructor",
        action="store_true",
        help="show solutions, statuses and live metrics (default: the student view)",
    )
    for lab in LABS:
        if lab.game_from_file:
            p.add_argument(
                f"--{lab.name}", metavar="FILE", help=f"your own {lab.name} file for its game"
            )
    p.set_defaults(handler=cmd_serve, json=False)


def cmd_notebooks(args: argparse.Namespace) -> int:
    """Run ``claimlab notebooks``; returns the exit code."""
    from claimlab.io.files import atomic_write
    from claimlab.tooling.paths import FIXTURES_DIR, NOTEBOOKS_DIR

    target = Path(args.folder)
    if target.exists() and not target.is_dir():
        raise ClaimlabInputError("is a file, not a folder", file=str(target))
    plan = [
        (p, target / "notebooks" / p.name) for p in sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
    ]
    plan += [
        (p, target / "fixtures" / p.relative_to(FIXTURES_DIR))
        for p in sorted(
            [
                *FIXTURES_DIR.glob("*.json"),
                *FIXTURES_DIR.glob("*.jsonl"),
                *FIXTURES_DIR.glob("*/*.json"),
            ]
        )
    ]
    if not plan:
        raise ClaimlabInputError("no shipped notebooks found", file=str(NOTEBOOKS_DIR))
    changed = [dst for src, dst in plan if dst.exists() and dst.read_bytes() != src.read_bytes()]
    if changed and not args.force:
        raise ClaimlabInputError(
            f"{len(changed)} file(s) differ from the shipped ones (your edits?), first "
            f"{changed[0]}; nothing was copied (pass --force to replace them)",
            file=str(target),
        )
    for src, dst in plan:
        atomic_write(dst, src.read_text(encoding="utf-8"))
    if args.json:
        emit_json({"folder": str(target), "written": [str(d) for _, d in plan]})
        return 0
    n_nb = sum(1 for _, d in plan if d.suffix == ".ipynb")
    say(f"{n_nb} notebooks and {len(plan) - n_nb} fixtures copied into {target}/")
    say(f"  cd {target} && claimlab run        # executes them into {target}/outputs/")
    return 0


def add_notebooks(sub: Any) -> None:
    """Add ``claimlab notebooks`` to the command parser."""
    p = sub.add_parser("notebooks", help="copy the labs (notebooks and fixtures) into a folder")
    p.add_argument("folder", type=output_folder, help="where to put notebooks/ and fixtures/")
    p.add_argument("--force", action="store_true", help="replace copies you have changed")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_notebooks)
