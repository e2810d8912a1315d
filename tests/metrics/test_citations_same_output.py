"""``claimlab citations`` writes the same bytes as the recorded run, on shipped and generated inputs.

The record (``citations_outputs.json`` beside this file) holds, for each case, the SHA-256 of
the command's whole output (``--json``, and the text report for the shipped files) with its
verdict and problem codes, so a change to the searches behind the checks (the quote index, the
sentence matching) is checked byte for byte against the code before it. The inputs are
generated here from fixed seeds (small answers, answers large enough for the batched sentence
matching, the benchmark's own shape), plus the shipped context-lab fixtures and their hostile
copies. Regenerate the record only for a change meant to alter output:

    CLAIMLAB_RECORD_CITATIONS=1 .venv/bin/pytest tests/metrics/test_citations_same_output.py
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import sys
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from scale_inputs import citation_files  # noqa: E402

RECORD = Path(__file__).with_name("citations_outputs.json")
SHIPPED = ("leave_policy_tr.json", "leave_policy_en.json")
OPTIONS = {"plain": [], "allow": ["--allow-unsourced"], "threshold": ["--threshold", "0.6"]}

WORDS = (
    "leave request manager writing days advance annual employee office unit answer reference "
    "izin talebi yönetici yazılı gün önce yıllık çalışan ofis birim cevap numara "
    "ลา พักร้อน ล่วงหน้า วัน ผู้จัดการ"
).split()
NUMBERS = ["7", "seven", "yedi", "14", "2000 TL", "20000 TL", "5.00", "3", "30", "2024-05-01"]
SCOPE = ["all", "every", "only", "at least", "some", "not", "do not", "herkes", "en az", "değil"]


def _sentence(rng: random.Random) -> str:
    words = rng.choices(WORDS, k=rng.randint(3, 9))
    if rng.random() < 0.5:
        words.insert(rng.randrange(len(words) + 1), rng.choice(NUMBERS))
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words) + 1), rng.choice(SCOPE))
    return " ".join(words).capitalize() + "."


def _spoil(rng: random.Random, text: str) -> str:
    """The same text in another spelling: decomposed, with runs of white space."""
    if rng.random() < 0.2:
        text = unicodedata.normalize("NFD", text)
    if rng.random() < 0.2:
        text = text.replace(" ", "  \n", 1)
    return text


def _chunks(rng: random.Random, n: int) -> list[dict]:
    texts: list[str] = []
    for _ in range(n):
        if texts and rng.random() < 0.15:  # the same text twice: a quote occurs elsewhere
            texts.append(rng.choice(texts))
        else:
            texts.append(" ".join(_sentence(rng) for _ in range(rng.randint(1, 3))))
    return [
        {
            "id": f"doc-{i % 5}#c{i}",
            "document": f"Doc {i % 5}",
            "version": f"v{i % 2 + 1}",
            "score": round(rng.random(), 2),
            "text": _spoil(rng, t),
        }
        for i, t in enumerate(texts)
    ]


def _quote(rng: random.Random, text: str) -> str | None:
    """A quote cut from ``text``: whole words or not, elided, out of order, short or none."""
    words = text.split()
    roll = rng.random()
    if roll < 0.05:
        return None
    if roll < 0.1:
        return rng.choice(["i", "7 ... .", words[0]])
    a = rng.randrange(len(words))
    b = rng.randint(a + 1, len(words))
    piece = " ".join(words[a:b])
    if roll < 0.25 and len(piece) > 4:  # cut inside words
        piece = piece[rng.randint(0, 2) : len(piece) - rng.randint(0, 2)]
    if roll > 0.8 and b - a > 3:  # elided: in order, or its pieces swapped
        m = (a + b) // 2
        first, second = " ".join(words[a:m]), " ".join(words[m:b])
        piece = f"{second} … {first}" if roll > 0.93 else f"{first} ... {second}"
    return _spoil(rng, piece)


def _claim(rng: random.Random, chunks: list[dict], sentence: str) -> dict:
    cited = rng.randrange(len(chunks))
    source = chunks[cited]["text"]
    roll = rng.random()
    chunk_id: str | None = chunks[cited]["id"]
    if roll < 0.05:
        chunk_id = "made-up#9"
    elif roll < 0.1:
        chunk_id = None
    elif roll < 0.25:  # the quote comes from another chunk
        source = rng.choice(chunks)["text"]
    text = sentence
    if rng.random() < 0.2:
        text = text.replace(rng.choice(text.split()), rng.choice(NUMBERS + SCOPE), 1)
    return {"text": text, "chunk_id": chunk_id, "quote": _quote(rng, source)}


def _faithful(rng: random.Random, chunks: list[dict], n: int) -> tuple[list[str], list[dict]]:
    """Up to ``n`` different sentences of the chunks, each a claim quoting the chunk it cites."""
    first: dict[str, str] = {}
    for c in chunks:
        said = unicodedata.normalize("NFC", " ".join(c["text"].split()))
        for s in said.split(". "):
            first.setdefault(s.rstrip(".") + ".", c["id"])
    sentences = rng.sample(sorted(first), min(n, len(first)))
    claims = [{"text": s, "chunk_id": first[s], "quote": s.rstrip(".")} for s in sentences]
    return sentences, claims


def _answer_text(rng: random.Random, sentences: list[str], claims: list[dict], *, more: int) -> str:
    """The claims' sentences and up to ``more`` others, shuffled; a few claims declare a restated one."""
    from claimlab.core.sentences import split_sentences

    extra = [_sentence(rng) for _ in range(rng.randint(0, more))]
    text = " ".join(rng.sample(sentences + extra, len(sentences) + len(extra)))
    split = [s.text for s in split_sentences(text)]
    for c in claims:
        if rng.random() < 0.05:
            c["restates"] = rng.choice(split)
    return text


def generated_answer(seed: int, claims: int, chunks: int) -> tuple[dict, list[dict]]:
    """An answer of ``claims`` claims over ``chunks`` chunks, drawn from ``seed``.

    One seed in three makes faithful claims (each a chunk's sentence, quoted from it).
    """
    rng = random.Random(seed)
    sent = _chunks(rng, chunks)
    faithful = seed % 3 == 0
    if faithful:
        sentences, listed = _faithful(rng, sent, claims)
    else:
        sentences = [_sentence(rng) for _ in range(claims)]
        listed = [_claim(rng, sent, s) for s in sentences]
    answer = {
        "answer": _answer_text(rng, sentences, listed, more=0 if faithful else 3),
        "claims": listed,
        "has_unsourced_claim": not faithful and rng.random() < 0.3,
    }
    if rng.random() < 0.1:
        answer["synonyms"] = [["leave", "izin"], ["manager", "yönetici"]]
    if not faithful and rng.random() < 0.05:
        answer["dont_know"] = True
    return (_turkish(answer) if seed % 2 else answer), sent


def _turkish(answer: dict) -> dict:
    """The same answer in the seed's Turkish keys."""
    keys = {"answer": "cevap", "claims": "iddialar", "has_unsourced_claim": "kaynaksiz_iddia_var",
            "synonyms": "es_anlamlilar", "dont_know": "bilmiyorum"}  # fmt: skip
    inner = {"text": "metin", "chunk_id": "parca_kimligi", "quote": "dayanak",
             "restates": "yeniden_ifade"}  # fmt: skip
    claims = [{inner[k]: v for k, v in c.items()} for c in answer["claims"]]
    return {keys[k]: (claims if k == "claims" else v) for k, v in answer.items()}


def _run(args: list[str]) -> str:
    """The command's output, run in this process."""
    from claimlab.tooling.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["citations", *args])
    return f"exit {code}\n{out.getvalue()}"


def _entry(output: str) -> dict:
    body = output.split("\n", 1)[1]
    entry: dict = {"sha256": hashlib.sha256(output.encode("utf-8")).hexdigest()}
    if body.startswith("{"):
        doc = json.loads(body)
        entry["verdict"] = doc["verdict"]
        entry["codes"] = sorted({p["code"] for p in doc["problems"]})
        entry["found_elsewhere"] = sum("instead" in p["explanation"] for p in doc["problems"])
    return entry


def _shipped_cases(folder: Path) -> dict[str, list[str]]:
    """Every named answer of the shipped fixtures and of their hostile copies, each option."""
    from tests.hostile.corpus import hostile_context_lab

    cases = {}
    for name in SHIPPED:
        data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
        for kind, d in (("shipped", data), ("hostile", hostile_context_lab(name))):
            file = f"{kind}_{name}"
            (folder / file).write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
            for i, answer in enumerate(d["answers"]):
                for option, extra in OPTIONS.items():
                    base = [file, "--name", answer, "--context", file, *extra]
                    cases[f"{file}:{i}:{option}:json"] = [*base, "--json"]
                    cases[f"{file}:{i}:{option}:text"] = base
    return cases


def _generated_cases(folder: Path) -> dict[str, list[str]]:
    """Generated answers: small ones, ones past 40,000 claim-sentence pairs, the benchmark's."""
    sizes = [(seed, 2 + seed % 12, 1 + seed % 9) for seed in range(60)]
    sizes += [(seed, 150 + 40 * (seed % 5), 40 + seed % 30) for seed in range(100, 108)]
    cases = {}
    for seed, claims, chunks in sizes:
        answer, sent = generated_answer(seed, claims, chunks)
        a, c = f"answer_{seed}.json", f"chunks_{seed}.json"
        (folder / a).write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
        (folder / c).write_text(json.dumps(sent, ensure_ascii=False), encoding="utf-8")
        option = list(OPTIONS)[(seed // 3) % 3]
        cases[f"generated:{seed}:{claims}x{chunks}:{option}"] = [
            a, "--context", c, *OPTIONS[option], "--json"
        ]  # fmt: skip
    for n in (300, 1200):
        where = folder / f"bench_{n}"
        where.mkdir()
        a_path, c_path = citation_files(where, n, n)
        rel = [str(p.relative_to(folder)) for p in (a_path, c_path)]
        cases[f"benchmark-shape:{n}x{n}"] = [rel[0], "--context", rel[1], "--json"]
    return cases


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("citations-same-output")
    cases = {**_shipped_cases(folder), **_generated_cases(folder)}
    here = Path.cwd()
    os.chdir(folder)  # the output names the files as given: relative, so the same everywhere
    try:
        return {name: _entry(_run(args)) for name, args in cases.items()}
    finally:
        os.chdir(here)


def test_citations_output_is_byte_for_byte_the_recorded_one(outputs):
    if os.environ.get("CLAIMLAB_RECORD_CITATIONS"):
        RECORD.write_text(json.dumps(outputs, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    assert sorted(outputs) == sorted(recorded)
    changed = [name for name in recorded if outputs[name] != recorded[name]]
    assert changed == [], f"{len(changed)} of {len(recorded)} outputs changed, e.g. {changed[:5]}"


def test_the_generated_inputs_reach_every_check(outputs):
    """The cases are worth comparing: between them they hit every problem code and both verdicts."""
    codes = {c for e in outputs.values() for c in e.get("codes", [])}
    assert codes >= {
        "FABRICATED_ID", "QUOTE_NOT_FOUND", "MISSING_QUOTE", "QUOTE_TOO_SHORT",
        "UNSOURCED_CLAIM", "NUMBER_MISMATCH", "UNCOVERED_SENTENCE", "BELOW_THRESHOLD",
        "DONT_KNOW_WITH_CLAIMS", "FLAG_MISMATCH", "POLARITY_MISMATCH", "SCOPE_MISMATCH",
    }, sorted(codes)  # fmt: skip
    generated = [e for name, e in outputs.items() if name.startswith("generated")]
    assert {"ACCEPT", "REJECT"} <= {e["verdict"] for e in generated}
    assert sum(e["found_elsewhere"] > 0 for e in generated) >= 10
