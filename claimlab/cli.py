"""The ``claimlab`` command line: thin over the package. Every command but ``serve`` takes ``--json``.

Errors are one line on stderr and a non-zero exit (2 for bad input, 1 for a failed run);
set ``CLAIMLAB_DEBUG=1`` to see a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from claimlab.errors import ClaimlabInputError
from claimlab.text import json_safe, one_line, terminal


def say(*parts: object, file: Any = None, end: str = "\n", flush: bool = False) -> None:
    """Print for a person: every control character from a file's text is shown, not obeyed."""
    print(terminal(" ".join(str(p) for p in parts)), file=file, end=end, flush=flush)


def _emit_json(data: Any) -> None:
    from claimlab.records import to_jsonable

    text = json.dumps(to_jsonable(data), ensure_ascii=False, indent=2)
    sys.stdout.write(json_safe(text) + "\n")


def _count(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
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


def _ids(text: str) -> list[str]:
    """Comma-separated ids, or ``@FILE``: the ids in a file, separated by commas or lines."""
    if text.startswith("@"):
        from claimlab._parse import decode_utf8, read_bytes

        path = text[1:]
        text = decode_utf8(read_bytes(path), file=path).replace("\n", ",")
    return [s.strip() for s in text.split(",") if s.strip()] if text else []


# --- decomposition -------------------------------------------------------------------------


def _cmd_decomposition(args: argparse.Namespace) -> int:
    from claimlab.decomposition import METRIC_LABELS, METRICS, find_decomposition
    from claimlab.fixtures import load_decomposition

    fx = load_decomposition(args.file)
    selection = fx.mode(args.mode) if args.mode is not None else _ids(args.select)
    result = find_decomposition(fx, selection)
    if args.json:
        _emit_json({"file": args.file, "mode": args.mode, **result.to_dict()})
        return 0
    label = f"mode {args.mode}" if args.mode is not None else "selection"
    say(f"{args.file}: {label}: {', '.join(result.selection) or '(empty)'}")
    for m in METRICS:
        say(f"  {METRIC_LABELS[m]:<24} {getattr(result, m)}")
    sc = result.status_counts
    say(
        f"  status (unique selection) SUPPORTED {sc['SUPPORTED']}, CONTRADICTED "
        f"{sc['CONTRADICTED']}, NOT_IN_REFERENCE {sc['NOT_IN_REFERENCE']}"
    )
    for name, ids in (
        ("missing units", result.missing_units),
        ("duplicates", result.duplicates),
        ("introduced", result.introduced),
        ("non-atomic", result.non_atomic),
        ("unfaithful", result.unfaithful),
    ):
        say(f"  {name:<24} {', '.join(ids) or '-'}")
    say("  audit:")
    for row in result.audit:
        flag = "" if row.counted else f" (duplicate of {row.duplicate_of}, not counted)"
        say(
            f"    {row.id:<4} preserves={','.join(row.preserves) or '-'} faithful={row.faithful} "
            f"atomic={row.atomic} errors={','.join(row.errors) or '-'} | {row.status} "
            f"{','.join(row.references) or '-'}{flag}"
        )
    return 0


def _add_decomposition(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("decomposition", help="score a selection of candidate subclaims")
    p.add_argument("file", help="a claimlab/decomposition@1 file")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--select", help="candidate ids, comma-separated (duplicates kept), or @FILE")
    g.add_argument("--mode", help="a named selection from the file's modes")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_decomposition)


# --- sufficiency ---------------------------------------------------------------------------


def _cmd_sufficiency(args: argparse.Namespace) -> int:
    from claimlab.sufficiency import find_fixture_sufficiency, load_sufficiency

    fx = load_sufficiency(args.file)
    context = _ids(args.context)
    result = find_fixture_sufficiency(
        fx, args.question, context, ignore_metadata=args.ignore_metadata
    )
    if args.json:
        _emit_json(
            {
                "file": args.file,
                "question": args.question,
                "context": context,
                "ignore_metadata": args.ignore_metadata,
                **result.to_dict(),
            }
        )
        return 0
    q = fx.question(args.question)
    say(f"{args.file}: question {args.question}: {q.text}")
    say(
        f"  context: {', '.join(context) or '(empty)'} "
        f"({result.context_raw} raw, {result.context_unique} unique)"
    )
    say(f"  status: {result.status}")
    say(f"  {result.explanation}")
    for b in result.branches:
        state = "complete" if b.complete else "missing " + (", ".join(b.missing) or "-")
        say(f"  branch {{{', '.join(b.alternative)}}}: {state}")
        for e in b.link_errors:
            say(f"    link error: {e.explanation}")
    for r in result.rejected:
        say(f"  rejected {r.id} ({r.reason}): {r.detail}")
    for r in result.unsafe_candidates:
        say(f"  UNSAFE CANDIDATE {r.id}: {r.detail}")
    return 0


def _add_sufficiency(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sufficiency", help="is the selected evidence enough for a question?")
    p.add_argument("file", help="a claimlab/sufficiency@1 file")
    p.add_argument("--question", required=True, help="question name from the file")
    p.add_argument(
        "--context",
        default="",
        help="evidence ids, comma-separated (repeats kept), or @FILE with one id per line",
    )
    p.add_argument(
        "--ignore-metadata",
        action="store_true",
        help="demo mode: list records failing the metadata rules as unsafe candidates",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_sufficiency)


# --- fever ---------------------------------------------------------------------------------


def _cmd_fever(args: argparse.Namespace) -> int:
    from claimlab.fever import load_gold, load_predictions, pair_by_id, score_fever
    from claimlab.records import to_jsonable
    from claimlab.runner import atomic_write

    gold = load_gold(args.gold)
    preds = load_predictions(args.predictions)
    pairs = pair_by_id(gold, preds, gold_file=args.gold, pred_file=args.predictions)
    result = score_fever(pairs, max_evidence=args.max_evidence)
    if args.details:
        atomic_write(
            Path(args.details),
            "".join(json.dumps(to_jsonable(c), ensure_ascii=False) + "\n" for c in result.claims),
        )
    if args.json:
        _emit_json({"gold": args.gold, "predictions": args.predictions, **result.to_dict()})
        return 0
    c = result.to_dict()["counts"]

    def fig(value: float | None) -> str:
        return "N/A (no verifiable claim)" if value is None else repr(value)

    say(f"{args.predictions} against {args.gold} (max evidence {args.max_evidence}):")
    say(f"  strict score     {fig(result.strict_score):<22} {result.strict}")
    say(f"  label accuracy   {fig(result.label_accuracy):<22} {result.label}")
    say(
        f"  precision        {fig(result.precision):<22} macro over {c['verifiable']} verifiable claims"
    )
    say(f"  recall           {fig(result.recall.value):<22} {result.recall}")
    say(f"  f1               {fig(result.f1)}")
    say(
        f"  one sentence away from a witness: {c['one_sentence_away']} of {c['verifiable']} "
        "verifiable claims"
    )
    if args.details:
        say(f"  per-claim details written to {args.details}")
    return 0


def _add_fever(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fever", help="FEVER scores (official conventions, paired by id)")
    p.add_argument("gold", help="gold JSONL (id, label, evidence)")
    p.add_argument(
        "predictions", help="predictions JSONL (id, predicted_label, predicted_evidence)"
    )
    p.add_argument(
        "--max-evidence", type=_count(1), default=5, help="predicted sentences used (default 5)"
    )
    p.add_argument("--details", metavar="OUT", help="write per-claim witness details as JSONL")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_fever)


# --- factscore -----------------------------------------------------------------------------


def _cmd_factscore(args: argparse.Namespace) -> int:
    from claimlab.factscore import find_factscore, load_labelled

    stems: dict[str, str] = {}
    for f in args.files:  # one ledger per stem: two files may not write the same one
        stem = Path(f).stem
        if args.ledger_dir and stem in stems:
            raise ClaimlabInputError(
                f"same file name as {stems[stem]}: both would write the ledger {stem}.*.parquet"
                " (rename one)",
                file=f,
            )
        stems[stem] = f
    results, loaded = [], []
    for f in args.files:
        responses = load_labelled(f)
        r = find_factscore(responses, name=Path(f).stem, policy=args.irrelevant, gamma=args.gamma)
        results.append((f, r))
        loaded.append((Path(f).stem, responses))
    ledgers = _write_factscore_ledgers(loaded, args) if args.ledger_dir else []
    if args.json:
        _emit_json(
            {
                "gamma": args.gamma,
                "irrelevant": args.irrelevant,
                "files": [
                    {
                        "file": f,
                        **r.to_dict(),
                        "factscore_percent": None if r.factscore is None else 100 * r.factscore,
                        "init_score_percent": None if r.init_score is None else 100 * r.init_score,
                    }
                    for f, r in results
                ],
                "ledgers": [{"candidates": str(c), "units": str(u)} for c, u in ledgers],
            }
        )
        return 0
    say(f"FActScore, irrelevant-fact policy {args.irrelevant!r}, gamma {args.gamma}:")
    for _, r in results:
        init = "N/A" if r.init_score is None else f"{100 * r.init_score:.1f}"
        say(f"  {r.name:<16} {r.display}  init_score {init}")
    for c, u in ledgers:
        say(f"ledger written: {c} --units {u}")
    return 0


def _write_factscore_ledgers(loaded, args: argparse.Namespace) -> list[tuple[Path, Path]]:
    """Every file's responses as a claim ledger (Parquet): all files are replaced together.

    A candidates file and its units file belong together, and so do the subjects of one run;
    every table is written to a temporary file first and only then are all renamed, so a full
    disk or an interrupt leaves every old ledger as it was.
    """
    import pyarrow.parquet as pq

    from claimlab.ledger import factscore_ledger
    from claimlab.paths import replacing_all

    tables, paths = [], []
    for stem, responses in loaded:
        for kind, table in zip(
            ("candidates", "units"),
            factscore_ledger(responses, policy=args.irrelevant),
            strict=True,
        ):
            tables.append(table)
            paths.append(Path(args.ledger_dir) / f"{stem}.{kind}.parquet")
    with replacing_all(paths) as temps:
        for table, tmp in zip(tables, temps, strict=True):
            pq.write_table(table, tmp)
    return [(paths[i], paths[i + 1]) for i in range(0, len(paths), 2)]


def _add_factscore(sub: argparse._SubParsersAction) -> None:
    from claimlab.factscore import DEFAULT_GAMMA, POLICIES

    p = sub.add_parser("factscore", help="FActScore of human-labelled responses, with its counts")
    p.add_argument("files", nargs="+", help="labelled JSONL files (one subject model each)")
    p.add_argument(
        "--gamma",
        type=_count(0),
        default=DEFAULT_GAMMA,
        help="length penalty (0 = off; default 10)",
    )
    p.add_argument(
        "--irrelevant",
        choices=POLICIES,
        default="paper",
        help="irrelevant-fact policy (default paper; always reported)",
    )
    p.add_argument(
        "--ledger-dir",
        metavar="DIR",
        help="also write each file as a claim ledger (DIR/<stem>.candidates.parquet and"
        " .units.parquet, same policy) for `claimlab ledger`",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_factscore)


# --- pack and citations --------------------------------------------------------------------


def _cmd_pack(args: argparse.Namespace) -> int:
    from claimlab.context_budget import load_chunks, pack

    chunks = load_chunks(args.chunks)
    result = pack(
        chunks, max_chunks=args.max_chunks, max_tokens=args.max_tokens, question=args.question
    )
    if args.json:
        _emit_json({"chunks_file": args.chunks, **result.to_dict()})
        return 0
    say(
        f"{args.chunks}: {len(chunks)} candidate chunks, budget {args.max_chunks} chunks / {args.max_tokens} tokens"
    )
    say(f"  chunks used  {result.chunks_used.display}")
    say(f"  tokens used  {result.tokens_used.display}  ({result.token_counter})")
    say(f"  all candidates would need {result.candidates_tokens.display}")
    say(
        f"  kept (prompt order): {', '.join(result.kept) or '(none: abstain, do not call the model)'}"
    )
    for d in result.dropped:
        say(f"  dropped #{d.rank} {d.id}: {d.reason}")
    if args.show_prompt:
        say()
        say(result.prompt)
    return 0


def _add_pack(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pack", help="pack ranked chunks under a chunk and a token budget")
    p.add_argument("chunks", help="JSON list of {id, document, version, score, text}")
    p.add_argument("--max-chunks", type=_count(0), required=True, help="chunk budget")
    p.add_argument("--max-tokens", type=_count(0), required=True, help="token budget")
    p.add_argument("--question", default="", help="question to put in the prompt")
    p.add_argument("--show-prompt", action="store_true", help="print the rendered prompt")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_pack)


def _cmd_citations(args: argparse.Namespace) -> int:
    from claimlab._parse import read_json
    from claimlab.citations import parse_answer, validate_citations
    from claimlab.context_budget import load_chunks

    data = read_json(args.answer, error=ClaimlabInputError)
    if args.name is not None:
        answers = data.get("answers") if isinstance(data, dict) else None
        if not isinstance(answers, dict) or args.name not in answers:
            known = ", ".join(answers) if isinstance(answers, dict) else "none"
            raise ClaimlabInputError(
                f"unknown answer (known: {known})", file=args.answer, field=f"answers.{args.name}"
            )
        data = answers[args.name]
    answer = parse_answer(data, source=args.answer)
    sent = load_chunks(args.context)
    report = validate_citations(answer, sent, allow_unsourced=args.allow_unsourced)
    if args.json:
        _emit_json({"answer_file": args.answer, "context_file": args.context, **report.to_dict()})
        return 0
    say(f"{args.answer}: {report.verdict} ({len(answer.claims)} claims, {len(sent)} chunks sent)")
    for p in report.problems:
        say(f"  {p.code}: {p.explanation}")
    say(f"  message: {report.message}")
    return 0


def _add_citations(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("citations", help="validate an answer's claim-to-chunk citations")
    p.add_argument(
        "answer", help="answer JSON (Turkish or English keys), or a context-lab fixture with --name"
    )
    p.add_argument("--context", required=True, help="JSON list of the chunks that were sent")
    p.add_argument("--name", help="pick one of a fixture's named answers")
    p.add_argument(
        "--allow-unsourced", action="store_true", help="accept claims flagged as unsourced"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_citations)


# --- handouts ------------------------------------------------------------------------------


def _cmd_handouts(args: argparse.Namespace) -> int:
    from claimlab.handouts import VARIANTS, build_handouts

    variants = VARIANTS if args.variant == "both" else (args.variant,)
    formats = ("html", "pdf") if args.format == "both" else (args.format,)
    run = build_handouts(args.source, args.target, variants=variants, formats=formats)
    if args.json:
        _emit_json(
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


def _add_handouts(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("handouts", help="export executed notebooks as HTML/PDF handouts")
    p.add_argument(
        "--from", dest="source", default="outputs", help="executed notebooks (default outputs/)"
    )
    p.add_argument(
        "--to", dest="target", default=None, help="handout folder (default FROM/handouts/)"
    )
    p.add_argument("--variant", choices=("student", "instructor", "both"), default="both")
    p.add_argument("--format", choices=("html", "pdf", "both"), default="both")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_handouts)


# --- serve ---------------------------------------------------------------------------------


def _cmd_serve(args: argparse.Namespace) -> int:
    from claimlab.paths import NOTEBOOKS_DIR, temp_dir
    from claimlab.serve import check_port, prepare_games_folder, voila_command

    check_port(args.ip, args.port)
    # a folder named with this process's pid: Voila keeps the pid, and the next run of any
    # claimlab command that needs one removes it once the server has stopped
    folder = temp_dir("serve")
    games = prepare_games_folder(NOTEBOOKS_DIR, folder)
    host = f"[{args.ip}]" if ":" in args.ip else args.ip
    base = f"http://{host}:{args.port}"
    query = f"?token={args.token}" if args.token else ""
    say("claimlab serve: the games as standalone pages (Voila); Ctrl-C stops the server")
    for nb in games:
        say(f"  {base}/voila/render/{nb.name}{query}")
    say(
        f"  at most {args.max_kernels} games at once; a closed page's kernel stops after "
        f"{args.cull_idle} s"
    )
    cmd = voila_command(
        folder,
        ip=args.ip,
        port=args.port,
        token=args.token,
        max_kernels=args.max_kernels,
        cull_idle=args.cull_idle,
    )
    # become the server (no parent left between it and the signals): a stop or kill of this
    # command stops Voila and its kernels instead of leaving them running behind
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, cmd)
    return 0  # not reached


def _add_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the games as standalone pages (Voila) for a classroom")
    p.add_argument("--port", type=_count(1, 65535), default=8866, help="port (default 8866)")
    p.add_argument("--ip", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--token", default=None, help="require this token in every URL (set it on a shared network)"
    )
    p.add_argument(
        "--max-kernels",
        type=_count(1),
        default=40,
        help="most games running at once (default 40)",
    )
    p.add_argument(
        "--cull-idle",
        type=_count(1),
        default=600,
        help="seconds before a closed page's kernel is stopped (default 600)",
    )
    p.set_defaults(handler=_cmd_serve, json=False)


# --- ledger --------------------------------------------------------------------------------


def _cmd_ledger(args: argparse.Namespace) -> int:
    from claimlab.ledger import METRIC_NAMES, score_ledger, write_answers

    result = score_ledger(
        args.candidates,
        args.units,
        by=args.by,
        on_error=args.on_error,
        progress=args.progress or sys.stderr.isatty(),
    )
    if args.out:
        write_answers(result, args.out)
    if args.json:
        _emit_json(
            {
                "candidates": args.candidates,
                "units": args.units,
                "by": args.by,
                "out": args.out,
                **result.to_dict(),
            }
        )
        return 0
    if result.counts.skipped_rows:
        n = result.counts.skipped_rows
        say(f"skipped {n} bad row{'' if n == 1 else 's'} (--on-error skip):")
        for issue in result.counts.issues:
            say(
                f"  {issue}"
                if issue.row >= 0
                else f"  {issue.file}: {issue.field}: {issue.message}"
            )
    groups = [result.corpus, *result.groups.values()]
    for g in groups:
        say(
            f"{g.group}: {g.answers} answers ({g.empty_answers} without candidates, scored as empty selections)"
        )
        for m in METRIC_NAMES:
            say(f"  {m:<18} micro {g.micro[m].display:<22} macro {g.macro[m].display}")
        sc = g.status_counts
        say(
            f"  status (unique)    SUPPORTED {sc['SUPPORTED']}, CONTRADICTED {sc['CONTRADICTED']}, "
            f"NOT_IN_REFERENCE {sc['NOT_IN_REFERENCE']}; duplicates {g.duplicates}; missing units {g.missing_units}"
        )
    if args.out:
        say(f"per-answer rows written to {args.out}")
    return 0


def _add_ledger(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ledger", help="score a claim ledger (many models x answers) fast")
    p.add_argument("candidates", help="candidates table (.csv, .jsonl or .parquet)")
    p.add_argument("--units", required=True, help="units table (answer_id, unit_id)")
    p.add_argument("--by", help="column to compare side by side (e.g. model)")
    p.add_argument("--out", help="write per-answer rows here (.csv, .jsonl or .parquet)")
    p.add_argument(
        "--on-error",
        choices=("stop", "skip"),
        default="stop",
        help="bad rows: stop (default) or skip and count",
    )
    p.add_argument(
        "--progress", action="store_true", help="show a progress bar even when not on a terminal"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_ledger)


# --- run -----------------------------------------------------------------------------------


def _cmd_run(args: argparse.Namespace) -> int:
    from claimlab.runner import (
        NotebookFailed,
        absolutise_paths,
        parse_value,
        resolve_notebooks,
        run_notebook,
    )

    params = absolutise_paths({name: parse_value(value) for name, value in args.parameter or []})
    notebooks = resolve_notebooks(args.notebooks)
    if not notebooks:
        raise ClaimlabInputError("no notebooks registered", file="notebooks/")
    results = []
    failures: list[tuple[str, str, bool]] = []
    started = time.perf_counter()
    for i, nb in enumerate(notebooks, 1):
        prefix = f"[{i}/{len(notebooks)}] {nb.stem}"
        if not args.json:
            say(f"{prefix} ...", end="", flush=True)
        try:
            res = run_notebook(nb, parameters=params, output_dir=args.output, timeout=args.timeout)
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
    total = time.perf_counter() - started
    if args.json:
        _emit_json(
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
        say(
            f"summary: {len(results)} of {len(notebooks)} notebooks executed in {total:.1f} s"
            + (
                f"; {len(failures)} failed: {', '.join(s for s, _, _ in failures)}"
                if failures
                else ""
            )
            + f"; outputs in {args.output}/"
        )
    if not failures:
        return 0
    # refused input is the user's to fix (2); any other failure is a failed run (1)
    return 2 if all(bad for _, _, bad in failures) else 1


def _add_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="execute notebooks headless with papermill")
    p.add_argument("notebooks", nargs="*", help="notebook paths or stems (default: all registered)")
    p.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        metavar=("NAME", "VALUE"),
        help="set a declared parameter (VALUE is parsed as JSON when it can be)",
    )
    p.add_argument("--output", default="outputs", help="output folder (default: outputs)")
    p.add_argument("--timeout", type=_count(1), default=600, help="seconds per cell (default: 600)")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(handler=_cmd_run)


COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_decomposition,
    _add_sufficiency,
    _add_fever,
    _add_factscore,
    _add_pack,
    _add_citations,
    _add_ledger,
    _add_run,
    _add_handouts,
    _add_serve,
]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``claimlab CMD: error: ...``) and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        """Print one line naming the option and where to read more, then exit 2."""
        self.exit(
            2, f"{terminal(self.prog)}: error: {one_line(message)} (see {self.prog} --help)\n"
        )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(
        prog="claimlab", description="Check long answers claim by claim, with counts and N/A."
    )
    parser.add_argument("--version", action="version", version=f"claimlab {_version()}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    for add in COMMANDS:
        add(sub)
    return parser


def _version() -> str:
    from claimlab import __version__

    return __version__


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM ends a command the way Ctrl-C does: clean-up runs, temporary files go."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``claimlab`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread (an embedding program): leave its signals alone
        previous = None
    try:
        return args.handler(args)
    except ClaimlabInputError as exc:
        say(f"claimlab {args.command}: error: {one_line(exc)}", file=sys.stderr)
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
            f"claimlab {args.command}: error: {one_line(where)}{exc.strerror or exc}",
            file=sys.stderr,
        )
        return 2
    except Exception as exc:  # one line, no traceback, unless asked
        if os.environ.get("CLAIMLAB_DEBUG"):
            raise
        say(
            f"claimlab {args.command}: error: {type(exc).__name__}: {one_line(exc)}",
            file=sys.stderr,
        )
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
