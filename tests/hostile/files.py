"""The hostile corpus written to files, and every notebook executed on it (fixtures in tests/conftest.py)."""

import json

from claimlab.tooling.runner import run_notebook
from tests.conftest import ROOT
from tests.hostile import corpus

NOTEBOOKS = ROOT / "notebooks"


def _factscore_dir(folder):
    """A FActScore subject file with hostile topics, categories and fact texts."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(8):
        facts = [
            {"text": corpus.hostile(i + k, f"fact {k}"), "label": "S" if k % 3 else "NS"}
            for k in range(4)
        ]
        lines.append(
            {
                "topic": corpus.hostile(i, f"topic {i}"),
                "cat": [corpus.hostile(i + 1, "rare")],
                "annotations": None
                if i == 5
                else [
                    {
                        "text": corpus.hostile(i + 2, "sentence"),
                        "is-relevant": True,
                        "model-atomic-facts": [{"text": f["text"]} for f in facts],
                        "human-atomic-facts": facts,
                    }
                ],
            }
        )
    (folder / "ChatGPT.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    return folder


def _annotation_files(d, doc):
    """A raw decomposer file and two annotators' files, all from the hostile decomposition."""
    raw = {
        "id": doc["original"]["id"],
        "answer": doc["original"]["text"],
        "subclaims": [c["text"] for c in doc["candidates"]],
        "references": doc["references"],
    }
    (d / "raw.jsonl").write_text(json.dumps(raw, ensure_ascii=False) + "\n", encoding="utf-8")
    out = {"raw": d / "raw.jsonl"}
    for k, who in enumerate((corpus.hostile(0, "annotator"), corpus.hostile(3, "other"))):
        mine = json.loads(json.dumps(doc))
        mine["annotation"] = {"annotator": who, "updated": "now", "log": []}
        if k:
            mine["candidates"][0]["atomic"] = not mine["candidates"][0]["atomic"]
        out[f"annotator_{k}"] = corpus.write_json(d / f"annotator_{k}.json", mine)
    return out


def _multihop_files(d):
    """A MuSiQue and a HotpotQA file whose ids, titles, texts and answers are the payloads."""
    h = corpus.hostile
    musique = [
        {
            "id": h(i, f"2hop__{i}"),
            "paragraphs": [
                {
                    "idx": 0,
                    "title": h(i + 1, "A"),
                    "paragraph_text": h(i + 2, "A is in B."),
                    "is_supporting": True,
                },
                {
                    "idx": 1,
                    "title": h(i + 3, "B"),
                    "paragraph_text": h(i + 4, "B has C."),
                    "is_supporting": True,
                },
                {
                    "idx": 2,
                    "title": h(i + 5, "D"),
                    "paragraph_text": h(i + 6, "D."),
                    "is_supporting": False,
                },
            ],
            "question": h(i + 7, "What does the place of A have?"),
            "question_decomposition": [
                {
                    "id": 1,
                    "question": h(i + 8, "Where is A?"),
                    "answer": h(i + 9, "B"),
                    "paragraph_support_idx": 0,
                },
                {
                    "id": 2,
                    "question": "What does #1 have?",
                    "answer": h(i + 10, "C"),
                    "paragraph_support_idx": 1,
                },
            ],
            "answer": h(i + 10, "C"),
            "answer_aliases": [],
        }
        for i in range(4)
    ]
    hotpot = [
        {
            "_id": h(i, f"hp{i}"),
            "question": h(i + 1, "q"),
            "answer": h(i + 2, "a"),
            "type": "bridge",
            "level": "easy",
            "supporting_facts": [[h(i + 3, "T1"), 0], [h(i + 4, "T2"), 1]],
            "context": [
                [h(i + 3, "T1"), [h(i + 5, "s0"), h(i + 6, "s1")]],
                [h(i + 4, "T2"), [h(i + 7, "s0"), h(i + 8, "s1")]],
            ],
        }
        for i in range(4)
    ]
    (d / "musique.json").write_text(json.dumps(musique, ensure_ascii=False), encoding="utf-8")
    (d / "hotpotqa.json").write_text(json.dumps(hotpot, ensure_ascii=False), encoding="utf-8")
    lines = "".join(
        json.dumps({**r, "answerable": True}, ensure_ascii=False) + "\n" for r in musique
    )
    (d / "musique.jsonl").write_text(lines, encoding="utf-8")
    return {
        "musique": d / "musique.json",
        "hotpotqa": d / "hotpotqa.json",
        "musique_lines": d / "musique.jsonl",
    }


def write_hostile_files(d):
    """Every hostile input file in folder ``d``: {name: path}."""
    files = {
        "decomposition": corpus.write_json(
            d / "decomposition.json", corpus.hostile_decomposition()
        ),
        "decomposition_th": corpus.write_json(
            d / "decomposition_th.json", corpus.hostile_decomposition("atlas_nova_th.json")
        ),
        "sufficiency": corpus.write_json(d / "sufficiency.json", corpus.hostile_sufficiency()),
        "sufficiency_hard": corpus.write_json(
            d / "sufficiency_hard.json", corpus.hostile_sufficiency("library_loans.json")
        ),
        "context_tr": corpus.write_json(d / "context_tr.json", corpus.hostile_context_lab()),
        "context_en": corpus.write_json(
            d / "context_en.json", corpus.hostile_context_lab("leave_policy_en.json")
        ),
    }
    files.update(_annotation_files(d, corpus.hostile_decomposition()))
    files.update(_multihop_files(d))
    files["candidates"], files["units"] = corpus.hostile_ledger(d / "ledger")
    files["gold"], files["predictions"] = corpus.hostile_fever(d / "fever")
    files["factscore"] = _factscore_dir(d / "factscore")
    files.update(_ragchecker_files(d / "ragchecker"))
    files["history_store"] = _history_store(d / "history")
    return files


def _history_store(d):
    """A run history whose commands, versions, inputs and figure names are payloads."""
    from claimlab.io.store import Figure, record_run

    d.mkdir(parents=True, exist_ok=True)
    store = d / "runs.sqlite"
    for k in range(3):
        record_run(
            store, command=corpus.hostile(k), argv=[corpus.hostile(k + 1)], inputs=[],
            parameters={"out": str(d / corpus.hostile(k + 2).replace("/", "_")[:40])},
            figures=[Figure(HOSTILE_METRIC, k, 5, k / 5)], version=corpus.hostile(k + 3),
        )  # fmt: skip
    return store


HOSTILE_METRIC = corpus.hostile(6, "metric")


def _ragchecker_files(d):
    """A checking output and a meta-evaluation whose every text is a payload."""
    from tests.metrics.test_rag import HAND, checked

    d.mkdir(parents=True, exist_ok=True)
    doc = checked([HAND, HAND])
    for i, q in enumerate(doc["results"]):
        q["query_id"] = corpus.hostile(i, f"q{i}")
        q["query"] = corpus.hostile(i + 3)
        q["response_claims"] = [corpus.hostile(i + j) for j in range(len(q["response_claims"]))]
        q["gt_answer_claims"] = [
            [corpus.hostile(j), "is", "x"] for j in range(len(q["gt_answer_claims"]))
        ]
        for j, c in enumerate(q["retrieved_context"]):
            c["doc_id"], c["text"] = corpus.hostile(j + 5, f"d{j}"), corpus.hostile(j + 7)
    checking = corpus.write_json(d / "checking.json", doc)
    human = [
        {"instance_id": i // 2, "dataset": corpus.hostile(i), "query": corpus.hostile(i + 1),
         "correctness_label": (i % 5) - 2, "completeness_label": (i % 3) - 1,
         "overall_label": ((i * 7) % 5) - 2}
        for i in range(12)
    ]  # fmt: skip
    scores = [
        {"instance_id": i, "model1": {"ragchecker": dict.fromkeys(
            ("correctness_label", "completeness_label", "overall_label"), 0.1 * i)},
         "model2": {"ragchecker": dict.fromkeys(
            ("correctness_label", "completeness_label", "overall_label"), 0.05 * (6 - i))}}
        for i in range(6)
    ]  # fmt: skip
    (d / "human.json").write_text(json.dumps(human, ensure_ascii=False), encoding="utf-8")
    (d / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    return {
        "rag_checking": checking,
        "rag_human": d / "human.json",
        "rag_scores": d / "scores.json",
    }


def hostile_parameters(files):
    """Per notebook, the parameters that point it at the hostile corpus."""
    suff = json.loads(files["sufficiency"].read_text(encoding="utf-8"))
    question = next(iter(suff["questions"]))
    context = suff["questions"][question]["alternatives"][1][:1]
    return {
        "01_decomposition_pitfalls": {"FIXTURE": str(files["decomposition"])},
        "02_evidence_sufficiency": {
            "FIXTURE": str(files["sufficiency"]),
            "QUESTION": question,
            "CONTEXT": context,
            "HARD_CASES": str(files["sufficiency_hard"]),
        },
        "03_witnesses_on_real_data": {
            "GOLD": str(files["gold"]),
            "PREDICTIONS": str(files["predictions"]),
            "WICE": "absent/wice.jsonl",
        },
        "04_factscore": {"DATA_DIR": str(files["factscore"]), "FACTCHECK_GPT": "absent.jsonl"},
        "05_context_and_citations": {
            "FIXTURE": str(files["context_tr"]),
            "ANSWER": next(iter(json.loads(files["context_tr"].read_text("utf-8"))["answers"])),
        },
        "06_decomposition_game": {"FIXTURE": str(files["decomposition"])},
        "07_sufficiency_game": {
            "FIXTURE": str(files["sufficiency"]),
            "HARD_CASES": str(files["sufficiency_hard"]),
        },
        "09_annotate": {
            "RAW": str(files["raw"]),
            "ANNOTATOR": corpus.hostile(1, "me"),
            "WORK_DIR": str(files["raw"].parent / "annotation"),
            "AGREEMENT_FILES": [str(files["annotator_0"]), str(files["annotator_1"])],
        },
        "10_retrieval_depth": {
            "MUSIQUE": str(files["musique"]),
            "HOTPOTQA": str(files["hotpotqa"]),
            "K": [1, 2],
        },
        "12_release_history": {"STORE": str(files["history_store"]), "METRIC": HOSTILE_METRIC},
        "11_rag_diagnostics": {
            "CHECKING": str(files["rag_checking"]),
            "HUMAN": str(files["rag_human"]),
            "SCORES": str(files["rag_scores"]),
            "RESAMPLES": 200,
        },
        "08_your_ledger": {
            "CANDIDATES": str(files["candidates"]),
            "UNITS": str(files["units"]),
            "FACTSCORE": str(files["factscore"]),
        },
    }


def run_hostile_notebooks(hostile_files, out):
    """Every notebook executed on the hostile corpus: {stem: RunResult or the error raised}."""
    results = {}
    for stem, params in hostile_parameters(hostile_files).items():
        try:
            results[stem] = run_notebook(
                NOTEBOOKS / f"{stem}.ipynb", parameters=params, output_dir=out
            )
        except Exception as exc:  # reported by the test, not here
            results[stem] = exc
    return results


def command_lines(files, out):
    """Each command that reads files and ends, on the hostile corpus: [(name, its arguments)].

    ``files`` is :func:`write_hostile_files`'s, ``out`` a folder for what the commands write
    (and for the predictions the multi-hop scorers read: their gold is the corpus's)."""
    suff = json.loads(files["sufficiency"].read_text("utf-8"))
    question = next(iter(suff["questions"]))
    context = ",".join(suff["questions"][question]["alternatives"][1])
    lab = json.loads(files["context_tr"].read_text("utf-8"))
    chunks = corpus.write_json(out / "chunks.json", lab["chunks"])
    answer = corpus.write_json(out / "answer.json", next(iter(lab["answers"].values())))
    mode = next(iter(json.loads(files["decomposition"].read_text("utf-8"))["modes"]))
    return [
        ("decomposition", [files["decomposition"], "--mode", mode]),
        ("sufficiency", [files["sufficiency"], "--question", question, "--context", context]),
        ("pack", [chunks, "--max-chunks", "7", "--max-tokens", "900", "--show-prompt",
                  "--question", corpus.hostile(7)]),
        ("citations", [answer, "--context", chunks]),
        ("fever", [files["gold"], files["predictions"]]),
        ("ledger", [files["candidates"], "--units", files["units"], "--by", "model"]),
        ("factscore", [files["factscore"] / "ChatGPT.jsonl"]),
        ("ledger", [files["candidates"], "--units", files["units"], "--by", "model",
                    "--ci", "0.9", "--bootstrap", "100", "--compare", "all", "--permutations", "100"]),
        ("factscore", [files["factscore"] / "ChatGPT.jsonl", "--ci", "0.9", "--bootstrap", "100"]),
        ("draft", [files["raw"], "--out", out / "drafts", "--force"]),
        ("agreement", [files["annotator_0"], files["annotator_1"]]),
        ("adjudicate", [files["annotator_0"], files["annotator_1"], "--out", out / "gold.json"]),
        ("convert", ["musique", files["musique"], "--out", out / "m.json"]),
        ("convert", ["hotpotqa", files["hotpotqa"], "--out", out / "h.json"]),
        ("sufficiency-cases", [files["sufficiency"], "--out", out / "cases.json"]),
        ("hotpotqa", [files["hotpotqa"], _hotpot_predictions(files["hotpotqa"], out)]),
        ("musique", [files["musique_lines"], _musique_predictions(files["musique_lines"], out)]),
        ("rag", [files["rag_checking"]]),
        ("meta-eval", [files["rag_human"], files["rag_scores"], "--bootstrap", "100"]),
        ("history", ["--store", files["history_store"]]),
    ]  # fmt: skip


def _hotpot_predictions(gold, out):
    """Each HotpotQA question answered with its own answer and first supporting fact."""
    rows = json.loads(gold.read_text("utf-8"))
    pred = {"answer": {r["_id"]: r["answer"] for r in rows},
            "sp": {r["_id"]: r["supporting_facts"][:1] for r in rows}}  # fmt: skip
    return corpus.write_json(out / "hotpot_pred.json", pred)


def _musique_predictions(gold, out):
    """Each MuSiQue question answered with its own answer, its supporting paragraphs cited."""
    lines = [json.loads(line) for line in gold.read_text("utf-8").splitlines()]
    pred = [{"id": r["id"], "predicted_answer": r["answer"], "predicted_answerable": True,
             "predicted_support_idxs": [p["idx"] for p in r["paragraphs"] if p["is_supporting"]]}
            for r in lines]  # fmt: skip
    path = out / "musique_pred.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in pred), "utf-8")
    return path
