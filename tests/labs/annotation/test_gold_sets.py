"""A gold set you can trust: nothing becomes gold by accident, outputs never replace inputs.

Each case here was accepted without a word before (issue: "A gold set you can trust").
"""

import hashlib
import json
import re
import shlex
import unicodedata

import numpy as np
import pytest

from claimlab.core.spans import utf16_slice
from claimlab.io.decomposition import load_decomposition
from claimlab.io.reader import read_json
from claimlab.labs.annotation.adjudicate import adjudicate
from tests.conftest import ROOT, run_cli
from tests.metrics.test_agreement import atlas_pair


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_line_refusal(proc, *needles):
    assert proc.returncode == 2, proc.stdout + proc.stderr
    err = proc.stderr.strip()
    assert err.count("\n") == 0, err
    for n in needles:
        assert str(n) in err, (n, err)
    return err


# ------------------------------------------------------------------ never gold by accident


@pytest.mark.parametrize("command", ["agreement", "adjudicate"])
def test_the_same_file_twice_is_refused(tmp_path, command):
    a, b = atlas_pair(tmp_path)
    extra = ["--out", tmp_path / "gold"] if command == "adjudicate" else []
    _one_line_refusal(run_cli(command, a, a, *extra), a, "twice")
    _one_line_refusal(run_cli(command, a, b, a, *extra), a, "twice")  # A B A: no 2:1 win


def test_an_identical_copy_and_two_files_of_one_annotator_are_refused(tmp_path):
    a, b = atlas_pair(tmp_path)
    copy = tmp_path / "copy.json"
    copy.write_bytes(a.read_bytes())
    _one_line_refusal(run_cli("agreement", a, copy), "identical bytes")
    doc = read_json(b)
    doc["annotation"]["annotator"] = "A"  # b's labels, under a's name
    again = tmp_path / "again.json"
    again.write_text(json.dumps(doc), encoding="utf-8")
    _one_line_refusal(run_cli("adjudicate", a, again, "--out", tmp_path / "g"), "'A'", "two files")


def test_a_draft_nobody_annotated_is_not_an_annotator(tmp_path):
    a, _ = atlas_pair(tmp_path)
    draft = read_json(a)
    for c in draft["candidates"]:
        c["review"] = ["evidence"]
    for u in draft["units"]:  # nothing at all confirmed: units and candidates still proposed
        u["review"] = ["span"]
    draft.pop("annotation")
    d = tmp_path / "draft.json"
    d.write_text(json.dumps(draft), encoding="utf-8")
    _one_line_refusal(
        run_cli("adjudicate", a, d, "--out", tmp_path / "g"), d, "nothing is confirmed"
    )
    # two unannotated drafts of different decomposers: refused, not 18 lines of N/A
    other = dict(draft, decomposer="B")
    d2 = tmp_path / "draft_b.json"
    d2.write_text(json.dumps(other), encoding="utf-8")
    _one_line_refusal(run_cli("agreement", d, d2), "nothing is confirmed")


def _merge(paths):
    return adjudicate(
        [read_json(p) for p in paths], [load_decomposition(p) for p in paths], clock=lambda: "T"
    )


def test_candidates_are_the_union_and_the_order_of_the_files_does_not_matter(tmp_path):
    a, b = atlas_pair(tmp_path)
    doc = read_json(b)
    extra = dict(doc["candidates"][0], id="C99", fingerprint="only-in-b")
    doc["candidates"].append(extra)  # only B's annotator split this one out
    b.write_text(json.dumps(doc), encoding="utf-8")
    ab, ba = _merge([a, b]), _merge([b, a])
    assert ab.document == ba.document
    ids = [c["id"] for c in ab.document["candidates"]]
    assert "C99" in ids and ids.count("C99") == 1
    c99 = next(c for c in ab.document["candidates"] if c["id"] == "C99")
    assert c99["provenance"]["faithful"]["votes"] == {"B": "true"}  # one vote: the majority of 1


def test_a_unit_span_listed_twice_in_one_file_votes_once(tmp_path):
    a, b = atlas_pair(tmp_path)
    docs = [read_json(p) for p in (a, b)]
    text = docs[0]["original"]["text"]
    span = {"start": 3, "end": 8, "text": utf16_slice(text, 3, 8)}
    docs[0]["units"] += [{"id": "U9", "span": dict(span)}, {"id": "U10", "span": dict(span)}]
    third = json.loads(json.dumps(docs[1]))
    third["annotation"]["annotator"] = "C"
    paths = []
    for name, d in (("a", docs[0]), ("b", docs[1]), ("c", third)):
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(d), encoding="utf-8")
        paths.append(p)
    merged = _merge(paths).document
    spans = [(u["span"]["start"], u["span"]["end"]) for u in merged["units"]]
    assert (3, 8) not in spans  # one file of three marks it: 1 vote, not 2 (a majority)


# ------------------------------------------------------------------ outputs never replace inputs


def _musique_file(tmp_path):
    from tests.io.test_multihop import MUSIQUE_ROW

    m = tmp_path / "m.json"
    m.write_text(json.dumps([MUSIQUE_ROW]), encoding="utf-8")
    return m


CASES = {
    "adjudicate --out A": lambda t, a, b: (["adjudicate", a, b, "--out", a], a),
    "convert --out FILE": lambda t, a, b: (
        ["convert", "musique", _musique_file(t), "--out", t / "m.json"],
        t / "m.json",
    ),
    "sufficiency-cases --out FILE": lambda t, a, b: (
        ["sufficiency-cases", t / "s.json", "--out", t / "s.json"],
        t / "s.json",
    ),
    "decomposition --record FILE": lambda t, a, b: (
        ["decomposition", a, "--mode", "baseline", "--record", a],
        a,
    ),
    "decomposition --record EARLIER": lambda t, a, b: (
        ["decomposition", a, "--mode", "baseline", "--earlier", b, "--record", b],
        b,
    ),
    "ledger --out CANDIDATES": lambda t, a, b: (
        ["ledger", t / "c.csv", "--units", t / "u.csv", "--out", t / "c.csv"],
        t / "c.csv",
    ),
    "ledger --out inside a folder of decompositions": lambda t, a, b: (
        ["ledger", "--from-decompositions", t, "--out", a],
        a,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_output_that_names_an_input_is_refused_before_anything_is_written(tmp_path, case):
    a, b = atlas_pair(tmp_path)
    (tmp_path / "s.json").write_bytes((ROOT / "fixtures" / "aurora.json").read_bytes())
    (tmp_path / "c.csv").write_text(
        "answer_id,candidate_id,fingerprint,preserves,faithful,atomic,status\n"
        "q,c1,f,U1,true,true,SUPPORTED\n",
        encoding="utf-8",
    )
    (tmp_path / "u.csv").write_text("answer_id,unit_id\nq,U1\n", encoding="utf-8")
    args, victim = CASES[case](tmp_path, a, b)
    before = _sha(victim)
    _one_line_refusal(run_cli(*args), "would replace the input")
    assert _sha(victim) == before


def test_fever_details_and_run_output_never_replace_their_inputs(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps({"id": 1, "label": "NOT ENOUGH INFO", "evidence": [[[1, None, None, None]]]})
        + "\n"
    )
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        json.dumps({"id": 1, "predicted_label": "NOT ENOUGH INFO", "predicted_evidence": []}) + "\n"
    )
    before = _sha(gold)
    _one_line_refusal(run_cli("fever", gold, pred, "--details", gold), "--details")
    assert _sha(gold) == before
    nb = tmp_path / "01_decomposition_pitfalls.ipynb"
    nb.write_bytes((ROOT / "notebooks" / nb.name).read_bytes())
    before = _sha(nb)
    _one_line_refusal(run_cli("run", nb, "--output", tmp_path), "--output")
    assert _sha(nb) == before


def test_a_draft_never_replaces_the_raw_file(tmp_path):
    raw = tmp_path / "q1.json"  # a raw file whose name is the draft of its own answer
    raw.write_text(json.dumps({"id": "q1", "answer": "A b c.", "subclaims": ["A b c."]}) + "\n")
    before = _sha(raw)
    _one_line_refusal(run_cli("draft", raw, "--out", tmp_path, "--force"), "would replace")
    assert _sha(raw) == before


# ------------------------------------------------------------------ every tie can be decided


def _tied_pair(tmp_path):
    """A and B disagree on every label of C7, its source span included."""
    a, b = atlas_pair(tmp_path)
    doc = read_json(b)
    c7 = next(c for c in doc["candidates"] if c["id"] == "C7")
    start = c7["source_spans"][0]["start"]
    text = doc["original"]["text"]
    c7["source_spans"] = [
        {"start": start, "end": start + 13, "text": utf16_slice(text, start, start + 13)}
    ]
    c7["atomic"] = False
    b.write_text(json.dumps(doc), encoding="utf-8")
    return a, b


def test_every_tie_it_prints_is_settled_by_the_decide_it_prints(tmp_path):
    a, b = _tied_pair(tmp_path)
    out = tmp_path / "gold.json"
    first = run_cli("adjudicate", a, b, "--out", out)
    assert first.returncode == 0, first.stderr
    offered = re.findall(r"settle with (--decide \S+(?: or --decide \S+)*)", first.stdout)
    labels = {re.search(r"\.(\w+)=", o).group(1) for o in offered}
    assert {"source_spans", "faithful", "errors", "preserves", "atomic", "evidence"} <= labels
    chosen = [shlex.split(o.split(" or ")[-1])[1] for o in offered]  # the second annotator's value
    args = [x for d in chosen for x in ("--decide", d)]
    second = run_cli("adjudicate", a, b, "--out", out, *args)
    assert second.returncode == 0, second.stderr
    assert "tie:" not in second.stdout
    assert "confirmed by nobody: C9, C10" in second.stdout  # no vote: not a tie, still not gold
    assert set(load_decomposition(out).proposed) == {"C9", "C10"}


@pytest.mark.parametrize("value", ["none", "", "-"])
def test_an_empty_list_is_decided_as_none(tmp_path, value):
    a, b = atlas_pair(tmp_path)
    proc = run_cli(
        "adjudicate", a, b, "--out", tmp_path / "g.json", "--decide", f"C7.errors={value}"
    )
    assert proc.returncode == 0, proc.stderr
    c7 = next(c for c in read_json(tmp_path / "g.json")["candidates"] if c["id"] == "C7")
    assert c7["errors"] == [] and c7["provenance"]["errors"]["rule"] == "decided"


def test_help_lists_the_values_each_label_takes():
    text = run_cli("adjudicate", "--help").stdout
    for label in ("faithful", "atomic", "errors", "evidence", "preserves", "source_spans"):
        assert f"{label}:" in " ".join(text.split())


# ------------------------------------------------------------------ one spelling of an id


def _nfd(text):
    return unicodedata.normalize("NFD", text)


def test_an_id_in_nfc_and_nfd_is_one_id(tmp_path):
    raw = tmp_path / "raw.jsonl"
    rows = [
        {"id": i, "answer": "Un café.", "subclaims": ["Un café."]} for i in ("café", _nfd("café"))
    ]
    raw.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    _one_line_refusal(run_cli("draft", raw, "--out", tmp_path / "d"), "duplicate id", "spelling")
    a, b = atlas_pair(tmp_path)
    for path, form in ((a, "NFC"), (b, "NFD")):  # the ids of one file composed, of the other not
        doc = read_json(path)
        spell = lambda x, form=form: unicodedata.normalize(form, x + "é")  # noqa: E731
        doc["original"]["id"] = spell(doc["original"]["id"])
        for c in doc["candidates"]:
            c["id"] = spell(c["id"])
        doc["modes"] = {k: [spell(i) for i in v] for k, v in doc["modes"].items()}
        doc.pop("game")
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    data = json.loads(run_cli("agreement", a, b, "--json").stdout)
    faithful = next(f for f in data["fields"] if f["field"] == "faithful")
    assert faithful["items"] == 9  # the same 9 confirmed candidates, not 18 half-labelled ones


def test_ledger_groups_in_nfc_and_nfd_are_one_group_and_an_empty_group_is_refused(tmp_path):
    rows = ["answer_id,candidate_id,fingerprint,preserves,faithful,atomic,status,model"]
    rows += [f"q,c1,f,U1,true,true,SUPPORTED,{m}" for m in ("café",)]
    rows += [f"r,c1,f,U1,true,true,SUPPORTED,{_nfd('café')}"]
    c = tmp_path / "c.csv"
    c.write_text("\n".join(rows) + "\n", encoding="utf-8")
    u = tmp_path / "u.csv"
    u.write_text("answer_id,unit_id\nq,U1\nr,U1\n", encoding="utf-8")
    data = json.loads(run_cli("ledger", c, "--units", u, "--by", "model", "--json").stdout)
    assert list(data["by_group"]) == ["café"] and data["by_group"]["café"]["answers"] == 2
    c.write_text("\n".join([rows[0], "q,c1,f,U1,true,true,SUPPORTED,"]) + "\n", encoding="utf-8")
    _one_line_refusal(
        run_cli("ledger", c, "--units", u, "--by", "model"), "line 2", "model", "empty"
    )


# ------------------------------------------------------------------ intervals that mean something


def test_one_answer_gives_no_interval_and_too_few_resamples_are_refused(tmp_path):
    c = tmp_path / "c.csv"
    c.write_text(
        "answer_id,candidate_id,fingerprint,preserves,faithful,atomic,status\n"
        "q,c1,f,U1,true,true,SUPPORTED\nq,c2,g,U2,true,true,NOT_IN_REFERENCE\n",
        encoding="utf-8",
    )
    u = tmp_path / "u.csv"
    u.write_text("answer_id,unit_id\nq,U1\nq,U2\n", encoding="utf-8")
    data = json.loads(run_cli("ledger", c, "--units", u, "--ci", "0.95", "--json").stdout)
    fig = data["corpus"]["micro"]["raw_support"]
    assert fig["ci"] is None and "only 1 answer" in fig["ci_reason"]
    _one_line_refusal(
        run_cli("ledger", c, "--units", u, "--ci", "0.95", "--bootstrap", "1"), "--bootstrap"
    )


def test_bca_counts_resamples_at_the_estimate_as_half():
    from claimlab.metrics.stats.intervals import _below

    estimate = 0.1 + 0.2  # 0.30000000000000004
    at = np.array([0.3, 0.3, 0.3, 0.3])  # the same figure, summed in another order
    assert _below(at, estimate) == 0.5  # ties, not "below"
    assert _below(np.array([0.1, 0.3, 0.5, 0.7]), 0.3) == (1 + 0.5) / 4


def test_micro_prediction_powered_corrects_numerators_and_denominators_together():
    from claimlab.metrics.stats.prediction_powered import prediction_powered

    rng = np.random.default_rng(3)
    units = rng.integers(1, 9, 200).astype(float)
    labelled = np.arange(200) < 40
    perfect = prediction_powered((units, units), (units, units), labelled, aggregate="micro")
    assert perfect.ppi.value == pytest.approx(1.0) and perfect.human.value == pytest.approx(1.0)
    assert perfect.naive.value == pytest.approx(1.0)
    assert (perfect.ppi.low, perfect.ppi.high) == (None, None)  # no spread: no zero-width interval
    # by hand: a biased autorater (one unit too many covered on labelled answers and others)
    covered = np.minimum(units, rng.integers(0, 9, 200)).astype(float)
    auto = np.minimum(units, covered + 1)
    r = prediction_powered((auto, units), (covered, units), labelled, aggregate="micro", level=0.9)
    mu_n = auto[~labelled].mean() - (auto[labelled] - covered[labelled]).mean()
    mu_d = units[~labelled].mean()  # the denominators are the same for autorater and people
    assert r.ppi.value == pytest.approx(mu_n / mu_d)
    assert r.human.value == pytest.approx(covered[labelled].sum() / units[labelled].sum())
    assert (r.labelled, r.unlabelled) == (40, 160)


def test_ppi_mean_with_ddof_0_equals_ppi_python_exactly():
    ppi_py = pytest.importorskip("ppi_py")
    from claimlab.metrics.stats.prediction_powered import ppi_mean

    rng = np.random.default_rng(5)
    y = rng.binomial(1, 0.5, 30).astype(float)
    yhat = np.clip(y + rng.normal(0, 0.3, 30), 0, 1)
    yu = np.clip(rng.binomial(1, 0.5, 300) + rng.normal(0, 0.3, 300), 0, 1)
    _, lo, hi = ppi_mean(y, yhat, yu, level=0.9, ddof=0)
    ref_lo, ref_hi = ppi_py.ppi_mean_ci(y, yhat, yu, alpha=0.1, lam=1)
    assert (lo, hi) == pytest.approx((float(ref_lo[0]), float(ref_hi[0])), abs=1e-12)


# ------------------------------------------------------------------ what the annotator shows


def test_the_annotator_shows_every_reference_text_escaped(tmp_path):
    from claimlab.labs.annotation.session import AnnotationSession
    from claimlab.labs.annotation.widgets import Annotator

    a, _ = atlas_pair(tmp_path)
    doc = read_json(a)
    doc["references"][0]["text"] = "<script>alert(1)</script> Atlas Lab 2.1 reads PDF offline."
    a.write_text(json.dumps(doc), encoding="utf-8")
    ann = Annotator(AnnotationSession(a, "A"))
    panels = ann.reference_texts
    assert len(panels.children) == len(doc["references"])
    shown = panels.children[0].value
    assert "&lt;script&gt;" in shown and "<script>" not in shown
    assert all(
        r["text"][-20:] in " ".join(p.value for p in panels.children) for r in doc["references"][1:]
    )
    assert "&lt;script&gt;" in ann.snapshot_html()


def test_a_faithful_subclaim_with_an_inflected_word_is_found():
    from claimlab.labs.annotation.draft import align

    answer = "Lake Baikal, the deepest lake on Earth, reaches 1,642 metres and lies in Siberia."
    hit = align("Lake Baikal reaches 1,642 metres deep.", answer)
    assert hit is not None and "1,642 metres" in answer[hit.start : hit.end]


def test_counts_are_spoken_in_the_right_number(tmp_path):
    raw = tmp_path / "raw.jsonl"
    raw.write_text(
        json.dumps({"id": "q", "answer": "One thing.", "subclaims": ["One thing."]}) + "\n"
    )
    out = run_cli("draft", raw, "--out", tmp_path / "d").stdout
    assert "1 unit (sentences), 1 candidate, 1 span proposed" in out and "1 draft written" in out


# ------------------------------------------------------------------ adjudicate reads each file once


def _variants(tmp_path):
    """Files a scan and a full read must agree on: NFD ids, a sub-folder decomposer, a BOM."""
    a, b = atlas_pair(tmp_path)
    root = tmp_path / "ann"
    (root / "B").mkdir(parents=True)
    out = []
    for k, (src, change) in enumerate(
        [
            (a, {}),
            (b, {"original": "id"}),
            (a, {"decomposer": _nfd("décomposeur")}),
            (b, {"annotation": None}),
        ]
    ):
        doc = read_json(src)
        if "original" in change:
            doc["original"]["id"] = _nfd("atlas-é")
        for key in ("decomposer", "annotation"):
            if key in change:
                doc[key] = change[key]
        path = root / ("B" if k == 1 else "") / f"f{k}.json"
        data = json.dumps(doc, ensure_ascii=False).encode()
        path.write_bytes(b"\xef\xbb\xbf" + data if k == 3 else data)
        out.append(path)
    return root, out


def test_a_scan_finds_what_a_full_read_finds(tmp_path):
    from claimlab.io.annotations import load_annotated, load_scanned, scan_annotated

    root, paths = _variants(tmp_path)
    for path in paths:
        scanned = scan_annotated(path, root=root)
        assert scanned == load_annotated(path, root=root)[0]
        assert load_scanned(scanned) == json.loads(path.read_bytes().decode("utf-8-sig"))
    assert scan_annotated(paths[1], root=root).key.decomposer == "B"
    assert scan_annotated(paths[2], root=root).key.decomposer == "décomposeur"


def test_a_file_changed_after_its_scan_or_with_a_bad_record_is_named(tmp_path):
    from claimlab.core.errors import FixtureError
    from claimlab.io.annotations import load_scanned, scan_annotated

    a, b = atlas_pair(tmp_path)
    scanned = scan_annotated(a)
    a.write_bytes(a.read_bytes() + b" ")
    with pytest.raises(FixtureError, match="changed while it was being read"):
        load_scanned(scanned)
    doc = read_json(b)
    doc["candidates"][0]["preserves"] = ["U99"]  # found by the scan, refused by the reader
    b.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "gold"
    err = _one_line_refusal(run_cli("adjudicate", a, b, "--out", out), b, "U99")
    assert "preserves" in err and not out.exists()


def test_the_decided_line_names_the_answer_of_each_decision_over_folders(tmp_path):
    """Over folders, a decision or preference is printed with its answer (two answers may tie
    on candidates of the same id)."""
    a, b = _tied_pair(tmp_path)
    for who, path in (("ana", a), ("ben", b)):
        doc = read_json(path)
        (tmp_path / who).mkdir()
        for answer in ("first", "second"):
            doc["original"]["id"] = answer
            (tmp_path / who / f"{answer}.json").write_text(json.dumps(doc), encoding="utf-8")
    proc = run_cli("adjudicate", tmp_path / "ana", tmp_path / "ben", "--out", tmp_path / "gold",
                   "--prefer", "B")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if "decided by" in x)
    decided = line.split(": ", 1)[1].split(", ")
    assert {d.split(":", 1)[0] for d in decided} == {"first", "second"}, line
