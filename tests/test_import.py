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
