"""``claimlab check``: the checker fills the reference layer only; the file stays loadable."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from claimlab.checkers.verdicts import Verdict
from claimlab.core.vocab import Status
from claimlab.io.decomposition import load_decomposition
from claimlab.io.reader import read_json
from claimlab.labs.decomposition.check import labelled_document
from claimlab.tooling.cli import main
from tests.conftest import FIXTURES

ATLAS = FIXTURES / "atlas_nova.json"
FX = load_decomposition(ATLAS)
DOC = read_json(ATLAS)
verdict_st = st.builds(
    Verdict,
    st.sampled_from(list(Status)),
    st.none() | st.floats(0, 1),
    st.lists(st.integers(0, len(FX.references) - 1), unique=True, max_size=2).map(tuple),
)


@settings(max_examples=20, deadline=None)
@given(st.lists(verdict_st, min_size=len(FX.candidates), max_size=len(FX.candidates)))
def test_the_checker_fills_the_reference_layer_only(tmp_path_factory, verdicts):
    # mutation caught: writing the checker's label into "faithful" or dropping "preserves"
    out = labelled_document(DOC, FX, verdicts, {"name": "t"})
    for before, after in zip(DOC["candidates"], out["candidates"], strict=True):
        assert {k: v for k, v in before.items() if k != "evidence"} == {
            k: v for k, v in after.items() if k != "evidence"
        }
    path = tmp_path_factory.mktemp("x") / "labelled.json"
    path.write_text(json.dumps(out), encoding="utf-8")
    loaded = load_decomposition(path)  # a SUPPORTED or CONTRADICTED label always cites
    assert [c.evidence.status for c in loaded.candidates] == [v.label for v in verdicts]
    assert DOC == read_json(ATLAS)  # the input is not changed


def test_check_writes_the_labelled_file_and_the_checker_it_used(tmp_path, capsys):
    out = tmp_path / "labelled.json"
    code = main(["check", str(ATLAS), "--out", str(out), "--checker", "lexical", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["checker"]["name"] == "lexical" and written["checker"]["version"] == "1"
    assert data["against_file"]["agreement"]["denominator"] == len(FX.candidates)
    assert set(data["labels"]) == {c.id for c in FX.candidates}
    load_decomposition(out)


def test_check_with_repeats_reports_the_flip_rate_and_alpha_computed_by_hand(tmp_path, capsys):
    from claimlab.metrics.agreement import alpha_nominal
    from tests.checkers import stand_ins

    out = tmp_path / "labelled.json"
    flipper = "python:tests.checkers.stand_ins:Flipper"
    args = ["check", str(ATLAS), "--out", str(out), "--checker", flipper, "--no-cache"]
    assert main([*args, "--repeats", "5", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["checker"]["repeats"]
    hand = [  # the stand-in's draws: item id and repeat, seed 7, 20% flipped
        ["N" if stand_ins.draw(7, c.id, r) < 0.2 else "S" for r in range(5)] for c in FX.candidates
    ]
    flips = sum(min(row.count("S"), row.count("N")) for row in hand)
    assert (got["flip_rate"]["numerator"], got["flip_rate"]["denominator"]) == (flips, 55)
    alpha = alpha_nominal([[row[r] for row in hand] for r in range(5)])
    assert got["alpha"] == alpha.to_dict()
    written = json.loads(out.read_text(encoding="utf-8"))
    majority = ["SUPPORTED" if row.count("S") >= 3 else "NOT_IN_REFERENCE" for row in hand]
    assert [c["evidence"]["status"] for c in written["candidates"]] == majority
    # per claim: its flips (asks off its majority) over its 5 asks, by hand; unstable ones named
    per_claim = [(c.id, min(row.count("S"), row.count("N")), 5) for c, row in zip(
        FX.candidates, hand, strict=True)]  # fmt: skip
    for repeats in (got, written["checker"]["repeats"]):  # --json and the written file
        assert [(r["id"], r["flips"], r["asks"]) for r in repeats["items"]] == per_claim
        assert repeats["unstable_ids"] == [i for i, flips, _ in per_claim if flips]


def test_check_with_repeats_prints_the_flip_rate_unstable_items_ties_and_alpha(tmp_path, capsys):
    """The text output says what --json says of the repeats: flips, unstable items, ties, alpha."""
    from claimlab.tooling.cli import main
    from tests.conftest import FIXTURES

    args = ["check", str(FIXTURES / "atlas_nova.json"), "--out", str(tmp_path / "out.json")]
    args += ["--checker", "python:tests.checkers.stand_ins:Flipper", "--repeats", "5"]
    assert main([*args, "--no-cache"]) == 0
    text = capsys.readouterr().out
    assert main([*args, "--no-cache", "--json"]) == 0
    repeats = json.loads(capsys.readouterr().out)["checker"]["repeats"]
    (line,) = [x for x in text.splitlines() if x.startswith("asked 5 times: ")]
    assert f"flips {repeats['flip_rate']['display']}" in line
    assert f"unstable items {repeats['unstable_items']['display']}" in line
    unstable = repeats["unstable_ids"]
    assert unstable  # the stand-in flips some of the 11 candidates
    rows = {r["id"]: r for r in repeats["items"]}
    first = ", ".join(f"{i} {rows[i]['flips']}/5" for i in unstable[:5])
    more = f" and {len(unstable) - 5} more" if len(unstable) > 5 else ""
    assert f"unstable items {repeats['unstable_items']['display']} ({first}{more})," in line
    assert f"{len(repeats['tied_ids'])} tie" in line and "alpha " in line
