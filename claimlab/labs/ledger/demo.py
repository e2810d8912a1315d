"""The SIMULATED demo ledger notebook 08 shows when no ledger is given: made up, said so."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from claimlab.core.vocab import STATUSES
from claimlab.io.ledger import CANDIDATE_COLUMNS


def demo_ledger(answers: int = 400, *, seed: int = 0) -> tuple[pa.Table, pa.Table]:
    """A SIMULATED ledger of three decomposers over the same answers, each with a known habit.

    * ``faithful``: keeps every unit, some claims unsupported or contradicted, a few duplicates;
    * ``drops-hard``: leaves out the claims it cannot support: support looks perfect, coverage falls;
    * ``adds-claims``: adds supported claims the answers never made (unfaithful, no unit).
    Each answer has 3-7 units; a few answers are left out by ``drops-hard`` entirely.
    """
    rng = np.random.default_rng(seed)
    rows: dict[str, list[Any]] = {k: [] for k in ("model", *CANDIDATE_COLUMNS)}
    unit_rows: dict[str, list[Any]] = {"answer_id": [], "unit_id": []}

    def add(
        model: str, a: str, c: str, fp: str, pres: list[str], faithful: bool, status: str
    ) -> None:
        for k, v in zip(rows, (model, a, c, fp, pres, faithful, True, status), strict=True):
            rows[k].append(v)

    for i in range(answers):
        a = f"answer-{i:04d}"
        k = int(rng.integers(3, 8))
        units = [f"unit-{j}" for j in range(1, k + 1)]
        unit_rows["answer_id"] += [a] * k
        unit_rows["unit_id"] += units
        truth = rng.choice(STATUSES, size=k, p=[0.65, 0.15, 0.2])
        for j, (u, st) in enumerate(zip(units, truth, strict=True)):
            add("faithful", a, f"claim-{j}", f"{a}/{u}", [u], True, st)
        if rng.random() < 0.2:
            add("faithful", a, "claim-again", f"{a}/{units[0]}", [units[0]], True, truth[0])
        if rng.random() > 0.05:  # drops-hard skips a few answers entirely
            for j, (u, st) in enumerate(zip(units, truth, strict=True)):
                if st == "SUPPORTED":
                    add("drops-hard", a, f"claim-{j}", f"{a}/{u}", [u], True, st)
        for j, (u, st) in enumerate(zip(units, truth, strict=True)):
            add("adds-claims", a, f"claim-{j}", f"{a}/{u}", [u], True, st)
        for x in range(int(rng.integers(0, 4))):
            add("adds-claims", a, f"extra-{x}", f"{a}/extra{x}", [], False, "SUPPORTED")
    cand = pa.table({**rows, "preserves": pa.array(rows["preserves"], type=pa.list_(pa.string()))})
    return cand, pa.table(unit_rows)
