"""``claimlab decomposition FILE`` without --mode or --select: the file's only mode, if it has one."""

import json

import pytest

from claimlab.io.decomposition import load_decomposition
from claimlab.labs.decomposition.cli import chosen_mode
from tests.conftest import FIXTURES, run_cli
from tests.labs.annotation.shared_ids import write_shared_drafts


def test_a_draft_with_one_mode_is_scored_on_it(tmp_path):
    draft = write_shared_drafts(tmp_path / "d") / "A" / "k01.json"
    proc = run_cli("decomposition", draft, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["mode"] == "decomposer"


def test_a_file_with_several_modes_still_asks_naming_them():
    proc = run_cli("decomposition", FIXTURES / "atlas_nova.json")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "--mode" in proc.stderr and "baseline" in proc.stderr


@pytest.mark.parametrize(
    ("modes", "mode", "select", "expected"),
    [(["only"], None, None, "only"), (["a", "b"], "b", None, "b"),
     (["only"], None, "C1", None), (["a", "b"], None, "C1", None), ([], None, None, None)],
)  # fmt: skip
def test_chosen_mode(modes, mode, select, expected):
    class Fx:
        source = "f.json"

    Fx.modes = {m: () for m in modes}
    assert chosen_mode(Fx, mode, select) == expected


def test_several_modes_and_none_given_is_refused_naming_them():
    from claimlab.core.errors import ClaimlabInputError

    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    with pytest.raises(ClaimlabInputError, match="the file has 9 modes: baseline, "):
        chosen_mode(fx, None, None)


@pytest.mark.parametrize("name", ["ferry_lines.json", "not_uygulamalari_tr.json"])
def test_a_file_naming_no_mode_is_scored_on_every_candidate_as_the_notebooks_do(name, tmp_path):
    """Modes are optional: with none, and neither --mode nor --select, every candidate is
    scored in file order (the notebooks' "all candidates"), the same figures as selecting
    every id by hand."""
    from claimlab.metrics.decomposition import named_selections, score_decomposition

    doc = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    doc.pop("modes", None)
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    ids = [c["id"] for c in doc["candidates"]]
    alone = run_cli("decomposition", path, "--json")
    assert alone.returncode == 0, alone.stderr
    by_hand = run_cli("decomposition", path, "--select", ",".join(ids), "--json", check=True)
    got, want = json.loads(alone.stdout), json.loads(by_hand.stdout)
    assert got == want and got["selection"] == ids
    fx = load_decomposition(path)
    (notebooks,) = named_selections(fx).values()
    assert score_decomposition(fx, notebooks).to_dict()["selection"] == ids
    said = run_cli("decomposition", path, check=True).stdout
    assert "all candidates (the file names no mode)" in said
