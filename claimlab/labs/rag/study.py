"""What notebook 11 computes: the checking output scored, and the meta-evaluation, or why not."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from claimlab.io.ragchecker import JudgedPair, RagChecking, load_checking, load_meta_evaluation
from claimlab.labs.rag.check import SetAgreement
from claimlab.metrics.meta_eval import MetaEvaluation, score_meta_evaluation
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
    return MetaStudy(pairs, score_meta_evaluation(pairs, resamples=resamples, seed=seed))


def rag_record(study: RagStudy) -> dict[str, Any]:
    """What the notebook records: the report's JSON form and the file's own overall figures."""
    return {**study.report.to_dict(), "published": dict(study.checking.published)}


@dataclass(frozen=True)
class CheckerStudy:
    """A checker's labels of a checking output's four sets, against the labels the file carried.

    ``agreement`` is set by set (kappa, confusion table, left out); ``on_file`` and
    ``on_checker`` score the same queries from the file's labels and from the checker's, so each
    figure's error is the difference of the two.
    """

    checker: Mapping[str, Any]
    agreement: SetAgreement
    on_file: RagReport
    on_checker: RagReport

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the checker, the agreement per set, each micro figure both ways."""
        return {
            "checker": dict(self.checker),
            "agreement_with_file": self.agreement.to_dict(),
            "micro": {
                m: {
                    "file": self.on_file.micro[m].to_dict(),
                    "checker": self.on_checker.micro[m].to_dict(),
                }
                for m in self.on_file.micro
            },
        }


def checker_study(path: str, spec: str = "lexical") -> CheckerStudy | str:
    """A checker's labels of the file's four sets, both labellings scored; else why not.

    ``spec`` names the checker as ``--checker`` does (``lexical``, ``python:MODULE:ATTR``,
    ``command:...``, ``openai:URL``); nothing is cached.
    """
    import tempfile
    from pathlib import Path

    from claimlab.checkers.backends import checker_from_spec
    from claimlab.checkers.runner import run_checker
    from claimlab.io.files import write_json
    from claimlab.io.locate import find_data
    from claimlab.io.ragchecker import load_claims
    from claimlab.labs.rag.check import check_items, filled, set_agreement
    from claimlab.labs.teaching import data_message

    found = find_data(path)
    if found is None:
        return data_message("RAGChecker's checking output", path)
    doc, queries = load_claims(found)
    items, slots = check_items(queries)
    run = run_checker(items, checker_from_spec(spec))
    labels = run.final_labels()
    with tempfile.TemporaryDirectory(prefix="claimlab-check-") as scratch:
        written = Path(scratch) / Path(found).name
        write_json(written, filled(doc, queries, slots, labels, run.to_dict()))
        on_checker = score_rag(load_checking(written))
    on_checker = replace(on_checker, file=f"{found} (labelled by {run.to_dict()['name']})")
    return CheckerStudy(
        run.to_dict(),
        set_agreement(doc, slots, labels),
        score_rag(load_checking(found)),
        on_checker,
    )
