"""Agreement between annotators: alpha, kappa and raw agreement pinned to hand computations."""

import copy
import json

import numpy as np
import pytest

from claimlab.core.ratio import Ratio
from claimlab.io.decomposition import load_decomposition
from claimlab.metrics.agreement import alpha_nominal, cohen_kappa, raw_agreement, score_agreement
from tests.conftest import ROOT, run_cli

ATLAS = ROOT / "fixtures" / "atlas_nova.json"


def _cand(doc, cid):
    return next(c for c in doc["candidates"] if c["id"] == cid)


def atlas_pair(tmp_path):
    """Two annotators' files of the Atlas/Nova answer with known disagreements.

    Both leave C9 and C10 under review (no value from either), so 9 candidates are items.
    B, unlike A: C7 faithful (no qualifier error, preserves U1); C11 atomic; C4 SUPPORTED
    (R2); C5 NOT_IN_REFERENCE. Units are the same.
    """
    base = json.loads(ATLAS.read_text(encoding="utf-8"))
    a, b = copy.deepcopy(base), copy.deepcopy(base)
    for doc, name in ((a, "A"), (b, "B")):
        doc["annotation"] = {"annotator": name, "updated": "2026-11-20T10:00:00+00:00", "log": []}
        for cid in ("C9", "C10"):
            _cand(doc, cid)["review"] = ["errors"]
    c7 = _cand(b, "C7")
    c7.update(faithful=True, errors=[], preserves=["U1"])
    _cand(b, "C11")["atomic"] = True
    _cand(b, "C4")["evidence"] = {"status": "SUPPORTED", "references": ["R2"]}
    _cand(b, "C5")["evidence"] = {"status": "NOT_IN_REFERENCE", "references": []}
    paths = []
    for doc, name in ((a, "a"), (b, "b")):
        p = tmp_path / f"atlas.{name}.json"
        p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        paths.append(p)
    return paths


# field, alpha, kappa, raw agreement (agree/items); by hand, with n = 2 x items pairable values,
# alpha = 1 - (n - 1) * sum(o_ck, c != k) / sum(n_c * n_k, c != k) and
# kappa = (p_o - p_e) / (1 - p_e), p_e = sum(share_A(c) * share_B(c))
EXPECTED = [
    # faithful, 9 items: A 7 true 2 false, B 8 true 1 false, one disagreement (C7)
    # alpha: n=18, n_T=15, n_F=3: 1 - 17*2/(2*15*3) = 1 - 34/90 = 0.622222
    # kappa: p_o = 8/9, p_e = (7*8 + 2*1)/81 = 58/81: (72-58)/(81-58) = 14/23 = 0.608696
    ("faithful", 0.622222, 0.608696, Ratio(8, 9)),
    # atomic: A 8 true 1 false (C11), B 9 true
    # alpha: n=18, n_T=17, n_F=1: 1 - 17*2/(2*17*1) = 0; kappa: p_o = p_e = 8/9: 0
    ("atomic", 0.0, 0.0, Ratio(8, 9)),
    # qualifier error: A only on C7, B on none: the same shape as atomic
    ("error: qualifier", 0.0, 0.0, Ratio(8, 9)),
    # introduced error: both on C8 only: perfect agreement, both categories present
    ("error: introduced", 1.0, 1.0, Ratio(9, 9)),
    # evidence status, 9 items. A: SUPPORTED 6, NOT_IN_REFERENCE 1 (C4), CONTRADICTED 2 (C5, C7);
    # B: SUPPORTED 7, NOT_IN_REFERENCE 1 (C5), CONTRADICTED 1; disagreements C4 and C5
    # alpha: n=18; n_S=13, n_N=2, n_C=3; sum n_c*n_k (c != k) = 18^2 - (169+4+9) = 142;
    #        sum o_ck (c != k) = 4: 1 - 17*4/142 = 74/142 = 0.521127
    # kappa: p_o = 7/9, p_e = (6*7 + 1*1 + 2*1)/81 = 45/81: (63-45)/(81-45) = 0.5
    ("evidence status", 0.521127, 0.5, Ratio(7, 9)),
    # preserves: 9 candidates x 5 unit spans = 45 items; A 8 true, B 9 true (C7 preserves U1)
    # alpha: n=90, n_T=17, n_F=73: 1 - 89*2/(2*17*73) = 1 - 178/2482 = 0.928284
    # kappa: p_o = 44/45, p_e = (8*9 + 37*36)/2025 = 1404/2025: 576/621 = 0.927536
    ("preserves", 0.928284, 0.927536, Ratio(44, 45)),
]


@pytest.mark.parametrize(("field", "alpha", "kappa", "raw"), EXPECTED, ids=[e[0] for e in EXPECTED])
def test_atlas_pair_gives_the_hand_computed_figures(tmp_path, field, alpha, kappa, raw):
    report = score_agreement([load_decomposition(p) for p in atlas_pair(tmp_path)])
    f = report.field(field)
    assert f.alpha.value == pytest.approx(alpha, abs=1e-6)
    assert f.kappa.value == pytest.approx(kappa, abs=1e-6)
    assert f.raw == raw
    assert (f.items, f.annotators) == (raw.denominator, 2)


@pytest.mark.parametrize("field", ["error: entity", "error: version"])
def test_a_field_where_everyone_chose_one_value_is_na_with_a_reason(tmp_path, field):
    # C9 (entity) and C10 (version) are under review in both files: the rest are all "false"
    f = score_agreement([load_decomposition(p) for p in atlas_pair(tmp_path)]).field(field)
    assert f.alpha.value is None and f.kappa.value is None
    assert "same category (false)" in f.alpha.reason
    assert "one category (false)" in f.kappa.reason
    assert f.raw == Ratio(9, 9) and f.categories == ("false",)


def test_same_units_agree_perfectly_and_disagreements_list_item_and_values(tmp_path):
    report = score_agreement([load_decomposition(p) for p in atlas_pair(tmp_path)])
    assert report.field("unit boundaries").alpha.value == 1.0
    listed = {(d.field, d.item): d.values for d in report.disagreements}
    assert listed[("faithful", "C7")] == ("false", "true")
    assert listed[("evidence status", "C4")] == ("NOT_IN_REFERENCE", "SUPPORTED")
    assert ("faithful", "C9") not in listed  # under review: no value, no disagreement
    assert len(report.disagreements) == 6  # faithful, atomic, qualifier, two statuses, C7 x U1


def test_each_annotators_labels_give_their_own_toy_ratios(tmp_path):
    report = score_agreement(
        [load_decomposition(p) for p in atlas_pair(tmp_path)], selection="baseline"
    )
    a, b = report.figures
    # baseline C1..C5: A supports C1-C3 (3/5); B also C4 (4/5)
    assert a.ratios["confirmed_support"] == Ratio(3, 5)
    assert b.ratios["confirmed_support"] == Ratio(4, 5)
    assert a.under_review == b.under_review == 2


# alpha over annotators x items with missing values, by hand:
# items (a,a,b), (a,b,b), (-,b,b): coincidences o_aa=1, o_ab=o_ba=2, o_bb=3; n_a=3, n_b=5, n=8;
# alpha = 1 - 7*4/(2*3*5) = 1 - 28/30 = 0.066667; raw agreement: only the third item, 1/3
def test_alpha_with_three_annotators_and_a_missing_value():
    rows = [["a", "a", None], ["a", "b", "b"], ["b", "b", "b"]]
    assert alpha_nominal(rows).value == pytest.approx(0.066667, abs=1e-6)
    assert raw_agreement(rows) == Ratio(1, 3)


@pytest.mark.parametrize(
    ("a", "b", "value", "reason"),
    [
        (["x", "y"], ["x", "y"], 1.0, ""),
        (["x", "x"], ["x", "x"], None, "one category (x)"),
        ([None, None], ["x", "y"], None, "no item was labelled by both"),
        (["x", "y", "x", "y"], ["y", "x", "y", "x"], -1.0, ""),  # p_o 0, p_e 1/2
    ],
)
def test_cohen_kappa_table(a, b, value, reason):
    k = cohen_kappa(a, b)
    assert k.value == value and reason in k.reason


def test_one_annotator_is_refused_and_other_answers_are_refused(tmp_path):
    a, _ = atlas_pair(tmp_path)
    proc = run_cli("agreement", a)
    assert proc.returncode == 2 and "two or more" in proc.stderr
    other = ROOT / "fixtures" / "ferry_lines.json"
    proc = run_cli("agreement", a, other)
    assert proc.returncode == 2
    assert str(other) in proc.stderr and "original" in proc.stderr and proc.stderr.count("\n") == 1


def test_agreement_command_text_and_json(tmp_path):
    paths = atlas_pair(tmp_path)
    proc = run_cli("agreement", *paths, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    fields = {f["field"]: f for f in data["fields"]}
    assert fields["faithful"]["alpha"]["value"] == pytest.approx(0.622222, abs=1e-6)
    assert fields["error: entity"]["alpha"] == {
        "value": None,
        "reason": "every value is the same category (false): agreement cannot be told from chance",
    }
    assert fields["faithful"]["raw_agreement"]["numerator"] == 8
    text = run_cli("agreement", *paths, "--mode", "baseline").stdout
    assert "faithful" in text and "0.622" in text and "8/9" in text
    assert "N/A: error: entity: alpha: every value is the same category" in text
    assert "faithful: C7: A=false, B=true" in text


def test_shipped_annotators_disagree_on_unit_boundaries_and_atomicity():
    files = sorted((ROOT / "fixtures" / "annotations").glob("*.json"))
    report = score_agreement([load_decomposition(p) for p in files])
    items = [d.item for d in report.disagreements if d.field == "unit boundaries"]
    assert len(items) == 3  # one annotator split a sentence in two units
    assert report.field("unit boundaries").alpha.value < 1.0
    assert report.field("atomic").raw.numerator < report.field("atomic").raw.denominator


def test_alpha_and_kappa_equal_krippendorff_and_scikit_learn_on_random_labels():
    """The count-based coefficients against the reference packages, weighted columns included."""
    import krippendorff
    from sklearn.metrics import cohen_kappa_score

    from claimlab.metrics.agreement import alpha_codes, kappa_codes

    rng = np.random.default_rng(11)
    for trial in range(60):
        m, n, k = int(rng.integers(2, 5)), int(rng.integers(3, 40)), int(rng.integers(2, 5))
        codes = rng.integers(0, k, size=(m, n)).astype(np.int8)
        codes[rng.random((m, n)) < 0.2] = -1  # missing values
        cats = tuple(f"c{j}" for j in range(k))
        data = np.where(codes < 0, np.nan, codes.astype(float))
        pairable = (codes >= 0).sum(axis=0) >= 2
        seen = np.unique(codes[:, pairable][codes[:, pairable] >= 0])
        ours = alpha_codes(codes, cats)
        if len(seen) < 2:
            assert ours.value is None
            continue
        ref = krippendorff.alpha(reliability_data=data, value_domain=list(range(k)),
                                 level_of_measurement="nominal")  # fmt: skip
        assert ours.value == pytest.approx(ref, abs=1e-6), trial
        # a column of weight 3 is three identical columns
        w = rng.integers(1, 4, size=n)
        repeated = np.repeat(codes, w, axis=1)
        assert alpha_codes(codes, cats, w).value == pytest.approx(
            alpha_codes(repeated, cats).value, abs=1e-6
        )
        both = (codes[0] >= 0) & (codes[1] >= 0)
        if both.sum() and len(set(codes[0, both]) | set(codes[1, both])) > 1:
            ref_k = cohen_kappa_score(codes[0, both], codes[1, both])
            assert kappa_codes(codes[0], codes[1], cats).value == pytest.approx(ref_k, abs=1e-6)


def _random_answer(rng, k, annotators):
    """One answer's files by ``annotators`` people: three sentences, random labels per person.

    Units are the sentences for everyone, except where a person (one answer in four) splits
    the first sentence in two, so that the answer's files no longer line up.
    """
    sentences = [f"Stop {k} opens at {j + 6} am." for j in range(3)]
    text = " ".join(sentences)
    starts = [text.index(s) for s in sentences]
    docs = []
    for who in range(annotators):
        units = [
            {"id": f"U{j + 1}", "span": {"start": a, "end": a + len(s), "text": s}}
            for j, (a, s) in enumerate(zip(starts, sentences, strict=True))
        ]
        if k % 4 == 3 and who == 0:
            cut = starts[0] + len(f"Stop {k}")
            units[0] = {"id": "U1", "span": {"start": 0, "end": cut, "text": text[:cut]}}
        ids = [u["id"] for u in units]
        cands = []
        for c in range(4):
            keep = [u for u in ids if rng.random() < 0.4]
            faithful = bool(keep) and bool(rng.random() < 0.8)
            cands.append({
                "id": f"S{c}", "text": sentences[c % 3], "entity": "", "source_spans": [
                    {"start": 0, "end": len(text), "text": text}],
                "version": "", "predicate": "", "qualifiers": [],
                "fingerprint": f"s{c}", "preserves": keep, "faithful": faithful,
                "atomic": True, "errors": [] if faithful else ["introduced"], "evidence": {"status": "SUPPORTED",
                "references": ["R1"]}, "review": ["faithful"] if rng.random() < 0.2 else [],
            })  # fmt: skip
        docs.append({
            "format": "claimlab/decomposition@1", "offset_unit": "utf16",
            "original": {"id": f"a{k}", "version": "1", "text": text}, "units": units,
            "references": [{"id": "R1", "title": "T", "version": "1", "text": text}],
            "candidates": cands, "annotation": {"annotator": f"P{who}", "updated": "", "log": []},
        })  # fmt: skip
    return docs


@pytest.mark.parametrize("annotators", [2, 3])
def test_every_field_pooled_equals_each_answers_own_coding(annotators):
    """Lined-up answers are pooled from their files' own codes (transposed per annotator);
    each answer's columns equal its own coding, also where a file's units are still proposed
    (no boundary values: -1 for every character)."""
    from claimlab.io.annotations import AnswerKey
    from claimlab.io.decomposition import read_decomposition
    from claimlab.metrics.agreement_items import BOUNDARIES, FIELDS, file_items, pool

    rng = np.random.default_rng(10 + annotators)
    keys, groups = [], []
    for k in range(30):
        docs = _random_answer(rng, k, annotators)
        if k % 5 == 1:  # the last annotator has not confirmed the units yet
            for u in docs[-1]["units"]:
                u["review"] = ["span"]
        keys.append(AnswerKey("", f"a{k}"))
        groups.append(tuple(file_items(read_decomposition(d, source=f"f{k}")) for d in docs))
    p = pool(keys, groups, annotators)
    assert p.lined_up[1] and not p.lined_up[3]
    for name in FIELDS:
        if name == "preserves":
            continue
        for k in range(len(keys)):
            mine = p.codes[name][:, p.owner[name] == k]
            assert np.array_equal(mine, p.answer(k).codes[name]), (name, k)
    unconfirmed = p.codes[BOUNDARIES][:, p.owner[BOUNDARIES] == 1]
    assert unconfirmed.shape[1] == len("Stop1opensat6am.Stop1opensat7am.Stop1opensat8am.")
    assert (unconfirmed[-1] == -1).all() and (unconfirmed[0] >= 0).all()
    # answers none of which lines up: every field is still coded in int8, one column an item
    apart = [k for k in range(len(keys)) if not p.lined_up[k]]
    q = pool([keys[k] for k in apart], [groups[k] for k in apart], annotators)
    for name in FIELDS:
        assert q.codes[name].dtype == np.int8 and q.codes[name].shape[0] == annotators, name
        assert len(q.start[name]) == len(apart) and q.start[name].dtype == np.int64, name


@pytest.mark.parametrize("annotators", [2, 3])
def test_preserves_coded_from_keep_masks_equal_the_answer_by_answer_coding(annotators):
    """Lined-up answers are coded together from bit masks; the figures and each answer's
    columns equal those of the answer-by-answer coding (masks left out)."""
    from claimlab.io.annotations import AnswerKey
    from claimlab.io.decomposition import read_decomposition
    from claimlab.metrics.agreement import field_agreement
    from claimlab.metrics.agreement_items import disagreements, file_items, pool

    rng = np.random.default_rng(annotators)
    keys, groups = [], []
    for k in range(40):
        docs = _random_answer(rng, k, annotators)
        keys.append(AnswerKey("", f"a{k}"))
        groups.append(tuple(file_items(read_decomposition(d, source=f"f{k}")) for d in docs))
    plain = [tuple(f._replace(keeps=None) for f in g) for g in groups]
    fast, slow = pool(keys, groups, annotators), pool(keys, plain, annotators)
    assert fast.lined_up.count(True) == 30  # one answer in four is not lined up
    for k in range(len(keys)):
        mine = fast.codes["preserves"][:, fast.owner["preserves"] == k]
        theirs = slow.codes["preserves"][:, slow.owner["preserves"] == k]
        assert np.array_equal(mine, theirs), k
    for name in ("preserves", "faithful"):
        a = field_agreement(name, fast.codes[name], weights=fast.weights[name])
        b = field_agreement(name, slow.codes[name], weights=slow.weights[name])
        assert a == b and a.items > 0
    assert disagreements(fast) == disagreements(slow) != []
    # a lined-up answer's items are named from its first file, as coding the answer names them
    import dataclasses

    recoded = dataclasses.replace(fast, lined_up=(False,) * len(keys))
    assert disagreements(recoded) == disagreements(fast)


@pytest.mark.parametrize(
    ("change", "refused"),
    [
        ({}, False),  # the same answer
        ({"text": " And one more sentence."}, True),  # the same id, another text
        ({"id": "another-id"}, True),  # the same text, another id
        ({"id": "Cafe\u0301"}, False),  # the same id once NFC-normalised
    ],
)
def test_files_of_one_answer_only(tmp_path, change, refused):
    from claimlab.core.errors import FixtureError
    from claimlab.metrics.agreement import check_same_answer

    a, b = atlas_pair(tmp_path)
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in (a, b)]
    if "id" in change:
        docs[0]["original"]["id"] = "Caf\u00e9"  # precomposed
    if "text" in change:
        docs[1]["original"]["text"] += change["text"]
    else:
        docs[1]["original"].update(change)
    for doc, p in zip(docs, (a, b), strict=True):
        p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    fixtures = [load_decomposition(p) for p in (a, b)]
    if not refused:
        check_same_answer(fixtures)
        return
    with pytest.raises(FixtureError) as info:
        check_same_answer(fixtures)
    assert str(info.value).startswith(f"{b}: original: is not an annotation of the same answer")


def _field_dict(name, alpha, kappa, raw, categories, items=None, answers=1):
    return {
        "field": name,
        "answers": answers,
        "items": raw.denominator if items is None else items,
        "annotators": 2,
        "categories": categories,
        "alpha": {"value": pytest.approx(alpha, abs=1e-6), "reason": None},
        "kappa": {"value": pytest.approx(kappa, abs=1e-6), "reason": None},
        "raw_agreement": raw.to_dict(),
    }


def test_the_json_form_of_a_report(tmp_path):
    a, b = atlas_pair(tmp_path)
    report = score_agreement([load_decomposition(p) for p in (a, b)], selection="baseline")
    d = report.to_dict()
    assert list(d) == ["annotators", "files", "answers", "decompositions",
                       "answers_with_one_annotator", "fields", "disagreements", "figures"]  # fmt: skip
    assert (d["annotators"], d["files"]) == (["A", "B"], [str(a), str(b)])
    assert (d["answers"], d["decompositions"], d["answers_with_one_annotator"]) == (1, 1, [])
    fields = {f["field"]: f for f in d["fields"]}
    assert fields["faithful"] == _field_dict(
        "faithful", 0.622222, 0.608696, Ratio(8, 9), ["false", "true"]
    )
    assert fields["evidence status"] == _field_dict(
        "evidence status", 0.521127, 0.5, Ratio(7, 9),
        ["CONTRADICTED", "NOT_IN_REFERENCE", "SUPPORTED"],
    )  # fmt: skip
    na = fields["error: entity"]
    assert na["alpha"]["value"] is None and na["alpha"]["reason"].startswith("every value")
    assert na["kappa"] == {"value": None, "reason": report.field("error: entity").kappa.reason}
    assert {"item": "C4", "field": "evidence status",
            "values": {"A": "NOT_IN_REFERENCE", "B": "SUPPORTED"}} in d["disagreements"]  # fmt: skip
    assert d["figures"]["selection"] == "baseline"
    first = d["figures"]["by_annotator"][0]
    assert first == {
        "annotator": "A",
        "file": str(a),
        "answers": 1,
        "preservation": Ratio(5, 5).to_dict(),
        "coverage": Ratio(5, 5).to_dict(),
        "confirmed_support": Ratio(3, 5).to_dict(),
        "raw_support": Ratio(3, 5).to_dict(),
        "candidates_under_review": 2,
    }
    assert d["figures"]["by_annotator"][1]["confirmed_support"] == Ratio(4, 5).to_dict()
    with pytest.raises(KeyError):
        report.field("no such field")


def test_pooled_folders_give_the_same_figures_and_each_answers_row(tmp_path):
    from claimlab.metrics.agreement import (
        POOLING_STEPS,
        load_for_agreement,
        score_pooled_agreement,
    )

    a, b = atlas_pair(tmp_path)
    one = score_agreement([load_decomposition(p) for p in (a, b)])
    sets, items = load_for_agreement([str(a), str(b)])
    pooled = score_pooled_agreement(sets, items, per_answer=True)
    d = pooled.to_dict()
    for name, alpha, kappa, raw in EXPECTED:
        f = pooled.field(name)
        assert (f.alpha.value, f.kappa.value, f.raw, f.answers) == (
            pytest.approx(alpha, abs=1e-6), pytest.approx(kappa, abs=1e-6), raw, 1
        )  # fmt: skip
    assert [f.to_dict() for f in pooled.fields] == [f.to_dict() for f in one.fields]
    assert (d["answers"], d["decompositions"], d["answers_with_one_annotator"]) == (1, 1, [])
    (row,) = d["per_answer"]
    assert (row["answer"], row["annotators"]) == ("A1", 2)
    assert [f["field"] for f in row["fields"]] == [f.field for f in pooled.fields]
    by_field = {f["field"]: f for f in row["fields"]}
    assert by_field["faithful"]["alpha"]["value"] == pytest.approx(0.622222, abs=1e-6)
    ticks = []  # the command's "pairing answers" line counts these steps
    assert score_pooled_agreement(sets, items, progress=ticks.append).to_dict() == {
        k: v for k, v in d.items() if k != "per_answer"
    }
    assert ticks == [1] * POOLING_STEPS and POOLING_STEPS == 12
    read = []  # the command's "reading files" line counts the files read
    _, chosen = load_for_agreement([str(a), str(b)], selection="baseline", progress=read.append)
    assert sum(read) == 2 and {f.selection for f in chosen.values()} == {"baseline"}
    assert {f.selection for f in items.values()} == {"all candidates"}
    figures = [f.to_dict() for f in pooled.figures]
    assert [f["annotator"] for f in figures] == ["A", "B"]
    assert figures[0]["candidates_under_review"] == 2 and figures[0]["answers"] == 1


@pytest.mark.parametrize(
    ("rows", "alpha", "raw", "reason"),
    [
        # the worked example above: six decimals exactly
        ([["a", "a", None], ["a", "b", "b"], ["b", "b", "b"]], 0.066667, Ratio(1, 3), ""),
        # an item two agree on with the third missing counts as agreement (first category too)
        # alpha: n_a 3, n_b 2, o_aa 2, o_bb 1: 1 - 4 * (5 - 3) / (25 - 13) = 0.333333
        ([["a", "b"], ["a", "b"], [None, "a"]], 0.333333, Ratio(1, 2), ""),
        ([["a", None], [None, "b"]], None, Ratio(0, 0), "no item was labelled by two annotators"),
        ([["a", "a"], ["a", "a"]], None, Ratio(2, 2),
         "every value is the same category (a): agreement cannot be told from chance"),
        ([], None, Ratio(0, 0), "no item was labelled by two annotators"),
    ],
)  # fmt: skip
def test_alpha_and_raw_agreement_table(rows, alpha, raw, reason):
    a = alpha_nominal(rows)
    assert (a.value, a.reason) == (alpha, reason)
    assert raw_agreement(rows) == raw
    assert a.to_dict() == {"value": alpha, "reason": reason or None}
    assert a.display == (f"{alpha:.3f}" if alpha is not None else f"N/A ({reason})")


def test_kappa_rounds_to_six_decimals_and_names_its_reasons():
    k = cohen_kappa(["x", "y", "y"], ["x", "y", "x"])  # p_o 2/3, p_e 4/9: (6-4)/(9-4) = 0.4
    assert k.value == 0.4
    # p_o 3/5, p_e (4 + 9)/25: (15 - 13)/(25 - 13) = 1/6, to six decimals
    assert cohen_kappa(["x", "x", "y", "y", "y"], ["x", "y", "y", "y", "x"]).value == 0.166667
    assert cohen_kappa([None], ["x"]).reason == "no item was labelled by both annotators"


def test_a_field_of_three_annotators_has_no_kappa_and_counts_answers_given():
    import numpy as np

    from claimlab.metrics.agreement import field_agreement

    codes = np.array([[0, 1, 1], [0, 1, 0], [0, -1, 1]], dtype=np.int8)
    f = field_agreement("faithful", codes)
    assert f.kappa.value is None
    assert f.kappa.reason == "Cohen's kappa is for two annotators (3 here)"
    assert (f.items, f.annotators, f.answers, f.categories) == (3, 3, 1, ("false", "true"))
    assert f.raw == Ratio(2, 3)  # items 1 (all false) and 2 (two true, one missing)
    assert field_agreement("faithful", codes, answers=4).answers == 4
    two = field_agreement("faithful", codes[:2])
    assert two.kappa.value is not None and two.annotators == 2


def test_answers_with_an_item_two_annotators_labelled_over_folders(tmp_path):
    import shutil

    from claimlab.metrics.agreement import load_for_agreement, score_pooled_agreement

    a, b = atlas_pair(tmp_path)
    fa, fb = tmp_path / "A", tmp_path / "B"
    fa.mkdir()
    fb.mkdir()
    shutil.copy(a, fa / "atlas.json")
    shutil.copy(b, fb / "atlas.json")
    shutil.copy(ROOT / "fixtures" / "ferry_lines.json", fa / "ferry.json")  # A alone
    sets, items = load_for_agreement([str(fa), str(fb)])
    report = score_pooled_agreement(sets, items, per_answer=True)
    d = report.to_dict()
    assert (d["answers"], d["decompositions"]) == (2, 2)
    assert len(d["answers_with_one_annotator"]) == 1
    assert all(f.answers == 1 for f in report.fields)  # only the shared answer has pairs
    assert report.field("faithful").raw == Ratio(8, 9)
    assert [r.annotators for r in report.per_answer] == [2, 1] or [
        r.annotators for r in report.per_answer
    ] == [1, 2]
    assert all(f.answers == 1 for r in report.per_answer for f in r.fields)
    a_fig = report.figures[0]
    assert a_fig.answers == 2 and report.figures[1].answers == 1


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("weighted", [False, True])
def test_two_annotators_figures_from_their_table_equal_those_by_item(seed, weighted):
    """The one-pass table of two annotators' pairs gives exactly the by-item figures: random
    fields of 0-30 items, missing values, one category only, weights up to 10^9."""
    from claimlab.metrics.agreement import _by_item, _two_annotators

    rng = np.random.default_rng(seed)
    name = ("faithful", "evidence status", "unit boundaries")[seed % 3]
    k = 2 if name == "faithful" else 3
    n = int(rng.integers(0, 31))
    codes = rng.integers(-1, 1 + (seed % 4 != 0) * (k - 1), size=(2, n)).astype(np.int8)
    weights = rng.integers(0, 10**9, size=n).astype(np.int64) if weighted else None
    assert _two_annotators(name, codes, 3, weights) == _by_item(name, codes, 3, weights)


def test_the_pair_table_counts_each_pair_once_and_weights_them():
    from claimlab.metrics.agreement import pair_table

    a = np.array([0, 0, 1, -1, 1, -1], dtype=np.int8)
    b = np.array([0, 1, 1, 0, -1, -1], dtype=np.int8)
    assert pair_table(a, b, 2).tolist() == [[1, 1, 0], [0, 1, 1], [1, 0, 1]]
    w = np.array([5, 7, 11, 13, 17, 19], dtype=np.int64)
    assert pair_table(a, b, 2, w).tolist() == [[19, 13, 0], [0, 5, 7], [17, 0, 11]]
    big = w + (1 << 53)  # past a float's 53 bits: still counted to the unit
    table = pair_table(a, b, 2, big)
    assert table.tolist() == (np.array([[19, 13, 0], [0, 5, 7], [17, 0, 11]]) + np.array(
        [[1, 1, 0], [0, 1, 1], [1, 0, 1]]) * (1 << 53)).tolist()  # fmt: skip
    assert table.dtype == np.int64


@pytest.mark.parametrize("items", [2, 4])
def test_three_annotators_are_counted_by_item_whatever_the_number_of_items(items):
    """Three annotators and 2 or 4 items (never the two-annotator table): the field's name and
    categories, the weights, and a kappa that names the annotators, not the items."""
    from claimlab.metrics.agreement import _by_item, field_agreement

    rng = np.random.default_rng(items)
    codes = rng.integers(-1, 4, size=(3, items)).astype(np.int8)
    codes[:, 0] = [3, 3, 2]  # NOT_IN_REFERENCE and CONTRADICTED: no boolean field has these
    weights = np.arange(1, items + 1, dtype=np.int64) * 7
    f = field_agreement("evidence status", codes, weights=weights)
    assert f == _by_item("evidence status", codes, 1, weights)
    assert f.field == "evidence status"
    assert f.kappa.reason == "Cohen's kappa is for two annotators (3 here)"
    assert f.items == int(weights[(codes >= 0).sum(axis=0) >= 2].sum())
    assert f != field_agreement("evidence status", codes)  # the weights count
