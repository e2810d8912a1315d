"""Large inputs that once took quadratic time: 100k candidates, 20k alternatives, 3000 x 3000 citations.

Shared by ``bench_scale.py`` (which prints the timings) and the hostile test suite (which runs
the same inputs without timing them).
"""

from __future__ import annotations

import json
from pathlib import Path


def decomposition_file(folder: Path, candidates: int = 100_000, units: int = 1000) -> Path:
    """A decomposition file with ``candidates`` candidates over ``units`` units; mode ``all``."""
    sentences = [
        f"Product {i} supports feature {i % 97} in version {i % 13}." for i in range(units)
    ]
    text, spans, at = "", [], 0
    for s in sentences:
        spans.append((at, at + len(s), s))
        text += s + " "
        at += len(s) + 1
    data = {
        "format": "claimlab/decomposition@1",
        "offset_unit": "utf16",
        "original": {"id": "A", "version": "v1", "text": text},
        "units": [
            {"id": f"U{i}", "span": {"start": a, "end": b, "text": t}}
            for i, (a, b, t) in enumerate(spans)
        ],
        "references": [{"id": "R", "title": "t", "version": "1", "text": "reference"}],
        "candidates": [],
        "modes": {},
    }
    for i in range(candidates):
        u = i % units
        a, b, t = spans[u]
        data["candidates"].append(
            {
                "id": f"C{i}",
                "text": t,
                "entity": "Product",
                "version": "1",
                "predicate": "supports",
                "qualifiers": [],
                "source_spans": [{"start": a, "end": b, "text": t}],
                "fingerprint": f"fp{i % (candidates // 2 or 1)}",
                "preserves": [f"U{u}"],
                "faithful": True,
                "atomic": True,
                "errors": [],
                "evidence": {"status": "SUPPORTED", "references": ["R"]},
            }
        )
    data["modes"]["all"] = [c["id"] for c in data["candidates"]]
    path = folder / "decomposition_100k.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def sufficiency_file(folder: Path, alternatives: int = 20_000) -> tuple[Path, str]:
    """A question with ``alternatives`` two-step chains; returns (file, context ids).

    The context holds every chain's first member and every other chain's second: half the
    branches are complete, half miss one premise with thousands of stand-ins available.
    """
    evidence, alts, context = [], [], []
    for i in range(alternatives):
        a, b = f"E{2 * i}", f"E{2 * i + 1}"
        evidence.append(
            {"id": a, "text": "t", "subject": "card", "relation": "uses", "object": f"route{i}",
             "status": "APPROVED", "current": True, "topic": "x"}
        )  # fmt: skip
        evidence.append(
            {"id": b, "text": "t", "subject": f"route{i}", "relation": "leads to",
             "object": "room", "status": "APPROVED", "current": True, "topic": "x"}
        )  # fmt: skip
        alts.append([a, b])
        context.append(a)
        if i % 2:
            context.append(b)
    data = {
        "format": "claimlab/sufficiency@1",
        "evidence": evidence,
        "rules": {"required_status": "APPROVED", "require_current": True},
        "questions": {"q": {"text": "?", "asks": ["room"], "topic": "x", "alternatives": alts}},
    }
    path = folder / "sufficiency_20k.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, ",".join(context)


def citation_files(
    folder: Path, claims: int = 3000, chunks: int = 3000, *, restates: bool = False
) -> tuple[Path, Path]:
    """An answer with ``claims`` claims (one sentence each) over ``chunks`` sent chunks.

    Every claim quotes the chunk after the one it cites, so every quote is looked for in the
    other chunks (QUOTE_NOT_FOUND with "it occurs in ... instead"). ``restates``: every claim
    also declares the sentence it restates.
    """
    sent = [
        {
            "id": f"doc#{i}",
            "document": f"Document {i % 50}",
            "version": "v1",
            "score": 1.0 - i / (chunks + 1),
            "text": f"Clause {i}: requests of type {i} are answered within {i % 30 + 1} days "
            f"by the office of unit {i % 17}, in writing and with a reference number {i}.",
        }
        for i in range(chunks)
    ]
    answer = {
        "answer": " ".join(
            f"Requests of type {i} are answered within some days." for i in range(claims)
        ),
        "claims": [
            {
                "text": f"Requests of type {i} are answered within some days.",
                "chunk_id": f"doc#{i % chunks}",
                "quote": f"requests of type {(i + 1) % chunks} are answered",
                **(
                    {"restates": f"Requests of type {i} are answered within some days."}
                    if restates
                    else {}
                ),
            }
            for i in range(claims)
        ],
        "has_unsourced_claim": False,
    }
    a, c = folder / "answer_3000.json", folder / "chunks_3000.json"
    a.write_text(json.dumps(answer), encoding="utf-8")
    c.write_text(json.dumps(sent), encoding="utf-8")
    return a, c


def _answer(i: int) -> tuple[str, list[str], list[tuple[int, int]]]:
    """Answer ``i`` of a generated corpus: its text, subclaims and sentence spans."""
    sentences = [
        f"Station {i} opens at {i % 12 + 6} am.",
        f"Trains to Harbour {i % 50} leave every {i % 7 + 5} minutes.",
        f"The café on platform {i % 9} sells tea.",
    ]
    spans, at = [], 0
    for s in sentences:
        spans.append((at, at + len(s)))
        at += len(s) + 1
    subclaims = [
        sentences[0],
        sentences[1],
        "The café sells tea.",
        f"Station {i} has free parking.",
    ]
    return " ".join(sentences), subclaims, spans


def raw_answers(folder: Path, answers: int = 100_000, *, name: str = "raw.jsonl") -> Path:
    """A decomposer's raw output: ``answers`` answers of three sentences, four subclaims each.

    Two subclaims are said word for word, one is shortened (found by alignment) and one is
    not in the answer (proposed as introduced).
    """
    path = folder / name
    with path.open("w", encoding="utf-8") as f:
        for i in range(answers):
            text, subclaims, _ = _answer(i)
            f.write(json.dumps({"id": f"q{i}", "answer": text, "subclaims": subclaims}) + "\n")
    return path


def _annotated(i: int, annotator: str, differ: bool) -> dict:
    """An annotator's confirmed file of answer ``i``; ``differ``: another atomic and status."""
    text, subclaims, spans = _answer(i)
    units = [
        {"id": f"U{k + 1}", "span": {"start": s, "end": e, "text": text[s:e]}}
        for k, (s, e) in enumerate(spans)
    ]
    cands = []
    for k, claim in enumerate(subclaims):
        inside = k < 3
        s, e = spans[min(k, 2)]
        cands.append(
            {
                "id": f"S{k + 1}", "text": claim, "entity": "", "version": "", "predicate": "",
                "qualifiers": [],
                "source_spans": [{"start": s, "end": e, "text": text[s:e]}] if inside else [],
                "fingerprint": claim.lower(), "preserves": [f"U{k + 1}"] if inside else [],
                "faithful": inside, "atomic": not (differ and k == 1),
                "errors": [] if inside else ["introduced"],
                "evidence": {"status": "SUPPORTED" if inside and not (differ and k == 0)
                             else "NOT_IN_REFERENCE", "references": ["R1"] if inside and not
                             (differ and k == 0) else []},
                "review": [], "confirmed": {"by": annotator, "at": "2026-12-01T10:00:00+00:00"},
            }
        )  # fmt: skip
    return {
        "format": "claimlab/decomposition@1", "offset_unit": "utf16",
        "original": {"id": f"q{i}", "version": "v1", "text": text}, "units": units,
        "references": [{"id": "R1", "title": "Timetable", "version": "1", "text": text}],
        "candidates": cands, "modes": {"decomposer": [c["id"] for c in cands]},
        "annotation": {"annotator": annotator, "updated": "2026-12-01T10:00:00+00:00", "log": []},
    }  # fmt: skip


def annotator_folders(folder: Path, answers: int = 100_000) -> tuple[Path, Path]:
    """Two annotators' folders (``ana``, ``ben``) of ``answers`` confirmed files each.

    Ben differs from Ana on every tenth answer: S2 is not atomic and S1 NOT_IN_REFERENCE.
    """
    import orjson

    out = []
    for who in ("Ana", "Ben"):
        d = folder / who.lower()
        d.mkdir(parents=True, exist_ok=True)
        for i in range(answers):
            doc = _annotated(i, who, who == "Ben" and i % 10 == 0)
            (d / f"q{i}.json").write_bytes(orjson.dumps(doc))
        out.append(d)
    return out[0], out[1]


def ledger_files(folder: Path, answers: int = 100_000) -> tuple[Path, Path]:
    """Two decomposers (A, B) over ``answers`` answers of three units, four candidates each.

    A keeps every unit; B's third candidate repeats its second (a duplicate) and its fourth is
    not in the answer, so B's coverage is about two thirds of A's.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(7)
    n = answers * 2 * 4
    pair = np.arange(n) // 4
    model = np.where(pair % 2 == 0, "A", "B")
    answer = pa.array([f"q{i}" for i in range(answers)]).take(pa.array(pair // 2))
    k = np.arange(n) % 4
    b = model == "B"
    unit = np.where(b & (k == 2), 1, np.minimum(k, 2))
    preserves = [[f"U{u + 1}"] if not (b[i] and k[i] == 3) else [] for i, u in enumerate(unit)]
    fp = np.char.add(np.char.add(model, "-"), np.where(b & (k == 2), 1, k).astype(str))
    status = np.where(rng.random(n) < 0.8, "SUPPORTED", "NOT_IN_REFERENCE")
    cand = pa.table(
        {
            "model": model,
            "answer_id": answer,
            "candidate_id": pa.array(np.char.add("S", k.astype(str))),
            "fingerprint": fp,
            "preserves": pa.array(preserves, type=pa.list_(pa.string())),
            "faithful": ~(b & (k == 3)),
            "atomic": np.ones(n, dtype=bool),
            "status": status,
        }
    )
    units = pa.table(
        {
            "answer_id": pa.array([f"q{i}" for i in range(answers) for _ in range(3)]),
            "unit_id": pa.array(["U1", "U2", "U3"] * answers),
        }
    )
    c, u = folder / "candidates.parquet", folder / "units.parquet"
    pq.write_table(cand, c)
    pq.write_table(units, u)
    return c, u


def annotated_big_file(folder: Path, candidates: int = 100_000) -> tuple[Path, Path]:
    """Two annotators' files of one answer with ``candidates`` candidates over 1,000 units.

    The second annotator marks every tenth candidate not atomic.
    """
    import orjson

    base = json.loads(decomposition_file(folder, candidates).read_text(encoding="utf-8"))
    out = []
    for who in ("Ana", "Ben"):
        doc = json.loads(json.dumps(base))
        doc["annotation"] = {"annotator": who, "updated": "2026-12-01T10:00:00+00:00", "log": []}
        if who == "Ben":
            for c in doc["candidates"][::10]:
                c["atomic"] = False
        p = folder / f"big.{who.lower()}.json"
        p.write_bytes(orjson.dumps(doc))
        out.append(p)
    return out[0], out[1]


# ------------------------------------------------------------------ RAG and multi-hop scoring

_LABELS = ("Entailment", "Neutral", "Contradiction")


def rag_file(folder: Path, queries: int = 100_000) -> Path:
    """A RAGChecker checking output: 4 response claims, 3 answer claims, 3 chunks per query."""
    import orjson

    results = []
    for i in range(queries):
        lab = [_LABELS[(i + k) % 3] for k in range(12)]
        results.append(
            {
                "query_id": f"q{i}",
                "response_claims": [f"r{i}-{k}" for k in range(4)],
                "gt_answer_claims": [f"g{i}-{k}" for k in range(3)],
                "retrieved_context": [{"doc_id": f"d{k}", "text": "t"} for k in range(3)],
                "answer2response": lab[:4],
                "response2answer": lab[4:7],
                "retrieved2response": [lab[k : k + 3] for k in range(4)],
                "retrieved2answer": [lab[k + 5 : k + 8] for k in range(3)],
            }
        )
    path = folder / f"rag_{queries}.json"
    path.write_bytes(orjson.dumps({"results": results}))
    return path


def meta_files(folder: Path, pairs: int = 100_000) -> tuple[Path, Path]:
    """A meta-evaluation: two judgments per pair and a checker's score of each response."""
    import orjson

    labels = ("correctness_label", "completeness_label", "overall_label")
    human = [
        {"instance_id": i // 2, **{k: ((i * 7 + j) % 5) - 2 for j, k in enumerate(labels)}}
        for i in range(2 * pairs)
    ]
    scores = [
        {
            "instance_id": i,
            "model1": {"ragchecker": {k: (i % 11) / 10 for k in labels}},
            "model2": {"ragchecker": {k: ((i * 7) % 13) / 12 for k in labels}},
        }
        for i in range(pairs)
    ]
    h, s = folder / f"human_{pairs}.json", folder / f"scores_{pairs}.json"
    h.write_bytes(orjson.dumps(human))
    s.write_bytes(orjson.dumps(scores))
    return h, s


def official_files(folder: Path, questions: int = 100_000) -> dict[str, Path]:
    """HotpotQA gold and predictions of ``questions`` questions; MuSiQue's full set of as many
    records (half as many questions, each with its unanswerable twin)."""
    import orjson

    gold = [
        {
            "_id": f"h{i}",
            "answer": f"answer {i % 97}",
            "supporting_facts": [[f"T{i}", 0], [f"U{i}", 1]],
        }
        for i in range(questions)
    ]
    pred = {
        "answer": {f"h{i}": f"the answer {i % 89}" for i in range(questions)},
        "sp": {f"h{i}": [[f"T{i}", 0]] for i in range(0, questions, 2)},
    }
    mgold, mpred = [], []
    for i in range(questions // 2):
        twins = (True, False)  # the full set: every question and its unanswerable twin
        for answerable in twins:
            mgold.append({"id": f"m{i}", "answer": f"a{i % 7}", "answer_aliases": [f"b{i % 3}"],
                          "answerable": answerable,
                          "paragraphs": [{"idx": k, "is_supporting": k < 2} for k in range(4)]})  # fmt: skip
            mpred.append({"id": f"m{i}", "predicted_answer": f"a{i % 5}",
                          "predicted_support_idxs": [0, 3], "predicted_answerable": i % 2 == 0})  # fmt: skip
    out = {
        "hotpot_gold": folder / "hotpot_gold.json",
        "hotpot_pred": folder / "hotpot_pred.json",
        "musique_gold": folder / "musique_gold.jsonl",
        "musique_pred": folder / "musique_pred.jsonl",
    }
    out["hotpot_gold"].write_bytes(orjson.dumps(gold))
    out["hotpot_pred"].write_bytes(orjson.dumps(pred))
    out["musique_gold"].write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in mgold))
    out["musique_pred"].write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in mpred))
    return out


def fever_files(folder: Path, claims: int = 100_000) -> tuple[Path, Path]:
    """FEVER gold and predictions (JSON Lines) shaped like the shared dev set: a third each
    SUPPORTS, REFUTES and NOT ENOUGH INFO; two evidence groups of one or two sentences; five
    predicted sentences, the first right for every other claim."""
    import orjson

    labels = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
    gold_lines, pred_lines = [], []
    for i in range(claims):
        label = labels[i % 3]
        if label == "NOT ENOUGH INFO":
            evidence = [[[i, None, None, None]]]
        else:
            evidence = [
                [[i, 2 * i, f"Page_{i}", 0]],
                [[i, 2 * i + 1, f"Page_{i}", 1], [i, 2 * i + 1, f"Other_{i % 50}", 3]],
            ]
        gold_lines.append(
            orjson.dumps({"id": i, "label": label, "claim": f"Claim {i}.", "evidence": evidence})
        )
        sentences = [[f"Page_{i}", i % 2], *[[f"Near_{i % 70}", k] for k in range(4)]]
        pred_lines.append(
            orjson.dumps(
                {"id": i, "predicted_label": labels[(i // 2) % 3], "predicted_evidence": sentences}
            )
        )
    g, p = folder / f"fever_gold_{claims}.jsonl", folder / f"fever_pred_{claims}.jsonl"
    g.write_bytes(b"\n".join(gold_lines) + b"\n")
    p.write_bytes(b"\n".join(pred_lines) + b"\n")
    return g, p
