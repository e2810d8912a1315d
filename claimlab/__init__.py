"""claimlab: check long answers claim by claim, with counts and N/A shown everywhere.

``import claimlab`` is light: metric modules never import matplotlib, papermill, nbconvert or
ipywidgets. Import submodules directly (``claimlab.decomposition``, ``claimlab.plotting``, ...).
"""

from claimlab.errors import ClaimlabInputError, FixtureError
from claimlab.ratio import Ratio

__version__ = "0.1.0"
__all__ = ["ClaimlabInputError", "FixtureError", "Ratio", "__version__"]
