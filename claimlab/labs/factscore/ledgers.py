"""Ledgers the labs bring: FActScore's human annotations read as a ledger.

FActScore's responses become a claim ledger (sentences as units, atomic facts as candidates),
so the large-scale scorer runs on real data; its macro raw support is FActScore's init_score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from claimlab.core.vocab import unknown
from claimlab.io.factscore import LabelledResponse
from claimlab.io.ledger import CANDIDATE_COLUMNS, CANDIDATE_SCHEMA, UNIT_SCHEMA
from claimlab.metrics.factscore import POLICIES, FactscoreResult, score_factscore
from claimlab.metrics.ledger import CorpusFigures, count_ledger, summarise


def factscore_ledger(
    responses: Sequence[LabelledResponse], *, policy: str = "exclude"
) -> tuple[pa.Table, pa.Table]:
    """FActScore's human-labelled responses as a claim ledger (candidates, units).

    Each responding response is an answer (``<line>:<topic>``), its sentences are the units
    (``S1``, ``S2``, ...) and each human-labelled atomic fact is a candidate that preserves its
    sentence, fingerprinted by its text: S is SUPPORTED, NS is NOT_IN_REFERENCE (the knowledge
    source does not support it; FActScore does not tell contradiction apart). IR facts follow
    ``policy`` as in :mod:`claimlab.metrics.factscore`: ``exclude`` leaves them out, ``unsupported``
    counts them as NOT_IN_REFERENCE, ``paper`` also adds the model facts of sentences marked not
    relevant. Abstentions are left out, as FActScore leaves them out of its mean.

    Scored without ``--by``, the macro raw support of the ledger is FActScore's ``init_score``
    under the same policy; the ledger adds what the score leaves unsaid: coverage (the share of
    sentences with a checked fact) and repeated facts.
    """
    if policy not in POLICIES:
        raise ValueError(unknown("irrelevant-fact policy", policy, POLICIES))
    status_of = {"S": "SUPPORTED", "NS": "NOT_IN_REFERENCE", "IR": "NOT_IN_REFERENCE"}
    cand: dict[str, list[Any]] = {k: [] for k in CANDIDATE_COLUMNS}
    unit_rows: dict[str, list[Any]] = {"answer_id": [], "unit_id": []}
    for r in responses:
        if r.sentences is None:
            continue
        answer = f"{r.line}:{r.topic}"
        k = 0
        for j, sentence in enumerate(r.sentences, start=1):
            unit = f"S{j}"
            unit_rows["answer_id"].append(answer)
            unit_rows["unit_id"].append(unit)
            facts = list(sentence.human_facts or ())
            if policy == "paper" and not sentence.relevant and sentence.human_facts is None:
                facts = [(text, "IR") for text in sentence.model_facts]
            for text, label in facts:
                if label == "IR" and policy == "exclude":
                    continue
                k += 1
                for column, value in zip(
                    CANDIDATE_COLUMNS,
                    (answer, f"F{k}", text, [unit], True, True, status_of[label]),
                    strict=True,
                ):
                    cand[column].append(value)
    candidates = pa.table(
        {c: pa.array(cand[c], type=CANDIDATE_SCHEMA.field(c).type) for c in CANDIDATE_COLUMNS}
    )
    return candidates, pa.table(unit_rows, schema=UNIT_SCHEMA)


def factscore_ledgers(
    subjects: Mapping[str, Sequence[LabelledResponse]], *, policy: str = "exclude"
) -> dict[str, CorpusFigures]:
    """Each subject's FActScore responses scored as a ledger of its own (corpus figures)."""
    out = {}
    for name, responses in subjects.items():
        candidates, units = factscore_ledger(responses, policy=policy)
        out[name] = summarise(count_ledger(candidates, units), by=None).corpus
    return out


def factscore_beside_ledgers(
    subjects: Mapping[str, Sequence[LabelledResponse]], *, policy: str = "exclude"
) -> tuple[dict[str, FactscoreResult], dict[str, CorpusFigures]]:
    """Each subject's FActScore (no penalty) and its responses scored as a ledger, same policy."""
    factscores = {
        name: score_factscore(responses, name=name, policy=policy, gamma=0)  # type: ignore[arg-type]
        for name, responses in subjects.items()
    }
    return factscores, factscore_ledgers(subjects, policy=policy)
