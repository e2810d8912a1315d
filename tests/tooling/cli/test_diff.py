"""``claimlab diff``: the claims two stored runs disagree on, grouped with counts; the gate's list.

The releases are generated (a greenhouse help desk, see tests/labs/rag/test_rag_gate.py): the
second release changes the labels of claims a seeded generator picks, in three ways, and the
diff must name exactly those claims, in those three groups, with those counts.
"""

import json
import random

import pytest

from claimlab.tooling.cli import main
from tests.labs.rag.test_rag_gate import E, N, greenhouse, write

MOVES = {
    "response claim: entailed: yes -> no": "answer2response",
    "ground-truth claim: entailed: no -> yes": "response2answer",
    "response claim: chunks: some -> none": "retrieved2response",
}


def relabel(doc, seed=7, per_move=9):
    """The same file with ``per_move`` claims per move relabelled; the claims, per group."""
    doc = json.loads(json.dumps(doc))
    rng = random.Random(seed)
    picked, used = {name: set() for name in MOVES}, set()
    for name, field in MOVES.items():
        while len(picked[name]) < per_move:
            q = rng.choice(doc["results"])
            side = "gt_answer_claims" if field == "response2answer" else "response_claims"
            j = rng.randrange(len(q[side]))
            if (q["query_id"], side, j) in used:
                continue
            if field == "retrieved2response":
                if E not in q[field][j]:
                    continue
                q[field][j] = [N] * len(q[field][j])
            else:
                want = E if field == "answer2response" else N  # the label it has now
                if q[field][j] != want:
                    continue
                q[field][j] = N if want == E else E
            used.add((q["query_id"], side, j))
            picked[name].add((q["query_id"], q[side][j]))
    return doc, picked


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    d = tmp_path_factory.mktemp("diff")
    doc, _ = greenhouse(n=120, seed=3)
    second, picked = relabel(doc)
    store = d / "runs.sqlite"
    first = write(d / "first.json", doc)
    assert main(["rag", str(first), "--store", str(store), "--out", str(d / "first.csv"),
                 "--json"]) == 0  # fmt: skip
    second = write(d / "second.json", second)
    two = d / "two.sqlite"  # both runs, whatever other tests add to ``store`` and when
    for f in (first, second):
        assert main(["rag", str(f), "--store", str(two), "--json"]) == 0
    return {"dir": d, "store": store, "first": first, "second": second, "picked": picked,
            "two": two}  # fmt: skip


def diff_json(capsys, *args):
    capsys.readouterr()
    assert main(["diff", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_two_stored_runs_list_exactly_the_claims_the_generator_changed(stored, capsys, tmp_path):
    store = tmp_path / "runs.sqlite"
    for f in (stored["first"], stored["second"]):
        assert main(["rag", str(f), "--store", str(store), "--json"]) == 0
    data = diff_json(capsys, "previous", "latest", "--store", store)
    got = {g["change"]: {(c["item"], c["text"]) for c in g["changes"]} for g in data["groups"]}
    assert got == stored["picked"]
    assert {g["change"]: g["count"] for g in data["groups"]} == dict.fromkeys(MOVES, 9)
    assert data["changed"] == 27 and data["units_a"] == data["units_b"] == data["matched"]
    # the same runs by id; the groups come largest effect first
    again = diff_json(capsys, "1", "2", "--store", store, "--figure", "precision")
    effects = [abs(g["effect"]) for g in again["groups"] if g["effect"] is not None]
    assert effects == sorted(effects, reverse=True)
    assert again["groups"][0]["change"] == "response claim: entailed: yes -> no"


def test_the_same_list_heads_the_gates_markdown_summary_and_the_junit_failure(stored, capsys):
    d = stored["dir"]
    summary, junit = d / "gate.md", d / "gate.xml"
    code = main(["rag", str(stored["second"]), "--baseline", str(d / "first.csv"), "--store",
                 str(stored["store"]), "--summary", str(summary), "--junit", str(junit),
                 "--gate-figures", "precision", "--bootstrap", "200", "--json"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["verdict"] == "FAIL"
    changes = {g["change"]: g["count"] for g in data["changes"]["groups"]}
    assert changes == dict.fromkeys(MOVES, 9)
    text = summary.read_text(encoding="utf-8")
    head = text.split("## The gate")[0]
    assert head.startswith("## What changed")
    rows = [line for line in head.splitlines() if line.startswith("| 9 |")]
    assert len(rows) == 3
    assert "response claim: entailed: yes \\-&gt; no" in rows[0]  # precision's change first
    assert "what changed:" in junit.read_text(encoding="utf-8")


def test_two_per_answer_tables_show_the_answers_whose_counts_moved(tmp_path, capsys):
    from claimlab.labs.ledger.demo import demo_ledger

    cand, units = demo_ledger(seed=0)
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    cand = cand.filter(pc.equal(cand.column("model"), "faithful")).drop_columns(["model"])
    pq.write_table(cand, tmp_path / "c.parquet")
    pq.write_table(units, tmp_path / "u.parquet")
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert main(["ledger", str(tmp_path / "c.parquet"), "--units", str(tmp_path / "u.parquet"),
                 "--out", str(a), "--json"]) == 0  # fmt: skip
    import pandas as pd

    t = pd.read_csv(a)
    t.loc[:2, "covered"] = t.loc[:2, "covered"] - 1  # three answers lose a covered unit
    t.to_csv(b, index=False)
    data = diff_json(capsys, a, b)
    assert data["figure"] == "coverage"
    assert [(g["change"], g["count"]) for g in data["groups"]] == [("answer: covered fell", 3)]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nothing.csv", "other.csv"], "neither a per-item table"),
        (["1", "9", "--store", "{store}"], "no run '9' in the store"),
        (["previous", "latest", "--store", "{two}", "--figure", "f1"], "no figure 'f1'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(stored, capsys, args, words):
    args = [a.format(store=stored["store"], two=stored["two"]) for a in args]
    capsys.readouterr()
    assert main(["diff", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_text_output_escapes_what_the_file_says(tmp_path, capsys):
    doc, _ = greenhouse(n=3, seed=1)
    doc["results"][0]["response_claims"][0] = "\x1b[31mred\x1b[0m <b>claim</b>"
    second = json.loads(json.dumps(doc))
    row = second["results"][0]["answer2response"]
    row[0] = N if row[0] == E else E
    store = tmp_path / "s.sqlite"
    for name, d in (("a", doc), ("b", second)):
        assert main(["rag", str(write(tmp_path / f"{name}.json", d)), "--store", str(store),
                     "--json"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["diff", "1", "2", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[31mred" in out
