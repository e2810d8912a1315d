"""Release history (notebook 12): a store's runs, and the paired gate between two of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimlab.io.store import Run, figures_of, load_runs, record_run

if TYPE_CHECKING:
    from claimlab.metrics.diff import RunDiff
    from claimlab.metrics.gate import Gate
    from claimlab.metrics.ledger import LedgerResult


@dataclass(frozen=True)
class History:
    """A store's runs and where they came from (the user's store, or the SIMULATED demo)."""

    store: str
    runs: tuple[Run, ...]
    simulated: bool


def demo_history(folder: str | Path, *, releases: int = 4, seed: int = 0) -> str:
    """A SIMULATED store: one decomposer's ledger scored at ``releases`` releases.

    Release k keeps the demo ledger's ``faithful`` decomposer, with k - 1 in 20 of its answers
    losing one preserved unit (so coverage drifts down release by release); each release is
    scored with 95% intervals (as ``--ci 0.95``), its per-answer table written (as ``--out``)
    and the run recorded as ``--store`` does.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    from claimlab.labs.ledger.demo import demo_ledger
    from claimlab.labs.ledger.writers import write_answers
    from claimlab.metrics.ledger import score_tables

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    store = out / "history.sqlite"
    cand, units = demo_ledger(seed=seed)
    cand = cand.filter(pc.equal(cand.column("model"), "faithful")).drop_columns(["model"])
    answers = cand.column("answer_id").to_pylist()
    first = {a: i for i, a in reversed(list(enumerate(answers)))}
    for k in range(1, releases + 1):
        lost = {i for a, i in first.items() if int(a.rsplit("-", 1)[1]) % 20 < k - 1}
        preserves = [
            [] if i in lost else p for i, p in enumerate(cand.column("preserves").to_pylist())
        ]
        table = cand.set_column(
            cand.schema.get_field_index("preserves"),
            "preserves",
            pa.array(preserves, pa.list_(pa.string())),
        )
        result = score_tables(table, units)
        answers_out = out / f"release-{k}.answers.csv"
        write_answers(result, answers_out)
        record_run(
            store, command="ledger",
            argv=["ledger", f"release-{k}", "--out", str(answers_out), "--ci", "0.95"],
            inputs=[], parameters={"out": str(answers_out), "release": k, "ci": 0.95},
            figures=figures_of(_with_intervals(result, seed=seed)), version="SIMULATED",
        )  # fmt: skip
    return str(store)


def _with_intervals(result: LedgerResult, *, seed: int) -> dict[str, Any]:
    """The JSON ``ledger --ci 0.95`` prints for a result: each corpus figure with its interval."""
    from claimlab.metrics.stats.intervals import interval_or_reason
    from claimlab.metrics.uncertainty import ledger_group_intervals

    data: dict[str, Any] = result.to_dict()
    ivs = ledger_group_intervals(result.counts.table, by_group=False, resamples=400, seed=seed)
    for (aggregate, metric), iv in ivs[None].items():
        data["corpus"][aggregate][metric].update(interval_or_reason(iv))
    return data


def load_history(store: str | Path, folder: str | Path | None = None) -> History:
    """The user's store, or (``store`` empty) the SIMULATED demo made in ``folder``.

    Without ``folder`` the demo is made in a temporary folder of its own, removed once the
    history returned is no longer held (or as the process ends), so a notebook run over and
    over leaves nothing behind (a kernel killed first leaves it to the next demo to remove:
    :func:`claimlab.io.files.temp_dir`).
    """
    simulated = not str(store).strip()
    if not simulated:
        return History(str(store), tuple(load_runs(str(store))), simulated=False)
    if folder is not None:
        path = demo_history(folder)
        return History(path, tuple(load_runs(path)), simulated=True)
    import shutil
    import weakref

    from claimlab.io.files import temp_dir

    scratch = str(temp_dir("history"))
    try:
        path = demo_history(scratch)
        history = History(path, tuple(load_runs(path)), simulated=True)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    weakref.finalize(history, shutil.rmtree, scratch, ignore_errors=True)
    return history


def pick(runs: tuple[Run, ...], run_id: int, *, last: bool) -> Run | None:
    """The run with ``run_id`` (0: the first or, with ``last``, the last run)."""
    if not runs:
        return None
    if run_id == 0:
        return runs[-1] if last else runs[0]
    return next((r for r in runs if r.id == run_id), None)


def compare_runs(
    a: Run, b: Run, *, margin: float, resamples: int = 2000, seed: int = 0, store: str = ""
) -> Gate | str:
    """The release gate of run ``b`` against run ``a`` through the per-item tables they kept.

    A ``ledger`` run's per-answer table (``--out``, or the one ``--store`` kept beside the
    store), or a ``rag`` run's per-query table, each gated on its own figures.

    Returns the :class:`~claimlab.metrics.gate.Gate`, or a message when a run kept no table.
    """
    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.ledger import load_answers
    from claimlab.io.store import kept_run
    from claimlab.metrics.gate import ledger_figures, release_gate
    from claimlab.metrics.rag import RATIO_METRICS, gate_figures

    paths = []
    for run in (a, b):
        try:
            kept = kept_run(store, str(run.id)).table if store else run.parameters.get("out")
        except ClaimlabInputError as err:
            return f"{err.problem}: nothing to pair"
        if not kept or not Path(kept).is_file():
            return f"run {run.id} kept no per-answer or per-query table (run it with --out or --store): nothing to pair"
        paths.append(kept)
    rag = {a.command, b.command} == {"rag"}
    figures = gate_figures(RATIO_METRICS) if rag else ledger_figures()
    keys = ["query_id"] if rag else ["answer_id"]
    ratios = [(f.numerator, f.denominator) for f in figures]
    tables = [load_answers(p, keys=keys, ratios=ratios) for p in paths]
    return release_gate(tables[0], tables[1], keys=keys, figures=figures, margin=margin,
                        resamples=resamples, seed=seed)  # fmt: skip


def run_changes(store: str, a: Run, b: Run, *, figure: str | None = None) -> RunDiff | str:
    """What changed from run ``a`` to run ``b``, claim by claim when they kept their claims.

    Returns the :class:`~claimlab.metrics.diff.RunDiff` (:func:`claimlab.notebook.diff.compare`),
    or a message when the runs cannot be compared (no claims and no table, different kinds).
    """
    from claimlab.core.errors import ClaimlabInputError
    from claimlab.io.store import kept_run
    from claimlab.metrics.diff import compare, kept_side

    try:
        sides = [kept_side(kept_run(store, str(r.id))) for r in (a, b)]
        return compare(*sides, figure=figure)
    except ClaimlabInputError as err:
        return err.problem
