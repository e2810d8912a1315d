"""The decomposition rules as invariants: generated files, and the checks every command's tests reuse.

* :func:`answer_doc` builds a checked ``claimlab/decomposition@1`` document from sentences (one
  unit each) and candidates given by code point ranges; :func:`decomposition_docs` draws one
  (Korean, English, astral characters; spans inside a sentence or across two).
* :func:`coverage_everywhere` reads a document with the reader (checking that its declaration's
  conversion and field-by-field walk give the same records), and counts Toy Original Coverage as ``decomposition`` (score_decomposition),
  ``agreement`` (file_items), the game (toy_counts) and ``ledger --from-decompositions``
  (tables_from_decompositions) count it: they must agree; it returns (covered, units).
* :func:`split_candidate` splits a candidate into atomic candidates quoting the parts of its
  span; :func:`check_split_never_lowers_coverage` is the rule "atomic claims are not punished".
* :func:`check_empty_file_is_read` is the rule "empty is legitimate": confirmed units and no
  candidate are read alike by every reader and give coverage 0 of the units, while the same
  file with every unit still proposed is a draft nobody annotated.
* :func:`check_one_character_never_backs`: a span overlapping a unit by one character never
  backs it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st

from claimlab.core.spans import utf16_len
from claimlab.io.annotations import load_annotated, scan_annotated
from claimlab.io.declared import check_record
from claimlab.io.decomposition import DecompositionDocument, confirmed_count, read_decomposition
from claimlab.io.ledger import tables_from_decompositions
from claimlab.io.reader import Record
from claimlab.metrics.agreement_items import file_items
from claimlab.metrics.decomposition import score_decomposition, toy_counts
from claimlab.metrics.ledger import score_tables

# Korean recipe words, English words, and astral characters (two UTF-16 units, one character)
WORDS = ["소금을", "간장", "두", "큰술", "넣고", "끓인다", "salt", "soy", "garlic", "🌶", "𝟐", "x"]


def _u16(text: str, i: int) -> int:
    return utf16_len(text[:i])


def span_of(text: str, a: int, b: int) -> dict[str, Any]:
    """The span of code points a..b of ``text``, in UTF-16 units."""
    return {"start": _u16(text, a), "end": _u16(text, b), "text": text[a:b]}


def sentence_ranges(sentences: list[str]) -> list[tuple[int, int]]:
    """Each sentence's code point range in the sentences joined by one space."""
    out, at = [], 0
    for s in sentences:
        out.append((at, at + len(s)))
        at += len(s) + 1
    return out


def candidate(
    cid: str,
    text: str,
    spans: list[tuple[int, int]],
    preserves: list[str],
    *,
    faithful: bool = True,
    atomic: bool = True,
    status: str = "NOT_IN_REFERENCE",
    fingerprint: str | None = None,
) -> dict[str, Any]:
    """A confirmed candidate quoting code point ranges ``spans`` of the answer ``text``."""
    quoted = " ".join(text[a:b] for a, b in spans)
    return {
        "id": cid,
        "text": quoted or cid,
        "entity": "",
        "version": "",
        "predicate": "",
        "qualifiers": [],
        "source_spans": [span_of(text, a, b) for a, b in spans],
        "fingerprint": fingerprint or cid,
        "preserves": preserves,
        "faithful": faithful,
        "atomic": atomic,
        "errors": [],
        "evidence": {"status": status, "references": []},
    }


def answer_doc(
    sentences: list[str],
    candidates: list[dict[str, Any]],
    *,
    answer: str = "a1",
    proposed_units: bool = False,
) -> dict[str, Any]:
    """A checked decomposition document: one unit per sentence (``U1``...), the candidates given."""
    text = " ".join(sentences)
    units = [
        {
            "id": f"U{k}",
            "span": span_of(text, a, b),
            **({"review": ["span"]} if proposed_units else {}),
        }
        for k, (a, b) in enumerate(sentence_ranges(sentences), 1)
    ]
    return {
        "format": "claimlab/decomposition@1",
        "offset_unit": "utf16",
        "original": {"id": answer, "version": "1", "text": text},
        "units": units,
        "references": [],
        "candidates": candidates,
    }


def overlapped(sentences: list[str], a: int, b: int) -> list[str]:
    """The units (sentences) code points a..b overlap."""
    return [f"U{k}" for k, (s, e) in enumerate(sentence_ranges(sentences), 1) if s < b and a < e]


@st.composite
def sentences_st(draw: Any, *, min_size: int = 1) -> list[str]:
    """One to four sentences of one to six words, each ending with a full stop."""
    words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6)
    return [" ".join(w) + "." for w in draw(st.lists(words, min_size=min_size, max_size=4))]


@st.composite
def decomposition_docs(draw: Any) -> dict[str, Any]:
    """A checked document: sentences as units, zero to four candidates with one span each.

    A span lies anywhere in the answer (inside a sentence, or across two); a candidate
    preserves the units its span overlaps (faithful), or nothing (then unfaithful).
    """
    sentences = draw(sentences_st())
    text = " ".join(sentences)
    cands = []
    for j in range(draw(st.integers(0, 4))):
        a = draw(st.integers(0, len(text) - 1))
        b = draw(st.integers(a + 1, len(text)))
        units = overlapped(sentences, a, b)
        keep = draw(st.lists(st.sampled_from(units), min_size=1, unique=True)) if units else []
        status = draw(st.sampled_from(["SUPPORTED", "NOT_IN_REFERENCE"]))
        c = candidate(f"C{j}", text, [(a, b)], keep, faithful=bool(keep), status=status)
        if status == "SUPPORTED":
            c["evidence"] = {"status": "SUPPORTED", "references": ["R1"]}
        cands.append(c)
    doc = answer_doc(sentences, cands)
    doc["references"] = [{"id": "R1", "title": "r", "version": "1", "text": "r"}]
    return doc


def assert_one_reading(doc: dict[str, Any]) -> None:
    """The declaration's conversion (msgspec) and its field-by-field walk give the same records."""
    walked = check_record(DecompositionDocument, Record(doc, file="generated.json"))
    assert walked == msgspec.convert(doc, DecompositionDocument), "two readings of one declaration"


def coverage_everywhere(doc: dict[str, Any]) -> tuple[int, int]:
    """Toy Original Coverage of every candidate as each reader and command counts it.

    The declaration's conversion and its walk build the same records; ``agreement``'s
    file items, the game's counts and the ledger count the same coverage.
    """
    careful = read_decomposition(doc, source="generated.json")
    assert_one_reading(doc)
    ids = careful.candidate_ids
    r = score_decomposition(careful, ids).coverage
    got = (r.numerator, r.denominator)
    assert toy_counts(careful, ids)[2:4] == got  # the game
    assert file_items(careful).counts[2:4] == got  # agreement's Toy ratios
    ledger = score_tables(*tables_from_decompositions([careful]), by=None).corpus.micro["coverage"]
    assert (ledger.numerator, ledger.denominator) == got  # ledger --from-decompositions
    return got


def split_candidate(doc: dict[str, Any], cid: str, cuts: list[int]) -> dict[str, Any]:
    """``doc`` with candidate ``cid`` (one span) split at code points ``cuts`` into atomic parts.

    Each part quotes its piece of the span and preserves those of the candidate's units its
    piece overlaps (unfaithful where none); the parts take the candidate's place.
    """
    out = copy.deepcopy(doc)
    text = out["original"]["text"]
    sentences = [u["span"]["text"] for u in out["units"]]
    at = next(i for i, c in enumerate(out["candidates"]) if c["id"] == cid)
    parent = out["candidates"][at]
    (sp,) = parent["source_spans"]
    a = len(text.encode("utf-16-le")[: 2 * sp["start"]].decode("utf-16-le"))
    b = a + len(sp["text"])
    edges = [a, *sorted(cuts), b]
    parts = []
    for k, (s, e) in enumerate(zip(edges, edges[1:], strict=False)):
        keep = [u for u in overlapped(sentences, s, e) if u in parent["preserves"]]
        part = candidate(
            f"{cid}.{k}",
            text,
            [(s, e)],
            keep,
            faithful=parent["faithful"] and bool(keep),
            fingerprint=f"{parent['fingerprint']}.{k}",
        )
        part["evidence"] = parent["evidence"]
        parts.append(part)
    out["candidates"][at : at + 1] = parts
    return out


@st.composite
def splits(draw: Any) -> tuple[dict[str, Any], str, list[int]]:
    """A generated document, one of its candidates, and cut points leaving parts of 2+ characters."""
    doc = draw(decomposition_docs().filter(lambda d: d["candidates"]))
    c = draw(st.sampled_from(doc["candidates"]))
    n = len(c["source_spans"][0]["text"])
    inner = list(range(2, n - 1))  # a cut at k leaves at least two characters on each side
    cuts = draw(st.lists(st.sampled_from(inner), unique=True, max_size=4)) if inner else []
    cuts = sorted(cuts)
    cuts = [k for i, k in enumerate(cuts) if i == 0 or k - cuts[i - 1] >= 2]
    text = doc["original"]["text"]
    a = len(text.encode("utf-16-le")[: 2 * c["source_spans"][0]["start"]].decode("utf-16-le"))
    return doc, c["id"], [a + k for k in cuts]


def check_split_never_lowers_coverage(doc: dict[str, Any], cid: str, cuts: list[int]) -> None:
    """Splitting a candidate into atomic parts quoting its span's pieces loses no covered unit."""
    before = coverage_everywhere(doc)
    after = coverage_everywhere(split_candidate(doc, cid, cuts))
    assert after[1] == before[1]
    assert after[0] >= before[0], f"split {cid} at {cuts}: coverage {before} -> {after}"


def check_empty_file_is_read(doc: dict[str, Any], folder: Path) -> None:
    """Confirmed units and no candidate: read alike everywhere, coverage 0 of its units.

    The same file with every unit still proposed is a draft nobody annotated (nothing
    confirmed); ``folder`` receives the two files for the annotation readers.
    """
    empty = dict(copy.deepcopy(doc), candidates=[])
    empty.pop("modes", None)
    assert coverage_everywhere(empty) == (0, len(empty["units"]))
    fx = read_decomposition(empty, source="empty.json")
    assert confirmed_count(fx.units, fx.candidates) == len(fx.units) > 0
    draft = copy.deepcopy(empty)
    for u in draft["units"]:
        u["review"] = ["span"]
    for name, d, confirmed in (("empty", empty, len(fx.units)), ("draft", draft, 0)):
        path = folder / f"{name}.json"
        path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
        assert load_annotated(path)[0].confirmed == confirmed
        assert scan_annotated(path).confirmed == confirmed


@st.composite
def one_character_overlaps(draw: Any) -> tuple[dict[str, Any], str]:
    """A document whose candidate ``X`` overlaps unit ``U{k}`` by exactly one character.

    The span starts on the unit's last character or ends on its first, and runs any number
    of characters outside the unit (none: a one-character span inside it).
    """
    sentences = draw(sentences_st())
    text = " ".join(sentences)
    k = draw(st.integers(1, len(sentences)))
    s, e = sentence_ranges(sentences)[k - 1]
    if draw(st.booleans()):
        a, b = e - 1, draw(st.integers(e, len(text)))
    else:
        a, b = draw(st.integers(0, s)), s + 1
    x = candidate("X", text, [(a, b)], [f"U{k}"])
    return answer_doc(sentences, [x]), f"U{k}"


def check_one_character_never_backs(doc: dict[str, Any], unit: str) -> None:
    """Candidate ``X`` overlaps ``unit`` by one character: it backs nothing, in either reader."""
    fx = read_decomposition(doc, source="x.json")
    assert not fx.backs(fx.candidate("X"), unit)
    assert fx.unbacked_claims == {"X": (unit,)}
    assert coverage_everywhere(doc)[0] == 0


FINGERPRINTS = ["kapı|açık", "istanbul|eczane", "library|opens|9", "รถเมล์|สาย 8", "버스|8번"]


def respelled_fingerprint(fp: str, how: int) -> str:
    """One fingerprint written another way: capitals, spaces, decomposed, Turkish capitals."""
    import unicodedata

    return [
        fp.upper(),
        f" {fp} ".replace(" ", "  "),
        unicodedata.normalize("NFD", fp),
        fp.replace("i", "İ").replace("ı", "I").upper(),
        fp,
    ][how % 5]
