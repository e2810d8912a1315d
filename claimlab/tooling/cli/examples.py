"""What each command's ``--help`` says beyond its options: what it reads and writes, an example.

A command whose parser already carries a description and an ``example:`` epilog keeps its own;
the others get theirs from :data:`HELP` when the command line is built.
"""

from __future__ import annotations

from typing import Any

HELP: dict[str, tuple[str, str]] = {
    "spans": (
        "Reads a decomposition file written by hand, each span given as its quoted text, and "
        "fills every span's UTF-16 start and end from the one place the quote occurs.",
        "claimlab spans my_lesson.json --out my_lesson.filled.json",
    ),
    "decomposition": (
        "Reads a claimlab/decomposition@1 file and scores a selection of its candidates: "
        "preservation, coverage, confirmed and raw support with their counts, Core-style "
        "selection, the audit (--record writes it; --store keeps it in a run history).",
        "claimlab decomposition my_answer.json --mode baseline --record audit.json",
    ),
    "sufficiency": (
        "Reads a claimlab/sufficiency@1 file and says whether a context (evidence ids) is "
        "SUFFICIENT for a question, with the witness, the missing premises, conflicts and "
        "conditions. Ids are comma-separated, space-separated, repeated or @FILE.",
        "claimlab sufficiency my_questions.json --question which-room --context doc-a,doc-b",
    ),
    "fever": (
        "Reads FEVER gold and system predictions (JSON Lines), pairs them by id and gives the "
        "official FEVER score, label accuracy, evidence precision, recall and F1 with counts.",
        "claimlab fever paper_dev.jsonl predictions.jsonl --max-evidence 5",
    ),
    "factscore": (
        "Reads FActScore human-labelled files (one system each) and gives each FActScore with "
        "its respond ratio, facts per response and the irrelevant-fact policy; intervals and "
        "paired comparisons on request; --ledger-dir writes claim ledgers.",
        "claimlab factscore ChatGPT.jsonl InstructGPT.jsonl --ci 0.95 --compare all",
    ),
    "pack": (
        "Reads ranked chunks and packs a context under a chunk and token budget (with a score "
        "threshold), saying what was left out and why; --show-prompt prints the prompt.",
        "claimlab pack chunks.json --max-chunks 4 --max-tokens 120 --show-prompt",
    ),
    "citations": (
        "Reads an answer with its citations and the context it cites, and checks every quote "
        "and citation: fabricated ids, quotes from another chunk, unsourced sentences.",
        "claimlab citations my_lab.json --name my_answer --context sentences.json",
    ),
    "ledger": (
        "Reads a claim ledger (candidates and units tables: CSV, JSONL or Parquet) or folders of "
        "decompositions and scores every decomposer over every answer, micro and macro with "
        "counts; intervals, paired comparisons, a release gate (--baseline) and a run history "
        "(--store) on request; --out writes the per-answer table.",
        "claimlab ledger candidates.parquet --units units.parquet --by model --out answers.csv",
    ),
    "draft": (
        "Reads a decomposer's raw subclaims (JSON Lines) and writes one draft decomposition "
        "file per answer into a folder, with proposed spans for the annotators to confirm.",
        "claimlab draft raw.jsonl --out drafts/ --decomposer my-model",
    ),
    "agreement": (
        "",
        "claimlab agreement annotator_a/ annotator_b/ --per-answer",
    ),
    "adjudicate": (
        "",
        "claimlab adjudicate annotator_a/ annotator_b/ --out gold/",
    ),
    "convert": (
        "Reads MuSiQue or HotpotQA records (the released JSON) and writes them as a "
        "claimlab/sufficiency@1 file, one question per record.",
        "claimlab convert musique musique_ans_train.json --out musique.sufficiency.json",
    ),
    "sufficiency-cases": (
        "Reads a sufficiency file and writes its premise-cut test cases: each premise removed, "
        "a look-alike in its place, a stale copy and a duplicate, each with the expected verdict.",
        "claimlab sufficiency-cases musique.sufficiency.json --out cases.json",
    ),
    "run": (
        "Executes the notebooks (all registered ones by default) with papermill into an output "
        "folder, each with its recorded values beside it; -p sets a declared parameter.",
        "claimlab run 08_your_ledger -p CANDIDATES '\"my/candidates.csv\"' --output outputs",
    ),
    "handouts": (
        "Reads executed notebooks and writes each as a student and an instructor handout, HTML "
        "and PDF (headless chromium), with an index.",
        "claimlab handouts --from outputs --to outputs/handouts",
    ),
    "serve": (
        "Serves the game notebooks to a classroom through Voila: solutions hidden, pages "
        "prepared ahead (--warm), idle kernels culled, at most --max-kernels at once.",
        "claimlab serve --port 8866 --max-kernels 30 --warm 10",
    ),
    "notebooks": (
        "Copies the notebooks and the fixtures they read into a folder of your own, to run "
        "and edit there; an edited copy is not replaced without --force.",
        "claimlab notebooks labs && cd labs && claimlab run",
    ),
}


def complete_help(sub: Any) -> None:
    """Give every command a description and an example (its own, or :data:`HELP`'s)."""
    for name, parser in sub.choices.items():
        description, example = HELP.get(name, ("", ""))
        if not parser.description and description:
            parser.description = description
        if example and not (parser.epilog and "example" in parser.epilog):
            parser.epilog = f"example: {example}"
