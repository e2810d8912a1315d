"""The floors as they are: every module is named in its floor's docstring and README row.

A module added to a floor without a word in the floor's docstring (what a newcomer reads
first) or in the README's layout table fails here, and so does a name left behind in a floor
the module has moved out of.
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "claimlab"
FLOORS = ["core", "io", "metrics", "labs", "notebook", "tooling"]
CODE = re.compile(r"``([a-z_][a-z0-9_]*)``")
README_CODE = re.compile(r"`([a-z_][a-z0-9_]*)`")


def modules(folder):
    """The modules and subpackages of a package folder."""
    found = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    found |= {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return found


def docstring(folder):
    return ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))


def readme_row(floor):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    (row,) = [line for line in layout.splitlines() if line.startswith(f"| `claimlab.{floor}` |")]
    return row.split("|")[2]


ALL = {floor: modules(PACKAGE / floor) for floor in FLOORS}
OTHERS = set().union(*ALL.values())


@pytest.mark.parametrize("floor", [*FLOORS, "tooling/cli"])
def test_every_module_is_named_in_its_floors_docstring(floor):
    folder = PACKAGE / floor
    named = set(CODE.findall(docstring(folder)))
    assert sorted(modules(folder) - named) == []
    if floor in ALL:
        # a name of another floor's module, not this floor's, is a module that moved away
        assert sorted((named & OTHERS) - ALL[floor]) == []


@pytest.mark.parametrize("floor", FLOORS)
def test_every_module_is_named_in_the_readme_layout(floor):
    named = set(README_CODE.findall(readme_row(floor)))
    assert sorted(ALL[floor] - named) == []
    assert sorted((named & OTHERS) - ALL[floor]) == []
