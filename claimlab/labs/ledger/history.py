"""Release history (notebook 12): a store's runs, and the paired gate between two of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimlab.io.store import Run, figures_of, read_runs, record_run


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


def _with_intervals(result: Any, *, seed: int) -> dict[str, Any]:
    """The JSON ``ledger --ci 0.95`` prints for a result: each corpus figure with its interval."""
    from claimlab.metrics.stats.intervals import interval_or_reason
    from claimlab.metrics.uncertainty import ledger_group_intervals

    data: dict[str, Any] = result.to_dict()
    ivs = ledger_group_intervals(result.counts.table, by_group=False, resamples=400, seed=seed)
    for (aggregate, metric), iv in ivs[None].items():
        data["corpus"][aggregate][metric].update(interval_or_reason(iv))
    return data


def load_history(store: str, folder: str | Path) -> History:
    """The user's store, or (``store`` empty) the SIMULATED demo made in ``folder``."""
    simulated = not store.strip()
    path = demo_history(folder) if simulated else store
    return History(path, tuple(read_runs(path)), simulated)


def pick(runs: tuple[Run, ...], run_id: int, *, last: bool) -> Run | None:
    """The run with ``run_id`` (0: the first or, with ``last``, the last run)."""
    if not runs:
        return None
    if run_id == 0:
        return runs[-1] if last else runs[0]
    return next((r for r in runs if r.id == run_id), None)


def compare_runs(a: Run, b: Run, *, margin: float, resamples: int = 2000, seed: int = 0) -> Any:
    """The release gate of run ``b`` against run ``a`` through the per-answer tables they wrote.

    Returns the :class:`~claimlab.metrics.gate.Gate`, or a message when a run kept no table.
    """
    from claimlab.io.ledger import read_answers
    from claimlab.metrics.gate import count_columns, release_gate

    counts = sorted({c for pair in count_columns().values() for c in pair})
    tables = []
    for run in (a, b):
        out = run.parameters.get("out")
        if not out or not Path(out).is_file():
            return f"run {run.id} kept no per-answer table (run it with --out): nothing to pair"
        tables.append(read_answers(out, keys=["answer_id"], counts=counts))
    return release_gate(tables[0], tables[1], margin=margin, resamples=resamples, seed=seed)
