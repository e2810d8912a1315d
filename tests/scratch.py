"""A fresh folder for one example of a property test, removed when the test ends.

A ``@given`` test runs many examples in one call, so pytest's ``tmp_path`` (one folder per
test) is shared by all of them; an example that needs a folder of its own asks
:func:`scratch_dir`. Every folder made during a test is removed after it (the autouse
fixture in ``conftest.py``), so a run leaves nothing behind in the system's temporary folder.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

_MADE: list[str] = []


def scratch_dir(prefix: str = "claimlab-example-") -> Path:
    """A new empty folder, removed at the end of the running test."""
    made = tempfile.mkdtemp(prefix=prefix)
    _MADE.append(made)
    return Path(made)


def remove_scratch() -> int:
    """Remove every folder made since the last call; how many there were."""
    n = len(_MADE)
    while _MADE:
        shutil.rmtree(_MADE.pop(), ignore_errors=True)
    return n
