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
