"""Each lab's face: the names it declares public are the only ones imported from outside it.

A lab (``claimlab.labs.<lab>``) lists its public names in ``__all__``; the notebooks, the
documentation's code, the registry, the command line and every other module outside the lab
import those names from the lab's package, never one of its modules; each name loads on first
use; and the API reference lists exactly the faces.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

LABS = sorted(
    p.name
    for p in (ROOT / "claimlab" / "labs").iterdir()
    if (p / "__init__.py").exists() and p.name != "__pycache__"
)
NAMES = "|".join(LABS)
DEEP = re.compile(rf"claimlab\.labs\.({NAMES})\.(\w+)")
FROM_FACE = re.compile(rf"from claimlab\.labs\.({NAMES}) import (?:\(([^)]*)\)|([^\n(]+))")


def _outside(lab: str):
    """(where, text) of every source outside ``lab`` that may import it."""
    for path in sorted((ROOT / "claimlab").rglob("*.py")):
        if not path.is_relative_to(ROOT / "claimlab" / "labs" / lab):
            yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        yield nb.name, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        yield str(page.relative_to(ROOT)), page.read_text(encoding="utf-8")


@pytest.mark.parametrize("lab", LABS)
def test_nothing_outside_a_lab_reaches_past_its_face(lab):
    face = set(importlib.import_module(f"claimlab.labs.{lab}").__all__)
    for where, text in _outside(lab):
        deep = [m.group(0) for m in DEEP.finditer(text) if m.group(1) == lab]
        assert deep == [], f"{where} imports {deep[0]}: import it from claimlab.labs.{lab}"
        for m in FROM_FACE.finditer(text):
            if m.group(1) != lab:
                continue
            listed = re.match(r"[\w\s,]*", m.group(2) or m.group(3)).group(0)
            names = {n.strip().split(" as ")[0] for n in listed.split(",") if n.strip()}
            assert names <= face, f"{where}: {sorted(names - face)} not in {lab}'s face"


@pytest.mark.parametrize("lab", LABS)
def test_every_name_of_a_face_loads(lab):
    package = importlib.import_module(f"claimlab.labs.{lab}")
    assert package.__all__ == sorted(package.__all__) and package.__all__
    for name in package.__all__:
        assert getattr(package, name) is not None
    assert dir(package) == package.__all__
    with pytest.raises(AttributeError, match="no public name"):
        package.not_a_public_name  # noqa: B018


def test_a_face_loads_nothing_until_a_name_is_used():
    code = (
        "import sys, claimlab.labs.decomposition as d; "
        "print(sorted(m for m in sys.modules if m.startswith('claimlab.labs.decomposition.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_api_reference_lists_exactly_each_face():
    page = (ROOT / "docs" / "reference" / "python-api.md").read_text(encoding="utf-8")
    for lab in LABS:
        row = re.search(rf"^\| `claimlab\.labs\.{lab}` \| (.*) \|$", page, re.M)
        assert row, f"no row for claimlab.labs.{lab} in docs/reference/python-api.md"
        listed = sorted(re.findall(r"`(\w+)`", row.group(1)))
        assert listed == importlib.import_module(f"claimlab.labs.{lab}").__all__, lab
