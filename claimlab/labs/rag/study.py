"""What notebook 11 computes: the checking output scored, and the meta-evaluation, or why not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claimlab.io.ragchecker import JudgedPair, RagChecking, load_checking, load_meta_evaluation
from claimlab.metrics.meta_eval import MetaEvaluation, meta_evaluate
from claimlab.metrics.rag import RagReport, score_rag


@dataclass(frozen=True)
class RagStudy:
    """A checking-output file and its scores."""

    checking: RagChecking
    report: RagReport


def rag_study(path: str) -> RagStudy | str:
    """The file found (the user's path, or the real-data folder) and scored; else why not."""
    from claimlab.io.locate import find_data
    from claimlab.labs.teaching import data_message

    found = find_data(path)
    if found is None:
        return data_message("RAGChecker's checking output", path)
    checking = load_checking(found)
    return RagStudy(checking, score_rag(checking))


@dataclass(frozen=True)
class MetaStudy:
    """The judged response pairs and the checker's agreement with the people."""

    pairs: tuple[JudgedPair, ...]
    result: MetaEvaluation


def meta_study(human: str, scores: str, *, resamples: int = 2000, seed: int = 0) -> MetaStudy | str:
    """The meta-evaluation files found and evaluated; else why not."""
    from claimlab.io.locate import find_data
    from claimlab.labs.teaching import data_message

    found = {name: find_data(value) for name, value in (("human", human), ("scores", scores))}
    for name, value in (("human", human), ("scores", scores)):
        if found[name] is None:
            return data_message(f"RAGChecker's meta-evaluation ({name})", value)
    pairs = load_meta_evaluation(str(found["human"]), str(found["scores"]))
    return MetaStudy(pairs, meta_evaluate(pairs, resamples=resamples, seed=seed))


def rag_record(study: RagStudy) -> dict[str, Any]:
    """What the notebook records: the report's JSON form and the file's own overall figures."""
    return {**study.report.to_dict(), "published": dict(study.checking.published)}
