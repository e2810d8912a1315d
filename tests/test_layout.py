"""The floors as they are: every module is named in its floor's docstring and layout table row.

A module added to a floor without a word in the floor's docstring (what a newcomer reads
first) or in the layout table (docs/reference/layout.md) fails here, and so does a name left
behind in a floor the module has moved out of.
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.conftest import ROOT, doc_section

PACKAGE = ROOT / "claimlab"
FLOORS = ["core", "io", "metrics", "labs", "notebook", "checkers", "tooling"]
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
    layout = doc_section("Layout")
    (row,) = [line for line in layout.splitlines() if line.startswith(f"| `claimlab.{floor}` |")]
    return row.split("|")[2]


ALL = {floor: modules(PACKAGE / floor) for floor in FLOORS}
OTHERS = set().union(*ALL.values())
LAB_PACKAGES = sorted(p.parent.name for p in (PACKAGE / "labs").glob("*/__init__.py"))


@pytest.mark.parametrize(
    "floor", [*FLOORS, "tooling/cli", "metrics/stats", *(f"labs/{n}" for n in LAB_PACKAGES)]
)
def test_every_module_is_named_in_its_floors_docstring(floor):
    folder = PACKAGE / floor
    named = set(CODE.findall(docstring(folder)))
    assert sorted(modules(folder) - named) == []
    if floor in ALL:
        # a name of another floor's module, not this floor's, is a module that moved away
        assert sorted((named & OTHERS) - ALL[floor]) == []


def test_no_module_imports_another_modules_private_name():
    """A name used across modules is public (documented, kept); a leading underscore is not."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("claimlab"):
                found += [
                    f"{path.relative_to(ROOT)}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
    assert found == []


@pytest.mark.parametrize("floor", FLOORS)
def test_every_module_is_named_in_the_layout_table(floor):
    named = set(README_CODE.findall(readme_row(floor)))
    assert sorted(ALL[floor] - named) == []
    assert sorted((named & OTHERS) - ALL[floor]) == []


# the explorers and games compute a result on every click: they are the one place in the
# display floor that calls a metric (a widget is a controller as well as a view)
CONTROLLERS = {"widgets", "terminal"}  # terminal: option types check with the metrics' own rules


def metric_calls(path):
    """(line, name) of every call in a module to a function of the metrics floor."""
    import importlib
    import inspect

    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions, modules = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("claimlab.metrics"):
            source = importlib.import_module(node.module)
            for alias in node.names:
                obj = getattr(source, alias.name, None)
                if obj is None:  # a submodule not imported yet
                    obj = importlib.import_module(f"{node.module}.{alias.name}")
                if inspect.ismodule(obj):
                    modules.add(alias.asname or alias.name)
                elif inspect.isfunction(obj):
                    functions.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name.startswith("claimlab.metrics")}
    calls = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in functions:
            calls.append((node.lineno, f.id))
        elif (
            isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in modules
        ):
            calls.append((node.lineno, f"{f.value.id}.{f.attr}"))
    return calls


VIEWS = sorted(
    [p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "notebook").glob("*.py")]
    + [p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "labs").glob("*/views.py")]
)


@pytest.mark.parametrize("module", [m for m in VIEWS if not m.endswith("__init__.py")])
def test_the_display_floor_and_the_labs_views_never_compute_a_metric(module):
    """Views and plots take typed results; the notebook (or a lab's study) computes them once."""
    calls = metric_calls(PACKAGE / module)
    assert calls == [] or module.removesuffix(".py").rsplit("/", 1)[-1] in CONTROLLERS


def test_the_registry_names_every_lab_package_and_notebook_once():
    """Every lab package is in the registry, every notebook belongs to exactly one lab, and
    every command and game it names can be loaded."""
    from claimlab.labs.registry import LABS, load, notebook_stems

    assert sorted(lab.name for lab in LABS) == LAB_PACKAGES
    shipped = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert list(notebook_stems()) == shipped
    assert len(set(notebook_stems())) == len(shipped)
    for lab in LABS:
        assert all(callable(load(ref)) for ref in lab.commands), lab.name
        if lab.game:
            assert lab.game in lab.notebooks and callable(load(lab.game_from_file or "")), lab.name


def test_a_view_that_computes_a_metric_is_found(tmp_path):
    bad = tmp_path / "view.py"
    bad.write_text(
        "from claimlab.metrics.decomposition import score_decomposition\n"
        "from claimlab.metrics import fever as fv\n"
        "def show(fixture):\n"
        "    return score_decomposition(fixture, []), fv.score_fever([])\n",
        encoding="utf-8",
    )
    assert metric_calls(bad) == [(4, "score_decomposition"), (4, "fv.score_fever")]


MUTABLE = re.compile(r"^(dict|list|set)\b")


def frozen_records_with_mutable_fields(floors):
    """(module, record, field, type) of frozen dataclass fields typed as a dict, list or set."""
    import dataclasses
    import importlib
    import inspect
    import pkgutil

    import claimlab

    found = []
    for info in pkgutil.walk_packages(claimlab.__path__, "claimlab."):
        if info.name.split(".")[1] not in floors:
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if not (inspect.isclass(obj) and dataclasses.is_dataclass(obj)):
                continue
            if obj.__module__ != module.__name__ or not obj.__dataclass_params__.frozen:
                continue
            for f in dataclasses.fields(obj):
                if MUTABLE.match(str(f.type)):
                    found.append((info.name, name, f.name, str(f.type)))
    return found


# the one exception: the gold file an adjudication builds is a JSON document, written as it is
DOCUMENTS = {("claimlab.labs.annotation.adjudicate", "Adjudication", "document")}


def test_records_hold_no_mutable_container():
    """A frozen record of core, io, metrics or labs types its collections as tuples and Mappings
    (frozen with ``claimlab.core.frozen.freeze``), so a result cannot be changed once made."""
    found = frozen_records_with_mutable_fields({"core", "io", "metrics", "labs"})
    assert [f for f in found if f[:3] not in DOCUMENTS] == []


def test_a_frozen_result_cannot_be_changed_through_its_counts():
    from claimlab.io.decomposition import load_decomposition
    from claimlab.metrics.decomposition import score_decomposition
    from tests.conftest import FIXTURES

    fx = load_decomposition(FIXTURES / "atlas_nova.json")
    r = score_decomposition(fx, fx.mode("baseline"))
    with pytest.raises(TypeError):
        r.status_counts["SUPPORTED"] = 99  # type: ignore[index]
    assert r.to_dict()["status_counts"] == dict(r.status_counts)


def test_a_frozen_result_is_recorded_field_by_field():
    from dataclasses import dataclass

    from claimlab.core.frozen import freeze
    from claimlab.notebook.records import to_jsonable

    @dataclass(frozen=True)
    class Study:
        covered: dict

        def __post_init__(self):
            freeze(self, "covered")

    assert to_jsonable(Study({"ppi": 3})) == {"covered": {"ppi": 3}}


def test_every_public_view_and_widget_is_named_by_a_test():
    """Every public function and class of the display floor, and of each lab's views and
    widgets, is named by at least one test (so that some test calls it)."""
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    named = set(re.findall(r"\w+", tests))  # every whole word of the tests, found once
    display = [
        *(PACKAGE / "notebook").glob("*.py"),
        *(PACKAGE / "labs").glob("*/views.py"),
        *(PACKAGE / "labs").glob("*/widgets.py"),
    ]
    unnamed = []
    for path in display:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                if node.name not in named:
                    unnamed.append(f"{path.relative_to(ROOT).as_posix()}:{node.name}")
    assert unnamed == []


def test_tests_mirror_the_package():
    """Each module has tests/<floor>/test_<module>.py, or is listed in quality/unmirrored.txt
    (tests named by journey or rule); a module that gains its mirrored file leaves the list."""
    listed = {
        line.strip()
        for line in (ROOT / "quality" / "unmirrored.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    modules = [
        p.relative_to(ROOT / "claimlab")
        for p in (ROOT / "claimlab").glob("**/*.py")
        if p.name != "__init__.py" and not p.name.startswith("_")
    ]
    mirrored = {str(m) for m in modules if (ROOT / "tests" / m.parent / f"test_{m.name}").exists()}
    unmirrored = {str(m) for m in modules} - mirrored
    assert sorted(unmirrored - listed) == [], "a module without tests/<floor>/test_<module>.py"
    assert sorted(listed - unmirrored) == [], "listed, but mirrored now (or gone): leave the list"


def test_no_test_leaves_a_folder_in_the_temporary_folder():
    """Rule: a test's folders are pytest's (tmp_path), a context manager's, or scratch_dir's
    (removed when the test ends); a bare mkdtemp left tens of thousands behind in /tmp, and
    every file made there afterwards was slower."""
    allowed = {"tests/scratch.py", "tests/conftest.py"}  # conftest: the kernels' home, removed
    found = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "tests").rglob("*.py"))
        if "mkdtemp(" in p.read_text(encoding="utf-8")
        and str(p.relative_to(ROOT)) not in allowed
        and p.name != "test_layout.py"
    ]
    assert found == [], f"use tests.scratch.scratch_dir or tmp_path in: {found}"
