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
     (["only"], None, "C1", None), (["a", "b"], None, "C1", None)],
)  # fmt: skip
def test_chosen_mode(modes, mode, select, expected):
    class Fx:
        source = "f.json"

    Fx.modes = {m: () for m in modes}
    assert chosen_mode(Fx, mode, select) == expected


def test_no_mode_at_all_is_refused():
    from claimlab.core.errors import ClaimlabInputError

    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    with pytest.raises(ClaimlabInputError, match="it has"):
        chosen_mode(fx, None, None)
