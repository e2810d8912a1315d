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
    assert got.pop("selected") == "every candidate, in file order (the file names no mode)"
    assert got == want and got["selection"] == ids
    fx = load_decomposition(path)
    (notebooks,) = named_selections(fx).values()
    assert score_decomposition(fx, notebooks).to_dict()["selection"] == ids
    said = run_cli("decomposition", path, check=True).stdout
    assert "all candidates (the file names no mode)" in said


def test_earlier_versions_are_scored_as_each_would_be_alone(tmp_path):
    """``--earlier`` with neither --mode nor --select: each version on its own default (its
    only mode, or every candidate when it names none), whatever ids the other holds; the
    figures side by side are those of each file scored alone."""
    doc = json.loads((FIXTURES / "ferry_lines.json").read_text(encoding="utf-8"))
    doc.pop("modes", None)
    doc.pop("game", None)  # its puzzles name candidate ids the earlier version renames
    earlier = json.loads(json.dumps(doc))
    earlier["candidates"] = earlier["candidates"][:3]  # fewer candidates, other coverage
    for c in earlier["candidates"]:
        c["id"] = f"old-{c['id']}"
    one_mode = dict(doc, modes={"only": [c["id"] for c in doc["candidates"][:2]]})
    paths = {}
    for name, d in (("now", doc), ("earlier", earlier), ("one", one_mode)):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")

    def alone(name):
        return json.loads(run_cli("decomposition", paths[name], "--json", check=True).stdout)

    for now, before in (("now", "earlier"), ("earlier", "now"), ("one", "earlier")):
        both = run_cli("decomposition", paths[now], "--earlier", paths[before], "--json")
        assert both.returncode == 0, (now, before, both.stderr)
        old, new = json.loads(both.stdout)["versions"]
        for side, name in ((old, before), (new, now)):
            assert side["coverage"]["display"] == alone(name)["coverage"]["display"], (now, side)
    assert alone("now")["selected"].startswith("every candidate")
    assert "selected" not in alone("one")
