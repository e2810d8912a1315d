"""The context-lab file's calibration set, read from its declaration (``Calibration``).

Invariants: every refusal names the file, the query (by its id) and the field's full path;
a target precision must lie in (0, 1]; a threshold and a score are finite numbers; a split is
one of the two words or left out (null: left out).
"""

from __future__ import annotations

import copy
import json

import pytest

from claimlab.core.errors import ClaimlabInputError
from claimlab.io.context_lab import Calibration, load_context_lab
from claimlab.io.declared import declared_schema
from tests.conftest import FIXTURES

BASE = json.loads((FIXTURES / "leave_policy_en.json").read_text(encoding="utf-8"))
QID = BASE["calibration"]["queries"][0]["id"]


def _with(tmp_path, change):
    doc = copy.deepcopy(BASE)
    change(doc["calibration"])
    f = tmp_path / "lab.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return f


def _first_query(cal):
    return cal["queries"][0]


@pytest.mark.parametrize(
    ("change", "record", "fld", "words"),
    [
        (lambda c: c.update(target_precision=0), None, "calibration.target_precision", "greater than 0"),
        (lambda c: c.update(target_precision=1.5), None, "calibration.target_precision", "at most 1"),
        (lambda c: c.update(target_precision="x"), None, "calibration.target_precision", "number"),
        (lambda c: c.pop("target_precision"), None, "calibration.target_precision", "missing"),
        (lambda c: c.update(fixed_thresholds=[0.2, "a"]), None, "calibration.fixed_thresholds[1]", "must be a number"),
        (lambda c: c.update(fixed_thresholds=0.2), None, "calibration.fixed_thresholds", "must be a list"),
        (lambda c: _first_query(c).update(split="test"), QID, "split", "unknown split 'test'"),
        (lambda c: _first_query(c)["candidates"][0].pop("score"), QID, "candidates[0].score", "missing"),
        (lambda c: _first_query(c)["candidates"][0].update(relevant=1), QID, "candidates[0].relevant", "true or false"),
        (lambda c: _first_query(c).update(id=""), "calibration.queries[0]", "id", "non-empty string"),
    ],
)  # fmt: skip
def test_each_refusal_names_the_query_and_the_path(tmp_path, change, record, fld, words):
    with pytest.raises(ClaimlabInputError) as caught:
        load_context_lab(_with(tmp_path, change))
    exc = caught.value
    assert (exc.record, exc.field) == (record, fld) and words in str(exc)


def test_a_null_split_is_a_split_left_out(tmp_path):
    lab = load_context_lab(_with(tmp_path, lambda c: _first_query(c).update(split=None)))
    assert lab.queries[0].split is None
    assert lab == load_context_lab(_with(tmp_path, lambda c: _first_query(c).pop("split", None)))


def test_the_calibration_reads_to_the_labs_records():
    lab = load_context_lab(FIXTURES / "leave_policy_en.json")
    cal = BASE["calibration"]
    assert lab.target_precision == float(cal["target_precision"])
    assert lab.fixed_thresholds == tuple(float(x) for x in cal.get("fixed_thresholds", []))
    assert [q.id for q in lab.queries] == [q["id"] for q in cal["queries"]]
    assert lab.queries[0].candidates == tuple(
        (float(c["score"]), c["relevant"]) for c in cal["queries"][0]["candidates"]
    )


def test_the_schema_bounds_the_target_precision_as_the_reader_does():
    props = declared_schema(Calibration)["$defs"]["Calibration"]["properties"]
    assert props["target_precision"]["exclusiveMinimum"] == 0
    assert props["target_precision"]["maximum"] == 1


TR = json.loads((FIXTURES / "leave_policy_tr.json").read_text(encoding="utf-8"))
EN_KEYS = {
    "cevap": "answer", "iddialar": "claims", "kaynaksiz_iddia_var": "has_unsourced_claim",
    "bilmiyorum": "dont_know", "es_anlamlilar": "synonyms", "metin": "text",
    "parca_kimligi": "chunk_id", "dayanak": "quote", "yeniden_ifade": "restates",
}  # fmt: skip


def _in_english(value):
    if isinstance(value, dict):
        return {EN_KEYS.get(k, k): _in_english(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_in_english(v) for v in value]
    return value


@pytest.mark.parametrize("name", sorted(TR["answers"]))
def test_an_answer_reads_the_same_with_turkish_or_english_keys(name):
    """Invariant: the keys' language changes nothing but the answer's ``language``."""
    from dataclasses import replace

    from claimlab.io.context_lab import parse_answer

    turkish = parse_answer(TR["answers"][name], source="tr.json")
    english = parse_answer(_in_english(TR["answers"][name]), source="en.json")
    assert (turkish.language, english.language) == ("tr", "en")
    assert replace(turkish, language="en") == english


def test_a_claims_error_names_the_answer_and_the_claims_path(tmp_path):
    from claimlab.io.context_lab import load_context_lab

    doc = copy.deepcopy(TR)
    name = next(iter(doc["answers"]))
    del doc["answers"][name]["iddialar"][0]["metin"]
    f = tmp_path / "lab.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ClaimlabInputError) as caught:
        load_context_lab(f)
    exc = caught.value
    assert (exc.record, exc.field) == (f"answers.{name}", "iddialar[0].metin")


def test_every_shipped_answer_fits_its_languages_schema():
    import jsonschema

    from claimlab.io.context_lab import AnswerEn, AnswerTr

    for fixture in ("leave_policy_tr.json", "leave_policy_en.json"):
        answers = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))["answers"]
        for answer in answers.values():
            declaration = AnswerTr if "iddialar" in answer or "cevap" in answer else AnswerEn
            jsonschema.validate(answer, declared_schema(declaration))
