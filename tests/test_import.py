import subprocess
import sys


def test_import_claimlab_is_light():
    code = (
        "import sys, claimlab, claimlab.metrics.decomposition, claimlab.io.decomposition, claimlab.core.ratio;"
        "heavy = [m for m in ('matplotlib', 'papermill', 'ipywidgets', 'nbconvert', 'pandas') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_every_public_name_loads_and_import_stays_light():
    """``import claimlab`` gives the stable names (loaded on first use), never a heavy package."""
    code = (
        "import sys, claimlab;"
        "heavy = [m for m in ('matplotlib', 'papermill', 'ipywidgets', 'pandas') if m in sys.modules];"
        "print(','.join(heavy));"
        "missing = [n for n in claimlab.__all__ if getattr(claimlab, n, None) is None];"
        "print(','.join(missing))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["", ""]


def test_the_public_names_are_the_ones_their_modules_define():
    import claimlab
    from claimlab.io.decomposition import load_decomposition
    from claimlab.labs.decomposition.game import DecompositionGame
    from claimlab.labs.sufficiency.game import SufficiencyGame

    assert claimlab.load_decomposition is load_decomposition
    assert claimlab.DecompositionGame is DecompositionGame
    assert claimlab.SufficiencyGame is SufficiencyGame
    assert {"score_ledger", "load_sufficiency", "Ratio"} <= set(dir(claimlab))
    try:
        claimlab.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


def test_the_python_api_example_runs_as_written():
    import re

    from tests.conftest import ROOT, doc_section

    section = doc_section("Python API")
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    lines = out.stdout.splitlines()
    assert lines[0] == "100.0% (5/5) 60.0% (3/5)"
    assert lines[1] in ("SUFFICIENT", "INSUFFICIENT", "UNKNOWN", "CONFLICT", "CONDITIONAL")
    assert "decomposition" in lines[2] and "retrieval" in lines[2]


def test_the_python_api_page_lists_every_public_name():
    import re

    import claimlab
    from tests.conftest import doc_section

    section = doc_section("Python API")
    listed = set(re.findall(r"`(\w+)`", section.split("The names:")[1].split("\n## ")[0]))
    assert listed == set(claimlab.__all__) - {"__version__"}
