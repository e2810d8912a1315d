"""A large JSON Lines file's typed lines (msgspec) are read as the field-by-field reader reads
them: FEVER gold and predictions, MuSiQue gold and predictions.

Invariant: for any such file, reading it with the typed lines (a large file's path), with the
fast path of type tests only, and with every line walked field by field gives the same records,
or the same error (file, line, field and words). The size from which the typed path is taken is
lowered to 0 here, so small generated files take it.
"""

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.core.errors import ClaimlabInputError
from claimlab.io import fever, official, reader
from tests.io.test_official_fast_reading import musique_paragraphs

HOSTILE = pytest.mark.hostile

texts = st.text(alphabet='aı ก가e\u0301\u00e9\x7f"\\', max_size=3)
odd = st.sampled_from(
    [None, True, False, 1.5, 0, -1, 2**70, -(2**70), "x", "", [], {}, ["t"], [1, 2], 1e300]
)


def _maybe(good):
    """Mostly a good value (the typed path is taken), one time in twenty anything."""
    return st.integers(0, 19).flatmap(lambda n: odd if n == 0 else good)


def _mostly(good, other):
    """``good`` seven times in eight, ``other`` the eighth."""
    return st.integers(0, 7).flatmap(lambda n: other if n == 0 else good)


ids = _maybe(  # mostly distinct; now and then one of a few, so repeated ids come too
    st.integers(0, 9).flatmap(
        lambda n: st.sampled_from([1, "a", "e\u0301", 2**70]) if n == 0 else st.integers(2, 2**62)
    )
)
labels = _maybe(
    _mostly(
        st.sampled_from(["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]),
        st.sampled_from(["supports", "Refutes", "not enough info"]),
    )
)
pages = _maybe(_mostly(texts.filter(bool), st.one_of(st.just(""), st.none())))
numbers = _maybe(_mostly(st.integers(0, 3), st.one_of(st.just(-1), st.none())))
gold_item = _maybe(
    st.tuples(
        _maybe(st.integers(0, 9)), _maybe(st.one_of(st.none(), st.integers(0, 9))), pages, numbers
    ).map(list)
)
gold_line = _maybe(
    st.fixed_dictionaries(
        {
            "id": ids,
            "label": labels,
            "evidence": _maybe(
                st.lists(_maybe(st.lists(gold_item, min_size=1, max_size=3)), max_size=3)
            ),
        },
        optional={"claim": _maybe(texts), "verifiable": _maybe(texts)},
    )
)
predicted = _maybe(st.tuples(pages, numbers).map(list))
prediction_line = _maybe(
    st.fixed_dictionaries(
        {
            "id": ids,
            "predicted_label": labels,
            "predicted_evidence": _maybe(st.lists(predicted, max_size=4)),
        },
    )
)
# a line as written: JSON with or without escapes, or now and then text that is no one line
spellings = _mostly(
    st.just("plain"),
    st.sampled_from(
        ["ascii", "two on a line", "split", "blank before", "a field more", "no evidence", "crlf"]
    ),
)


def _written(value, spelling):
    if spelling == "a field more" and isinstance(value, dict):
        value = {**value, "note": [1e300, None, "x"]}
    if spelling == "no evidence" and isinstance(value, dict):
        value = {k: v for k, v in value.items() if k != "predicted_evidence"}
    text = json.dumps(value, ensure_ascii=spelling == "ascii")
    if spelling == "two on a line":
        return f"{text} {text}\n"
    if spelling == "split" and text.startswith("{") and "," in text:
        return text.replace(",", ",\n", 1) + "\n"
    end = "\r\n" if spelling == "crlf" else "\n"
    return ("\n  \n" if spelling == "blank before" else "") + text + end


def _outcome(load, path):
    try:
        return ("read", load(path))
    except ClaimlabInputError as exc:
        return ("refused", str(exc), exc.field)


# each reader's fast paths (None-returning when walked) by module
FAST = {
    fever: {"_gold_fast": lambda _obj: None, "_prediction_fast": lambda _obj, _req: None},
    official: {
        "_musique_gold_fast": lambda _obj, _seen: None,
        "_musique_prediction_fast": lambda _obj: None,
        "_hotpot_gold_fast": lambda _obj: None,
        "_facts_fast": lambda _value: None,
    },
}


def three_ways(load, lines, spelling, *, bom=False):
    """The reader's outcome typed, by its fast path only, and walked field by field."""
    text = "".join(_written(v, s) for v, s in zip(lines, spelling, strict=False))
    return _three_outcomes(load, "file.jsonl", (b"\xef\xbb\xbf" if bom else b"") + text.encode())


def _three_outcomes(load, name, content):
    """``load``'s outcome on a file of ``content``: typed, by its fast path only, and walked."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_bytes(content)
        outcomes = []
        for typed_from, walk in ((0, False), (1 << 60, False), (1 << 60, True)):
            with pytest.MonkeyPatch.context() as m:
                m.setattr(reader, "TYPED_FROM", typed_from)
                for module, fast in FAST.items() if walk else ():
                    for name, none in fast.items():
                        m.setattr(module, name, none)
                outcomes.append(_outcome(load, path))
    return outcomes


musique_paragraph = musique_paragraphs(texts, _maybe)
musique_gold = _maybe(
    st.fixed_dictionaries(
        {
            "id": _maybe(_mostly(st.sampled_from(["m1", "m2", "m3", 7, 8]), ids)),
            "answer": _maybe(texts),
            "paragraphs": _maybe(st.lists(musique_paragraph, max_size=3)),
        },
        optional={
            "answer_aliases": _maybe(st.lists(_maybe(texts), max_size=2)),
            "answerable": _maybe(st.booleans()),
            "question": _maybe(texts),
            "question_decomposition": _maybe(
                st.lists(
                    st.fixed_dictionaries({"id": _maybe(st.integers(0, 9)), "question": texts}),
                    max_size=2,
                )
            ),
        },
    )
)
musique_prediction = _maybe(
    st.fixed_dictionaries(
        {
            "id": _maybe(st.sampled_from(["m1", "m2", 7, 2**70])),
            "predicted_answer": _maybe(texts),
            "predicted_support_idxs": _maybe(st.lists(_maybe(st.integers(0, 3)), max_size=3)),
        },
        optional={"predicted_answerable": _maybe(st.booleans())},
    )
)

LOADERS = {
    "fever gold": (fever.load_gold, gold_line),
    "fever predictions": (fever.load_predictions, prediction_line),
    "fever predictions, evidence optional": (
        lambda p: fever.load_predictions(p, require_evidence=False),
        prediction_line,
    ),
    "musique gold": (official.load_musique_gold, musique_gold),
    "musique predictions": (official.load_musique_predictions, musique_prediction),
}


@HOSTILE
@pytest.mark.parametrize("name", sorted(LOADERS))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_a_file_read_typed_is_read_field_by_field(name, data):
    load, line = LOADERS[name]
    lines = data.draw(st.lists(line, max_size=4))
    spelling = data.draw(st.lists(spellings, min_size=len(lines), max_size=len(lines)))
    typed, fast, walked = three_ways(load, lines, spelling, bom=data.draw(st.booleans()))
    assert typed == fast == walked


def typed_only(monkeypatch, module, *names):
    """Typed lines from any size on, and the module's other ways of reading a line refusing."""
    monkeypatch.setattr(reader, "TYPED_FROM", 0)

    def refuse(*_a):
        raise AssertionError("not the typed path")

    for name in names:
        monkeypatch.setattr(module, name, refuse)


def test_well_formed_lines_are_read_typed_alone(tmp_path, monkeypatch):
    """With the size lowered, a well-formed file's records come from its typed lines only
    (the other two paths refuse everything here), and are the records the readers give."""
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    gold.write_text(
        json.dumps({"id": 1, "label": "SUPPORTS", "claim": "ก", "verifiable": "VERIFIABLE",
                    "evidence": [[[1, 2, "P", 0], [3, 4, "Q", 2]], [[5, None, "R", 1]]]}, ensure_ascii=False) + "\n"
        + json.dumps({"id": "x", "label": "NOT ENOUGH INFO", "evidence": [[[7, None, None, None]]]}),
        encoding="utf-8",
    )  # fmt: skip
    pred.write_text(
        json.dumps({"id": 1, "predicted_label": "REFUTES", "predicted_evidence": [["P", 0]]})
        + "\n" + json.dumps({"id": "x", "predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []}),
        encoding="utf-8",
    )  # fmt: skip
    want = fever.load_gold(gold), fever.load_predictions(pred)
    typed_only(monkeypatch, fever, "_gold_fast", "_gold_checked", "_prediction_fast",
               "_prediction_checked")  # fmt: skip
    assert (fever.load_gold(gold), fever.load_predictions(pred)) == want
    assert want[0][0].groups == ((("P", 0), ("Q", 2)), (("R", 1),)) and want[0][1].groups == ()


def test_invalid_utf8_anywhere_leaves_the_typed_path(tmp_path, monkeypatch):
    """A typed decoder skips unknown bytes unchecked: a file that is not UTF-8 is read as any
    other, and refused naming its line."""
    monkeypatch.setattr(reader, "TYPED_FROM", 0)
    path = tmp_path / "p.jsonl"
    path.write_bytes(
        b'{"id": 1, "predicted_label": "SUPPORTS", "predicted_evidence": [["P\xff", 0]]}\n'
    )
    with pytest.raises(ClaimlabInputError, match="line 1"):
        fever.load_predictions(path)


def _spy_on_typed_reading(monkeypatch):
    """A set that gathers "typed" or "declined" for each line (or document) decoded typed."""
    seen = set()
    typed_lines = reader._typed_lines

    def spy(data, typed):
        decode = typed_lines(data, typed)

        def counted(raw):
            record = decode(raw)
            seen.add("typed" if record is not None else "declined")
            return record

        return counted if decode is not None else None

    monkeypatch.setattr(reader, "_typed_lines", spy)
    return seen


@HOSTILE
@pytest.mark.parametrize("name", sorted(LOADERS))
def test_the_generated_files_reach_typed_lines_and_both_outcomes(name, monkeypatch):
    """The strategies above reach lines read typed and lines declined, files read and files
    refused (not only one kind)."""
    seen = _spy_on_typed_reading(monkeypatch)

    load, line = LOADERS[name]

    @settings(max_examples=200, deadline=None)
    @given(st.lists(line, max_size=3), st.lists(spellings, min_size=3, max_size=3))
    def look(lines, spelling):
        seen.add(three_ways(load, lines, spelling)[0][0])

    look()
    assert seen == {"typed", "declined", "read", "refused"}


def test_well_formed_musique_lines_are_read_typed_alone(tmp_path, monkeypatch):
    """A question and its unanswerable twin, and their predictions, read from typed lines only;
    a third record of the id is refused naming its line, as the readers name it."""
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    record = {"id": "2hop_1", "answer": "อุบล", "answer_aliases": ["Ubon"], "question": "q",
              "paragraphs": [{"idx": 0, "title": "T", "paragraph_text": "x", "is_supporting": True},
                             {"idx": 1, "title": "U", "paragraph_text": "y"}],
              "question_decomposition": [{"id": 5, "question": "a", "answer": "b",
                                          "paragraph_support_idx": None}]}  # fmt: skip
    lines = [record, {**record, "answerable": False}]
    gold.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8")
    pred.write_text(
        json.dumps({"id": "2hop_1", "predicted_answer": "Ubon", "predicted_support_idxs": [0, 1]})
        + "\n" + json.dumps({"id": "2hop_1", "predicted_answer": "", "predicted_support_idxs": [],
                             "predicted_answerable": False}),
        encoding="utf-8",
    )  # fmt: skip
    want = official.load_musique_gold(gold), official.load_musique_predictions(pred)
    typed_only(monkeypatch, official, "_musique_gold_fast", "_musique_gold_checked",
               "_musique_prediction_fast", "_musique_prediction_checked")  # fmt: skip
    got = official.load_musique_gold(gold), official.load_musique_predictions(pred)
    assert got == want
    assert [g.support for g in got[0]] == [frozenset({0})] * 2 and got[1][0].answerable is None
    with gold.open("a", encoding="utf-8") as f:
        f.write("\n" + json.dumps(record, ensure_ascii=False))
    with pytest.raises(ClaimlabInputError, match=r"line 3 \(id 2hop_1\).*appears 3 times"):
        official.load_musique_gold(gold)


def test_records_read_fast_are_the_frozen_records_the_class_makes(tmp_path):
    """The fast paths fill a record's slots without its __init__: the record is the one the
    class makes (equal, same hash and repr), and as frozen."""
    import dataclasses

    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    evidence = [[[1, 2, "Pàgina", 0], [1, 3, "Other", 4]]]
    gold.write_text(json.dumps({"id": 7, "label": "SUPPORTS", "claim": "c", "evidence": evidence}))
    pred.write_text(
        json.dumps({"id": 7, "predicted_label": "REFUTES", "predicted_evidence": [["P", 1]]})
    )
    (g,), (p,) = fever.load_gold(gold), fever.load_predictions(pred)
    made = (
        fever.GoldClaim(7, fever.LABELS["SUPPORTS"], "c", ((("Pàgina", 0), ("Other", 4)),)),
        fever.Prediction(7, fever.LABELS["REFUTES"], (("P", 1),)),
    )
    for record, want in zip((g, p), made, strict=True):
        assert type(record) is type(want) and record == want
        assert hash(record) == hash(want) and repr(record) == repr(want)
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.id = 8
        assert not hasattr(record, "__dict__")


# ------------------------------------------------------------------ whole JSON documents
# A large JSON list (HotpotQA's gold as released, MuSiQue's in a list) is decoded typed as a
# whole, and HotpotQA's predictions object too: read as the records' fast path and the walk
# read them, or declined as a whole (one record refused is the whole file read as before).
facts = _maybe(st.lists(_maybe(st.tuples(texts, _maybe(st.integers(-1, 3))).map(list)), max_size=3))
hotpot_gold = _maybe(
    st.fixed_dictionaries(
        {
            "_id": _maybe(_mostly(st.sampled_from(["h1", "h2", "h3", "e\u0301"]), texts)),
            "answer": _maybe(texts),
            "supporting_facts": facts,
        },
        optional={
            "question": _maybe(texts),
            "context": _maybe(
                st.lists(_maybe(st.tuples(texts, _maybe(st.lists(texts, max_size=2))).map(list)))
            ),
            "type": _maybe(st.sampled_from(["bridge", "comparison"])),
            "level": _maybe(st.sampled_from(["easy", "hard"])),
        },
    )
)
keys = st.sampled_from(["h1", "h2", "", "e\u0301", "é", 'q"'])
hotpot_predictions = _maybe(
    st.fixed_dictionaries(
        {
            "answer": _maybe(st.dictionaries(keys, _maybe(texts), max_size=3)),
            "sp": _maybe(st.dictionaries(keys, facts, max_size=3)),
        }
    )
)
document_spellings = st.sampled_from(
    ["plain", "ascii", "indented", "a field more", "bom", "space before", "a key twice"]
)


def _written_document(value, spelling):
    """A JSON document as written: with or without escapes, indented, a field more, a byte
    order mark, white space before it, or a question id written twice in its first object."""
    if spelling == "a field more" and isinstance(value, list) and value:
        value = (
            [*value[:-1], {"note": [1e300, None]} | value[-1]]
            if isinstance(value[-1], dict)
            else value
        )
    if spelling == "a field more" and isinstance(value, dict):
        value = {**value, "note": 1}
    text = json.dumps(
        value, ensure_ascii=spelling == "ascii", indent=1 if spelling == "indented" else None
    )
    if spelling == "a key twice":  # a question id in the answers, or a record's answer
        twice = '"h9": "x", "h9": "y"'
        text = text.replace('"answer": {}', f'"answer": {{{twice}}}', 1)
        text = text.replace('"answer": {"', f'"answer": {{{twice}, "', 1)
        text = text.replace('[{"', '[{"answer": "x", "', 1)
    if spelling == "space before":
        text = " \n\t" + text
    return (b"\xef\xbb\xbf" if spelling == "bom" else b"") + text.encode("utf-8")


DOCUMENTS = {
    "hotpot gold": (official.load_hotpot_gold, st.lists(hotpot_gold, max_size=4)),
    "hotpot predictions": (official.load_hotpot_predictions, hotpot_predictions),
    "musique gold, a list": (official.load_musique_gold, st.lists(musique_gold, max_size=4)),
    "musique predictions, a list": (
        official.load_musique_predictions,
        st.lists(musique_prediction, max_size=4),
    ),
}


@HOSTILE
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_a_document_read_typed_is_read_field_by_field(name, data):
    """Invariant: a JSON document read typed, by the fast paths only and walked field by field
    gives the same records, or the same error (file, record, field and words)."""
    load, document = DOCUMENTS[name]
    content = _written_document(data.draw(document), data.draw(document_spellings))
    typed, fast, walked = _three_outcomes(load, "file.json", content)
    assert typed == fast == walked


@HOSTILE
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_the_generated_documents_reach_typed_reading_and_both_outcomes(name, monkeypatch):
    """The strategies above reach documents read typed and declined, files read and refused."""
    seen = _spy_on_typed_reading(monkeypatch)
    load, document = DOCUMENTS[name]

    @settings(max_examples=200, deadline=None)
    @given(document, document_spellings)
    def look(value, spelling):
        seen.add(_three_outcomes(load, "file.json", _written_document(value, spelling))[0][0])

    look()
    assert seen == {"typed", "declined", "read", "refused"}


def test_hotpot_records_read_typed_are_the_records_the_class_makes(tmp_path, monkeypatch):
    """A HotpotQA gold list and predictions object, and MuSiQue's records, read from the typed
    path alone (the others refuse), are the class's own records: equal, same hash and repr,
    frozen and slotted."""
    import dataclasses

    gold, pred = tmp_path / "gold.json", tmp_path / "pred.json"
    gold.write_text(json.dumps([{"_id": "q", "answer": "อุบล", "supporting_facts": [["T", 1]],
                                 "question": "ที่ไหน", "context": [["T", ["a", "b"]]],
                                 "type": "bridge", "level": "hard"}], ensure_ascii=False),
                    encoding="utf-8")  # fmt: skip
    pred.write_text(json.dumps({"answer": {"q": "Ubon"}, "sp": {"q": [["T", 1], ["U", 0]]}}))
    want_gold = official.HotpotGold("q", "อุบล", frozenset({("T", 1)}), "ที่ไหน", (("T", ("a", "b")),))
    want_pred = official.HotpotPredictions({"q": "Ubon"}, {"q": frozenset({("T", 1), ("U", 0)})})
    typed_only(monkeypatch, official, "_hotpot_gold_fast", "_hotpot_gold_checked", "_facts",
               "_facts_fast", "_hotpot_prediction_object")  # fmt: skip
    (record,) = official.load_hotpot_gold(gold)
    assert official.load_hotpot_predictions(pred) == want_pred
    assert type(record) is official.HotpotGold and record == want_gold
    assert hash(record) == hash(want_gold) and repr(record) == repr(want_gold)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.id = "r"
    assert not hasattr(record, "__dict__")
